/* toolchain.c - compiler identification and profile-tool discovery (see toolchain.h). */
#include "pipeline/toolchain.h"
#include "lib/proc.h"
#include "lib/output.h"
#include "lib/util.h"

#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

const char *cc_family_name(enum cc_family f)
{
	switch (f) {
	case CC_GCC: return "gcc";
	case CC_CLANG: return "clang";
	case CC_APPLE_CLANG: return "apple-clang";
	default: return "unknown";
	}
}

const char *find_define(const char *defines, const char *name, char *value, int n)
{
	size_t len = strlen(name);
	for (const char *p = defines; p && *p;) {
		const char *eol = strchr(p, '\n');
		size_t linelen = eol ? (size_t)(eol - p) : strlen(p);
		if (linelen >= 8 + len && strncmp(p, "#define ", 8) == 0 && strncmp(p + 8, name, len) == 0 &&
		    (p[8 + len] == ' ' || p[8 + len] == '\n' || 8 + len == linelen)) {
			const char *v = p + 8 + len + (p[8 + len] == ' ');
			int vlen = (int)(linelen - (size_t)(v - p));
			snprintf(value, (size_t)n, "%.*s", vlen, v);
			return value;
		}
		p = eol ? eol + 1 : NULL;
	}
	return NULL;
}

int parse_tool_version(const char *output, char *out, int n)
{
	const char *p = output ? strstr(output, "LLVM version ") : NULL;
	out[0] = '\0';
	if (p) {
		p += strlen("LLVM version ");
	} else if (output) {
		/* GNU style: "gcov-tool (Debian 12.2.0-14) 12.2.0": the last token of line one. */
		const char *eol = strchr(output, '\n');
		const char *end = eol ? eol : output + strlen(output);
		const char *q = end;
		while (q > output && isspace((unsigned char)q[-1]))
			q--;
		while (q > output && !isspace((unsigned char)q[-1]))
			q--;
		p = q;
	}
	if (!p || !isdigit((unsigned char)*p))
		return -1;
	int len = 0;
	while ((isdigit((unsigned char)p[len]) || p[len] == '.') && len < n - 1)
		len++;
	snprintf(out, (size_t)n, "%.*s", len, p);
	return atoi(out);
}

/* Runs the compiler command (split without a shell) followed by the words of `args`
 * (profopt's own flags, split on blanks) and `last` (NULL-terminated; file names, taken
 * whole).  Returns the wait status (see run_child); *out: the output, if out is given. */
static int run_cc(const char *cc, const char *args, char *const last[], char **out)
{
	char **cmd = split_command(cc), **words = split_command(args);
	size_t n = 0, k = 0;
	while (cmd[n])
		n++;
	for (size_t i = 0; words[i]; i++)
		k++;
	for (size_t i = 0; last && last[i]; i++)
		k++;
	char **argv = xcalloc(n + k + 1, sizeof *argv);
	memcpy(argv, cmd, n * sizeof *argv);
	k = n;
	for (size_t i = 0; words[i]; i++)
		argv[k++] = words[i];
	for (size_t i = 0; last && last[i]; i++)
		argv[k++] = last[i];
	int st = n ? run_child(argv, NULL, out, NULL) : RUN_NOT_STARTED;
	if (!n && out)
		*out = xstrdup("empty compiler command");
	free(argv);
	free_words(cmd);
	free_words(words);
	return st;
}

/* Runs a tool with its argument vector; returns its output when it exited 0, else NULL. */
static char *tool_output(char *const argv[])
{
	char *out = NULL;
	if (!proc_exit_ok(run_child(argv, NULL, &out, NULL))) {
		free(out);
		return NULL;
	}
	return out;
}

/* The real clang binary: what `cc -###` says it runs as cc1, resolved through symlinks.
 * This sees through wrapper scripts and symlinks named gcc or cc. */
static char *clang_real_path(const char *cc)
{
	char *out = NULL, *result = NULL;
	run_cc(cc, "-### -c -x c /dev/null -o /dev/null", NULL, &out);
	for (char *line = out ? strtok(out, "\n") : NULL; line; line = strtok(NULL, "\n")) {
		char *q = strstr(line, "\" \"-cc1\"");
		if (line[0] == ' ' && line[1] == '"' && q) {
			*q = '\0';
			result = resolve_path(line + 2);
			break;
		}
	}
	free(out);
	return result;
}

/* The compiler's program: the first word of the CC command. */
static char *first_word(const char *cc)
{
	char **words = split_command(cc);
	char *w = xstrdup(words[0] ? words[0] : "");
	free_words(words);
	return w;
}

static void add_candidate(struct toolchain *t, char *path, const char *source)
{
	if (!path || t->ncandidates == MAX_CANDIDATES) {
		free(path);
		return;
	}
	for (int i = 0; i < t->ncandidates; i++)
		if (strcmp(t->candidates[i].path, path) == 0) {
			free(path);
			return;
		}
	struct tool_candidate *c = &t->candidates[t->ncandidates++];
	c->path = path;
	c->source = source;
	char *gcov_argv[] = {path, "--version", NULL}, *llvm_argv[] = {path, "merge", "--version", NULL};
	char *out = NULL;
	run_child(t->family == CC_GCC ? gcov_argv : llvm_argv, NULL, &out, NULL);
	c->major = parse_tool_version(out, c->version, sizeof c->version);
	free(out);
}

static void search_llvm_profdata(struct toolchain *t)
{
	char *name = xasprintf("llvm-profdata-%d", t->major);
	if (t->real_path) {
		char *dir = xstrdup(t->real_path);
		char *sib = xasprintf("%s/llvm-profdata", dirname(dir));
		add_candidate(t, find_program(sib), "next to the real clang");
		free(sib);
		free(dir);
	}
	add_candidate(t, find_program(name), "PATH (versioned name)");
	add_candidate(t, find_program("llvm-profdata"), "PATH");
	char *xcrun = find_program("xcrun");
	if (xcrun) {
		char *argv[] = {xcrun, "-find", "llvm-profdata", NULL}, *out = tool_output(argv);
		if (out && *out) {
			out[strcspn(out, "\n")] = '\0';
			add_candidate(t, xstrdup(out), "xcrun -find");
		}
		free(out);
		free(xcrun);
	}
	free(name);
}

static void search_gcov_tool(struct toolchain *t)
{
	/* gcc-12 -> gcov-tool-12 in the same directory, as Debian and most distributions install */
	char *w = first_word(t->cc);
	char *base = basename(w);
	char *gcc = strstr(base, "gcc");
	if (t->cc_path && gcc) {
		char *dir = xstrdup(t->cc_path);
		char *sib = xasprintf("%s/%.*sgcov-tool%s", dirname(dir), (int)(gcc - base), base, gcc + 3);
		add_candidate(t, find_program(sib), "next to the compiler");
		free(sib);
		free(dir);
	}
	free(w);
	char *name = xasprintf("gcov-tool-%d", t->major);
	add_candidate(t, find_program(name), "PATH (versioned name)");
	add_candidate(t, find_program("gcov-tool"), "PATH");
	free(name);
}

static void choose_tool(struct toolchain *t, const char *override)
{
	int explicit = override && *override;
	if (explicit) {
		char *p = find_program(override);
		if (!p) {
			t->why = xasprintf("%s '%s' (given explicitly) was not found or is not executable", t->tool_name, override);
			return;
		}
		add_candidate(t, p, "given explicitly");
	} else if (t->family == CC_GCC) {
		search_gcov_tool(t);
	} else {
		search_llvm_profdata(t);
	}
	for (int i = 0; i < t->ncandidates; i++) {
		struct tool_candidate *c = &t->candidates[i];
		if (c->major == t->major || explicit) {
			t->tool_path = xstrdup(c->path);
			snprintf(t->tool_version, sizeof t->tool_version, "%s", c->version);
			t->tool_major = c->major;
			t->tool_matches = c->major == t->major;
			break;
		}
	}
	if (t->tool_matches)
		return;
	struct buf b = {0};
	if (t->ncandidates == 0) {
		buf_printf(&b, "no %s found (looked for %s-%d and %s in PATH%s)", t->tool_name, t->tool_name, t->major,
			   t->tool_name, t->family == CC_GCC ? "" : " and next to the real clang");
	} else {
		buf_printf(&b, "%s %s needs %s %d; found", cc_family_name(t->family), t->version, t->tool_name, t->major);
		for (int i = 0; i < t->ncandidates; i++)
			buf_printf(&b, "%s %s (version %s)", i ? "," : "", t->candidates[i].path,
				   t->candidates[i].version[0] ? t->candidates[i].version : "unknown");
	}
	if (t->family == CC_GCC)
		buf_printf(&b, "; install gcov-tool %d (Debian: package gcc-%d) or set GCOV_TOOL=PATH", t->major, t->major);
	else
		buf_printf(&b, "; install llvm-profdata %d (Debian: package llvm-%d) or set LLVM_PROFDATA=PATH", t->major,
			   t->major);
	t->why = b.data;
}

/* Whether the compiler accepts a flag (compiles a one-line file with -Werror). */
static int accepts_flag(const struct toolchain *t, const char *flag)
{
	char *flags = xasprintf("-Werror %s -x c -c -o /dev/null", flag);
	char *last[] = {t->probe_src, NULL};
	int ok = proc_exit_ok(run_cc(t->cc, flags, last, NULL));
	free(flags);
	return ok;
}

static void choose_flags(struct toolchain *t)
{
	/* Parallel processes never lose counts (libgcov locks each .gcda; clang's %m pool files
	 * are locked).  Atomic updates for threads inside one process: clang's cost nearly
	 * nothing (loop counters are promoted to registers); GCC's made CPython's training 2.5
	 * times slower, so GCC stays single-threaded like stock CPython (see ax_pgo.m4). */
	const char *update = t->family != CC_GCC && accepts_flag(t, "-fprofile-update=atomic") ? " -fprofile-update=atomic" : "";
	if (t->family == CC_GCC) {
		t->gen_flags = xasprintf("-fprofile-generate%s", update);
		t->use_flags = xstrdup("-fprofile-use -fprofile-correction");
		t->merge_cmd = xasprintf("%s merge", t->tool_path ? t->tool_path : "gcov-tool");
	} else {
		/* Enough value-profile counters that the runtime never warns on stderr (which fails
		 * tests comparing stderr), as the m4 macro does: only where clang takes the option
		 * twice, since build systems repeat CFLAGS and clang 14 refuses a repeated -mllvm. */
		const char *vp = accepts_flag(t, "-mllvm -vp-counters-per-site=8 -mllvm -vp-counters-per-site=8")
					 ? " -mllvm -vp-counters-per-site=8" : "";
		t->gen_flags = xasprintf("-fprofile-generate%s%s", update, vp);
		t->use_flags = xstrdup("-fprofile-use=@PROFDATA@");
		t->merge_cmd = xasprintf("%s merge -output=@PROFDATA@", t->tool_path ? t->tool_path : "llvm-profdata");
	}
}

/* Whether an instrumented program links: clang's profile runtime is a package of its own. */
static int links_instrumented(const struct toolchain *t, const char *flags)
{
	char *exe = xasprintf("%s/probe", t->probe_dir), *args = xasprintf("%s -x c", flags);
	char *last[] = {t->probe_src, "-o", exe, NULL};
	int ok = proc_exit_ok(run_cc(t->cc, args, last, NULL));
	free(args);
	free(exe);
	return ok;
}

/* A private directory with a one-line C file, for the compiler checks. */
static void make_probe_source(struct toolchain *t)
{
	static const char text[] = "int main(void) { return 0; }\n";
	t->probe_dir = make_temp_dir("probe");
	t->probe_src = xasprintf("%s/probe.c", t->probe_dir);
	if (write_file_atomic(t->probe_src, text, sizeof text - 1) < 0)
		fatal("cannot write %s: %s", printable(t->probe_src), strerror(errno));
}

int toolchain_detect(struct toolchain *t, const char *cc, const char *tool_override)
{
	char value[64], *defines = NULL;
	memset(t, 0, sizeof *t);
	t->cc = xstrdup(cc && *cc ? cc : "cc");

	char *w = first_word(t->cc);
	char *found = find_program(w);
	t->cc_path = found;
	free(w);

	int rc = run_cc(t->cc, "-E -dM -x c /dev/null", NULL, &defines);
	if (!proc_exit_ok(rc)) {
		t->why = xasprintf("'%s' could not preprocess an empty file (is it a C compiler?)%s%s", t->cc,
				   defines && *defines ? ": " : "", defines && *defines ? strtok(defines, "\n") : "");
		free(defines);
		return -1;
	}
	if (find_define(defines, "__clang__", value, sizeof value)) {
		t->family = find_define(defines, "__apple_build_version__", value, sizeof value) ? CC_APPLE_CLANG : CC_CLANG;
		t->major = atoi(find_define(defines, "__clang_major__", value, sizeof value) ? value : "0");
		t->minor = atoi(find_define(defines, "__clang_minor__", value, sizeof value) ? value : "0");
		t->patch = atoi(find_define(defines, "__clang_patchlevel__", value, sizeof value) ? value : "0");
		t->tool_name = "llvm-profdata";
		t->real_path = clang_real_path(t->cc);
	} else if (find_define(defines, "__GNUC__", value, sizeof value)) {
		t->family = CC_GCC;
		t->major = atoi(value);
		t->minor = atoi(find_define(defines, "__GNUC_MINOR__", value, sizeof value) ? value : "0");
		t->patch = atoi(find_define(defines, "__GNUC_PATCHLEVEL__", value, sizeof value) ? value : "0");
		t->tool_name = "gcov-tool";
	} else {
		t->why = xasprintf("'%s' is neither GCC nor Clang (it predefines neither __GNUC__ nor __clang__)", t->cc);
		free(defines);
		return -1;
	}
	free(defines);
	if (!t->real_path && t->cc_path)
		t->real_path = resolve_path(t->cc_path);
	snprintf(t->version, sizeof t->version, "%d.%d.%d", t->major, t->minor, t->patch);
	choose_tool(t, tool_override);
	make_probe_source(t);
	choose_flags(t);
	t->runtime_links = links_instrumented(t, t->gen_flags);
	remove_dir_tree(t->probe_dir);
	if (!t->runtime_links && !t->why)
		t->why = t->family == CC_GCC
				 ? xasprintf("%s cannot link a program built with %s (libgcov missing?)", t->cc, t->gen_flags)
				 : xasprintf("%s cannot link a program built with %s: the profile runtime is missing "
					     "(Debian: apt-get install libclang-rt-%d-dev)",
					     t->cc, t->gen_flags, t->major);
	return 0;
}

void toolchain_free(struct toolchain *t)
{
	free(t->cc);
	free(t->cc_path);
	free(t->real_path);
	free(t->tool_path);
	free(t->why);
	free(t->gen_flags);
	free(t->use_flags);
	free(t->merge_cmd);
	free(t->probe_dir);
	free(t->probe_src);
	for (int i = 0; i < t->ncandidates; i++)
		free(t->candidates[i].path);
	memset(t, 0, sizeof *t);
}

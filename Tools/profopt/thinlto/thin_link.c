/* thin_link.c - `profopt thin-link -- LINK COMMAND`: a clang ThinLTO link whose backends run as
 * jobs, on workers when given (a launcher before $CC: any other command runs unchanged).  Archives
 * become thin archives of their members; the link runs with thinlto-index-only; each backend
 * compiles a module with its index; the link runs again with the native objects. */
#include "commands.h"
#include "lib/lines.h"
#include "lib/output.h"
#include "lib/proc.h"
#include "lib/strmap.h"
#include "lib/util.h"
#include "thinlto/thin_backends.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

struct thin_link_options {
	const char *dir, *compiler, *llvm_ar, *summary, *stage_line;
	struct option_list workers;
	long long jobs;
	int no_fallback;
	double timeout;
};

static const struct option_spec thin_link_options[] = {
	OPT_STRING("dir", 0, struct thin_link_options, dir, "DIR", "index files, objects and logs, under DIR/OUTPUT (default pgo/thinlto)"),
	OPT_LIST("worker", 0, struct thin_link_options, workers, "CMD", "runs a shell line on a worker, e.g. 'ssh build1' (repeatable)"),
	OPT_INT("jobs", 'j', struct thin_link_options, jobs, "N", 1, 4096, "backends at once (default: 2 per worker, else the CPUs)"),
	OPT_FLAG("no-fallback", 0, struct thin_link_options, no_fallback, "a backend a worker failed fails the link, never runs here"),
	OPT_SECONDS("timeout", 0, struct thin_link_options, timeout, "seconds per backend job (default 1200)"),
	OPT_STRING("compiler", 0, struct thin_link_options, compiler, "CC", "runs the backends (default: the link command's compiler)"),
	OPT_STRING("llvm-ar", 0, struct thin_link_options, llvm_ar, "PATH", "unpacks archives (default: the one beside the compiler)"),
	OPT_STRING("summary", 0, struct thin_link_options, summary, "FILE", "appends the link's one-line summary"),
	OPT_STRING("stage-line", 0, struct thin_link_options, stage_line, "STAGE", "runs no link: prints STAGE's line of DIR/links.tsv"),
	OPT_END,
};

const struct command_options options_thin_link = {
	"thin-link",
	"[OPTIONS] [--] LINK COMMAND...\n--dir=DIR --stage-line=STAGE",
	"Runs LINK COMMAND; a clang link with -flto=thin as a distributed ThinLTO link (its backend\n"
	"compiles on the workers, or here), any other command as it is.  See profopt(1).\n",
	thin_link_options,
	NULL,
	1,
};

static int run_here(char **argv)
{
	struct proc p;
	if (proc_start_foreground(&p, argv) < 0)
		fatal("cannot execute %s: %s", printable(argv[0]), strerror(p.exec_errno));
	int st;
	while (waitpid(p.pid, &st, 0) < 0)
		if (errno != EINTR)
			fatal("waitpid: %s", strerror(errno));
	return shell_status(st);
}

_Noreturn static void exec_as_is(char **link)
{
	execvp(link[0], link);
	fatal("cannot execute %s: %s", printable(link[0]), strerror(errno));
}

/* Whether A is one of LIST (with PREFIX: starts with one). */
static int in_list(const char *a, const char *const *list, int prefix)
{
	for (int i = 0; list[i]; i++)
		if (prefix ? starts_with(a, list[i]) : !strcmp(a, list[i]))
			return 1;
	return 0;
}

/* The options whose value is the next argument. */
static const char *const with_value[] = {"-o", "-Xlinker", "-z", "-T", "-u", "-e", "-x", "-MF", "-MT", "-MQ",
					 NULL};

/* The index of the argument after link[i], an option's value passed over (-Xlinker -E is the
 * linker's, not the preprocessor's). */
static int next_arg(char **link, int i)
{
	return i + 1 + (in_list(link[i], with_value, 0) && link[i + 1]);
}

/* The value of -o, or NULL: a link with -flto=thin last among -flto options, and no -c, -S, -E. */
static const char *thin_link_output(char **link)
{
	static const char *const no_link[] = {"-c", "-S", "-E", "-M", "-MM", NULL};
	const char *out = NULL, *lto = NULL;
	for (int i = 1; link[i]; i = next_arg(link, i)) {
		const char *a = link[i];
		if (in_list(a, no_link, 0) || a[0] == '@')
			return NULL;
		if (starts_with(a, "-flto") || !strcmp(a, "-fno-lto"))
			lto = a;
		if (!strcmp(a, "-o") && link[i + 1])
			out = link[i + 1];
		else if (starts_with(a, "-o") && a[2])
			out = a + 2;
	}
	return lto && !strcmp(lto, "-flto=thin") ? out : NULL;
}

/* A link's flags that shape code generation, without what only the link or the front end reads. */
static int backend_flag(const char *a)
{
	static const char *const dropped[] = {"-O", "-l", "-L", "-Wl,", "-flto", "-fno-lto", "-fprofile", "-fno-profile",
					      "-fcs-profile", "-fuse-ld=", "--ld-path=", "-shared", "-static", "-pie",
					      "-no-pie", "-rdynamic", "-nostdlib", "-nostartfiles", "-I", "-D", "-U", NULL};
	return a[0] == '-' && !in_list(a, dropped, 1);
}

/* The optimization level clang's linker plugin runs the backends at for this link's -O (2 when
 * there is none: a compile of IR without -O would make -O0's code; -Os and -Oz are 2, -Ofast 3),
 * or NULL below 2, where the plugin's pipeline is not the one `clang -c -O1` runs. */
static const char *lto_level(char **link)
{
	static const char *const kept[] = {"-O2", "-O3", NULL}, *const o3[] = {"-Ofast", "-O4", NULL},
				 *const below[] = {"-O0", "-O1", "-Og", "-O", NULL};
	const char *level = "-O2";
	for (int i = 1; link[i]; i++) {
		const char *a = link[i];
		if (a[0] == '-' && a[1] == 'O')
			level = in_list(a, kept, 0) ? a : in_list(a, o3, 0) ? "-O3" : in_list(a, below, 0) ? NULL : "-O2";
	}
	return level;
}

/* The LLVM options in a link's -Wl,... for the linker's LLVM (-plugin-opt=-X for bfd's and gold's
 * plugin, lld's -mllvm,X; AX_PGO's PGO_DISPATCH_LDFLAGS), where the backends generate the code:
 * appended to argv from k as -mllvm X; the new k. */
static int plugin_llvm_options(const char *wl, char **argv, int k)
{
	char *copy = xstrdup(wl + 4), *save = NULL;
	int after_mllvm = 0;
	for (char *p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		const char *x = starts_with(p, "-plugin-opt=-") ? p + 12 : starts_with(p, "--plugin-opt=-") ? p + 13
				: after_mllvm ? p : NULL;
		after_mllvm = !strcmp(p, "-mllvm") || !strcmp(p, "--mllvm");
		if (x) {
			argv[k++] = "-mllvm";
			argv[k++] = (char *)x;
		}
	}
	return k;
}

static char **backend_compile(char **link, const char *compiler)
{
	int n = 0, first = 0, room = 3;
	while (link[n])
		room += 1 + (starts_with(link[n], "-Wl,") ? 2 * (int)strlen(link[n]) : 0), n++;
	while (first < n && link[first][0] != '-')
		first++;
	char **argv = xcalloc(room, sizeof *argv);
	int k = 0;
	argv[k++] = (char *)(compiler ? compiler : link[first ? first - 1 : 0]);
	argv[k++] = (char *)lto_level(link);
	for (int i = first; i < n; i++) {
		if (in_list(link[i], with_value, 0))
			i++;
		else if (backend_flag(link[i]))
			argv[k++] = link[i];
		else if (starts_with(link[i], "-Wl,"))
			k = plugin_llvm_options(link[i], argv, k);
	}
	return argv;
}

struct unpacked {
	int arg;        /* its place in the link */
	char **members; /* the extracted files, in the archive's order */
};

static char *run_tool(char **argv, const char *what)
{
	char *out = NULL;
	int st = run_child(argv, NULL, &out, NULL);
	if (!proc_exit_ok(st))
		fatal("%s failed (%s): %s", what, printable(argv[0]), printable(out ? out : ""));
	return out;
}

/* Archive A becomes DIR/ar/K.a, a thin archive of its members unpacked into DIR/ar/K/: NULL
 * when a member's name would not be a file of its own (then the link runs in one process). */
static char **unpack_archive(const char *llvm_ar, const char *a, const char *dir, int k)
{
	char *list_argv[] = {(char *)llvm_ar, "t", (char *)a, NULL};
	char *names = run_tool(list_argv, "listing an archive");
	char *into = xasprintf("%s/ar/%d", dir, k), *opt = xasprintf("--output=%s", into);
	if (make_dirs(into, 0777) < 0)
		fatal("cannot make %s: %s", into, strerror(errno));
	struct strmap seen = {0};
	char **members = NULL;
	int n = 0, cap = 0, bad = 0;
	for (char *save, *name = strtok_r(names, "\n", &save); name; name = strtok_r(NULL, "\n", &save)) {
		void **slot = strmap_slot(&seen, name, 1);
		bad |= *slot != NULL || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..");
		*slot = name;
		members = grow_array(members, n + 2, &cap, sizeof *members, 16);
		members[n++] = xasprintf("%s/%s", into, name);
		members[n] = NULL;
	}
	char *x_argv[] = {(char *)llvm_ar, "x", opt, (char *)a, NULL};
	if (!bad && n)
		run_tool(x_argv, "unpacking an archive");
	return bad || !n ? NULL : members;
}

/* An archive of files (thin: it names them), replacing what was there. */
static void make_archive(const char *llvm_ar, const char *path, char **files)
{
	int n = 0;
	while (files[n])
		n++;
	char **argv = xcalloc(n + 4, sizeof *argv);
	argv[0] = (char *)llvm_ar, argv[1] = "rcsT", argv[2] = (char *)path;
	memcpy(argv + 3, files, n * sizeof *argv);
	unlink(path);
	run_tool(argv, "writing an archive");
}

struct link_state {
	char **link;    /* the command, with archives replaced as they are unpacked */
	int n;          /* its words */
	const char *dir, *out, *llvm_ar;
	char *prefix; /* index_prefix() */
	struct unpacked *archives;
	int narchives;
	struct thin_module *mods;
	int nmods;
	struct strmap by_path; /* module path -> its thin_module */
};

/* 0, or -1 when an archive stays packed (its members are no files a backend can read) or is a
 * thin archive. */
static int unpack_archives(struct link_state *s)
{
	int cap = 0;
	for (int i = 1; s->link[i]; i = next_arg(s->link, i)) {
		if (s->link[i][0] != '-' && file_starts_with(s->link[i], "!<thin>\n", 8))
			return -1; /* its members are named from its directory: their index files could land anywhere */
		if (s->link[i][0] == '-' || !ends_with(s->link[i], ".a") || !file_starts_with(s->link[i], "!<arch>\n", 8))
			continue;
		char **members = unpack_archive(s->llvm_ar, s->link[i], s->dir, s->narchives);
		if (!members)
			return -1;
		char *thin = xasprintf("%s/ar/%d.a", s->dir, s->narchives);
		make_archive(s->llvm_ar, thin, members);
		s->archives = grow_array(s->archives, s->narchives, &cap, sizeof *s->archives, 4);
		s->archives[s->narchives++] = (struct unpacked){i, members};
		s->link[i] = thin;
	}
	return 0;
}

/* Whether PATH, read as text, is not under DIR. */
static int escapes(const char *dir, const char *path)
{
	char *d = xstrdup(dir), *p = xstrdup(path);
	normalize_path(d), normalize_path(p);
	size_t n = strlen(d);
	return strncmp(p, d, n) || p[n] != '/';
}

/* How far a name climbs above here, read as text: "../../a.o" 2, "x/../a.o" 0, "/a.o" 0. */
static int climbs(const char *name)
{
	char *p = xstrdup(name);
	normalize_path(p);
	int n = 0;
	for (const char *c = p; p[0] != '/' && starts_with(c, "..") && (c[2] == '/' || !c[2]); c += c[2] ? 3 : 2)
		n++;
	return n;
}

/* Where the index-only link writes PREFIX/MODULE.thinlto.bc and .imports: the link's directory,
 * and under it a level ("_") for each level the link's inputs climb above here (an unpacked
 * archive's members too, named under a DIR outside here), so that "../a.o"'s files stay in it. */
static char *index_prefix(const struct link_state *s)
{
	int up = 0;
	for (int i = 1; s->link[i]; i = next_arg(s->link, i))
		if (s->link[i][0] != '-' && climbs(s->link[i]) > up)
			up = climbs(s->link[i]);
	struct buf b = {0};
	buf_puts(&b, s->dir);
	for (int k = 0; k < up; k++)
		buf_puts(&b, "/_");
	if (make_dirs(b.data, 0777) < 0)
		fatal("cannot make %s: %s", printable(b.data), strerror(errno));
	return b.data;
}

/* The index-only link: every module's DIR/MODULE.thinlto.bc and .imports, and the list. */
static int index_link(struct link_state *s, const char *list)
{
	int lld = 0;
	for (int i = 1; s->link[i]; i++)
		lld |= !strcmp(s->link[i], "-fuse-ld=lld") || (starts_with(s->link[i], "--ld-path=") && strstr(s->link[i], "lld"));
	const char *opt = lld ? "-Wl,--" : "-Wl,-plugin-opt,"; /* lld's, or the plugin's for bfd and gold */
	const char *more[] = {xasprintf("%sthinlto-index-only=%s", opt, list),
			      xasprintf("%sthinlto-emit-imports-files", opt),
			      xasprintf("%sthinlto-prefix-replace=;%s/", opt, s->prefix)};
	char **argv = xcalloc(s->n + 4, sizeof *argv);
	memcpy(argv, s->link, s->n * sizeof *argv);
	memcpy(argv + s->n, more, sizeof more);
	int rc = run_here(argv);
	struct stat st;
	if (stat(s->out, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0)
		unlink(s->out); /* the index-only link leaves an empty output */
	return rc;
}

/* PREFIX/PATH.imports: the modules PATH's index imports from, NULL-terminated. */
static char **read_imports(const char *prefix, const char *path)
{
	char err[600], **v = NULL;
	struct lines l;
	if (lines_read(&l, xasprintf("%s/%s.imports", prefix, path), LINES_NAMES, 4096, err, sizeof err) < 0)
		fatal("%s", err);
	int n = 0, cap = 0;
	do /* the lines, cut in place in the text l keeps */
		v = grow_array(v, n, &cap, sizeof *v, 8);
	while ((v[n++] = lines_next(&l)) != NULL);
	return v;
}

/* Module i, PATH, its index PREFIX/PATH.thinlto.bc and its object DIR/native/i.o, for each
 * module of the index-only link's list. */
static void load_modules(struct link_state *s, const char *list)
{
	char err[600];
	struct lines l;
	if (lines_read(&l, list, LINES_NAMES, 4096, err, sizeof err) < 0)
		fatal("the index-only link's list: %s", err);
	size_t dlen = strlen(s->prefix);
	int cap = 0;
	for (char *line; (line = lines_next(&l));) {
		if (strncmp(line, s->prefix, dlen) || line[dlen] != '/' || escapes(s->dir, line))
			fatal("%s: '%s' is not under %s", list, printable(line), printable(s->dir));
		s->mods = grow_array(s->mods, s->nmods, &cap, sizeof *s->mods, 64);
		struct thin_module *m = &s->mods[s->nmods];
		memset(m, 0, sizeof *m);
		m->path = line + dlen + 1; /* in the text l keeps */
		m->index = xasprintf("%s/%s.thinlto.bc", s->prefix, m->path);
		m->native = xasprintf("%s/native/%d.o", s->dir, s->nmods);
		m->imports = read_imports(s->prefix, m->path);
		if (!file_starts_with(m->path, "BC\xC0\xDE", 4))
			fatal("%s is not LLVM bitcode, yet the link listed it", printable(m->path));
		s->nmods++;
	}
	for (int i = 0; i < s->nmods; i++)
		*strmap_slot(&s->by_path, s->mods[i].path, 1) = &s->mods[i];
}

/* The link again, each module's native object in its place; a module the index listed must be
 * found in the command. */
static char **native_link(struct link_state *s)
{
	int n = s->n, placed = 0;
	char **argv = xcalloc(n + 1, sizeof *argv);
	memcpy(argv, s->link, n * sizeof *argv);
	for (int i = 1; i < n; i++) {
		struct thin_module *m = argv[i][0] == '-' ? NULL : strmap_get(&s->by_path, argv[i]);
		if (m)
			argv[i] = m->native, placed += !m->placed, m->placed = 1;
	}
	for (int k = 0; k < s->narchives; k++) {
		char **files = NULL;
		int nf = 0, cap = 0;
		for (char **p = s->archives[k].members; *p; p++) {
			struct thin_module *m = strmap_get(&s->by_path, *p);
			if (!m && file_starts_with(*p, "BC\xC0\xDE", 4))
				continue; /* the link took nothing from it */
			files = grow_array(files, nf + 2, &cap, sizeof *files, 16);
			files[nf++] = m ? m->native : *p, files[nf] = NULL;
			if (m)
				placed += !m->placed, m->placed = 1;
		}
		char *native = xasprintf("%s/ar/%d.native.a", s->dir, k);
		if (files)
			make_archive(s->llvm_ar, native, files);
		argv[s->archives[k].arg] = files ? native : NULL; /* NULL: the link took nothing from it */
	}
	int k = 0;
	for (int i = 0; i < n; i++)
		if (argv[i])
			argv[k++] = argv[i];
	argv[k] = NULL;
	if (placed != s->nmods)
		fatal("%s: a module the index listed is not in the link command", printable(s->out));
	return argv;
}

static void write_times(const struct link_state *s)
{
	struct buf b = {0};
	buf_puts(&b, "module\twhere\tseconds\n");
	for (int i = 0; i < s->nmods; i++)
		buf_printf(&b, "%s\t%s\t%.3f\n", s->mods[i].path,
			   s->mods[i].worker ? s->mods[i].worker : s->mods[i].failed ? "failed" : "here", s->mods[i].seconds);
	char *path = xasprintf("%s/times.tsv", s->dir);
	output_write(path, b.data, b.len);
}

/* TEXT and a newline appended to PATH in one write: the links of one build append at once. */
static void append_line(const char *path, const char *text)
{
	char err[600], *line = xasprintf("%s\n", text);
	int fd = output_open_log(path, 1, err, sizeof err);
	if (fd < 0 || write(fd, line, strlen(line)) != (ssize_t)strlen(line))
		fatal("cannot write %s: %s", printable(path), fd < 0 ? err : strerror(errno));
	close(fd);
}

static void say(const char *summary_file, const char *line)
{
	fprintf(stderr, "%s\n", line);
	if (summary_file)
		append_line(summary_file, line);
}

/* DIR/links.tsv's line for this link: OUTPUT, backends on the workers, backends, why some ran
 * here (both counts "-", REMOTE < 0, for a link run in one process). */
static void record_link(const char *dir, const char *out, int remote, int total, const char *why)
{
	char *path = xasprintf("%s/links.tsv", dir), *line = remote < 0 ? xasprintf("%s\t-\t-\t%s", out, why)
									  : xasprintf("%s\t%d\t%d\t%s", out, remote, total, why);
	if (make_dirs(dir, 0777) < 0)
		fatal("cannot make %s: %s", printable(dir), strerror(errno));
	append_line(path, line);
}

/* --stage-line: DIR/links.tsv summed up in one line. */
static int stage_line(const char *dir, const char *stage)
{
	char err[600], *path = xasprintf("%s/links.tsv", dir);
	struct lines l;
	if (lines_read(&l, path, LINES_NAMES, 8192, err, sizeof err) < 0)
		fatal("%s", err);
	long long split = 0, whole = 0, remote = 0, total = 0;
	struct buf why = {0}, why_whole = {0};
	for (char *line; (line = lines_next(&l));) {
		char *f[4], *save;
		int n = 0;
		for (char *c = strtok_r(line, "\t", &save); c && n < 4; c = strtok_r(NULL, "\t", &save))
			f[n++] = c;
		long long r, t;
		if (n >= 3 && !strcmp(f[1], "-") && !strcmp(f[2], "-")) {
			const char *w = n == 4 ? f[3] : "below -O2"; /* a record of before the reason was kept */
			if (!strstr(why_whole.data ? why_whole.data : "", w))
				buf_printf(&why_whole, "%s%s", why_whole.len ? "; " : "", w);
			whole++;
			continue;
		}
		if (n < 3 || parse_whole(f[1], 0, 1 << 30, &r) < 0 || parse_whole(f[2], r, 1 << 30, &t) < 0)
			fatal("%s:%d: not OUTPUT, backends on the workers, backends, why", printable(path), l.lineno);
		split++, remote += r, total += t;
		for (char *r = n == 4 ? strtok_r(f[3], ";", &save) : NULL; r; r = strtok_r(NULL, ";", &save)) {
			r += strspn(r, " ");
			if (*r && !strstr(why.data ? why.data : "", r))
				buf_printf(&why, "; %s", r);
		}
	}
	printf("thin-link (%s): %lld link%s split, %lld of %lld backends on the workers, %lld here%s", printable(stage),
	       split, split == 1 ? "" : "s", remote, total, total - remote, why.len ? why.data : "");
	if (whole)
		printf("; %lld link%s in one process (%s)", whole, whole == 1 ? "" : "s", why_whole.data);
	printf("\n");
	return 0;
}

/* The plan's workers: each --worker value split at ';', blank ones dropped. */
static void add_workers(struct thin_plan *p, const struct option_list *given)
{
	const char **w = NULL;
	int cap = 0;
	for (int i = 0; i < given->n; i++) {
		char *copy = xstrdup(given->v[i]), *save;
		for (char *c = strtok_r(copy, ";", &save); c; c = strtok_r(NULL, ";", &save)) {
			if (strspn(c, " \t") == strlen(c))
				continue;
			w = grow_array(w, p->nworkers, &cap, sizeof *w, 4);
			w[p->nworkers++] = c;
		}
	}
	p->workers = w;
}

/* OUTPUT as one name of its own inside DIR, percent-encoded: every byte but letters, digits and
 * "+-._" as %XX (so "a/b" and "a_b" are two links' directories, and no newline reaches the
 * linker's module list), and a leading '.' too, or the '.' of a name ending in .tsv or .txt
 * (DIR's own files); "" is "%".  No output name is DIR, above it or another link's. */
static char *link_name(const char *out)
{
	struct buf b = {0};
	size_t n = strlen(out);
	int dot_at = ends_with(out, ".tsv") || ends_with(out, ".txt") ? (int)n - 4 : 0;
	buf_puts(&b, n ? "" : "%");
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)out[i];
		int plain = (c < 0x80 && isalnum(c)) || (c && strchr("+-_", c)) || (c == '.' && i && (int)i != dot_at);
		if (plain)
			buf_add(&b, out + i, 1);
		else
			buf_printf(&b, "%%%02X", c);
	}
	return b.data;
}

/* DIR/NAME (link_name), relative to here when DIR is absolute: the modules of unpacked archives
 * are named under it, and a worker rebuilds only relative names. */
static char *link_dir(const char *base, const char *out)
{
	char *cwd = getcwd(NULL, 0);
	if (make_dirs(base, 0777) < 0)
		fatal("cannot make %s: %s", printable(base), strerror(errno));
	if (base[0] == '/' && cwd) {
		base = resolve_path(base);
		size_t dir = common_dir_length(base, cwd);
		struct buf rel = {0};
		for (const char *c = cwd + dir; *c; c++)
			if (*c == '/')
				buf_puts(&rel, rel.len ? "/.." : "..");
		buf_printf(&rel, "%s%s", rel.len ? "" : ".", base + dir);
		base = rel.data;
	}
	return xasprintf("%s/%s", base, link_name(out));
}

/* "thin-link (OUTPUT): N of M backends on the workers, K here (why)", each backend counted where
 * it made its object; those that made none are counted apart, and such a link is not recorded
 * in DIR/links.tsv (it is not linked). */
static void backends_summary(const struct link_state *s, const struct thin_link_options *o, struct buf *summary)
{
	struct buf why = {0};
	int remote = 0, failed = 0;
	for (int i = 0; i < s->nmods; i++) {
		const struct thin_module *m = &s->mods[i];
		remote += m->worker != NULL, failed += m->failed;
		if (!m->worker && m->why_here && !strstr(why.data ? why.data : "", m->why_here))
			buf_printf(&why, "%s%s", why.len ? "; " : "", m->why_here);
	}
	buf_printf(summary, "thin-link (%s): %d of %d backends on the workers, %d here", printable(s->out), remote, s->nmods,
		   s->nmods - remote - failed);
	if (failed)
		buf_printf(summary, ", %d failed%s", failed,
			   o->no_fallback && o->workers.n ? " (fallback off: a backend a worker failed is not run here)" : "");
	if (why.len)
		buf_printf(summary, " (%s)", why.data);
	if (!failed)
		record_link(o->dir, printable(s->out), remote, s->nmods, why.len ? why.data : "");
}

/* The link as it is; SHORT is why, in DIR/links.tsv. */
_Noreturn static void one_process(const struct thin_link_options *o, const char *out, char **link, const char *why,
				  const char *short_why)
{
	say(o->summary, xasprintf("thin-link (%s): linked in one process: %s", printable(out), why));
	record_link(o->dir, printable(out), -1, 0, short_why);
	exec_as_is(link);
}

int cmd_thin_link(int argc, char **argv)
{
	struct thin_link_options o = {.dir = "pgo/thinlto", .timeout = 1200};
	int first = options_parse(&options_thin_link, argc, argv, &o);
	const char *fallback = getenv("PGO_THINLTO_FALLBACK");
	o.no_fallback |= fallback && !strcmp(fallback, "0");
	if (o.stage_line && first < argc)
		usage_error("--stage-line runs no link command");
	if (o.stage_line)
		return stage_line(o.dir, o.stage_line);
	if (first >= argc)
		usage_error("no link command given (see 'profopt thin-link --help')");
	char **link = argv + first;
	const char *out = thin_link_output(link);
	if (!out)
		exec_as_is(link);
	if (!lto_level(link))
		one_process(&o, out, link, "below -O2 the linker plugin's pipeline is not the one a backend compile runs",
			    "below -O2");
	char **compile = backend_compile(link, o.compiler);
	struct link_state s = {.link = link, .n = argc - first, .out = out, .dir = link_dir(o.dir, out)};
	char *compiler_path = find_program(compile[0]), *real = compiler_path ? resolve_path(compiler_path) : NULL;
	char *slash = real ? strrchr(real, '/') : NULL;
	s.llvm_ar = o.llvm_ar ? o.llvm_ar : slash ? xasprintf("%.*s/llvm-ar", (int)(slash - real), real) : "llvm-ar";
	remove_dir_tree(s.dir);
	if (make_dirs(xasprintf("%s/native", s.dir), 0777) < 0)
		fatal("cannot make %s: %s", s.dir, strerror(errno));
	double t0 = now();
	if (unpack_archives(&s) < 0)
		one_process(&o, out, link,
			    "an archive's members are not files of their own (names with '/', or twice), or it is a "
			    "thin archive",
			    "an archive left packed");
	s.prefix = index_prefix(&s);
	char *list = xasprintf("%s/modules.list", s.dir);
	int rc = index_link(&s, list);
	if (rc)
		return rc;
	load_modules(&s, list);
	double t1 = now();
	struct thin_plan plan = {.compile = compile, .job_dir = xasprintf("%s/jobs", s.dir),
				 .fallback = !o.no_fallback, .timeout = o.timeout};
	add_workers(&plan, &o.workers);
	plan.jobs = o.jobs ? (int)o.jobs : plan.nworkers ? 2 * plan.nworkers : (int)sysconf(_SC_NPROCESSORS_ONLN);
	int failed = thin_backends_run(&plan, s.mods, s.nmods);
	struct buf summary = {0};
	backends_summary(&s, &o, &summary);
	write_times(&s);
	if (failed) {
		say(o.summary, summary.data);
		fatal("%d of %d backends failed: %s is not linked", failed, s.nmods, printable(out));
	}
	double t2 = now();
	rc = run_here(native_link(&s));
	buf_printf(&summary, "; index %.1f s, backends %.1f s, link %.1f s", t1 - t0, t2 - t1, now() - t2);
	say(o.summary, summary.data);
	return rc;
}

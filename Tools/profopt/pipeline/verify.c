/* verify.c - `profopt verify`: which compiled units of the profile-use build used the profile,
 * judged on evidence a profile file lying around cannot fake: the compile command (build log,
 * else switches recorded in the object), the compiler's diagnostics, the profile's data for it,
 * and (clang) the .text.hot/.text.unlikely layout the profile gives its functions, which a hash
 * mismatch silently drops. */
#include "format/buildlog.h"
#include "commands.h"
#include "lib/elf.h"
#include "format/family.h"
#include "format/tooltext.h"
#include "lib/json.h"
#include "lib/sha256.h"
#include "format/fingerprint.h"
#include "format/stamp.h"
#include "lib/strmap.h"
#include "lib/proc.h"
#include "lib/output.h"
#include "lib/util.h"
#include "lib/walk.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Why an object did not use the profile (0: it did): the stamp's key, and the report's words. */
enum reason { USED, NO_FLAG, INSTRUMENTED, NO_COMMAND, NO_PROFILE, COMPLAINT, NO_LAYOUT, NOT_MATCHED, NREASONS };
static const char *const reasons[NREASONS][2] = {
	{"used", "used"},
	{"without_use_flag", "compiled without the profile-use flag"},
	{"instrumented", "instrumented"},
	{"no_command_record", "no record of the compile command"},
	{"no_profile_data", "no profile data for them"},
	{"compiler_complained", "the compiler complained about the profile"},
	{"profile_not_in_object", "profile not visible in the object"},
	{"profile_matched_no_function", "the compiler found no profile for any of their functions"},
};

struct unit {
	char *path;
	int flags;              /* PROFILE_FLAG_* of its compile command; -1 unknown */
	const char *how;        /* where the command was read */
	int instrumented;       /* the object holds profile-generate symbols */
	struct unit_evidence ev; /* what the profile says of it */
	int as_trained;         /* its source as at training (fingerprint): 1, 0 changed, -1 unknown,
				 * TWIN_LAID_OUT: another compile of it is laid out */
	int layout;             /* .text.hot / .text.unlikely section: 1, 0, or -1 (not ELF) */
	const struct log_message *complaint;
	const struct log_message *missing; /* the first message of ev.missing_fns */
	const char *dir;        /* make's directory at its compile (the log's), or NULL */
	const char *source;     /* its compile's source, as the command named it, or NULL */
	enum reason reason;
};

struct verify_options {
	const char *family, *dir, *stamp, *log, *fingerprint, *profdata, *tool, *nm, *readelf, *since;
	struct option_list require, skip;
	int list;
};

struct verify {
	struct verify_options o;
	const struct family *fam;
	struct evidence ev; /* the profile */
	struct unit *u;
	int n;
	struct strmap by_path; /* unit index + 1 */
	struct fingerprint *fp;  /* the sources at training, or NULL */
};

/* One symbol of unit `object` (nm: every symbol, defined or not). */
static void on_symbol(void *ctx, int object, const char *sym, char type)
{
	struct verify *v = ctx;
	struct unit *u = &v->u[object];
	u->instrumented |= starts_with(sym, "__gcov_") || starts_with(sym, "__gcov0.") ||
			   starts_with(sym, "__llvm_profile_") || starts_with(sym, "__profc_") || starts_with(sym, "__profd_");
	if (type != 'T' && type != 't' && type != 'W')
		return;
	v->fam->evidence_symbol(&v->ev, sym, &u->ev);
}

/* readelf on one object: DW_AT_producer or .GCC.command.line strings. */
static void read_switches(void *ctx, const char *text, size_t len, char *const *args, int first, int count)
{
	struct verify *v = ctx;
	(void)first;
	/* args[0]: "./PATH" */
	int i = count == 1 ? (int)(intptr_t)strmap_get(&v->by_path, args[0] + 2) - 1 : -1;
	if (i < 0)
		return;
	struct unit *u = &v->u[i];
	char *out = xasprintf("%.*s", (int)len, text);
	for (char *save, *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *text = strstr(line, "DW_AT_producer");
		if (text)
			text = strstr(text, "): ") ? strstr(text, "): ") + 3 : strchr(text, ':') + 1;
		else if (starts_with(line, "  [") && strchr(line, ']'))
			text = strchr(line, ']') + 1;
		/* .GCC.command.line holds one switch per string: they add up */
		int f = text ? profile_flags(text) : -1;
		if (f >= 0) {
			u->flags = u->flags < 0 ? f : (u->flags | f);
			u->how = "the switches recorded in the object";
		}
	}
	free(out);
}

static void on_section(const char *name, void *arg)
{
	int *layout = arg;
	if (starts_with(name, ".text.hot") || starts_with(name, ".text.unlikely"))
		*layout = 1;
}

/* clang: the llvm-nm beside llvm-profdata (the kind's nm), which also lists the local functions of LLVM bitcode
 * (LTO objects; binutils nm's plugin lists only global ones); else nm. */
static const char *default_nm(const struct verify *v)
{
	char *tool = v->fam->nm ? find_program(v->o.tool) : NULL, *slash = tool ? strrchr(tool, '/') : NULL;
	char *nm = slash ? xasprintf("%.*s/%s", (int)(slash - tool), tool, v->fam->nm) : NULL;
	return nm && access(nm, X_OK) == 0 ? nm : "nm";
}

/* A tool's runs over the objects (st: the first failed run's status, why its output):
 * one that could not start is fatal; a failure worth telling is a warning with its first line. */
static void tool_result(const char *tool, int st, int failed, char *why)
{
	const char *w = why ? why : "";
	if (st == RUN_NOT_STARTED)
		fatal("cannot run %s: %s", tool, w);
	if (failed)
		warn("%s failed on some objects (%.*s)", tool, (int)strcspn(w, "\n"), w);
}

/* The objects' symbols (nm), and the switches recorded in those whose command is unknown
 * (readelf).  A tool that fails leaves objects without evidence: said, with its first words. */
static void read_objects(struct verify *v)
{
	char **paths = xcalloc((size_t)v->n + 1, sizeof *paths), *why = NULL;
	for (int i = 0; i < v->n; i++)
		paths[i] = v->u[i].path;
	int st = nm_symbols(v->o.nm, paths, v->n, NM_ALL, on_symbol, v, &why);
	tool_result(v->o.nm, st, st != 0, why);
	why = NULL;
	int n = 0;
	for (int i = 0; i < v->n; i++)
		if (v->u[i].flags < 0)
			paths[n++] = xasprintf("./%s", v->u[i].path);
	char *re_argv[] = {(char *)v->o.readelf, "--debug-dump=info", "--dwarf-depth=1", "-p", ".GCC.command.line", NULL};
	/* one object per run: readelf given several reads the indexed strings of DWARF 5 (clang's
	 * producer) from the wrong object after the first */
	st = find_program(v->o.readelf) ? run_batches(re_argv, paths, n, 1, read_switches, v, &why)
					: 0;
	/* readelf exits non-zero for an object without debug information: only a crash counts */
	tool_result(v->o.readelf, st, st > 0 && !WIFEXITED(st), why);
}

static enum reason judge(const struct verify *v, const struct unit *u)
{
	if (u->instrumented || (u->flags > 0 && (u->flags & PROFILE_FLAG_GENERATE)))
		return INSTRUMENTED;
	if (u->flags >= 0 && !(u->flags & PROFILE_FLAG_USE))
		return NO_FLAG;
	if (u->complaint)
		return COMPLAINT;
	/* gcc matched none of its functions to the profile: a .gcda of another unit, say */
	if (u->ev.missing_fns && u->ev.functions && u->ev.unmatched == u->ev.functions)
		return NOT_MATCHED;
	if (!u->ev.profile)
		return NO_PROFILE;
	/* no hot or cold function where the profile has some: a hash mismatch libtool hid, unless its
	 * source is as trained (records of its functions, hashes alike): only lukewarm functions */
	if (u->ev.expect_layout && u->layout == 0 && !(u->flags > 0 && u->as_trained == 1))
		return NO_LAYOUT;
	/* without its command, only clang's profile layout in the object proves use */
	if (u->flags < 0 && (!v->fam->layout_proves_use || u->layout != 1))
		return NO_COMMAND;
	return USED;
}

/* Whether source (as a command named it, from make's directory dir) is as the fingerprint of
 * training has it: 1, 0 (changed), -1 (no fingerprint, or not in it). */
static int source_as_trained(const struct verify *v, const char *source, const char *dir)
{
	if (!v->fp || !source)
		return -1;
	char *src = dir && source[0] != '/' ? xasprintf("%s/%s", dir, source) : xstrdup(source);
	char *real = realpath(src, NULL), hash[SHA256_HEX_LEN + 1];
	free(src);
	int same = -1;
	for (int i = 0; real && i < v->fp->n && same < 0; i++) {
		char *p = xasprintf("%s/%s", v->fp->root, v->fp->e[i].path), *r = realpath(p, NULL);
		if (r && strcmp(r, real) == 0)
			same = sha256_file(real, hash) == 0 && strcmp(hash, v->fp->e[i].hash) == 0;
		free(r);
		free(p);
	}
	free(real);
	return same;
}

/* Whether another compile of u's source (libtool's other copy) has hot/cold sections: then u's
 * lack of them is a hash mismatch its hidden output did not show (a #ifdef PIC). */
enum { TWIN_LAID_OUT = 2 };
static int twin_laid_out(const struct verify *v, const struct unit *u)
{
	for (int i = 0; u->source && i < v->n; i++)
		if (v->u[i].layout == 1 && v->u[i].source && !strcmp(v->u[i].source, u->source) &&
		    (v->u[i].dir == u->dir || (v->u[i].dir && u->dir && !strcmp(v->u[i].dir, u->dir))))
			return 1;
	return 0;
}

/* Clang's "control flow change detected (hash mismatch) NAME" takes the profile's record of
 * another function NAME when the source is as it was at training: what the fingerprint says. */
static const char *mismatch_cause(const struct verify *v, const struct log_message *m, const char *dir)
{
	int same = strstr(m->text, "(hash mismatch) ") ? source_as_trained(v, m->source, dir) : -1;
	return same == 1   ? " [its source is unchanged since training: a name collision, the profile's record "
			     "is of another function of that name (e.g. another program's main)]"
	       : same == 0 ? " [its source changed since training]"
			   : "";
}

/* One line on why u did or did not use the profile. */
static char *describe(const struct verify *v, const struct unit *u, const char *log)
{
	switch (u->reason) {
	case USED:
		return xasprintf("used profile data (command: %s; profile: %s%s)", u->how ? u->how : "unknown",
				 v->fam->used, u->layout == 1 ? "; object: hot/cold sections"
					       : u->ev.expect_layout ? "; source as trained: lukewarm, no hot/cold sections"
								     : "");
	case NO_FLAG:
		return xasprintf("compiled without the profile-use flag (%s)", u->how);
	case INSTRUMENTED:
		return xasprintf("an instrumented object (profile-generate), not built with the profile (%s)",
				 u->how ? u->how : "its symbols");
	case NO_COMMAND:
		return xstrdup("no record of its compile command (not in the build log, no switches recorded in it)");
	case NO_PROFILE:
		return xstrdup(v->fam->unused);
	case COMPLAINT:
		return xasprintf("the compiler said (%s:%d): %.300s%s", log, u->complaint->line, u->complaint->text,
				 mismatch_cause(v, u->complaint, u->dir));
	case NOT_MATCHED:
		return xasprintf("the compiler found no profile for any of its %d functions (%s:%d: %.300s): its "
				 "profile is not this unit's",
				 u->ev.functions, log, u->missing->line, u->missing->text);
	default: /* NO_LAYOUT */
		return xasprintf("compiled as without profile: none of its functions is laid out hot or cold, though the "
				 "profile calls some of them hot or never run (a hash mismatch: %s)",
				 u->as_trained == 0	       ? "its source changed since training"
				 : u->as_trained == TWIN_LAID_OUT ? "another compile of its source has them"
								   : "source changed since training? --fingerprint would tell");
	}
}

/* The evidence on each object of objs. */
static void gather(struct verify *v, const struct file_list *objs, const struct build_log *log)
{
	v->n = objs->n;
	v->u = xcalloc((size_t)v->n, sizeof *v->u);
	for (int i = 0; i < v->n; i++) {
		struct unit *u = &v->u[i];
		u->path = objs->paths[i];
		const struct log_compile *c = log ? build_log_compile(log, u->path) : NULL;
		u->flags = c ? c->flags : -1;
		u->how = c ? xasprintf("%s line %d", log->path, c->line) : NULL;
		u->complaint = c && c->complaint >= 0 ? &log->m[c->complaint] : NULL;
		u->ev.missing_fns = c ? c->missing_fns : NULL;
		u->missing = c && c->missing_first >= 0 ? &log->m[c->missing_first] : NULL;
		u->dir = c ? c->dir : NULL;
		u->source = c ? c->source : NULL;
		u->as_trained = -1;
		*strmap_slot(&v->by_path, u->path, 1) = (void *)(intptr_t)(i + 1);
		if (v->fam->evidence_object)
			v->fam->evidence_object(&v->ev, u->path, &u->ev);
		char err[512];
		int rc = elf_sections(u->path, on_section, &u->layout, err, sizeof err);
		if (rc < 0)
			warn("cannot read the sections of %s", err);
		if (rc != 0)
			u->layout = -1;
	}
	read_objects(v);
	/* (only where the layout is in doubt: a fingerprint is compared path by path) */
	for (int i = 0; i < v->n; i++)
		if (v->u[i].ev.expect_layout && v->u[i].layout == 0)
			v->u[i].as_trained = twin_laid_out(v, &v->u[i]) ? TWIN_LAID_OUT
									: source_as_trained(v, v->u[i].source, v->u[i].dir);
}

static void report(const struct verify *v, const int *count, const char *log)
{
	int used = count[USED];
	printf("verify: %d of %d compiled units used profile data (%.0f%%)", used, v->n, 100.0 * used / v->n);
	if (v->ev.nfuncs >= 0)
		printf("; %d functions executed in training", v->ev.nfuncs);
	printf("\n");
	if (used < v->n) {
		printf("verify: %d without it:", v->n - used);
		for (int r = 1, shown = 0; r < NREASONS; r++)
			if (count[r])
				printf("%s %d %s", shown++ ? "," : "", count[r], reasons[r][1]);
		printf("%s\n", v->o.list ? "" : " (--list names them)");
	}
	if (count[NO_COMMAND])
		printf("verify: to prove use, give the build log (--build-log) or record the switches (-g, "
		       "-frecord-gcc-switches)\n");
	for (int i = 0; v->o.list && i < v->n; i++)
		if (v->u[i].reason != USED)
			printf("  no profile: %s: %s\n", printable(v->u[i].path),
			       printable(describe(v, &v->u[i], log)));
}

/* Each required object: used, or why not, into ok; returns how many did not. */
static int check_required(const struct verify *v, int *ok, const char *log)
{
	int missing = 0;
	for (int r = 0; r < v->o.require.n; r++) {
		int i = (int)(intptr_t)strmap_get(&v->by_path, v->o.require.v[r]) - 1;
		char *why = i >= 0 ? describe(v, &v->u[i], log) : NULL;
		ok[r] = i >= 0 && v->u[i].reason == USED;
		printf("verify: %s: %s%s\n", printable(v->o.require.v[r]),
		       ok[r] ? "" : i >= 0 ? "NO PROFILE DATA: " : "NOT BUILT", why ? printable(why) : "");
		missing += !ok[r];
	}
	return missing;
}

/* The stage record: the counts, the reasons, the required objects. */
static void write_stamp(const struct verify *v, const int *count, const int *ok, double seconds)
{
	json_t *j = stamp_begin("verify", seconds), *without = json_object(), *required = json_object();
	for (int r = 1; r < NREASONS; r++)
		json_object_set_new(without, reasons[r][0], json_integer(count[r]));
	for (int r = 0; r < v->o.require.n; r++)
		jw_set(required, v->o.require.v[r], json_boolean(ok[r]));
	json_object_update_new(j, json_pack("{s:i, s:i, s:o, s:o, s:o}", "units", v->n, "units_with_profile", count[USED],
					    "without_profile", without, "build_log",
					    v->o.log ? jw_text(v->o.log) : json_null(), "required", required));
	stamp_end(j, v->o.stamp);
}

#define O struct verify_options
static const struct option_spec verify_options[] = {
	OPT_FAMILY(O, family),
	OPT_BUILD_DIR(O, dir),
	OPT_STRING("build-log", 0, O, log, "FILE", "the profile-use build's log (compile commands, diagnostics)"),
	OPT_STRING("fingerprint", 0, O, fingerprint, "FILE", "the sources' fingerprint recorded at training"),
	OPT_STRING("profdata", 0, O, profdata, "FILE", "merged profile (clang; gcc's is the .gcda files)"),
	OPT_TOOL(O, tool),
	OPT_STRING("nm", 0, O, nm, "PATH", "nm for the objects' symbols (default: clang, llvm-nm beside --tool; nm)"),
	OPT_STRING("readelf", 0, O, readelf, "PATH", "readelf to read recorded switches (default readelf)"),
	OPT_LIST("require", 0, O, require, "OBJ", "object (relative to DIR) that must have used the profile (repeatable)"),
	OPT_SKIP(O, skip),
	OPT_FLAG("list", 0, O, list, "list the objects that did not use the profile, with the reason"),
	OPT_STAMP(O, stamp),
	OPT_STRING("since", 0, O, since, "FILE", "the record's duration counts from FILE's modification time"),
	OPT_END,
};
#undef O

const struct command_options options_verify = {
	"verify",
	"--family=gcc|clang --build-dir=DIR [OPTIONS]",
	"Checks, after the profile-use build, that the objects were really compiled with the profile.\n"
	"\n"
	"The evidence, per object: its compile command, the compiler's diagnostics, the profile's\n"
	"data for it and (clang) its hot/cold layout; see profopt(1).\n",
	.options = verify_options,
	"Exit status: 0 ok, 1 a required object without profile, none with it, or a damaged\n"
	"profile, 2 bad usage.\n",
};

int cmd_verify(int argc, char **argv)
{
	struct verify v = {.o = {.readelf = "readelf"}};
	int first = options_parse(&options_verify, argc, argv, &v.o);
	if (first < argc)
		usage_error("unexpected argument '%s' (see 'profopt verify --help')", printable(argv[first]));
	if (!(v.fam = family_parse(v.o.family)) || !v.o.dir)
		usage_error("--family=gcc|clang|apple-clang and --build-dir=DIR are required");
	v.o.tool = family_tool(v.o.tool);
	setvbuf(stdout, NULL, _IOLBF, 0); /* results and errors in the order they happen */
	if (v.fam->merged && !v.o.profdata)
		usage_error("--profdata=FILE is required for clang");
	if (!v.o.nm)
		v.o.nm = default_nm(&v);
	/* a verify that fails leaves no stamp, not even an older one that said ok */
	if (v.o.stamp)
		output_check(v.o.stamp); /* before the unlink: never /dev/null */
	if (v.o.stamp && unlink(v.o.stamp) < 0 && errno != ENOENT)
		fatal("cannot remove the old stamp %s: %s", printable(v.o.stamp), strerror(errno));
	char err[512];
	if (v.o.fingerprint) {
		v.fp = xcalloc(1, sizeof *v.fp);
		if (fingerprint_read(v.fp, v.o.fingerprint, err, sizeof err) < 0)
			fatal("--fingerprint: %s", err);
		v.fp->root = resolve_path(v.fp->root); /* verify works from the object directory */
	}
	double start = now();
	const char *dir = v.o.dir, *logpath = v.o.log;
	char *absdir = realpath(dir, NULL);
	if (!absdir)
		fatal("cannot enter %s: %s", dir, strerror(errno));
	struct build_log log = {0};
	if (logpath && build_log_read(&log, logpath, absdir) < 0)
		fatal("cannot read build log %s: %s", logpath, strerror(errno));
	if (logpath)
		build_log_print(&log, stdout, v.o.list ? -1 : 5);
	if (log.unattributed)
		printf("verify: %d stale or missing-profile diagnostic%s name no file: not tied to an object (a "
		       "parallel build interleaves them); the objects' own evidence decides\n",
		       log.unattributed, log.unattributed == 1 ? "" : "s");
	/* the tool runs in DIR; messages keep the user's name of the file */
	char *cwd = getcwd(NULL, 0), *profdata = NULL;
	if (v.o.profdata)
		profdata = v.o.profdata[0] == '/' || !cwd ? xstrdup(v.o.profdata) : xasprintf("%s/%s", cwd, v.o.profdata);
	if (chdir(absdir) < 0)
		fatal("cannot enter %s: %s", dir, strerror(errno));
	struct file_list objs = {0};
	find_files_here(&objs, dir, ".o", v.o.skip.v, NULL);
	file_list_sort(&objs);
	if (objs.n == 0)
		fatal("no object files under %s: was the profile-use build run?", dir);
	v.ev = (struct evidence){v.o.tool, profdata, v.o.profdata, dir, v.o.skip.v, {0}, 0, -1};
	v.fam->evidence_load(&v.ev);
	for (int i = 0; i < log.n; i++)
		if (log.m[i].kind == LOG_CORRUPTED)
			fatal("the compiler found a profile damaged (%s:%d: %.300s): retrain (make profile-removal "
			      "profile-opt)", logpath, log.m[i].line, log.m[i].text);
	gather(&v, &objs, logpath ? &log : NULL);
	int count[NREASONS] = {0};
	for (int i = 0; i < v.n; i++)
		count[v.u[i].reason = judge(&v, &v.u[i])]++;
	report(&v, count, logpath);
	int *ok = xcalloc((size_t)v.o.require.n + 1, sizeof *ok);
	int missing = check_required(&v, ok, logpath);
	if (missing)
		fatal("%d required unit(s) were built without profile data: the build is not profile-optimized "
		      "where it matters (reasons above)", missing);
	if (count[USED] == 0)
		fatal("no unit used profile data%s", v.o.list ? "" : " (--list says why for each)");
	if (v.o.stamp)
		write_stamp(&v, count, ok, seconds_since(v.o.since, now() - start));
	return 0; /* the memory is left to the exit */
}

/* check.c - `profopt check`: is the profile still good for the sources built with it?  Over
 * the --max-changed limit it fails; under it, it warns: a stale profile is never used silently. */
#include "format/buildlog.h"
#include "format/compiled.h"
#include "commands.h"
#include "format/fingerprint.h"
#include "lib/json.h"
#include "lib/strmap.h"
#include "lib/util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The sources changed, added and removed since training (the JSON keys and text labels). */
enum { CHANGED, ADDED, REMOVED, CHANGES };
static const char *const change_names[CHANGES] = {"changed", "added", "removed"};

struct diff {
	const char **v[CHANGES];
	int n[CHANGES];
};

static void compare(const struct fingerprint *old, const struct fingerprint *cur, struct diff *d)
{
	for (int c = 0; c < CHANGES; c++)
		d->v[c] = xcalloc((size_t)old->n + (size_t)cur->n + 1, sizeof *d->v[c]);
	for (int i = 0, k = 0; i < old->n || k < cur->n;) {
		int c = i == old->n ? 1 : k == cur->n ? -1 : strcmp(old->e[i].path, cur->e[k].path);
		const struct fingerprint_entry *o = c <= 0 ? &old->e[i] : NULL, *n = c >= 0 ? &cur->e[k] : NULL;
		int kind = !n ? REMOVED : !o ? ADDED : strcmp(o->hash, n->hash) || !n->hash[0] || o->size != n->size ? CHANGED : -1;
		if (kind >= 0)
			d->v[kind][d->n[kind]++] = n ? n->path : o->path;
		i += c <= 0;
		k += c >= 0;
	}
}

/* Stale sources: changed, added, removed, and distinct files the compiler called stale
 * that are not among the changed ones (a stale message naming no file counts once).  Hash
 * tables keep it linear: a log of many messages is not compared pairwise. */
static int count_stale(const struct diff *d, const struct build_log *s, int ignore_removed)
{
	int n = d->n[CHANGED] + d->n[ADDED] + (ignore_removed ? 0 : d->n[REMOVED]);
	struct strmap changed = {0}, seen = {0};
	for (int k = 0; k < d->n[CHANGED]; k++)
		*strmap_slot(&changed, d->v[CHANGED][k], 1) = (void *)1;
	for (int i = 0; i < s->n; i++) {
		const char *src = s->m[i].source;
		if (s->m[i].kind != LOG_STALE)
			continue;
		if (!src) {
			n++;
			continue;
		}
		void **slot = strmap_slot(&seen, src, 1);
		if (*slot)
			continue;
		*slot = (void *)1;
		/* a changed file named from another directory: "../src/a/b.c" is "a/b.c" */
		int known = strmap_get(&changed, src) != NULL;
		for (const char *p = strchr(src, '/'); p && !known; p = strchr(p + 1, '/'))
			known = strmap_get(&changed, p + 1) != NULL;
		n += !known;
	}
	return n;
}

/* A source tree's fingerprint written to file; from_log: the tree of a build whose log shows
 * no compile (an empty record is written, with a warning, rather than refused). */
static void write_tree_fingerprint(const char *file, const char *root, const char *const *suffixes,
				   const char *const *skip, int from_log)
{
	struct fingerprint m;
	fingerprint_scan(&m, root, suffixes, skip);
	if (m.n == 0 && !from_log)
		fatal("no source files under %s (suffixes: see --suffix)", root);
	if (m.n == 0) {
		/* a record that lists nothing: the next run has nothing to compare, and says so */
		warn("no source file under %s either: edits after this build will not be noticed", printable(root));
		m.listed = 1;
	}
	fingerprint_write(&m, file);
	if (!from_log)
		fprintf(stderr, "check: fingerprint of %d source files under %s written to %s\n", m.n, printable(m.root),
			printable(file));
}

/* The files a build log's compiles read, fingerprinted one by one. */
static void write_compiled_fingerprint(const char *file, const char *log_path, const char *objdir, const char *const *skip,
				       const char *add_from)
{
	struct build_log log;
	struct compiled files;
	struct fingerprint m;
	char err[512];
	if (build_log_read(&log, log_path, NULL) < 0)
		fatal("cannot read build log %s: %s", printable(log_path), strerror(errno));
	if (compiled_files(&log, objdir, skip, &files) == 0) {
		warn("%s shows no compile command whose source exists (silent rules? make V=1 shows them): "
		     "fingerprinting the tree under %s", printable(log_path), printable(objdir));
		write_tree_fingerprint(file, objdir, fingerprint_default_suffixes, skip, 1);
		return;
	}
	if (files.capped)
		warn("%d more files than %d not fingerprinted: edits to them go unnoticed", files.capped, COMPILED_MAX_FILES);
	int listed = files.n;
	if (add_from) {
		/* a build that compiled only what changed: the files of the earlier record stay */
		struct fingerprint old;
		if (fingerprint_read(&old, add_from, err, sizeof err) < 0)
			fatal("%s", err);
		files.paths = xrealloc(files.paths, ((size_t)files.n + (size_t)old.n) * sizeof *files.paths);
		for (int i = 0; i < old.n; i++)
			files.paths[files.n++] = xasprintf("%s/%s", strcmp(old.root, "/") ? old.root : "", old.e[i].path);
		fingerprint_free(&old);
	}
	fingerprint_files(&m, files.paths, files.n);
	fingerprint_write(&m, file);
	fprintf(stderr, "check: fingerprint of %d files (the sources of %d compile%s in %s and the headers beside them%s) "
			"written to %s\n", m.n, files.sources, files.sources == 1 ? "" : "s", printable(log_path),
		listed < files.n ? ", and those of the earlier record" : "", printable(file));
}

struct check_opts {
	const char *write_fp, *root, *against, *log, *limit_arg, *objdir, *add_from;
	struct option_list suffixes, skip;
	int json, ignore_removed, percent;
	double limit; /* --max-changed: files, or (percent) a percentage of them */
};

/* The limit: "N" files or "P%" of the fingerprinted files. */
static void parse_limit(struct check_opts *o)
{
	char *end;
	errno = 0;
	o->limit = strtod(o->limit_arg, &end);
	o->percent = *end == '%';
	if (errno || end == o->limit_arg || (o->percent ? end[1] != '\0' : *end != '\0') || !isfinite(o->limit) ||
	    o->limit < 0 || (o->percent && o->limit > 100))
		usage_error("--max-changed wants a count N or a share P%%, not '%s'", o->limit_arg);
}

#define O struct check_opts
static const struct option_spec check_options[] = {
	OPT_STRING("write-fingerprint", 0, O, write_fp, "FILE", "at training: write the sources' fingerprint to FILE"),
	OPT_STRING("source-dir", 0, O, root, "DIR", "the source tree (checking: default the tree named in FILE)"),
	OPT_STRING("build-log", 0, O, log, "FILE",
		   "fingerprint the files this build compiled; or scan it for profile diagnostics"),
	OPT_BUILD_DIR(O, objdir),
	OPT_STRING("add-files-of", 0, O, add_from, "FILE", "with --build-log: also fingerprint the files FILE lists"),
	OPT_LIST("suffix", 0, O, suffixes, "SUF", "source files to fingerprint (repeatable; default .c .h .cc ...)"),
	OPT_SKIP(O, skip),
	OPT_STRING("against", 0, O, against, "FILE", "list the sources changed, added and removed since FILE"),
	OPT_STRING("max-changed", 0, O, limit_arg, "LIMIT", "stale sources tolerated: N or P% (default 0)"),
	OPT_FLAG("ignore-removed", 0, O, ignore_removed, "files gone since the fingerprint do not count (still listed)"),
	OPT_JSON(O, json),
	OPT_END,
};
#undef O

const struct command_options options_check = {
	"check",
	"--write-fingerprint=FILE --source-dir=DIR [--suffix=.c ...] [--skip=NAME ...]\n"
	"--write-fingerprint=FILE --build-log=FILE [--build-dir=DIR] [--add-files-of=FILE]\n"
	"[--against=FILE [--source-dir=DIR]] [--build-log=FILE] [--max-changed=N|PCT%] [--json]",
	"Checks that the sources are still those the profile was trained on (a stale profile).\n",
	.options = check_options,
	"Exit status: 0 when the profile may be used (warnings listed), 1 when it is stale\n"
	"beyond the limit or corrupted (retrain: make profile-removal profile-opt), 2 on bad usage.\n",
};

static void parse_check_opts(struct check_opts *o, int argc, char **argv)
{
	int first = options_parse(&options_check, argc, argv, o);
	if (first < argc)
		usage_error("unexpected argument '%s' (see 'profopt check --help')", printable(argv[first]));
	option_list_add(&o->skip, ".git");
	if (o->write_fp && (o->against || (o->log && o->root)))
		usage_error("--write-fingerprint takes --source-dir=DIR (a tree) or --build-log=FILE (what a build compiled), not both; --against comes later");
	if (o->write_fp && !o->root && !o->log)
		usage_error("--write-fingerprint needs --source-dir=DIR, the source tree to fingerprint, or --build-log=FILE");
	if ((o->objdir || o->add_from) && !(o->write_fp && o->log))
		usage_error("--build-dir and --add-files-of go with --write-fingerprint=FILE --build-log=FILE");
	if (!o->write_fp && !o->against && !o->log)
		usage_error("nothing to check: --write-fingerprint=FILE, --against=FILE or --build-log=FILE (see --help)");
	if (!o->write_fp)
		parse_limit(o);
}

/* What a check found: the sources changed since training and the build log's diagnostics. */
struct check_result {
	struct fingerprint old, cur;
	struct diff d;
	struct build_log log;
	int stale, ok;
	double allowed;
};

static void check_run(const struct check_opts *o, const char *const *suf, struct check_result *r)
{
	char err[512];
	if (o->against) {
		if (fingerprint_read(&r->old, o->against, err, sizeof err) < 0)
			fatal("%s", err);
		const char *root = o->root ? o->root : r->old.root;
		if (!root)
			fatal("%s names no source tree; give --source-dir=DIR", o->against);
		if (r->old.listed)
			fingerprint_rehash(&r->cur, &r->old, o->root);
		else
			fingerprint_scan(&r->cur, root, suf, o->skip.v);
		compare(&r->old, &r->cur, &r->d);
	}
	if (o->log && build_log_read(&r->log, o->log, NULL) < 0)
		fatal("cannot read build log %s: %s", o->log, strerror(errno));
	r->stale = count_stale(&r->d, &r->log, o->ignore_removed);
	r->allowed = o->percent ? o->limit / 100 * r->old.n : o->limit;
	r->ok = r->stale <= r->allowed && r->log.count[LOG_CORRUPTED] == 0;
}

static json_t *json_log(const struct build_log *s, const char *file)
{
	json_t *log = json_pack("{s:o}", "file", jw_text(file)), *messages = json_array();
	for (int k = 0; k < LOG_KINDS; k++)
		json_object_set_new(log, log_kind_names[k], json_integer(s->count[k]));
	for (int i = 0; i < s->n; i++)
		json_array_append_new(messages, json_pack("{s:i, s:s, s:o, s:o}", "line", s->m[i].line, "kind",
							  log_kind_names[s->m[i].kind], "source", jw_opt(s->m[i].source),
							  "text", jw_opt(s->m[i].text)));
	json_object_set_new(log, "messages", messages);
	return log;
}

static void print_check_json(const struct check_opts *o, const struct check_result *r)
{
	json_t *doc = json_pack("{s:o, s:o, s:i}", "fingerprint", jw_opt(o->against), "root",
				jw_opt(o->against ? (o->root ? o->root : r->old.root) : NULL), "files", r->old.n);
	for (int c = 0; c < CHANGES; c++) {
		json_t *files = json_array();
		for (int i = 0; i < r->d.n[c]; i++)
			json_array_append_new(files, jw_text(r->d.v[c][i]));
		json_object_set_new(doc, change_names[c], files);
	}
	json_object_update_new(doc, json_pack("{s:o, s:i, s:o, s:b}", "log", o->log ? json_log(&r->log, o->log) : json_null(),
					      "stale_sources", r->stale, "limit", jw_opt(o->limit_arg), "ok", r->ok));
	jw_print(doc);
}

static void print_check_text(const struct check_opts *o, const struct check_result *r)
{
	if (o->against) {
		printf("sources: %d fingerprinted at training; %d changed, %d added, %d removed since\n", r->old.n,
		       r->d.n[CHANGED], r->d.n[ADDED], r->d.n[REMOVED]);
		for (int c = 0; c < CHANGES; c++)
			for (int i = 0; i < r->d.n[c]; i++)
				printf("  %-8s %s\n", change_names[c], printable(r->d.v[c][i]));
	}
	if (o->log)
		build_log_print(&r->log, stdout, -1);
}

/* The verdict on standard error: corrupted, stale beyond the limit, or stale but tolerated. */
static void print_verdict(const struct check_opts *o, const struct check_result *r)
{
	int corrupted = r->log.count[LOG_CORRUPTED], stale = r->stale;
	if (corrupted)
		fprintf(stderr, "%s: error: the compiler found the profile corrupted (%d message%s in %s): retrain "
				"(make profile-removal profile-opt)\n",
			progname, corrupted, corrupted == 1 ? "" : "s", printable(o->log));
	if (stale && stale <= r->allowed)
		warn("%d source%s stale since training (tolerated by --max-changed=%s): code changed since training gets no profile",
		     stale, stale == 1 ? "" : "s", o->limit_arg);
	if (stale > r->allowed)
		fprintf(stderr, "%s: error: the profile is stale: %d source%s changed since training, more than --max-changed=%s; "
				"retrain (make profile-removal profile-opt)\n",
			progname, stale, stale == 1 ? "" : "s", printable(o->limit_arg));
}

int cmd_check(int argc, char **argv)
{
	struct check_opts o = {.limit_arg = "0"};
	parse_check_opts(&o, argc, argv);
	const char *const *suf = o.suffixes.n ? o.suffixes.v : fingerprint_default_suffixes;
	if (o.write_fp && o.log)
		write_compiled_fingerprint(o.write_fp, o.log, o.objdir ? o.objdir : ".", o.skip.v, o.add_from);
	else if (o.write_fp)
		write_tree_fingerprint(o.write_fp, o.root, suf, o.skip.v, 0);
	if (o.write_fp)
		return 0;
	struct check_result r = {0};
	check_run(&o, suf, &r);
	if (o.json)
		print_check_json(&o, &r);
	else
		print_check_text(&o, &r);
	print_verdict(&o, &r);
	return r.ok ? 0 : 1;
}

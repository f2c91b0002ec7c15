/* check.c - `profopt check`: is the profile still good for the sources about to be built
 * with it?  At training time it records a fingerprint of the sources (--record); before or
 * after the profile-use build it lists what changed since (--against), and reads the
 * compiler's own complaints about the profile from a build log (--build-log).  Over the
 * --max-changed limit it fails; under it, it warns: a stale profile is never used silently. */
#include "commands.h"
#include "fingerprint.h"
#include "json.h"
#include "util.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

const char help_check[] =
	"usage: profopt check --record=FILE --root=DIR [--suffix=.c ...] [--skip=NAME ...]\n"
	"       profopt check [--against=FILE [--root=DIR]] [--build-log=FILE] [--max-changed=N|PCT%]\n"
	"                     [--json]\n"
	"\n"
	"Guards the profile-use build against a stale profile.\n"
	"\n"
	"  --record=FILE       at training time: write a fingerprint (SHA-256 by sha256sum,\n"
	"                      and size) of every source file under --root to FILE\n"
	"  --root=DIR          the source tree (recording: required; checking: default the\n"
	"                      root recorded in FILE)\n"
	"  --suffix=SUF        source files to fingerprint (repeatable; default .c .h .cc .cpp\n"
	"                      .cxx .hh .hpp .inc .S)\n"
	"  --skip=NAME         do not descend into directories called NAME (repeatable; .git\n"
	"                      is always skipped)\n"
	"  --against=FILE      compare the sources with the fingerprint in FILE: list the files\n"
	"                      changed, added and removed since training\n"
	"  --build-log=FILE    scan a build log for the compilers' profile diagnostics:\n"
	"                      stale (gcc -Wcoverage-mismatch, 'does not match its profile data';\n"
	"                      clang 'profile data may be out of date', hash mismatch),\n"
	"                      corrupted or unreadable ('profile data may be corrupted', 'not a\n"
	"                      gcov data file', another GCC's version, 'Could not read\n"
	"                      profile', malformed or unsupported profile), missing\n"
	"                      (-Wmissing-profile, 'no profile data available', 'profile data\n"
	"                      may be incomplete')\n"
	"  --max-changed=LIMIT how many stale sources are tolerated (with a warning): a count N\n"
	"                      or a share of the fingerprinted files 'P%'.  Changed, added and\n"
	"                      removed files and files the compiler called stale all count.\n"
	"                      Default 0: any change fails.\n"
	"  --json              machine-readable result (keys: files, changed, added, removed,\n"
	"                      log.{stale,corrupted,missing,messages}, stale_sources, limit, ok)\n"
	"\n"
	"Exit status: 0 when the profile may be used (warnings listed), 1 when it is stale\n"
	"beyond the limit or corrupted (retrain: make profile-removal profile-opt), 2 on bad usage.\n";

enum log_kind { LOG_STALE, LOG_CORRUPTED, LOG_MISSING, LOG_KINDS };
static const char *const kind_names[LOG_KINDS] = {"stale", "corrupted", "missing"};

/* Substrings of the compilers' profile diagnostics (case-insensitive), by kind. */
static const struct {
	const char *text;
	enum log_kind kind;
} patterns[] = {
	{"-Wcoverage-mismatch", LOG_STALE},
	{"does not match its profile data", LOG_STALE},
	{"coverage mismatch", LOG_STALE},
	{"number of counters in profile data", LOG_STALE},
	{"profile data may be out of date", LOG_STALE},
	{"hash mismatch", LOG_STALE},
	{"-Wprofile-instr-out-of-date", LOG_STALE},
	{"profile data may be corrupted", LOG_CORRUPTED},
	{"corrupted profile info", LOG_CORRUPTED},
	{"malformed instrumentation profile", LOG_CORRUPTED},
	{"unsupported instrumentation profile format", LOG_CORRUPTED},
	{"error in reading profile", LOG_CORRUPTED},
	{"could not read profile", LOG_CORRUPTED},
	{"is not a gcov data file", LOG_CORRUPTED},
	{"expected version", LOG_CORRUPTED},
	{"-Wmissing-profile", LOG_MISSING},
	{"no profile data available", LOG_MISSING},
	{"profile data may be incomplete", LOG_MISSING},
};

struct log_message {
	int line;
	enum log_kind kind;
	char *text, *source; /* source: the file the diagnostic names, or NULL */
};

struct log_scan {
	struct log_message *m;
	int n, cap;
	int count[LOG_KINDS];
};

/* "dir/file.c:12:3: warning: ..." (gcc) or "warning: dir/file.c: ..." (clang's backend)
 * -> "dir/file.c"; NULL when the line names no file. */
static char *diagnostic_source(const char *line)
{
	if (starts_with(line, "warning: ") || starts_with(line, "error: "))
		line = strchr(line, ' ') + 1;
	size_t n = strcspn(line, ": \t");
	if (n == 0 || line[n] != ':' || !memchr(line, '.', n))
		return NULL;
	return xasprintf("%.*s", (int)n, line);
}

static void scan_log(struct log_scan *s, const char *path)
{
	size_t len;
	char *text = read_file(path, &len);
	if (!text)
		fatal("cannot read build log %s: %s", path, strerror(errno));
	int lineno = 0;
	for (char *p = text, *line; p; lineno++) {
		line = strsep(&p, "\n");
		for (size_t i = 0; i < sizeof patterns / sizeof *patterns; i++) {
			if (!strcasestr(line, patterns[i].text))
				continue;
			if (s->n == s->cap) {
				s->cap = s->cap ? s->cap * 2 : 16;
				s->m = xrealloc(s->m, (size_t)s->cap * sizeof *s->m);
			}
			s->m[s->n++] = (struct log_message){lineno + 1, patterns[i].kind, xstrdup(line), diagnostic_source(line)};
			s->count[patterns[i].kind]++;
			break;
		}
	}
	free(text);
}

struct diff {
	const char **changed, **added, **removed;
	int nchanged, nadded, nremoved;
};

static void compare(const struct manifest *old, const struct manifest *cur, struct diff *d)
{
	d->changed = xcalloc((size_t)old->n + 1, sizeof *d->changed);
	d->removed = xcalloc((size_t)old->n + 1, sizeof *d->removed);
	d->added = xcalloc((size_t)cur->n + 1, sizeof *d->added);
	int i = 0, k = 0;
	while (i < old->n || k < cur->n) {
		int c = i == old->n ? 1 : k == cur->n ? -1 : strcmp(old->e[i].path, cur->e[k].path);
		if (c < 0) {
			d->removed[d->nremoved++] = old->e[i++].path;
		} else if (c > 0) {
			d->added[d->nadded++] = cur->e[k++].path;
		} else {
			if (strcmp(old->e[i].hash, cur->e[k].hash) != 0 || !cur->e[k].hash[0] || old->e[i].size != cur->e[k].size)
				d->changed[d->nchanged++] = cur->e[k].path;
			i++;
			k++;
		}
	}
}

/* Stale sources: changed, added, removed, and distinct files the compiler called stale
 * that are not among the changed ones (a stale message naming no file counts once). */
static int count_stale(const struct diff *d, const struct log_scan *s)
{
	int n = d->nchanged + d->nadded + d->nremoved;
	for (int i = 0; i < s->n; i++) {
		if (s->m[i].kind != LOG_STALE)
			continue;
		const char *src = s->m[i].source;
		int seen = 0;
		for (int k = 0; src && k < i && !seen; k++)
			seen = s->m[k].kind == LOG_STALE && s->m[k].source && !strcmp(s->m[k].source, src);
		for (int k = 0; src && k < d->nchanged && !seen; k++)
			seen = ends_with(src, d->changed[k]);
		n += !seen;
	}
	return n;
}

static void json_list(struct json *j, const char *key, const char **v, int n)
{
	jw_key(j, key);
	jw_begin_array(j);
	for (int i = 0; i < n; i++)
		jw_string(j, v[i]);
	jw_end_array(j);
}

static void print_list(const char *what, const char **v, int n)
{
	for (int i = 0; i < n; i++)
		printf("  %-8s %s\n", what, v[i]);
}

static int record(const char *file, const char *root, const char *const *suffixes, const char *const *skip)
{
	struct manifest m;
	char err[512];
	if (manifest_scan(&m, root, suffixes, skip, err, sizeof err) < 0)
		fatal("%s", err);
	if (m.n == 0)
		fatal("no source files under %s (suffixes: see --suffix)", root);
	if (manifest_write(&m, file) < 0)
		fatal("cannot write %s: %s", file, strerror(errno));
	fprintf(stderr, "check: fingerprint of %d source files under %s written to %s\n", m.n, m.root, file);
	manifest_free(&m);
	return 0;
}

int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{"record", required_argument, NULL, 'r'},
		{"root", required_argument, NULL, 'R'},
		{"suffix", required_argument, NULL, 'x'},
		{"skip", required_argument, NULL, 's'},
		{"against", required_argument, NULL, 'a'},
		{"build-log", required_argument, NULL, 'l'},
		{"max-changed", required_argument, NULL, 'm'},
		{"json", no_argument, NULL, 'j'},
		{NULL, 0, NULL, 0},
	};
	const char *rec = NULL, *root = NULL, *against = NULL, *log = NULL, *limit_arg = "0";
	const char *suffixes[32] = {0}, *skip[32] = {".git"};
	int nsuffix = 0, nskip = 1, json = 0, c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'r': rec = optarg; break;
		case 'R': root = optarg; break;
		case 'x':
			if (nsuffix == 31)
				usage_error("too many --suffix options");
			suffixes[nsuffix++] = optarg;
			break;
		case 's':
			if (nskip == 31)
				usage_error("too many --skip options");
			skip[nskip++] = optarg;
			break;
		case 'a': against = optarg; break;
		case 'l': log = optarg; break;
		case 'm': limit_arg = optarg; break;
		case 'j': json = 1; break;
		default: usage_error("unknown option '%s' (see 'profopt check --help')", argv[optind - 1]);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s' (see 'profopt check --help')", argv[optind]);
	const char *const *suf = nsuffix ? suffixes : fingerprint_default_suffixes;
	if (rec) {
		if (against || log)
			usage_error("--record is done at training time; --against and --build-log come later");
		if (!root)
			usage_error("--record needs --root=DIR, the source tree to fingerprint");
		return record(rec, root, suf, skip);
	}
	if (!against && !log)
		usage_error("nothing to check: --record=FILE, --against=FILE or --build-log=FILE (see --help)");

	/* the limit: "N" files or "P%" of the fingerprinted files */
	char *end;
	errno = 0;
	double limit = strtod(limit_arg, &end);
	int percent = *end == '%';
	if (errno || end == limit_arg || (percent ? end[1] != '\0' : *end != '\0') || limit < 0 || (percent && limit > 100))
		usage_error("--max-changed wants a count N or a share P%%, not '%s'", limit_arg);

	struct manifest old = {0}, cur = {0};
	struct diff d = {0};
	char err[512];
	if (against) {
		if (manifest_read(&old, against, err, sizeof err) < 0)
			fatal("%s", err);
		const char *r = root ? root : old.root;
		if (!r)
			fatal("%s names no root; give --root=DIR", against);
		if (manifest_scan(&cur, r, suf, skip, err, sizeof err) < 0)
			fatal("%s", err);
		compare(&old, &cur, &d);
	}
	struct log_scan s = {0};
	if (log)
		scan_log(&s, log);
	int stale = count_stale(&d, &s);
	double allowed = percent ? limit / 100 * old.n : limit;
	int ok = stale <= allowed && s.count[LOG_CORRUPTED] == 0;

	if (json) {
		struct json j;
		jw_init(&j, stdout);
		jw_begin_object(&j);
		jw_kv_string(&j, "fingerprint", against);
		jw_kv_string(&j, "root", against ? (root ? root : old.root) : NULL);
		jw_kv_int(&j, "files", old.n);
		json_list(&j, "changed", d.changed, d.nchanged);
		json_list(&j, "added", d.added, d.nadded);
		json_list(&j, "removed", d.removed, d.nremoved);
		jw_key(&j, "log");
		if (log) {
			jw_begin_object(&j);
			jw_kv_string(&j, "file", log);
			for (int k = 0; k < LOG_KINDS; k++)
				jw_kv_int(&j, kind_names[k], s.count[k]);
			jw_key(&j, "messages");
			jw_begin_array(&j);
			for (int i = 0; i < s.n; i++) {
				jw_begin_object(&j);
				jw_kv_int(&j, "line", s.m[i].line);
				jw_kv_string(&j, "kind", kind_names[s.m[i].kind]);
				jw_kv_string(&j, "source", s.m[i].source);
				jw_kv_string(&j, "text", s.m[i].text);
				jw_end_object(&j);
			}
			jw_end_array(&j);
			jw_end_object(&j);
		} else {
			jw_null(&j);
		}
		jw_kv_int(&j, "stale_sources", stale);
		jw_kv_string(&j, "limit", limit_arg);
		jw_kv_bool(&j, "ok", ok);
		jw_end_object(&j);
		jw_finish(&j);
	} else {
		if (against) {
			printf("sources: %d fingerprinted at training; %d changed, %d added, %d removed since\n", old.n, d.nchanged,
			       d.nadded, d.nremoved);
			print_list("changed", d.changed, d.nchanged);
			print_list("added", d.added, d.nadded);
			print_list("removed", d.removed, d.nremoved);
		}
		if (log) {
			printf("build log %s: %d stale, %d corrupted, %d missing profile diagnostics\n", log, s.count[LOG_STALE],
			       s.count[LOG_CORRUPTED], s.count[LOG_MISSING]);
			for (int i = 0; i < s.n; i++)
				printf("  %s:%d: [%s] %.300s\n", log, s.m[i].line, kind_names[s.m[i].kind], s.m[i].text);
		}
	}
	if (s.count[LOG_CORRUPTED])
		warn("the compiler found the profile corrupted (%d messages): retrain (make profile-removal profile-opt)",
		     s.count[LOG_CORRUPTED]);
	if (stale && stale <= allowed)
		warn("%d source%s stale since training (tolerated by --max-changed=%s): code changed since training gets no profile",
		     stale, stale == 1 ? "" : "s", limit_arg);
	if (stale > allowed)
		fprintf(stderr, "%s: error: the profile is stale: %d source%s changed since training, more than --max-changed=%s; "
				"retrain (make profile-removal profile-opt)\n",
			progname, stale, stale == 1 ? "" : "s", limit_arg);
	for (int i = 0; i < s.n; i++) {
		free(s.m[i].text);
		free(s.m[i].source);
	}
	free(s.m);
	free(d.changed);
	free(d.added);
	free(d.removed);
	manifest_free(&old);
	manifest_free(&cur);
	return ok ? 0 : 1;
}

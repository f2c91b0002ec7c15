/* compare.c - `profopt compare`: one command run on two builds of a program (make pgo-bench:
 * the plain and the PGO build), interleaved; the time ratio with its interval (stats.c), and
 * with callgrind the instruction ratio and the functions that got more instructions
 * (cgfuncs.c). */
#include "bench/bench.h"
#include "bench/cgfuncs.h"
#include "lib/json.h"
#include "lib/output.h"
#include "lib/proc.h"
#include "lib/progress.h"
#include "lib/util.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define CMP_MAX_SHOWN 20
#define CMP_MAX_ROUNDS 100000 /* --rounds' limit: beyond it, no number of rounds is said */

struct cmp_build {
	char *name, *dir;
	double *samples;
	int n;
	double median, mad;
	struct cg_profile prof;
};

struct cmp_opts {
	const char *command, *json, *table, *callgrind_when, *threshold_text, *min_share_text, *confidence;
	long long rounds, warmup, nboot, seed;
	int callgrind; /* -1 auto, 0 no, 1 yes */
	double timeout, conf, threshold, min_share;
};

#define O struct cmp_opts
static const struct option_spec compare_options[] = {
	OPT_STRING("command", 0, O, command, "CMD", "the command, run in each build's directory (required)"),
	OPT_INT("rounds", 0, O, rounds, "N", 1, 100000, "timed rounds (default 10)"),
	OPT_INT("warmup", 0, O, warmup, "N", 0, 100000, "untimed runs of each build first (default 1)"),
	OPT_SECONDS("timeout", 0, O, timeout, "limit per run (default 600; ten times that under callgrind)"),
	OPT_STRING("callgrind", 0, O, callgrind_when, "WHEN", "auto (default: when valgrind is installed), yes or no"),
	OPT_STRING("threshold", 0, O, threshold_text, "PERCENT",
		   "growth of a function's count that makes it slower (default 2)"),
	OPT_STRING("min-share", 0, O, min_share_text, "PERCENT",
		   "and its growth as a share of the first build's total (default 0.1)"),
	OPT_STRING("confidence", 0, O, confidence, "C", "interval confidence (default 0.95)"),
	OPT_INT("bootstrap", 0, O, nboot, "N", 100, 10000000, "bootstrap resamples (default 2000)"),
	OPT_INT("seed", 0, O, seed, "N", 0, LONG_MAX, "bootstrap seed (default 1)"),
	OPT_STRING("json", 0, O, json, "FILE", "everything as JSON: samples, medians, ratios, slower functions"),
	OPT_STRING("table", 0, O, table, "FILE", "the table into FILE too (it always goes to standard output)"),
	OPT_END,
};
#undef O

const struct command_options options_compare = {
	"compare",
	"[OPTIONS] --command=CMD NAME=DIR NAME=DIR",
	"Runs CMD (by /bin/sh -c) in each build's directory DIR and compares the second build with\n"
	"the first, e.g.  profopt compare --command='./toy ppas 2000' plain=pgo/bench-plain/tree pgo=.\n"
	"(`make pgo-bench` runs it on a project's plain and PGO builds).\n"
	"\n"
	"Time: one untimed run of each build (--warmup), then --rounds rounds with the builds\n"
	"interleaved (A B, B A, ...), each run timed from its start to its exit.  The speedup is\n"
	"median(first)/median(second), above 1 when the second is faster, with a bootstrap interval\n"
	"of the rounds resampled in pairs, as in profopt bench; an interval holding 1 is 'noise',\n"
	"and the rounds that would decide at its spread are said.\n"
	"\n"
	"Instructions: where valgrind is installed, one run of each build under callgrind, with\n"
	"every process the command starts (--trace-children=yes): the ratio of the instruction\n"
	"counts, which the machine's load does not move, and the functions whose own count (not\n"
	"their callees') grew by more than --threshold and by at least --min-share of the first\n"
	"build's total.  A function one build inlines and the other does not moves its count into\n"
	"its caller: read the list with the functions that vanished in mind (the JSON has them all).\n"
	"When the second build is slower, or some of its functions are, it advises training on what\n"
	"users run.\n",
	compare_options,
	"Exit status: 0 when it measured, 1 when the command failed on a build (named, with its\n"
	"last line of output), 2 bad usage.\n",
	0,
};

struct cmp_result {
	struct cmp_build b[2];
	struct interval speedup, count_speedup;
	enum verdict verdict, count_verdict;
	char *no_count; /* why instructions were not counted, or NULL */
	struct cg_growth *slower;
	int nslower;
	long rounds_to_decide; /* a noisy interval: the rounds that would exclude 1 at this spread, or 0 */
	char *started;
};

static double percent_option(const char *opt, const char *s)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || *end || !(v >= 0 && v <= 1000))
		usage_error("%s wants a percentage from 0 to 1000, not '%s'", opt, printable(s));
	return v / 100;
}

/* The options, the values the table keeps as text, and the two builds' places in argv. */
static int parse_opts(struct cmp_opts *o, int argc, char **argv)
{
	int first = options_parse(&options_compare, argc, argv, o);
	if (o->threshold_text)
		o->threshold = percent_option("--threshold", o->threshold_text);
	if (o->min_share_text)
		o->min_share = percent_option("--min-share", o->min_share_text);
	if (o->confidence)
		o->conf = stats_parse_confidence(o->confidence);
	if (o->callgrind_when) {
		const char *w = o->callgrind_when;
		o->callgrind = !strcmp(w, "auto") ? -1 : !strcmp(w, "yes") ? 1 : !strcmp(w, "no") ? 0 : -2;
		if (o->callgrind == -2)
			usage_error("--callgrind wants auto, yes or no, not '%s'", printable(w));
	}
	if (!o->command || !*o->command)
		usage_error("no command: --command=CMD names what to run on both builds (see --help)");
	if (argc - first != 2)
		usage_error("give two builds, NAME=DIR NAME=DIR (the first is the baseline), not %d", argc - first);
	return first;
}

static void parse_build(struct cmp_build *b, const char *arg, const char *other)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1])
		usage_error("'%s' is not NAME=DIR (e.g. plain=pgo/bench-plain/tree)", printable(arg));
	b->name = xasprintf("%.*s", (int)(eq - arg), arg);
	for (const char *p = b->name; *p; p++)
		if (!(('a' <= *p && *p <= 'z') || ('A' <= *p && *p <= 'Z') || ('0' <= *p && *p <= '9') || strchr("_.+-", *p)))
			usage_error("build name '%s': use letters, digits and _.+- only", printable(b->name));
	if (other && !strcmp(other, b->name))
		usage_error("build name '%s' given twice", printable(b->name));
	struct stat st;
	if (stat(eq + 1, &st) < 0 || !S_ISDIR(st.st_mode))
		fatal("%s: no directory '%s'", b->name, printable(eq + 1));
	b->dir = resolve_path(eq + 1);
}

/* Of a run's output, what a failure's last line and valgrind's first warnings need. */
#define CMP_KEEP_OUTPUT ((size_t)1 << 20)

/* Stops with what went wrong when a run of the command did not exit 0. */
static void check_run(const struct cmp_build *b, const char *cmd, int st, char *out, double timeout, const char *how)
{
	if (st == RUN_STOPPED) {
		fprintf(stderr, "\n%s: interrupted by signal %d; nothing was reported\n", progname, (int)bench_got_signal);
		exit(128 + bench_got_signal);
	}
	if (proc_exit_ok(st))
		return;
	char what[96];
	if (st == RUN_TIMED_OUT)
		snprintf(what, sizeof what, "timed out after %.0f s (--timeout)", timeout);
	else if (st == RUN_NOT_STARTED)
		snprintf(what, sizeof what, "could not start");
	else
		describe_status(st, what, sizeof what);
	fatal("the command failed on %s%s (in %s, %s): %s: %s", b->name, how, printable(b->dir), what, printable(cmd),
	      out && *out ? printable(bench_last_line(out)) : "(no output)");
}

static double run_timed(const struct cmp_opts *o, const struct cmp_build *b)
{
	char *argv[] = {"/bin/sh", "-c", (char *)o->command, NULL};
	struct run_opts ro = {.cwd = b->dir, .timeout = o->timeout, .stop = &bench_got_signal, .keep = CMP_KEEP_OUTPUT};
	char *out = NULL;
	double t0 = now();
	int st = run_child(argv, &ro, &out, NULL);
	double t = now() - t0;
	check_run(b, o->command, st, out, o->timeout, "");
	free(out);
	return t;
}

/* Every file callgrind wrote into dir (one per process) added to the build's counts. */
static void read_counts(struct cmp_build *b, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		fatal("cannot read %s: %s", dir, strerror(errno));
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!starts_with(e->d_name, "callgrind."))
			continue;
		char *path = xasprintf("%s/%s", dir, e->d_name), err[256];
		char *text = read_file(path, NULL);
		if (!text)
			fatal("cannot read %s: %s", path, strerror(errno));
		if (cg_profile_add(&b->prof, text, err, sizeof err) < 0)
			fatal("%s (%s under callgrind): %s", path, b->name, err);
		free(text);
		free(path);
	}
	closedir(d);
	if (b->prof.files == 0)
		fatal("callgrind wrote no output for %s in %s", b->name, dir);
}

/* One run under callgrind; a program whose debug information valgrind cannot read is not
 * counted (the reason in *no_count), the timing stands. */
static void run_counted(const struct cmp_opts *o, const char *valgrind, const char *tmp, struct cmp_build *b,
			char **no_count)
{
	char *dir = xasprintf("%s/%s", tmp, b->name);
	if (make_dirs(dir, 0700) < 0)
		fatal("cannot create %s: %s", dir, strerror(errno));
	char *outopt = xasprintf("--callgrind-out-file=%s/callgrind.%%p", dir);
	char *argv[] = {(char *)valgrind, "--tool=callgrind", "--trace-children=yes", outopt, "/bin/sh", "-c",
			(char *)o->command, NULL};
	struct run_opts ro = {.cwd = b->dir, .timeout = 10 * o->timeout, .stop = &bench_got_signal, .keep = CMP_KEEP_OUTPUT};
	char *out = NULL;
	int st = run_child(argv, &ro, &out, NULL);
	char *programs = xasprintf("the programs of %s", b->name);
	if (proc_exit_ok(st) || st < 0 || !(*no_count = bench_callgrind_unreadable(out, programs))) {
		check_run(b, o->command, st, out, 10 * o->timeout, " under callgrind");
		read_counts(b, dir);
	}
	free(programs);
	free(out);
	free(outopt);
	free(dir);
}

struct cmp_progress {
	struct progress prog;
	int done, total;
};

static void step(struct cmp_progress *p, const char *phase, const struct cmp_build *b)
{
	char *text = xasprintf("    compare: %s: %s (%d/%d runs)", phase, b->name, p->done, p->total);
	progress_show(&p->prog, text, 0);
	free(text);
	p->done++;
}

/* The warm-up and timed rounds, interleaved; then the callgrind runs. */
static void measure(struct cmp_result *r, const struct cmp_opts *o, const char *valgrind)
{
	struct cmp_progress p = {.total = 2 * (o->warmup + o->rounds) + (valgrind ? 2 : 0)};
	progress_init(&p.prog, 30);
	int order[2];
	for (int round = -o->warmup; round < o->rounds; round++) {
		bench_order(round < 0 ? -round : round, 2, order);
		for (int k = 0; k < 2; k++) {
			struct cmp_build *b = &r->b[order[k]];
			char phase[48] = "warm-up";
			if (round >= 0)
				snprintf(phase, sizeof phase, "round %d/%lld", round + 1, o->rounds);
			step(&p, phase, b);
			double t = run_timed(o, b);
			if (round >= 0)
				b->samples[b->n++] = t;
		}
	}
	if (valgrind) {
		char *tmp = make_temp_dir("compare");
		for (int i = 0; i < 2 && !r->no_count; i++) {
			step(&p, "callgrind", &r->b[i]);
			run_counted(o, valgrind, tmp, &r->b[i], &r->no_count);
		}
		remove_dir_tree(tmp);
		free(tmp);
	}
	progress_clear(&p.prog);
}

/* The interval narrows as one over the square root of the rounds: the rounds that would bring
 * the bound on 1's side past 1 at the spread measured (0: none would, or beyond the limit). */
static long rounds_to_decide(struct interval iv, long long rounds)
{
	double gap = iv.point - 1, reach = iv.point > 1 ? iv.point - iv.lo : iv.hi - iv.point;
	if (rounds < 2 || gap == 0 || reach <= 0)
		return 0;
	double need = ceil((double)rounds * (reach / gap) * (reach / gap));
	return need > CMP_MAX_ROUNDS ? 0 : need < rounds + 1 ? rounds + 1 : (long)need;
}

static void analyze(struct cmp_result *r, const struct cmp_opts *o)
{
	for (int i = 0; i < 2; i++) {
		r->b[i].median = stats_median(r->b[i].samples, r->b[i].n);
		r->b[i].mad = stats_mad(r->b[i].samples, r->b[i].n);
	}
	r->speedup = stats_speedup(r->b[0].samples, r->b[1].samples, o->rounds, o->conf, o->nboot, o->seed);
	/* One round has no spread: its ratio is no evidence either way. */
	r->verdict = o->rounds < 2 ? VERDICT_NOISE : stats_verdict(r->speedup, 0);
	if (r->verdict == VERDICT_NOISE)
		r->rounds_to_decide = rounds_to_decide(r->speedup, o->rounds);
	if (r->no_count)
		return;
	double ratio = r->b[1].prof.total > 0 ? r->b[0].prof.total / r->b[1].prof.total : 0;
	r->count_speedup = (struct interval){ratio, ratio, ratio};
	r->count_verdict = stats_verdict(r->count_speedup, 0.001);
	r->nslower = cg_slower(&r->b[0].prof, &r->b[1].prof, o->threshold, o->min_share, &r->slower);
}

static void print_slower(const struct cmp_result *r, const struct cmp_opts *o, FILE *out)
{
	const char *base = r->b[0].name, *other = r->b[1].name;
	fprintf(out, "\nfunctions with more instructions in %s than in %s (own counts, grown by more than %g%% and by at "
		"least %g%% of %s's total):%s\n", other, base, o->threshold * 100, o->min_share * 100, base,
		r->nslower ? "" : " none");
	for (int i = 0; i < r->nslower && i < CMP_MAX_SHOWN; i++) {
		const struct cg_growth *g = &r->slower[i];
		char before[32], after[32], change[32];
		bench_format_value(before, sizeof before, g->before, BENCH_INSTRUCTIONS);
		bench_format_value(after, sizeof after, g->after, BENCH_INSTRUCTIONS);
		if (g->before > 0)
			snprintf(change, sizeof change, "%+.1f%%", 100 * (g->after - g->before) / g->before);
		else
			snprintf(change, sizeof change, "new");
		char *fn = xasprintf("%s (%s)", g->name, g->object);
		fprintf(out, "  %-40s %9s -> %9s  %s\n", printable(fn), before, after, change);
		free(fn);
	}
	if (r->nslower > CMP_MAX_SHOWN)
		fprintf(out, "  ... and %d more (in the JSON)\n", r->nslower - CMP_MAX_SHOWN);
}

/* What to do when the second build (PGO) lost: its training ran other code than the command. */
static void print_advice(const struct cmp_result *r, const struct cmp_opts *o, FILE *out)
{
	enum verdict v = r->no_count ? r->verdict : r->count_verdict;
	const char *fix = "train on what users run: make pgo-bench's PGO_TRAIN_ARGS = -- 'COMMAND ...' (or "
			  "--tasks=FILE, a NAME<tab>COMMAND line each), this command among them, then measure again";
	if (v == VERDICT_SLOWER)
		fprintf(out, "\nadvice: %s is slower than %s on %s: its training ran other code than this command "
			"does (a test suite runs error paths as often as the common path); %s\n",
			r->b[1].name, r->b[0].name, printable(o->command), fix);
	else if (r->nslower)
		fprintf(out, "\nadvice: the %d function%s above got slower: the training ran %s less, against the rest, "
			"than this command does; %s\n", r->nslower, r->nslower == 1 ? "" : "s",
			r->nslower == 1 ? "it" : "them", fix);
}

static void print_table(const struct cmp_result *r, const struct cmp_opts *o, FILE *out)
{
	const struct cmp_build *a = &r->b[0], *b = &r->b[1];
	char va[48], vb[48], s[64];
	fprintf(out, "compare: %s\n", printable(o->command));
	fprintf(out, "%-14s %-20s %-20s %s against %s\n", "", a->name, b->name, b->name, a->name);
	bench_format_value(va, sizeof va, a->median, BENCH_TIME);
	bench_format_value(vb, sizeof vb, b->median, BENCH_TIME);
	snprintf(va + strlen(va), sizeof va - strlen(va), " ±%.1f%%", a->median > 0 ? 100 * a->mad / a->median : 0);
	snprintf(vb + strlen(vb), sizeof vb - strlen(vb), " ±%.1f%%", b->median > 0 ? 100 * b->mad / b->median : 0);
	bench_format_speedup(s, sizeof s, r->speedup, r->verdict);
	fprintf(out, "%-14s %-21s %-21s %s  (median of %lld rounds, interleaved; %.0f%% interval)\n", "time", va, vb, s,
		o->rounds, o->conf * 100);
	if (r->verdict == VERDICT_NOISE && r->rounds_to_decide)
		fprintf(out, "%-14s the interval holds 1: at this spread about %ld rounds would decide (--rounds; make "
			"pgo-bench: PGO_BENCH_ROUNDS)%s\n", "", r->rounds_to_decide,
			r->no_count ? "" : ", or read the instructions, which the load does not move");
	else if (r->verdict == VERDICT_NOISE)
		fprintf(out, "%-14s the interval holds 1: %s\n", "",
			o->rounds < 2 ? "one round has no spread, give two or more"
				      : "no number of rounds would decide at this spread: as fast as each other");
	if (r->no_count) {
		fprintf(out, "%-14s not counted: %s; time only\n", "instructions", r->no_count);
		print_advice(r, o, out);
		return;
	}
	bench_format_value(va, sizeof va, a->prof.total, BENCH_INSTRUCTIONS);
	bench_format_value(vb, sizeof vb, b->prof.total, BENCH_INSTRUCTIONS);
	bench_format_speedup(s, sizeof s, r->count_speedup, r->count_verdict);
	fprintf(out, "%-14s %-20s %-20s %s  (callgrind %s, %d and %d processes)\n", "instructions", va, vb, s,
		a->prof.event, a->prof.files, b->prof.files);
	print_slower(r, o, out);
	print_advice(r, o, out);
}

static json_t *json_build(const struct cmp_build *b, int counted)
{
	json_t *samples = json_array();
	for (int k = 0; k < b->n; k++)
		json_array_append_new(samples, jw_number(b->samples[k]));
	json_t *j = json_pack("{s:o, s:o, s:o, s:o, s:o}",
			      "name", jw_opt(b->name),
			      "dir", jw_opt(b->dir),
			      "samples", samples,
			      "median", jw_number(b->median),
			      "mad", jw_number(b->mad));
	if (counted) {
		json_object_set_new(j, "instructions", json_integer((json_int_t)b->prof.total));
		json_object_set_new(j, "processes", json_integer(b->prof.files));
	}
	return j;
}

static json_t *json_ratio(struct interval iv, enum verdict v)
{
	return json_pack("{s:o, s:[o, o], s:s}",
			 "speedup", jw_number(iv.point),
			 "interval", jw_number(iv.lo), jw_number(iv.hi),
			 "verdict", verdict_name(v));
}

static json_t *json_slower(const struct cmp_result *r)
{
	json_t *slower = json_array();
	for (int i = 0; i < r->nslower; i++)
		json_array_append_new(slower, json_pack("{s:o, s:o, s:I, s:I}",
							"function", jw_opt(r->slower[i].name),
							"object", jw_opt(r->slower[i].object),
							"before", (json_int_t)r->slower[i].before,
							"after", (json_int_t)r->slower[i].after));
	return slower;
}

static void write_json(const struct cmp_result *r, const struct cmp_opts *o, FILE *f)
{
	json_t *builds = json_array();
	for (int i = 0; i < 2; i++)
		json_array_append_new(builds, json_build(&r->b[i], !r->no_count));
	json_t *j = json_pack("{s:o, s:o, s:I, s:I, s:o, s:o, s:o, s:o, s:o}",
			      "command", jw_opt(o->command),
			      "started", jw_opt(r->started),
			      "rounds", (json_int_t)o->rounds,
			      "warmup", (json_int_t)o->warmup,
			      "confidence", jw_number(o->conf),
			      "threshold", jw_number(o->threshold),
			      "min_share", jw_number(o->min_share),
			      "builds", builds,
			      "time", json_ratio(r->speedup, r->verdict));
	if (r->rounds_to_decide)
		json_object_set_new(j, "rounds_to_decide", json_integer(r->rounds_to_decide));
	if (r->no_count) {
		json_object_set_new(j, "instructions_not_counted", jw_text(r->no_count));
	} else {
		json_t *count = json_ratio(r->count_speedup, r->count_verdict);
		json_object_set_new(j, "instructions", count);
		json_object_set_new(j, "event", jw_opt(r->b[0].prof.event));
		json_object_set_new(j, "slower_functions", json_slower(r));
	}
	jw_write(j, f);
}

/* The report as text, for standard output and --table, or as JSON. */
static void write_report(const char *path, const struct cmp_result *r, const struct cmp_opts *o, int json)
{
	char *data = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&data, &len);
	if (!f)
		fatal("open_memstream: %s", strerror(errno));
	if (json)
		write_json(r, o, f);
	else
		print_table(r, o, f);
	fclose(f);
	if (path)
		output_write(path, data, len);
	else
		fwrite(data, 1, len, stdout);
	free(data);
}

/* valgrind when it is to count (NULL otherwise, the reason in r->no_count). */
static char *find_valgrind(struct cmp_result *r, const struct cmp_opts *o)
{
	if (o->callgrind == 0) {
		r->no_count = xstrdup("--callgrind=no");
		return NULL;
	}
	const char *env = getenv("VALGRIND");
	char *vg = find_program(env && *env ? env : "valgrind");
	if (!vg && o->callgrind == 1)
		fatal("--callgrind=yes needs valgrind, which is not installed (Debian/Ubuntu: apt-get install valgrind)");
	if (!vg)
		r->no_count = xstrdup("valgrind is not installed (Debian/Ubuntu: apt-get install valgrind)");
	return vg;
}

int cmd_compare(int argc, char **argv)
{
	struct cmp_opts o = {.rounds = 10, .warmup = 1, .nboot = 2000, .callgrind = -1, .timeout = 600, .conf = 0.95,
			     .threshold = 0.02, .min_share = 0.001, .seed = 1};
	int first = parse_opts(&o, argc, argv);
	struct cmp_result r = {0};
	parse_build(&r.b[0], argv[first], NULL);
	parse_build(&r.b[1], argv[first + 1], r.b[0].name);
	for (int i = 0; i < 2; i++)
		r.b[i].samples = xcalloc((size_t)o.rounds, sizeof(double));
	if (o.json)
		output_check(o.json);
	if (o.table)
		output_check(o.table);
	char *vg = find_valgrind(&r, &o);
	time_t t0 = time(NULL);
	char when[32];
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t0));
	r.started = xstrdup(when);
	bench_catch_signals();
	fprintf(stderr, "compare: %s and %s, %lld rounds%s\n", r.b[0].name, r.b[1].name, o.rounds,
		vg ? ", then one callgrind run of each" : "");
	measure(&r, &o, vg);
	analyze(&r, &o);
	write_report(NULL, &r, &o, 0);
	fflush(stdout);
	if (o.table)
		write_report(o.table, &r, &o, 0);
	if (o.json)
		write_report(o.json, &r, &o, 1);
	free(vg);
	free(r.slower);
	for (int i = 0; i < 2; i++)
		cg_profile_free(&r.b[i].prof);
	return 0;
}

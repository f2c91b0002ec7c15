/* bench.c - `profopt bench`: runs the benchmark suite (Tools/bench) on several interpreters,
 * interleaved, and reports medians, spreads and speedups with intervals (stats.c), as a
 * table, JSON and a gnuplot plot; or counts instructions with callgrind. */
#include "bench/bench.h"
#include "lib/progress.h"
#include "lib/output.h"
#include "lib/util.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct bench_opts {
	long long rounds, layouts, warmup, cpu, loops, nboot, seed;
	int no_aslr, callgrind, cache_sim, branch_sim, list, check_only, keep_pages;
	double target, timeout, conf;
	const char *suite, *workloads, *json, *table, *plot, *baseline, *confidence;
};

#define O struct bench_opts
static const struct option_spec bench_options[] = {
	OPT_INT("rounds", 0, O, rounds, "N", 1, 100000, "samples per workload and interpreter (default 6; callgrind 1)"),
	OPT_INT("warmup", 0, O, warmup, "N", 0, 100000,
		"unrecorded runs per workload and interpreter first (default 1; callgrind 0)"),
	OPT_SECONDS("target", 0, O, target, "calibration goal for one sample (default 0.2)"),
	OPT_INT("loops", 0, O, loops, "N", 1, 1000000000,
		"skip calibration, run N loops per sample (callgrind: default 6, at least 2, never calibrated)"),
	OPT_STRING("workloads", 0, O, workloads, "A,B,...", "only these workloads (default: all; see --list)"),
	OPT_STRING("suite", 0, O, suite, "DIR",
		   "the suite: DIR/run.py and DIR/bm_*.py (default: the source tree's Tools/bench, or "
		   "$PROFOPT_BENCH_DIR)"),
	OPT_FLAG("list", 0, O, list, "list the workloads and exit"),
	OPT_INT("cpu", 0, O, cpu, "N", 0, 65535, "pin profopt and the interpreters to CPU N (sched_setaffinity)"),
	OPT_FLAG("no-aslr", 0, O, no_aslr,
		 "run the interpreters without address space randomization (personality(2) for profopt's "
		 "children only)"),
	OPT_INT("layouts", 0, O, layouts, "N", 1, 100000,
		"heap layouts the rounds cycle through (default: one per round): run.py holds a pad of "
		"PROFOPT_BENCH_PAD bytes (0, 1536, 3072, ...) while it measures, which moves where malloc finds "
		"memory; one layout can cost a workload 4%.  1 keeps the layout fixed"),
	OPT_FLAG("keep-page-cache", 0, O, keep_pages,
		 "keep each interpreter's files where the page cache holds them.  By default, at the start of "
		 "every round, the files each one maps (executable, libraries, extension modules, as run.py "
		 "reports them) are dropped from the page cache and read back: which physical pages hold the "
		 "code moved one workload of byte-identical copies by up to 10%, steadily for a whole run"),
	OPT_SECONDS("timeout", 0, O, timeout,
		    "limit per process (default 300; 3600 with --callgrind, under which a workload's untimed "
		    "setup runs as slowly as its loops)"),
	OPT_FLAG("callgrind", 0, O, callgrind,
		 "count instructions with valgrind --tool=callgrind instead of timing: deterministic, for when "
		 "wall time is too noisy.  Counts are per loop in steady state: a run of one loop (startup, "
		 "imports and the first loop's warm-up: caches, specialization) is subtracted from a run of N "
		 "loops, divided by N - 1.  N is fixed, not calibrated on the clock, so separate runs count the "
		 "same work (bench-compare refuses counts of different loop counts)"),
	OPT_FLAG("cache-sim", 0, O, cache_sim, "with --callgrind: also simulate caches (the extra event counts are in the JSON)"),
	OPT_FLAG("branch-sim", 0, O, branch_sim,
		 "with --callgrind: also simulate branch prediction (the extra event counts are in the JSON)"),
	OPT_FLAG("check-system", 0, O, check_only, "only check the system, then exit"),
	OPT_STRING("confidence", 0, O, confidence, "C", "interval confidence (default 0.95)"),
	OPT_INT("bootstrap", 0, O, nboot, "N", 100, 10000000, "bootstrap resamples (default 2000)"),
	OPT_INT("seed", 0, O, seed, "N", 0, LONG_MAX, "bootstrap seed (default 1; same data and seed = same intervals)"),
	OPT_STRING("baseline", 0, O, baseline, "NAME",
		   "the interpreter the per-group table compares with (default: the first), e.g. --baseline=stock"),
	OPT_STRING("json", 0, O, json, "FILE",
		   "everything as JSON: samples, medians, MAD, IQR, speedups, intervals, verdicts, system checks"),
	OPT_STRING("table", 0, O, table, "FILE",
		   "also write the system checks and the table to FILE (the table always goes to standard output, "
		   "progress to standard error)"),
	OPT_STRING("plot", 0, O, plot, "FILE.svg|.png",
		   "speedup per workload with intervals, drawn by gnuplot (FILE.dat and FILE.gp are kept next to "
		   "it); skipped with a message when gnuplot is missing"),
	OPT_END,
};
#undef O

const struct command_options options_bench = {
	"bench",
	"[OPTIONS] NAME=PYTHON [NAME=PYTHON ...]",
	"Runs the benchmark workloads of Tools/bench on each interpreter and compares them with\n"
	"the first one, e.g.  profopt bench plain=./a/python pgo=./b/python\n"
	"\n"
	"How it measures: each workload is calibrated once, on the first interpreter, to a loop\n"
	"count that takes about --target seconds; every interpreter then runs that many loops.\n"
	"Rounds are interleaved (round 1: A B C, round 2: C B A, ...) so slow drift of the\n"
	"machine hits every interpreter alike.  Each sample is one process; run.py times only\n"
	"the loops (time.perf_counter), not interpreter startup.  PYTHONHASHSEED is 0 unless\n"
	"set, so every run does the same work.  Bytecode comes from a cache private to the run\n"
	"(PYTHONPYCACHEPREFIX), filled first by one untimed run of each workload on each\n"
	"interpreter, so .pyc files a build writes into the source tree meanwhile change nothing.\n"
	"An interpreter with libpython*.so beside it (an --enable-shared build) runs with that\n"
	"directory first in LD_LIBRARY_PATH: each build loads its own library.\n"
	"\n"
	"What it reports, per workload: the median time per loop and its MAD (median absolute\n"
	"deviation, as a % of the median), and the speedup median(first)/median(this) with a\n"
	"bootstrap interval (rounds resampled in pairs); overall, the geometric mean of the\n"
	"speedups with its interval.  An interval that contains 1.00 is labelled 'noise': that\n"
	"difference is not a win.  'man profopt' (section BENCH) explains the method.\n"
	"Per group of workloads (a workload's module sets GROUP = \"python\", \"c-modules\",\n"
	"\"startup\", ...; \"python\" when it sets none) and for all of them: the geometric mean\n"
	"next to the worst workload's speedup, so one workload that got slower is not hidden;\n"
	"against --baseline (the JSON has every pair).  The worst workload is picked after\n"
	"looking, so its interval is family-wise (Bonferroni: --confidence for the group's\n"
	"workloads together); only then does 'slower' there mean more than the noise.\n"
	"\n"
	"Before measuring it checks the CPU frequency governor, turbo, load average, busy\n"
	"processes, ASLR and CPU pinning, and prints the fix for each problem.  It never changes\n"
	"a system setting itself.\n",
	bench_options,
	"Exit status: 0 when it measured, 1 when a workload or interpreter failed, 2 bad usage.\n",
	0,
};

/* The suite directory: --suite, $PROFOPT_BENCH_DIR, the source tree profopt was built from,
 * or next to the installed program. */
static char *find_suite(const char *given)
{
	const char *env = getenv("PROFOPT_BENCH_DIR");
	const char *cands[4] = {given, env && *env ? env : NULL, NULL, NULL};
#ifdef PROFOPT_BENCH_DIR
	cands[2] = PROFOPT_BENCH_DIR;
#endif
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	char *installed = NULL;
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			installed = xasprintf("%s/../share/profopt/bench", exe);
			cands[3] = installed;
		}
	}
	for (int i = 0; i < 4; i++) {
		if (!cands[i])
			continue;
		char *runpy = xasprintf("%s/run.py", cands[i]);
		int ok = access(runpy, R_OK) == 0;
		free(runpy);
		if (ok) {
			char *dir = resolve_path(cands[i]);
			free(installed);
			return dir;
		}
		if (i == 0)
			fatal("--suite=%s has no run.py", given);
	}
	free(installed);
	fatal("cannot find the benchmark suite (Tools/bench with run.py): pass --suite=DIR or set PROFOPT_BENCH_DIR");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The workloads of the suite (bm_NAME.py), sorted, optionally only those named in `only`. */
static char **list_workloads(const char *suite, const char *only, int *count)
{
	DIR *d = opendir(suite);
	if (!d)
		fatal("cannot read %s: %s", suite, strerror(errno));
	char **names = NULL;
	int n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!starts_with(e->d_name, "bm_") || !ends_with(e->d_name, ".py") || strlen(e->d_name) <= 6)
			continue;
		names = grow_array(names, n, &cap, sizeof *names, 32);
		names[n++] = xasprintf("%.*s", (int)strlen(e->d_name) - 6, e->d_name + 3);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof *names, cmp_str);
	if (only) {
		char **sel = xcalloc((size_t)n + 1, sizeof *sel), *copy = xstrdup(only), *save = NULL;
		int m = 0;
		for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
			int found = -1;
			for (int i = 0; i < n; i++)
				if (strcmp(names[i], w) == 0)
					found = i;
			if (found < 0)
				usage_error("no workload '%s' in %s (see 'profopt bench --list')", w, suite);
			for (int k = 0; k < m; k++)
				if (strcmp(sel[k], w) == 0)
					usage_error("workload '%s' given twice", w);
			if (m < n)
				sel[m++] = xstrdup(w);
		}
		free(copy);
		for (int i = 0; i < n; i++)
			free(names[i]);
		free(names);
		names = sel;
		n = m;
	}
	if (n == 0)
		fatal("no workloads (bm_*.py) in %s", suite);
	*count = n;
	return names;
}

/* The GROUP the workload's module declares ("python" if none). */
static char *workload_group(const char *suite, const char *name)
{
	char *path = xasprintf("%s/bm_%s.py", suite, name);
	char *text = read_file(path, NULL);
	if (!text)
		fatal("cannot read %s: %s", path, strerror(errno));
	char *group = bench_parse_group(text);
	free(text);
	free(path);
	return group;
}

static void parse_interps(struct bench_result *r, int argc, char **argv)
{
	r->ninterp = argc;
	r->interps = xcalloc((size_t)argc, sizeof *r->interps);
	for (int i = 0; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		if (!eq || eq == argv[i] || !eq[1])
			usage_error("'%s' is not NAME=PYTHON (e.g. pgo=./build/python)", argv[i]);
		char *name = xasprintf("%.*s", (int)(eq - argv[i]), argv[i]);
		for (const char *p = name; *p; p++)
			if (!(('a' <= *p && *p <= 'z') || ('A' <= *p && *p <= 'Z') || ('0' <= *p && *p <= '9') || strchr("_.+-", *p)))
				usage_error("interpreter name '%s': use letters, digits and _.+- only", name);
		for (int k = 0; k < i; k++)
			if (strcmp(r->interps[k].name, name) == 0)
				usage_error("interpreter name '%s' given twice", name);
		char *path = find_program(eq + 1);
		if (!path)
			fatal("%s: no executable '%s'", name, eq + 1);
		r->interps[i].name = name;
		r->interps[i].python = path;
	}
}

/* The index of the interpreter --baseline names (0 without it). */
static int find_baseline(const struct bench_result *r, const char *name)
{
	for (int i = 0; name && i < r->ninterp; i++)
		if (!strcmp(r->interps[i].name, name))
			return i;
	if (name)
		usage_error("--baseline=%s: no interpreter of that name", name);
	return 0;
}

struct run_state {
	struct progress prog;
	int done, total;
	double started;
};

static void show(struct run_state *s, const char *phase, const char *work, const char *interp)
{
	char el[32], left[48] = "";
	double t = now() - s->started;
	format_duration(el, sizeof el, t);
	if (s->done > 0 && s->total > s->done) {
		char d[32];
		format_duration(d, sizeof d, t / s->done * (s->total - s->done));
		snprintf(left, sizeof left, ", about %s left", d);
	}
	char *text = xasprintf("    bench: %s: %s on %s (%d/%d runs, %s%s)", phase, work, interp, s->done, s->total, el, left);
	progress_show(&s->prog, text, 0);
	free(text);
}

/* One recorded or warm-up sample of workload w on interpreter i: seconds per loop, or
 * instructions per loop in steady state: a one-loop run (startup and the first loop's
 * warm-up, which a clock-calibrated loop count would weigh differently run to run) is
 * subtracted, and the rest divided by the loops after the first. */
static double sample(const struct bench_runner *br, struct bench_result *r, int w, int i)
{
	const struct bench_interp *in = &r->interps[i];
	const struct bench_workload *wk = &r->works[w];
	if (r->mode == BENCH_TIME)
		return bench_time_once(br, in, wk->name, wk->loops) / (double)wk->loops;
	struct bench_cell *c = bench_cell(r, w, i);
	char *names[BENCH_MAX_EVENTS];
	double v[BENCH_MAX_EVENTS];
	if (!c->have_startup) {
		int n0 = bench_count_once(br, in, wk->name, BENCH_SUBTRACTED_LOOPS, names, c->startup, BENCH_MAX_EVENTS);
		for (int e = 0; e < n0; e++)
			free(names[e]);
		c->have_startup = 1;
	}
	int n = bench_count_once(br, in, wk->name, wk->loops, names, v, BENCH_MAX_EVENTS);
	for (int e = 0; e < c->nevents; e++)
		free(c->event_names[e]);
	c->nevents = n;
	for (int e = 0; e < n; e++) {
		c->event_names[e] = names[e];
		c->events[e] = (v[e] - c->startup[e]) / (double)(wk->loops - BENCH_SUBTRACTED_LOOPS);
	}
	return c->events[0];
}

static void write_output(const char *path, const struct bench_result *r, void (*fn)(const struct bench_result *, FILE *),
			 const char *prefix)
{
	char *data = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&data, &len);
	if (!f)
		fatal("open_memstream: %s", strerror(errno));
	if (prefix)
		fputs(prefix, f);
	fn(r, f);
	fclose(f);
	output_write(path, data, len);
	free(data);
}

/* The options, and what the table cannot check: values that go together. */
static int parse_bench_opts(struct bench_opts *o, int argc, char **argv)
{
	int first = options_parse(&options_bench, argc, argv, o);
	if (o->confidence)
		o->conf = stats_parse_confidence(o->confidence);
	if (o->callgrind && o->loops && o->loops <= BENCH_SUBTRACTED_LOOPS)
		usage_error("--callgrind counts at least 2 loops (the first is warm-up, subtracted)");
	if ((o->cache_sim || o->branch_sim) && !o->callgrind)
		usage_error("--cache-sim and --branch-sim go with --callgrind");
	if (o->plot && !ends_with(o->plot, ".svg") && !ends_with(o->plot, ".png"))
		usage_error("--plot wants a file ending in .svg or .png, not '%s'", printable(o->plot));
	return first;
}

/* The run's settings: the options, else the defaults of the mode (timing or callgrind). */
static void init_result(struct bench_result *r, const struct bench_opts *o)
{
	*r = (struct bench_result){.mode = o->callgrind ? BENCH_INSTRUCTIONS : BENCH_TIME, .nboot = (int)o->nboot,
				   .conf = o->conf, .seed = (uint64_t)o->seed, .cpu = (int)o->cpu, .no_aslr = o->no_aslr};
	r->rounds = o->rounds > 0 ? (int)o->rounds : o->callgrind ? 1 : 6;
	r->layouts = o->layouts > 0 ? (int)o->layouts : r->rounds;
	r->drop_pages = !o->callgrind && !o->keep_pages;
	r->warmup = o->warmup >= 0 ? (int)o->warmup : o->callgrind ? 0 : 1;
	r->target = o->target > 0 ? o->target : 0.2;
	if (!o->callgrind && r->rounds < 2 && !o->check_only && !o->list)
		warn("one round gives no estimate of the noise: every difference will be labelled 'noise'");
	else if (!o->callgrind && r->rounds < 5 && !o->check_only && !o->list)
		warn("with %d rounds the intervals are rough (the bootstrap has few samples to resample): use 5 or more to draw conclusions",
		     r->rounds);
}

/* Pins and ASLR as asked, then the system check, printed. */
static void check_system(struct sysinfo *sys, const struct bench_opts *o)
{
	if (o->cpu >= 0 && pin_to_cpu((int)o->cpu) < 0)
		fatal("cannot pin to CPU %lld: %s (this machine has CPUs 0-%ld)", o->cpu, strerror(errno), sysconf(_SC_NPROCESSORS_ONLN) - 1);
	if (o->no_aslr && personality(ADDR_NO_RANDOMIZE | (unsigned long)personality(0xffffffff)) < 0)
		fatal("cannot turn off address space randomization for the interpreters: %s", strerror(errno));
	struct sysinfo_opts so = {.root = "", .cpu = (int)o->cpu, .no_aslr = o->no_aslr, .sample = 0.5};
	sysinfo_collect(sys, &so);
	printf("System check (what may spoil the numbers):\n");
	sysinfo_print(sys, stdout);
	int nwarn = sysinfo_warnings(sys);
	if (nwarn)
		printf("  %d warning%s: the numbers below may be noisier than they need to be.\n", nwarn, nwarn == 1 ? "" : "s");
	printf("\n");
	fflush(stdout);
}

/* callgrind: valgrind found, its extra simulations, a scratch directory for its output. */
static void init_callgrind(struct bench_runner *br, struct bench_result *r, const struct bench_opts *o,
			   struct option_list *cg_extra)
{
	char *vg = find_program(getenv("VALGRIND") && *getenv("VALGRIND") ? getenv("VALGRIND") : "valgrind");
	if (!vg)
		fatal("--callgrind needs valgrind, which is not installed (Debian/Ubuntu: apt-get install valgrind)");
	br->valgrind = vg;
	if (o->cache_sim)
		option_list_add(cg_extra, "--cache-sim=yes");
	if (o->branch_sim)
		option_list_add(cg_extra, "--branch-sim=yes");
	br->cg_extra = cg_extra->v;
	r->callgrind_args = o->cache_sim && o->branch_sim ? "--cache-sim=yes --branch-sim=yes"
			    : o->cache_sim		  ? "--cache-sim=yes"
			    : o->branch_sim		  ? "--branch-sim=yes"
							  : "";
	br->tmpdir = make_temp_dir("bench");
}

/* Each interpreter's version and executable: one that does not start stops the run. */
static void start_interpreters(struct bench_result *r)
{
	for (int i = 0; i < r->ninterp; i++) {
		char *why = NULL;
		char *exe = NULL;
		r->interps[i].version = bench_python_version(r->interps[i].python, &why, &exe);
		if (!r->interps[i].version)
			fatal("%s (%s) does not run: %s", r->interps[i].name, r->interps[i].python, why);
		r->interps[i].executable = exe ? exe : xstrdup(r->interps[i].python);
		r->interps[i].env = bench_library_env(r->interps[i].executable);
		if (r->interps[i].env)
			fprintf(stderr, "bench: %s runs with its own libpython: %s\n", r->interps[i].name, printable(r->interps[i].env[0]));
	}
}

static void init_workloads(struct bench_result *r, const char *suite, char **works, int nwork)
{
	r->nwork = nwork;
	r->works = xcalloc((size_t)nwork, sizeof *r->works);
	r->cells = xcalloc((size_t)(nwork * r->ninterp), sizeof *r->cells);
	for (int w = 0; w < nwork; w++) {
		r->works[w].name = works[w];
		r->works[w].group = workload_group(suite, works[w]);
		for (int i = 0; i < r->ninterp; i++)
			bench_cell(r, w, i)->samples = xcalloc((size_t)r->rounds, sizeof(double));
	}
	time_t t0 = time(NULL);
	char when[32];
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t0));
	r->started = xstrdup(when);
}

/* The interpreters read bytecode from a cache of this run's own, filled by one untimed run of
 * each workload: a build writing .pyc files into a shared source tree meanwhile (CPython's make
 * and regrtest do, with -E) would otherwise let one run compile modules that the next reads
 * ready-made, and two counts of a workload would no longer subtract. */
static char *private_bytecode(struct bench_result *r, const struct bench_runner *br, struct run_state *st)
{
	char *dir = make_temp_dir("pycache"), *maps = xasprintf("%s.maps", dir);
	setenv("PYTHONPYCACHEPREFIX", dir, 1);
	unsetenv("PYTHONDONTWRITEBYTECODE");
	/* The files renewed every round: each executable, then what run.py reports it maps (it
	 * copies /proc/self/maps to PROFOPT_BENCH_MAPS; a suite's run.py that does not leaves
	 * the executable alone). */
	for (int i = 0; i < r->ninterp; i++) {
		struct bench_interp *in = &r->interps[i];
		in->mapped = grow_array(in->mapped, 0, &in->capmapped, sizeof *in->mapped, 8);
		in->mapped[in->nmapped++] = xstrdup(in->executable);
	}
	if (r->drop_pages)
		setenv("PROFOPT_BENCH_MAPS", maps, 1);
	for (int w = 0; w < r->nwork; w++)
		for (int i = 0; i < r->ninterp; i++) {
			struct bench_interp *in = &r->interps[i];
			show(st, "bytecode", r->works[w].name, in->name);
			unlink(maps);
			bench_time_once(br, in, r->works[w].name, 1);
			char *text = r->drop_pages ? read_file(maps, NULL) : NULL;
			if (text)
				in->nmapped = bench_pages_parse_maps(text, &in->mapped, in->nmapped, &in->capmapped);
			free(text);
			st->done++;
		}
	unsetenv("PROFOPT_BENCH_MAPS");
	unlink(maps);
	free(maps);
	return dir;
}

/* Calibration, once per workload, on the first interpreter (--loops=N skips it). */
static void calibrate(struct bench_result *r, const struct bench_runner *br, struct run_state *st, long fixed_loops)
{
	for (int w = 0; w < r->nwork; w++) {
		struct bench_workload *wk = &r->works[w];
		if (fixed_loops) {
			wk->loops = fixed_loops;
			continue;
		}
		long loops = 1;
		for (;;) {
			show(st, "calibrating", wk->name, r->interps[0].name);
			double e = bench_time_once(br, &r->interps[0], wk->name, loops);
			long next = bench_next_loops(loops, e, r->target);
			wk->calib_seconds = e;
			if (!next)
				break;
			loops = next;
		}
		wk->loops = loops;
	}
}

/* The warm-up and recorded rounds, interpreters interleaved, heap layouts cycled. */
static void measure(struct bench_result *r, const struct bench_runner *br, struct run_state *st)
{
	int *order = xcalloc((size_t)r->ninterp, sizeof *order);
	for (int round = -r->warmup; round < r->rounds; round++) {
		bench_order(round < 0 ? -round : round, r->ninterp, order);
		char phase[48], pad[32];
		if (round < 0)
			snprintf(phase, sizeof phase, "warm-up");
		else
			snprintf(phase, sizeof phase, "round %d/%d", round + 1, r->rounds);
		snprintf(pad, sizeof pad, "%ld", bench_layout_pad(round, r->layouts));
		for (int i = 0; r->drop_pages && i < r->ninterp; i++)
			bench_pages_renew(r->interps[i].mapped, r->interps[i].nmapped);
		for (int w = 0; w < r->nwork; w++)
			for (int k = 0; k < r->ninterp; k++) {
				int i = order[k];
				show(st, phase, r->works[w].name, r->interps[i].name);
				setenv("PROFOPT_BENCH_PAD", pad, 1);
				double v = sample(br, r, w, i);
				if (round >= 0) {
					struct bench_cell *cell = bench_cell(r, w, i);
					cell->samples[cell->n++] = v;
				}
				st->done++;
			}
	}
	free(order);
}

/* The table on standard output, then the files asked for: table, JSON, plot. */
static void report_results(struct bench_result *r, const struct bench_opts *o, const struct sysinfo *sys)
{
	bench_analyze(r);
	bench_print_table(r, stdout);
	fflush(stdout);
	if (o->table) {
		char *checks = NULL;
		size_t clen = 0;
		FILE *cf = open_memstream(&checks, &clen);
		fprintf(cf, "profopt bench, started %s, %d workloads, %d rounds, %.0f s\n\nSystem check:\n", r->started,
			r->nwork, r->rounds, r->seconds);
		sysinfo_print(sys, cf);
		fputc('\n', cf);
		fclose(cf);
		write_output(o->table, r, bench_print_table, checks);
		free(checks);
	}
	if (o->json)
		write_output(o->json, r, bench_write_json, NULL);
	if (o->plot && bench_plot(r, o->plot) == 0)
		fprintf(stderr, "bench: plot in %s\n", printable(o->plot));
	if (o->json)
		fprintf(stderr, "bench: JSON in %s\n", printable(o->json));
}

/* The measurements: calibration, then the rounds, with a progress line. */
static void run_bench(struct bench_result *r, const struct bench_opts *o, const char *suite, char **works, int nwork)
{
	struct bench_runner br = {.timeout = o->timeout > 0 ? o->timeout : o->callgrind ? 3600 : 300};
	struct option_list cg_extra = {0};
	br.runpy = xasprintf("%s/run.py", suite);
	if (o->callgrind)
		init_callgrind(&br, r, o, &cg_extra);
	/* String hashing is randomized per process; a fixed seed makes dict and set layouts, and
	 * so the work done, the same in every run (the user's own setting wins). */
	setenv("PYTHONHASHSEED", "0", 0);
	bench_catch_signals();
	start_interpreters(r);
	init_workloads(r, suite, works, nwork);
	struct run_state st = {.total = nwork * r->ninterp * (r->rounds + r->warmup + 1), .started = now()};
	progress_init(&st.prog, 30);
	fprintf(stderr, "bench: %d workloads x %d interpreters x %d rounds%s\n", nwork, r->ninterp, r->rounds,
		o->callgrind ? ", counting instructions with callgrind" : "");
	char *pycache = private_bytecode(r, &br, &st);
	calibrate(r, &br, &st, o->loops ? o->loops : o->callgrind ? BENCH_COUNT_LOOPS : 0);
	measure(r, &br, &st);
	progress_clear(&st.prog);
	r->seconds = now() - st.started;
	if (br.tmpdir)
		remove_dir_tree(br.tmpdir);
	remove_dir_tree(pycache);
	free(pycache);
	free(cg_extra.v);
}

int cmd_bench(int argc, char **argv)
{
	struct bench_opts o = {.rounds = -1, .warmup = -1, .cpu = -1, .nboot = 2000, .target = -1, .timeout = -1, .conf = 0.95, .seed = 1};
	int first = parse_bench_opts(&o, argc, argv);
	char *suite = NULL;
	int nwork = 0;
	char **works = NULL;
	if (!o.check_only) {
		suite = find_suite(o.suite);
		works = list_workloads(suite, o.workloads, &nwork);
		if (o.list) {
			for (int w = 0; w < nwork; w++)
				printf("%s\n", printable(works[w]));
			return 0;
		}
		if (first >= argc)
			usage_error("no interpreters given: profopt bench NAME=PYTHON [NAME=PYTHON ...] (see --help)");
	}
	struct bench_result r;
	init_result(&r, &o);
	if (!o.check_only) {
		parse_interps(&r, argc - first, argv + first);
		r.baseline = find_baseline(&r, o.baseline);
	}
	struct sysinfo sys;
	check_system(&sys, &o);
	r.sys = &sys;
	if (!o.check_only) {
		run_bench(&r, &o, suite, works, nwork);
		report_results(&r, &o, &sys);
	}
	sysinfo_free(&sys);
	return 0;
}

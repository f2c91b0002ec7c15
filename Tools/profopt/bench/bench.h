/* bench.h - `profopt bench`: the data of one benchmark run, shared by the measuring
 * (bench_measure.c), the analysis and reports (bench_report.c), the plot (bench_plot.c) and
 * the command (bench.c). */
#ifndef PROFOPT_BENCH_H
#define PROFOPT_BENCH_H

#include "bench/stats.h"
#include "bench/sysinfo.h"
#include "lib/options.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

enum bench_mode { BENCH_TIME, BENCH_INSTRUCTIONS };

struct bench_interp {
	char *name;          /* as given: NAME=PYTHON */
	char *python;        /* as given, found in PATH */
	char *executable;    /* what runs: its sys.executable (a wrapper script resolved) */
	char *version;       /* platform.python_version() */
	char **env;          /* for its runs: {"LD_LIBRARY_PATH=DIR...", NULL} or NULL (bench_library_env) */
	char **mapped;       /* the files its runs map (executable, libraries, extension modules) */
	int nmapped, capmapped;
};

struct bench_workload {
	char *name;
	long loops;          /* bench() calls per sample, from calibration (or --loops) */
	double calib_seconds; /* elapsed seconds of one sample at the chosen loops, base interpreter */
	char *group;         /* its module's GROUP = "..." (NULL: "python") */
};

#define BENCH_MAX_EVENTS 16
/* Loops a --callgrind count runs unless --loops says otherwise, and the loops of the run
 * subtracted from it (startup and the first loop's warm-up). */
#define BENCH_COUNT_LOOPS 6
#define BENCH_SUBTRACTED_LOOPS 1
/* One workload on one interpreter. */
struct bench_cell {
	double *samples;     /* per round: seconds per loop, or instructions per loop */
	int n;
	double median, mad, iqr;
	struct interval speedup; /* against the first interpreter (1 for itself) */
	enum verdict verdict;
	/* callgrind: event names and counts per loop (a one-loop run subtracted) of the last
	 * sample, and the counts of that one-loop run (startup and warm-up) */
	int nevents, have_startup;
	char *event_names[BENCH_MAX_EVENTS];
	double events[BENCH_MAX_EVENTS], startup[BENCH_MAX_EVENTS];
};

struct bench_result {
	enum bench_mode mode;
	int rounds, warmup, nboot, cpu, no_aslr;
	int layouts;         /* heap layouts the rounds cycle through (1: always the same) */
	int drop_pages;      /* the interpreters' files get new page-cache pages every round */
	double conf, target;
	uint64_t seed;
	const char *callgrind_args; /* extra callgrind options used, or NULL */
	char *started;       /* UTC time */
	double seconds;      /* wall time of the whole run */
	int ninterp, nwork;
	struct bench_interp *interps;
	struct bench_workload *works;
	struct bench_cell *cells; /* [w * ninterp + i] */
	/* geometric-mean speedup of interpreter i over interpreter j: pair[i * ninterp + j] */
	struct interval *pair;
	enum verdict *pair_verdict;
	int baseline;        /* the interpreter the text's group table compares with (0: the first) */
	int ngroups;         /* the workloads' groups in order of first appearance, then "all" */
	struct bench_group *groups;
	struct sysinfo *sys; /* may be NULL */
};

/* A group of workloads (and, last, all of them): for interpreter i against baseline b, at
 * [i * ninterp + b], the geometric mean of the speedups and the worst (lowest) workload's. */
struct bench_group {
	char *name;
	int nwork;
	int *works;                /* workload indices */
	struct interval *geomean;
	enum verdict *geomean_verdict;
	int *worst;                /* workload index of the lowest speedup */
	struct interval *worst_speedup; /* at worst_conf: it was picked as the lowest of nwork */
	enum verdict *worst_verdict;
	double worst_conf;
};

static inline struct bench_cell *bench_cell(const struct bench_result *r, int w, int i)
{
	return &r->cells[w * r->ninterp + i];
}

/* ---- bench_measure.c: running the workloads */

/* The C heap's layout at the start of the loops decides how hard glibc's malloc works:
 * the same interpreter ran one workload with 4% more instructions when its build directory's
 * name was a few characters longer.  run.py holds a bytearray of PROFOPT_BENCH_PAD bytes
 * while it measures; round r uses pad index r % layouts, so every interpreter meets the same
 * mix of layouts, not one it was lucky or unlucky with. */
#define BENCH_PAD_STEP 1536
long bench_layout_pad(int round, int layouts);
/* The order of the n interpreters in round `round` (0-based): forward in even rounds,
 * backward in odd ones, so each one runs as often early as late in a round. */
void bench_order(int round, int n, int *order);
/* Calibration: given `loops` that took `elapsed` seconds, the next loop count to try, or 0
 * when a sample of `loops` is long enough (at least half the target). */
long bench_next_loops(long loops, double elapsed, double target);
/* Parses a callgrind output file: event names and the totals of its "summary:" (or
 * "totals:") line.  Returns the number of events (0 if none found). */
int bench_parse_callgrind(const char *text, char **names, double *values, int max);

struct bench_runner {
	const char *runpy;        /* Tools/bench/run.py */
	double timeout;           /* per process, seconds */
	const char *valgrind;     /* callgrind mode: the valgrind program, else NULL */
	const char *const *cg_extra; /* extra valgrind options (NULL-terminated), may be NULL */
	const char *tmpdir;       /* for callgrind output files */
};
/* One timed run of `loops` bench() calls: elapsed seconds as run.py reports them.
 * Exits with a message naming the workload and interpreter when the run fails. */
double bench_time_once(const struct bench_runner *br, const struct bench_interp *in, const char *work, long loops);
/* One callgrind run: fills names/values with the event totals; returns the number of events. */
int bench_count_once(const struct bench_runner *br, const struct bench_interp *in, const char *work, long loops,
		     char **names, double *values, int max);
/* The last line of text that says something (in place): valgrind ends its report with a
 * line that is only its "==PID==" prefix. */
char *bench_last_line(char *text);
/* When valgrind's output `out` says it could not read the debug information of `program`:
 * why, and what to do (malloc'd); else NULL. */
char *bench_callgrind_unreadable(const char *out, const char *program);
/* The interpreter's version, or NULL (and *why) when it does not run; *executable gets
 * its sys.executable when that is a usable path (else NULL). */
char *bench_python_version(const char *python, char **why, char **executable);
/* An interpreter of an --enable-shared build, run from its build directory, loads the
 * libpython beside it, never an installed one of the same soname: when python's directory
 * holds libpython*.so*, {"LD_LIBRARY_PATH=THAT-DIR[:the inherited value]", NULL}; else NULL. */
char **bench_library_env(const char *python);
/* SIGINT/SIGTERM while measuring set bench_got_signal: the run stops, the child is killed. */
void bench_catch_signals(void);
extern volatile sig_atomic_t bench_got_signal;

/* ---- bench_pages.c: a new page-cache draw for every round */

/* Adds the regular files a /proc/PID/maps text names to (*files)[0..n) (capacity *cap),
 * each once; returns the new count. */
int bench_pages_parse_maps(const char *maps, char ***files, int n, int *cap);
/* Drops the files' pages from the page cache (pages a running process maps stay) and reads
 * the files back into new ones; returns how many files it renewed. */
int bench_pages_renew(char *const *files, int n);

/* ---- bench_report.c: analysis and reports */

/* Computes every cell's median, MAD, IQR, speedup and verdict, and the pairwise geometric
 * means with their intervals. */
void bench_analyze(struct bench_result *r);
/* The group named in a workload's source: a line GROUP = "NAME" (letters, digits, _.+-);
 * "python" when there is none.  Returns a new string. */
char *bench_parse_group(const char *source);
/* "12.3 ms", "1.23 G" (instructions): value with a unit chosen by its size. */
void bench_format_value(char *out, size_t n, double v, enum bench_mode mode);
/* "1.22x [1.20,1.24] faster", or "1.220x faster" for an interval of zero width. */
void bench_format_speedup(char *out, size_t n, struct interval iv, enum verdict v);
/* The terminal table: a row per workload, the geometric means, and what they mean. */
void bench_print_table(const struct bench_result *r, FILE *out);
/* The whole run as JSON. */
void bench_write_json(const struct bench_result *r, FILE *out);

/* ---- bench_plot.c */

/* Writes PATH's data (.dat) and gnuplot script (.gp) next to it and runs gnuplot to make
 * PATH (.svg or .png): the speedup per workload over the first interpreter, with intervals.
 * Returns 0, or -1 after saying why (gnuplot missing or failing). */
int bench_plot(const struct bench_result *r, const char *path);

/* ---- the tool's two commands (bench.c, compare.c), dispatched by main.c; argv[0] is the
 * command's name, and options_NAME its options (parsing and --help, lib/options.h). */
int cmd_bench(int argc, char **argv);
extern const struct command_options options_bench;
int cmd_compare(int argc, char **argv);
extern const struct command_options options_compare;

#endif

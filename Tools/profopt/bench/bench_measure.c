/* bench_measure.c - runs benchmark workloads: interleaving order, calibration, timed runs and
 * callgrind instruction counts (see bench.h). */
#include "bench/bench.h"
#include "lib/proc.h"
#include "lib/util.h"

#include <glob.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

volatile sig_atomic_t bench_got_signal;

static void on_signal(int sig)
{
	bench_got_signal = sig;
}

void bench_catch_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal; /* no SA_RESTART: poll() returns EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

void bench_order(int round, int n, int *order)
{
	for (int i = 0; i < n; i++)
		order[i] = round % 2 ? n - 1 - i : i;
}

long bench_layout_pad(int round, int layouts)
{
	/* warm-up rounds (negative) use the first layout */
	return round > 0 ? (long)(round % layouts) * BENCH_PAD_STEP : 0;
}

long bench_next_loops(long loops, double elapsed, double target)
{
	if (elapsed >= target / 2)
		return 0;
	double want = elapsed > 0 ? loops * target / elapsed : loops * 100.0;
	/* At least double (progress), at most x100 (a too-coarse first reading). */
	if (want < 2.0 * loops)
		want = 2.0 * loops;
	if (want > 100.0 * loops)
		want = 100.0 * loops;
	if (want > 1e9)
		return 0;
	return (long)ceil(want);
}

/* Runs argv with stdout and stderr captured, for at most timeout seconds.  Returns the wait
 * status, -1 if it could not be started (*out: the reason), -2 on timeout. */
static int spawn(char *const argv[], double timeout, char **out, char *const *env)
{
	struct run_opts o = {.timeout = timeout, .stop = &bench_got_signal, .env = env};
	int status = run_child(argv, &o, out, NULL);
	if (status == RUN_STOPPED) {
		fprintf(stderr, "\n%s: interrupted by signal %d; nothing was reported\n", progname, (int)bench_got_signal);
		exit(128 + bench_got_signal);
	}
	return status == RUN_TIMED_OUT ? -2 : status;
}

char *bench_last_line(char *text)
{
	for (;;) {
		size_t n = strlen(text);
		while (n && (text[n - 1] == '\n' || text[n - 1] == ' '))
			text[--n] = '\0';
		char *nl = strrchr(text, '\n'), *line = nl ? nl + 1 : text;
		size_t digits = line[0] == '=' && line[1] == '=' ? strspn(line + 2, "0123456789") : 0;
		if (!nl || !digits || strcmp(line + 2 + digits, "==") != 0)
			return line;
		*nl = '\0';
	}
}

static _Noreturn void run_failed(const struct bench_interp *in, const char *work, int status, char *out, double timeout)
{
	char what[96];
	if (status == -2)
		snprintf(what, sizeof what, "timed out after %.0f s (--timeout)", timeout);
	else if (status == -1)
		snprintf(what, sizeof what, "could not start");
	else
		describe_status(status, what, sizeof what);
	fatal("workload '%s' failed on %s (%s, %s): %s", work, in->name, in->python, what, *out ? printable(bench_last_line(out)) : "(no output)");
}

double bench_time_once(const struct bench_runner *br, const struct bench_interp *in, const char *work, long loops)
{
	char nloops[32];
	snprintf(nloops, sizeof nloops, "%ld", loops);
	char *argv[] = {in->executable, (char *)br->runpy, (char *)work, nloops, NULL};
	char *out = NULL;
	int st = spawn(argv, br->timeout, &out, in->env);
	if (!proc_exit_ok(st))
		run_failed(in, work, st, out, br->timeout);
	char *line = bench_last_line(out), *end;
	double v = strtod(line, &end);
	if (end == line || !(v >= 0))
		fatal("workload '%s' on %s printed '%s', not elapsed seconds", work, in->name, printable(line));
	free(out);
	return v;
}

int bench_parse_callgrind(const char *text, char **names, double *values, int max)
{
	const char *ev = NULL, *sum = NULL;
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (starts_with(p, "events:"))
			ev = p + 7;
		else if (starts_with(p, "summary:"))
			sum = p + 8;
		else if (!sum && starts_with(p, "totals:"))
			sum = p + 7;
	}
	if (!ev || !sum)
		return 0;
	int n = 0;
	while (n < max) {
		ev += strspn(ev, " \t");
		size_t len = strcspn(ev, " \t\n");
		if (!len)
			break;
		char *end;
		double v = strtod(sum, &end);
		if (end == sum)
			break;
		names[n] = xasprintf("%.*s", (int)len, ev);
		values[n++] = v;
		ev += len;
		sum = end;
	}
	return n;
}

char *bench_callgrind_unreadable(const char *out, const char *program)
{
	if (!strstr(out, "debuginfo reader"))
		return NULL;
	return xasprintf("valgrind cannot read the debug information of %s: valgrind 3.19 does not read the DWARF 5 "
			 "that clang 14 and later write; build with DWARF 4 (AX_PGO's clang flags ask for it, unless "
			 "CFLAGS name a version: -gdwarf-4) or count a copy without it (objcopy --strip-debug leaves code "
			 "and symbols as they are)", printable(program));
}

int bench_count_once(const struct bench_runner *br, const struct bench_interp *in, const char *work, long loops,
		     char **names, double *values, int max)
{
	char nloops[32];
	snprintf(nloops, sizeof nloops, "%ld", loops);
	char *outfile = xasprintf("%s/callgrind.%ld.out", br->tmpdir, (long)getpid());
	char *outopt = xasprintf("--callgrind-out-file=%s", outfile);
	int nextra = 0;
	while (br->cg_extra && br->cg_extra[nextra])
		nextra++;
	char **argv = xcalloc((size_t)nextra + 8, sizeof *argv);
	int argc = 0;
	argv[argc++] = (char *)br->valgrind;
	argv[argc++] = "--tool=callgrind";
	argv[argc++] = outopt;
	for (int i = 0; i < nextra; i++)
		argv[argc++] = (char *)br->cg_extra[i];
	argv[argc++] = in->executable;
	argv[argc++] = (char *)br->runpy;
	argv[argc++] = (char *)work;
	argv[argc++] = nloops;
	char *out = NULL;
	unlink(outfile);
	int st = spawn(argv, br->timeout, &out, in->env);
	free(argv);
	if (!proc_exit_ok(st)) {
		char *why = bench_callgrind_unreadable(out, in->executable);
		if (why)
			fatal("%s", why);
		run_failed(in, work, st, out, br->timeout);
	}
	char *text = read_file(outfile, NULL);
	if (!text)
		fatal("callgrind wrote no %s for workload '%s' on %s: %s", outfile, work, in->name, printable(bench_last_line(out)));
	int n = bench_parse_callgrind(text, names, values, max);
	if (n == 0)
		fatal("no event totals in %s (workload '%s' on %s)", outfile, work, in->name);
	unlink(outfile);
	free(text);
	free(out);
	free(outopt);
	free(outfile);
	return n;
}

char **bench_library_env(const char *python)
{
	const char *slash = strrchr(python, '/');
	if (!slash)
		return NULL;
	char *dir = xasprintf("%.*s", (int)(slash - python), python);
	char *pattern = xasprintf("%s/libpython*.so*", *dir ? dir : "/");
	glob_t g;
	int shared = glob(pattern, GLOB_NOSORT, NULL, &g) == 0;
	if (shared)
		globfree(&g);
	free(pattern);
	char **env = NULL;
	if (shared) {
		const char *old = getenv("LD_LIBRARY_PATH");
		env = xcalloc(2, sizeof *env);
		env[0] = old && *old ? xasprintf("LD_LIBRARY_PATH=%s:%s", dir, old) : xasprintf("LD_LIBRARY_PATH=%s", dir);
	}
	free(dir);
	return env;
}

char *bench_python_version(const char *python, char **why, char **executable)
{
	char *argv[] = {(char *)python, "-c", "import platform, sys; print(sys.executable); print(platform.python_version())", NULL};
	char *out = NULL;
	char **env = bench_library_env(python);
	int st = spawn(argv, 30, &out, env);
	if (env)
		free(env[0]);
	free(env);
	if (!proc_exit_ok(st)) {
		char what[96];
		if (st >= 0)
			describe_status(st, what, sizeof what);
		*why = xasprintf("%s", st == -2 ? "did not answer within 30 s" : st == -1 ? out : *out ? printable(bench_last_line(out)) : what);
		free(out);
		return NULL;
	}
	char *v = xstrdup(bench_last_line(out));
	/* The line before: the real executable (a wrapper such as a pyenv shim execs it, and
	 * callgrind does not follow exec). */
	char *end = strrchr(out, '\n');
	*executable = NULL;
	if (end) {
		*end = '\0';
		char *prev = bench_last_line(out);
		if (*prev == '/' && access(prev, X_OK) == 0)
			*executable = xstrdup(prev);
	}
	free(out);
	return v;
}

/* run.c - `profopt run`: one pipeline stage as a quiet, logged, timed command: a banner, live
 * progress (a heartbeat line off a terminal, so CI never times out in silence), the duration,
 * and on failure the end of the log, and the words of a compile libtool hid. */
#include "commands.h"
#include "format/buildlog.h"
#include "lib/lines.h"
#include "lib/pool.h"
#include "lib/proc.h"
#include "lib/progress.h"
#include "format/stamp.h"
#include "format/unitcount.h"
#include "lib/util.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct run_progress {
	struct progress p;
	struct unit_count units;
	const char *units_file; /* NULL: no unit counting */
	long total;              /* the last build's count, 0 when unknown */
};

/* "212/354 units, linking python, about 3 min 10 s left" (parts left out when unknown). */
static char *units_text(const struct run_progress *rp, double seconds)
{
	const struct unit_count *u = &rp->units;
	char left[48] = "", link[160] = "";
	if (u->linking[0])
		snprintf(link, sizeof link, ", linking %s", u->linking);
	/* a link takes time the compile rate does not predict: no estimate while one runs */
	if (rp->total > 0 && u->compiled > 0 && u->compiled < rp->total && !u->linking[0]) {
		char d[32];
		format_duration(d, sizeof d, seconds * (double)(rp->total - u->compiled) / (double)u->compiled);
		snprintf(left, sizeof left, ", about %s left", d);
	}
	if (rp->total > 0)
		return xasprintf("%ld/%ld units%s%s, ", u->compiled, rp->total, link, left);
	return xasprintf("%ld units%s, ", u->compiled, link);
}

static void tick(struct pool *pool, void *arg)
{
	struct run_progress *rp = arg;
	double seconds = progress_elapsed(&rp->p);
	char elapsed[32], *units = NULL;
	format_duration(elapsed, sizeof elapsed, seconds);
	if (rp->units_file) {
		unit_count_poll(&rp->units, pool->jobs[0].log_path);
		if (rp->units.compiled || rp->units.linking[0])
			units = units_text(rp, seconds);
	}
	char *text = xasprintf("    %s: running, %s%s elapsed (log: %s)", pool->jobs[0].name, units ? units : "", elapsed,
			       pool->jobs[0].log_path);
	progress_show(&rp->p, text, 0);
	free(text);
	free(units);
}

/* The end of a log read for its last lines: a log of gigabytes costs no more. */
#define TAIL_MAX_BYTES (1 << 20)

/* The last `lines` lines of the log (of its last TAIL_MAX_BYTES), each cut at LOG_LINE_MAX. */
static void print_tail(const char *path, int lines)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	off_t size = lseek(fd, 0, SEEK_END);
	char *text = xmalloc(TAIL_MAX_BYTES + 1);
	ssize_t got = pread(fd, text, TAIL_MAX_BYTES, size > TAIL_MAX_BYTES ? size - TAIL_MAX_BYTES : 0);
	close(fd);
	size_t len = got > 0 ? (size_t)got : 0;
	const char *p = text + len;
	int n = 0;
	while (p > text && n <= lines)
		if (*--p == '\n')
			n++;
	if (p < text + len && *p == '\n')
		p++;
	fprintf(stderr, "---- last %d lines of %s ----\n", lines, printable(path));
	for (const char *end; p < text + len; p = end + (end < text + len)) {
		end = memchr(p, '\n', (size_t)(text + len - p));
		end = end ? end : text + len;
		size_t bytes = (size_t)(end - p);
		fprintf(stderr, "%.*s%s\n", (int)(bytes > LOG_LINE_MAX ? LOG_LINE_MAX : bytes), p,
			bytes > LOG_LINE_MAX ? " [... the rest of a long line cut]" : "");
	}
	fprintf(stderr, "----\n");
}

/* libtool sends its second compile's output to /dev/null, so when that one fails the log says
 * only "Error 1"; its command is in the log (pgo.mk's logged builds get V=1). */
#define SUPPRESSED " >/dev/null 2>&1"
#define COMPILE_PREFIX "libtool: compile: "
#define SHOWN_MAX 8000

struct hidden {
	struct make_dirs dirs;
	char *cmd, *dir; /* the last hidden compile whose object is missing */
};

/* A hidden compile whose object ("-o OBJ", from make's directory) is missing becomes h's. */
static int on_line(const char *line, size_t len, void *ctx)
{
	struct hidden *h = ctx;
	size_t k = strlen(SUPPRESSED), p = strlen(COMPILE_PREFIX);
	if (make_dirs_line(&h->dirs, line) || !starts_with(line, COMPILE_PREFIX) || len <= k + p ||
	    strcmp(line + len - k, SUPPRESSED) != 0)
		return 0;
	const char *where = make_dirs_top(&h->dirs), *o = strstr(line, " -o ");
	if (!o)
		return 0;
	o += 4;
	char *obj = xasprintf("%s%s%.*s", where && *o != '/' ? where : "", where && *o != '/' ? "/" : "",
			      (int)strcspn(o, " \t"), o);
	int found = access(obj, F_OK) == 0;
	free(obj);
	if (found)
		return 0;
	free(h->cmd);
	free(h->dir);
	h->cmd = xasprintf("%.*s", (int)(len - k - p), line + p);
	h->dir = where ? xstrdup(where) : NULL;
	return 0;
}

/* After a failed build: the last compile of the log whose output libtool discarded and whose
 * object is missing runs again (in its make directory, else cwd), its words shown. */
static void show_hidden_compile(const char *log, const char *cwd)
{
	struct hidden h = {0};
	lines_scan(log, LOG_LINE_MAX, on_line, &h);
	if (!h.cmd)
		return;
	const char *dir = h.dir ? h.dir : cwd;
	char *argv[] = {"/bin/sh", "-c", h.cmd, NULL}, *out = NULL;
	struct run_opts o = {.cwd = dir, .timeout = 600};
	size_t len = 0;
	run_child(argv, &o, &out, &len);
	fprintf(stderr, "---- libtool hid the output of a failed compile; run again%s%s: %s ----\n%.*s%s----\n",
		dir ? " in " : "", dir ? printable(dir) : "", printable(h.cmd), (int)(len > SHOWN_MAX ? SHOWN_MAX : len),
		out ? out : "", len > SHOWN_MAX ? "\n[... cut]\n" : "");
}

struct run_options {
	const char *label, *log, *stamp, *cwd, *units, *since;
	double heartbeat;
	long long tail;
	int verbose;
};

#define O struct run_options
static const struct option_spec run_options[] = {
	OPT_STRING("label", 0, O, label, "TEXT", "stage name shown in banners"),
	OPT_STRING("log", 0, O, log, "FILE", "where the command's output goes (required)"),
	OPT_STAMP(O, stamp),
	OPT_STRING("since", 0, O, since, "FILE",
		   "the record's duration counts from FILE's modification time (a stage of several commands, this "
		   "one the last)"),
	OPT_SECONDS("heartbeat", 0, O, heartbeat, "interval of progress lines off a terminal (default 30)"),
	OPT_INT("tail", 0, O, tail, "N", 1, 1000000, "log lines shown on failure (default 30)"),
	OPT_STRING("units", 0, O, units, "FILE",
		   "count the compile commands in the log as it grows, show them against the total FILE holds (the "
		   "last build's), with the link under way and the time left; on success FILE gets this count"),
	OPT_STRING("work-dir", 'C', O, cwd, "DIR", "run in DIR"),
	OPT_FLAG("verbose", 0, O, verbose, "also copy the log to the terminal at the end"),
	OPT_END,
};
#undef O

const struct command_options options_run = {
	"run",
	"--label=TEXT --log=FILE [OPTIONS] -- COMMAND [ARGS...]",
	"Runs COMMAND with its output in FILE, printing a banner, progress and the duration.\n"
	"On failure it prints the last lines of the log and exits with COMMAND's status; a compile\n"
	"whose output libtool discarded (its object missing) runs again, its words shown.\n",
	run_options,
	NULL,
	1,
};

/* The stage's end: the log on failure, the exit status a shell would give (128 + sig when interrupted). */
static int report_run(const struct run_options *o, const struct job *job, double seconds, int sig)
{
	char elapsed[32], what[96];
	format_duration(elapsed, sizeof elapsed, seconds);
	if (sig) {
		fprintf(stderr, "==> %s: interrupted after %s; no stamp written, it starts again next time\n",
			printable(o->label), elapsed);
		return 128 + sig;
	}
	char *text = o->verbose ? read_file(o->log, NULL) : NULL;
	fputs(text ? text : "", stderr);
	if (job->result == RESULT_PASSED) {
		fprintf(stderr, "==> %s: done in %s\n", printable(o->label), elapsed);
		return 0;
	}
	if (!o->verbose)
		print_tail(o->log, (int)o->tail);
	if (job->result != RESULT_NOT_STARTED)
		show_hidden_compile(o->log, o->cwd);
	if (job->result == RESULT_NOT_STARTED)
		fprintf(stderr, "==> %s: FAILED: cannot execute '%s': %s\n", printable(o->label), printable(job->argv[0]),
			strerror(job->proc.exec_errno));
	else
		fprintf(stderr, "==> %s: FAILED (%s) after %s; full log: %s\n", printable(o->label),
			describe_status(job->status, what, sizeof what), elapsed, printable(o->log));
	return shell_status(job->status) ? shell_status(job->status) : 1;
}

int cmd_run(int argc, char **argv)
{
	struct run_options o = {.heartbeat = 30, .tail = 30};
	int first = options_parse(&options_run, argc, argv, &o);
	if (!o.log)
		usage_error("--log=FILE is required (see 'profopt run --help')");
	if (first >= argc)
		usage_error("no command given (see 'profopt run --help')");
	if (!o.label)
		o.label = argv[first];
	struct job job = {.name = (char *)o.label, .cmd = argv[first], .argv = argv + first, .log_path = (char *)o.log};
	struct run_progress rp = {.units_file = o.units, .total = o.units ? unit_count_load(o.units) : 0};
	progress_init(&rp.p, o.heartbeat);
	struct pool pool = {.jobs = &job, .njobs = 1, .parallel = 1, .cwd = o.cwd, .on_tick = tick, .arg = &rp};
	fprintf(stderr, "==> %s (log: %s)\n", printable(o.label), printable(o.log));
	int sig = pool_run(&pool);
	double seconds = progress_elapsed(&rp.p);
	progress_clear(&rp.p);
	if (o.units) {
		unit_count_poll(&rp.units, o.log);
		unit_count_close(&rp.units);
	}
	int rc = report_run(&o, &job, seconds, sig);
	if (rc == 0 && o.units)
		unit_count_save(o.units, rp.units.compiled);
	if (rc == 0 && o.stamp)
		stamp_write(o.stamp, o.label, seconds_since(o.since, seconds));
	return rc;
}

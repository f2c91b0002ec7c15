/* train.c - `profopt train`: runs the training tasks of a PGO build in parallel, with a
 * per-task timeout, one log per task, a live progress line (or heartbeat), and a summary that
 * says what failed and whether it matters.  Fails when too few tasks ran to completion. */
#include "commands.h"
#include "lib/json.h"
#include "lib/lines.h"
#include "lib/pool.h"
#include "lib/progress.h"
#include "lib/rundir.h"
#include "format/family.h"
#include "format/stamp.h"
#include "lib/output.h"
#include "lib/util.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

/* Where tasks come from: the whole training, or one --workload of it. */
struct source {
	const char *name; /* the workload's name, or NULL */
	int weight;
	const char *tasks_file, *each;
	struct option_list env;  /* --setenv values (with {}: made per task) */
	struct option_list cmds; /* COMMAND arguments */
};

struct train_opts {
	long long jobs;
	double timeout, min_ran, heartbeat, timeout_scale;
	const char *cwd, *log_dir, *results, *stamp, *stage, *runs_in, *workload;
	const char *family, *raw_dir, *pattern, *launcher;
	const struct family *fam; /* of --family, or NULL */
	int all_pass, no_crash, stop_with_parent, retry_alone;
	struct option_list crashed_before_files, failed_before_files; /* as given */
	/* "RESULT\tNAME": the tasks the earlier runs' results record as not passed */
	struct option_list crashed_before, failed_before;
	struct source cur; /* one source's options, parsed anew for each --workload (then copied to it) */
	struct source *src; /* src[0]: the options before any --workload; then one per workload */
	int nsrc;
};

/* template with {} replaced by name; in a command, the name is quoted as one shell word, so
 * a task named `;touch x` or `$(...)` is an argument, never code. */
static char *substitute(const char *template, const char *name, int command)
{
	char *q = command ? shell_quote(name) : xstrdup(name);
	struct buf b = {0};
	buf_add(&b, "", 0);
	for (const char *p = template; *p; p++) {
		int brace = p[0] == '{' && p[1] == '}';
		buf_add(&b, brace ? q : p, brace ? strlen(q) : 1);
		p += brace;
	}
	return b.data;
}

/* Whether {} in template begins a word, where a name starting with '-' is an option (not
 * every program takes "--", CPython's regrtest among them). */
static int name_starts_a_word(const char *template)
{
	for (const char *p = strstr(template, "{}"); p; p = strstr(p + 2, "{}"))
		if (p == template || p[-1] == ' ' || p[-1] == '\t' || p[-1] == '=')
			return 1;
	return 0;
}

/* What a file name made of a task's or workload's name may hold. */
#define NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-"

/* A task name usable as a file name. */
static char *safe_name(const char *s)
{
	char *n = xstrdup(s);
	if (strlen(n) > 80)
		n[80] = '\0';
	for (char *p = n; *p; p++)
		if (!strchr(NAME_CHARS, *p))
			*p = '_';
	return n;
}

/* A task's environment, {} made its file name: the training's --setenv, its workload's, and
 * where the family's runtime writes the profile; NULL when empty. */
static char **task_env(const struct train_opts *o, const struct source *src, const char *file)
{
	struct option_list t = {0};
	for (int i = 0; i < o->src[0].env.n; i++)
		option_list_add(&t, o->src[0].env.v[i]);
	for (int i = 0; src != &o->src[0] && i < src->env.n; i++)
		option_list_add(&t, src->env.v[i]);
	if (o->raw_dir)
		o->fam->train_env(&t, o->raw_dir, src->name, o->pattern);
	for (int i = 0; i < t.n; i++) /* the list, NULL-terminated, becomes the environment */
		t.v[i] = substitute(t.v[i], file, 0);
	return (char **)t.v;
}

/* A task of src; a workload of weight W runs W times for gcc (its counts add up in the .gcda). */
static void add_job(struct pool *pool, int *cap, const struct source *src, const char *name, const char *cmd,
		    const struct train_opts *o)
{
	char *file = safe_name(name);
	for (int run = 0; run < (o->fam && o->fam->weight_by_runs ? src->weight : 1); run++) {
		pool->jobs = grow_array(pool->jobs, pool->njobs, cap, sizeof *pool->jobs, 64);
		struct job *j = &pool->jobs[pool->njobs];
		memset(j, 0, sizeof *j);
		j->name = xstrdup(name);
		j->cmd = o->launcher ? xasprintf("%s %s", o->launcher, cmd) : xstrdup(cmd);
		/* Two tasks with the same name get distinct logs. */
		j->log_path = xasprintf("%s%s%s/%03d-%s.log", o->log_dir, src->name ? "/" : "", src->name ? src->name : "",
					pool->njobs + 1, file);
		j->env = task_env(o, src, file);
		pool->njobs++;
	}
}

/* A task list's bounds: a line is a command, a name is a file name and a line of the summary. */
#define TASK_LINE_MAX 65536
#define TASK_NAME_MAX 255

/* Every line is checked before one is used: a NUL byte would otherwise end the list early.  A
 * line: NAME<TAB>COMMAND, COMMAND, or (--each) NAME. */
static void load_tasks(struct pool *pool, int *cap, const struct train_opts *o, const struct source *src)
{
	struct lines l;
	char err[512];
	if (lines_read(&l, src->tasks_file, LINES_TEXT, TASK_LINE_MAX, err, sizeof err) < 0)
		fatal("cannot read the task list: %s", err);
	for (char *line; (line = lines_next(&l)) != NULL;) {
		while (*line == ' ' || *line == '\t')
			line++;
		size_t n = strlen(line);
		while (n > 0 && line[n - 1] == ' ')
			line[--n] = '\0';
		if (!*line || *line == '#')
			continue;
		char *tab = strchr(line, '\t');
		size_t name_len = src->each ? n : tab ? (size_t)(tab - line) : 0;
		if (name_len > TASK_NAME_MAX)
			fatal("%s:%d: a task name of %zu bytes, more than the limit of %d",
			      printable(src->tasks_file), l.lineno, name_len, TASK_NAME_MAX);
		if (src->each && *line == '-' && name_starts_a_word(src->each))
			fatal("task '%s' in %s starts with '-': in --each='%s' the command would read it as "
			      "an option (rename it, or put a path before {} in the template)",
			      printable(line), printable(src->tasks_file), printable(src->each));
		if (tab && !src->each)
			*tab = '\0';
		char *cmd = src->each ? substitute(src->each, line, 1) : tab ? tab + 1 : line;
		add_job(pool, cap, src, line, cmd, o);
	}
}

/* A log line in which the profiling runtime says it could not write the task's profile
 * (libgcov: "profiling:FILE:Cannot open", ...; clang's: "LLVM Profile Error: ..."): 200 bytes
 * of it into out. */
static int profile_error_line(const char *line, size_t len, void *out)
{
	if (!starts_with(line, "profiling:") && !memmem(line, len, "LLVM Profile Error:", 19))
		return 0;
	snprintf(out, 201, "%.200s", line);
	return 1;
}

static void show_progress(struct pool *pool, void *arg)
{
	struct progress *progress = arg;
	double el = progress_elapsed(progress);
	char elapsed[32], eta[32] = "?";
	format_duration(elapsed, sizeof elapsed, el);
	if (pool->done > 0 && pool->done < pool->njobs)
		format_duration(eta, sizeof eta, el / pool->done * (pool->njobs - pool->done));
	else if (pool->done == pool->njobs)
		snprintf(eta, sizeof eta, "0 s");
	struct buf b = {0};
	buf_printf(&b, "training [%d/%d] %d failed, %s elapsed, ETA %s", pool->done, pool->njobs, pool->failed, elapsed,
		   eta);
	int shown = 0;
	for (int i = 0; i < pool->njobs && shown < 4; i++)
		if (pool->jobs[i].state == JOB_RUNNING)
			buf_printf(&b, "%s%s", shown++ ? " " : " | running: ", pool->jobs[i].name);
	progress_show(progress, b.data, 0);
	buf_free(&b);
}

static void report_done(struct pool *pool, struct job *job, void *arg)
{
	char said[256] = "";
	/* the log is read line by line: a task's log may be as big as it likes */
	if ((job->result == RESULT_PASSED || job->result == RESULT_FAILED) &&
	    lines_scan(job->log_path, LOG_LINE_MAX, profile_error_line, said) > 0) {
		if (job->result == RESULT_PASSED)
			pool->failed++;
		job->result = RESULT_PROFILE_LOST;
	}
	if (job->result == RESULT_PASSED)
		return;
	char what[96];
	progress_clear(arg);
	fprintf(stderr, "  %s: %s (%s) after %.1f s%s%s; log: %s\n", printable(job->name), job_result_name(job->result),
		describe_status(job->status, what, sizeof what), job->end - job->start, *said ? ": " : "", printable(said),
		printable(job->log_path));
	show_progress(pool, arg);
}

static int count_results(const struct pool *pool, enum job_result r)
{
	int n = 0;
	for (int i = 0; i < pool->njobs; i++)
		n += pool->jobs[i].result == r;
	return n;
}

/* --failed-before: a task that did not pass is excused when it did not pass in the earlier run
 * either; a crash, a timeout or a start that failed only by the same kind of failure there (a
 * test that fails in training for this machine's reasons excuses no segfault of the optimized
 * program).  list: "RESULT\tNAME" entries. */
static int excused_failure(const struct job *j, const struct option_list *list)
{
	const char *kind = job_result_name(j->result);
	for (int k = 0; j->result != RESULT_PASSED && k < list->n; k++) {
		const char *tab = strchr(list->v[k], '\t');
		int same_kind = starts_with(list->v[k], kind) && tab == list->v[k] + strlen(kind);
		if (!strcmp(tab + 1, j->name) &&
		    (j->result == RESULT_FAILED || j->result == RESULT_PROFILE_LOST || same_kind))
			return 1;
	}
	return 0;
}

/* Which jobs names_where() takes: those of result (ANY_FAILURE: any but passed), or with killed
 * those whose processes were killed after the grace; with before, those the earlier run's
 * results excuse (excused) or do not (!excused). */
#define ANY_FAILURE (-1)
struct pick {
	int result, killed, excused;
	const struct option_list *before;
};

static int picked(const struct job *j, const struct pick *p)
{
	if (p->killed)
		return j->group_killed; /* what their processes counted is lost */
	if (p->result == ANY_FAILURE ? j->result == RESULT_PASSED : (int)j->result != p->result)
		return 0;
	return !p->before || excused_failure(j, p->before) == p->excused;
}

/* "test_a, test_b" for the jobs p picks, at most 10 named, *count of them. */
static char *names_where(const struct pool *pool, const struct pick *p, int *count)
{
	struct buf b = {0};
	int n = 0;
	buf_add(&b, "", 0);
	for (int i = 0; i < pool->njobs; i++) {
		if (!picked(&pool->jobs[i], p))
			continue;
		if (n++ < 10)
			buf_printf(&b, "%s%s", n > 1 ? ", " : "", printable(pool->jobs[i].name));
	}
	if (n > 10)
		buf_printf(&b, " and %d more", n - 10);
	*count = n;
	return b.data;
}

/* The training's outcome: how many tasks ran, and which failed or were lost, and why. */
static void print_outcome(const struct pool *pool, const char *log_dir, double seconds, int failed, int lost)
{
	char elapsed[32];
	format_duration(elapsed, sizeof elapsed, seconds);
	fprintf(stderr, "training: %d of %d tasks ran in %s%s\n", pool->njobs - lost, pool->njobs, elapsed,
		failed == 0 && lost == 0 ? ", all passed" : "");
	/* what became of their counts, as far as profopt can tell: a process killed by a signal
	 * writes none, one that exits (on SIGTERM too) writes what it counted */
	static const struct {
		enum job_result result;
		const char *words, *counts;
	} kinds[] = {
		{RESULT_FAILED, "failed", "they ran to the end, so their counts are in the profile and do not spoil it"},
		{RESULT_CRASHED, "crashed",
		 "the processes that crashed wrote no counts (others of the task that ended normally did), the rest of the "
		 "profile is intact"},
		{RESULT_TIMEOUT, "timed out",
		 "they were stopped with SIGTERM: their processes that exited on it wrote the counts they had, those killed "
		 "by it wrote none, the rest of the profile is intact"},
		{RESULT_NOT_STARTED, "could not start", "they wrote no counts, the rest of the profile is intact"},
		{RESULT_PROFILE_LOST, "could not write their profile",
		 "their counts are lost, the rest of the profile is intact"},
	};
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		int n;
		char *names = names_where(pool, &(struct pick){.result = (int)kinds[k].result}, &n);
		if (n)
			fprintf(stderr, "%d of %d training tasks %s: %s; %s; logs: %s/\n", n, pool->njobs, kinds[k].words, names,
				kinds[k].counts, printable(log_dir));
	}
	int n;
	char *names = names_where(pool, &(struct pick){.killed = 1}, &n);
	if (n)
		fprintf(stderr, "processes of %d task%s (%s) still ran %.0f s after SIGTERM and were killed (SIGKILL): "
				"their counts are lost\n", n, n == 1 ? "" : "s", names, POOL_KILL_GRACE);
}

static void write_results(const struct pool *pool, const char *path, double seconds, const char *status)
{
	json_t *doc = json_pack("{s:s, s:s, s:f, s:i, s:i}", "stage", "train", "status", status, "seconds",
				round(seconds * 10) / 10, "jobs", pool->parallel, "tasks", pool->njobs), *all = json_array();
	for (enum job_result r = RESULT_PASSED; r <= RESULT_PROFILE_LOST; r++) /* in pool.h's order */
		json_object_set_new(doc, job_result_name(r), json_integer(count_results(pool, r)));
	for (int i = 0; i < pool->njobs; i++) {
		const struct job *j = &pool->jobs[i];
		int done = j->state == JOB_DONE;
		json_array_append_new(all, json_pack("{s:o, s:s, s:i, s:f, s:o}", "name", jw_text(j->name), "result",
						     job_result_name(j->result), "exit", done ? shell_status(j->status) : -1,
						     "seconds", done ? round((j->end - j->start) * 100) / 100 : 0.0,
						     "log", jw_text(j->log_path)));
	}
	json_object_set_new(doc, "results", all);
	char *text = json_dumps(doc, JSON_PRESERVE_ORDER | JSON_INDENT(1) | JSON_REAL_PRECISION(12));
	text = xasprintf("%s\n", text);
	output_write(path, text, strlen(text));
}

/* --no-crash: says which crashes are excused (--crashed-before) and which are not; returns how
 * many are not. */
static int report_new_crashes(const struct pool *pool, const struct train_opts *o)
{
	int crashed = count_results(pool, RESULT_CRASHED), crashed_now;
	char *names = names_where(pool, &(struct pick){.result = RESULT_CRASHED, .before = &o->crashed_before}, &crashed_now);
	if (crashed > crashed_now)
		fprintf(stderr, "%d of the crashed tasks crashed in the earlier run too (--crashed-before): "
				"not this program's doing, excused\n", crashed - crashed_now);
	if (crashed_now > 0)
		fprintf(stderr, "%s: error: %d of %d tasks crashed (--no-crash): %s; the program under test was killed "
				"by a signal (logs: %s/)\n",
			progname, crashed_now, pool->njobs, names, printable(o->log_dir));
	return crashed_now;
}

/* --all-pass: says which tasks that did not pass are excused (--failed-before) and which are
 * not; returns how many are not. */
static int report_new_failures(const struct pool *pool, const struct train_opts *o)
{
	int excused, new, new_failed;
	char *old_names = names_where(pool, &(struct pick){.result = ANY_FAILURE, .excused = 1, .before = &o->failed_before},
				      &excused);
	char *new_names = names_where(pool, &(struct pick){.result = ANY_FAILURE, .before = &o->failed_before}, &new);
	names_where(pool, &(struct pick){.result = RESULT_FAILED, .before = &o->failed_before}, &new_failed);
	if (excused)
		fprintf(stderr, "%d of the tasks that did not pass did not pass in the earlier run either "
				"(--failed-before; a crash, timeout or failed start only by the same there): excused, "
				"but named: %s\n", excused, old_names);
	if (new > 0)
		fprintf(stderr, "%s: error: %d of %d tasks did not pass (--all-pass): %d failed, %d crashed, timed out or "
				"did not start: %s (logs: %s/)\n",
			progname, new, pool->njobs, new_failed, new - new_failed, new_names, o->log_dir);
	return new;
}

/* --crashed-before=FILE or --failed-before=FILE: the tasks a `profopt train --results` file
 * records as not passed, added to list as "RESULT\tNAME". */
static void load_earlier_results(struct option_list *list, const char *opt, const char *path)
{
	json_error_t err;
	json_t *doc = json_load_file(path, 0, &err);
	if (!doc && err.line > 0)
		fatal("--%s=%s: not JSON (line %d: %s)", opt, path, err.line, err.text);
	if (!doc)
		fatal("--%s=%s: %s", opt, path, err.text);
	json_t *results = json_object_get(doc, "results");
	if (!json_is_array(results))
		fatal("--%s=%s: no \"results\" array: not a profopt train --results file", opt, path);
	size_t i;
	json_t *r;
	json_array_foreach(results, i, r) {
		const char *name = json_string_value(json_object_get(r, "name"));
		const char *result = json_string_value(json_object_get(r, "result"));
		if (!name || !result)
			fatal("--%s=%s: result %zu has no \"name\" and \"result\" strings", opt, path, i + 1);
		if (strcmp(result, "passed") != 0)
			option_list_add(list, xasprintf("%s\t%s", result, name));
	}
}

#define MAX_WEIGHT 1000

/* A new source of tasks: the training's own (spec NULL) or --workload=NAME[:WEIGHT]'s. */
static void add_source(struct train_opts *o, const char *spec)
{
	o->src = xrealloc(o->src, (size_t)(o->nsrc + 1) * sizeof *o->src);
	struct source *s = &o->src[o->nsrc++];
	*s = (struct source){.weight = 1};
	if (!spec)
		return;
	char *name = xstrdup(spec), *colon = strchr(name, ':');
	long long w = 1;
	if (colon) {
		*colon = '\0';
		if (parse_whole(colon + 1, 1, MAX_WEIGHT, &w) < 0)
			usage_error("--workload=%s: the weight is a whole number from 1 to %d", printable(spec), MAX_WEIGHT);
	}
	char *bad = name + strspn(name, NAME_CHARS);
	if (!*name || *bad || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		usage_error("--workload wants NAME[:WEIGHT], NAME of letters, digits, . _ - (a directory name), not '%s'",
			    printable(spec));
	for (int i = 1; i < o->nsrc - 1; i++)
		if (strcmp(o->src[i].name, name) == 0)
			usage_error("--workload=%s: workload '%s' is given twice", printable(spec), name);
	s->name = name;
	s->weight = (int)w;
}

#define MAX_JOBS 4096 /* parallel tasks: more than any machine runs at once */

#define O struct train_opts
static const struct option_spec train_options[] = {
	OPT_INT("jobs", 'j', O, jobs, "N", 1, MAX_JOBS, "parallel tasks (default: number of CPUs)"),
	OPT_SECONDS("timeout", 0, O, timeout, "per-task limit, at most a week (default 1200)"),
	OPT_STRING("work-dir", 'C', O, cwd, "DIR", "run tasks in DIR"),
	OPT_STRING("log-dir", 0, O, log_dir, "DIR", "one log per task, DIR/NAME.log (default: train-logs)"),
	OPT_STRING("workload", 0, O, workload, "NAME[:WEIGHT]", "start a workload: the task options after it are its"),
	OPT_STRING("tasks", 0, O, cur.tasks_file, "FILE", "the task list (per workload after --workload)"),
	OPT_STRING("each", 0, O, cur.each, "TEMPLATE", "each line of --tasks is a name; the command is TEMPLATE with {} the name"),
	OPT_SHARE("min-ran", 0, O, min_ran, "SHARE", "fail unless this share of tasks ran to the end (default 90%)"),
	OPT_FLAG("all-pass", 0, O, all_pass, "fail unless every task passed (then --min-ran does not apply)"),
	OPT_FLAG("retry-alone", 0, O, retry_alone,
		 "run a task that failed by its exit status once more, alone; it counts by that run"),
	OPT_FLAG("no-crash", 0, O, no_crash, "fail if a task was killed by a signal profopt did not send (a crash)"),
	OPT_LIST("crashed-before", 0, O, crashed_before_files, "FILE",
		 "with --no-crash: excuse a task that crashed in the run of these --results (repeatable)"),
	OPT_LIST("failed-before", 0, O, failed_before_files, "FILE",
		 "with --all-pass: excuse a task that did not pass in the run of these --results (repeatable)"),
	OPT_LIST("setenv", 0, O, cur.env, "NAME=VALUE", "set for every task (or the workload's); {} is the task's name"),
	OPT_FAMILY(O, family),
	OPT_STRING("raw-dir", 0, O, raw_dir, "DIR", "with --family: where the instrumented program writes its profile"),
	OPT_STRING("profile-pattern", 0, O, pattern, "PAT", "clang: raw profile names, {} the task's (default {}-%m.profraw)"),
	OPT_STRING("launcher", 0, O, launcher, "PROGRAM", "start every task's command as PROGRAM COMMAND (a cross runner)"),
	OPT_SECONDS("heartbeat", 0, O, heartbeat, "interval of plain progress lines off a terminal (default 30)"),
	OPT_STRING("results", 0, O, results, "FILE", "write per-task results as JSON"),
	OPT_STAMP(O, stamp),
	OPT_STRING("stage", 0, O, stage, "NAME", "the stage the record names (default train; e.g. cs-train)"),
	OPT_FLAG("stop-with-parent", 0, O, stop_with_parent, "(Linux) stop when the process that started it ends"),
	{"timeout-scale", 0, OPTION_SECONDS, offsetof(O, timeout_scale), "FACTOR",
	 "--timeout times FACTOR (at most a week), said", 0, 0},
	OPT_STRING("runs-in", 0, O, runs_in, "DIR",
		   "with --raw-dir: train into a fresh DIR/run.XXXXXX, which replaces --raw-dir once training succeeded"),
	OPT_END,
};
#undef O

const struct command_options options_train = {
	"train",
	"[OPTIONS] [--tasks=FILE] [--] [COMMAND...]\n"
	"[OPTIONS] --workload=NAME[:WEIGHT] [WORKLOAD OPTIONS] [COMMAND...] ...",
	"Runs training tasks for a PGO build, N at a time: the lines of --tasks=FILE\n"
	"('NAME<TAB>COMMAND' or COMMAND) and the COMMAND arguments, per --workload if given.\n"
	"What a failed, crashed or lost task leaves in the profile: profopt(1).\n",
	train_options,
	"Exit status: 0 ok, 1 too few tasks ran (or, with --all-pass, one did not pass; with\n"
	"--no-crash, one crashed), 2 bad usage, 130 interrupted.\n",
	1,
};

/* After a --workload only its own options may come: the rest are the whole training's. */
static void refuse_training_options(char **args, int n)
{
	for (int i = 0; i < n && strcmp(args[i], "--") != 0 && args[i][0] == '-'; i++) {
		const char *name = args[i] + (args[i][1] == '-' ? 2 : 1);
		size_t len = strcspn(name, "=");
		for (const struct option_spec *spec = train_options; spec->name; spec++)
			if ((strlen(spec->name) == len && !strncmp(spec->name, name, len)) ||
			    (args[i][1] != '-' && spec->letter == args[i][1]))
				if (strcmp(spec->name, "tasks") && strcmp(spec->name, "each") && strcmp(spec->name, "setenv"))
					usage_error("'%s' is for the whole training: give it before the first --workload",
						    printable(args[i]));
	}
}

/* The arguments of one source, args[1..n) (args[0]: "train" or its --workload): its options,
 * then its COMMANDs.  Options end at the first operand: args are not reordered. */
static void parse_source(struct train_opts *o, struct source *src, char **args, int n)
{
	if (src->name)
		refuse_training_options(args + 1, n - 1);
	o->cur = *src; /* its name and weight */
	o->workload = NULL;
	int first = options_parse(&options_train, n, args, o);
	if (o->workload)
		usage_error("--workload wants its NAME[:WEIGHT] after '=' (--workload=NAME)");
	for (int i = 0; i < o->cur.env.n; i++)
		if (!strchr(o->cur.env.v[i], '=') || o->cur.env.v[i][0] == '=')
			usage_error("--setenv wants NAME=VALUE, not '%s'", printable(o->cur.env.v[i]));
	for (int i = first; i < n; i++)
		option_list_add(&o->cur.cmds, args[i]);
	*src = o->cur;
	if (src->each && !src->tasks_file)
		usage_error("--each needs --tasks=FILE (the names to put in place of {})");
}

/* The arguments up to the first --workload are the training's; each --workload's up to the next. */
static void parse_train_opts(struct train_opts *o, int argc, char **argv)
{
	add_source(o, NULL);
	for (int start = 1, end;; start = end + 1) {
		for (end = start; end < argc && !starts_with(argv[end], "--workload="); end++)
			;
		parse_source(o, &o->src[o->nsrc - 1], argv + start - 1, end - start + 1);
		if (end >= argc)
			break;
		add_source(o, argv[end] + strlen("--workload="));
	}
	if (o->nsrc > 1 && (o->src[0].tasks_file || o->src[0].cmds.n))
		usage_error("tasks before the first --workload belong to no workload: give them after one");
	if (!o->family != !o->raw_dir)
		usage_error("--family and --raw-dir go together (where the instrumented program writes its profile)");
	o->fam = family_parse(o->family);
	for (int i = 0; i < o->crashed_before_files.n; i++)
		load_earlier_results(&o->crashed_before, "crashed-before", o->crashed_before_files.v[i]);
	for (int i = 0; i < o->failed_before_files.n; i++)
		load_earlier_results(&o->failed_before, "failed-before", o->failed_before_files.v[i]);
	if (o->timeout_scale && o->timeout_scale != 1) { /* the limit per task times it, at most a week */
		double t = fmin(o->timeout * o->timeout_scale, MAX_SECONDS);
		fprintf(stderr, "train: timeout %.10g s per task (%.10g s x --timeout-scale %.10g: "
				"emulated programs run slower)\n", t, o->timeout, o->timeout_scale);
		o->timeout = t;
	}
}

/* Every task of every source, into the pool. */
static void load_sources(struct pool *pool, const struct train_opts *o)
{
	int cap = 0;
	for (int k = 0; k < o->nsrc; k++) {
		const struct source *src = &o->src[k];
		char *dir = src->name ? xasprintf("%s/%s", o->log_dir, src->name) : xstrdup(o->log_dir);
		if (make_dirs(dir, 0755) < 0)
			fatal("cannot create log directory %s: %s", dir, strerror(errno));
		if (src->tasks_file)
			load_tasks(pool, &cap, o, src);
		for (int i = 0; i < src->cmds.n; i++)
			add_job(pool, &cap, src, src->cmds.v[i], src->cmds.v[i], o);
	}
}

/* --retry-alone: a task that failed by its exit status (not a signal, not the timeout) runs once
 * more, by itself, and counts by that run: a test that times itself fails under the others' load.
 * One the earlier run excuses (--failed-before) is not run again: it fails there too. */
static int retry_failed_alone(struct pool *pool, struct progress *progress,
			      const struct option_list *failed_before)
{
	struct pool again = {.parallel = 1, .timeout = pool->timeout, .cwd = pool->cwd, .on_tick = show_progress,
			     .on_done = report_done, .arg = progress};
	int *from = xcalloc((size_t)pool->njobs + 1, sizeof *from);
	again.jobs = xcalloc((size_t)pool->njobs + 1, sizeof *again.jobs);
	for (int i = 0; i < pool->njobs; i++) {
		const struct job *f = &pool->jobs[i];
		if (f->result != RESULT_FAILED || excused_failure(f, failed_before))
			continue;
		again.jobs[again.njobs] = (struct job){
			.name = f->name, .cmd = f->cmd, .argv = f->argv, .env = f->env,
			.log_path = xasprintf("%.*s.alone.log", (int)strlen(f->log_path) - 4, f->log_path)};
		from[again.njobs++] = i;
	}
	if (!again.njobs)
		return 0;
	fprintf(stderr, "training: %d failed task%s run again, alone (--retry-alone)\n", again.njobs,
		again.njobs > 1 ? "s" : "");
	int sig = pool_run(&again);
	for (int k = 0; k < again.njobs && !sig; k++) {
		struct job *f = &pool->jobs[from[k]], *j = &again.jobs[k];
		if (j->result == RESULT_PASSED)
			fprintf(stderr, "  %s: failed beside the others, passed alone; log: %s\n", printable(f->name),
				printable(j->log_path));
		f->result = j->result;
	}
	return sig;
}

static void write_stamp(const struct train_opts *o, const struct pool *pool, double seconds, int failed, int lost)
{
	struct buf workloads = {0}; /* "main:1 extra:2" */
	for (int k = 1; k < o->nsrc; k++)
		buf_printf(&workloads, "%s%s:%d", k > 1 ? " " : "", o->src[k].name, o->src[k].weight);
	json_t *j = stamp_begin(o->stage, seconds);
	json_t *named = workloads.len ? jw_text(workloads.data) : NULL; /* o*: none, no key */
	json_object_update_new(j, json_pack("{s:i, s:i, s:i, s:i, s:i, s:o*}", "tasks", pool->njobs, "ran",
					    pool->njobs - lost, "failed", failed, "lost", lost, "jobs",
					    pool->parallel, "workloads", named));
	stamp_end(j, o->stamp);
}

int cmd_train(int argc, char **argv)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct train_opts o = {.jobs = ncpu > 0 ? (int)ncpu : 1, .timeout = 1200, .log_dir = "train-logs",
			       .min_ran = 0.9, .heartbeat = 30, .stage = "train", .pattern = "{}-%m.profraw"};
	parse_train_opts(&o, argc, argv);
	const char *dest = o.runs_in ? o.raw_dir : NULL;
	if (o.runs_in && !dest)
		usage_error("--runs-in goes with --raw-dir (the directory the run replaces)");
	if (dest)
		o.raw_dir = rundir_fresh(o.runs_in);
#ifdef __linux__
	/* The parent (make's shell) dies of make's SIGTERM without passing it on. */
	pid_t parent = getppid();
	if (o.stop_with_parent && prctl(PR_SET_PDEATHSIG, SIGTERM) < 0)
		warn("--stop-with-parent: %s", strerror(errno));
	if (o.stop_with_parent && getppid() != parent)
		fatal("the process that started profopt train is gone: not training");
#endif
	struct progress progress;
	struct pool pool = {.parallel = (int)o.jobs, .timeout = o.timeout, .cwd = o.cwd, .on_tick = show_progress,
			    .on_done = report_done, .arg = &progress};
	load_sources(&pool, &o);
	if (pool.njobs == 0)
		usage_error("no training tasks (give --tasks=FILE or commands; see 'profopt train --help')");
	progress_init(&progress, o.heartbeat);
	fprintf(stderr, "training: %d tasks, %d at a time, timeout %.0f s each; logs in %s/\n", pool.njobs, pool.parallel,
		o.timeout, printable(o.log_dir));
	show_progress(&pool, &progress);
	progress.last_plain = 0; /* the first heartbeat line comes at once */
	int sig = pool_run(&pool);
	if (!sig && o.retry_alone)
		sig = retry_failed_alone(&pool, &progress, &o.failed_before);
	double seconds = progress_elapsed(&progress);
	show_progress(&pool, &progress);
	progress_clear(&progress);
	if (sig) {
		if (o.results)
			write_results(&pool, o.results, seconds, "interrupted");
		fprintf(stderr, "training interrupted by signal %d: tasks were stopped; no stamp written, "
				"so the next run starts training again from zero counts\n", sig);
		return 128 + sig;
	}

	int failed = count_results(&pool, RESULT_FAILED);
	int lost = pool.njobs - count_results(&pool, RESULT_PASSED) - failed;
	int ran = pool.njobs - lost;
	print_outcome(&pool, o.log_dir, seconds, failed, lost);
	int crashed_now = o.no_crash ? report_new_crashes(&pool, &o) : 0;
	int failed_now = o.all_pass ? report_new_failures(&pool, &o) : 0;
	/* With --all-pass every task counts by its result, excused ones included: no share applies. */
	int enough = (o.all_pass || ran >= o.min_ran * pool.njobs - 1e-9) && !failed_now && !crashed_now;
	/* No task passing is a program that does not work (one that cannot find its library or
	 * standard library fails each task at start-up), not a workload: its counts are of start-up
	 * and error paths.  --min-ran=0 accepts anything. */
	int none_passed = !o.all_pass && o.min_ran > 0 && pool.njobs > 0 && count_results(&pool, RESULT_PASSED) == 0;
	enough = enough && !none_passed;
	if (o.results)
		write_results(&pool, o.results, seconds, enough ? "ok" : "failed");
	if (crashed_now || failed_now)
		return 1;
	if (none_passed)
		fatal("none of %d training tasks passed (the first: %s): the program does not work as trained, "
		      "and a profile of its failures is one of start-up and error paths, so the build stops "
		      "here", pool.njobs, pool.jobs[0].name);
	if (!enough)
		fatal("only %d of %d training tasks ran to the end (%.0f%%), below the required %.0f%%: "
		      "the profile would not represent the workload, so the build stops here (see --min-ran)",
		      ran, pool.njobs, 100.0 * ran / pool.njobs, 100 * o.min_ran);
	if (dest)
		rundir_replace(o.raw_dir, dest);
	if (o.stamp)
		write_stamp(&o, &pool, seconds, failed, lost);
	return 0;
}

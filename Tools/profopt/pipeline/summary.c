/* summary.c - `profopt summary`: the pipeline's stage stamps as one report (JSON or table).
 * Stamps are read with a real JSON parser: a damaged or foreign file is reported as such, never
 * passed on as a record, and the report says what training lost. */
#include "commands.h"
#include "format/stamp.h"
#include "lib/util.h"

#include <errno.h>
#include <glob.h>
#include <string.h>

struct summary_options {
	int json;
};

static const struct option_spec summary_options[] = {
	OPT_JSON(struct summary_options, json),
	OPT_END,
};

const struct command_options options_summary = {
	"summary",
	"[--json] STAMP...",
	"Reports each stage stamp (written by run/train/merge/verify --stamp) in order: its\n"
	"status and duration, and for training the tasks that failed (they ran to the end: their\n"
	"counts are in the profile) and were lost (crashed, timed out, not started: no counts).  A missing\n"
	"stamp is a stage that did not complete; a file that is not a stage record (damaged,\n"
	"foreign) is named as such.  The JSON has \"ok\": true only when every stage is done.\n",
	.options = summary_options,
	"Exit status: 0 every stage done, 1 a stage missing or not ok, 2 bad usage, 3 a damaged\n"
	"or foreign stamp.\n",
};

enum state { DONE, MISSING, FAILED, DAMAGED };
static const char *const state_words[] = {"done", "MISSING", "FAILED", "DAMAGED"};

struct tasks {
	long long tasks, ran, failed, lost;
	int known;
};

static json_t *load_stamp(const char *path, enum state *state, char *why, size_t n)
{
	size_t len;
	char *data = read_file(path, &len);
	if (!data) {
		*state = errno == ENOENT ? MISSING : DAMAGED;
		snprintf(why, n, "cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	json_t *rec = stamp_parse(data, len, path, why, n);
	*state = !rec ? DAMAGED : strcmp(json_string_value(json_object_get(rec, "status")), "ok") ? FAILED : DONE;
	return rec;
}

static void add_tasks(struct tasks *t, json_t *rec)
{
	json_t *tasks = json_object_get(rec, "tasks");
	if (!json_is_integer(tasks))
		return;
	t->known = 1;
	t->tasks += json_integer_value(tasks);
	t->ran += json_integer_value(json_object_get(rec, "ran"));
	t->failed += json_integer_value(json_object_get(rec, "failed"));
	t->lost += json_integer_value(json_object_get(rec, "lost"));
}

/* The JSON report (stages consumed): valid JSON whatever the stamps held. */
static void print_json(json_t *stages, const struct tasks *all, const char *verdict, double total)
{
	json_t *training = NULL; /* o*: none, no key */
	if (all->known)
		training = json_pack("{s:I, s:I, s:I, s:I}", "tasks", (json_int_t)all->tasks, "ran", (json_int_t)all->ran,
				     "failed", (json_int_t)all->failed, "lost", (json_int_t)all->lost);
	jw_print(json_pack("{s:o, s:b, s:s, s:o*, s:f}", "stages", stages, "ok", !strcmp(verdict, "ok"), "status",
			   verdict, "training", training, "total_seconds", total));
}

/* Why stage NAME has no stamp, when the pipeline left word of it beside the stamp: a
 * training's --results file (NAME-results*.json) whose status is not ok.  Empty otherwise
 * (a log alone proves nothing: a clean drops the stamps of a build whose logs stay). */
static void missing_reason(const char *path, const char *name, char *why, size_t n)
{
	const char *slash = strrchr(path, '/');
	int dir = slash ? (int)(slash + 1 - path) : 0;
	char *pattern = xasprintf("%.*s%s-results*.json", dir, path, name);
	glob_t g;
	*why = '\0';
	if (glob(pattern, 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc && !*why; i++) {
			json_t *r = json_load_file(g.gl_pathv[i], 0, NULL);
			const char *status = json_string_value(json_object_get(r, "status"));
			if (status && strcmp(status, "ok") != 0)
				snprintf(why, n, "%s: %lld of %lld tasks passed, %lld failed, %lld crashed, %lld timed out (%s)",
					 status, (long long)json_integer_value(json_object_get(r, "passed")),
					 (long long)json_integer_value(json_object_get(r, "tasks")),
					 (long long)json_integer_value(json_object_get(r, "failed")),
					 (long long)json_integer_value(json_object_get(r, "crashed")),
					 (long long)json_integer_value(json_object_get(r, "timeout")), g.gl_pathv[i]);
			json_decref(r);
		}
		globfree(&g);
	}
}

static char *stage_name(const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	return xasprintf("%.*s", (int)(strlen(base) - (ends_with(base, ".stamp") ? 6 : 0)), base);
}

int cmd_summary(int argc, char **argv)
{
	struct summary_options o = {0};
	int first = options_parse(&options_summary, argc, argv, &o), json = o.json, worst = DONE;
	double total = 0;
	if (first >= argc)
		usage_error("no stamp files given");
	json_t *stages = json_array();
	struct tasks all = {0};
	for (int i = first; i < argc; i++) {
		enum state state;
		char why[600], *name = stage_name(argv[i]);
		json_t *rec = load_stamp(argv[i], &state, why, sizeof why);
		struct tasks t = {0};
		add_tasks(&t, rec); /* nothing when rec is NULL */
		add_tasks(&all, rec);
		double s = json_number_value(json_object_get(rec, "seconds"));
		total += s;
		worst = (int)state > worst ? (int)state : worst;
		if (state == DAMAGED)
			fprintf(stderr, "%s: error: %s\n", progname, why);
		char reason[900] = "";
		if (state == MISSING)
			missing_reason(argv[i], name, reason, sizeof reason);
		if (!rec) /* o*: a key without its value left out */
			rec = json_pack("{s:s, s:o*, s:o*}", "status", state == MISSING ? "missing" : "damaged",
					"error", state == DAMAGED ? jw_text(why) : NULL, "why",
					*reason ? jw_text(reason) : NULL);
		if (!json) {
			char d[32], note[1000] = "";
			format_duration(d, sizeof d, s);
			if (t.known) /* "4 tasks: 1 failed, 0 lost" */
				snprintf(note, sizeof note, "  %lld task%s: %lld failed (ran to the end), %lld lost (crashed, "
					 "timed out or not started)", t.tasks, t.tasks == 1 ? "" : "s", t.failed, t.lost);
			if (*reason)
				snprintf(note, sizeof note, "  %s", printable(reason));
			printf("%-22s %-8s %s%s\n", printable(name), state_words[state], state == DONE || state == FAILED ? d : "-", note);
		}
		json_array_append_new(stages, json_pack("{s:o, s:o}", "name", jw_text(name), "record", rec));
	}
	const char *verdict = worst == DONE ? "ok" : worst == MISSING ? "INCOMPLETE" : worst == FAILED ? "FAILED" : "DAMAGED";
	if (json) {
		print_json(stages, &all, verdict, total);
	} else {
		char d[32];
		format_duration(d, sizeof d, total);
		printf("%-22s %-8s %s", "total", verdict, d);
		if (all.known && (all.failed || all.lost))
			printf("  (training: %lld of %lld tasks failed, %lld lost)", all.failed, all.tasks, all.lost);
		printf("\n");
	}
	return worst == DONE ? 0 : worst == DAMAGED ? 3 : 1;
}

/* stamp.c - stage stamps written and parsed (see stamp.h). */
#include "format/stamp.h"
#include "lib/output.h"
#include "lib/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

json_t *stamp_begin(const char *stage, double seconds)
{
	char when[32];
	time_t t = time(NULL);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	return json_pack("{s:o, s:s, s:o, s:s}", "stage", jw_text(stage), "status", "ok", "seconds",
			 isfinite(seconds) ? json_real(round(seconds * 10) / 10) : json_null(), "finished", when);
}

void stamp_end(json_t *rec, const char *path)
{
	char *text = json_dumps(rec, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
	if (!text)
		fatal("the %s stage's record cannot be written", json_string_value(json_object_get(rec, "stage")));
	char *line = xasprintf("%s\n", text);
	output_write(path, line, strlen(line));
	free(line);
	free(text);
	json_decref(rec);
}

void stamp_write(const char *path, const char *stage, double seconds)
{
	stamp_end(stamp_begin(stage, seconds), path);
}

json_t *stamp_parse(const char *data, size_t len, const char *name, char *why, size_t n)
{
	json_error_t err;
	json_t *rec = json_loadb(data, len, 0, &err);
	if (!rec) {
		snprintf(why, n, "%s is not JSON (line %d, column %d: %s): a damaged stamp", name, err.line, err.column,
			 err.text);
		return NULL;
	}
	if (!json_is_object(rec) || !json_is_string(json_object_get(rec, "stage")) ||
	    !json_is_string(json_object_get(rec, "status"))) {
		snprintf(why, n, "%s is not a profopt stage record (no \"stage\" and \"status\"): a foreign file", name);
		json_decref(rec);
		return NULL;
	}
	return rec;
}

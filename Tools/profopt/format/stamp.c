/* stamp.c - stage stamps written and parsed (see stamp.h). */
#include "format/stamp.h"
#include "lib/output.h"
#include "lib/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct json *stamp_begin(struct stamp *s, const char *stage, double seconds)
{
	char when[32];
	time_t t = time(NULL);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	*s = (struct stamp){.stage = stage};
	if (!(s->mem = open_memstream(&s->data, &s->len)))
		fatal("open_memstream: %s", strerror(errno));
	jw_init_line(&s->json, s->mem);
	jw_begin_object(&s->json);
	jw_kv_string(&s->json, "stage", stage);
	jw_kv_string(&s->json, "status", "ok");
	jw_key(&s->json, "seconds");
	jw_fixed(&s->json, seconds, 1);
	jw_kv_string(&s->json, "finished", when);
	return &s->json;
}

void stamp_end(struct stamp *s, const char *path)
{
	jw_end_object(&s->json);
	jw_finish(&s->json);
	if (fclose(s->mem) != 0)
		fatal("the %s stage's record: %s", s->stage, strerror(errno));
	/* a record summary would take for a damaged stamp is never written */
	char err[200];
	json_t *rec = stamp_parse(s->data, s->len, "the record", err, sizeof err);
	if (!rec)
		fatal("the %s stage's record is not a valid stamp (%s): %.200s", s->stage, err, s->data);
	json_decref(rec);
	output_write(path, s->data, s->len);
	free(s->data);
}

void stamp_write(const char *path, const char *stage, double seconds)
{
	struct stamp s;
	stamp_begin(&s, stage, seconds);
	stamp_end(&s, path);
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

/* stamp.h - stage stamps: a pipeline stage is done when its stamp exists.  The stamp holds a
 * one-line JSON record of the stage (name, duration, status, stage-specific facts), written
 * with lib/json's writer and atomically, so that an interrupted stage never leaves a stamp. */
#ifndef PROFOPT_STAMP_H
#define PROFOPT_STAMP_H

#include "lib/json.h"

#include <jansson.h>
#include <stddef.h>

/* A record being written: stamp_begin writes stage, status, seconds and finished and returns
 * the writer for the stage's own facts (jw_kv_int, ...); stamp_end writes the file. */
struct stamp {
	struct json json;
	FILE *mem;
	char *data;
	size_t len;
	const char *stage;
};
struct json *stamp_begin(struct stamp *s, const char *stage, double seconds);
/* Writes the record to path atomically.  Exits on failure. */
void stamp_end(struct stamp *s, const char *path);
/* A record with no facts of its own. */
void stamp_write(const char *path, const char *stage, double seconds);

/* data parsed as a stage record: a JSON object with string "stage" and "status".  NULL with
 * the reason in why (naming the record as name: damaged, or a foreign file) otherwise. */
json_t *stamp_parse(const char *data, size_t len, const char *name, char *why, size_t n);

#endif

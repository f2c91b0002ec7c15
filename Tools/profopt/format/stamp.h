/* stamp.h - a stage is done when its stamp exists: a one-line JSON record of it (name, status,
 * seconds, its own facts), written atomically so an interrupted stage leaves none. */
#ifndef PROFOPT_STAMP_H
#define PROFOPT_STAMP_H

#include "lib/json.h"

#include <stddef.h>

/* A stage's record (stage, status ok, seconds, finished), to which it adds its own facts;
 * stamp_end writes it to path as one line and frees it (exits on failure). */
json_t *stamp_begin(const char *stage, double seconds);
void stamp_end(json_t *rec, const char *path);
/* A record with no facts of its own. */
void stamp_write(const char *path, const char *stage, double seconds);

/* A JSON object with string "stage" and "status", or NULL with the reason in why. */
json_t *stamp_parse(const char *data, size_t len, const char *name, char *why, size_t n);

#endif

/* stamp.h - a stage is done when its stamp exists: a one-line JSON record of it (name, status,
 * seconds, its own facts), written atomically so an interrupted stage leaves none. */
#ifndef PROFOPT_STAMP_H
#define PROFOPT_STAMP_H

#include "lib/json.h"

#include <jansson.h>
#include <stddef.h>

/* stamp_begin returns the writer for the stage's own facts; stamp_end writes the file (exits on failure). */
struct stamp {
	struct json json;
	FILE *mem;
	char *data;
	size_t len;
	const char *stage;
};
struct json *stamp_begin(struct stamp *s, const char *stage, double seconds);
void stamp_end(struct stamp *s, const char *path);
/* A record with no facts of its own. */
void stamp_write(const char *path, const char *stage, double seconds);

/* A JSON object with string "stage" and "status", or NULL with the reason in why. */
json_t *stamp_parse(const char *data, size_t len, const char *name, char *why, size_t n);

#endif

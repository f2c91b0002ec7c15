/* facts.h - a profile bundle's manifest: facts given as KEY=VALUE, stored as a flat JSON object
 * of strings (jansson reads any valid layout). */
#ifndef PROFOPT_FACTS_H
#define PROFOPT_FACTS_H

#include <jansson.h>
#include <stddef.h>

/* Bounds: entries, bytes of a key and of a value (a path fits), of the file; more is refused. */
#define FACTS_MAX 64
#define FACTS_KEY_MAX 128
#define FACTS_VALUE_MAX 4096
#define FACTS_FILE_MAX (2 << 20)

struct facts {
	json_t *obj; /* KEY: "VALUE", in the order the keys came; NULL while there is none */
};

/* Exits on a fact over the bounds, or one that is not UTF-8 text. */
void facts_set(struct facts *f, const char *key, const char *value);
const char *facts_get(const struct facts *f, const char *key);
/* "KEY=VALUE"; where: "FILE:LINE" for a file's line (a bad one is fatal), NULL for an argument (a usage error). */
void facts_add_kv(struct facts *f, const char *kv, const char *where);
/* KEY=VALUE lines; empty ones and # comments skipped.  Exits naming a bad line (lines.h). */
void facts_load_kv_file(struct facts *f, const char *path);
/* A JSON object of strings.  Returns 0, or -1 with the reason in err. */
int facts_load_json(struct facts *f, const char *path, char *err, size_t errlen);
/* The facts as JSON text, in their order (malloc'd). */
char *facts_to_json(const struct facts *f);
void facts_write_json(const struct facts *f, const char *path);
void facts_free(struct facts *f);

#endif

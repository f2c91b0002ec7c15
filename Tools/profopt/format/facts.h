/* facts.h - a profile bundle's manifest: KEY=VALUE facts about what a profile was made from,
 * given as KEY=VALUE text and stored as a flat JSON object of strings (read and written with
 * jansson, so any valid JSON layout reads the same). */
#ifndef PROFOPT_FACTS_H
#define PROFOPT_FACTS_H

#include <stddef.h>

/* A manifest's bounds: entries, bytes of a key and of a value (a path fits), bytes of its
 * JSON file.  More refuses the manifest. */
#define FACTS_MAX 64
#define FACTS_KEY_MAX 128
#define FACTS_VALUE_MAX 4096
#define FACTS_FILE_MAX (2 << 20)

struct facts {
	char *key[FACTS_MAX], *value[FACTS_MAX];
	int n;
};

void facts_set(struct facts *f, const char *key, const char *value);
const char *facts_get(const struct facts *f, const char *key);
/* "KEY=VALUE" (usage error otherwise). */
void facts_add_kv(struct facts *f, const char *kv);
/* One KEY=VALUE per line; empty lines and lines starting with # are skipped.  Exits on error,
 * naming the line (a NUL or a control character refuses the file, see lines.h). */
void facts_load_kv_file(struct facts *f, const char *path);
/* A JSON object whose values are strings.  Returns 0, or -1 with the reason in err. */
int facts_load_json(struct facts *f, const char *path, char *err, size_t errlen);
/* The facts as a JSON object text, in their order (malloc'd).  Exits if one is not UTF-8. */
char *facts_to_json(const struct facts *f);
/* Writes the facts as a JSON object (atomically).  Exits on error. */
void facts_write_json(const struct facts *f, const char *path);
void facts_free(struct facts *f);

#endif

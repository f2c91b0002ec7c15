/* strmap.h - a string-keyed hash table (open addressing): constant-time lookups where a
 * reader meets many names, so that no hostile input makes its work quadratic. */
#ifndef PROFOPT_STRMAP_H
#define PROFOPT_STRMAP_H

#include <stddef.h>

struct strmap {
	char **keys; /* owned copies; NULL = empty slot */
	void **vals;
	size_t cap, n;
};

/* The value slot of key, or NULL when absent and !create (a new slot holds NULL). */
void **strmap_slot(struct strmap *m, const char *key, int create);
void *strmap_get(const struct strmap *m, const char *key);
/* Frees the keys (and each value with free_val, when given). */
void strmap_free(struct strmap *m, void (*free_val)(void *));

#endif

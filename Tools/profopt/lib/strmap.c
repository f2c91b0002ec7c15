/* strmap.c - string-keyed hash table (see strmap.h). */
#include "lib/strmap.h"
#include "lib/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603u; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

static size_t find(const struct strmap *m, const char *key)
{
	size_t i = hash(key) & (m->cap - 1);
	while (m->keys[i] && strcmp(m->keys[i], key) != 0)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static void grow(struct strmap *m)
{
	struct strmap old = *m;
	m->cap = old.cap ? old.cap * 2 : 64;
	m->keys = xcalloc(m->cap, sizeof *m->keys);
	m->vals = xcalloc(m->cap, sizeof *m->vals);
	for (size_t i = 0; i < old.cap; i++)
		if (old.keys[i]) {
			size_t k = find(m, old.keys[i]);
			m->keys[k] = old.keys[i];
			m->vals[k] = old.vals[i];
		}
	free(old.keys);
	free(old.vals);
}

void **strmap_slot(struct strmap *m, const char *key, int create)
{
	if (m->cap == 0) {
		if (!create)
			return NULL;
		grow(m);
	}
	size_t i = find(m, key);
	if (m->keys[i])
		return &m->vals[i];
	if (!create)
		return NULL;
	if (2 * (m->n + 1) > m->cap) {
		grow(m);
		i = find(m, key);
	}
	m->keys[i] = xstrdup(key);
	m->n++;
	return &m->vals[i];
}

void *strmap_get(const struct strmap *m, const char *key)
{
	void **slot = strmap_slot((struct strmap *)m, key, 0);
	return slot ? *slot : NULL;
}

void strmap_free(struct strmap *m, void (*free_val)(void *))
{
	for (size_t i = 0; i < m->cap; i++)
		if (m->keys[i]) {
			free(m->keys[i]);
			if (free_val)
				free_val(m->vals[i]);
		}
	free(m->keys);
	free(m->vals);
	*m = (struct strmap){0};
}

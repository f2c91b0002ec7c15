/* test_corpus.h - the real profile files of tests/fuzz/corpus (made by make-corpus.sh from
 * seed.c), for the unit tests of the profile readers. */
#ifndef PROFOPT_TEST_CORPUS_H
#define PROFOPT_TEST_CORPUS_H

#include "lib/util.h"
#include "unit.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* GCC major.minor's version word ("B22*" for 12.2), for the made-up .gcda and .gcno files. */
static inline uint32_t gcov_version_for(int major, int minor)
{
	return (uint32_t)('A' + major / 10) << 24 | (uint32_t)('0' + major % 10) << 16 |
	       (uint32_t)('0' + minor % 10) << 8 | '*';
}

/* Reads tests/fuzz/corpus/NAME: from $SRCDIR when set, else next to this source file.  A
 * missing file fails the calling test: the corpus is part of the source tree, never optional. */
#define corpus_file(name, len) corpus_file_at(__FILE__, __LINE__, (name), (len))
static inline unsigned char *corpus_file_at(const char *file, int line, const char *name, size_t *len)
{
	const char *srcdir = getenv("SRCDIR");
	char *path;
	if (srcdir && *srcdir) {
		path = xasprintf("%s/tests/fuzz/corpus/%s", srcdir, name);
	} else {
		const char *here = __FILE__, *slash = strrchr(here, '/');
		int n = slash ? (int)(slash - here) : 0;
		path = xasprintf("%.*s%s../fuzz/corpus/%s", n, here, slash ? "/" : "", name);
	}
	unsigned char *data = (unsigned char *)read_file(path, len);
	if (!data)
		unit_fail(file, line, "cannot read the corpus file %s: %s", path, strerror(errno));
	free(path);
	return data;
}

/* A corpus file and a copy of it to damage: damage_reset() gives the copy back as the file is. */
struct damage {
	unsigned char *orig, *copy;
	size_t len;
};
#define damage_open(m, name) damage_open_at(__FILE__, __LINE__, (m), (name))
static inline int damage_open_at(const char *file, int line, struct damage *m, const char *name)
{
	m->orig = corpus_file_at(file, line, name, &m->len);
	m->copy = m->orig ? xmalloc(m->len) : NULL;
	return m->orig ? 0 : -1;
}
static inline unsigned char *damage_reset(struct damage *m)
{
	return memcpy(m->copy, m->orig, m->len);
}
static inline void damage_close(struct damage *m)
{
	free(m->orig);
	free(m->copy);
}

#endif

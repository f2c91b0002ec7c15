/* test_corpus.h - the real profile files of tests/fuzz/corpus (made by make-corpus.sh from
 * seed.c), for the unit tests of the profile readers. */
#ifndef PROFOPT_TEST_CORPUS_H
#define PROFOPT_TEST_CORPUS_H

#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

/* Reads tests/fuzz/corpus/NAME: from $SRCDIR when set, else next to this source file. */
static inline unsigned char *corpus_file(const char *name, size_t *len)
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
		fprintf(stderr, "  cannot read %s\n", path);
	free(path);
	return data;
}

#endif

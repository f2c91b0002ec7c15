/* tarmem.h - the profile files of a stash (a tar archive) read into memory with libarchive:
 * nothing is extracted, no tar program runs, and member names are only ever used as names. */
#ifndef PROFOPT_TARMEM_H
#define PROFOPT_TARMEM_H

#include <stddef.h>

struct member {
	char *name; /* relative, without a leading "./" */
	unsigned char *data;
	size_t len;
	int seq; /* position in the archive: of two members with one name, the later counts */
};

struct member_list {
	struct member *m; /* sorted by name, one per name */
	int n, cap;
};

/* Reads the regular files of the archive at path whose names end in suffix.  A name that is
 * absolute or has a ".." component is refused: it could only point outside the tree.
 * Returns 0, or -1 with a reason naming the archive in err. */
int tarmem_read(const char *path, const char *suffix, struct member_list *out, char *err, size_t errlen);
/* The same for an archive held in memory (name: for messages). */
int tarmem_parse(const void *data, size_t len, const char *name, const char *suffix, struct member_list *out, char *err,
		 size_t errlen);
/* The member called name, or NULL (binary search). */
const struct member *tarmem_find(const struct member_list *l, const char *name);
void tarmem_free(struct member_list *l);

#endif

/* fingerprint.h - source fingerprints: the sources' hashes when a profile is trained, compared
 * before it is used to tell which sources changed since. */
#ifndef PROFOPT_FINGERPRINT_H
#define PROFOPT_FINGERPRINT_H

#include <stddef.h>

#define FINGERPRINT_HASH_LEN 64 /* hex digits of a SHA-256 */
#define FINGERPRINT_LINE_MAX 8192 /* bytes of a line: a hash, a size and a path */

struct fingerprint_entry {
	char *path; /* relative to the root */
	char hash[FINGERPRINT_HASH_LEN + 1];
	long long size;
};

struct fingerprint {
	char *root;
	struct fingerprint_entry *e;
	int n, cap;
	int listed; /* the files named, not a tree: compared file by file, nothing is "added" */
};

extern const char *const fingerprint_default_suffixes[];

/* Hashes every file under root ending with one of suffixes, not entering skip; sorted by path.
 * Exits on a directory it cannot read. */
void fingerprint_scan(struct fingerprint *m, const char *root, const char *const *suffixes, const char *const *skip);
/* A listed fingerprint of the absolute paths (n > 0), its root the deepest directory holding them all. */
void fingerprint_files(struct fingerprint *m, char *const *paths, int n);
/* old's files hashed as they are now, under root (or old's); a file gone is left out (removed). */
void fingerprint_rehash(struct fingerprint *cur, const struct fingerprint *old, const char *root);
/* "# profopt source fingerprints 2" (3 and a "files listed" line for a listed one), "root PATH",
 * then "SHA256 SIZE PATH" per file (a relative path).  Exits on failure. */
void fingerprint_write(const struct fingerprint *m, const char *path);
/* -1 with "FILE:LINE: reason" in err for a damaged file: a NUL, a line that is not an entry, no
 * last newline, or no entry (but in a listed one). */
int fingerprint_read(struct fingerprint *m, const char *path, char *err, size_t errlen);
void fingerprint_free(struct fingerprint *m);

#endif

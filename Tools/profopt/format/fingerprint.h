/* fingerprint.h - source fingerprints: the hashes of the source files, recorded when a profile is
 * trained, compared before the profile is used, to tell which sources changed since. */
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

/* The default source suffixes: .c .h .cc .cpp .cxx .hh .hpp .inc .S */
extern const char *const fingerprint_default_suffixes[];

/* Hashes (SHA-256, by libcrypto) every file under root whose name ends with one
 * of suffixes (NULL-terminated), not entering directories named in skip.  Sorted by path.
 * Returns 0, or -1 with the reason in err. */
int fingerprint_scan(struct fingerprint *m, const char *root, const char *const *suffixes, const char *const *skip,
		  char *err, size_t errlen);
/* Hashes the files named in paths (absolute; NULL-terminated): a listed fingerprint, its root
 * the deepest directory holding them all.  Returns 0, or -1 with the reason in err. */
int fingerprint_files(struct fingerprint *m, char *const *paths, int n, char *err, size_t errlen);
/* The files of a listed fingerprint old, hashed as they are now (root: old's, or root when
 * not NULL); a file that is gone is left out, so it shows as removed. */
void fingerprint_rehash(struct fingerprint *cur, const struct fingerprint *old, const char *root);
/* Text file: a "# profopt source fingerprints 2" line (3 for a listed one, followed by a
 * "files listed" line), "root PATH", then "SHA256 SIZE PATH" per file (64 hex digits, bytes,
 * relative path).  Written as every output is (output.h); exits on failure. */
void fingerprint_write(const struct fingerprint *m, const char *path);
/* Returns 0, or -1 with "FILE:LINE: reason" in err: a NUL byte, a line that is not an entry,
 * a missing last newline or no entry at all (but in a listed one) make the file damaged. */
int fingerprint_read(struct fingerprint *m, const char *path, char *err, size_t errlen);
void fingerprint_free(struct fingerprint *m);

#endif

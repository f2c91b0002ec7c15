/* fingerprint.h - source fingerprints: a manifest of file hashes recorded when a profile is
 * trained, compared before the profile is used, to tell which sources changed since. */
#ifndef PROFOPT_FINGERPRINT_H
#define PROFOPT_FINGERPRINT_H

#include <stddef.h>
#include <stdint.h>

#define FNV1A64_INIT 0xcbf29ce484222325ull

/* FNV-1a, 64 bits: continues hash h over n bytes (start with FNV1A64_INIT). */
uint64_t fnv1a64(const void *data, size_t n, uint64_t h);
/* Hashes a file's contents; returns 0, or -1 (errno set). */
int hash_file(const char *path, uint64_t *hash, long long *size);

struct manifest_entry {
	char *path; /* relative to the root */
	uint64_t hash;
	long long size;
};

struct manifest {
	char *root;
	struct manifest_entry *e;
	int n, cap;
};

/* The default source suffixes: .c .h .cc .cpp .cxx .hh .hpp .inc .S */
extern const char *const fingerprint_default_suffixes[];

/* Hashes every file under root whose name ends with one of suffixes (NULL-terminated),
 * not entering directories named in skip.  Sorted by path.  Returns 0 or -1 (errno set). */
int manifest_scan(struct manifest *m, const char *root, const char *const *suffixes, const char *const *skip);
/* Text file: a "# profopt source fingerprints 1" line, "root PATH", then
 * "HASH SIZE PATH" per file (16 hex digits, bytes, relative path).  Atomic write. */
int manifest_write(const struct manifest *m, const char *path);
/* Returns 0, or -1 with "FILE:LINE: reason" in err. */
int manifest_read(struct manifest *m, const char *path, char *err, size_t errlen);
void manifest_free(struct manifest *m);

#endif

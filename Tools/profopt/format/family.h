/* family.h - the compiler family (AX_PGO decides it, pgo.mk passes --family): what differs
 * between GCC's and LLVM's profiles, in one table; a new family is a new entry. */
#ifndef PROFOPT_FAMILY_H
#define PROFOPT_FAMILY_H

#include <stddef.h>

enum family_id { FAMILY_GCC, FAMILY_CLANG };

struct family {
	enum family_id id;
	const char *name;       /* as reports name it: gcc, clang */
	const char *raw_suffix; /* the files training writes: .gcda, .profraw */
	const char *raw_files;  /* what messages call them: ".gcda files", "raw profiles" */
	const char *no_raw_hint; /* when training wrote none: what else to check ("" or ", and ...") */
	int (*check)(const char *path, char *why, size_t n); /* a raw file: 0, or -1 with why */
	int merged; /* training's files merged into one profile (.profdata), not read where they lie */
};

extern const struct family family_gcc, family_clang;

/* gcc, clang or apple-clang (clang's profiles); NULL for NULL; else a usage error. */
const struct family *family_parse(const char *value);
/* Checks each of paths, setting bad[i]; each damaged one is named on stderr: how many. */
int family_count_damaged(const struct family *fam, char *const *paths, int n, int *bad);

#endif

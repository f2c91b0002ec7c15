/* family.h - the compiler family, which configure (AX_PGO) decides and pgo.mk passes as
 * --family: what differs between GCC's and LLVM's profiles, in one table.  A command that
 * takes --family parses it here and reads its answers from the table; a new compiler family
 * is a new entry (and the readers of its files in format/). */
#ifndef PROFOPT_FAMILY_H
#define PROFOPT_FAMILY_H

enum family_id { FAMILY_GCC, FAMILY_CLANG };

struct family {
	enum family_id id;
	const char *name;       /* as reports name it: gcc, clang */
	const char *raw_suffix; /* the files training writes: .gcda, .profraw */
	const char *raw_files;  /* what messages call them: ".gcda files", "raw profiles" */
	const char *no_raw_hint; /* when training wrote none: what else to check ("" or ", and ...") */
	/* How many of paths[0..n) are damaged, each named on stderr ("damaged profile: REASON")
	 * and marked in bad[i]. */
	int (*count_damaged)(char *const *paths, int n, int *bad);
	/* Training's files are merged into one profile the rebuild reads (clang's .profdata),
	 * rather than read where they lie (gcc's .gcda beside each object). */
	int merged;
};

extern const struct family family_gcc, family_clang;

/* The family a --family value names: gcc, clang, apple-clang (whose profiles are clang's).
 * NULL for NULL (the caller says whether it is required); anything else is a usage error. */
const struct family *family_parse(const char *value);

#endif

/* family.c - the compiler families' table and the one parser of --family (see family.h). */
#include "format/family.h"
#include "format/gcov_io.h"
#include "format/profraw.h"
#include "lib/util.h"

#include <stdio.h>
#include <string.h>

static int check_gcda(const char *path, char *why, size_t n)
{
	return gcov_check_data(path, path, why, n);
}

static int check_profraw(const char *path, char *why, size_t n)
{
	struct profraw_info info;
	return profraw_read(path, &info, why, n);
}

const struct family family_gcc = {FAMILY_GCC, "gcc", ".gcda", ".gcda files", "", check_gcda, 0};
const struct family family_clang = {FAMILY_CLANG, "clang", ".profraw", "raw profiles",
				    ", and does LLVM_PROFILE_FILE point into this directory",
				    check_profraw, 1};

const struct family *family_parse(const char *value)
{
	if (!value)
		return NULL;
	if (!strcmp(value, "gcc"))
		return &family_gcc;
	if (!strcmp(value, "clang") || !strcmp(value, "apple-clang"))
		return &family_clang;
	usage_error("--family must be gcc, clang or apple-clang, not '%s'", printable(value));
}

int family_count_damaged(const struct family *fam, char *const *paths, int n, int *bad)
{
	int damaged = 0;
	char why[512];
	for (int i = 0; i < n; i++) {
		bad[i] = fam->check(paths[i], why, sizeof why) < 0;
		if (bad[i])
			fprintf(stderr, "%s: damaged profile: %s\n", progname, why);
		damaged += bad[i];
	}
	return damaged;
}

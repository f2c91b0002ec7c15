/* family.c - the compiler families' table and the one parser of --family (see family.h). */
#include "format/family.h"
#include "format/gcov_io.h"
#include "format/profraw.h"
#include "lib/util.h"

#include <string.h>

const struct family family_gcc = {FAMILY_GCC, "gcc", ".gcda", ".gcda files", "", gcov_count_damaged, 0};
const struct family family_clang = {FAMILY_CLANG, "clang", ".profraw", "raw profiles",
				    ", and does LLVM_PROFILE_FILE point into this directory",
				    profraw_count_damaged, 1};

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

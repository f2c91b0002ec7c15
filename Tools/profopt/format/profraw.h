/* profraw.h - reading LLVM raw profiles (.profraw; the layout is in profraw.c), and checking
 * that an llvm-profdata reads them before a training run is spent on it. */
#ifndef PROFOPT_PROFRAW_H
#define PROFOPT_PROFRAW_H

#include <stddef.h>
#include <stdint.h>

#define PROFRAW_MAGIC64 0xff6c70726f667281ull /* "\xfflprofr\x81" */
#define PROFRAW_MAGIC32 0xff6c70726f665281ull /* "\xfflprofR\x81" */

struct profraw_info {
	int ptr64;            /* written by a 64-bit program */
	int swapped;          /* the file's byte order is not the reader's */
	unsigned version;     /* the format version (8 for clang 14 to 16, 10 for clang 19) */
	uint64_t variant;     /* the flag bits of the version word (top byte) */
	int layout_known;     /* the fields below were read and checked (versions 8 and 10, 64-bit) */
	uint64_t data_size, counters_size, names_size, bitmap_bytes;
	uint64_t value_data_size; /* bytes after the names: value-profile records */
	uint64_t functions, executed; /* functions with a non-zero counter */
	uint64_t zero_counters;
};

/* Returns 0, or -1 with "NAME: offset N: reason" in err. */
int profraw_parse(const unsigned char *data, size_t len, const char *name, struct profraw_info *info, char *err,
		  size_t errlen);
int profraw_read(const char *path, struct profraw_info *info, char *err, size_t errlen);
/* "IR", "IR+CS", "FE", plus ",entry-first" etc.; out holds at least 64 bytes. */
const char *profraw_variant_string(const struct profraw_info *info, char *out, size_t n);

/* 0 when `TOOL show FILE` reads the file; -1 with the tool's first error line in err. */
int profraw_tool_reads(const char *tool, const char *path, char *err, size_t errlen);
/* Builds and runs a one-line program with `CC -fprofile-generate` in a temporary directory,
 * reads its raw profile into info and asks TOOL to read it: 0 when it does, -1 with why. */
int profraw_probe(const char *cc, const char *tool, const char *runner, struct profraw_info *info, char *err,
		  size_t errlen);

#endif

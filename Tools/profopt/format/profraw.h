/* profraw.h - reading the header (and, for the layout clang 14 writes, the per-function
 * records) of LLVM raw profiles (.profraw), and checking that an llvm-profdata can read them
 * before a training run is spent on it.  The byte layout is described at the top of profraw.c. */
#ifndef PROFOPT_PROFRAW_H
#define PROFOPT_PROFRAW_H

#include <stddef.h>
#include <stdint.h>

#define PROFRAW_MAGIC64 0xff6c70726f667281ull /* "\xfflprofr\x81" */
#define PROFRAW_MAGIC32 0xff6c70726f665281ull /* "\xfflprofR\x81" */

struct profraw_info {
	int ptr64;            /* written by a 64-bit program */
	int swapped;          /* the file's byte order is not the reader's */
	uint64_t version_word;
	unsigned version;     /* the format version (8 for clang 14 to 16, 10 for clang 19) */
	uint64_t variant;     /* the flag bits of the version word (top byte) */
	int layout_known;     /* the sizes below were read and checked (versions 8 and 10, 64-bit) */
	uint64_t binary_ids_size, data_size, padding_before_counters, counters_size,
		padding_after_counters, names_size, counters_delta, names_delta, value_kind_last;
	uint64_t bitmap_bytes, vtables, vnames_size; /* version 10; 0 in version 8 */
	uint64_t value_data_size; /* bytes after the names: value-profile records */
	/* from the data records, when layout_known */
	uint64_t functions, executed; /* functions with a non-zero counter */
	uint64_t zero_counters;
};

/* Parses a raw profile in memory.  Returns 0, or -1 with "NAME: offset N: reason" in err. */
int profraw_parse(const unsigned char *data, size_t len, const char *name, struct profraw_info *info, char *err,
		  size_t errlen);
int profraw_read(const char *path, struct profraw_info *info, char *err, size_t errlen);
/* Reads every raw profile paths[0..n) as merge does before a merge: each damaged one (empty,
 * truncated, not a raw profile) is named on stderr ("damaged profile: REASON") and marked
 * in bad[i].  Returns how many are damaged. */
int profraw_count_damaged(char *const *paths, int n, int *bad);
/* "IR", "IR+CS", "FE", plus ",entry-first" etc.; out holds at least 64 bytes. */
const char *profraw_variant_string(const struct profraw_info *info, char *out, size_t n);

/* Asks llvm-profdata (`TOOL show FILE`) whether it reads the file.  Returns 0 when it does;
 * otherwise -1 with the tool's first error line in err. */
int profraw_tool_reads(const char *tool, const char *path, char *err, size_t errlen);

/* Builds and runs a one-line program with `CC -fprofile-generate` (CC may hold options) in a
 * temporary directory, reads the raw profile it writes into info, and asks TOOL to read it.
 * Returns 0 when TOOL reads it; -1 with the reason in err (the compiler failed, no profile
 * was written, the file is damaged, or the tool cannot read that version). */
int profraw_probe(const char *cc, const char *tool, struct profraw_info *info, char *err, size_t errlen);

#endif

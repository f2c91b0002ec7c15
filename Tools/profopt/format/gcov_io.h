/* gcov_io.h - reading GCC's profile files: .gcda (counts written by the instrumented program)
 * and .gcno (the compiler's notes: function names, source files, flow graphs), in the format
 * of GCC 12.  The byte layout is described at the top of gcov_io.c. */
#ifndef PROFOPT_GCOV_IO_H
#define PROFOPT_GCOV_IO_H

#include <stddef.h>
#include <stdint.h>

#define GCOV_DATA_MAGIC 0x67636461u /* "gcda" */
#define GCOV_NOTE_MAGIC 0x67636e6fu /* "gcno" */

/* Record tags (the layout is at the top of gcov_io.c): a FUNCTION record, then its COUNTERS
 * records, one tag per counter kind: GCOV_TAG_COUNTER_BASE + (kind << 17). */
#define GCOV_TAG_FUNCTION 0x01000000u
#define GCOV_TAG_COUNTER_BASE 0x01a10000u
#define GCOV_COUNTER_KINDS 8u
/* Whether tag is a COUNTERS record's. */
int gcov_counter_tag(uint32_t tag);

enum gcov_kind { GCOV_DATA, GCOV_NOTES };

struct gcov_function {
	uint32_t ident, lineno_checksum, cfg_checksum;
	/* from the notes (.gcno) */
	char *name, *source; /* NULL in a .gcda */
	uint32_t start_line, start_column, end_line, end_column;
	uint32_t artificial;
	uint32_t nblocks;
	uint32_t narcs;      /* arcs of the flow graph */
	uint32_t ncounted;   /* arcs that carry a counter (not on the spanning tree) */
	/* from the data (.gcda) */
	uint64_t *arcs;      /* the arc counters, in the order of the notes' counted arcs;
	                      * NULL when the file says they are all zero */
	uint32_t narc_counters;
	int has_arcs;        /* an arc counter record was present */
};

struct gcov_file {
	enum gcov_kind kind;
	uint32_t version; /* e.g. 0x4232322a: "B22*" is GCC 12.2 */
	uint32_t stamp;   /* the compilation's stamp: a .gcda and its .gcno must agree */
	uint32_t checksum;
	char *cwd;        /* notes: the compiler's working directory */
	uint32_t unexecuted_blocks; /* notes: the compiler supports unexecuted-block flags */
	uint32_t runs;    /* data: program runs merged into the file */
	uint64_t sum_max; /* data: sum over runs of the largest counter */
	struct gcov_function *fn;
	int nfn, capfn;
	int *by_ident;    /* indices of fn sorted by ident (then position): lookups in log time */
};

/* Parses a whole file held in memory.  `name` is used in messages only.  Returns 0, or -1
 * with a one-line reason in err ("a.gcda: offset 28 (0x1c): ..."), f left empty.  Never reads
 * outside data; allocates no more than the size of data suggests. */
int gcov_parse(const unsigned char *data, size_t len, const char *name, struct gcov_file *f, char *err,
	       size_t errlen);
/* Reads and parses a file; -1 with err also when it cannot be read. */
int gcov_read(const char *path, struct gcov_file *f, char *err, size_t errlen);
/* Reads the .gcda at path (named `name` in messages): 0 when the reader accepts it whole and
 * it is data, not notes; -1 with the reason in why. */
int gcov_check_data(const char *path, const char *name, char *why, size_t n);
/* Reads every .gcda of paths[0..n) as merge does: each the reader refuses (or a .gcno) is
 * named on stderr ("damaged profile: REASON") and marked in bad[i].  Returns how many. */
int gcov_count_damaged(char *const *paths, int n, int *bad);
void gcov_file_free(struct gcov_file *f);

/* "B22*" from a version word; out must hold 5 bytes. */
const char *gcov_version_string(uint32_t version, char *out);
/* GCC's major and minor version from a version word ("B22*" -> 12, 2); -1 if not one. */
int gcov_version_major(uint32_t version);
int gcov_version_minor(uint32_t version);
/* The version word GCC major.minor writes (release status '*'). */
uint32_t gcov_version_for(int major, int minor);

/* The ident GCC 12 gives an externally visible function (one that is not static) when it
 * numbers functions by profile id, as -fprofile-generate does: a CRC-32 of the name with its
 * NUL.  Static functions mix in their file and line, so they cannot be found this way. */
uint32_t gcov_global_ident(const char *name);

/* The notes' function with this ident (the first in the file), or NULL.  Binary search. */
const struct gcov_function *gcov_find_function(const struct gcov_file *notes, uint32_t ident);
/* Checks that a .gcda belongs to a .gcno: same version and stamp; every data function is in
 * the notes with the same checksums and number of counted arcs.  Returns the number of
 * functions that do not match (0 = all good); the first problem is described in err. */
int gcov_check_pair(const struct gcov_file *notes, const struct gcov_file *data, char *err, size_t errlen);

#endif

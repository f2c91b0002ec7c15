/* gcov_io.h - reading GCC 12's .gcda (counts) and .gcno (notes); the layout is in gcov_io.c. */
#ifndef PROFOPT_GCOV_IO_H
#define PROFOPT_GCOV_IO_H

#include <stddef.h>
#include <stdint.h>

#define GCOV_DATA_MAGIC 0x67636461u /* "gcda" */
#define GCOV_NOTE_MAGIC 0x67636e6fu /* "gcno" */
#define GCOV_TAG_FUNCTION 0x01000000u
#define GCOV_TAG_COUNTER_BASE 0x01a10000u /* + (kind << 17) */
#define GCOV_COUNTER_KINDS 8u

int gcov_counter_tag(uint32_t tag);

enum gcov_kind { GCOV_DATA, GCOV_NOTES };

struct gcov_function {
	uint32_t ident, lineno_checksum, cfg_checksum;
	/* from the notes (.gcno) */
	char *name, *source; /* NULL in a .gcda */
	uint32_t start_line, end_line;
	uint32_t nblocks, narcs;
	uint32_t ncounted;   /* arcs that carry a counter (not on the spanning tree) */
	/* from the data (.gcda) */
	uint64_t *arcs;      /* in the order of the notes' counted arcs; NULL when all are zero */
	uint32_t narc_counters;
	int has_arcs;        /* an arc counter record was present */
};

struct gcov_file {
	enum gcov_kind kind;
	uint32_t version; /* e.g. 0x4232322a: "B22*" is GCC 12.2 */
	uint32_t stamp;   /* the compilation's stamp: a .gcda and its .gcno must agree */
	uint32_t checksum;
	char *cwd;        /* notes: the compiler's working directory */
	uint32_t runs;    /* data: program runs merged into the file */
	struct gcov_function *fn;
	int nfn, capfn;
	uint64_t *by_ident; /* ident << 32 | index of each fn, sorted: lookups in log time */
};

/* Returns 0, or -1 with "NAME: offset N (0xN): reason" in err.  Never reads outside data and
 * allocates no more than its size suggests. */
int gcov_parse(const unsigned char *data, size_t len, const char *name, struct gcov_file *f, char *err,
	       size_t errlen);
/* The file at path read whole and parsed; f zeroed when it cannot be read. */
int gcov_read(const char *path, struct gcov_file *f, char *err, size_t errlen);
/* 0 when the file at path is a .gcda the reader accepts whole. */
int gcov_check_data(const char *path, char *why, size_t n);
void gcov_file_free(struct gcov_file *f);

/* "B22*" from a version word; out must hold 5 bytes. */
const char *gcov_version_string(uint32_t version, char *out);
/* "B22*" -> 12 and 2; -1 if not a version word. */
int gcov_version_major(uint32_t version);
int gcov_version_minor(uint32_t version);

/* GCC 12's ident of an external function under -fprofile-generate: a CRC-32 of the name
 * with its NUL (static functions mix in their file and line). */
uint32_t gcov_global_ident(const char *name);

const struct gcov_function *gcov_find_function(const struct gcov_file *notes, uint32_t ident);
/* The number of data functions that do not match the notes (version, stamp, checksums,
 * counted arcs); the first problem is described in err. */
int gcov_check_pair(const struct gcov_file *notes, const struct gcov_file *data, char *err, size_t errlen);

#endif

/* coverage.h - `profopt coverage`: report --json outputs read by coverage_read.c (jansson). */
#ifndef PROFOPT_COVERAGE_H
#define PROFOPT_COVERAGE_H

#include <stdint.h>

/* A source file (or object) of the report's files[]. */
struct cov_file {
	char *file;
	long functions, executed;
	uint64_t count_sum;
};

/* A function of the report's hottest[] (executed) or never_executed[]. */
struct cov_fn {
	char *name, *file;
	int executed;
	uint64_t sum;
};

struct cov_input {
	char *name, *path;   /* NAME=PATH as given */
	char *family;        /* gcc or clang */
	struct cov_file *files;
	int nfiles;
	struct cov_fn *fns;
	int nfns;
	long executed;       /* functions.executed */
	long listed_executed; /* executed functions hottest[] lists (all of them with a large --top) */
	int have_sums;       /* every files[] entry has count_sum */
};

/* Reads a report into *in (name and path set by the caller); exits naming what is wrong. */
void cov_read_report(const char *path, struct cov_input *in);

/* report's file for functions clang's profile names no file for */
#define COV_NO_FILE "(external)"

/* Does the fnmatch pattern match path, or a part of it that starts after a '/'? */
int cov_path_matches(const char *pattern, const char *path);
/* One unit: equal paths without extension and leading ./ and ../, or one ending with the other
 * after a '/' (../src/Python/ceval.c and the object Python/ceval.o). */
int cov_same_unit(const char *a, const char *b);
/* The one object of objects[] (paths under the build directory) built from a source named
 * only by its file name, as clang's front-end profile names them ("ceval.c" ->
 * "Python/ceval.o"); NULL when none or several (two directories' parser.c) are. */
const char *cov_object_for_file(char *const *objects, int n, const char *file);

#endif

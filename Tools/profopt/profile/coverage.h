/* coverage.h - `profopt coverage`'s units: the paths of report --json outputs. */
#ifndef PROFOPT_COVERAGE_H
#define PROFOPT_COVERAGE_H

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

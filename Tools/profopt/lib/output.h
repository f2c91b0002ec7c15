/* output.h - the one way profopt writes a file a user named, safe as root: a target neither a regular file nor a
 * link is refused (--stamp=/dev/null never replaces it); a temporary file beside it is renamed over it, never followed. */
#ifndef PROFOPT_OUTPUT_H
#define PROFOPT_OUTPUT_H

#include <stddef.h>

struct output {
	char *path; /* the name given */
	char *tmp;  /* the temporary file beside it, renamed over path by output_commit() */
	int fd;     /* open on tmp for writing; -1 once closed (a tool may then write tmp by name) */
};

/* Exits, naming path, if it is there and neither a regular file nor a symbolic link. */
void output_check(const char *path);
/* Each returns 0, or -1 with "cannot write PATH: reason" in err (the temporary file then removed). */
int output_open(struct output *o, const char *path, char *err, size_t errlen);
int output_commit(struct output *o, char *err, size_t errlen);
/* Removes the temporary file: the output is not written. */
void output_abort(struct output *o);

/* A whole output at once. */
int output_write_err(const char *path, const void *data, size_t len, char *err, size_t errlen);
void output_write(const char *path, const void *data, size_t len); /* exits on failure */
/* For a file in a directory of profopt's own: -1 with errno set (EISDIR, or EEXIST for another kind). */
int write_file_atomic(const char *path, const void *data, size_t len);

/* A file another program writes in place (gnuplot's plot): refused alike, a link at path removed. */
int output_in_place(const char *path, char *err, size_t errlen);
/* A log is read while it grows, so written in place (truncated, or appended): a descriptor, or -1 and err. */
int output_open_log(const char *path, int append, char *err, size_t errlen);

#endif

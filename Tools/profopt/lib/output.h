/* output.h - the one way profopt writes a file a user named (--stamp, --results, --output,
 * --dest, --archive, --write-fingerprint, --write-manifest, --json, --table, --plot, --units,
 * a log, ...), safe when profopt runs as root:
 *   - an existing target that is not a regular file (a character or block device, a FIFO, a
 *     socket, a directory) is refused, naming it: --stamp=/dev/null never replaces /dev/null;
 *   - a symbolic link at the name is replaced itself, never followed: its target is untouched;
 *   - the content goes to a new temporary file in the same directory (mkstemp: a name nobody
 *     could have planted), is synced and renamed over the name, so the file is whole or absent,
 *     and a temporary file left by an exit or a signal is removed.
 * A log is the exception: it is read while it grows, so it is written in place (but refused
 * and never followed alike: output_open_log). */
#ifndef PROFOPT_OUTPUT_H
#define PROFOPT_OUTPUT_H

#include <stddef.h>

struct output {
	char *path; /* the name given */
	char *tmp;  /* the temporary file beside it, renamed over path by output_commit() */
	int fd;     /* open on tmp for writing; -1 once closed (a tool may then write tmp by name) */
};

/* Exits, naming path, if it is there and neither a regular file nor a symbolic link (a
 * device, a FIFO, a directory, ...): before an old output is removed. */
void output_check(const char *path);
/* Starts an output: refuses path as output_check() does, creates the temporary file.
 * Returns 0, or -1 with "cannot write PATH: reason" in err. */
int output_open(struct output *o, const char *path, char *err, size_t errlen);
/* Syncs and closes the temporary file, then renames it over path (checked again just before).
 * Returns 0, or -1 with the reason in err (the temporary file is then removed). */
int output_commit(struct output *o, char *err, size_t errlen);
/* Removes the temporary file: the output is not written. */
void output_abort(struct output *o);

/* A whole output at once; 0, or -1 with the reason in err. */
int output_write_err(const char *path, const void *data, size_t len, char *err, size_t errlen);
/* The same, exiting with the reason on failure. */
void output_write(const char *path, const void *data, size_t len);
/* The same for a file in a directory of profopt's own: 0, or -1 with errno set (EISDIR, or
 * EEXIST for another kind of file in the way). */
int write_file_atomic(const char *path, const void *data, size_t len);

/* A file another program writes in place (gnuplot's plot): refused as output_check() says,
 * and a symbolic link at path removed (never followed).  0, or -1 with the reason in err. */
int output_in_place(const char *path, char *err, size_t errlen);
/* A log, written in place: a symbolic link at path is removed first (never followed), and
 * anything but a regular file is refused.  Returns a descriptor open for writing (truncated,
 * or at the end with append), or -1 with the reason in err. */
int output_open_log(const char *path, int append, char *err, size_t errlen);

#endif

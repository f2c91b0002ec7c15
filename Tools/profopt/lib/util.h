/* util.h - small helpers shared by every profopt command: messages, memory, strings. */
#ifndef PROFOPT_UTIL_H
#define PROFOPT_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <sys/types.h>
#include <stdio.h>

extern const char *progname; /* "profopt" or "profopt COMMAND", used as message prefix */
/* The exit status of fatal() and of a failed write of stdout (1; diff sets 2). */
extern int exit_failure;

/* Messages go to stderr, prefixed with progname. */
void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Usage errors: one line, exit status 2 (as the shell reports bad usage). */
_Noreturn void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* p (an array of *cap elements of size bytes) with room for element n: its capacity doubled,
 * from `first`, when full.  p = grow_array(p, n, &cap, sizeof *p, 64); p[n++] = ... */
void *grow_array(void *p, int n, int *cap, size_t size, int first);

/* A growable byte buffer, always NUL-terminated. */
struct buf {
	char *data;
	size_t len, cap;
};
void buf_add(struct buf *b, const void *p, size_t n);
void buf_puts(struct buf *b, const char *s);
void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_free(struct buf *b);

/* Reads a whole file; returns NULL (errno set) on failure. */
char *read_file(const char *path, size_t *len);
/* The same, refusing a file of more than max bytes (errno EFBIG) before it fills memory: a
 * regular file by its size, before reading; anything else (a pipe, a device) as it is read. */
char *read_file_max(const char *path, size_t max, size_t *len);
/* A binary reader: parses data[0..len) of the file called name into out, or fails with the
 * reason in err.  Returns 0 or -1. */
typedef int (*parse_fn)(const unsigned char *data, size_t len, const char *name, void *out, char *err, size_t errlen);
/* "a regular file", "a character device", "a FIFO", ... for a stat mode. */
const char *file_kind(mode_t mode);
/* The largest profile file read whole: $PROFOPT_MAX_PROFILE_BYTES, else 1 GiB. */
unsigned long long max_profile_bytes(void);
/* Reads a profile file (.gcda, .gcno, .profraw) whole: a file that is not regular (a device,
 * a FIFO: /dev/zero never ends) or larger than max_profile_bytes() is refused by fstat, before a
 * byte is read.  NULL with "PATH: reason" in err on failure. */
unsigned char *read_profile(const char *path, size_t *len, char *err, size_t errlen);
/* Reads the file at path with read_profile() and parses it with fn; a file that cannot be read
 * fails with "PATH: reason" in err (path escaped) and out (outsize bytes) zeroed. */
int read_and_parse(const char *path, parse_fn fn, void *out, size_t outsize, char *err, size_t errlen);

/* The one way a name or path from outside (a file, a task, an object, a manifest value)
 * reaches a person, on a terminal or in a log: s with control characters (C0, DEL, C1) and
 * bytes that are not UTF-8 as \xNN, so that no name moves the cursor, clears the screen or
 * starts a line of its own.  The result lives until 16 more calls.  warn(), fatal() and
 * usage_error() escape their whole message alike, keeping only its own newlines and tabs. */
const char *printable(const char *s);
/* Bytes in the valid UTF-8 sequence at p (1..4), 0 if p does not start one. */
int utf8_length(const unsigned char *p);
/* A file name as an argument of another tool: absolute, or "./" + name, so that no name
 * ("-rf", "@file", "--plugin=x") is ever read as an option or a response file.  Malloc'd. */
char *safe_path_arg(const char *path);

/* fn runs at exit (also after fatal()) and when SIGINT, SIGTERM or SIGHUP ends profopt (a
 * signal ignored or handled by the caller is left alone; the signal's default action follows
 * fn).  In a signal handler: fn may only make async-signal-safe calls (unlink, rmdir, ...). */
void at_cleanup(void (*fn)(void));
/* A new private directory under $TMPDIR (else /tmp), named profopt-WHAT.XXXXXX (mkdtemp).
 * It is removed at exit (also after fatal()) and when SIGINT, SIGTERM or SIGHUP ends profopt,
 * unless remove_dir_tree() removed it before. */
char *make_temp_dir(const char *what);
/* Removes a directory tree without following symbolic links; the path is not freed. */
void remove_dir_tree(const char *dir);
/* mkdir -p: DIR and its missing parents; 0, or -1 with errno set. */
int make_dirs(const char *dir, mode_t mode);
/* An atexit handler: flushes and closes stdout; if anything could not be written, says so
 * and ends the process with exit_failure. */
void close_stdout(void);

/* Finds an executable: a name with '/' is checked as is, otherwise searched in PATH.
 * Returns a malloc'd path or NULL. */
char *find_program(const char *name);
/* realpath() that returns a malloc'd copy of path when resolution fails. */
char *resolve_path(const char *path);

/* Where a binary reader reports its problem: "NAME: offset N (0xN): MESSAGE" into err (if
 * given; NAME escaped with printable()).  read_fail() returns -1, for `return read_fail(...)`. */
struct read_error {
	const char *name;
	char *err;
	size_t errlen;
};
int read_fail(const struct read_error *e, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Monotonic seconds. */
double now(void);
/* Seconds since FILE was last modified, or `fallback` (also when that is more): the duration
 * of a stage whose earlier commands ran before this one. */
double seconds_since(const char *file, double fallback);
/* "1 min 23 s", "4.2 s" */
void format_duration(char *out, size_t n, double seconds);

int starts_with(const char *s, const char *prefix);
int ends_with(const char *s, const char *suffix);

/* Numbers from options and environment variables, range-checked: a value out of range is
 * bad input, never truncated or wrapped (a --jobs of 2^32 is not 0).
 * "N" or "N%" (0..100) as a fraction in [0,1]; -1 on bad input (also nan, inf). */
double parse_share(const char *s);
/* A whole number in [min, max] into *out: 0, or -1 on bad input. */
int parse_whole(const char *s, long long min, long long max, long long *out);
/* A whole number in [1, INT_MAX]; -1 on bad input. */
long parse_positive(const char *s);
/* Seconds: a finite number in (0, max]; -1 on bad input. */
double parse_seconds(const char *s, double max);
/* A week: longer than any task, stage or benchmark, so more is a typo. */
#define MAX_SECONDS 604800.0

#endif

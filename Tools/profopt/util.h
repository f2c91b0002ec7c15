/* util.h - small helpers shared by every profopt command: messages, memory, strings. */
#ifndef PROFOPT_UTIL_H
#define PROFOPT_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

extern const char *progname; /* "profopt" or "profopt COMMAND", used as message prefix */

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
/* Writes a whole file atomically (temporary file + rename). Returns 0 or -1 (errno set). */
int write_file_atomic(const char *path, const void *data, size_t len);

/* Runs argv (no shell), captures stdout+stderr. Returns the wait status, or -1 if it could not
 * be started. *out receives the output (caller frees). */
int capture(char *const argv[], char **out);

/* Finds an executable: a name with '/' is checked as is, otherwise searched in PATH.
 * Returns a malloc'd path or NULL. */
char *find_program(const char *name);
/* realpath() that returns a malloc'd copy of path when resolution fails. */
char *resolve_path(const char *path);

/* The binary readers' error message: "NAME: offset N (0xN): MESSAGE" into err (if given). */
void format_offset_error(char *err, size_t errlen, const char *name, size_t at, const char *fmt, va_list ap);

/* Monotonic seconds. */
double now(void);
/* "1 min 23 s", "4.2 s" */
void format_duration(char *out, size_t n, double seconds);

int starts_with(const char *s, const char *prefix);
int ends_with(const char *s, const char *suffix);

/* Parses "N" or "N%" (0..100) into a fraction in [0,1]; returns -1 on bad input. */
double parse_share(const char *s);
/* Parses a positive integer; returns -1 on bad input. */
long parse_positive(const char *s);

#endif

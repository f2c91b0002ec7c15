/* util.h - small helpers shared by every profopt command: messages, memory, strings. */
#ifndef PROFOPT_UTIL_H
#define PROFOPT_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <stdio.h>

extern const char *progname; /* "profopt" or "profopt COMMAND", used as message prefix */
extern int exit_failure;     /* of fatal() and of a failed write of stdout (1; diff sets 2) */

/* Messages go to stderr, prefixed with progname, escaped as printable() but for newlines and tabs. */
void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* exit status 2, as the shell reports bad usage */
_Noreturn void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* p = grow_array(p, n, &cap, sizeof *p, 64); p[n++] = ...: capacity doubled, from `first`, when full */
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

/* A whole file, NUL-terminated; NULL with errno set (EFBIG: more than max bytes, refused before it fills memory). */
char *read_file(const char *path, size_t *len);
char *read_file_max(const char *path, size_t max, size_t *len);
/* The same for the rest of what fd holds. */
char *read_fd_max(int fd, size_t max, size_t *len);
/* "a regular file", "a character device", "a FIFO", ... for a stat mode. */
const char *file_kind(mode_t mode);
/* A profile file read whole; one not regular (/dev/zero never ends) or larger than
 * $PROFOPT_MAX_PROFILE_BYTES (1 GiB) is refused before a byte is read.  NULL with "PATH: reason" in err. */
unsigned char *read_profile(const char *path, size_t *len, char *err, size_t errlen);

/* The one way a name from outside reaches a person: control characters (C0, DEL, C1) and bytes not
 * UTF-8 as \xNN, so that no name moves the cursor or starts a line.  Lives until 16 more calls. */
const char *printable(const char *s);
/* Bytes in the valid UTF-8 sequence at p (1..4), 0 if p does not start one. */
int utf8_length(const unsigned char *p);
/* "./" + a relative path, so that no name ("-rf", "@file") is read by a tool as an option. */
char *safe_path_arg(const char *path);

/* path (a file or a tree) is removed at exit or when SIGINT, SIGTERM or SIGHUP ends profopt, unless
 * keep_at_exit(path) comes first. */
void remove_at_exit(const char *path);
void keep_at_exit(const char *path);
/* $TMPDIR/profopt-WHAT.XXXXXX (mkdtemp), removed at exit or on a signal if not before. */
char *make_temp_dir(const char *what);
/* Removes a directory tree without following symbolic links; the path is not freed. */
void remove_dir_tree(const char *dir);
/* mkdir -p: DIR and its missing parents; 0, or -1 with errno set. */
int make_dirs(const char *dir, mode_t mode);
/* atexit: an output that could not be written fails the process (exit_failure). */
void close_stdout(void);

/* An executable: a name with '/' as is, otherwise searched in PATH; malloc'd, or NULL. */
char *find_program(const char *name);
/* "a/./b/../c" -> "a/c" in place, as text: a relative path keeps its leading "..", and an
 * absolute one stays under "/" ("/.." is "/"). */
void normalize_path(char *path);
/* realpath() that returns a malloc'd copy of path when resolution fails. */
char *resolve_path(const char *path);
/* The length of the longest directory prefix a and b share ("/x/y" of "/x/y/z" and "/x/y/w"). */
size_t common_dir_length(const char *a, const char *b);
/* Whether the file begins with the len bytes of magic (0 when it cannot be read). */
int file_starts_with(const char *path, const void *magic, size_t len);

/* A binary reader's problem: "NAME: offset N (0xN): MESSAGE" into err (if given); returns -1. */
struct read_error {
	const char *name;
	char *err;
	size_t errlen;
};
int read_fail(const struct read_error *e, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The n-byte (n <= 8) unsigned number at p: little-endian, or big-endian when big. */
uint64_t load_uint(const unsigned char *p, int n, int big);

/* Monotonic seconds. */
double now(void);
/* Seconds since FILE was modified, at least fallback: a stage's earlier commands ran before this one. */
double seconds_since(const char *file, double fallback);
/* "1 min 23 s", "4.2 s", "833333 h 20 min" (any duration: hours past the range of an int too) */
void format_duration(char *out, size_t n, double seconds);

int starts_with(const char *s, const char *prefix);
int ends_with(const char *s, const char *suffix);

/* Numbers, range-checked: out of range is bad input (-1), never wrapped (a --jobs of 2^32 is not 0).
 * parse_share: "N" or "N%" (0..100) as a fraction; parse_whole: 0 or -1; parse_seconds: in (0, max]. */
double parse_share(const char *s);
int parse_whole(const char *s, long long min, long long max, long long *out);
long parse_positive(const char *s); /* [1, INT_MAX] */
double parse_seconds(const char *s, double max);
/* An environment variable's whole number > 0, or fallback when unset; exits on a bad value. */
long long env_whole(const char *name, long long fallback);
/* A week: longer than any task, stage or benchmark, so more is a typo. */
#define MAX_SECONDS 604800.0

#endif

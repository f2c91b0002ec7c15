/* lines.h - line-based text inputs (task lists, KEY=VALUE files, ...), checked whole before any
 * line is used: no byte (a NUL, say) may hide the lines after it and let a run succeed on part. */
#ifndef PROFOPT_LINES_H
#define PROFOPT_LINES_H

#include <stddef.h>

/* The largest line-based input read (bytes): far above any real one. */
#define LINES_MAX_BYTES ((size_t)64 << 20)

enum lines_mode {
	/* UTF-8 text without control characters but tab; a carriage return before the newline is dropped */
	LINES_TEXT,
	/* file names: any byte but NUL (a newline ends the line, nothing is dropped) */
	LINES_NAMES,
};

struct lines {
	char *text;        /* the input, NUL-terminated; lines are cut out of it in place */
	size_t len, pos;
	int lineno;        /* of the line lines_next() returned last */
	int final_newline; /* the input ends with a newline, or is empty */
	enum lines_mode mode;
};

/* Reads and checks every line (at most max_line bytes): 0, or -1 with "FILE:LINE: reason" in err. */
int lines_read(struct lines *l, const char *path, enum lines_mode mode, size_t max_line, char *err, size_t errlen);
/* The same for len bytes in memory (copied). */
int lines_parse(struct lines *l, const void *data, size_t len, const char *name, enum lines_mode mode, size_t max_line,
		char *err, size_t errlen);
/* A log's line as shown or searched, cut: a log of one endless line fills neither memory nor the terminal. */
#define LOG_LINE_MAX 4096

/* fn on each line, cut at max_line bytes, until it returns non-zero (returned); -1: unreadable. */
int lines_scan(const char *path, size_t max_line, int (*fn)(const char *line, size_t len, void *ctx), void *ctx);
/* The next line without its newline, or NULL after the last. */
char *lines_next(struct lines *l);
void lines_free(struct lines *l);

#endif

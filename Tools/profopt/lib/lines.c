/* lines.c - checked line-based inputs (see lines.h). */
#include "lib/lines.h"
#include "lib/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What is wrong with the byte(s) at p (end: the input's end), or NULL; *n: bytes taken. */
static const char *bad_byte(const unsigned char *p, const unsigned char *end, enum lines_mode mode, int *n, char *what,
			    size_t wn)
{
	*n = 1;
	if (*p == 0)
		return "a NUL byte";
	if (mode == LINES_NAMES || *p == '\t' || *p == '\n')
		return NULL;
	if (*p == '\r' && (p + 1 == end || p[1] == '\n'))
		return NULL;
	if (*p < 0x20 || *p == 0x7f) {
		snprintf(what, wn, "the control character 0x%02x", *p);
		return what;
	}
	*n = utf8_length(p); /* never past the input's end: the NUL after it is no continuation byte */
	if (*n == 0) {
		*n = 1;
		snprintf(what, wn, "the byte 0x%02x, which is not UTF-8", *p);
		return what;
	}
	if (*n == 2 && p[0] == 0xc2 && p[1] < 0xa0) {
		snprintf(what, wn, "the control character U+%04X", p[1]);
		return what;
	}
	return NULL;
}

/* Checks every line of l->text; 0, or -1 with the first problem in err. */
static int check_all(const struct lines *l, const char *name, size_t max_line, char *err, size_t errlen)
{
	const unsigned char *start = (const unsigned char *)l->text, *end = start + l->len, *line = start;
	int lineno = 1;
	char what[64];
	for (const unsigned char *p = start; p < end;) {
		int n;
		const char *why = bad_byte(p, end, l->mode, &n, what, sizeof what);
		if (why) {
			snprintf(err, errlen, "%s:%d: column %zu holds %s: not a line of text (the file is refused, so "
					      "that nothing in it is skipped)",
				 printable(name), lineno, (size_t)(p - line) + 1, why);
			return -1;
		}
		if (*p != '\n' && (size_t)(p - line) >= max_line) {
			snprintf(err, errlen, "%s:%d: a line longer than %zu bytes, the limit", printable(name), lineno,
				 max_line);
			return -1;
		}
		if (*p == '\n')
			line = p + 1, lineno++;
		p += n;
	}
	return 0;
}

int lines_parse(struct lines *l, const void *data, size_t len, const char *name, enum lines_mode mode, size_t max_line,
		char *err, size_t errlen)
{
	memset(l, 0, sizeof *l);
	if (len > LINES_MAX_BYTES) {
		snprintf(err, errlen, "%s: %zu bytes, more than the limit of %zu", printable(name), len, LINES_MAX_BYTES);
		return -1;
	}
	l->text = memcpy(xmalloc(len + 1), data, len);
	l->text[len] = '\0';
	l->len = len;
	l->mode = mode;
	l->final_newline = len == 0 || l->text[len - 1] == '\n';
	if (check_all(l, name, max_line, err, errlen) < 0) {
		lines_free(l);
		return -1;
	}
	return 0;
}

int lines_read(struct lines *l, const char *path, enum lines_mode mode, size_t max_line, char *err, size_t errlen)
{
	size_t len;
	char *data = read_file_max(path, LINES_MAX_BYTES, &len);
	if (!data) {
		memset(l, 0, sizeof *l);
		if (errno == EFBIG)
			snprintf(err, errlen, "%s: more than %zu bytes, the limit", printable(path), LINES_MAX_BYTES);
		else
			snprintf(err, errlen, "%s: %s", printable(path), strerror(errno));
		return -1;
	}
	int rc = lines_parse(l, data, len, path, mode, max_line, err, errlen);
	free(data);
	return rc;
}

char *lines_next(struct lines *l)
{
	if (!l->text || l->pos >= l->len)
		return NULL;
	char *line = l->text + l->pos, *nl = memchr(line, '\n', l->len - l->pos);
	size_t n = nl ? (size_t)(nl - line) : l->len - l->pos;
	line[n] = '\0';
	l->pos += n + 1;
	l->lineno++;
	if (l->mode == LINES_TEXT && n > 0 && line[n - 1] == '\r')
		line[n - 1] = '\0';
	return line;
}

void lines_free(struct lines *l)
{
	free(l->text);
	memset(l, 0, sizeof *l);
}

int lines_scan(const char *path, size_t max_line, int (*fn)(const char *line, size_t len, void *ctx), void *ctx)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	char *line = xmalloc(max_line + 1);
	size_t n = 0;
	int c, rc = 0;
	for (; rc == 0; n = 0) {
		while ((c = getc_unlocked(f)) != EOF && c != '\n')
			if (n < max_line)
				line[n++] = (char)c;
		if (c == EOF && n == 0)
			break; /* the last line may lack its newline */
		line[n] = '\0';
		rc = fn(line, n, ctx);
	}
	free(line);
	fclose(f);
	return rc;
}

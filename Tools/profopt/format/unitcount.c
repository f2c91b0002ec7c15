/* unitcount.c - counting compile and link commands in a growing build log (see unitcount.h). */
#include "format/unitcount.h"
#include "lib/output.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

/* The word after "-o " in line, copied to out (empty when there is none). */
static void output_of(const char *line, char *out, size_t n)
{
	const char *o = strstr(line, " -o ");
	o = o ? o + 4 + strspn(o + 4, " ") : "";
	snprintf(out, n, "%.*s", (int)strcspn(o, " \t\r\n'\""), o); /* cut to fit */
}

/* libtool prints each command it runs after "libtool: MODE: ": a compile of a .lo runs one or two
 * of them (PIC, static copy), each a unit, so its own line ("--mode=compile ... -o x.lo") is not. */
static const char *libtool_command(const char *line)
{
	static const char *const modes[] = {"libtool: compile: ", "libtool: link: "};
	for (size_t i = 0; i < sizeof modes / sizeof *modes; i++)
		if (starts_with(line, modes[i]))
			return line + strlen(modes[i]);
	return line;
}

static void count_line(struct unit_count *u)
{
	u->line[u->len] = '\0';
	const char *cmd = libtool_command(u->line);
	size_t first = strcspn(cmd, " \t");
	if (memchr(cmd, ':', first)) /* "file.c:12:3: warning: ...": a diagnostic, not a command */
		return;
	char out[sizeof u->linking];
	output_of(cmd, out, sizeof out);
	if (!out[0] || strchr(out, '$') || ends_with(out, ".lo"))
		return;
	if (strstr(cmd, " -c ") && ends_with(out, ".o")) {
		u->compiled++;
		u->linking[0] = '\0';
	} else if (!ends_with(out, ".o") && !ends_with(out, ".d")) {
		memcpy(u->linking, out, sizeof u->linking);
	}
}

void unit_count_text(struct unit_count *u, const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '\n') {
			count_line(u);
			u->len = 0;
		} else if (u->len < sizeof u->line - 1) {
			u->line[u->len++] = text[i] ? text[i] : ' ';
		}
	}
}

void unit_count_poll(struct unit_count *u, const char *path)
{
	if (!u->log && !(u->log = fopen(path, "rb")))
		return;
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, u->log)) > 0)
		unit_count_text(u, buf, n);
	clearerr(u->log); /* the log grows: read on from here next time */
}

void unit_count_close(struct unit_count *u)
{
	if (u->log)
		fclose(u->log);
	u->log = NULL;
}

long unit_count_load(const char *path)
{
	char *text = read_file(path, NULL);
	long n = text ? strtol(text, NULL, 10) : 0;
	free(text);
	return n > 0 ? n : 0;
}

void unit_count_save(const char *path, long n)
{
	if (n <= 0)
		return;
	char text[32];
	int len = snprintf(text, sizeof text, "%ld\n", n);
	/* the count only makes the next estimate better: a file that cannot be written is no error */
	(void)write_file_atomic(path, text, (size_t)len);
}

/* hidden.c - the message of a failed compile whose output the build threw away.  libtool
 * compiles a library source twice and sends the second compile's output to /dev/null, so when
 * that one fails the log says only "Error 1".  Its command is in the log (libtool prints it
 * unless silenced: pgo.mk's logged builds get V=1); a compile whose object is missing is run
 * again as it was, in make's directory at the time, with its output shown. */
#include "pipeline/hidden.h"
#include "format/buildlog.h"
#include "lib/lines.h"
#include "lib/proc.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SUPPRESSED " >/dev/null 2>&1"
#define COMPILE_PREFIX "libtool: compile: "
#define SHOWN_MAX 8000

struct hidden {
	struct make_dirs dirs;
	char *cmd, *dir; /* the last hidden compile whose object is missing */
};

/* "... -o OBJ ..." -> whether OBJ (from dir) exists; 1 when the command names none. */
static int object_exists(const char *cmd, const char *dir)
{
	const char *o = strstr(cmd, " -o ");
	if (!o)
		return 1;
	o += 4;
	char *path = xasprintf("%s%s%.*s", dir && *o != '/' ? dir : "", dir && *o != '/' ? "/" : "", (int)strcspn(o, " \t"), o);
	struct stat st;
	int found = stat(path, &st) == 0;
	free(path);
	return found;
}

static int on_line(const char *line, size_t len, void *ctx)
{
	struct hidden *h = ctx;
	if (make_dirs_line(&h->dirs, line))
		return 0;
	size_t k = strlen(SUPPRESSED), p = strlen(COMPILE_PREFIX);
	if (!starts_with(line, COMPILE_PREFIX) || len <= k + p || strcmp(line + len - k, SUPPRESSED) != 0)
		return 0;
	char *cmd = xasprintf("%.*s", (int)(len - k - p), line + p);
	const char *where = make_dirs_top(&h->dirs);
	if (object_exists(cmd, where)) {
		free(cmd);
		return 0;
	}
	free(h->cmd);
	free(h->dir);
	h->cmd = cmd;
	h->dir = where ? xstrdup(where) : NULL;
	return 0;
}

void show_hidden_compile(const char *log, const char *cwd)
{
	struct hidden h = {0};
	lines_scan(log, LOG_LINE_MAX, on_line, &h);
	make_dirs_free(&h.dirs);
	if (!h.cmd)
		return;
	const char *dir = h.dir ? h.dir : cwd;
	char *argv[] = {"/bin/sh", "-c", h.cmd, NULL}, *out = NULL;
	struct run_opts o = {.cwd = dir, .timeout = 600};
	size_t len = 0;
	run_child(argv, &o, &out, &len);
	fprintf(stderr, "---- libtool hid the output of a failed compile; run again%s%s: %s ----\n%.*s%s----\n",
		dir ? " in " : "", dir ? printable(dir) : "", printable(h.cmd), (int)(len > SHOWN_MAX ? SHOWN_MAX : len),
		out ? out : "", len > SHOWN_MAX ? "\n[... cut]\n" : "");
	free(out);
	free(h.cmd);
	free(h.dir);
}

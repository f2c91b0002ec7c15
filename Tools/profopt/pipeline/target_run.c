/* target_run.c - `profopt target-run`: the launcher of a cross build's training tasks (profopt
 * train --launcher): a program this machine cannot run goes to $PGO_RUNNER, any other runs as
 * it is.  No option of its own: every argument after the assignments is the task's. */
#include "commands.h"
#include "lib/util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char help_text[] =
	"usage: profopt target-run [NAME=VALUE...] PROGRAM [ARG...]\n"
	"\n"
	"Runs PROGRAM with its ARGs, each NAME=VALUE set in its environment: through the runner\n"
	"$PGO_RUNNER (shell text, e.g. 'qemu-aarch64 -L /usr/aarch64-linux-gnu' or a script) when\n"
	"PROGRAM is a file this machine cannot run (any but a script, #!, and an ELF program of\n"
	"/bin/sh's machine), directly otherwise.  PROGRAM without '/' is looked up in PATH.\n"
	"pgo.mk gives it to profopt train as --launcher in a cross build: a task's command reaches\n"
	"it whole, a command in shell syntax with its first word only.\n"
	"Exit status: PROGRAM's; 126 or 127 when it cannot be started.\n";

/* What tells machines apart: ELF's magic, class and byte order, and e_machine (bytes 0-5 and
 * 18-19); how many of them the file has (0: none, or unreadable). */
static int signature(const char *path, unsigned char sig[8])
{
	unsigned char b[20];
	int fd = open(path, O_RDONLY | O_CLOEXEC), n = 0, k = 0;
	if (fd >= 0) {
		ssize_t r;
		while (n < (int)sizeof b && (r = read(fd, b + n, sizeof b - n)) > 0)
			n += (int)r;
		close(fd);
	}
	for (int i = 0; i < n && i < 20; i++)
		if (i < 6 || i >= 18)
			sig[k++] = b[i];
	return k;
}

static int is_assignment(const char *s)
{
	const char *eq = strchr(s, '=');
	if (!eq || eq == s || isdigit((unsigned char)s[0]))
		return 0;
	for (const char *p = s; p < eq; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return 0;
	return 1;
}

/* Whether path is a regular file of another machine. */
static int foreign(const char *path)
{
	struct stat st;
	unsigned char mine[8], sh[8];
	if (!path || stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	int n = signature(path, mine), m = signature("/bin/sh", sh);
	if (n == 0 || (n >= 2 && mine[0] == '#' && mine[1] == '!'))
		return 0;
	return n != m || memcmp(mine, sh, n) != 0;
}

int cmd_target_run(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--help") == 0) {
		fputs(help_text, stdout);
		return 0;
	}
	int i = 1;
	for (; i < argc && is_assignment(argv[i]); i++)
		if (putenv(argv[i]) != 0)
			fatal("cannot set %s: %s", printable(argv[i]), strerror(errno));
	if (i >= argc)
		usage_error("give the PROGRAM to run (see 'profopt target-run --help')");
	char *path = strchr(argv[i], '/') ? xstrdup(argv[i]) : find_program(argv[i]);
	if (foreign(path)) {
		char **args = xcalloc(argc - i + 5, sizeof *args);
		args[0] = "/bin/sh", args[1] = "-c", args[2] = "eval \"exec $PGO_RUNNER \\\"\\$@\\\"\"";
		args[3] = "target-run";
		memcpy(args + 4, argv + i, (argc - i) * sizeof *args);
		execv("/bin/sh", args);
	} else {
		execvp(argv[i], argv + i);
	}
	int e = errno;
	fprintf(stderr, "%s: cannot run %s: %s\n", progname, printable(argv[i]), strerror(e));
	return e == ENOENT ? 127 : 126;
}

/* lock.c - `profopt lock`: one pipeline at a time per build directory.  Holds an flock on a
 * file for as long as COMMAND runs; a second holder is refused at once, told which process
 * holds the lock.  The lock is not inherited by COMMAND (close-on-exec), so a process that
 * outlives the run (a stray training task) never keeps the next run out. */
#include "commands.h"
#include "lib/proc.h"
#include "lib/output.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct lock_options {
	const char *file, *what;
	int free_only;
};

static const struct option_spec lock_options[] = {
	OPT_STRING("file", 0, struct lock_options, file, "FILE", "the lock file (pgo.mk: PGO_DIR/lock)"),
	OPT_STRING("what", 0, struct lock_options, what, "TEXT", "what the holder runs, shown to whoever is refused"),
	OPT_FLAG("free", 0, struct lock_options, free_only,
		 "run nothing: exit 0 when nobody holds the lock (or the holder is the run this process belongs "
		 "to, by PROFOPT_LOCK_HELD), else 1 naming the holder (pgo.mk: clean, distclean, install, ... "
		 "refuse while a pipeline runs)"),
	OPT_END,
};

const struct command_options options_lock = {
	"lock",
	"--file=FILE [--what=TEXT] -- COMMAND [ARGS...]\n--file=FILE --free",
	"Runs COMMAND while holding an exclusive lock (flock) on FILE, created if needed.  If\n"
	"another process holds it, exits 1 at once, naming that process (its pid, what it runs and\n"
	"since when, as it wrote them into FILE).  SIGTERM and SIGHUP are passed on to COMMAND;\n"
	"on Linux COMMAND also gets SIGTERM if profopt lock itself is killed.  COMMAND runs with\n"
	"PROFOPT_LOCK_HELD set to FILE's absolute path, so that what it runs can tell the lock is\n"
	"its own; run so, lock runs COMMAND at once, under the lock its holder keeps.\n",
	lock_options,
	"Exit status: COMMAND's, or 1 when the lock is held, 2 bad usage.\n",
	1,
};

static volatile pid_t child_pid;

static void forward(int sig, siginfo_t *info, void *ctx)
{
	(void)ctx;
	/* SIGINT from the terminal reaches COMMAND directly (same process group). */
	if (child_pid > 0 && (sig != SIGINT || info->si_code == SI_USER))
		kill(child_pid, sig);
}

/* flock on fd failed (errno): another error is fatal; the holder is named from its record
 * ("pid 123 (make profile-opt, since 2026-01-01T10:00:00Z)"), with why this run must wait. */
_Noreturn static void refuse(int fd, const char *file, const char *who, const char *why)
{
	if (errno != EWOULDBLOCK)
		fatal("cannot lock %s: %s", printable(file), strerror(errno));
	char text[512] = "", holder[400], what[300] = "", since[40] = "";
	ssize_t len = pread(fd, text, sizeof text - 1, 0);
	text[len > 0 ? len : 0] = '\0';
	long pid = 0;
	if (sscanf(text, "pid %ld\nsince %39[^\n]\nwhat %299[^\n]", &pid, since, what) >= 1 && pid > 0)
		snprintf(holder, sizeof holder, "pid %ld (%s, since %s)", pid, *what ? what : "?", *since ? since : "?");
	else
		snprintf(holder, sizeof holder, "a process that has not written its pid yet");
	fatal("%s holds the lock %s: %s; %s: wait for it to end, or stop it", who, printable(file), holder,
	      why);
}

/* The lock file opened with flags (never through a link, never blocking on a FIFO) and
 * checked to be a regular file; -1 when it does not exist and flags do not create it. */
static int open_lock_file(const char *file, int flags)
{
	int fd = open(file, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
	if (fd < 0 && errno == ENOENT && !(flags & O_CREAT))
		return -1;
	if (fd < 0)
		fatal("cannot open lock file %s: %s", printable(file), strerror(errno));
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		fatal("refusing the lock file %s: it is not a regular file", printable(file));
	return fd;
}

/* This process runs under the holder of the lock FILE (PROFOPT_LOCK_HELD). */
static int held_by_us(const char *file)
{
	char *real = realpath(file, NULL);
	const char *held = getenv("PROFOPT_LOCK_HELD");
	return real && held && !strcmp(real, held);
}

/* --free: nobody holds the lock, or this process runs under its holder. */
static int lock_free(const char *file)
{
	int ours = held_by_us(file), fd = open_lock_file(file, O_RDONLY);
	if (fd < 0 || ours || flock(fd, LOCK_SH | LOCK_NB) == 0)
		return 0; /* no lock file (nobody holds it), ours, or free */
	refuse(fd, file, "a run", "this would change the build directory under it");
}

static int run_locked(char **argv)
{
	struct sigaction sa = {.sa_sigaction = forward, .sa_flags = SA_SIGINFO};
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 3; i++)
		sigaction((const int[]){SIGINT, SIGTERM, SIGHUP}[i], &sa, NULL);
	struct proc p;
	if (proc_start_foreground(&p, argv) < 0) {
		fprintf(stderr, "%s: cannot execute %s: %s\n", progname, printable(argv[0]), strerror(p.exec_errno));
		return 127;
	}
	child_pid = p.pid;
	int st;
	while (waitpid(p.pid, &st, 0) < 0)
		if (errno != EINTR)
			fatal("waitpid: %s", strerror(errno));
	return shell_status(st);
}

int cmd_lock(int argc, char **argv)
{
	struct lock_options o = {0};
	int first = options_parse(&options_lock, argc, argv, &o);
	const char *file = o.file;
	if (!file)
		usage_error("--file=FILE is required (see 'profopt lock --help')");
	if (o.free_only && (first < argc || o.what))
		usage_error("--free runs nothing: no --what, no command");
	if (o.free_only)
		return lock_free(file);
	if (first >= argc)
		usage_error("no command given (see 'profopt lock --help')");
	if (held_by_us(file))
		return run_locked(argv + first); /* a goal of the run that holds it (pgo-bench's profile-opt) */
	/* the lock file holds the holder's record: as any output, never a device or a link's target */
	char err[600];
	if (output_in_place(file, err, sizeof err) < 0)
		fatal("the lock file: %s", err);
	int fd = open_lock_file(file, O_RDWR | O_CREAT);
	if (flock(fd, LOCK_EX | LOCK_NB) < 0)
		refuse(fd, file, "another run", "one run at a time per build directory");
	char since[32];
	time_t t = time(NULL);
	strftime(since, sizeof since, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	char *record = xasprintf("pid %ld\nsince %s\nwhat %s\n", (long)getpid(), since,
				 o.what ? o.what : argv[first]);
	if (ftruncate(fd, 0) < 0 || pwrite(fd, record, strlen(record), 0) < 0)
		fatal("cannot write %s: %s", printable(file), strerror(errno));
	setenv("PROFOPT_LOCK_HELD", resolve_path(file), 1);
	int rc = run_locked(argv + first);
	if (ftruncate(fd, 0) < 0) {}
	close(fd);
	return rc;
}

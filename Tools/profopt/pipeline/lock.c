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
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

const char help_lock[] =
	"usage: profopt lock --file=FILE [--what=TEXT] -- COMMAND [ARGS...]\n"
	"       profopt lock --file=FILE --free\n"
	"\n"
	"Runs COMMAND while holding an exclusive lock (flock) on FILE, created if needed.  If\n"
	"another process holds it, exits 1 at once, naming that process (its pid, what it runs and\n"
	"since when, as it wrote them into FILE).  SIGTERM and SIGHUP are passed on to COMMAND;\n"
	"on Linux COMMAND also gets SIGTERM if profopt lock itself is killed.  COMMAND runs with\n"
	"PROFOPT_LOCK_HELD set to FILE's absolute path, so that what it runs can tell the lock is\n"
	"its own.\n"
	"\n"
	"  --file=FILE   the lock file (pgo.mk: PGO_DIR/lock)\n"
	"  --what=TEXT   what the holder runs, shown to whoever is refused\n"
	"  --free        run nothing: exit 0 when nobody holds the lock (or the holder is the run\n"
	"                this process belongs to, by PROFOPT_LOCK_HELD), else 1 naming the holder\n"
	"                (pgo.mk: clean, distclean, install, ... refuse while a pipeline runs)\n"
	"\n"
	"Exit status: COMMAND's, or 1 when the lock is held, 2 bad usage.\n";

static volatile pid_t child_pid;

static void forward(int sig, siginfo_t *info, void *ctx)
{
	(void)ctx;
	/* SIGINT from the terminal reaches COMMAND directly (same process group). */
	if (child_pid > 0 && (sig != SIGINT || info->si_code == SI_USER))
		kill(child_pid, sig);
}

/* "pid 123 (make profile-opt, since 2026-01-01T10:00:00Z)" from the holder's record. */
static void describe_holder(int fd, char *out, size_t n)
{
	char text[512] = "";
	ssize_t len = pread(fd, text, sizeof text - 1, 0);
	text[len > 0 ? len : 0] = '\0';
	long pid = 0;
	char what[300] = "", since[40] = "";
	if (sscanf(text, "pid %ld\nsince %39[^\n]\nwhat %299[^\n]", &pid, since, what) >= 1 && pid > 0)
		snprintf(out, n, "pid %ld (%s, since %s)", pid, *what ? what : "?", *since ? since : "?");
	else
		snprintf(out, n, "a process that has not written its pid yet");
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

/* --free: nobody holds the lock, or this process runs under its holder. */
static int lock_free(const char *file)
{
	char *real = realpath(file, NULL);
	const char *held = getenv("PROFOPT_LOCK_HELD");
	int ours = real && held && !strcmp(real, held);
	free(real);
	int fd = open_lock_file(file, O_RDONLY);
	if (fd < 0)
		return 0; /* no lock file: nobody holds it */
	if (ours || flock(fd, LOCK_SH | LOCK_NB) == 0) {
		close(fd);
		return 0;
	}
	if (errno != EWOULDBLOCK)
		fatal("cannot lock %s: %s", printable(file), strerror(errno));
	char holder[400];
	describe_holder(fd, holder, sizeof holder);
	fprintf(stderr, "%s: error: a run holds the lock %s: %s; this would change the build directory under it: "
			"wait for it to end, or stop it\n",
		progname, printable(file), holder);
	close(fd);
	return 1;
}

static int run_locked(char **argv)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = forward;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	pid_t parent = getpid();
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		fatal("fork: %s", strerror(errno));
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
#ifdef __linux__
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(128 + SIGTERM);
#endif
		execvp(argv[0], argv);
		fprintf(stderr, "%s: cannot execute %s: %s\n", progname, argv[0], strerror(errno));
		_exit(127);
	}
	(void)parent;
	child_pid = pid;
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			fatal("waitpid: %s", strerror(errno));
	return shell_status(st);
}

int cmd_lock(int argc, char **argv)
{
	static const struct option lopts[] = {
		{"file", required_argument, NULL, 'f'},
		{"what", required_argument, NULL, 'w'},
		{"free", no_argument, NULL, 'F'},
		{NULL, 0, NULL, 0},
	};
	const char *file = NULL, *what = NULL;
	int c, free_only = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+", lopts, NULL)) != -1) {
		switch (c) {
		case 'f': file = optarg; break;
		case 'w': what = optarg; break;
		case 'F': free_only = 1; break;
		default: usage_error("unknown option '%s' (see 'profopt lock --help')", argv[optind - 1]);
		}
	}
	if (!file)
		usage_error("--file=FILE is required (see 'profopt lock --help')");
	if (free_only && (optind < argc || what))
		usage_error("--free runs nothing: no --what, no command");
	if (free_only)
		return lock_free(file);
	if (optind >= argc)
		usage_error("no command given (see 'profopt lock --help')");
	/* the lock file holds the holder's record: as any output, never a device or a link's target */
	char err[600];
	if (output_in_place(file, err, sizeof err) < 0)
		fatal("the lock file: %s", err);
	int fd = open_lock_file(file, O_RDWR | O_CREAT);
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno != EWOULDBLOCK)
			fatal("cannot lock %s: %s", file, strerror(errno));
		char holder[400];
		describe_holder(fd, holder, sizeof holder);
		fprintf(stderr, "%s: error: another run holds the lock %s: %s; one run at a time per build "
				"directory: wait for it to end, or stop it\n",
			progname, file, holder);
		return 1;
	}
	char since[32], *record;
	time_t t = time(NULL);
	strftime(since, sizeof since, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	record = xasprintf("pid %ld\nsince %s\nwhat %s\n", (long)getpid(), since, what ? what : argv[optind]);
	if (ftruncate(fd, 0) < 0 || pwrite(fd, record, strlen(record), 0) < 0)
		fatal("cannot write %s: %s", file, strerror(errno));
	free(record);
	char *real = resolve_path(file);
	setenv("PROFOPT_LOCK_HELD", real, 1);
	free(real);
	int rc = run_locked(argv + optind);
	if (ftruncate(fd, 0) < 0) {}
	close(fd);
	return rc;
}

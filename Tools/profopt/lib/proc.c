/* proc.c - child processes (see proc.h). */
#include "lib/proc.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

int needs_shell(const char *cmd)
{
	return strpbrk(cmd, "|&;<>()$`\\\"'*?[#~=%\n{}") != NULL;
}

char *shell_quote(const char *s)
{
	/* none of these characters is shell syntax */
	if (*s && !s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:,+@-")])
		return xstrdup(s);
	struct buf b = {0};
	buf_puts(&b, "'");
	for (; *s; s++) {
		if (*s == '\'')
			buf_puts(&b, "'\\''");
		else
			buf_add(&b, s, 1);
	}
	buf_puts(&b, "'");
	return b.data;
}

int shell_status(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 255;
}

const char *describe_status(int st, char *out, int n)
{
	if (WIFEXITED(st))
		snprintf(out, (size_t)n, "exit %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(out, (size_t)n, "killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
	else
		snprintf(out, (size_t)n, "status 0x%x", st);
	return out;
}

/* How start() sets a child up (proc_start_foreground()'s differ from the others'). */
enum {
	OWN_GROUP = 1,  /* it leads a process group of its own, to be killed as a whole */
	FOREGROUND = 2, /* stdin is profopt's, not /dev/null; on Linux it gets SIGTERM when profopt ends */
};

/* 0, or -1 (errno set) when the child cannot enter cwd. */
static int child_setup(int log_fd, int err_fd, const char *cwd, char *const env[], int how,
		       pid_t parent)
{
	for (int i = 0; env && env[i]; i++)
		putenv(env[i]);
	if (how & OWN_GROUP)
		setpgid(0, 0);
#ifdef __linux__
	if (how & FOREGROUND) { /* SIGTERM when the parent ends, also if it ended before prctl */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(128 + SIGTERM);
	}
#else
	(void)parent;
#endif
	/* The parent may have ignored or blocked signals; the child starts clean. */
	static const int sigs[] = {SIGINT, SIGTERM, SIGPIPE, SIGCHLD};
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
		signal(sigs[i], SIG_DFL);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	int devnull = how & FOREGROUND ? -1 : open("/dev/null", O_RDONLY);
	if (devnull >= 0 && devnull != 0) {
		dup2(devnull, 0);
		close(devnull);
	}
	if (log_fd >= 0) {
		dup2(log_fd, 1);
		dup2(err_fd >= 0 ? err_fd : log_fd, 2);
	}
	return cwd ? chdir(cwd) : 0;
}

/* Without OWN_GROUP the child stays in profopt's group, and a Ctrl-C at the terminal
 * reaches it too. */
static int start(struct proc *p, char *const argv[], char *const env[], int log_fd, int err_fd, const char *cwd, int how)
{
	int fds[2];
	pid_t parent = getpid();
	p->pid = -1;
	p->exec_errno = 0;
	if (pipe2(fds, O_CLOEXEC) < 0)
		fatal("pipe: %s", strerror(errno));
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		fatal("fork: %s", strerror(errno));
	if (pid == 0) {
		close(fds[0]);
		if (child_setup(log_fd, err_fd, cwd, env, how, parent) == 0)
			execvp(argv[0], argv);
		int e = errno;
		if (write(fds[1], &e, sizeof e) < 0) {}
		_exit(127);
	}
	/* Both sides set the group, so signals to it work however the scheduler orders them. */
	if (how & OWN_GROUP)
		setpgid(pid, pid);
	close(fds[1]);
	int e = 0;
	ssize_t n;
	while ((n = read(fds[0], &e, sizeof e)) < 0 && errno == EINTR)
		;
	close(fds[0]);
	p->pid = pid;
	if (n == (ssize_t)sizeof e) {
		/* exec failed: reap the child now, the caller has nothing to wait for. */
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		p->pid = -1;
		p->exec_errno = e;
		return -1;
	}
	return 0;
}

int proc_start_argv(struct proc *p, char *const argv[], int log_fd, const char *cwd)
{
	return start(p, argv, NULL, log_fd, -1, cwd, OWN_GROUP);
}

int proc_start_foreground(struct proc *p, char *const argv[])
{
	return start(p, argv, NULL, -1, -1, NULL, FOREGROUND);
}

int proc_start(struct proc *p, const char *cmd, int log_fd, const char *cwd)
{
	if (needs_shell(cmd)) {
		char *argv[] = {"/bin/sh", "-c", (char *)cmd, NULL};
		return proc_start_argv(p, argv, log_fd, cwd);
	}
	/* Split on blanks: no quoting to honour, since a quote would have needed the shell. */
	char **argv = split_command(cmd);
	int rc = -1;
	p->pid = -1;
	p->exec_errno = ENOENT;
	if (argv[0])
		rc = proc_start_argv(p, argv, log_fd, cwd);
	free_words(argv);
	return rc;
}

void proc_kill(const struct proc *p, int sig)
{
	if (p->pid > 0 && kill(-p->pid, sig) < 0)
		kill(p->pid, sig);
}

int proc_exit_ok(int st)
{
	return st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* The child's output until EOF (0), the deadline or a stop request (its group then killed). */
static int drain(const struct proc *p, int fd, const struct run_opts *o, struct buf *b)
{
	double deadline = o->timeout > 0 ? now() + o->timeout : 0;
	char chunk[65536];
	for (;;) {
		if (o->stop && *o->stop) {
			proc_kill(p, SIGKILL);
			return RUN_STOPPED;
		}
		int wait_ms = o->stop ? 200 : -1; /* a stop request is seen within 0.2 s */
		if (deadline) {
			double left = deadline - now();
			if (left <= 0) {
				proc_kill(p, SIGKILL);
				return RUN_TIMED_OUT;
			}
			if (wait_ms < 0 || left * 1000 < wait_ms)
				wait_ms = (int)(left * 1000) + 1;
		}
		struct pollfd pfd = {fd, POLLIN, 0};
		if (poll(&pfd, 1, wait_ms) <= 0)
			continue;
		ssize_t n = read(fd, chunk, sizeof chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return 0;
		buf_add(b, chunk, (size_t)n);
		size_t half = o->keep / 2;
		if (o->keep && b->len > o->keep + half) { /* the middle dropped, once per half kept: linear */
			memmove(b->data + half, b->data + b->len - half, half);
			b->len = 2 * half;
			b->data[b->len] = '\0';
		}
	}
}

int run_child(char *const argv[], const struct run_opts *o, char **out, size_t *outlen)
{
	static const struct run_opts none;
	struct buf b = {0};
	struct proc p;
	int fds[2], status = 0;
	if (!o)
		o = &none;
	buf_add(&b, "", 0);
	if (pipe2(fds, O_CLOEXEC) < 0)
		fatal("pipe: %s", strerror(errno));
	/* stderr apart: an unbuffered warning would otherwise land inside a buffered stdout line */
	FILE *err = o->stderr_after ? tmpfile() : NULL;
	if (o->stderr_after && !err)
		fatal("a temporary file for %s's messages: %s", printable(argv[0]), strerror(errno));
	if (start(&p, argv, o->env, fds[1], err ? fileno(err) : -1, o->cwd, o->timeout > 0 || o->stop ? OWN_GROUP : 0) < 0) {
		close(fds[0]);
		close(fds[1]);
		buf_printf(&b, "cannot execute %s: %s", printable(argv[0]), strerror(p.exec_errno));
		status = RUN_NOT_STARTED;
	} else {
		close(fds[1]);
		int how = drain(&p, fds[0], o, &b);
		close(fds[0]);
		while (waitpid(p.pid, &status, 0) < 0)
			if (errno != EINTR) {
				status = RUN_NOT_STARTED;
				break;
			}
		if (how)
			status = how;
	}
	if (err) {
		size_t n = 0;
		char *text = lseek(fileno(err), 0, SEEK_SET) == 0 ? read_fd_max(fileno(err), SIZE_MAX - 1, &n) : NULL;
		buf_add(&b, text ? text : "", n);
		free(text);
		fclose(err);
	}
	if (outlen)
		*outlen = b.len;
	if (out)
		*out = b.data;
	else
		buf_free(&b);
	return status;
}

char **split_command(const char *cmd)
{
	int n = 0, cap = 4;
	char **words = xcalloc((size_t)cap, sizeof *words);
	struct stat st;
	if (stat(cmd, &st) == 0 && S_ISREG(st.st_mode) && access(cmd, X_OK) == 0) {
		words[0] = xstrdup(cmd);
		return words;
	}
	for (const char *p = cmd; *p;) {
		p += strspn(p, " \t\n");
		if (!*p)
			break;
		struct buf w = {0};
		char quote = 0;
		buf_add(&w, "", 0);
		for (; *p && (quote || (*p != ' ' && *p != '\t' && *p != '\n')); p++) {
			if (quote && *p == quote)
				quote = 0;
			else if (!quote && (*p == '\'' || *p == '"'))
				quote = *p;
			else if (*p == '\\' && quote != '\'' && p[1])
				buf_add(&w, ++p, 1);
			else
				buf_add(&w, p, 1);
		}
		words = grow_array(words, n + 1, &cap, sizeof *words, 4);
		words[n++] = w.data;
		words[n] = NULL;
	}
	return words;
}

void free_words(char **words)
{
	for (size_t i = 0; words && words[i]; i++)
		free(words[i]);
	free(words);
}

int proc_group_alive(const struct proc *p)
{
	return p->pid > 0 && kill(-p->pid, 0) == 0;
}

int capture(char *const argv[], char **out)
{
	return run_child(argv, NULL, out, NULL);
}

int run_batches(char *const argv[], char *const *args, int n, int per_run, batch_fn fn, void *ctx, char **why)
{
	int fixed = 0, failed = 0;
	while (argv[fixed])
		fixed++;
	char **v = memcpy(xcalloc((size_t)(fixed + per_run + 1), sizeof *v), argv, (size_t)fixed * sizeof *v);
	for (int first = 0; first < n; first += per_run) {
		int count = n - first < per_run ? n - first : per_run;
		memcpy(v + fixed, args + first, (size_t)count * sizeof *v);
		v[fixed + count] = NULL;
		char *out = NULL;
		size_t len = 0;
		static const struct run_opts apart = {.stderr_after = 1};
		int st = run_child(v, &apart, &out, &len);
		if (st != RUN_NOT_STARTED)
			fn(ctx, out ? out : "", out ? len : 0, args + first, first, count);
		if (!proc_exit_ok(st) && !failed) {
			failed = st ? st : -1;
			if (why)
				*why = out, out = NULL;
		}
		free(out);
		if (st == RUN_NOT_STARTED)
			break;
	}
	free(v);
	return failed;
}

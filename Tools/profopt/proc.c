/* proc.c - child processes (see proc.h). */
#include "proc.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int needs_shell(const char *cmd)
{
	return strpbrk(cmd, "|&;<>()$`\\\"'*?[#~=%\n{}") != NULL;
}

int shell_status(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return 255;
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

static void child_setup(int log_fd, const char *cwd, int errpipe)
{
	setpgid(0, 0);
	/* The parent may have ignored or blocked signals; the child starts clean. */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	int devnull = open("/dev/null", O_RDONLY);
	if (devnull >= 0 && devnull != 0) {
		dup2(devnull, 0);
		close(devnull);
	}
	if (log_fd >= 0) {
		dup2(log_fd, 1);
		dup2(log_fd, 2);
	}
	if (cwd && chdir(cwd) < 0) {
		int e = errno;
		if (write(errpipe, &e, sizeof e) < 0) {}
		_exit(127);
	}
}

int proc_start_argv(struct proc *p, char *const argv[], int log_fd, const char *cwd)
{
	int fds[2];
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
		child_setup(log_fd, cwd, fds[1]);
		execvp(argv[0], argv);
		int e = errno;
		if (write(fds[1], &e, sizeof e) < 0) {}
		_exit(127);
	}
	/* Both sides set the group, so signals to it work however the scheduler orders them. */
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

int proc_start(struct proc *p, const char *cmd, int log_fd, const char *cwd)
{
	if (needs_shell(cmd)) {
		char *argv[] = {"/bin/sh", "-c", (char *)cmd, NULL};
		return proc_start_argv(p, argv, log_fd, cwd);
	}
	/* Split on blanks: no quoting to honour, since a quote would have needed the shell. */
	char *copy = xstrdup(cmd), *save = NULL;
	char **argv = xcalloc(strlen(cmd) / 2 + 2, sizeof *argv);
	int argc = 0;
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	int rc;
	if (argc == 0) {
		p->pid = -1;
		p->exec_errno = ENOENT;
		rc = -1;
	} else {
		rc = proc_start_argv(p, argv, log_fd, cwd);
	}
	free(argv);
	free(copy);
	return rc;
}

void proc_kill(const struct proc *p, int sig)
{
	if (p->pid > 0 && kill(-p->pid, sig) < 0)
		kill(p->pid, sig);
}

int proc_group_alive(const struct proc *p)
{
	return p->pid > 0 && kill(-p->pid, 0) == 0;
}

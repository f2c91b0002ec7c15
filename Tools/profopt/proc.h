/* proc.h - starting children: own process group, output to a log file, exec failures
 * reported through a close-on-exec pipe (so "command not found" is told apart from a
 * command that ran and exited 127), exit statuses as a shell reports them. */
#ifndef PROFOPT_PROC_H
#define PROFOPT_PROC_H

#include <sys/types.h>

struct proc {
	pid_t pid;
	int exec_errno; /* errno of a failed exec, 0 if it ran */
};

/* Starts `cmd`: split into words and exec'd directly when it has no shell syntax,
 * otherwise run by /bin/sh -c.  Output (stdout and stderr) goes to log_fd (or is
 * inherited if log_fd < 0); stdin is /dev/null.  cwd may be NULL.
 * Returns 0, or -1 with p->exec_errno set when the program could not be executed. */
int proc_start(struct proc *p, const char *cmd, int log_fd, const char *cwd);

/* Same with an argv vector. */
int proc_start_argv(struct proc *p, char *const argv[], int log_fd, const char *cwd);

/* The exit code as a shell reports it: the code, or 128+N for signal N. */
int shell_status(int wait_status);

/* Describes a wait status: "exit 1", "killed by signal 11 (Segmentation fault)". */
const char *describe_status(int wait_status, char *out, int n);

/* Whether cmd needs a shell (has quotes, redirections, variables, globs, ...). */
int needs_shell(const char *cmd);

/* Sends sig to the child's whole process group. */
void proc_kill(const struct proc *p, int sig);
/* Whether the child's process group still has members (e.g. after its leader was reaped). */
int proc_group_alive(const struct proc *p);

#endif

/* proc.h - child processes: exec failures come back through a close-on-exec pipe, so "command
 * not found" is told apart from a command that ran and exited 127. */
#ifndef PROFOPT_PROC_H
#define PROFOPT_PROC_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

struct proc {
	pid_t pid;
	int exec_errno; /* errno of a failed exec, 0 if it ran */
};

/* Starts cmd in its own process group (by /bin/sh -c if it has shell syntax), stdin /dev/null,
 * output to log_fd (if >= 0): 0, or -1 with p->exec_errno set. */
int proc_start(struct proc *p, const char *cmd, int log_fd, const char *cwd);
int proc_start_argv(struct proc *p, char *const argv[], int log_fd, const char *cwd);
/* `profopt lock`'s COMMAND: in profopt's process group and stdio; on Linux, SIGTERM if profopt is killed. */
int proc_start_foreground(struct proc *p, char *const argv[]);

/* The exit code as a shell reports it: the code, or 128+N for signal N. */
int shell_status(int wait_status);
/* "exit 1", "killed by signal 11 (Segmentation fault)" */
const char *describe_status(int wait_status, char *out, int n);
/* s as one shell word, single-quoted if needed (malloc'd): the one way data enters a shell command. */
char *shell_quote(const char *s);
/* Whether cmd has shell syntax (quotes, redirections, variables, globs, ...). */
int needs_shell(const char *cmd);

/* To the child's whole process group. */
void proc_kill(const struct proc *p, int sig);
/* Whether the child's process group still has members (e.g. after its leader was reaped). */
int proc_group_alive(const struct proc *p);
/* A normal exit with status 0 (never run_child's negative results). */
int proc_exit_ok(int wait_status);

/* run_child() without options. */
int capture(char *const argv[], char **out);

/* How run_child() runs a program; every field may be left zero. */
struct run_opts {
	const char *cwd;
	char *const *env;            /* "NAME=VALUE" for the child only */
	double timeout;              /* seconds; 0: none */
	volatile sig_atomic_t *stop; /* becomes non-zero (a signal handler): the child is killed */
	int stderr_after;            /* stderr after all of stdout in *out, never inside a line of it */
	size_t keep;                 /* 0: all the output; else its first and last keep/2 bytes (a
				      * command may print without end: memory stays bounded) */
};
#define RUN_NOT_STARTED (-1)
#define RUN_TIMED_OUT (-2)
#define RUN_STOPPED (-3)

/* The one way profopt runs a tool: argv exec'd (never a shell), stdin /dev/null, stdout and stderr
 * into *out (NUL-terminated; out, outlen may be NULL).  The wait status or a RUN_ value (*out: why). */
int run_child(char *const argv[], const struct run_opts *o, char **out, size_t *outlen);

/* argv + args[0..n), per_run of them at a time (as xargs), each run's output to fn, a failed run's
 * too (a tool lists what it could read).  0, or the first failed run's status, its output in *why. */
typedef void (*batch_fn)(void *ctx, const char *out, size_t len, char *const *args, int first, int count);
int run_batches(char *const argv[], char *const *args, int n, int per_run, batch_fn fn, void *ctx, char **why);

/* CC ("ccache gcc -m64") as argv without a shell: an executable's name is one word; otherwise
 * blanks separate words, with '...', "..." and \ quoting, no expansion.  Free with free_words(). */
char **split_command(const char *cmd);
void free_words(char **words);

#endif

/* proc.h - starting children: own process group, output to a log file, exec failures
 * reported through a close-on-exec pipe (so "command not found" is told apart from a
 * command that ran and exited 127), exit statuses as a shell reports them. */
#ifndef PROFOPT_PROC_H
#define PROFOPT_PROC_H

#include <signal.h>
#include <stddef.h>
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

/* Starts argv as COMMAND of `profopt lock`: in profopt's process group (a Ctrl-C at the
 * terminal reaches it), with profopt's stdin, stdout and stderr; on Linux it gets SIGTERM
 * if profopt is killed.  Returns 0, or -1 with p->exec_errno set. */
int proc_start_foreground(struct proc *p, char *const argv[]);

/* The exit code as a shell reports it: the code, or 128+N for signal N. */
int shell_status(int wait_status);

/* Describes a wait status: "exit 1", "killed by signal 11 (Segmentation fault)". */
const char *describe_status(int wait_status, char *out, int n);

/* s as one shell word: as it is when it holds only characters no shell reads as syntax,
 * otherwise single-quoted (a ' becomes '\\'').  Malloc'd.  The one way data enters a shell
 * command. */
char *shell_quote(const char *s);

/* Whether cmd needs a shell (has quotes, redirections, variables, globs, ...). */
int needs_shell(const char *cmd);

/* Sends sig to the child's whole process group. */
void proc_kill(const struct proc *p, int sig);
/* Whether the child's process group still has members (e.g. after its leader was reaped). */
int proc_group_alive(const struct proc *p);

/* Whether a wait status (or run_child's result) is a normal exit with status 0. */
int proc_exit_ok(int wait_status);

/* Runs argv (no shell), captures stdout+stderr: run_child() without options.
 * Returns the wait status, or -1 if it could not be started. *out receives the output. */
int capture(char *const argv[], char **out);

/* How run_child() runs a program; every field may be left zero. */
struct run_opts {
	const char *cwd;
	char *const *env;            /* "NAME=VALUE" for the child only */
	double timeout;              /* seconds; 0: none */
	volatile sig_atomic_t *stop; /* becomes non-zero (a signal handler): the child is killed */
	int stderr_after;            /* stderr after all of stdout in *out, never inside a line of it */
};
#define RUN_NOT_STARTED (-1)
#define RUN_TIMED_OUT (-2)
#define RUN_STOPPED (-3)

/* The one way profopt runs a tool: argv exec'd directly (never a shell), stdin /dev/null,
 * stdout and stderr captured into *out (NUL-terminated, *outlen bytes; both may be NULL),
 * in its own process group.  Returns the wait status, or RUN_NOT_STARTED (*out then
 * says why), RUN_TIMED_OUT or RUN_STOPPED (the child's process group was killed). */
int run_child(char *const argv[], const struct run_opts *o, char **out, size_t *outlen);

/* Runs argv (NULL-terminated) followed by args[0..n), at most per_run of them at a time (as
 * xargs does), and hands each run's output to fn, a failed run's too (a tool lists what it
 * could read).  Returns 0, or the wait status of the first run that failed (RUN_NOT_STARTED:
 * the program did not start), its output then in *why (malloc'd; why may be NULL). */
typedef void (*batch_fn)(void *ctx, const char *out, size_t len, char *const *args, int first, int count);
int run_batches(char *const argv[], char *const *args, int n, int per_run, batch_fn fn, void *ctx, char **why);

/* Splits a command line such as CC ("ccache gcc -m64") into a NULL-terminated argv without a
 * shell: a string that names an executable file is one word (spaces, quotes and all);
 * otherwise words are separated by blanks, with '...', "..." and \ quoting and no expansion
 * of any kind.  Free with free_words(). */
char **split_command(const char *cmd);
void free_words(char **words);

#endif

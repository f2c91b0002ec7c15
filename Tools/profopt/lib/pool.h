/* pool.h - many commands, N at a time, each with a timeout, in one poll() loop woken by SIGCHLD.
 * A job is its whole process group: past its timeout, or left when the leader ends, the group
 * gets SIGTERM, then SIGKILL; SIGINT/SIGTERM/SIGHUP to profopt end every group first. */
#ifndef PROFOPT_POOL_H
#define PROFOPT_POOL_H

#include "lib/proc.h"

/* Seconds between SIGTERM and SIGKILL for a job past its timeout, or its stragglers. */
#define POOL_KILL_GRACE 5.0

enum job_state { JOB_PENDING, JOB_RUNNING, JOB_DONE };
enum job_result {
	RESULT_NONE, RESULT_PASSED, RESULT_FAILED, RESULT_CRASHED, RESULT_TIMEOUT, RESULT_NOT_STARTED,
	RESULT_PROFILE_LOST /* ran, but its profile could not be written (set by the caller) */
};

struct job {
	char *name;
	char *cmd;           /* shell-style command line, or a label when argv is set */
	char **argv;         /* when set, executed as is */
	char **env;          /* NAME=VALUE set for this job only (NULL-terminated), or NULL */
	char *log_path;
	enum job_state state;
	enum job_result result;
	struct proc proc;
	int status;          /* wait status when done */
	double start, end;   /* monotonic seconds */
	double term_sent;    /* when SIGTERM was sent for a timeout, 0 if not */
	double group_kill_at; /* when the group gets SIGKILL (timeout, stragglers), 0 if not due */
	int group_killed;    /* members of the group outlived the grace and got SIGKILL */
};

struct pool;
typedef void (*pool_tick_fn)(struct pool *pool, void *arg);
typedef void (*pool_done_fn)(struct pool *pool, struct job *job, void *arg);

struct pool {
	struct job *jobs;
	int njobs;
	int parallel;
	double timeout;      /* per job, seconds; 0 = none */
	const char *cwd;
	int running, done, failed; /* failed: anything but RESULT_PASSED */
	pool_tick_fn on_tick;
	pool_done_fn on_done;
	void *arg;
};

const char *job_result_name(enum job_result r);
/* 0, or the signal that interrupted profopt (the children then ended, the results incomplete). */
int pool_run(struct pool *pool);

#endif

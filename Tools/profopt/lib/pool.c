/* pool.c - the parallel job loop (see pool.h). */
#include "lib/pool.h"
#include "lib/output.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int wake_pipe[2] = {-1, -1};
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	int saved = errno;
	if (sig != SIGCHLD)
		interrupted = sig;
	if (write(wake_pipe[1], "x", 1) < 0) {}
	errno = saved;
}

const char *job_result_name(enum job_result r)
{
	static const char *const names[] = {"none", "passed", "failed", "crashed", "timeout", "not-started",
					    "profile-lost"};
	return (unsigned)r < sizeof names / sizeof *names ? names[r] : "none";
}

static void start_job(struct pool *pool, struct job *job)
{
	char err[600];
	int fd = output_open_log(job->log_path, 0, err, sizeof err);
	if (fd < 0)
		fatal("the log: %s", err);
	dprintf(fd, "$ %s\n", job->cmd);
	job->start = now();
	job->state = JOB_RUNNING;
	/* profopt is single-threaded and sets these before every start: the child inherits
	 * this job's values, and the next job overwrites them with its own. */
	for (char **e = job->env; e && *e; e++)
		putenv(*e);
	int rc = job->argv ? proc_start_argv(&job->proc, job->argv, fd, pool->cwd)
			   : proc_start(&job->proc, job->cmd, fd, pool->cwd);
	if (rc < 0) {
		dprintf(fd, "profopt: cannot execute: %s\n", strerror(job->proc.exec_errno));
		job->state = JOB_DONE;
		job->result = RESULT_NOT_STARTED;
		job->status = 127 << 8;
		job->end = now();
		pool->done++;
		pool->failed++;
		if (pool->on_done)
			pool->on_done(pool, job, pool->arg);
	} else {
		pool->running++;
	}
	close(fd);
}

/* A job's process group; once its leader is reaped, the group only (never the pid alone,
 * which another process may have been given since). */
static void signal_group(const struct job *job, int sig)
{
	if (job->state == JOB_RUNNING)
		proc_kill(&job->proc, sig);
	else if (job->proc.pid > 0)
		kill(-job->proc.pid, sig);
}

static void finish_job(struct pool *pool, struct job *job, int status)
{
	job->status = status;
	job->end = now();
	job->state = JOB_DONE;
	if (job->term_sent > 0)
		job->result = RESULT_TIMEOUT;
	else if (WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) > 128 && WEXITSTATUS(status) < 160))
		job->result = RESULT_CRASHED; /* 128+N: a shell reporting its child's death by signal N */
	else if (!job->argv && WIFEXITED(status) && (WEXITSTATUS(status) == 126 || WEXITSTATUS(status) == 127))
		job->result = RESULT_NOT_STARTED; /* the shell found no such command, or could not run it */
	else if (proc_exit_ok(status))
		job->result = RESULT_PASSED;
	else
		job->result = RESULT_FAILED;
	pool->running--;
	pool->done++;
	if (job->result != RESULT_PASSED)
		pool->failed++;
	/* Processes left in the group once the leader is gone are stragglers: they would write
	 * their counts after the run.  (Checked at once: the group's id cannot be reused while
	 * it has members.) */
	int stragglers = proc_group_alive(&job->proc);
	if (stragglers) {
		signal_group(job, SIGTERM);
		if (job->group_kill_at == 0)
			job->group_kill_at = job->end + POOL_KILL_GRACE;
	}
	/* Leave the outcome at the end of the job's log, where people look first. */
	char err[600];
	int fd = output_open_log(job->log_path, 1, err, sizeof err);
	if (fd >= 0) {
		char what[96];
		dprintf(fd, "\nprofopt: %s (%s) after %.1f s\n", job_result_name(job->result),
			describe_status(status, what, sizeof what), job->end - job->start);
		if (stragglers)
			dprintf(fd, "profopt: processes of this task were still running after it ended: "
				    "stopped (SIGTERM, then SIGKILL to any still running %.0f s later)\n", POOL_KILL_GRACE);
		close(fd);
	}
	if (pool->on_done)
		pool->on_done(pool, job, pool->arg);
}

static void reap(struct pool *pool)
{
	int status;
	pid_t pid;
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		for (int i = 0; i < pool->njobs; i++) {
			struct job *job = &pool->jobs[i];
			if (job->state == JOB_RUNNING && job->proc.pid == pid) {
				finish_job(pool, job, status);
				break;
			}
		}
	}
}

static int groups_pending(const struct pool *pool)
{
	for (int i = 0; i < pool->njobs; i++)
		if (pool->jobs[i].group_kill_at > 0)
			return 1;
	return 0;
}

static void enforce_timeouts(struct pool *pool)
{
	double t = now();
	for (int i = 0; i < pool->njobs; i++) {
		struct job *job = &pool->jobs[i];
		if (job->state == JOB_RUNNING && pool->timeout > 0 && job->term_sent == 0 &&
		    t - job->start > pool->timeout) {
			/* SIGTERM first: a process that dies of it does not write half a profile. */
			proc_kill(&job->proc, SIGTERM);
			job->term_sent = t;
			job->group_kill_at = t + POOL_KILL_GRACE;
		}
		/* SIGKILL once the grace ran out, whether the leader lives or not: members still there
		 * outlived the grace, so what they counted is lost, and said */
		if (job->group_kill_at > 0 && t >= job->group_kill_at) {
			job->group_killed |= proc_group_alive(&job->proc);
			signal_group(job, SIGKILL);
			job->group_kill_at = 0;
		}
	}
}

/* sig to every group still running, or with stragglers, which then get SIGKILL at kill_at (0: not due). */
static void signal_all(struct pool *pool, int sig, double kill_at)
{
	for (int i = 0; i < pool->njobs; i++)
		if (pool->jobs[i].state == JOB_RUNNING || pool->jobs[i].group_kill_at > 0) {
			signal_group(&pool->jobs[i], sig);
			pool->jobs[i].group_kill_at = kill_at;
		}
}

/* profopt was interrupted: SIGTERM to every group, SIGKILL after the grace period; the leaders are reaped. */
static void stop_all(struct pool *pool)
{
	double deadline = now() + POOL_KILL_GRACE;
	signal_all(pool, SIGTERM, deadline);
	while (pool->running > 0 && now() < deadline) {
		reap(pool);
		usleep(50000);
	}
	signal_all(pool, SIGKILL, 0);
	while (pool->running > 0 && waitpid(-1, NULL, 0) > 0)
		pool->running--;
}

int pool_run(struct pool *pool)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGCHLD};
	struct sigaction sa, old[4];
	if (pipe2(wake_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		fatal("pipe: %s", strerror(errno));
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 4; i++)
		sigaction(sigs[i], &sa, &old[i]);
	interrupted = 0;

	int next = 0;
	/* Until every job ended and every group due a SIGKILL got it. */
	while ((pool->done < pool->njobs || groups_pending(pool)) && !interrupted) {
		while (pool->running < pool->parallel && next < pool->njobs)
			start_job(pool, &pool->jobs[next++]);
		if (pool->on_tick)
			pool->on_tick(pool, pool->arg);
		struct pollfd pfd = {.fd = wake_pipe[0], .events = POLLIN};
		if ((pool->running > 0 || groups_pending(pool)) && poll(&pfd, 1, pool->running > 0 ? 1000 : 100) > 0) {
			char drain[64];
			while (read(wake_pipe[0], drain, sizeof drain) > 0)
				;
		}
		reap(pool);
		enforce_timeouts(pool);
	}

	int sig = interrupted;
	if (sig)
		stop_all(pool);
	for (int i = 0; i < 4; i++)
		sigaction(sigs[i], &old[i], NULL);
	close(wake_pipe[0]);
	close(wake_pipe[1]);
	return sig;
}

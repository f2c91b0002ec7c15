/* test_proc.c - unit tests of child process handling and the parallel pool. */
#include "lib/pool.h"
#include "lib/proc.h"
#include "unit.h"
#include "lib/util.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

TEST(needs_shell)
{
	CHECK(!needs_shell("./python -m test --pgo test_json"));
	CHECK(needs_shell("a | b"));
	CHECK(needs_shell("X=1 prog"));
	CHECK(needs_shell("echo $HOME"));
	CHECK(needs_shell("echo 'q'"));
}

TEST(shell_status)
{
	CHECK_INT(shell_status(3 << 8), 3);   /* exit 3 */
	CHECK_INT(shell_status(SIGKILL), 137); /* killed by 9 */
}

TEST(exec_failure_is_reported)
{
	struct proc p;
	CHECK_INT(proc_start(&p, "/nonexistent/program arg", -1, NULL), -1);
	CHECK_INT(p.exec_errno, 2); /* ENOENT */
}

static struct job make_job(const char *name, const char *cmd, const char *log)
{
	struct job j = {0};
	j.name = (char *)name;
	j.cmd = (char *)cmd;
	j.log_path = (char *)log;
	return j;
}

TEST(pool_results_and_timeout)
{
	char dir[] = "/tmp/profopt-unit-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char *l1 = xasprintf("%s/1.log", dir), *l2 = xasprintf("%s/2.log", dir), *l3 = xasprintf("%s/3.log", dir),
	     *l4 = xasprintf("%s/4.log", dir), *l5 = xasprintf("%s/5.log", dir);
	struct job jobs[5] = {
		make_job("ok", "true", l1),
		make_job("fails", "sh -c 'exit 3'", l2),
		make_job("crash", "sh -c 'kill -SEGV $$'", l3),
		make_job("slow", "sleep 30", l4),
		make_job("missing", "/nonexistent/x", l5),
	};
	struct pool pool = {.jobs = jobs, .njobs = 5, .parallel = 3, .timeout = 1.0};
	double t0 = now();
	CHECK_INT(pool_run(&pool), 0);
	CHECK(now() - t0 < 10); /* the sleeper was stopped by the timeout */
	CHECK_INT(jobs[0].result, RESULT_PASSED);
	CHECK_INT(jobs[1].result, RESULT_FAILED);
	CHECK_INT(shell_status(jobs[1].status), 3);
	CHECK_INT(jobs[2].result, RESULT_CRASHED);
	CHECK_INT(jobs[3].result, RESULT_TIMEOUT);
	CHECK_INT(jobs[4].result, RESULT_NOT_STARTED);
	CHECK_INT(pool.done, 5);
	CHECK_INT(pool.failed, 4);
	char *log = read_file(l2, NULL);
	CHECK(log && strstr(log, "$ sh -c 'exit 3'") && strstr(log, "profopt: failed (exit 3)"));
	free(log);
	char *rm = xasprintf("rm -rf %s", dir);
	if (system(rm) != 0) {}
	free(rm);
	free(l1), free(l2), free(l3), free(l4), free(l5);
}

static char batch_out[256];

static void keep_batch(void *ctx, const char *out, size_t len, char *const *args, int first, int count)
{
	(void)ctx, (void)args, (void)first, (void)count;
	snprintf(batch_out, sizeof batch_out, "%.*s", (int)len, out);
}

/* A tool's warning between two pieces of one buffered stdout line (llvm-nm's "no symbols" at a
 * buffer boundary) must not split that line: what run_batches hands over is stdout, then stderr. */
TEST(batch_stderr_never_inside_a_stdout_line)
{
	char *argv[] = {"sh", "-c", "printf 'a.o: fn_'; printf 'warning: b.o: no symbols\\n' >&2; printf 'a T\\n'", "sh", NULL};
	char *one[] = {"x", NULL};
	CHECK_INT(run_batches(argv, one, 1, 1, keep_batch, NULL, NULL), 0);
	CHECK_STR(batch_out, "a.o: fn_a T\nwarning: b.o: no symbols\n");
}

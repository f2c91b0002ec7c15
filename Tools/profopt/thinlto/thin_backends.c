/* thin_backends.c - ThinLTO's backend compiles on workers or here (see thin_backends.h). */
#include "thinlto/thin_backends.h"
#include "lib/elf.h"
#include "lib/pool.h"
#include "lib/progress.h"
#include "lib/tarfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *quoted_words(char *const *words)
{
	struct buf b = {0};
	for (int i = 0; words[i]; i++) {
		char *q = shell_quote(words[i]);
		buf_printf(&b, "%s%s", i ? " " : "", q);
		free(q);
	}
	return b.data;
}

/* The backend's own command: module in, object out (index: where this machine or the worker has
 * it).  Its words, as the jobs', are left to the exit. */
static char **backend_argv(const struct thin_plan *p, const char *module, const char *index, const char *out)
{
	int n = 0;
	while (p->compile[n])
		n++;
	char **argv = xcalloc(n + 9, sizeof *argv);
	memcpy(argv, p->compile, n * sizeof *argv);
	const char *tail[] = {"-Wno-unused-command-line-argument", "-c", "-x", "ir", module,
			      xasprintf("-fthinlto-index=%s", index), "-o", out};
	memcpy(argv + n, tail, sizeof tail);
	return argv;
}

/* The most a worker may send for a module: a native object is a few times its bitcode at most,
 * and a worker that sends without end must not fill this machine's disk. */
static long long object_limit(const struct thin_module *m)
{
	struct stat st;
	long long module = stat(m->path, &st) == 0 ? (long long)st.st_size : 0;
	return ((64LL << 20) + 16 * module) / 512 * 512; /* ulimit -f counts 512-byte blocks */
}

/* Job i on m's worker: DIR/jobs/i.tar, the module, its index beside it and the modules it imports,
 * named from the directory they and the build's share (ROOT), and the command
 * `ulimit -f LIMIT && WORKER 'unpack; cd SUB; compile; cat out.o' <TAR >NATIVE.tmp`, where SUB is
 * the build's place under ROOT, so that names with ".." find the same files in the worker's
 * temporary directory; past the limit (object_limit) the write fails and the job with it.  A job
 * that fails at once ("false") with m->why_here set when no worker can have the files. */
static char *remote_job(const struct thin_plan *p, struct thin_module *m, int i)
{
	char *cwd = getcwd(NULL, 0);
	int n = 2;
	while (m->imports[n - 2])
		n++;
	const char **names = xcalloc(n, sizeof *names);
	char **abs = xcalloc(n, sizeof *abs);
	names[0] = m->path, names[1] = xasprintf("%s.thinlto.bc", m->path);
	memcpy(names + 2, m->imports, (n - 2) * sizeof *names);
	size_t root = strlen(cwd);
	for (int k = 0; k < n; k++) {
		if (names[k][0] == '/') {
			m->why_here = "a module is named by an absolute path, which no worker has";
			return "false";
		}
		abs[k] = xasprintf("%s/%s", cwd, names[k]); /* "." and ".." resolved as text */
		normalize_path(abs[k]);
		size_t shared = common_dir_length(cwd, abs[k]);
		root = shared < root ? shared : root;
	}
	char *tar = xasprintf("%s/%d.tar", p->job_dir, i);
	char *sub = shell_quote(cwd[root] ? cwd + root + 1 : ".");
	struct tar_out *t = tar_create(tar, 0);
	for (int k = 0; k < n; k++)
		if (k < 2 || strcmp(names[k], m->path))
			tar_add_file(t, abs[k] + root + 1, k == 1 ? m->index : names[k]);
	tar_close(t);
	char *compile = quoted_words(backend_argv(p, m->path, names[1], "thin-link-out.o"));
	char *script = xasprintf("set -e; d=$(mktemp -d); trap 'rm -rf \"$d\"' EXIT; cd \"$d\"; tar xf -; mkdir -p %s; cd %s; "
				 "%s >&2; cat thin-link-out.o",
				 sub, sub, compile);
	return xasprintf("ulimit -f %lld && %s %s <%s >%s", object_limit(m) / 512, m->worker,
			 shell_quote(script), shell_quote(tar), shell_quote(xasprintf("%s.tmp", m->native)));
}

static void no_section(const char *name, void *arg)
{
	(void)name, (void)arg;
}

/* The object a worker sent for a job that ended with RESULT: moved into place when it is a whole
 * ELF file (its headers and sections inside it, so that a reply cut short is not linked) of
 * less than the limit; NULL, or why it is not used (and removed). */
static const char *take_remote_object(const struct thin_module *m, enum job_result result)
{
	char err[300], *tmp = xasprintf("%s.tmp", m->native);
	struct stat st;
	int sent = stat(tmp, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
	const char *why = NULL;
	if (sent && st.st_size >= object_limit(m))
		why = "the worker sent more than an object's limit";
	else if (result != RESULT_PASSED)
		why = result == RESULT_TIMEOUT ? "the worker took longer than the timeout" : "it failed on the worker";
	else if (!sent)
		why = "the worker sent no object";
	else if (elf_sections(tmp, no_section, NULL, err, sizeof err) != 0)
		why = "the worker sent no whole object";
	else if (rename(tmp, m->native) < 0)
		why = "its object could not be moved into place";
	if (why)
		unlink(tmp);
	return why;
}

/* A round's progress: its jobs run here when they have an argv, else on workers. */
static void show(struct pool *pool, void *progress)
{
	char line[160];
	snprintf(line, sizeof line, "thin-link: backends %s [%d/%d] %d failed",
		 pool->jobs[0].argv ? "here" : "on workers", pool->done, pool->njobs, pool->failed);
	progress_show(progress, line, 0);
}

/* One pool over the modules that have a worker (remote) or none: remote ones by their worker, the
 * rest here; how many made no object. */
static int run_round(const struct thin_plan *p, struct thin_module *m, int n, int remote,
		     struct progress *progress)
{
	struct job *jobs = xcalloc(n + 1, sizeof *jobs);
	int *idx = xcalloc(n + 1, sizeof *idx), k = 0;
	for (int i = 0; i < n; i++)
		if (!m[i].worker == !remote)
			idx[k++] = i;
	if (!k)
		return 0;
	for (int j = 0; j < k; j++) {
		struct thin_module *mod = &m[idx[j]];
		jobs[j].name = mod->path;
		jobs[j].log_path = xasprintf("%s/%d.%s.log", p->job_dir, idx[j], remote ? "worker" : "here");
		jobs[j].argv = remote ? NULL : backend_argv(p, mod->path, mod->index, mod->native);
		jobs[j].cmd = remote ? remote_job(p, mod, idx[j]) : quoted_words(jobs[j].argv);
	}
	struct pool pool = {.jobs = jobs, .njobs = k, .parallel = p->jobs, .timeout = p->timeout, .on_tick = show,
			    .arg = progress};
	int sig = pool_run(&pool);
	progress_clear(progress);
	if (sig)
		fatal("stopped by signal %d: the backends did not finish", sig);
	int failed = 0;
	for (int j = 0; j < k; j++) {
		struct thin_module *mod = &m[idx[j]];
		const struct job *job = &jobs[j];
		char what[96];
		mod->seconds = job->end - job->start;
		int packed = remote && !mod->why_here; /* else it never ran: why_here says why */
		const char *unused = packed ? take_remote_object(mod, job->result) : NULL;
		mod->failed = remote ? !packed || unused : job->result != RESULT_PASSED;
		if (mod->failed && (packed || !remote))
			fprintf(stderr, "  %s: %s (%s) after %.1f s; log: %s\n", printable(job->name),
				job_result_name(job->result), describe_status(job->status, what, sizeof what),
				job->end - job->start, printable(job->log_path));
		if (mod->failed) {
			mod->why_here = packed ? unused : mod->why_here;
			mod->worker = NULL;
			failed++;
		}
		if (packed) /* a copy of the module and its imports: python's add up to a GB */
			unlink(xasprintf("%s/%d.tar", p->job_dir, idx[j]));
	}
	return failed;
}

int thin_backends_run(const struct thin_plan *p, struct thin_module *m, int n)
{
	if (make_dirs(p->job_dir, 0777) < 0)
		fatal("cannot make %s: %s", p->job_dir, strerror(errno));
	struct progress progress;
	progress_init(&progress, 30);
	for (int i = 0; i < n; i++)
		m[i].worker = p->nworkers ? p->workers[i % p->nworkers] : NULL;
	int failed = run_round(p, m, n, 1, &progress);
	return failed && !p->fallback ? failed : run_round(p, m, n, 0, &progress);
}

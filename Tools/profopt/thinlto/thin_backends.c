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
 * it).  One allocation, the -fthinlto-index= word after the pointers: free(argv) frees it all. */
static char **backend_argv(const struct thin_plan *p, const char *module, const char *index, const char *out)
{
	int n = 0;
	while (p->compile[n])
		n++;
	size_t words = (n + 9) * sizeof(char *), flag = strlen("-fthinlto-index=") + strlen(index) + 1;
	char **argv = xcalloc(1, words + flag);
	memcpy(argv, p->compile, n * sizeof *argv);
	const char *tail[] = {"-Wno-unused-command-line-argument", "-c", "-x", "ir", module, NULL, "-o", out};
	memcpy(argv + n, tail, sizeof tail);
	argv[n + 5] = (char *)argv + words;
	snprintf(argv[n + 5], flag, "-fthinlto-index=%s", index);
	return argv;
}

/* The tar a worker unpacks: the module, its index beside it and the modules it imports, named
 * from the directory they and the build's share (ROOT); *sub is the build's place under it,
 * where the worker compiles, so that names with ".." find the same files there. */
static const char *pack_job(const struct thin_plan *p, const struct thin_module *m, int i, char **tar, char **sub)
{
	char *cwd = getcwd(NULL, 0), *index = xasprintf("%s.thinlto.bc", m->path);
	int n = 2;
	while (m->imports[n - 2])
		n++;
	const char **names = xcalloc(n, sizeof *names), **files = xcalloc(n, sizeof *files);
	char **abs = xcalloc(n, sizeof *abs);
	names[0] = m->path, files[0] = m->path, names[1] = index, files[1] = m->index;
	for (int k = 2; k < n; k++)
		names[k] = files[k] = m->imports[k - 2];
	size_t root = strlen(cwd);
	const char *why = NULL;
	for (int k = 0; k < n; k++) {
		if (names[k][0] == '/') {
			why = "a module is named by an absolute path, which no worker has";
			break;
		}
		abs[k] = xasprintf("%s/%s", cwd, names[k]); /* "." and ".." resolved as text */
		normalize_path(abs[k]);
		size_t shared = common_dir_length(cwd, abs[k]);
		root = shared < root ? shared : root;
	}
	if (!why) {
		*tar = xasprintf("%s/%d.tar", p->job_dir, i);
		*sub = xstrdup(cwd[root] ? cwd + root + 1 : ".");
		struct tar_out *t = tar_create(*tar, 0);
		for (int k = 0; k < n; k++)
			if (k < 2 || strcmp(names[k], m->path))
				tar_add_file(t, abs[k] + root + 1, files[k]);
		tar_close(t);
	}
	for (int k = 0; k < n; k++)
		free(abs[k]);
	free(abs), free(names), free(files), free(index), free(cwd);
	return why;
}

/* The most a worker may send for a module: a native object is a few times its bitcode at most,
 * and a worker that sends without end must not fill this machine's disk. */
static long long object_limit(const struct thin_module *m)
{
	struct stat st;
	long long module = stat(m->path, &st) == 0 ? (long long)st.st_size : 0;
	return ((64LL << 20) + 16 * module) / 512 * 512; /* ulimit -f counts 512-byte blocks */
}

/* `ulimit -f LIMIT && WORKER 'unpack; cd SUB; compile; cat out.o' <TAR >NATIVE.tmp`: the worker's
 * temporary directory stands for ROOT, the names inside it the build's relative ones; past the
 * limit (object_limit) the write fails and the job with it. */
static char *remote_command(const struct thin_plan *p, const char *worker, const struct thin_module *m,
			    const char *tar, const char *sub)
{
	char *index = xasprintf("%s.thinlto.bc", m->path);
	char **argv = backend_argv(p, m->path, index, "thin-link-out.o");
	char *compile = quoted_words(argv), *qsub = shell_quote(sub);
	char *script = xasprintf("set -e; d=$(mktemp -d); trap 'rm -rf \"$d\"' EXIT; cd \"$d\"; tar xf -; mkdir -p %s; cd %s; "
				 "%s >&2; cat thin-link-out.o",
				 qsub, qsub, compile);
	char *qscript = shell_quote(script), *qtar = shell_quote(tar), *out = xasprintf("%s.tmp", m->native);
	char *qout = shell_quote(out);
	char *cmd = xasprintf("ulimit -f %lld && %s %s <%s >%s", object_limit(m) / 512, worker, qscript, qtar, qout);
	free(argv);
	free(index), free(compile), free(qsub), free(script), free(qscript), free(qtar), free(out), free(qout);
	return cmd;
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
	free(tmp);
	return why;
}

struct run_state {
	struct progress progress;
	const char *what;
};

static void show(struct pool *pool, void *arg)
{
	struct run_state *s = arg;
	char line[160];
	snprintf(line, sizeof line, "thin-link: %s [%d/%d] %d failed", s->what, pool->done, pool->njobs, pool->failed);
	progress_show(&s->progress, line, 0);
}

static void tell_failure(const struct job *job, struct run_state *s)
{
	char what[96];
	progress_clear(&s->progress);
	fprintf(stderr, "  %s: %s (%s) after %.1f s; log: %s\n", printable(job->name), job_result_name(job->result),
		describe_status(job->status, what, sizeof what), job->end - job->start, printable(job->log_path));
}

/* One pool over the modules listed in idx[0..n): remote ones by their worker, the rest here. */
static int run_round(const struct thin_plan *p, struct thin_module *m, const int *idx, int n, int remote,
		     struct run_state *s)
{
	struct job *jobs = xcalloc(n, sizeof *jobs);
	for (int k = 0; k < n; k++) {
		struct thin_module *mod = &m[idx[k]];
		jobs[k].name = mod->path;
		jobs[k].log_path = xasprintf("%s/%d.%s.log", p->job_dir, idx[k], remote ? "worker" : "here");
		if (remote) {
			char *tar = NULL, *sub = NULL;
			mod->why_here = pack_job(p, mod, idx[k], &tar, &sub);
			jobs[k].cmd = mod->why_here ? xstrdup("false") : remote_command(p, mod->worker, mod, tar, sub);
			free(tar), free(sub);
		} else {
			jobs[k].argv = backend_argv(p, mod->path, mod->index, mod->native);
			jobs[k].cmd = quoted_words(jobs[k].argv);
		}
	}
	struct pool pool = {.jobs = jobs, .njobs = n, .parallel = p->jobs, .timeout = p->timeout, .on_tick = show,
			    .arg = s};
	s->what = remote ? "backends on workers" : "backends here";
	int sig = pool_run(&pool);
	progress_clear(&s->progress);
	if (sig)
		fatal("stopped by signal %d: the backends did not finish", sig);
	int failed = 0;
	for (int k = 0; k < n; k++) {
		struct thin_module *mod = &m[idx[k]];
		mod->seconds = jobs[k].end - jobs[k].start;
		int packed = remote && !mod->why_here; /* else it never ran: why_here says why */
		const char *unused = packed ? take_remote_object(mod, jobs[k].result) : NULL;
		mod->failed = remote ? !packed || unused : jobs[k].result != RESULT_PASSED;
		if (mod->failed && (packed || !remote))
			tell_failure(&jobs[k], s);
		if (mod->failed) {
			mod->why_here = packed ? unused : mod->why_here;
			mod->worker = NULL;
			failed++;
		}
		if (packed) {
			char *tar = xasprintf("%s/%d.tar", p->job_dir, idx[k]);
			unlink(tar); /* a copy of the module and its imports: python's add up to a GB */
			free(tar);
		}
		free(jobs[k].log_path), free(jobs[k].cmd), free(jobs[k].argv);
	}
	free(jobs);
	return failed;
}

int thin_backends_run(const struct thin_plan *p, struct thin_module *m, int n)
{
	int nworkers = 0;
	while (p->workers && p->workers[nworkers])
		nworkers++;
	if (make_dirs(p->job_dir, 0777) < 0)
		fatal("cannot make %s: %s", p->job_dir, strerror(errno));
	struct run_state s = {0};
	progress_init(&s.progress, 30);
	int *idx = xcalloc(n ? n : 1, sizeof *idx), k = 0, failed = 0;
	for (int i = 0; i < n; i++) {
		m[i].worker = nworkers ? p->workers[i % nworkers] : NULL;
		if (m[i].worker)
			idx[k++] = i;
	}
	if (k)
		failed = run_round(p, m, idx, k, 1, &s);
	if (failed && !p->fallback) {
		free(idx);
		return failed;
	}
	k = 0;
	for (int i = 0; i < n; i++)
		if (!m[i].worker)
			idx[k++] = i;
	failed = k ? run_round(p, m, idx, k, 0, &s) : 0;
	free(idx);
	return failed;
}

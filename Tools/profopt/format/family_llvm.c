/* family_llvm.c - LLVM's profiles (family.h): each run writes a raw profile (.profraw) where
 * LLVM_PROFILE_FILE says; llvm-profdata merges them, weighted by workload, into the one
 * .profdata the rebuild reads, sealed (its SHA-256 beside it) so that damage after the merge is
 * found before the rebuild. */
#include "format/family.h"
#include "format/fingerprint.h"
#include "format/profraw.h"
#include "format/tooltext.h"
#include "lib/output.h"
#include "lib/proc.h"
#include "lib/util.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int check_profraw(const char *path, char *why, size_t n)
{
	struct profraw_info info;
	return profraw_read(path, &info, why, n);
}

static void train_env(struct option_list *env, const char *dir, const char *workload, const char *pattern)
{
	option_list_add(env, xasprintf("LLVM_PROFILE_FILE=%s%s%s/%s", dir, workload ? "/" : "", workload ? workload : "",
				       pattern));
}

/* ---- merge ---- */

/* The seal of a merged profile: its fingerprint (SHA-256, size) in FILE.sha256, one entry. */
static void profile_fingerprint(const char *profdata, struct fingerprint *m)
{
	char *abs = resolve_path(profdata);
	fingerprint_files(m, &abs, 1);
	free(abs);
	if (m->n != 1 || !m->e[0].hash[0])
		fatal("%s: cannot be read", profdata);
}

/* The merged profile must be non-empty and read by llvm-profdata; sealed is its recorded
 * fingerprint, compared when given. */
static void check_profdata(const char *tool, const char *profdata, const char *seal)
{
	struct stat st;
	char why[512];
	if (stat(profdata, &st) < 0)
		fatal("no merged profile %s: %s", profdata, strerror(errno));
	if (st.st_size == 0)
		fatal("damaged profile: %s is empty (0 bytes)", profdata);
	if (profraw_tool_reads(tool, profdata, why, sizeof why) < 0)
		fatal("damaged profile: %s: %s cannot read it: %s", profdata, tool, why);
	if (!seal || access(seal, F_OK) != 0)
		return;
	struct fingerprint m, cur;
	if (fingerprint_read(&m, seal, why, sizeof why) < 0)
		fatal("damaged seal: %s", why);
	if (m.n != 1)
		fatal("damaged seal %s: %d files in it, expected 1 (actual/expected)", seal, m.n);
	profile_fingerprint(profdata, &cur);
	if (strcmp(m.e[0].hash, cur.e[0].hash) != 0 || m.e[0].size != cur.e[0].size)
		fatal("damaged profile: %s changed since it was merged: %lld bytes now, %lld when sealed "
		      "(actual/expected), sha256 %.12s..., expected %.12s... (%s)",
		      profdata, cur.e[0].size, m.e[0].size, cur.e[0].hash, m.e[0].hash, seal);
	fingerprint_free(&m);
	fingerprint_free(&cur);
}

static void seal_profdata(const char *tool, const char *profdata)
{
	char *seal = xasprintf("%s.sha256", profdata);
	output_check(seal); /* before the unlink: never a device */
	unlink(seal);
	check_profdata(tool, profdata, NULL);
	struct fingerprint m;
	profile_fingerprint(profdata, &m);
	fingerprint_write(&m, seal);
	fingerprint_free(&m);
	free(seal);
}

/* One line of llvm-profdata's --input-files list: "WEIGHT,FILE" always, since a bare line
 * with a comma is read as a weight; the list is split at newlines and trimmed of blanks. */
static void add_input_line(struct buf *b, long weight, const char *path)
{
	size_t n = strlen(path);
	if (strpbrk(path, "\n\r") || n == 0 || path[0] == ' ' || path[0] == '\t' || path[n - 1] == ' ' || path[n - 1] == '\t')
		fatal("cannot merge '%s': llvm-profdata's input list cannot carry a file name with a newline, "
		      "a carriage return or leading or trailing blanks (rename it)", printable(path));
	buf_printf(b, "%ld,%s\n", weight, path);
}

/* clang: one llvm-profdata merge over every workload's files, listed in OUTPUT.inputs; the tool
 * writes the output's temporary file (output.h), renamed into place when it succeeded. */
static void merge_clang(const struct workload *w, int nwork, const char *tool, const char *output)
{
	struct buf b = {0};
	for (int k = 0; k < nwork; k++)
		for (int i = 0; i < w[k].files.n; i++)
			add_input_line(&b, w[k].weight, w[k].files.paths[i]);
	char *list = xasprintf("%s.inputs", output);
	output_write(list, b.data, b.len);
	buf_free(&b);
	struct output out;
	char err[600];
	if (output_open(&out, output, err, sizeof err) < 0)
		fatal("%s", err);
	close(out.fd);
	out.fd = -1;
	char *out_opt = xasprintf("-output=%s", out.tmp), *list_opt = xasprintf("--input-files=%s", list);
	/* any invalid input fails the merge (llvm-profdata's "all" mode would skip it) */
	char *argv[] = {(char *)tool, "merge", "--failure-mode=any", out_opt, list_opt, NULL};
	char *text = NULL;
	int st = capture(argv, &text);
	if (st < 0)
		fatal("cannot run %s: is llvm-profdata installed? (configure --with-llvm-profdata=PATH)", tool);
	if (!proc_exit_ok(st)) {
		output_abort(&out);
		fatal("%s merge failed:\n%s", tool, text ? text : "");
	}
	if (text && *text)
		fputs(text, stderr);
	if (output_commit(&out, err, sizeof err) < 0)
		fatal("%s", err);
	free(text);
	free(out_opt);
	free(list_opt);
	free(list);
}

static void merge_usage(const struct merge_job *m)
{
	if ((m->check_only || m->seal) && !m->profdata)
		usage_error("--check-only and --seal with clang check --profdata=FILE");
	if (!m->dir && !m->profdata)
		usage_error("--profile-dir=DIR is required");
	if (m->from)
		usage_error("--from is for gcc's .gcda trees (clang: --profile-dir)");
}

/* Each workload's raw profiles, weighted; the merged result is then checked as usual. */
static void merge_workloads(struct merge_job *m, const char *output)
{
	for (int k = 0; k < m->nwork; k++) {
		struct workload *w = &m->work[k];
		find_files_all(&w->files, w->dir, ".profraw", m->skip);
		file_list_sort(&w->files);
		fprintf(stderr, "merge: workload %s: %d raw files, weight %ld\n", printable(w->dir), w->files.n, w->weight);
		if (w->files.n == 0)
			fatal("no profile data for the workload in %s: did its training run?", w->dir);
	}
	merge_clang(m->work, m->nwork, m->tool, output);
	for (int k = 0; k < m->nwork; k++) {
		file_list_free(&m->work[k].files);
		free(m->work[k].dir);
	}
}

/* --check-only: the profile the rebuild is about to read; --seal: the profile sealed; else
 * every raw file under dir checked, merged into --output and sealed. */
static void merge(struct merge_job *m)
{
	char *seal = xasprintf("%s.sha256", m->profdata ? m->profdata : ""), outbytes[32], bytes[32];
	if (m->check_only) {
		check_profdata(m->tool, m->profdata, seal);
		fprintf(stderr, "merge: %s checked: %s reads it%s\n", printable(m->profdata), printable(m->tool),
			access(seal, F_OK) == 0 ? ", unchanged since it was merged" : "");
	} else if (m->seal) {
		seal_profdata(m->tool, m->profdata);
		fprintf(stderr, "merge: %s checked and sealed (%s)\n", printable(m->profdata), printable(seal));
	} else {
		char *default_out = xasprintf("%s/merged.profdata", m->dir);
		const char *output = m->output ? m->output : default_out;
		family_find_raw(&family_llvm, m, m->nwork > 0);
		if (m->nwork > 0)
			merge_workloads(m, output);
		else
			merge_clang(&(struct workload){(char *)m->dir, 1, m->files}, 1, m->tool, output);
		seal_profdata(m->tool, output);
		struct stat st;
		m->output_bytes = stat(output, &st) == 0 ? (long long)st.st_size : 0;
		format_bytes(bytes, sizeof bytes, m->files.total_bytes);
		format_bytes(outbytes, sizeof outbytes, m->output_bytes);
		fprintf(stderr, "merge: %d raw profiles (%s), all well-formed, merged into %s (%s)\n", m->files.n, bytes,
			printable(output), outbytes);
		free(default_out);
	}
	free(seal);
}

/* ---- report: `llvm-profdata show` on the merged profile ---- */

/* Strips the file prefix clang gives local functions in profiles ("file.c:f" or "file.c;f"). */
static const char *bare_name(const char *s)
{
	const char *p = strrchr(s, ';');
	if (!p)
		p = strrchr(s, ':');
	return p ? p + 1 : s;
}

/* "file.c:f" or "file.c;f" (local functions) -> file; others have no file in the profile. */
static void split_profile_name(const char *s, struct fn_stat *f)
{
	const char *name = bare_name(s);
	int named = name > s + 1 && *name;
	f->file = named ? xasprintf("%.*s", (int)(name - 1 - s), s) : xstrdup("(external)");
	f->name = xstrdup(named ? name : s);
}

/* Merges the sound raw profiles under dir into a .profdata in a temporary directory (removed
 * at exit); returns its path, or NULL when there is none. */
static char *merge_raw(struct report *r, const char *tool, const char *dir, const char *const *skip)
{
	struct file_list raw = {0};
	find_files_all(&raw, dir, ".profraw", skip);
	file_list_sort(&raw);
	r->profile_files = raw.n;
	int good = 0;
	char *tmpdir = make_temp_dir("report"), *merged = xasprintf("%s/merged.profdata", tmpdir), *out = NULL;
	char *head[] = {(char *)tool, "merge", xasprintf("-output=%s", merged), "--"};
	char **argv = memcpy(xcalloc((size_t)raw.n + 5, sizeof *argv), head, sizeof head);
	/* damaged ones (an empty file, which llvm-profdata would skip in silence) named as merge does */
	for (int i = 0; i < raw.n; i++)
		if (family_raw_damaged(&family_llvm, raw.paths[i]))
			r->damaged++;
		else
			argv[4 + good++] = safe_path_arg(raw.paths[i]);
	if (good == 0)
		return NULL;
	if (!proc_exit_ok(capture(argv, &out)))
		fatal("%s merge failed: %s", printable(tool), out && *out ? printable(out) : "cannot run it");
	return merged; /* the lists live until report ends, as r's functions do */
}

static void collect(struct report *r, const struct report_input *in)
{
	const char *tool = in->tool, *profdata = in->profdata;
	char *merged = NULL, *why = NULL;
	if (in->archive)
		usage_error("--archive holds gcc profiles (.gcda)");
	report_dir_exists(in);
	r->have_names = 1;
	if (!profdata) {
		if (!(profdata = merged = merge_raw(r, tool, in->dir, in->skip)))
			return;
	} else {
		r->profile_files = 1;
		if (family_raw_damaged(&family_llvm, profdata)) {
			r->damaged++;
			return;
		}
	}
	struct shown_profile p;
	if (profdata_show(tool, profdata, &p, &why) < 0) {
		if (why && starts_with(why, "cannot execute"))
			fatal("cannot run %s: is llvm-profdata installed? (--tool=PATH or LLVM_PROFDATA)", printable(tool));
		warn("%s show %s failed: %.500s", printable(tool), printable(profdata), why ? printable(why) : "");
		r->damaged++;
	} else {
		snprintf(r->version, sizeof r->version, "%s", p.level);
		for (int i = 0; i < p.n; i++) {
			struct fn_stat *f = report_add_fn(r);
			split_profile_name(p.fn[i].name, f);
			f->max = p.fn[i].max;
			f->sum = p.fn[i].sum;
			f->counters = p.fn[i].counters;
			f->zero = p.fn[i].zero;
		}
		shown_profile_free(&p);
	}
	free(why);
	free(merged);
}

/* ---- verify: the functions of the merged profile each object defines ---- */

/* A function of the profile, by name without its file prefix. */
struct fn_info {
	uint64_t max;
	int records;
};

/* Fails naming the tool and its words (or that it did not run). */
static _Noreturn void tool_failed(const char *tool, const char *what, char *why)
{
	size_t n = why ? strlen(why) : 0;
	while (n && (why[n - 1] == '\n' || why[n - 1] == ' '))
		why[--n] = '\0';
	fatal("%s show %s failed: %.500s", tool, what, n ? why : "cannot run it");
}

/* Whether a local function's profile name carries a distcc worker's temporary file
 * ("distccd_XXXX.i:f"): clang names a static function after the file it compiles, a worker's
 * changes every compile, so the use stage cannot find that function's counts. */
static int named_by_worker_temp(const char *name)
{
	const char *colon = strrchr(name, ':'), *slash = colon ? memrchr(name, '/', (size_t)(colon - name)) : NULL;
	const char *file = slash ? slash + 1 : name;
	return colon && starts_with(file, "distccd_") && colon - file > 2 && colon[-2] == '.' && colon[-1] == 'i';
}

/* Every function of the merged profile with its largest counter; and the hot threshold. */
static void evidence_load(struct evidence *e)
{
	struct shown_profile p;
	char *why = NULL;
	if (profdata_show(e->tool, e->profdata, &p, &why) < 0)
		tool_failed(e->tool, e->name, why);
	int temp = 0, example = -1;
	e->nfuncs = 0;
	for (int i = 0; i < p.n; i++) {
		void **slot = strmap_slot(&e->fns, bare_name(p.fn[i].name), 1);
		struct fn_info *f = *slot ? *slot : (*slot = xcalloc(1, sizeof *f));
		f->records++;
		f->max = p.fn[i].max > f->max ? p.fn[i].max : f->max;
		e->nfuncs += p.fn[i].max > 0;
		if (named_by_worker_temp(p.fn[i].name) && temp++ == 0)
			example = i;
	}
	if (temp)
		fatal("%d of %d functions of %s are named after a distcc worker's temporary file (%s): the "
		      "instrumented compiles did not name their source (-Xclang=-main-file-name, which AX_PGO's "
		      "distcc launcher adds), so no later compile finds these functions' counts",
		      temp, p.n, printable(e->name), printable(p.fn[example].name));
	shown_profile_free(&p);
	if (profdata_hot_count(e->tool, e->profdata, &e->hot, &why) < 0)
		tool_failed(e->tool, e->name, why);
}

static void evidence_symbol(const struct evidence *e, const char *sym, struct unit_evidence *u)
{
	const struct fn_info *f = strmap_get(&e->fns, sym);
	if (!f)
		return;
	u->profile = 1;
	/* a count near the threshold is lukewarm: clang's block counts are estimates from block
	 * frequencies, a little off, and such a function may be laid out neither hot nor cold */
	u->expect_layout |= f->records == 1 && (f->max == 0 || (e->hot && f->max - f->max / 8 >= e->hot));
}

const struct family family_llvm = {
	.name = "clang", .raw_suffix = ".profraw", .raw_files = "raw profiles",
	.no_raw_hint = ", and does LLVM_PROFILE_FILE point into this directory",
	.if_damaged = "nothing was merged, the previous merged profile is unchanged",
	.check = check_profraw, .merged = 1, .train_env = train_env,
	.merge_usage = merge_usage, .merge = merge, .collect = collect, .format = "instrumentation",
	.evidence_load = evidence_load, .evidence_symbol = evidence_symbol, .layout_proves_use = 1, .nm = "llvm-nm",
	.used = "its functions' records", .unused = "the profile has no record of the functions it defines",
};

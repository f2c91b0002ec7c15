/* merge.c - `profopt merge`: the training's raw profiles, every one checked first, made what
 * the profile-use build reads.  Clang: one .profdata by llvm-profdata, sealed (its SHA-256
 * beside it) so damage after the merge is found before the rebuild; gcc: the runtime merged
 * the counts, and --from's .gcda tree is installed beside the objects. */
#include "commands.h"
#include "format/fingerprint.h"
#include "format/family.h"
#include "format/profraw.h"
#include "format/stamp.h"
#include "format/gcov_io.h"
#include "lib/proc.h"
#include "lib/output.h"
#include "lib/util.h"
#include "lib/walk.h"

#include <errno.h>
#include <libgen.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TRAIN_AGAIN "train again (make profile-removal profile-opt)"

/* Every file training wrote must pass profopt's reader: gcc takes a truncated .gcda as partial
 * counts, llvm-profdata skips an empty .profraw without a word.  hint: what to do instead. */
static void check_raw(const struct family *fam, const struct file_list *files, const char *dir, const char *hint)
{
	int *damaged = xcalloc((size_t)files->n + 1, sizeof *damaged);
	int bad = family_count_damaged(fam, files->paths, files->n, damaged);
	free(damaged);
	if (bad)
		fatal("%d of %d %s under %s are damaged (named above); %s: %s", bad, files->n, fam->raw_files, dir,
		      fam->merged ? "nothing was merged, the previous merged profile is unchanged" : "none is used", hint);
}

/* The seal of a merged profile: its fingerprint (SHA-256, size) in FILE.sha256, one entry. */
static void profile_fingerprint(const char *profdata, struct fingerprint *m)
{
	char why[512], *abs = resolve_path(profdata);
	if (fingerprint_files(m, &abs, 1, why, sizeof why) < 0)
		fatal("%s", why);
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

struct workload {
	char *dir;
	long weight;
	struct file_list files;
};

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

/* gcc: RUN/ABS/x.gcda, written under GCOV_PREFIX=RUN, belongs at /ABS/x.gcda, which must be
 * inside dir.  Every file is checked before any is installed; the .gcda files found under dir
 * before (an earlier run's, or the build's own) are removed first. */
static void install_run(const char *run, const char *dir, const char *const *skip)
{
	struct file_list got = {0};
	if (find_files(&got, run, ".gcda", NULL) < 0)
		fatal("cannot read the training run's profile directory %s: %s", run, strerror(errno));
	file_list_sort(&got);
	if (got.n == 0)
		fatal("no profile data: no .gcda files under %s (GCOV_PREFIX of the training run). Training produced "
		      "nothing: was the program built with the profile-generate flags, and did the tasks run it?",
		      run);
	check_raw(&family_gcc, &got, run, TRAIN_AGAIN);
	char *rdir = resolve_path(dir), *rrun = resolve_path(run);
	size_t rl = strlen(rrun), dl = strlen(rdir);
	char **dest = xcalloc((size_t)got.n, sizeof *dest);
	for (int i = 0; i < got.n; i++) {
		char *full = resolve_path(got.paths[i]);
		if (strncmp(full, rrun, rl) != 0 || full[rl] != '/')
			fatal("%s is not under %s", got.paths[i], run);
		dest[i] = xstrdup(full + rl);
		char *d = xstrdup(dest[i]), *where = resolve_path(dirname(d));
		if (strncmp(where, rdir, dl) != 0 || (where[dl] != '/' && where[dl] != '\0'))
			fatal("%s would go to %s, outside the build directory %s: not installed (objects must be "
			      "built under it)",
			      got.paths[i], dest[i], dir);
		free(where);
		free(d);
		free(full);
	}
	int removed = remove_files(dir, ".gcda", skip);
	for (int i = 0; i < got.n; i++) {
		/* through a temporary file and a rename: dest is whole or absent */
		size_t len;
		char *data = read_file(got.paths[i], &len);
		if (!data)
			fatal("cannot read %s: %s", got.paths[i], strerror(errno));
		output_write(dest[i], data, len);
		free(data);
		free(dest[i]);
	}
	fprintf(stderr, "merge: %d .gcda files of the training run %s installed under %s (%d earlier ones removed)\n",
		got.n, printable(run), printable(dir), removed);
	free(dest);
	free(rdir);
	free(rrun);
	file_list_free(&got);
}

/* gcc: libtool's two copies of a library object (PIC under .libs/, and beside it): training
 * runs one, the other gets its counts function by function, where its notes (.gcno: AX_PGO's
 * -ftest-coverage) show the same checksums: gcc refuses counts of another flow graph, and the
 * copies differ wherever the source says #ifdef PIC.  Without notes the whole file is copied. */
static uint32_t word_at(const unsigned char *p, int swap)
{
	uint32_t w = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	return swap ? __builtin_bswap32(w) : w;
}

static void put_word(unsigned char *p, uint32_t w, int swap)
{
	w = swap ? __builtin_bswap32(w) : w;
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(w >> (8 * i));
}

/* The records of d (a well-formed .gcda) whose function the notes `to` have with the same
 * checksums; the others' names (from the trained copy's notes `from`) are added to dropped.
 * NULL if d is not a .gcda this reader knows. */
static unsigned char *matching_records(const unsigned char *d, size_t len, const struct gcov_file *to,
				       const struct gcov_file *from, size_t *outlen, struct buf *dropped, int *ndropped)
{
	if (len < 16)
		return NULL;
	int swap = word_at(d, 0) != GCOV_DATA_MAGIC;
	if (word_at(d, swap) != GCOV_DATA_MAGIC)
		return NULL;
	unsigned char *out = xmalloc(len);
	/* the stamp and checksum of the twin's compilation, whose notes the counts now fit */
	memcpy(out, d, 16);
	put_word(out + 8, to->stamp, swap);
	put_word(out + 12, to->checksum, swap);
	size_t pos = 16, n = 16;
	int keep = 1;
	while (pos + 8 <= len) {
		uint32_t tag = word_at(d + pos, swap), length = word_at(d + pos + 4, swap);
		size_t payload = gcov_counter_tag(tag) && (int32_t)length < 0 ? 0 : length;
		if (tag == 0 || payload > len - pos - 8)
			break;
		if (tag == GCOV_TAG_FUNCTION && payload >= 12) {
			uint32_t ident = word_at(d + pos + 8, swap);
			const struct gcov_function *f = gcov_find_function(to, ident);
			keep = f && f->lineno_checksum == word_at(d + pos + 12, swap) &&
			       f->cfg_checksum == word_at(d + pos + 16, swap);
			const struct gcov_function *named = keep ? NULL : gcov_find_function(from, ident);
			if (!keep)
				buf_printf(dropped, "%s%s", (*ndropped)++ ? ", " : "", named && named->name ? named->name : "?");
		} else if (!gcov_counter_tag(tag)) {
			keep = 1;
		}
		if (keep)
			memcpy(out + n, d + pos, payload + 8), n += payload + 8;
		pos += payload + 8;
	}
	memcpy(out + n, d + pos, len - pos);
	*outlen = n + len - pos;
	return out;
}

/* The other copy of dir/base: .libs/base beside dir/base, or the reverse. */
static char *twin_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	int dl = slash ? (int)(slash - path) : 0;
	int in_libs = dl >= 5 && strncmp(path + dl - 5, ".libs", 5) == 0 && (dl == 5 || path[dl - 6] == '/');
	if (!in_libs)
		return slash ? xasprintf("%.*s/.libs/%s", dl, path, base) : xasprintf(".libs/%s", base);
	return dl == 5 ? xstrdup(base) : xasprintf("%.*s/%s", dl - 6, path, base);
}

/* Writes twin.gcda from gcda: the functions the twin's notes have alike, or all without notes. */
static void copy_counts(const char *gcda, const char *twin, struct buf *dropped)
{
	size_t len, outlen = 0;
	char err[600], *path = xasprintf("%s.gcda", twin), *notes_path = xasprintf("%s.gcno", twin);
	char *from_path = xasprintf("%.*s.gcno", (int)strlen(gcda) - 5, gcda);
	unsigned char *data = read_profile(gcda, &len, err, sizeof err), *out = NULL;
	if (!data)
		fatal("%s", err);
	struct gcov_file to, from;
	if (gcov_read(notes_path, &to, err, sizeof err) == 0) {
		gcov_read(from_path, &from, err, sizeof err); /* only the names: none (zeroed) when unreadable */
		struct buf names = {0};
		int n = 0;
		out = matching_records(data, len, &to, &from, &outlen, &names, &n);
		if (n)
			buf_printf(dropped, "\n  %s.o: %s", printable(twin), names.data);
		buf_free(&names);
		gcov_file_free(&to);
		gcov_file_free(&from);
	}
	output_write(path, out ? out : data, out ? outlen : len);
	free(out);
	free(data);
	free(from_path);
	free(notes_path);
	free(path);
}

/* gcc: every X.gcda under dir whose libtool twin (.libs/X.o beside X.o, or the reverse) has no
 * .gcda gives it the counts of the functions compiled alike in both; says what it did. */
static void libtool_twins(const char *dir, const char *const *skip)
{
	struct file_list l = {0};
	find_files_all(&l, dir, ".gcda", skip);
	file_list_sort(&l);
	struct buf dropped = {0};
	int copies = 0;
	for (int i = 0; i < l.n; i++) {
		char *stem = xasprintf("%.*s", (int)strlen(l.paths[i]) - 5, l.paths[i]), *twin = twin_of(stem);
		char *obj = xasprintf("%s.o", twin), *gcda = xasprintf("%s.gcda", twin);
		if (access(obj, F_OK) == 0 && access(gcda, F_OK) != 0) {
			copy_counts(l.paths[i], twin, &dropped);
			copies++;
		}
		free(gcda);
		free(obj);
		free(twin);
		free(stem);
	}
	if (copies)
		fprintf(stderr, "merge: %d libtool object copies got the counts of their twin (PIC or not)\n", copies);
	if (dropped.len)
		fprintf(stderr,
			"merge: functions compiled differently in the two copies (#ifdef PIC), left without counts "
			"in the untrained copy:%s\n",
			dropped.data);
	buf_free(&dropped);
	file_list_free(&l);
}

struct merge_opts {
	const char *family, *dir, *tool, *output, *stamp, *from, *profdata;
	const struct family *fam;
	int check_only, seal;
	struct option_list weighted, skip;
	struct workload *work; /* one per --weighted */
};

#define O struct merge_opts
static const struct option_spec merge_options[] = {
	OPT_STRING("family", 0, O, family, "gcc|clang", "the compiler family"),
	OPT_STRING("profile-dir", 0, O, dir, "DIR",
		   "where the training's profile data is: gcc's .gcda files (beside the objects, so the build "
		   "tree), clang's *.profraw files"),
	OPT_LIST("weighted", 0, O, weighted, "DIR:W",
		 "clang: a training workload's raw profiles in DIR, a directory under --profile-dir, counted W "
		 "times (repeatable); then only the workloads' files are merged, after every raw file under "
		 "--profile-dir was checked.  gcc has no weighted merge: a workload of weight W runs W times and "
		 "libgcov adds the counts (gcov-tool 12 cannot merge CPython's profiles)"),
	OPT_STRING("tool", 0, O, tool, "PATH", "llvm-profdata to use (default: llvm-profdata)"),
	OPT_STRING("output", 0, O, output, "FILE", "merged profile (clang; default: DIR/merged.profdata)"),
	OPT_LIST("skip", 0, O, skip, "NAME", "do not descend into directories called NAME (repeatable)"),
	OPT_STRING("stamp", 0, O, stamp, "FILE", "on success, write the stage record (JSON) to FILE"),
	OPT_STRING("from", 0, O, from, "RUN",
		   "gcc: the .gcda tree a training run wrote under GCOV_PREFIX=RUN; every file is checked, then "
		   "the .gcda files under DIR are replaced by RUN's (each goes where the program would have "
		   "written it, which must be under DIR); then each libtool object copy (X.o and .libs/X.o) that "
		   "training did not run gets its twin's counts, for the functions its notes (.gcno) show "
		   "compiled alike"),
	OPT_FLAG("check-only", 0, O, check_only,
		 "check, merge nothing: gcc, every .gcda under DIR; clang, the merged profile --profdata=FILE "
		 "(llvm-profdata reads it, and it still has the SHA-256 sealed in FILE.sha256 by the merge, if "
		 "there is one)"),
	OPT_FLAG("seal", 0, O, seal, "clang: check --profdata=FILE and seal it (FILE.sha256)"),
	OPT_STRING("profdata", 0, O, profdata, "FILE", "the merged profile, for --check-only and --seal"),
	OPT_END,
};
#undef O

const struct command_options options_merge = {
	"merge",
	"--family=gcc|clang --profile-dir=DIR [OPTIONS]",
	"clang: merges every *.profraw under DIR with llvm-profdata into --output.\n"
	"gcc:   checks the *.gcda files under DIR (counts are merged by the GCC runtime).\n"
	"Either way it fails when there is no profile data at all, and reports how many raw\n"
	"files and bytes were merged.\n",
	merge_options,
	"A damaged file (empty, truncated, not a profile) stops it, naming the file; nothing is\n"
	"merged or installed then, and the previous merged profile is left as it was.\n",
	0,
};

/* Whether path is dir or in its tree (resolved, else read as text: a workload that wrote
 * nothing may have no directory). */
static int under_dir(const char *path, const char *dir)
{
	char *p = resolve_path(path), *d = resolve_path(dir);
	normalize_path(p), normalize_path(d);
	size_t n = strlen(d);
	int in = !strncmp(p, d, n) && (p[n] == '/' || p[n] == '\0' || !strcmp(d, "/"));
	free(p), free(d);
	return in;
}

static void parse_merge_opts(struct merge_opts *o, int argc, char **argv)
{
	int first = options_parse(&options_merge, argc, argv, o);
	if (first < argc)
		usage_error("unexpected argument '%s'", printable(argv[first]));
	o->work = xcalloc((size_t)o->weighted.n + 1, sizeof *o->work);
	for (int k = 0; k < o->weighted.n; k++) {
		const char *arg = o->weighted.v[k], *colon = strrchr(arg, ':');
		long weight = colon ? parse_positive(colon + 1) : -1;
		if (!colon || colon == arg || weight < 0)
			usage_error("--weighted wants DIR:WEIGHT with a positive whole weight, not '%s'", arg);
		o->work[k] = (struct workload){xasprintf("%.*s", (int)(colon - arg), arg), weight, {0}};
	}
	if (!(o->fam = family_parse(o->family)))
		usage_error("--family=gcc|clang|apple-clang is required");
	if ((o->check_only || o->seal) && o->fam->merged && !o->profdata)
		usage_error("--check-only and --seal with clang check --profdata=FILE");
	if (o->seal && !o->fam->merged)
		usage_error("--seal is for clang's merged profile");
	if (!o->dir && !(o->profdata && o->fam->merged))
		usage_error("--profile-dir=DIR is required");
	if (o->from && o->fam->merged)
		usage_error("--from is for gcc's .gcda trees (clang: --profile-dir)");
	if (o->weighted.n > 0 && !o->fam->merged)
		usage_error("--weighted is for clang: with gcc a workload of weight W runs W times and libgcov adds the counts");
	for (int k = 0; k < o->weighted.n && o->dir; k++)
		if (!under_dir(o->work[k].dir, o->dir))
			usage_error("--weighted=%s: the workload's directory is not under --profile-dir=%s, whose raw files "
				    "are the ones checked before the merge",
				    printable(o->weighted.v[k]), printable(o->dir));
}

/* --check-only: the profile the rebuild is about to read. */
static int check_only(const struct merge_opts *o)
{
	if (o->fam->merged) {
		char *seal = xasprintf("%s.sha256", o->profdata);
		check_profdata(o->tool, o->profdata, seal);
		fprintf(stderr, "merge: %s checked: %s reads it%s\n", printable(o->profdata), printable(o->tool),
			access(seal, F_OK) == 0 ? ", unchanged since it was merged" : "");
		free(seal);
		return 0;
	}
	struct file_list files = {0};
	find_files_all(&files, o->dir, ".gcda", o->skip.v);
	if (files.n == 0)
		fatal("no profile data: no .gcda files under %s", o->dir);
	check_raw(o->fam, &files, o->dir,
		  "put the archived profile back (make clean-retain-profile profile-opt) or train again "
		  "(make profile-removal profile-opt)");
	fprintf(stderr, "merge: %d .gcda files under %s checked, all well-formed\n", files.n, printable(o->dir));
	file_list_free(&files);
	return 0;
}

static void merge_workloads(struct merge_opts *o, const char *output)
{
	/* Each workload's raw profiles, weighted; the merged result is then checked as usual. */
	for (int k = 0; k < o->weighted.n; k++) {
		struct workload *w = &o->work[k];
		find_files_all(&w->files, w->dir, o->fam->raw_suffix, o->skip.v);
		file_list_sort(&w->files);
		fprintf(stderr, "merge: workload %s: %d raw files, weight %ld\n", printable(w->dir), w->files.n, w->weight);
		if (w->files.n == 0)
			fatal("no profile data for the workload in %s: did its training run?", w->dir);
	}
	merge_clang(o->work, o->weighted.n, o->tool, output);
	for (int k = 0; k < o->weighted.n; k++) {
		file_list_free(&o->work[k].files);
		free(o->work[k].dir);
	}
}

static void report_merge(const struct merge_opts *o, const struct file_list *files, const char *output, double start)
{
	char bytes[32], outbytes[32] = "";
	format_bytes(bytes, sizeof bytes, files->total_bytes);
	long long outsize = 0;
	struct stat st;
	if (o->fam->merged) {
		outsize = stat(output, &st) == 0 ? (long long)st.st_size : 0;
		format_bytes(outbytes, sizeof outbytes, outsize);
		fprintf(stderr, "merge: %d raw profiles (%s), all well-formed, merged into %s (%s)\n", files->n, bytes,
			printable(output), outbytes);
	} else {
		fprintf(stderr, "merge: %d .gcda files (%s) under %s, all well-formed\n", files->n, bytes, printable(o->dir));
	}
	if (o->stamp) {
		struct stamp s;
		struct json *j = stamp_begin(&s, "merge", now() - start);
		jw_kv_int(j, "raw_files", files->n), jw_kv_int(j, "raw_bytes", files->total_bytes);
		jw_kv_int(j, "output_bytes", outsize);
		stamp_end(&s, o->stamp);
	}
}

int cmd_merge(int argc, char **argv)
{
	struct merge_opts o = {.tool = "llvm-profdata"};
	parse_merge_opts(&o, argc, argv);
	if (o.check_only)
		return check_only(&o);
	if (o.seal) {
		seal_profdata(o.tool, o.profdata);
		fprintf(stderr, "merge: %s checked and sealed (%s.sha256)\n", printable(o.profdata), printable(o.profdata));
		return 0;
	}
	char *default_out = xasprintf("%s/merged.profdata", o.dir);
	const char *output = o.output ? o.output : default_out;
	double start = now();
	if (o.from) {
		install_run(o.from, o.dir, o.skip.v);
		libtool_twins(o.dir, o.skip.v);
	}
	struct file_list files = {0};
	find_files_all(&files, o.dir, o.fam->raw_suffix, o.skip.v);
	file_list_sort(&files);
	if (files.n == 0 && o.weighted.n == 0)
		fatal("no profile data: no %s files under %s. Training produced nothing: was the program built "
		      "with the profile-generate flags, did the training commands run it%s?",
		      o.fam->raw_suffix, o.dir, o.fam->no_raw_hint);
	check_raw(o.fam, &files, o.dir, TRAIN_AGAIN);
	if (o.weighted.n > 0)
		merge_workloads(&o, output);
	else if (o.fam->merged)
		merge_clang(&(struct workload){(char *)o.dir, 1, files}, 1, o.tool, output);
	if (o.fam->merged)
		seal_profdata(o.tool, output);
	report_merge(&o, &files, output, start);
	file_list_free(&files);
	free(default_out);
	return 0;
}

/* merge.c - `profopt merge`: turns the raw profiles of a training run into what the
 * profile-use build reads.  Clang: all *.profraw merged by llvm-profdata into one .profdata,
 * written under a temporary name and renamed, so an interrupted merge leaves nothing usable
 * behind.  GCC: the runtime already merged counts into each .gcda; this checks that there are
 * some and that the .gcda reader accepts every one of them (a half-written file is refused). */
#include "commands.h"
#include "gcov_io.h"
#include "stamp.h"
#include "util.h"
#include "walk.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

const char help_merge[] =
	"usage: profopt merge --family=gcc|clang --profile-dir=DIR [OPTIONS]\n"
	"\n"
	"clang: merges every *.profraw under DIR with llvm-profdata into --output.\n"
	"gcc:   checks the *.gcda files under DIR (counts are merged by the GCC runtime).\n"
	"Either way it fails when there is no profile data at all, and reports how many raw\n"
	"files and bytes were merged.\n"
	"\n"
	"  --weighted=DIR:W    a training workload's raw profiles in DIR, counted W times\n"
	"                      (repeatable; instead of --profile-dir).  clang: llvm-profdata\n"
	"                      merge with weights; gcc: DIR holds the .gcda tree of one\n"
	"                      workload (GCOV_PREFIX), merged by gcov-tool into --profile-dir\n"
	"  --tool=PATH         llvm-profdata or gcov-tool to use (default: llvm-profdata,\n"
	"                      gcov-tool)\n"
	"  --output=FILE       merged profile (clang; default: DIR/merged.profdata)\n"
	"  --skip=NAME         do not descend into directories called NAME (repeatable)\n"
	"  --stamp=FILE        on success, write the stage record (JSON) to FILE\n";

/* A .gcda is usable when the reader accepts every record of it (magic, version, lengths). */
static int gcda_ok(const char *path, char *why, size_t n)
{
	struct gcov_file f;
	if (gcov_read(path, &f, why, n) < 0)
		return 0;
	int ok = f.kind == GCOV_DATA;
	if (!ok)
		snprintf(why, n, "a .gcno notes file, not .gcda data");
	gcov_file_free(&f);
	return ok;
}

static int merge_gcc(struct file_list *files, const char *dir)
{
	int bad = 0;
	char why[256];
	for (int i = 0; i < files->n; i++)
		if (!gcda_ok(files->paths[i], why, sizeof why)) {
			warn("%s: %s", files->paths[i], why);
			bad++;
		}
	if (bad)
		fatal("%d of %d .gcda files under %s are damaged (an interrupted run?); train again "
		      "(make profile-removal; make profile-opt)",
		      bad, files->n, dir);
	return 0;
}

/* Runs llvm-profdata merge on the inputs listed in `list` ("file" or "weight,file" lines). */
static void merge_clang_list(const char *list, const char *tool, const char *output)
{
	char *tmp = xasprintf("%s.tmp", output);
	char *out_opt = xasprintf("-output=%s", tmp), *list_opt = xasprintf("--input-files=%s", list);
	char *argv[] = {(char *)tool, "merge", out_opt, list_opt, NULL};
	char *out = NULL;
	int st = capture(argv, &out);
	if (st < 0)
		fatal("cannot run %s: is llvm-profdata installed? (configure --with-llvm-profdata=PATH)", tool);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		unlink(tmp);
		fatal("%s merge failed:\n%s", tool, out ? out : "");
	}
	if (out && *out)
		fputs(out, stderr);
	if (rename(tmp, output) < 0)
		fatal("cannot rename %s to %s: %s", tmp, output, strerror(errno));
	free(out);
	free(out_opt);
	free(list_opt);
	free(tmp);
}

static void merge_clang(struct file_list *files, const char *tool, const char *output)
{
	char *list = xasprintf("%s.inputs", output);
	struct buf b = {0};
	for (int i = 0; i < files->n; i++)
		buf_printf(&b, "%s\n", files->paths[i]);
	if (write_file_atomic(list, b.data, b.len) < 0)
		fatal("cannot write %s: %s", list, strerror(errno));
	buf_free(&b);
	merge_clang_list(list, tool, output);
	free(list);
}

#define MAX_WORKLOADS 16

struct workload {
	char *dir;
	long weight;
	struct file_list files;
};

static void parse_weighted(struct workload *w, const char *arg)
{
	const char *colon = strrchr(arg, ':');
	long weight = colon ? parse_positive(colon + 1) : -1;
	if (!colon || colon == arg || weight < 0)
		usage_error("--weighted wants DIR:WEIGHT with a positive whole weight, not '%s'", arg);
	w->dir = xasprintf("%.*s", (int)(colon - arg), arg);
	w->weight = weight;
}

/* clang: one llvm-profdata merge over every workload's files, each line "weight,file". */
static void merge_clang_weighted(struct workload *w, int n, const char *tool, const char *output)
{
	struct buf b = {0};
	for (int k = 0; k < n; k++)
		for (int i = 0; i < w[k].files.n; i++)
			buf_printf(&b, "%ld,%s\n", w[k].weight, w[k].files.paths[i]);
	char *list = xasprintf("%s.inputs", output);
	if (write_file_atomic(list, b.data, b.len) < 0)
		fatal("cannot write %s: %s", list, strerror(errno));
	buf_free(&b);
	merge_clang_list(list, tool, output);
	free(list);
}

/* gcc: gcov-tool merges two trees at a time with weights; the result goes into dest. */
static void merge_gcc_weighted(struct workload *w, int n, const char *tool, const char *dest_dir)
{
	char *acc = NULL, *dest = resolve_path(dest_dir);
	const char *tmpbase = getenv("TMPDIR");
	char *scratch = xasprintf("%s/profopt-merge-XXXXXX", tmpbase && *tmpbase ? tmpbase : "/tmp");
	if (!mkdtemp(scratch))
		fatal("cannot create a temporary directory: %s", strerror(errno));
	for (int k = 0; k < n; k++) {
		if (w[k].files.n == 0)
			continue;
		if (!acc && n > 1 && k == n - 1 && w[k].weight == 1) {
			acc = xstrdup(w[k].dir);
			continue;
		}
		char *out = xasprintf("%s/step-%d", scratch, k);
		char *wopt, *st_out = NULL;
		int st;
		if (!acc) {
			/* The first tree, scaled by its weight. */
			wopt = xasprintf("%ld", w[k].weight);
			char *argv[] = {(char *)tool, "rewrite", "-s", wopt, "-o", out, w[k].dir, NULL};
			st = capture(argv, &st_out);
		} else {
			wopt = xasprintf("1,%ld", w[k].weight);
			char *argv[] = {(char *)tool, "merge", "-w", wopt, "-o", out, acc, w[k].dir, NULL};
			st = capture(argv, &st_out);
		}
		if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
			fatal("%s failed on %s: %s", tool, w[k].dir, st_out && *st_out ? st_out : "cannot run it");
		free(st_out);
		free(wopt);
		free(acc);
		acc = out;
	}
	if (!acc)
		fatal("no .gcda files in any workload");
	/* Into the build directory, where the profile-use compilation looks for them. */
	char *cp = xasprintf("cd '%s' && find . -name '*.gcda' | tar -cf - -T - | tar -xf - -C '%s'", acc, dest);
	char *argv[] = {"/bin/sh", "-c", cp, NULL}, *out = NULL;
	int st = capture(argv, &out);
	if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fatal("copying the merged .gcda files into %s failed: %s", dest, out ? out : "");
	free(out);
	free(cp);
	free(acc);
	char *rm[] = {"rm", "-rf", scratch, NULL};
	capture(rm, NULL);
	free(scratch);
	free(dest);
}

int cmd_merge(int argc, char **argv)
{
	static const struct option lopts[] = {
		{"family", required_argument, NULL, 'f'},
		{"profile-dir", required_argument, NULL, 'd'},
		{"tool", required_argument, NULL, 't'},
		{"output", required_argument, NULL, 'o'},
		{"skip", required_argument, NULL, 's'},
		{"stamp", required_argument, NULL, 'S'},
		{"weighted", required_argument, NULL, 'w'},
		{NULL, 0, NULL, 0},
	};
	const char *family = NULL, *dir = NULL, *tool = NULL, *output = NULL, *stamp = NULL;
	struct workload work[MAX_WORKLOADS];
	int nwork = 0;
	const char *skip[16] = {0};
	int nskip = 0, c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		switch (c) {
		case 'f': family = optarg; break;
		case 'd': dir = optarg; break;
		case 't': tool = optarg; break;
		case 'o': output = optarg; break;
		case 's':
			if (nskip == 15)
				usage_error("too many --skip options");
			skip[nskip++] = optarg;
			break;
		case 'S': stamp = optarg; break;
		case 'w':
			if (nwork == MAX_WORKLOADS)
				usage_error("at most %d workloads", MAX_WORKLOADS);
			memset(&work[nwork], 0, sizeof work[nwork]);
			parse_weighted(&work[nwork++], optarg);
			break;
		default: usage_error("unknown option '%s' (see 'profopt merge --help')", argv[optind - 1]);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (!family || (strcmp(family, "gcc") != 0 && strcmp(family, "clang") != 0 && strcmp(family, "apple-clang") != 0))
		usage_error("--family=gcc|clang|apple-clang is required");
	if (!dir)
		usage_error("--profile-dir=DIR is required");
	int gcc = strcmp(family, "gcc") == 0;
	if (!tool)
		tool = gcc ? "gcov-tool" : "llvm-profdata";
	char *default_out = xasprintf("%s/merged.profdata", dir);
	if (!output)
		output = default_out;

	double start = now();
	struct file_list files = {0};
	if (nwork > 0) {
		/* Each workload's raw profiles, weighted; the merged result is then checked as usual. */
		for (int k = 0; k < nwork; k++) {
			find_files(&work[k].files, work[k].dir, gcc ? ".gcda" : ".profraw", skip);
			file_list_sort(&work[k].files);
			fprintf(stderr, "merge: workload %s: %d raw files, weight %ld\n", work[k].dir, work[k].files.n,
				work[k].weight);
			if (work[k].files.n == 0)
				fatal("no profile data for the workload in %s: did its training run?", work[k].dir);
		}
		if (gcc)
			merge_gcc_weighted(work, nwork, tool, dir);
		else
			merge_clang_weighted(work, nwork, tool, output);
		for (int k = 0; k < nwork; k++) {
			file_list_free(&work[k].files);
			free(work[k].dir);
		}
	}
	if (find_files(&files, dir, gcc ? ".gcda" : ".profraw", skip) < 0)
		fatal("cannot read profile directory %s: %s", dir, strerror(errno));
	file_list_sort(&files);
	if (files.n == 0 && !(nwork > 0 && !gcc))
		fatal("no profile data: no %s files under %s. Training produced nothing: was the program built "
		      "with the profile-generate flags, did the training commands run it%s?",
		      gcc ? ".gcda" : ".profraw", dir, gcc ? "" : ", and does LLVM_PROFILE_FILE point into this directory");
	if (gcc)
		merge_gcc(&files, dir);
	else if (nwork == 0)
		merge_clang(&files, tool, output);

	char bytes[32], outbytes[32] = "";
	format_bytes(bytes, sizeof bytes, files.total_bytes);
	long long outsize = 0;
	if (!gcc) {
		size_t len;
		char *data = read_file(output, &len);
		outsize = (long long)len;
		free(data);
		format_bytes(outbytes, sizeof outbytes, outsize);
		fprintf(stderr, "merge: %d raw profiles (%s) merged into %s (%s)\n", files.n, bytes, output, outbytes);
	} else {
		fprintf(stderr, "merge: %d .gcda files (%s) under %s, all well-formed\n", files.n, bytes, dir);
	}
	if (stamp) {
		char *out_json = xasprintf("\"raw_files\": %d, \"raw_bytes\": %lld, \"output_bytes\": %lld", files.n,
					   files.total_bytes, outsize);
		stamp_write(stamp, "merge", now() - start, out_json);
		free(out_json);
	}
	file_list_free(&files);
	free(default_out);
	return 0;
}

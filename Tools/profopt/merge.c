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
	"  --tool=PATH         llvm-profdata to use (default: llvm-profdata)\n"
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

static int merge_clang(struct file_list *files, const char *tool, const char *output)
{
	char *list = xasprintf("%s.inputs", output), *tmp = xasprintf("%s.tmp", output);
	struct buf b = {0};
	for (int i = 0; i < files->n; i++)
		buf_printf(&b, "%s\n", files->paths[i]);
	if (write_file_atomic(list, b.data, b.len) < 0)
		fatal("cannot write %s: %s", list, strerror(errno));
	buf_free(&b);
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
	free(list);
	free(tmp);
	return 0;
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
		{NULL, 0, NULL, 0},
	};
	const char *family = NULL, *dir = NULL, *tool = "llvm-profdata", *output = NULL, *stamp = NULL;
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
	char *default_out = xasprintf("%s/merged.profdata", dir);
	if (!output)
		output = default_out;

	double start = now();
	struct file_list files = {0};
	if (find_files(&files, dir, gcc ? ".gcda" : ".profraw", skip) < 0)
		fatal("cannot read profile directory %s: %s", dir, strerror(errno));
	file_list_sort(&files);
	if (files.n == 0)
		fatal("no profile data: no %s files under %s. Training produced nothing: was the program built "
		      "with the profile-generate flags, did the training commands run it%s?",
		      gcc ? ".gcda" : ".profraw", dir, gcc ? "" : ", and does LLVM_PROFILE_FILE point into this directory");
	if (gcc)
		merge_gcc(&files, dir);
	else
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

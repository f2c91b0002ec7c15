/* diff.c - `profopt diff A B`: how alike two profiles are, as one similarity figure, and
 * whether they are identical (the test of reproducible training).
 *
 * Similarity is the edge-count overlap: each counter divided by its profile's total, then
 * summed over counters of min(a, b); 100% means the same distribution of counts.
 *   clang: llvm-profdata overlap does exactly this ("Edge profile overlap"): it is called.
 *   gcc:   gcov-tool overlap of GCC 12 reports 0% (inf%) for every pair, since .gcda files no
 *          longer carry the program summary it divides by; profopt computes the same figure
 *          from the counters read by gcov_io.c. */
#include "commands.h"
#include "gcov_io.h"
#include "util.h"
#include "walk.h"

#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

const char help_diff[] =
	"usage: profopt diff [--json] [--tool=PATH] A B\n"
	"\n"
	"Compares two profiles of the same program: clang .profdata files, or gcc profiles\n"
	"(a build directory of .gcda files, or a stash such as pgo/profiles.tar).  Prints the\n"
	"similarity (edge-count overlap, 100% = the same distribution of counts) and whether\n"
	"the profiles are byte-for-byte identical.\n"
	"\n"
	"  --tool=PATH   llvm-profdata (default: $LLVM_PROFDATA, else llvm-profdata)\n"
	"  --json        keys: similarity (0..1), identical, files, files_differing\n"
	"Exit status: 0 identical, 1 different, 2 bad usage or unreadable input.\n";

struct profile_tree {
	char *dir;     /* where the .gcda files are */
	char *tmp;     /* an unpacked stash, removed at the end */
	struct file_list files;
};

static void open_tree(struct profile_tree *t, const char *path)
{
	struct stat st;
	memset(t, 0, sizeof *t);
	if (stat(path, &st) < 0)
		usage_error("%s: no such file or directory", path);
	if (S_ISDIR(st.st_mode)) {
		t->dir = xstrdup(path);
	} else {
		t->tmp = xstrdup("/tmp/profopt-diff-XXXXXX");
		if (!mkdtemp(t->tmp))
			fatal("cannot create a temporary directory");
		char *argv[] = {"tar", "-xf", (char *)path, "-C", t->tmp, NULL}, *out = NULL;
		int rc = capture(argv, &out);
		if (rc < 0 || !WIFEXITED(rc) || WEXITSTATUS(rc) != 0)
			fatal("%s is neither a directory nor a stash of .gcda files: %s", path, out ? out : "");
		free(out);
		t->dir = xstrdup(t->tmp);
	}
	char *cwd = getcwd(NULL, 0);
	if (chdir(t->dir) < 0)
		fatal("cannot enter %s", t->dir);
	find_files(&t->files, ".", ".gcda", NULL);
	file_list_sort(&t->files);
	if (chdir(cwd) < 0) {}
	free(cwd);
	if (t->files.n == 0)
		fatal("no .gcda files in %s", path);
}

static void close_tree(struct profile_tree *t)
{
	if (t->tmp) {
		char *argv[] = {"rm", "-rf", t->tmp, NULL};
		capture(argv, NULL);
	}
	file_list_free(&t->files);
	free(t->dir);
	free(t->tmp);
}

static void read_gcda(const struct profile_tree *t, int i, struct gcov_file *f)
{
	char *path = xasprintf("%s/%s", t->dir, t->files.paths[i]), err[256];
	if (gcov_read(path, f, err, sizeof err) < 0)
		fatal("%s", err);
	free(path);
}

static double total_counts(const struct profile_tree *t)
{
	double sum = 0;
	for (int i = 0; i < t->files.n; i++) {
		struct gcov_file f;
		read_gcda(t, i, &f);
		for (int k = 0; k < f.nfn; k++)
			for (uint32_t c = 0; f.fn[k].arcs && c < f.fn[k].narc_counters; c++)
				sum += (double)f.fn[k].arcs[c];
		gcov_file_free(&f);
	}
	return sum;
}

static int same_bytes(const char *a, const char *b)
{
	size_t la, lb;
	char *da = read_file(a, &la), *db = read_file(b, &lb);
	int same = da && db && la == lb && memcmp(da, db, la) == 0;
	free(da);
	free(db);
	return same;
}

/* Edge-count overlap of two gcc profile trees; also counts files that differ. */
static double gcc_overlap(const struct profile_tree *a, const struct profile_tree *b, int *files, int *differing)
{
	double sa = total_counts(a), sb = total_counts(b), overlap = 0;
	*files = 0;
	*differing = 0;
	for (int i = 0, j = 0; i < a->files.n || j < b->files.n;) {
		int cmp = i == a->files.n ? 1 : j == b->files.n ? -1 : strcmp(a->files.paths[i], b->files.paths[j]);
		(*files)++;
		if (cmp != 0) { /* only on one side */
			(*differing)++;
			cmp < 0 ? i++ : j++;
			continue;
		}
		char *pa = xasprintf("%s/%s", a->dir, a->files.paths[i]), *pb = xasprintf("%s/%s", b->dir, b->files.paths[j]);
		*differing += !same_bytes(pa, pb);
		free(pa);
		free(pb);
		struct gcov_file fa, fb;
		read_gcda(a, i, &fa);
		read_gcda(b, j, &fb);
		for (int k = 0; k < fa.nfn; k++) {
			const struct gcov_function *x = &fa.fn[k];
			for (int m = 0; m < fb.nfn; m++) {
				const struct gcov_function *y = &fb.fn[m];
				if (y->ident != x->ident || y->cfg_checksum != x->cfg_checksum || !x->arcs || !y->arcs ||
				    x->narc_counters != y->narc_counters)
					continue;
				for (uint32_t c = 0; c < x->narc_counters; c++) {
					double p = sa > 0 ? x->arcs[c] / sa : 0, q = sb > 0 ? y->arcs[c] / sb : 0;
					overlap += p < q ? p : q;
				}
				break;
			}
		}
		gcov_file_free(&fa);
		gcov_file_free(&fb);
		i++, j++;
	}
	return overlap;
}

static double clang_overlap(const char *tool, const char *a, const char *b, int *identical)
{
	char *argv[] = {(char *)tool, "overlap", (char *)a, (char *)b, NULL}, *out = NULL;
	int rc = capture(argv, &out);
	if (rc < 0 || !WIFEXITED(rc) || WEXITSTATUS(rc) != 0)
		fatal("%s overlap failed: %.400s", tool, out ? out : "cannot run it");
	const char *p = strstr(out, "Edge profile overlap: ");
	if (!p)
		fatal("%s overlap printed no 'Edge profile overlap' line", tool);
	double v = atof(p + strlen("Edge profile overlap: ")) / 100;
	free(out);
	*identical = same_bytes(a, b);
	return v;
}

int cmd_diff(int argc, char **argv)
{
	static const struct option lopts[] = {
		{"json", no_argument, NULL, 'j'},
		{"tool", required_argument, NULL, 't'},
		{NULL, 0, NULL, 0},
	};
	const char *tool = getenv("LLVM_PROFDATA");
	int json = 0, c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		switch (c) {
		case 'j': json = 1; break;
		case 't': tool = optarg; break;
		default: usage_error("unknown option '%s' (see 'profopt diff --help')", argv[optind - 1]);
		}
	}
	if (argc - optind != 2)
		usage_error("two profiles to compare are needed (see 'profopt diff --help')");
	const char *a = argv[optind], *b = argv[optind + 1];
	int clang = ends_with(a, ".profdata") || ends_with(a, ".profraw");
	if (clang != (ends_with(b, ".profdata") || ends_with(b, ".profraw")))
		usage_error("cannot compare a clang profile with a gcc one");
	double similarity;
	int identical, files = 1, differing;
	if (clang) {
		similarity = clang_overlap(tool && *tool ? tool : "llvm-profdata", a, b, &identical);
		differing = !identical;
	} else {
		struct profile_tree ta, tb;
		open_tree(&ta, a);
		open_tree(&tb, b);
		similarity = gcc_overlap(&ta, &tb, &files, &differing);
		identical = differing == 0;
		close_tree(&ta);
		close_tree(&tb);
	}
	if (json)
		printf("{\"similarity\": %.6f, \"identical\": %s, \"files\": %d, \"files_differing\": %d}\n", similarity,
		       identical ? "true" : "false", files, differing);
	else
		printf("similarity: %.3f%% (edge-count overlap)\nidentical:  %s%s\n", 100 * similarity,
		       identical ? "yes" : "no", identical ? "" : xasprintf(" (%d of %d files differ)", differing, files));
	return identical ? 0 : 1;
}

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
#include "profile/gcov_io.h"
#include "lib/json.h"
#include "lib/proc.h"
#include "lib/tarfile.h"
#include "lib/util.h"
#include "lib/walk.h"

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
	"A stash is read in memory; nothing is extracted.\n"
	"Exit status: 0 identical, 1 different, 2 bad usage or any error (a missing, damaged\n"
	"or unreadable input, named in the message; output that could not be written).\n";

/* The .gcda files of one side, read into memory and parsed once. */
struct profile_tree {
	const char *path;         /* as the user named it */
	struct member_list files; /* sorted by name relative to the directory or archive */
	struct gcov_file *parsed;
	double total;             /* sum of all arc counters */
};

/* Every .gcda under a directory, named relative to it. */
static void read_directory(struct profile_tree *t)
{
	struct file_list l = {0};
	if (find_files(&l, t->path, ".gcda", NULL) < 0)
		fatal("%s: %s", printable(t->path), strerror(errno));
	file_list_sort(&l);
	size_t prefix = strlen(t->path);
	t->files.m = xcalloc((size_t)l.n + 1, sizeof *t->files.m);
	for (int i = 0; i < l.n; i++) {
		struct member *m = &t->files.m[t->files.n++];
		const char *rel = l.paths[i];
		if (strncmp(rel, t->path, prefix) == 0 && rel[prefix] == '/') /* find_files gives "." no prefix */
			rel += prefix + 1;
		m->name = xstrdup(rel + strspn(rel, "/"));
		m->data = (unsigned char *)read_file(l.paths[i], &m->len);
		if (!m->data)
			fatal("%s: %s", printable(l.paths[i]), strerror(errno));
	}
	file_list_free(&l);
}

static void open_tree(struct profile_tree *t, const char *path)
{
	struct stat st;
	char err[600];
	memset(t, 0, sizeof *t);
	t->path = path;
	if (stat(path, &st) < 0)
		fatal("%s: %s", printable(path), strerror(errno));
	if (S_ISDIR(st.st_mode))
		read_directory(t);
	else if (tarmem_read(path, ".gcda", &t->files, err, sizeof err) < 0)
		fatal("%s is neither a directory nor a stash of .gcda files: %s", printable(path), err);
	if (t->files.n == 0)
		fatal("no .gcda files in %s", printable(path));
	t->parsed = xcalloc((size_t)t->files.n, sizeof *t->parsed);
	for (int i = 0; i < t->files.n; i++) {
		const struct member *m = &t->files.m[i];
		char *name = xasprintf("%s/%s", path, m->name);
		if (gcov_parse(m->data, m->len, name, &t->parsed[i], err, sizeof err) < 0)
			fatal("%s", err);
		free(name);
		const struct gcov_file *f = &t->parsed[i];
		for (int k = 0; k < f->nfn; k++)
			for (uint32_t c = 0; f->fn[k].arcs && c < f->fn[k].narc_counters; c++)
				t->total += (double)f->fn[k].arcs[c];
	}
}

static void close_tree(struct profile_tree *t)
{
	for (int i = 0; i < t->files.n; i++)
		gcov_file_free(&t->parsed[i]);
	free(t->parsed);
	tarmem_free(&t->files);
}

/* Functions with counters, ordered by what makes two comparable, then by position. */
static int cmp_fn(const void *a, const void *b)
{
	const struct gcov_function *x = *(const struct gcov_function *const *)a, *y = *(const struct gcov_function *const *)b;
	if (x->ident != y->ident)
		return x->ident < y->ident ? -1 : 1;
	if (x->cfg_checksum != y->cfg_checksum)
		return x->cfg_checksum < y->cfg_checksum ? -1 : 1;
	if (x->narc_counters != y->narc_counters)
		return x->narc_counters < y->narc_counters ? -1 : 1;
	return (x > y) - (x < y);
}

/* The first function of sorted[0..n) comparable with x (same ident, checksum and counters). */
static const struct gcov_function *find_match(struct gcov_function **sorted, int n, const struct gcov_function *x)
{
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		const struct gcov_function *y = sorted[mid];
		int before = y->ident != x->ident ? y->ident < x->ident
			     : y->cfg_checksum != x->cfg_checksum ? y->cfg_checksum < x->cfg_checksum
								  : y->narc_counters < x->narc_counters;
		if (before)
			lo = mid + 1;
		else
			hi = mid;
	}
	const struct gcov_function *y = lo < n ? sorted[lo] : NULL;
	return y && y->ident == x->ident && y->cfg_checksum == x->cfg_checksum && y->narc_counters == x->narc_counters ? y
																	 : NULL;
}

/* Overlap of one file's functions: each counter as a share of its side's total. */
static double file_overlap(const struct gcov_file *fa, const struct gcov_file *fb, double sa, double sb)
{
	struct gcov_function **sorted = xcalloc((size_t)fb->nfn + 1, sizeof *sorted);
	int n = 0;
	double overlap = 0;
	for (int m = 0; m < fb->nfn; m++)
		if (fb->fn[m].arcs)
			sorted[n++] = &fb->fn[m];
	qsort(sorted, (size_t)n, sizeof *sorted, cmp_fn);
	for (int k = 0; k < fa->nfn; k++) {
		const struct gcov_function *x = &fa->fn[k], *y = x->arcs ? find_match(sorted, n, x) : NULL;
		for (uint32_t c = 0; y && c < x->narc_counters; c++) {
			double p = sa > 0 ? x->arcs[c] / sa : 0, q = sb > 0 ? y->arcs[c] / sb : 0;
			overlap += p < q ? p : q;
		}
	}
	free(sorted);
	return overlap;
}

/* Edge-count overlap of two gcc profile trees; also counts files that differ. */
static double gcc_overlap(const struct profile_tree *a, const struct profile_tree *b, int *files, int *differing)
{
	double overlap = 0;
	*files = 0;
	*differing = 0;
	for (int i = 0, j = 0; i < a->files.n || j < b->files.n;) {
		int cmp = i == a->files.n ? 1 : j == b->files.n ? -1 : strcmp(a->files.m[i].name, b->files.m[j].name);
		(*files)++;
		if (cmp != 0) { /* only on one side */
			(*differing)++;
			cmp < 0 ? i++ : j++;
			continue;
		}
		const struct member *ma = &a->files.m[i], *mb = &b->files.m[j];
		*differing += ma->len != mb->len || memcmp(ma->data, mb->data, ma->len) != 0;
		overlap += file_overlap(&a->parsed[i], &b->parsed[j], a->total, b->total);
		i++, j++;
	}
	return overlap;
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

static double clang_overlap(const char *tool, const char *a, const char *b, int *identical)
{
	struct stat st;
	if (stat(a, &st) < 0 || stat(b, &st) < 0) {
		const char *bad = stat(a, &st) < 0 ? a : b;
		fatal("%s: %s", printable(bad), strerror(errno));
	}
	char *sa = safe_path_arg(a), *sb = safe_path_arg(b);
	char *argv[] = {(char *)tool, "overlap", "--", sa, sb, NULL}, *out = NULL;
	int rc = capture(argv, &out);
	if (!proc_exit_ok(rc))
		fatal("%s overlap %s %s failed: %.400s", printable(tool), printable(a), printable(b),
		      out && *out ? printable(out) : "cannot run it");
	const char *p = strstr(out, "Edge profile overlap: ");
	if (!p)
		fatal("%s overlap printed no 'Edge profile overlap' line", printable(tool));
	double v = atof(p + strlen("Edge profile overlap: ")) / 100;
	free(out);
	free(sa);
	free(sb);
	*identical = same_bytes(a, b);
	return v;
}

static void print_result(int json, double similarity, int identical, int files, int differing)
{
	if (json) {
		struct json j;
		jw_init(&j, stdout);
		jw_begin_object(&j);
		jw_key(&j, "similarity");
		jw_fixed(&j, similarity, 6);
		jw_kv_bool(&j, "identical", identical);
		jw_kv_int(&j, "files", files);
		jw_kv_int(&j, "files_differing", differing);
		jw_end_object(&j);
		jw_finish(&j);
		return;
	}
	printf("similarity: %.3f%% (edge-count overlap)\nidentical:  %s", 100 * similarity, identical ? "yes" : "no");
	if (!identical)
		printf(" (%d of %d files differ)", differing, files);
	printf("\n");
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
	exit_failure = 2; /* 1 means "different": an error must never look like a result */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		switch (c) {
		case 'j': json = 1; break;
		case 't': tool = optarg; break;
		default: usage_error("unknown option '%s' (see 'profopt diff --help')", printable(argv[optind - 1]));
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
	print_result(json, similarity, identical, files, differing);
	return identical ? 0 : 1;
}

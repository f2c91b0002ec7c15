/* diff.c - `profopt diff A B`: how alike two profiles are (the edge-count overlap: the sum over
 * counters of min(a, b), each a share of its profile's total), and whether they are identical.
 * clang: llvm-profdata overlap computes it.  gcc: computed here, as gcov-tool overlap of GCC 12
 * reports 0% (inf%) for every pair (.gcda files no longer carry the summary it divides by). */
#include "commands.h"
#include "format/family.h"
#include "format/gcov_io.h"
#include "format/tooltext.h"
#include "lib/json.h"
#include "lib/proc.h"
#include "lib/sha256.h"
#include "lib/tarfile.h"
#include "lib/util.h"
#include "lib/walk.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct diff_options {
	const char *tool;
	int json;
};

static const struct option_spec diff_options[] = {
	OPT_TOOL(struct diff_options, tool),
	OPT_JSON(struct diff_options, json),
	OPT_END,
};

const struct command_options options_diff = {
	"diff",
	"[--json] [--tool=PATH] A B",
	"Compares two profiles of the same program: clang .profdata files, or gcc profiles\n"
	"(a build directory of .gcda files, or a stash such as pgo/profiles.tar).  Prints the\n"
	"similarity (edge-count overlap, 100% = the same distribution of counts) and whether\n"
	"the profiles are byte-for-byte identical.\n",
	.options = diff_options,
	"A stash is read in memory; nothing is extracted.\n"
	"Identical profiles (byte for byte) have similarity 100%; two profiles without a single\n"
	"count have the same (empty) distribution, 100%, and one without counts against one with\n"
	"counts 0% (the text says 'neither profile has a count', the JSON no_counts: true).\n"
	"Exit status: 0 identical, 1 different (however similar), 2 bad usage or any error (a\n"
	"missing, damaged or unreadable input, an empty raw profile, named in the message; output\n"
	"that could not be written).\n",
};

struct diff_result {
	int files, differing;   /* files compared (gcc; 1 for clang), and those that differ (byte for byte) */
	double total_a, total_b; /* the sum of each side's counters */
};

/* The .gcda files of one side, read into memory and parsed once. */
struct profile_tree {
	struct member_list files; /* sorted by name relative to the directory or archive */
	struct gcov_file *parsed;
	double total;             /* sum of all arc counters */
};

/* Every .gcda under a directory, named relative to it. */
static void read_directory(struct profile_tree *t, const char *path)
{
	struct file_list l = {0};
	find_files_all(&l, path, ".gcda", NULL);
	file_list_sort(&l);
	t->files.m = xcalloc((size_t)l.n + 1, sizeof *t->files.m);
	for (int i = 0; i < l.n; i++) {
		struct member *m = &t->files.m[t->files.n++];
		const char *rel = path_under(l.paths[i], path);
		m->name = xstrdup(rel + strspn(rel, "/"));
		char err[600];
		if (!(m->data = read_profile(l.paths[i], &m->len, err, sizeof err)))
			fatal("%s", err);
	}
	file_list_free(&l);
}

static void open_tree(struct profile_tree *t, const char *path)
{
	struct stat st;
	char err[600];
	memset(t, 0, sizeof *t);
	if (stat(path, &st) < 0)
		fatal("%s: %s", printable(path), strerror(errno));
	if (S_ISDIR(st.st_mode))
		read_directory(t, path);
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

/* Overlap of one file's functions: each counter as a share of its side's total.  Functions
 * are comparable with the same ident, checksum and number of counters. */
static double file_overlap(const struct gcov_file *fa, const struct gcov_file *fb, double sa, double sb)
{
	double overlap = 0;
	for (int k = 0; k < fa->nfn; k++) {
		const struct gcov_function *x = &fa->fn[k], *y = x->arcs ? gcov_find_function(fb, x->ident) : NULL;
		if (y && (!y->arcs || y->cfg_checksum != x->cfg_checksum || y->narc_counters != x->narc_counters))
			y = NULL;
		for (uint32_t c = 0; y && c < x->narc_counters; c++) {
			double p = sa > 0 ? x->arcs[c] / sa : 0, q = sb > 0 ? y->arcs[c] / sb : 0;
			overlap += p < q ? p : q;
		}
	}
	return overlap;
}

/* Edge-count overlap of two gcc profiles (directories or stashes); also counts files that differ. */
static double gcc_overlap(const char *pa, const char *pb, struct diff_result *r)
{
	struct profile_tree a, b;
	double overlap = 0;
	open_tree(&a, pa);
	open_tree(&b, pb);
	r->files = 0;
	for (int i = 0, j = 0; i < a.files.n || j < b.files.n;) {
		int cmp = i == a.files.n ? 1 : j == b.files.n ? -1 : strcmp(a.files.m[i].name, b.files.m[j].name);
		r->files++;
		if (cmp != 0) { /* only on one side */
			r->differing++;
			cmp < 0 ? i++ : j++;
			continue;
		}
		const struct member *ma = &a.files.m[i], *mb = &b.files.m[j];
		r->differing += ma->len != mb->len || memcmp(ma->data, mb->data, ma->len) != 0;
		overlap += file_overlap(&a.parsed[i], &b.parsed[j], a.total, b.total);
		i++, j++;
	}
	r->total_a = a.total, r->total_b = b.total;
	return overlap;
}

/* The sum of a clang profile's counters: overlap prints no figure for a profile without counts. */
static double clang_total(const char *tool, const char *path)
{
	struct shown_profile p;
	char *why = NULL;
	if (profdata_show(tool, path, &p, &why) < 0)
		fatal("%s show %s failed: %.400s", printable(tool), printable(path), why ? printable(why) : "");
	double total = 0;
	for (int i = 0; i < p.n; i++)
		total += (double)p.fn[i].sum;
	return total;
}

/* The file must exist; a raw one is read as merge reads it: an empty or damaged one is an error. */
static void check_raw(const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0)
		fatal("%s: %s", printable(path), strerror(errno));
	if (family_raw_damaged(&family_llvm, path))
		fatal("%s is damaged (named above): nothing to compare", printable(path));
}

static double clang_overlap(const char *tool, const char *a, const char *b, struct diff_result *r)
{
	check_raw(a);
	check_raw(b);
	char *sa = safe_path_arg(a), *sb = safe_path_arg(b);
	char *argv[] = {(char *)tool, "overlap", "--", sa, sb, NULL}, *out = NULL;
	int rc = capture(argv, &out);
	if (!proc_exit_ok(rc))
		fatal("%s overlap %s %s failed: %.400s", printable(tool), printable(a), printable(b),
		      out && *out ? printable(out) : "cannot run it");
	const char *p = strstr(out, "Edge profile overlap: ");
	double v = p ? atof(p + strlen("Edge profile overlap: ")) / 100 : 0;
	/* no figure: a side without counts (llvm-profdata divides by nothing and says nothing) */
	if (!p) {
		r->total_a = clang_total(tool, sa), r->total_b = clang_total(tool, sb);
		if (r->total_a > 0 && r->total_b > 0)
			fatal("%s overlap printed no 'Edge profile overlap' line", printable(tool));
	}
	/* compared by their SHA-256: memory does not grow with the profiles */
	char ha[SHA256_HEX_LEN + 1], hb[SHA256_HEX_LEN + 1];
	r->differing = !(sha256_file(a, ha) == 0 && sha256_file(b, hb) == 0 && strcmp(ha, hb) == 0);
	return v;
}

/* One answer whatever the counts: identical files have similarity 1; two profiles without
 * any count have the same (empty) distribution, 1; one without counts and one with, 0. */
static double settle(double overlap, const struct diff_result *r)
{
	if (!r->differing || (r->total_a == 0 && r->total_b == 0))
		return 1;
	return r->total_a == 0 || r->total_b == 0 ? 0 : overlap;
}

static void print_result(int json, double similarity, const struct diff_result *r)
{
	int no_counts = r->total_a == 0 && r->total_b == 0;
	if (json) {
		jw_print(json_pack("{s:f, s:b, s:b, s:i, s:i}", "similarity", similarity, "identical", !r->differing,
				   "no_counts", no_counts, "files", r->files, "files_differing", r->differing));
		return;
	}
	printf("similarity: %.3f%% (edge-count overlap%s)\nidentical:  %s", 100 * similarity,
	       no_counts ? "; neither profile has a count" : "", r->differing ? "no" : "yes");
	if (r->differing)
		printf(" (%d of %d files differ)", r->differing, r->files);
	printf("\n");
}

int cmd_diff(int argc, char **argv)
{
	struct diff_options o = {0};
	exit_failure = 2; /* 1 means "different": an error must never look like a result */
	int first = options_parse(&options_diff, argc, argv, &o);
	if (argc - first != 2)
		usage_error("two profiles to compare are needed (see 'profopt diff --help')");
	const char *a = argv[first], *b = argv[first + 1];
	int clang = ends_with(a, ".profdata") || ends_with(a, ".profraw");
	if (clang != (ends_with(b, ".profdata") || ends_with(b, ".profraw")))
		usage_error("cannot compare a clang profile with a gcc one");
	/* totals: 1 unless counted (gcc; clang when overlap has no figure) */
	struct diff_result r = {.files = 1, .total_a = 1, .total_b = 1};
	double overlap = clang ? clang_overlap(family_tool(o.tool), a, b, &r) : gcc_overlap(a, b, &r);
	print_result(o.json, settle(overlap, &r), &r);
	return r.differing ? 1 : 0;
}

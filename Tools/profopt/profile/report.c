/* report.c - `profopt report`: what the training run covered, per function, per source file
 * and overall.  Functions never executed are what the profile-use build optimizes as cold.
 * A function ran exactly when one of its counters is non-zero: both compilers count only the
 * edges off a spanning tree of the flow graph, so all-zero counters mean no flow at all.
 * The profile kind reads its files (format/family_*.c: collect); here they are summed up. */
#include "commands.h"
#include "format/family.h"
#include "lib/json.h"
#include "lib/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int cmp_place(const void *a, const void *b)
{
	const struct fn_stat *x = a, *y = b;
	int c = strcmp(x->file, y->file);
	if (!c)
		c = strcmp(x->name, y->name);
	if (!c)
		c = (x->line > y->line) - (x->line < y->line);
	return c;
}

static int cmp_heat(const void *a, const void *b)
{
	const struct fn_stat *x = *(struct fn_stat *const *)a, *y = *(struct fn_stat *const *)b;
	if (x->max != y->max)
		return x->max < y->max ? 1 : -1;
	if (x->sum != y->sum)
		return x->sum < y->sum ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* One function emitted in several objects (a static inline function of a header, or the
 * same object linked twice) is counted once: executed if any copy ran. */
static void merge_copies(struct report *r)
{
	if (r->nfn == 0)
		return;
	qsort(r->fn, (size_t)r->nfn, sizeof *r->fn, cmp_place);
	int out = 0;
	for (int i = 1; i < r->nfn; i++) {
		struct fn_stat *k = &r->fn[out], *f = &r->fn[i];
		if (f->line && cmp_place(k, f) == 0) {
			if (f->max > k->max)
				k->max = f->max;
			k->sum = k->sum + f->sum < k->sum ? UINT64_MAX : k->sum + f->sum;
			if (f->counters > k->counters) {
				k->counters = f->counters;
				k->zero = f->zero;
			}
		} else {
			r->fn[++out] = *f;
		}
	}
	r->nfn = out + 1;
}

struct totals {
	long functions, executed, lines, cold_lines;
	uint64_t counters, zero, sum;
};

static void add_totals(struct totals *t, const struct fn_stat *f)
{
	t->functions++;
	t->executed += f->max > 0;
	t->lines += f->lines;
	t->cold_lines += f->max ? 0 : f->lines;
	t->counters += f->counters;
	t->zero += f->zero;
	t->sum = t->sum + f->sum < t->sum ? UINT64_MAX : t->sum + f->sum;
}

/* Adds up the functions of r->fn[i]'s file (sorted together); returns the next file's first. */
static int file_totals(const struct report *r, int i, struct totals *t)
{
	int k = i;
	for (*t = (struct totals){0}; k < r->nfn && !strcmp(r->fn[k].file, r->fn[i].file); k++)
		add_totals(t, &r->fn[k]);
	return k;
}

static double share(double part, double whole)
{
	return whole > 0 ? part / whole : 0;
}

#define I(v) ((json_int_t)(v))
static json_t *json_totals(const struct totals *t, int lines)
{
	json_t *o = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I}", "functions", I(t->functions), "executed", I(t->executed),
			      "never_executed", I(t->functions - t->executed), "counters", I(t->counters), "zero_counters",
			      I(t->zero), "count_sum", I(t->sum > INT64_MAX ? INT64_MAX : t->sum)); /* for profopt coverage */
	if (lines)
		json_object_update_new(o, json_pack("{s:I, s:I}", "lines", I(t->lines), "cold_lines", I(t->cold_lines)));
	return o;
}

/* A function: its name and file, and more (a "{s:I...}" format and its values). */
#define FN(f, more, ...) json_pack("{s:o, s:o" more "}", "name", jw_text((f)->name), "file", jw_text((f)->file), __VA_ARGS__)

static void print_json(const struct report *r, const struct totals *all, struct fn_stat **hot, int top)
{
	json_t *doc = json_pack("{s:s, s:o, s:i, s:i}", "family", r->family->name, "format",
				jw_opt(r->version[0] ? r->version : NULL), "profile_files", r->profile_files,
				"damaged_files", r->damaged), *files = json_array(), *hottest = json_array(), *cold = json_array();
	if (r->family->facts)
		r->family->facts(r, doc);
	for (int i = 0, next; i < r->nfn; i = next) {
		struct totals t;
		next = file_totals(r, i, &t);
		json_t *o = json_pack("{s:o}", "file", jw_text(r->fn[i].file));
		json_object_update_new(o, json_totals(&t, r->have_lines));
		json_array_append_new(files, o);
	}
	for (int i = 0; i < top && i < r->nfn && hot[i]->max; i++)
		json_array_append_new(hottest, FN(hot[i], ", s:I, s:I", "max_count", I(hot[i]->max), "sum_count", I(hot[i]->sum)));
	for (int i = 0; i < r->nfn; i++)
		if (!r->fn[i].max)
			json_array_append_new(cold, r->fn[i].line ? FN(&r->fn[i], ", s:i", "line", (int)r->fn[i].line)
								  : FN(&r->fn[i], "", NULL));
	json_t *lines = !r->have_lines ? json_null()
		: json_pack("{s:I, s:I, s:f}", "total", I(all->lines), "in_never_executed_functions", I(all->cold_lines),
			    "cold_share", share((double)all->cold_lines, (double)all->lines));
	json_object_update_new(doc, json_pack("{s:{s:I, s:I, s:I, s:f}, s:{s:I, s:I, s:f}, s:o, s:o, s:o, s:o}",
		"functions", "total", I(all->functions), "executed", I(all->executed), "never_executed",
		I(all->functions - all->executed), "never_executed_share",
		share((double)(all->functions - all->executed), (double)all->functions),
		"counters", "total", I(all->counters), "never_taken", I(all->zero), "never_taken_share",
		share((double)all->zero, (double)all->counters),
		"lines", lines, "files", files, "hottest", hottest, "never_executed", cold));
	jw_print(doc);
}

/* The two lines the pipeline shows after its merge (--brief): how much ran, how much is cold. */
static void print_headline(const struct report *r, const struct totals *all)
{
	long never = all->functions - all->executed;
	printf("functions executed:  %ld of %ld (%.1f%%)\n", all->executed, all->functions,
	       100 * share((double)all->executed, (double)all->functions));
	printf("never executed:      %ld function%s (%.1f%%)", never, never == 1 ? "" : "s",
	       100 * share((double)never, (double)all->functions));
	if (r->have_lines)
		printf(", %ld of %ld lines of functions (%.1f%%)", all->cold_lines, all->lines,
		       100 * share((double)all->cold_lines, (double)all->lines));
	printf(": optimized as cold\n");
}

static void print_text(const struct report *r, const struct totals *all, struct fn_stat **hot, int top, int list_cold)
{
	printf("%s profile: %d file%s", r->family->name, r->profile_files, r->profile_files == 1 ? "" : "s");
	if (r->version[0])
		printf(", %s %s", r->family->format, r->version);
	if (r->family->facts)
		r->family->facts(r, NULL);
	if (r->damaged)
		printf(", %d DAMAGED", r->damaged);
	printf("\n");
	print_headline(r, all);
	printf("counters never hit:  %llu of %llu (%.1f%%)\n", (unsigned long long)all->zero,
	       (unsigned long long)all->counters, 100 * share((double)all->zero, (double)all->counters));
	if (!r->have_names)
		printf("(no .gcno notes: %d global functions named from the objects' symbols, static ones numbered;\n"
		       " build with -ftest-coverage for all names and source files)\n", r->named_by_symbol);

	int width = 20;
	for (int i = 0; i < r->nfn; i++) {
		int w = (int)strlen(printable(r->fn[i].file));
		if (w > width)
			width = w > 60 ? 60 : w;
	}
	printf("\n%-*s %9s %9s %7s %9s%s\n", width, r->have_names ? "source file" : "object", "functions", "executed",
	       "never", "executed%", r->have_lines ? "  cold lines" : "");
	for (int i = 0, next; i < r->nfn; i = next) {
		struct totals t;
		next = file_totals(r, i, &t);
		printf("%-*s %9ld %9ld %7ld %8.1f%%", width, printable(r->fn[i].file), t.functions, t.executed, t.functions - t.executed,
		       100 * share((double)t.executed, (double)t.functions));
		if (r->have_lines)
			printf("  %ld/%ld", t.cold_lines, t.lines);
		printf("\n");
	}
	printf("%-*s %9ld %9ld %7ld %8.1f%%\n", width, "total", all->functions, all->executed, all->functions - all->executed,
	       100 * share((double)all->executed, (double)all->functions));

	printf("\nhottest functions (largest counter):\n");
	for (int i = 0; i < top && i < r->nfn && hot[i]->max; i++)
		printf("  %14llu  %s  (%s)\n", (unsigned long long)hot[i]->max, printable(hot[i]->name),
		       printable(hot[i]->file));
	if (list_cold) {
		printf("\nnever executed:\n");
		for (int i = 0; i < r->nfn; i++)
			if (!r->fn[i].max) {
				printf("  %s  (%s", printable(r->fn[i].name), printable(r->fn[i].file));
				printf(r->fn[i].line ? ":%u)\n" : ")\n", r->fn[i].line);
			}
	}
}

struct report_opts {
	const struct family *fam;
	const char *family;
	struct report_input in;
	struct option_list skip;
	int json, list_cold, brief;
	long long top;
};

#define O struct report_opts
static const struct option_spec report_options[] = {
	OPT_STRING("profile-dir", 0, O, in.dir, "DIR", "input: the training's raw profiles (gcc: the build tree)"),
	OPT_STRING("archive", 0, O, in.archive, "FILE", "input, gcc: a stash of .gcda files (tar), e.g. pgo/profiles.tar"),
	OPT_STRING("profdata", 0, O, in.profdata, "FILE", "input, clang: a merged .profdata, or one .profraw"),
	OPT_FAMILY(O, family),
	OPT_STRING("notes-dir", 0, O, in.notes_dir, "DIR", "gcc: where the .gcno files are (default: beside the .gcda)"),
	OPT_TOOL(O, in.tool),
	OPT_STRING("nm", 0, O, in.nm, "PATH", "gcc without .gcno: nm, to name global functions (default: nm)"),
	OPT_INT("top", 0, O, top, "N", 1, 1000000000, "hottest functions to list (default 10)"),
	OPT_FLAG("list-cold", 0, O, list_cold, "also list every function never executed"),
	OPT_FLAG("brief", 0, O, brief, "only the lines of functions executed and never executed (what make shows)"),
	OPT_SKIP(O, skip),
	OPT_JSON(O, json),
	OPT_END,
};
#undef O

const struct command_options options_report = {
	"report",
	"[--family=gcc|clang] INPUT [--json] [--top=N] [--list-cold]",
	"Shows what a training run covered: functions executed out of all instrumented ones,\n"
	"per file and overall, and the hottest.  INPUT: --profile-dir, --archive or --profdata.\n",
	.options = report_options,
	"gcc names functions in its .gcno notes only: build with -ftest-coverage for names.\n"
	"Exit status: 0, 1 when no profile was found or a profile file is damaged, 2 bad usage.\n",
};

/* Options and their consistency; the family guessed from the files when not given. */
static void parse_options(int argc, char **argv, struct report_opts *o)
{
	*o = (struct report_opts){.in = {.nm = "nm"}, .top = 10};
	int first = options_parse(&options_report, argc, argv, o);
	if (first < argc)
		usage_error("unexpected argument '%s' (see 'profopt report --help')", printable(argv[first]));
	struct report_input *in = &o->in;
	in->tool = family_tool(in->tool);
	in->skip = o->skip.v;
	if (!in->dir && !in->archive && !in->profdata)
		usage_error("what to report on? --profile-dir=DIR, --archive=FILE or --profdata=FILE");
	if (in->profdata && in->archive)
		usage_error("--profdata is for clang profiles; gcc profiles are read with --profile-dir or --archive");
	o->fam = family_parse(o->family);
	if (!o->fam)
		o->fam = family_guess(in);
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o;
	parse_options(argc, argv, &o);
	struct report r = {.family = o.fam};
	o.fam->collect(&r, &o.in);
	if (r.profile_files == 0)
		fatal("no profile data: no %s files under %s", r.family->raw_suffix,
		      printable(o.in.archive ? o.in.archive : o.in.dir));
	merge_copies(&r);
	struct totals all = {0};
	struct fn_stat **hot = xcalloc((size_t)r.nfn + 1, sizeof *hot);
	for (int i = 0; i < r.nfn; i++) {
		add_totals(&all, &r.fn[i]);
		hot[i] = &r.fn[i];
	}
	qsort(hot, (size_t)r.nfn, sizeof *hot, cmp_heat);
	if (o.json)
		print_json(&r, &all, hot, (int)o.top);
	else if (o.brief)
		print_headline(&r, &all);
	else
		print_text(&r, &all, hot, (int)o.top, o.list_cold);
	return r.damaged ? 1 : 0;
}

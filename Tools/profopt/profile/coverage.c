/* coverage.c - `profopt coverage`: how much of each group of compiled units several trainings
 * reached, from `profopt report --json` outputs.  Units are the report's source files (objects
 * for gcc without notes); --objects places clang's global functions, which have no file (nm). */
#include "commands.h"
#include "profile/coverage.h"
#include "lib/json.h"
#include "lib/proc.h"
#include "lib/lines.h"
#include "lib/strmap.h"
#include "lib/util.h"
#include "lib/walk.h"
#include "format/tooltext.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct coverage_options {
	const char *groups, *objects, *nm;
	int list_groups, json;
	double threshold;
};

#define O struct coverage_options
static const struct option_spec coverage_options[] = {
	OPT_STRING("groups", 0, O, groups, "FILE", "your own groups: lines 'GROUP PATTERN...'"),
	OPT_FLAG("list-groups", 0, O, list_groups, "print the groups (built-in or --groups) in that format and exit"),
	OPT_SHARE("threshold", 0, O, threshold, "PCT", "not reached: at most PCT% of its functions ran (default 0)"),
	OPT_STRING("objects", 0, O, objects, "DIR", "clang: place global functions in the objects under DIR"),
	OPT_STRING("nm", 0, O, nm, "PATH", "the nm that reads those objects (default: nm; llvm-nm for LTO bitcode)"),
	OPT_JSON(O, json),
	OPT_END,
};
#undef O

const struct command_options options_coverage = {
	"coverage",
	"[OPTIONS] [NAME=]REPORT.json [[NAME=]REPORT.json ...]",
	"Shows, per group of compiled units, how much of it a training reached, one column per\n"
	"'profopt report --json' output, e.g.\n"
	"  profopt coverage own=report-own.json regrtest=report-regrtest.json\n",
	.options = coverage_options,
	"Exit status: 0, 1 when an input cannot be read, 2 on bad usage.\n",
};

/* CPython's units: the paths of its source tree. */
static const char builtin_groups[] =
	"core      Python/ceval* Python/generated_cases* Python/executor_cases* Python/specialize* Python/bytecodes*\n"
	"objects   Objects/*\n"
	"compiler  Parser/* Python/compile* Python/ast* Python/symtable* Python/flowgraph* Python/codegen*\n"
	"          Python/assemble* Python/future* Python/peephole*\n"
	"import    Python/import* Python/pylifecycle* Python/marshal* Modules/main* Python/frozen*\n"
	"          Python/initconfig* Python/pathconfig* Python/preconfig* Modules/getpath* Python/dynload*\n"
	"          Python/bootstrap_hash* Programs/python.*\n"
	"_sre      Modules/_sre/* Modules/_sre.*\n"
	"_decimal  Modules/_decimal/*\n"
	"_sqlite   Modules/_sqlite/*\n"
	"_json     Modules/_json*\n"
	"_pickle   Modules/_pickle*\n"
	"hashing   Modules/*sha* Modules/*md5* Modules/_blake2/* Modules/_hashopenssl* Modules/_hacl/*\n"
	"          Modules/hashlib*\n"
	"compression Modules/zlibmodule* Modules/_bz2module* Modules/_lzmamodule* Modules/_zstd/*\n";

/* A source file (or object) of the report's files[]. */
struct cov_file {
	char *file;
	long functions, executed;
	uint64_t count_sum;
};

/* A function of the report's hottest[] (executed) or never_executed[]. */
struct cov_fn {
	char *name, *file;
	int executed;
	uint64_t sum;
};

struct cov_input {
	char *name, *path;   /* NAME=PATH as given */
	char *family;        /* gcc or clang */
	struct cov_file *files;
	int nfiles;
	struct cov_fn *fns;
	int nfns;
	long executed;       /* functions.executed */
	long listed_executed; /* executed functions hottest[] lists (all of them with a large --top) */
	int have_sums;       /* every files[] entry has count_sum */
};

/* A non-negative integer member, or -1 when it is missing or not one. */
static long long member_count(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);
	return json_is_integer(v) && json_integer_value(v) >= 0 ? json_integer_value(v) : -1;
}

static const char *member_string(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

static void read_files(const json_t *files, struct cov_input *in, const char *path)
{
	size_t n = json_array_size(files);
	in->files = xcalloc(n + 1, sizeof *in->files);
	in->have_sums = 1;
	for (size_t i = 0; i < n; i++) {
		const json_t *f = json_array_get(files, i);
		const char *name = member_string(f, "file");
		long long fns = member_count(f, "functions"), ex = member_count(f, "executed"), sum = member_count(f, "count_sum");
		if (!name || fns < 0 || ex < 0 || ex > fns)
			fatal("%s: files[%zu] is not a file entry of profopt report (file, functions, executed)", path, i);
		in->files[in->nfiles++] = (struct cov_file){xstrdup(name), (long)fns, (long)ex, sum < 0 ? 0 : (uint64_t)sum};
		in->have_sums &= sum >= 0;
	}
}

/* hottest[] (executed, with sum_count) and never_executed[] entries. */
static void read_functions(const json_t *list, int executed, struct cov_input *in)
{
	size_t n = json_array_size(list);
	in->fns = xrealloc(in->fns, (size_t)(in->nfns + (int)n + 1) * sizeof *in->fns);
	for (size_t i = 0; i < n; i++) {
		const json_t *f = json_array_get(list, i);
		const char *name = member_string(f, "name"), *file = member_string(f, "file");
		if (!name || !file)
			continue;
		long long sum = member_count(f, "sum_count");
		in->fns[in->nfns++] = (struct cov_fn){xstrdup(name), xstrdup(file), executed, sum < 0 ? 0 : (uint64_t)sum};
		in->listed_executed += executed;
	}
}

/* Reads a report into *in (name and path set by the caller); exits naming what is wrong. */
static void read_report(const char *path, struct cov_input *in)
{
	json_error_t jerr;
	json_t *doc = json_load_file(path, 0, &jerr);
	if (!doc)
		fatal("%s: line %d: %s", path, jerr.line, jerr.text);
	const json_t *files = json_object_get(doc, "files"), *fns = json_object_get(doc, "functions");
	const char *family = member_string(doc, "family");
	if (!json_is_array(files) || !json_is_object(fns) || !family)
		fatal("%s: not the output of 'profopt report --json' (no family, functions or files[])", path);
	read_files(files, in, path);
	in->family = xstrdup(family);
	in->executed = (long)member_count(fns, "executed");
	read_functions(json_object_get(doc, "hottest"), 1, in);
	read_functions(json_object_get(doc, "never_executed"), 0, in);
	json_decref(doc);
}

#define GROUPS_LINE_MAX 65536 /* bytes of a line of a --groups file */

struct group {
	char *name;
	char **patterns;
	int npat;
};

struct groups {
	struct group *g;
	int n;           /* defined groups; then "other" (n) and "(no file)" (n + 1) */
};

/* The units of one input and their counts. */
struct units {
	struct cov_file *u;
	int n, cap;
};

/* One group in one input. */
struct tally {
	long units, reached_units, functions, executed;
	uint64_t sum;
};

/* Lines "GROUP PATTERN..."; a line that starts with blanks continues the group above. */
static void parse_groups(struct groups *gs, struct lines *l, const char *origin)
{
	char *save = NULL;
	struct group *cur = NULL;
	for (char *line; (line = lines_next(l));) {
		int lineno = l->lineno;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		int continued = line[0] == ' ' || line[0] == '\t';
		char *word = strtok_r(line, " \t\r", &save);
		if (!word)
			continue;
		if (!continued) {
			cur = NULL;
			for (int i = 0; i < gs->n; i++)
				if (!strcmp(gs->g[i].name, word))
					cur = &gs->g[i];
			if (!strcmp(word, "other") || !strcmp(word, "(no file)"))
				fatal("%s:%d: '%s' is the name of the units no group matches: choose another", origin, lineno, word);
			if (!cur) {
				gs->g = xrealloc(gs->g, (size_t)(gs->n + 1) * sizeof *gs->g);
				cur = &gs->g[gs->n++];
				*cur = (struct group){xstrdup(word), NULL, 0};
			}
			word = strtok_r(NULL, " \t\r", &save);
		} else if (!cur) {
			fatal("%s:%d: a continued line with no group above it", origin, lineno);
		}
		for (; word; word = strtok_r(NULL, " \t\r", &save)) {
			cur->patterns = xrealloc(cur->patterns, (size_t)(cur->npat + 1) * sizeof *cur->patterns);
			cur->patterns[cur->npat++] = xstrdup(word);
		}
		if (cur->npat == 0)
			fatal("%s:%d: group '%s' has no pattern (lines are 'GROUP PATTERN...')", origin, lineno, cur->name);
	}
	if (gs->n == 0)
		fatal("%s: no groups (lines are 'GROUP PATTERN...')", origin);
}

/* ---- units: paths and groups ---- */

/* The group of a unit; an object X.o (gcc without notes, or placed by --objects) is also
 * matched as its source X.c, so that one groups file serves every kind of report. */
static int group_of(const struct groups *gs, const char *path)
{
	if (!strcmp(path, COV_NO_FILE))
		return gs->n + 1;
	char *source = ends_with(path, ".o") ? xasprintf("%.*s.c", (int)strlen(path) - 2, path) : NULL;
	int found = gs->n;
	for (int i = 0; i < gs->n && found == gs->n; i++)
		for (int k = 0; k < gs->g[i].npat; k++)
			if (cov_path_matches(gs->g[i].patterns[k], path) || (source && cov_path_matches(gs->g[i].patterns[k], source))) {
				found = i;
				break;
			}
	free(source);
	return found;
}

static const char *group_name(const struct groups *gs, int i)
{
	return i < gs->n ? gs->g[i].name : i == gs->n ? "other" : "(no file)";
}

/* ---- global functions -> objects (nm) ---- */

struct symbols {
	struct strmap defined; /* global text symbol -> its object, or `several` */
	char **objects;        /* every object under --objects, relative to it */
	int nobjects;
};

static char several[] = "(several objects)";

/* Keeps the global text symbols (T, W) with the object defining them; a name several objects
 * define (each program's main) tells nothing. */
static void add_symbol(void *ctx, int object, const char *name, char type)
{
	struct symbols *syms = ctx;
	if (type != 'T' && type != 'W')
		return;
	void **slot = strmap_slot(&syms->defined, name, 1);
	*slot = !*slot || *slot == syms->objects[object] ? syms->objects[object] : several;
}

static void read_symbols(struct symbols *syms, const char *dir, const char *nm)
{
	struct file_list objs = {0};
	if (find_files(&objs, dir, ".o", NULL) < 0)
		fatal("--objects=%s: %s", dir, strerror(errno));
	file_list_sort(&objs);
	if (objs.n == 0)
		warn("--objects=%s: no object files (.o) there", dir);
	syms->objects = xcalloc((size_t)objs.n + 1, sizeof *syms->objects);
	for (int i = 0; i < objs.n; i++)
		syms->objects[syms->nobjects++] = xstrdup(path_under(objs.paths[i], dir));
	char *why = NULL;
	int st = nm_symbols(nm, objs.paths, objs.n, NM_DEFINED, add_symbol, syms, &why);
	if (st == RUN_NOT_STARTED)
		fatal("cannot run %s (--nm=PATH)", nm);
	if (st)
		warn("%s could not read every object under %s (LTO bitcode wants llvm-nm: --nm=PATH): %.200s", nm, dir,
		     why ? why : "");
}

/* ---- units ---- */

/* The index of the unit for path (made if new); match_stems: a source and its object are one. */
static int unit_for(struct units *us, const char *path, int match_stems)
{
	for (int i = 0; i < us->n; i++)
		if (!strcmp(us->u[i].file, path) || (match_stems && strcmp(us->u[i].file, COV_NO_FILE) && cov_same_unit(us->u[i].file, path)))
			return i;
	us->u = grow_array(us->u, us->n, &us->cap, sizeof *us->u, 256);
	us->u[us->n] = (struct cov_file){xstrdup(path), 0, 0, 0};
	return us->n++;
}

/* The units of one input: its files, with the functions that have no file moved to the object
 * that defines them when the symbols are known.  Returns how many were moved. */
static long build_units(struct units *us, const struct cov_input *in, const struct symbols *syms)
{
	for (int i = 0; i < in->nfiles; i++) {
		const char *object = syms ? cov_object_for_file(syms->objects, syms->nobjects, in->files[i].file) : NULL;
		int k = unit_for(us, object ? object : in->files[i].file, 0); /* before us->u moves */
		struct cov_file *u = &us->u[k];
		u->functions += in->files[i].functions;
		u->executed += in->files[i].executed;
		u->count_sum += in->files[i].count_sum;
	}
	long moved = 0;
	for (int i = 0; syms && i < in->nfns; i++) {
		const struct cov_fn *f = &in->fns[i];
		const char *object = strcmp(f->file, COV_NO_FILE) ? NULL : strmap_get(&syms->defined, f->name);
		if (!object || object == several)
			continue;
		int t = unit_for(us, object, 1), fr = unit_for(us, COV_NO_FILE, 0);
		struct cov_file *from = &us->u[fr], *to = &us->u[t];
		from->functions--;
		from->executed -= f->executed;
		from->count_sum = from->count_sum > f->sum ? from->count_sum - f->sum : 0;
		to->functions++;
		to->executed += f->executed;
		to->count_sum += f->sum;
		moved++;
	}
	return moved;
}

/* ---- tallies and output ---- */

struct table {
	const struct groups *gs;
	int ngroups;            /* gs->n + 2: with "other" and "(no file)" */
	int ninputs;
	const struct cov_input *in;
	struct tally *t;        /* [group * ninputs + input]; group ngroups: all of them */
	long *moved;            /* [input]: functions placed by --objects */
	double threshold;
};

static struct tally *cell(const struct table *tb, int g, int i)
{
	return &tb->t[g * tb->ninputs + i];
}

static void add_unit(struct tally *c, const struct cov_file *u)
{
	c->units++;
	c->reached_units += u->executed > 0;
	c->functions += u->functions;
	c->executed += u->executed;
	c->sum += u->count_sum;
}

static void tally_input(struct table *tb, int i, const struct symbols *syms)
{
	struct units us = {0};
	tb->moved[i] = build_units(&us, &tb->in[i], syms);
	for (int k = 0; k < us.n; k++) {
		const struct cov_file *u = &us.u[k];
		if (u->functions <= 0)
			continue;
		add_unit(cell(tb, group_of(tb->gs, u->file), i), u);
		add_unit(cell(tb, tb->ngroups, i), u);
	}
}

static double ratio(double part, double whole)
{
	return whole > 0 ? part / whole : 0;
}

static int reached(const struct table *tb, const struct tally *c)
{
	return c->executed > 0 && ratio((double)c->executed, (double)c->functions) > tb->threshold;
}

/* Is row g worth a line: a defined group, or "other"/"(no file)" when some input has units there. */
static int shown(const struct table *tb, int g)
{
	if (g < tb->gs->n)
		return 1;
	for (int i = 0; i < tb->ninputs; i++)
		if (cell(tb, g, i)->units)
			return 1;
	return 0;
}

#define CELL_W 32

/* Row g, or the total (g == ngroups). */
static void print_row(const struct table *tb, int g, int namew)
{
	printf("%-*s", namew, g < tb->ngroups ? group_name(tb->gs, g) : "total");
	for (int i = 0; i < tb->ninputs; i++) {
		const struct tally *c = cell(tb, g, i);
		if (!c->units) {
			printf("  %9s %18s %7s", "-", "-", "-");
			continue;
		}
		char u[32], f[48], k[16] = "-";
		snprintf(u, sizeof u, "%ld/%ld", c->reached_units, c->units);
		snprintf(f, sizeof f, "%ld/%ld %5.1f%%", c->executed, c->functions, 100 * ratio((double)c->executed, (double)c->functions));
		if (tb->in[i].have_sums)
			snprintf(k, sizeof k, "%5.1f%%", 100 * ratio((double)c->sum, (double)cell(tb, tb->ngroups, i)->sum));
		printf("  %9s %18s %7s", u, f, k);
	}
	printf("\n");
}

/* Is group g of input i named as not reached, or (not_in_profile) as having no unit? */
static int named(const struct table *tb, int g, int i, int not_in_profile)
{
	const struct tally *c = cell(tb, g, i);
	return not_in_profile ? c->units == 0 : c->units > 0 && !reached(tb, c);
}

/* Per input, the groups not reached (reached == 0) or not in the profile (no unit). */
static void print_named(const struct table *tb, int not_in_profile)
{
	int any = 0;
	for (int i = 0; i < tb->ninputs; i++) {
		struct buf b = {0};
		for (int g = 0; g < tb->gs->n; g++)
			if (named(tb, g, i, not_in_profile))
				buf_printf(&b, "%s%s", b.len ? ", " : "", tb->gs->g[g].name);
		if (b.len) {
			if (!any++)
				printf(not_in_profile ? "\nnot in the profile (no unit of the group; a module never loaded, or not built):\n"
						      : "\nnot reached (%s):\n",
				       tb->threshold > 0 ? "at most the threshold of functions executed" : "no function executed");
			printf("  %s: %s\n", printable(tb->in[i].name), printable(b.data));
		}
		buf_free(&b);
	}
	if (!any && !not_in_profile)
		printf("\nevery group in the profile was reached by every training\n");
}

static void print_text(const struct table *tb)
{
	int namew = 12;
	for (int g = 0; g < tb->ngroups; g++)
		if ((int)strlen(group_name(tb->gs, g)) > namew)
			namew = (int)strlen(group_name(tb->gs, g));
	printf("training coverage per group of units: units with counts/units, functions executed/functions,\n"
	       "and the group's share of all the counts of the run\n\n%-*s", namew, "");
	for (int i = 0; i < tb->ninputs; i++) {
		char h[256];
		snprintf(h, sizeof h, "%s (%s)", tb->in[i].name, tb->in[i].family);
		printf("  %-*s", CELL_W + 4, h);
	}
	printf("\n%-*s", namew, "group");
	for (int i = 0; i < tb->ninputs; i++)
		printf("  %9s %18s %7s", "units", "functions", "counts");
	printf("\n");
	for (int g = 0; g <= tb->ngroups; g++)
		if (g == tb->ngroups || shown(tb, g))
			print_row(tb, g, namew);
	for (int i = 0; i < tb->ninputs; i++) {
		const struct cov_input *in = &tb->in[i];
		if (!in->have_sums)
			printf("(%s: the report has no count_sum per file: counts not shown)\n", printable(in->name));
		if (cell(tb, tb->gs->n + 1, i)->units)
			printf("(%s: '(no file)' are global functions clang's profile names no file for: --objects=BUILD_DIR places them)\n",
			       printable(in->name));
	}
	print_named(tb, 0);
	print_named(tb, 1);
}

#define I(v) ((json_int_t)(v))
#define SUM(v) I((v) > INT64_MAX ? INT64_MAX : (v))

static json_t *json_named(const struct table *tb, int not_in_profile)
{
	json_t *o = json_object();
	for (int i = 0; i < tb->ninputs; i++) {
		json_t *groups = json_array();
		for (int g = 0; g < tb->gs->n; g++)
			if (named(tb, g, i, not_in_profile))
				json_array_append_new(groups, jw_text(tb->gs->g[g].name));
		jw_set(o, tb->in[i].name, groups);
	}
	return o;
}

static json_t *json_group(const struct table *tb, int g)
{
	json_t *patterns = json_array(), *results = json_array();
	for (int k = 0; g < tb->gs->n && k < tb->gs->g[g].npat; k++)
		json_array_append_new(patterns, jw_text(tb->gs->g[g].patterns[k]));
	for (int i = 0; i < tb->ninputs; i++) {
		const struct tally *c = cell(tb, g, i);
		json_t *count_share = tb->in[i].have_sums ? json_real(ratio((double)c->sum, (double)cell(tb, tb->ngroups, i)->sum))
							  : json_null();
		json_array_append_new(results, json_pack("{s:o, s:I, s:I, s:I, s:I, s:f, s:I, s:o, s:b, s:b}", "input",
							 jw_text(tb->in[i].name), "units", I(c->units), "units_with_counts",
							 I(c->reached_units), "functions", I(c->functions), "executed",
							 I(c->executed), "executed_share",
							 ratio((double)c->executed, (double)c->functions), "count_sum",
							 SUM(c->sum), "count_share", count_share, "in_profile", c->units > 0,
							 "reached", reached(tb, c)));
	}
	return json_pack("{s:o, s:o, s:o}", "name", jw_text(group_name(tb->gs, g)), "patterns", patterns, "results", results);
}

static void print_json(const struct table *tb, const char *groups_source)
{
	json_t *inputs = json_array(), *groups = json_array();
	for (int i = 0; i < tb->ninputs; i++) {
		const struct cov_input *in = &tb->in[i];
		const struct tally *all = cell(tb, tb->ngroups, i); /* the input's units in every group */
		json_array_append_new(inputs, json_pack("{s:o, s:o, s:o, s:I, s:I, s:I, s:I, s:I, s:I}", "name",
							jw_text(in->name), "file", jw_text(in->path), "family",
							jw_opt(in->family), "units", I(all->units), "functions",
							I(all->functions), "executed", I(all->executed), "count_sum",
							SUM(all->sum), "placed_by_objects", I(tb->moved[i]), "unlisted_executed",
							I(in->executed > in->listed_executed ? in->executed - in->listed_executed : 0)));
	}
	for (int g = 0; g < tb->ngroups; g++)
		if (shown(tb, g))
			json_array_append_new(groups, json_group(tb, g));
	jw_print(json_pack("{s:s, s:f, s:o, s:o, s:o, s:o, s:o}", "tool", "profopt coverage", "threshold", tb->threshold,
			   "groups_source", jw_opt(groups_source), "inputs", inputs, "groups", groups, "not_reached",
			   json_named(tb, 0), "not_in_profile", json_named(tb, 1)));
}

/* "NAME=FILE", or FILE named by its base name without .json. */
static void parse_input(const char *arg, struct cov_input *in)
{
	const char *eq = strchr(arg, '=');
	if (eq && eq > arg && eq[1] && strspn(arg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+-") == (size_t)(eq - arg)) {
		in->name = xasprintf("%.*s", (int)(eq - arg), arg);
		in->path = xstrdup(eq + 1);
		return;
	}
	const char *base = strrchr(arg, '/') ? strrchr(arg, '/') + 1 : arg;
	size_t n = strlen(base);
	in->name = xasprintf("%.*s", (int)(ends_with(base, ".json") && n > 5 ? n - 5 : n), base);
	in->path = xstrdup(arg);
}

static void list_groups(const struct groups *gs)
{
	for (int g = 0; g < gs->n; g++) {
		printf("%s", gs->g[g].name);
		for (int k = 0; k < gs->g[g].npat; k++)
			printf(" %s", gs->g[g].patterns[k]);
		printf("\n");
	}
}

/* Warns when executed functions with no file are missing from hottest[]: they stay '(no file)'. */
static void check_listing(const struct cov_input *in)
{
	for (int i = 0; i < in->nfiles; i++)
		if (!strcmp(in->files[i].file, COV_NO_FILE) && in->executed > in->listed_executed) {
			warn("%s lists %ld of %ld executed functions (hottest[]): those not listed stay '(no file)'; "
			     "run profopt report with --top=1000000",
			     in->path, in->listed_executed, in->executed);
			return;
		}
}

int cmd_coverage(int argc, char **argv)
{
	struct coverage_options o = {.nm = "nm"};
	int first = options_parse(&options_coverage, argc, argv, &o);
	const char *groups_file = o.groups, *objects = o.objects;
	struct groups gs = {0};
	struct lines l;
	char err[1024];
	if (groups_file ? lines_read(&l, groups_file, LINES_TEXT, GROUPS_LINE_MAX, err, sizeof err)
			: lines_parse(&l, builtin_groups, strlen(builtin_groups), "built-in groups", LINES_TEXT,
				      GROUPS_LINE_MAX, err, sizeof err))
		fatal("cannot read the groups: %s", err);
	parse_groups(&gs, &l, groups_file ? groups_file : "built-in groups");
	if (o.list_groups) {
		list_groups(&gs);
		return 0;
	}
	int n = argc - first;
	if (n < 1)
		usage_error("no report given: profopt coverage [NAME=]REPORT.json ... (from 'profopt report --json')");
	struct cov_input *in = xcalloc((size_t)n, sizeof *in);
	for (int i = 0; i < n; i++) {
		parse_input(argv[first + i], &in[i]);
		for (int k = 0; k < i; k++)
			if (!strcmp(in[k].name, in[i].name))
				usage_error("input name '%s' given twice (name them: NAME=REPORT.json)", in[i].name);
		read_report(in[i].path, &in[i]);
		if (objects)
			check_listing(&in[i]);
	}
	struct symbols syms = {0};
	if (objects)
		read_symbols(&syms, objects, o.nm);
	struct table tb = {.gs = &gs, .ngroups = gs.n + 2, .ninputs = n, .in = in, .threshold = o.threshold};
	tb.t = xcalloc((size_t)((tb.ngroups + 1) * n), sizeof *tb.t);
	tb.moved = xcalloc((size_t)n, sizeof *tb.moved);
	for (int i = 0; i < n; i++)
		tally_input(&tb, i, objects ? &syms : NULL);
	if (o.json)
		print_json(&tb, groups_file ? groups_file : "built-in (CPython)");
	else
		print_text(&tb);
	return 0;
}

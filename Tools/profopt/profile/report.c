/* report.c - `profopt report`: what the training run covered, per function, per source file
 * and overall.  Functions never executed are what the profile-use build optimizes as cold.
 * A function ran exactly when one of its counters is non-zero: both compilers count only the
 * edges off a spanning tree of the flow graph, so all-zero counters mean no flow at all.
 * gcc: .gcda files, named by the .gcno beside them (-ftest-coverage; without them, by number and
 * object); clang: `llvm-profdata show` on the merged profile. */
#include "commands.h"
#include "format/family.h"
#include "format/gcov_io.h"
#include "format/profraw.h"
#include "lib/json.h"
#include "lib/strmap.h"
#include "lib/proc.h"
#include "lib/tarfile.h"
#include "format/tooltext.h"
#include "lib/util.h"
#include "lib/walk.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct fn_stat {
	char *name, *file;
	uint32_t line;      /* first line, 0 if unknown */
	long lines;         /* lines of the function, 0 if unknown */
	uint64_t max, sum, counters, zero;
	int executed;
};

struct report {
	const struct family *family;
	struct fn_stat *fn;
	int nfn, capfn;
	int profile_files, damaged, notes_files, mismatched, unloaded, named_by_symbol;
	int objects_without_data; /* no notes: objects beside which no .gcda was written */
	uint32_t runs;
	char version[16];
	int have_lines, have_names;
	struct strmap seen; /* the .gcda files read, by name relative to their directory */
};

static struct fn_stat *add_fn(struct report *r)
{
	r->fn = grow_array(r->fn, r->nfn, &r->capfn, sizeof *r->fn, 256);
	r->fn[r->nfn] = (struct fn_stat){0};
	return &r->fn[r->nfn++];
}

/* Adds n counter values (v NULL: n zeros). */
static void count_values(struct fn_stat *f, const uint64_t *v, uint64_t n)
{
	if (!v)
		f->zero += n;
	for (uint64_t i = 0; v && i < n; i++) {
		if (v[i] > f->max)
			f->max = v[i];
		f->sum = f->sum + v[i] < f->sum ? UINT64_MAX : f->sum + v[i];
		f->zero += v[i] == 0;
	}
	f->counters += n;
	f->executed = f->max > 0;
}

/* ---- gcc ---- */

static char *replace_suffix(const char *path, const char *from, const char *to)
{
	size_t n = strlen(path), k = strlen(from);
	return xasprintf("%.*s%s", (int)(n >= k ? n - k : n), path, to);
}

/* A function as its notes (.gcno) name and place it. */
static struct fn_stat *add_noted_fn(struct report *r, const struct gcov_function *n)
{
	struct fn_stat *f = add_fn(r);
	f->name = xstrdup(n->name);
	f->file = xstrdup(n->source);
	f->line = n->start_line;
	f->lines = n->end_line >= n->start_line ? (long)(n->end_line - n->start_line) + 1 : 0;
	return f;
}

static void add_gcda(struct report *r, const char *rel, const struct gcov_file *data, const struct gcov_file *notes)
{
	char *object = replace_suffix(rel, ".gcda", ".o");
	for (int i = 0; i < data->nfn; i++) {
		const struct gcov_function *d = &data->fn[i];
		const struct gcov_function *n = notes ? gcov_find_function(notes, d->ident) : NULL;
		if (n && (n->cfg_checksum != d->cfg_checksum || n->lineno_checksum != d->lineno_checksum))
			n = NULL;
		struct fn_stat *f = n ? add_noted_fn(r, n) : add_fn(r);
		if (!n) {
			f->name = xasprintf("#%u", d->ident);
			f->file = xstrdup(object);
		}
		count_values(f, d->arcs, d->narc_counters);
	}
	free(object);
}

/* Reads one .gcda (the stash member m, else the file `name`) and its .gcno (notes_path, may not exist). */
static void read_gcc_pair(struct report *r, const char *name, const struct member *m, const char *rel,
			  const char *notes_path)
{
	struct gcov_file data, notes;
	char err[600];
	r->profile_files++;
	*strmap_slot(&r->seen, rel, 1) = (void *)1;
	if ((m ? gcov_parse(m->data, m->len, name, &data, err, sizeof err) : gcov_read(name, &data, err, sizeof err)) < 0) {
		fprintf(stderr, "%s: damaged profile: %s\n", progname, err); /* as merge says it */
		r->damaged++;
		return;
	}
	if (data.kind != GCOV_DATA) {
		warn("%s: a .gcno (notes) file, not a .gcda", printable(name));
		r->damaged++;
		gcov_file_free(&data);
		return;
	}
	if (!r->version[0]) {
		char v[5];
		snprintf(r->version, sizeof r->version, "%d.%d (%s)", gcov_version_major(data.version),
			 gcov_version_minor(data.version), gcov_version_string(data.version, v));
	}
	if (data.runs > r->runs)
		r->runs = data.runs;
	int have_notes = 0;
	if (notes_path && access(notes_path, F_OK) == 0) {
		if (gcov_read(notes_path, &notes, err, sizeof err) < 0) {
			warn("%s", err);
		} else if (notes.kind != GCOV_NOTES) {
			warn("%s: not a .gcno (notes) file", printable(notes_path));
			gcov_file_free(&notes);
		} else {
			have_notes = 1;
			r->notes_files++;
			if (gcov_check_pair(&notes, &data, err, sizeof err)) {
				warn("%s does not match %s: %s", printable(name), printable(notes_path), err);
				r->mismatched++;
			}
		}
	}
	add_gcda(r, rel, &data, have_notes ? &notes : NULL);
	if (have_notes)
		gcov_file_free(&notes);
	gcov_file_free(&data);
}

/* path relative to dir, for a path that find_files found under dir */
static const char *relative_to(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	return strncmp(path, dir, n) == 0 && path[n] == '/' ? path + n + 1 : path;
}

/* Notes without data: objects whose code never ran (e.g. modules never loaded). */
static void add_unloaded(struct report *r, const char *notes_dir, const char *const *skip)
{
	struct file_list gcno = {0};
	if (!notes_dir || find_files(&gcno, notes_dir, ".gcno", skip) < 0)
		return;
	for (int i = 0; i < gcno.n; i++) {
		char *base = replace_suffix(relative_to(gcno.paths[i], notes_dir), ".gcno", ".gcda");
		int has_data = strmap_get(&r->seen, base) != NULL;
		struct gcov_file notes;
		char err[512];
		free(base);
		if (has_data)
			continue;
		if (gcov_read(gcno.paths[i], &notes, err, sizeof err) < 0) {
			warn("%s", err);
			continue;
		}
		if (notes.kind == GCOV_NOTES) {
			r->notes_files++;
			r->unloaded++;
			for (int k = 0; k < notes.nfn; k++) {
				struct fn_stat *f = add_noted_fn(r, &notes.fn[k]);
				f->counters = f->zero = notes.fn[k].ncounted;
			}
		}
		gcov_file_free(&notes);
	}
	file_list_free(&gcno);
}

/* The .gcda files under dir, or of the stash `archive`, read in memory: nothing is extracted. */
static void collect_gcc(struct report *r, const char *dir, const char *archive, const char *notes_dir,
			const char *const *skip)
{
	struct file_list gcda = {0};
	struct member_list stash = {0};
	char err[600];
	if (archive && tarmem_read(archive, ".gcda", &stash, err, sizeof err) < 0)
		fatal("cannot read the stash %s", err);
	if (!archive && find_files(&gcda, dir, ".gcda", skip) < 0)
		fatal("cannot read %s: %s", printable(dir), strerror(errno));
	file_list_sort(&gcda);
	for (int i = 0; i < (archive ? stash.n : gcda.n); i++) {
		const struct member *m = archive ? &stash.m[i] : NULL;
		const char *rel = m ? m->name : relative_to(gcda.paths[i], dir);
		char *name = m ? xasprintf("%s:%s", archive, rel) : xstrdup(gcda.paths[i]);
		char *notes = notes_dir ? xasprintf("%s/%.*s.gcno", notes_dir, (int)strlen(rel) - 5, rel) : NULL;
		read_gcc_pair(r, name, m, rel, notes);
		free(notes);
		free(name);
	}
	add_unloaded(r, notes_dir, skip);
	file_list_free(&gcda);
	tarmem_free(&stash);
}

/* Without notes, functions are known by ident only.  An externally visible function's
 * ident is a hash of its name (gcov_global_ident), so the global text symbols that nm lists
 * for the object beside the .gcda name them; static functions stay numbered. */
struct naming {
	struct report *r;
	struct strmap unnamed; /* "OBJDIR/OBJECT #IDENT" -> its fn_stat */
	char **paths;          /* the objects given to nm */
};

static void name_symbol(void *ctx, int object, const char *name, char type)
{
	struct naming *n = ctx;
	if (type != 'T' && type != 'W')
		return;
	char *key = xasprintf("%s #%u", n->paths[object], gcov_global_ident(name));
	struct fn_stat *f = strmap_get(&n->unnamed, key);
	free(key);
	if (f && f->name[0] == '#') {
		free(f->name);
		f->name = xstrdup(name);
		n->r->named_by_symbol++;
	}
}

static void name_globals(struct report *r, const char *objdir, const char *nm)
{
	struct naming n = {r, {0}, xcalloc((size_t)r->nfn + 1, sizeof *n.paths)};
	char *why = NULL;
	int nobj = 0;
	for (int i = 0; i < r->nfn; i++) {
		if (r->fn[i].name[0] != '#')
			continue;
		char *o = xasprintf("%s/%s", objdir, r->fn[i].file), *key = xasprintf("%s %s", o, r->fn[i].name);
		*strmap_slot(&n.unnamed, key, 1) = &r->fn[i];
		free(key);
		if ((nobj == 0 || strcmp(n.paths[nobj - 1], o) != 0) && access(o, R_OK) == 0)
			n.paths[nobj++] = o;
		else
			free(o);
	}
	if (nm_symbols(nm, n.paths, nobj, NM_DEFINED, name_symbol, &n, &why) != 0)
		warn("%s could not list the symbols of the objects (functions stay numbered): %.200s", printable(nm),
		     why && *why ? printable(why) : "cannot run it");
	free(why);
	for (int i = 0; i < nobj; i++)
		free(n.paths[i]);
	free(n.paths);
	strmap_free(&n.unnamed, NULL);
}

/* Objects with no .gcda beside them never ran in training (a module never imported): all
 * cold.  Counted when there are no notes to count their functions. */
static int count_objects_without_data(const char *dir, const char *const *skip)
{
	struct file_list objs = {0};
	int n = 0;
	if (find_files(&objs, dir, ".o", skip) < 0)
		return 0;
	for (int i = 0; i < objs.n; i++) {
		char *gcda = replace_suffix(objs.paths[i], ".o", ".gcda");
		n += access(gcda, F_OK) != 0;
		free(gcda);
	}
	file_list_free(&objs);
	return n;
}

/* ---- clang ---- */

/* "file.c:f" or "file.c;f" (local functions) -> file; others have no file in the profile. */
static void split_profile_name(const char *s, struct fn_stat *f)
{
	const char *p = strrchr(s, ';');
	if (!p)
		p = strrchr(s, ':');
	if (p && p > s && p[1]) {
		f->file = xasprintf("%.*s", (int)(p - s), s);
		f->name = xstrdup(p + 1);
	} else {
		f->file = xstrdup("(external)"); /* the profile names no file for them */
		f->name = xstrdup(s);
	}
}

/* Merges the sound raw profiles under dir into a .profdata in a temporary directory (removed
 * at exit); returns its path, or NULL when there is none. */
static char *merge_raw(struct report *r, const char *tool, const char *dir, const char *const *skip)
{
	struct file_list raw = {0};
	if (find_files(&raw, dir, ".profraw", skip) < 0)
		fatal("cannot read %s: %s", printable(dir), strerror(errno));
	file_list_sort(&raw);
	r->profile_files = raw.n;
	/* damaged ones (an empty file, which llvm-profdata would skip in silence) named as merge does */
	int *bad = xcalloc((size_t)raw.n + 1, sizeof *bad), good = 0;
	r->damaged += family_count_damaged(&family_clang, raw.paths, raw.n, bad);
	char *tmpdir = make_temp_dir("report"), *merged = xasprintf("%s/merged.profdata", tmpdir), *out = NULL;
	char **argv = xcalloc((size_t)raw.n + 5, sizeof *argv);
	argv[0] = (char *)tool;
	argv[1] = "merge";
	argv[2] = xasprintf("-output=%s", merged);
	argv[3] = "--";
	for (int i = 0; i < raw.n; i++)
		if (!bad[i])
			argv[4 + good++] = safe_path_arg(raw.paths[i]);
	if (good == 0)
		return NULL;
	if (!proc_exit_ok(capture(argv, &out)))
		fatal("%s merge failed: %s", printable(tool), out && *out ? printable(out) : "cannot run it");
	return merged; /* the lists live until report ends, as r's functions do */
}

static void collect_clang(struct report *r, const char *tool, const char *profdata, const char *dir,
			  const char *const *skip)
{
	char *merged = NULL, *why = NULL;
	if (!profdata) {
		if (!(profdata = merged = merge_raw(r, tool, dir, skip)))
			return;
	} else {
		r->profile_files = 1;
		char *one[] = {(char *)profdata};
		int bad;
		if (ends_with(profdata, ".profraw") && family_count_damaged(&family_clang, one, 1, &bad)) {
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
			struct fn_stat *f = add_fn(r);
			split_profile_name(p.fn[i].name, f);
			f->max = p.fn[i].max;
			f->sum = p.fn[i].sum;
			f->counters = p.fn[i].counters;
			f->zero = p.fn[i].zero;
			f->executed = f->max > 0;
		}
		shown_profile_free(&p);
	}
	free(why);
	free(merged);
}

/* ---- summing up and printing ---- */

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
			k->executed |= f->executed;
			if (f->max > k->max)
				k->max = f->max;
			k->sum = k->sum + f->sum < k->sum ? UINT64_MAX : k->sum + f->sum;
			if (f->counters > k->counters) {
				k->counters = f->counters;
				k->zero = f->zero;
			}
			free(f->name);
			free(f->file);
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
	t->executed += f->executed;
	t->lines += f->lines;
	t->cold_lines += f->executed ? 0 : f->lines;
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

static void json_totals(struct json *j, const struct totals *t, int lines)
{
	jw_kv_int(j, "functions", t->functions);
	jw_kv_int(j, "executed", t->executed);
	jw_kv_int(j, "never_executed", t->functions - t->executed);
	jw_kv_int(j, "counters", (long long)t->counters);
	jw_kv_int(j, "zero_counters", (long long)t->zero);
	jw_kv_int(j, "count_sum", t->sum > INT64_MAX ? INT64_MAX : (long long)t->sum); /* for profopt coverage */
	if (lines) {
		jw_kv_int(j, "lines", t->lines);
		jw_kv_int(j, "cold_lines", t->cold_lines);
	}
}

static void print_json(const struct report *r, const struct totals *all, struct fn_stat **hot, int top)
{
	struct json j;
	jw_init(&j, stdout);
	jw_begin_object(&j);
	jw_kv_string(&j, "family", r->family->name);
	jw_kv_string(&j, "format", r->version[0] ? r->version : NULL);
	jw_kv_int(&j, "profile_files", r->profile_files);
	jw_kv_int(&j, "damaged_files", r->damaged);
	if (r->family->id == FAMILY_GCC) {
		jw_kv_int(&j, "notes_files", r->notes_files);
		jw_kv_int(&j, "mismatched_files", r->mismatched);
		jw_kv_int(&j, "objects_never_loaded", r->unloaded);
		jw_kv_int(&j, "objects_without_data", r->objects_without_data);
		jw_kv_int(&j, "named_by_symbol", r->named_by_symbol);
		jw_kv_int(&j, "runs", r->runs);
	}
	jw_key(&j, "functions");
	jw_begin_object(&j);
	jw_kv_int(&j, "total", all->functions);
	jw_kv_int(&j, "executed", all->executed);
	jw_kv_int(&j, "never_executed", all->functions - all->executed);
	jw_kv_number(&j, "never_executed_share", share((double)(all->functions - all->executed), (double)all->functions));
	jw_end_object(&j);
	jw_key(&j, "counters");
	jw_begin_object(&j);
	jw_kv_int(&j, "total", (long long)all->counters);
	jw_kv_int(&j, "never_taken", (long long)all->zero);
	jw_kv_number(&j, "never_taken_share", share((double)all->zero, (double)all->counters));
	jw_end_object(&j);
	jw_key(&j, "lines");
	if (r->have_lines) {
		jw_begin_object(&j);
		jw_kv_int(&j, "total", all->lines);
		jw_kv_int(&j, "in_never_executed_functions", all->cold_lines);
		jw_kv_number(&j, "cold_share", share((double)all->cold_lines, (double)all->lines));
		jw_end_object(&j);
	} else {
		jw_null(&j);
	}
	jw_key(&j, "files");
	jw_begin_array(&j);
	for (int i = 0, next; i < r->nfn; i = next) {
		struct totals t;
		next = file_totals(r, i, &t);
		jw_begin_object(&j);
		jw_kv_string(&j, "file", r->fn[i].file);
		json_totals(&j, &t, r->have_lines);
		jw_end_object(&j);
	}
	jw_end_array(&j);
	jw_key(&j, "hottest");
	jw_begin_array(&j);
	for (int i = 0; i < top && i < r->nfn && hot[i]->executed; i++) {
		jw_begin_object(&j);
		jw_kv_string(&j, "name", hot[i]->name);
		jw_kv_string(&j, "file", hot[i]->file);
		jw_kv_int(&j, "max_count", (long long)hot[i]->max);
		jw_kv_int(&j, "sum_count", (long long)hot[i]->sum);
		jw_end_object(&j);
	}
	jw_end_array(&j);
	jw_key(&j, "never_executed");
	jw_begin_array(&j);
	for (int i = 0; i < r->nfn; i++)
		if (!r->fn[i].executed) {
			jw_begin_object(&j);
			jw_kv_string(&j, "name", r->fn[i].name);
			jw_kv_string(&j, "file", r->fn[i].file);
			if (r->fn[i].line)
				jw_kv_int(&j, "line", r->fn[i].line);
			jw_end_object(&j);
		}
	jw_end_array(&j);
	jw_end_object(&j);
	jw_finish(&j);
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
		printf(", %s %s", r->family->id == FAMILY_GCC ? "GCC" : "instrumentation", r->version);
	if (r->family->id == FAMILY_GCC) {
		printf(", %u run%s, notes (.gcno) for %d", r->runs, r->runs == 1 ? "" : "s", r->notes_files - r->unloaded);
		if (r->unloaded)
			printf(" (+%d objects never loaded)", r->unloaded);
		if (r->objects_without_data)
			printf(", %d objects without data (never loaded: all cold)", r->objects_without_data);
	}
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
	for (int i = 0; i < top && i < r->nfn && hot[i]->executed; i++)
		printf("  %14llu  %s  (%s)\n", (unsigned long long)hot[i]->max, printable(hot[i]->name),
		       printable(hot[i]->file));
	if (list_cold) {
		printf("\nnever executed:\n");
		for (int i = 0; i < r->nfn; i++)
			if (!r->fn[i].executed) {
				printf("  %s  (%s", printable(r->fn[i].name), printable(r->fn[i].file));
				printf(r->fn[i].line ? ":%u)\n" : ")\n", r->fn[i].line);
			}
	}
}

static int has_files(const char *dir, const char *suffix, const char *const *skip)
{
	struct file_list l = {0};
	find_files_all(&l, dir, suffix, skip);
	int n = l.n;
	file_list_free(&l);
	return n > 0;
}

struct report_opts {
	const struct family *fam;
	const char *family, *dir, *archive, *profdata, *notes_dir, *tool, *nm;
	struct option_list skip;
	int json, list_cold, brief;
	long long top;
};

#define O struct report_opts
static const struct option_spec report_options[] = {
	OPT_STRING("profile-dir", 0, O, dir, "DIR",
		   "input: where the training's profile data is: gcc's .gcda files (beside the objects, so the "
		   "build tree; the .gcno too), clang's *.profraw files (merged by llvm-profdata)"),
	OPT_STRING("archive", 0, O, archive, "FILE", "input, gcc: a stash of .gcda files (tar), e.g. pgo/profiles.tar"),
	OPT_STRING("profdata", 0, O, profdata, "FILE", "input, clang: a merged .profdata, or one .profraw"),
	OPT_STRING("family", 0, O, family, "gcc|clang", "compiler (default: guessed from the files found)"),
	OPT_STRING("notes-dir", 0, O, notes_dir, "DIR",
		   "gcc: where the .gcno files are (default: beside the .gcda; with --archive, the --profile-dir "
		   "if given)"),
	OPT_STRING("tool", 0, O, tool, "PATH", "llvm-profdata (default: $LLVM_PROFDATA, else llvm-profdata)"),
	OPT_STRING("nm", 0, O, nm, "PATH",
		   "gcc without .gcno: nm, to name global functions from the symbols of the objects beside the "
		   ".gcda files (default: nm)"),
	OPT_INT("top", 0, O, top, "N", 1, 1000000000, "hottest functions to list (default 10)"),
	OPT_FLAG("list-cold", 0, O, list_cold, "also list every function never executed"),
	OPT_FLAG("brief", 0, O, brief, "only the lines of functions executed and never executed (what make shows)"),
	OPT_LIST("skip", 0, O, skip, "NAME", "do not descend into directories called NAME (repeatable)"),
	OPT_FLAG("json", 0, O, json,
		 "machine-readable output; keys: family, profile_files, damaged_files, objects_without_data (gcc "
		 "without notes), functions.{total,executed,never_executed, never_executed_share}, "
		 "counters.{total,never_taken, never_taken_share}, lines (gcc with .gcno), files[] (count_sum: "
		 "the file's counter values added up), hottest[], never_executed[]"),
	OPT_END,
};
#undef O

const struct command_options options_report = {
	"report",
	"[--family=gcc|clang] INPUT [--json] [--top=N] [--list-cold]",
	"Shows what a training run covered: functions executed out of all instrumented ones,\n"
	"per source file and overall; the hottest functions (by their largest counter); and\n"
	"the share never executed, which the profile-use build optimizes as cold code.\n"
	"INPUT is one of --profile-dir, --archive, --profdata.\n",
	report_options,
	"GCC names functions only in its .gcno notes, which -fprofile-generate alone does not\n"
	"write: add -ftest-coverage to the instrumented build (the counters are the same) to\n"
	"get names and source files.  Without notes, global functions are named from the\n"
	"objects' symbols (GCC numbers them by a hash of their name); static ones stay\n"
	"numbered (#IDENT), per object file.\n"
	"\n"
	"Exit status: 0, 1 when no profile was found or a profile file is damaged (each is\n"
	"named with the offset of the problem), 2 on bad usage.\n",
	0,
};

/* Options and their consistency; the family guessed from the files when not given. */
static void parse_options(int argc, char **argv, struct report_opts *o)
{
	*o = (struct report_opts){.tool = getenv("LLVM_PROFDATA"), .nm = "nm", .top = 10};
	int first = options_parse(&options_report, argc, argv, o);
	if (first < argc)
		usage_error("unexpected argument '%s' (see 'profopt report --help')", printable(argv[first]));
	if (!o->tool || !*o->tool)
		o->tool = "llvm-profdata";
	const struct family *fam = family_parse(o->family);
	if (!o->dir && !o->archive && !o->profdata)
		usage_error("what to report on? --profile-dir=DIR, --archive=FILE or --profdata=FILE");
	if (o->profdata && (o->archive || fam == &family_gcc))
		usage_error("--profdata is for clang profiles; gcc profiles are read with --profile-dir or --archive");
	if (o->archive && fam && fam != &family_gcc)
		usage_error("--archive holds gcc profiles (.gcda)");
	/* guessed: a stash or any .gcda is gcc's; --profdata or a .profraw clang's */
	if (!fam && !o->archive && (o->profdata || (!has_files(o->dir, ".gcda", o->skip.v) &&
						  has_files(o->dir, ".profraw", o->skip.v))))
		fam = &family_clang;
	o->fam = fam ? fam : &family_gcc;
}

static void collect(struct report *r, const struct report_opts *o)
{
	struct stat st;
	if (o->dir && stat(o->dir, &st) < 0)
		fatal("%s: %s", printable(o->dir), strerror(errno));
	if (r->family->id == FAMILY_GCC) {
		/* notes beside the .gcda; with --archive, in the build directory if given */
		const char *notes_dir = o->notes_dir ? o->notes_dir : o->dir;
		collect_gcc(r, o->dir, o->archive, notes_dir, o->skip.v);
		if (o->dir && r->notes_files - r->unloaded < r->profile_files)
			name_globals(r, o->dir, o->nm);
		if (o->dir && r->notes_files == 0)
			r->objects_without_data = count_objects_without_data(o->dir, o->skip.v);
		r->have_names = r->have_lines = r->notes_files > 0;
	} else {
		collect_clang(r, o->tool, o->profdata, o->dir, o->skip.v);
		r->have_names = 1;
	}
	if (r->profile_files == 0)
		fatal("no profile data: no %s files under %s", r->family->raw_suffix,
		      printable(o->archive ? o->archive : o->dir));
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o;
	parse_options(argc, argv, &o);
	struct report r = {.family = o.fam};
	collect(&r, &o);
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

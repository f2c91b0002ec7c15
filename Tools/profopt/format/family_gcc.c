/* family_gcc.c - GCC's profiles (family.h): the runtime writes counts (.gcda) beside each
 * object, or under GCOV_PREFIX, merging runs itself; the compile's notes (.gcno) name and place
 * the functions.  A truncated .gcda is taken by gcc as partial counts: every one is checked. */
#include "format/family.h"
#include "format/gcov_io.h"
#include "format/tooltext.h"
#include "lib/output.h"
#include "lib/tarfile.h"
#include "lib/util.h"

#include <errno.h>
#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The .gcda files go under dir at their objects' absolute paths (profopt merge --from=DIR). */
static void train_env(struct option_list *env, const char *dir, const char *workload, const char *pattern)
{
	(void)workload, (void)pattern;
	option_list_add(env, xasprintf("GCOV_PREFIX=%s", dir));
	option_list_add(env, xstrdup("GCOV_PREFIX_STRIP=0"));
}

static void clear(const char *dir, int notes, const char *const *skip)
{
	if (access(dir, F_OK) < 0 && errno == ENOENT)
		return; /* no build tree, no profile data in it */
	int n = remove_files(dir, ".gcda", skip);
	int m = notes ? remove_files(dir, ".gcno", skip) : 0;
	if (n + m)
		fprintf(stderr, "clear: %d .gcda%s files removed under %s\n", n + m, notes ? " and .gcno" : "",
			printable(dir));
}

/* ---- merge ---- */

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
	family_check_raw(&family_gcc, &got, run, TRAIN_AGAIN);
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
#define word_at(p, swap) ((uint32_t)load_uint((p), 4, (swap)))

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
				buf_printf(dropped, "%s%s", (*ndropped)++ ? ", " : "", named && named->name ? printable(named->name) : "?");
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

static void merge_usage(const struct merge_job *m)
{
	if (m->seal)
		usage_error("--seal is for clang's merged profile");
	if (!m->dir)
		usage_error("--profile-dir=DIR is required");
	if (m->nwork > 0)
		usage_error("--weighted is for clang: with gcc a workload of weight W runs W times and libgcov adds the counts");
}

/* The runtime merged the counts: merge installs --from's tree, checks every .gcda under dir
 * (--check-only: the archived profile put back, just before the rebuild reads it). */
static void merge(struct merge_job *m)
{
	if (m->check_only) {
		find_files_all(&m->files, m->dir, ".gcda", m->skip);
		if (m->files.n == 0)
			fatal("no profile data: no .gcda files under %s", m->dir);
		family_check_raw(&family_gcc, &m->files, m->dir,
				 "put the archived profile back (make clean-retain-profile profile-opt) or train again "
				 "(make profile-removal profile-opt)");
		fprintf(stderr, "merge: %d .gcda files under %s checked, all well-formed\n", m->files.n, printable(m->dir));
		return;
	}
	if (m->from) {
		install_run(m->from, m->dir, m->skip);
		libtool_twins(m->dir, m->skip);
	}
	family_find_raw(&family_gcc, m, 0);
	char bytes[32];
	format_bytes(bytes, sizeof bytes, m->files.total_bytes);
	fprintf(stderr, "merge: %d .gcda files (%s) under %s, all well-formed\n", m->files.n, bytes, printable(m->dir));
}

/* ---- report: the .gcda files, named by the .gcno beside them (without notes, by number and object) ---- */

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
}

static char *replace_suffix(const char *path, const char *from, const char *to)
{
	size_t n = strlen(path), k = strlen(from);
	return xasprintf("%.*s%s", (int)(n >= k ? n - k : n), path, to);
}

/* A function as its notes (.gcno) name and place it. */
static struct fn_stat *add_noted_fn(struct report *r, const struct gcov_function *n)
{
	struct fn_stat *f = report_add_fn(r);
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
		struct fn_stat *f = n ? add_noted_fn(r, n) : report_add_fn(r);
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
	struct gcov_file data, notes = {0}; /* notes.kind stays GCOV_NOTES only when they were read */
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
	if (notes_path && access(notes_path, F_OK) == 0) {
		if (gcov_read(notes_path, &notes, err, sizeof err) < 0) {
			warn("%s", err);
		} else if (notes.kind != GCOV_NOTES) {
			warn("%s: not a .gcno (notes) file", printable(notes_path));
			gcov_file_free(&notes);
		} else {
			r->notes_files++;
			if (gcov_check_pair(&notes, &data, err, sizeof err)) {
				warn("%s does not match %s: %s", printable(name), printable(notes_path), err);
				r->mismatched++;
			}
		}
	}
	add_gcda(r, rel, &data, notes.kind == GCOV_NOTES ? &notes : NULL);
	gcov_file_free(&notes);
	gcov_file_free(&data);
}

/* Notes without data: objects whose code never ran (e.g. modules never loaded). */
static void add_unloaded(struct report *r, const char *notes_dir, const char *const *skip)
{
	struct file_list gcno = {0};
	if (!notes_dir || find_files(&gcno, notes_dir, ".gcno", skip) < 0)
		return;
	for (int i = 0; i < gcno.n; i++) {
		char *base = replace_suffix(path_under(gcno.paths[i], notes_dir), ".gcno", ".gcda");
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

/* The .gcda files under dir, or of the stash `archive`, read in memory: nothing is extracted. */
static void collect(struct report *r, const struct report_input *in)
{
	const char *dir = in->dir, *archive = in->archive;
	/* notes beside the .gcda; with --archive, in the build directory if given */
	const char *notes_dir = in->notes_dir ? in->notes_dir : dir;
	struct file_list gcda = {0};
	struct member_list stash = {0};
	char err[600];
	if (in->profdata)
		usage_error("--profdata is for clang profiles; gcc profiles are read with --profile-dir or --archive");
	report_dir_exists(in);
	if (archive && tarmem_read(archive, ".gcda", &stash, err, sizeof err) < 0)
		fatal("cannot read the stash %s", err);
	if (!archive)
		find_files_all(&gcda, dir, ".gcda", in->skip);
	file_list_sort(&gcda);
	for (int i = 0; i < (archive ? stash.n : gcda.n); i++) {
		const struct member *m = archive ? &stash.m[i] : NULL;
		const char *rel = m ? m->name : path_under(gcda.paths[i], dir);
		char *name = m ? xasprintf("%s:%s", archive, rel) : xstrdup(gcda.paths[i]);
		char *notes = notes_dir ? xasprintf("%s/%.*s.gcno", notes_dir, (int)strlen(rel) - 5, rel) : NULL;
		read_gcc_pair(r, name, m, rel, notes);
		free(notes);
		free(name);
	}
	add_unloaded(r, notes_dir, in->skip);
	file_list_free(&gcda);
	tarmem_free(&stash);
	if (in->dir && r->notes_files - r->unloaded < r->profile_files)
		name_globals(r, in->dir, in->nm);
	if (in->dir && r->notes_files == 0)
		r->objects_without_data = count_objects_without_data(in->dir, in->skip);
	r->have_names = r->have_lines = r->notes_files > 0;
}

static void facts(const struct report *r, json_t *j)
{
	if (j) {
		json_object_update_new(j, json_pack("{s:i, s:i, s:i, s:i, s:i, s:I}", "notes_files", r->notes_files,
						    "mismatched_files", r->mismatched, "objects_never_loaded", r->unloaded,
						    "objects_without_data", r->objects_without_data, "named_by_symbol",
						    r->named_by_symbol, "runs", (json_int_t)r->runs));
		return;
	}
	printf(", %u run%s, notes (.gcno) for %d", r->runs, r->runs == 1 ? "" : "s", r->notes_files - r->unloaded);
	if (r->unloaded)
		printf(" (+%d objects never loaded)", r->unloaded);
	if (r->objects_without_data)
		printf(", %d objects without data (never loaded: all cold)", r->objects_without_data);
}

/* ---- verify: a well-formed .gcda beside the object, and its compile's messages ---- */

/* Every .gcda under the tree must read well: the compiler silently takes a truncated one as
 * partial counts, and a damaged one as none. */
static void evidence_load(struct evidence *e)
{
	struct file_list l = {0};
	find_files_here(&l, e->dir, ".gcda", e->skip, NULL);
	/* err names the file from here, the user from e->dir */
	char *dir = strcmp(e->dir, ".") ? xasprintf("%s/", printable(e->dir)) : xstrdup(""), err[600];
	int bad = 0;
	for (int i = 0; i < l.n; i++)
		if (gcov_check_data(l.paths[i], err, sizeof err) < 0 && bad++ < 5)
			fprintf(stderr, "%s: error: damaged profile: %s%s\n", progname, dir, err);
	free(dir);
	if (bad)
		fatal("%d of %d .gcda files under %s are damaged: the compiler used partial counts or none (and may "
		      "not say so); retrain (make profile-removal profile-opt)",
		      bad, l.n, e->dir);
	file_list_free(&l);
}

static void evidence_object(const struct evidence *e, const char *object, struct unit_evidence *u)
{
	(void)e;
	char *gcda = xasprintf("%.*s.gcda", (int)strlen(object) - 2, object);
	u->profile = access(gcda, F_OK) == 0;
	free(gcda);
}

/* A function its compile found no profile for (f.constprop.0, f.cold: f). */
static void evidence_symbol(const struct evidence *e, const char *sym, struct unit_evidence *u)
{
	(void)e;
	char *base = xasprintf("%.*s", (int)strcspn(sym, "."), sym);
	u->functions++;
	u->unmatched += u->missing_fns && strmap_get(u->missing_fns, base);
	free(base);
}

const struct family family_gcc = {
	.name = "gcc", .raw_suffix = ".gcda", .raw_files = ".gcda files", .no_raw_hint = "",
	.if_damaged = "none is used", .check = gcov_check_data,
	.train_env = train_env, .weight_by_runs = 1, .clear = clear,
	.merge_usage = merge_usage, .merge = merge,
	.collect = collect, .facts = facts, .format = "GCC",
	.evidence_load = evidence_load, .evidence_object = evidence_object, .evidence_symbol = evidence_symbol,
	.used = "its .gcda", .unused = "no .gcda beside it: the profile has no data for it",
};

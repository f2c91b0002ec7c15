/* family.c - the one parser of --family, and what the kinds' operations share (family.h). */
#include "format/family.h"
#include "lib/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const struct family *family_parse(const char *value)
{
	if (!value)
		return NULL;
	if (!strcmp(value, "gcc"))
		return &family_gcc;
	if (!strcmp(value, "clang") || !strcmp(value, "apple-clang"))
		return &family_llvm;
	usage_error("--family must be gcc, clang or apple-clang, not '%s'", printable(value));
}

const char *family_tool(const char *given)
{
	const char *env = getenv("LLVM_PROFDATA");
	return given && *given ? given : env && *env ? env : "llvm-profdata";
}

static int has_files(const char *dir, const char *suffix, const char *const *skip)
{
	struct file_list l = {0};
	find_files_all(&l, dir, suffix, skip);
	int n = l.n;
	file_list_free(&l);
	return n > 0;
}

const struct family *family_guess(const struct report_input *in)
{
	if (!in->archive && (in->profdata || (!has_files(in->dir, family_gcc.raw_suffix, in->skip) &&
					     has_files(in->dir, family_llvm.raw_suffix, in->skip))))
		return &family_llvm;
	return &family_gcc;
}

int family_raw_damaged(const struct family *fam, const char *path)
{
	char why[512];
	if (!ends_with(path, fam->raw_suffix) || fam->check(path, why, sizeof why) == 0)
		return 0;
	fprintf(stderr, "%s: damaged profile: %s\n", progname, why);
	return 1;
}

/* Every file training wrote must pass profopt's reader: gcc takes a truncated .gcda as partial
 * counts, llvm-profdata skips an empty .profraw without a word. */
void family_check_raw(const struct family *fam, const struct file_list *files, const char *dir, const char *hint)
{
	int bad = 0;
	for (int i = 0; i < files->n; i++)
		bad += family_raw_damaged(fam, files->paths[i]);
	if (bad)
		fatal("%d of %d %s under %s are damaged (named above); %s: %s", bad, files->n, fam->raw_files, dir,
		      fam->if_damaged, hint);
}

void family_find_raw(const struct family *fam, struct merge_job *m, int allow_none)
{
	find_files_all(&m->files, m->dir, fam->raw_suffix, m->skip);
	file_list_sort(&m->files);
	if (m->files.n == 0 && !allow_none)
		fatal("no profile data: no %s files under %s. Training produced nothing: was the program built "
		      "with the profile-generate flags, did the training commands run it%s?",
		      fam->raw_suffix, m->dir, fam->no_raw_hint);
	family_check_raw(fam, &m->files, m->dir, TRAIN_AGAIN);
}

struct fn_stat *report_add_fn(struct report *r)
{
	r->fn = grow_array(r->fn, r->nfn, &r->capfn, sizeof *r->fn, 256);
	r->fn[r->nfn] = (struct fn_stat){0};
	return &r->fn[r->nfn++];
}

void report_dir_exists(const struct report_input *in)
{
	struct stat st;
	if (in->dir && stat(in->dir, &st) < 0)
		fatal("%s: %s", printable(in->dir), strerror(errno));
}

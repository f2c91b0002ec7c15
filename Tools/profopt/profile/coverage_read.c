/* coverage_read.c - reads `profopt report --json` outputs for `profopt coverage` (jansson; kept
 * apart from json.h, the writer, whose names jansson also uses). */
#include "profile/coverage.h"
#include "lib/util.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
		struct cov_file *cf = &in->files[in->nfiles++];
		cf->file = xstrdup(name);
		cf->functions = (long)fns;
		cf->executed = (long)ex;
		cf->count_sum = sum < 0 ? 0 : (uint64_t)sum;
		if (sum < 0)
			in->have_sums = 0;
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

void cov_read_report(const char *path, struct cov_input *in)
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

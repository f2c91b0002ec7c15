/* merge.c - `profopt merge`: the training's raw profiles, every one checked first, made what
 * the profile-use build reads (the kind's merge, format/family_*.c): LLVM's, one .profdata by
 * llvm-profdata, sealed; GCC's, the runtime merged the counts, and --from's tree is installed. */
#include "commands.h"
#include "format/family.h"
#include "format/stamp.h"
#include "lib/util.h"

#include <string.h>

struct merge_opts {
	const char *family, *stamp;
	struct merge_job job;
	struct option_list weighted, skip;
};

#define O struct merge_opts
static const struct option_spec merge_options[] = {
	OPT_FAMILY(O, family),
	OPT_STRING("profile-dir", 0, O, job.dir, "DIR", "the training's raw profiles (gcc: the build tree)"),
	OPT_LIST("weighted", 0, O, weighted, "DIR:W", "clang: merge the workload under DIR (in --profile-dir) W times"),
	OPT_TOOL(O, job.tool),
	OPT_STRING("output", 0, O, job.output, "FILE", "merged profile (clang; default: DIR/merged.profdata)"),
	OPT_SKIP(O, skip),
	OPT_STAMP(O, stamp),
	OPT_STRING("from", 0, O, job.from, "RUN", "gcc: install the .gcda tree a training wrote under GCOV_PREFIX=RUN"),
	OPT_FLAG("check-only", 0, O, job.check_only, "check what the rebuild reads (clang: --profdata), merge nothing"),
	OPT_FLAG("seal", 0, O, job.seal, "clang: check --profdata=FILE and seal it (FILE.sha256)"),
	OPT_STRING("profdata", 0, O, job.profdata, "FILE", "the merged profile, for --check-only and --seal"),
	OPT_END,
};
#undef O

const struct command_options options_merge = {
	"merge",
	"--family=gcc|clang --profile-dir=DIR [OPTIONS]",
	"clang: merges every *.profraw under DIR with llvm-profdata into --output.\n"
	"gcc:   checks the *.gcda files under DIR (counts are merged by the GCC runtime).\n",
	.options = merge_options,
	"A damaged file stops it, naming the file; the previous merged profile is left as it was.\n",
};

/* Whether path is dir or in its tree (resolved, else read as text: a workload that wrote
 * nothing may have no directory). */
static int under_dir(const char *path, const char *dir)
{
	char *p = resolve_path(path), *d = resolve_path(dir);
	normalize_path(p), normalize_path(d);
	size_t n = strlen(d);
	return !strncmp(p, d, n) && (p[n] == '/' || p[n] == '\0' || !strcmp(d, "/"));
}

static void parse_merge_opts(struct merge_opts *o, int argc, char **argv)
{
	int first = options_parse(&options_merge, argc, argv, o);
	if (first < argc)
		usage_error("unexpected argument '%s'", printable(argv[first]));
	struct merge_job *m = &o->job;
	m->work = xcalloc((size_t)o->weighted.n + 1, sizeof *m->work);
	m->nwork = o->weighted.n;
	m->skip = o->skip.v;
	m->tool = family_tool(m->tool);
	for (int k = 0; k < o->weighted.n; k++) {
		const char *arg = o->weighted.v[k], *colon = strrchr(arg, ':');
		long weight = colon ? parse_positive(colon + 1) : -1;
		if (!colon || colon == arg || weight < 0)
			usage_error("--weighted wants DIR:WEIGHT with a positive whole weight, not '%s'", arg);
		m->work[k] = (struct workload){xasprintf("%.*s", (int)(colon - arg), arg), weight, {0}};
	}
	if (!o->family)
		usage_error("--family=gcc|clang|apple-clang is required");
	family_parse(o->family)->merge_usage(m);
	for (int k = 0; k < o->weighted.n && m->dir; k++)
		if (!under_dir(m->work[k].dir, m->dir))
			usage_error("--weighted=%s: the workload's directory is not under --profile-dir=%s, whose raw files "
				    "are the ones checked before the merge",
				    printable(o->weighted.v[k]), printable(m->dir));
}

int cmd_merge(int argc, char **argv)
{
	struct merge_opts o = {0};
	parse_merge_opts(&o, argc, argv);
	double start = now();
	family_parse(o.family)->merge(&o.job);
	if (o.stamp && !o.job.check_only && !o.job.seal) {
		json_t *j = stamp_begin("merge", now() - start);
		json_object_update_new(j, json_pack("{s:i, s:I, s:I}", "raw_files", o.job.files.n, "raw_bytes",
						    (json_int_t)o.job.files.total_bytes, "output_bytes",
						    (json_int_t)o.job.output_bytes));
		stamp_end(j, o.stamp);
	}
	return 0;
}

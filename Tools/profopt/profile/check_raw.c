/* check_raw.c - `profopt check-raw`: can the llvm-profdata found read the raw profiles this
 * clang writes?  Asked before a training run is spent (or of the FILEs given). */
#include "commands.h"
#include "lib/json.h"
#include "format/family.h"
#include "format/profraw.h"
#include "lib/util.h"

#include <stdlib.h>
#include <unistd.h>

struct check_raw_options {
	const char *cc, *tool, *runner;
	int json;
};

static const struct option_spec check_raw_options[] = {
	OPT_STRING("cc", 0, struct check_raw_options, cc, "CC",
		   "clang command (default: $CC, else clang), split into words without a shell"),
	OPT_TOOL(struct check_raw_options, tool),
	OPT_JSON(struct check_raw_options, json),
	OPT_STRING("runner", 0, struct check_raw_options, runner, "CMD",
		   "run the test program through CMD (a cross build's runner), in a directory it sees"),
	OPT_END,
};

const struct command_options options_check_raw = {
	"check-raw",
	"[--cc=CC] [--tool=PATH] [--runner=CMD] [--json] [FILE.profraw...]",
	"Checks, before training, that llvm-profdata can read the raw profiles this clang writes.\n"
	"\n"
	"Without FILE: builds and runs a one-line program with 'CC -fprofile-generate', reads\n"
	"the raw profile it writes (magic, version, sizes of its sections) and asks llvm-profdata\n"
	"to read it - so that a raw profile version the tool does not know is an error before\n"
	"training, not after.  With FILEs: checks those raw profiles the same way.\n",
	.options = check_raw_options,
	"Exit status: 0 when every raw profile is sound and readable by the tool, 1 otherwise\n"
	"(the reason names the file and the offset of the damage), 2 on bad usage.\n",
};

static void show(json_t *j, const char *file, const struct profraw_info *in, int parsed, const char *error)
{
	char variant[64];
	profraw_variant_string(in, variant, sizeof variant);
	if (j) {
		json_t *o = json_pack("{s:o}", "file", jw_text(file));
		if (parsed)
			json_object_update_new(o, json_pack("{s:i, s:o, s:b}", "version", (int)in->version, "variant",
							    jw_text(variant), "layout_checked", in->layout_known));
		if (parsed && in->layout_known)
			json_object_update_new(o, json_pack("{s:I, s:I, s:I, s:I, s:I, s:I}", "functions",
							    (json_int_t)in->functions, "executed", (json_int_t)in->executed,
							    "counters", (json_int_t)in->counters_size, "names_bytes",
							    (json_int_t)in->names_size, "bitmap_bytes", (json_int_t)in->bitmap_bytes,
							    "value_data_bytes", (json_int_t)in->value_data_size));
		json_object_update_new(o, json_pack("{s:b, s:o}", "tool_reads", !error, "error",
						    jw_opt(error && *error ? error : NULL)));
		json_array_append_new(j, o);
		return;
	}
	if (parsed) {
		printf("%s: raw profile version %u (%s, %s-bit%s)", printable(file), in->version, variant, in->ptr64 ? "64" : "32",
		       in->swapped ? ", foreign byte order" : "");
		if (in->layout_known)
			printf(", %llu functions (%llu executed), %llu counters, %llu bytes of names",
			       (unsigned long long)in->functions, (unsigned long long)in->executed,
			       (unsigned long long)in->counters_size, (unsigned long long)in->names_size);
		else
			printf(", layout of this version not checked by profopt");
		printf("\n");
	}
	if (!error || !*error)
		printf("%s: readable by llvm-profdata\n", printable(file));
}

int cmd_check_raw(int argc, char **argv)
{
	struct check_raw_options o = {.cc = getenv("CC"), };
	int first = options_parse(&options_check_raw, argc, argv, &o), json = o.json, bad = 0;
	const char *cc = o.cc && *o.cc ? o.cc : "clang", *tool = family_tool(o.tool);
	json_t *j = json ? json_array() : NULL;
	char err[600];
	struct profraw_info in;
	if (first == argc) {
		char *here = o.runner ? getcwd(NULL, 0) : NULL;
		if (here)
			setenv("TMPDIR", here, 1); /* the test program where the runner sees it */
		int rc = profraw_probe(cc, tool, o.runner, &in, err, sizeof err);
		free(here);
		show(j, o.runner ? "(test program, run through --runner)" : "(test program)", &in, in.version != 0,
		     rc == 0 ? NULL : err);
		if (rc < 0)
			fprintf(stderr, "%s: error: %s\n", progname, err);
		bad += rc < 0;
	}
	for (int i = first; i < argc; i++) {
		int parsed = profraw_read(argv[i], &in, err, sizeof err) == 0;
		int ok = parsed && profraw_tool_reads(tool, argv[i], err, sizeof err) == 0;
		show(j, argv[i], &in, parsed, ok ? NULL : err);
		if (!ok && parsed)
			fprintf(stderr, "%s: error: %s: %s cannot read raw profile version %u: %s\n", progname,
				printable(argv[i]), printable(tool), in.version, err);
		else if (!ok) /* as merge names a raw profile its reader refuses */
			fprintf(stderr, "%s: error: damaged profile: %s\n", progname, err);
		bad += !ok;
	}
	if (j)
		jw_print(j);
	return bad ? 1 : 0;
}

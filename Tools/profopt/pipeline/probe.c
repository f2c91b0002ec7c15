/* probe.c - `profopt probe`: the compiler and profile tool facts, for people or as JSON. */
#include "commands.h"
#include "lib/json.h"
#include "pipeline/toolchain.h"
#include "lib/util.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

const char help_probe[] =
	"usage: profopt probe [--json] [--cc=CC] [--profile-tool=PATH]\n"
	"\n"
	"Identifies the C compiler by what it predefines (a 'gcc' that is really clang is\n"
	"reported as clang), and finds the profile tool of the same major version:\n"
	"  clang: --profile-tool or LLVM_PROFDATA; llvm-profdata next to the real clang\n"
	"         binary (symlinks resolved); llvm-profdata-N; llvm-profdata; xcrun -find\n"
	"  gcc:   --profile-tool or GCOV_TOOL; gcov-tool next to gcc; gcov-tool-N; gcov-tool\n"
	"It prints the flags a PGO build would use, and why something is missing.\n"
	"\n"
	"  --cc=CC              compiler command (default: $CC, else cc); a path to an\n"
	"                       executable is taken whole, otherwise it is split into words\n"
	"                       ('...' and \"...\" quote) - never run by a shell\n"
	"  --profile-tool=PATH  use this llvm-profdata / gcov-tool (overrides the search)\n"
	"  --json               machine-readable output; keys include compiler.family,\n"
	"                       compiler.version, profile_tool.path, profile_tool.version,\n"
	"                       profile_tool.matches\n"
	"\n"
	"Exit status: 0 when a PGO build is possible, 1 when it is not (reason printed),\n"
	"2 on bad usage.\n";

static void print_json(const struct toolchain *t, int ok)
{
	struct json j;
	jw_init(&j, stdout);
	jw_begin_object(&j);
	jw_key(&j, "compiler");
	jw_begin_object(&j);
	jw_kv_string(&j, "command", t->cc);
	jw_kv_string(&j, "path", t->cc_path);
	jw_kv_string(&j, "real_path", t->real_path);
	jw_kv_string(&j, "family", t->family == CC_UNKNOWN ? NULL : cc_family_name(t->family));
	jw_kv_string(&j, "version", t->family == CC_UNKNOWN ? NULL : t->version);
	jw_kv_int(&j, "major", t->major);
	jw_end_object(&j);
	jw_key(&j, "profile_tool");
	jw_begin_object(&j);
	jw_kv_string(&j, "name", t->tool_name);
	jw_kv_string(&j, "path", t->tool_path);
	jw_kv_string(&j, "version", t->tool_path && t->tool_version[0] ? t->tool_version : NULL);
	jw_kv_bool(&j, "matches", t->tool_matches);
	jw_key(&j, "candidates");
	jw_begin_array(&j);
	for (int i = 0; i < t->ncandidates; i++) {
		jw_begin_object(&j);
		jw_kv_string(&j, "path", t->candidates[i].path);
		jw_kv_string(&j, "version", t->candidates[i].version[0] ? t->candidates[i].version : NULL);
		jw_kv_string(&j, "found_by", t->candidates[i].source);
		jw_end_object(&j);
	}
	jw_end_array(&j);
	jw_end_object(&j);
	jw_key(&j, "flags");
	jw_begin_object(&j);
	jw_kv_string(&j, "generate", t->gen_flags);
	jw_kv_string(&j, "use", t->use_flags);
	jw_kv_string(&j, "merge", t->merge_cmd);
	jw_end_object(&j);
	jw_kv_bool(&j, "instrumented_program_links", t->runtime_links);
	jw_kv_bool(&j, "pgo_possible", ok);
	jw_kv_string(&j, "why", t->why);
	jw_end_object(&j);
	jw_finish(&j);
}

static void print_text(const struct toolchain *t, int ok)
{
	printf("compiler:      %s\n", printable(t->cc));
	if (t->family != CC_UNKNOWN) {
		printf("  family:      %s %s\n", cc_family_name(t->family), t->version);
		printf("  path:        %s\n", t->cc_path ? printable(t->cc_path) : "(not in PATH)");
		printf("  real binary: %s\n", t->real_path ? printable(t->real_path) : "(unknown)");
		printf("profile tool:  %s\n", t->tool_path ? printable(t->tool_path) : "(none)");
		if (t->tool_path)
			printf("  version:     %s (%s)\n", t->tool_version[0] ? t->tool_version : "unknown",
			       t->tool_matches ? "matches the compiler" : "does NOT match the compiler");
		for (int i = 0; i < t->ncandidates; i++)
			printf("  candidate:   %s (version %s, %s)\n", printable(t->candidates[i].path),
			       t->candidates[i].version[0] ? t->candidates[i].version : "unknown", t->candidates[i].source);
		printf("flags:\n  generate:    %s\n  use:         %s\n  merge:       %s\n", t->gen_flags, t->use_flags,
		       printable(t->merge_cmd));
		printf("runtime:       %s\n", t->runtime_links ? "instrumented programs link" : "instrumented programs do NOT link");
	}
	printf("PGO possible:  %s\n", ok ? "yes" : "no");
	if (t->why)
		printf("why:           %s\n", printable(t->why));
}

int cmd_probe(int argc, char **argv)
{
	static const struct option opts[] = {
		{"json", no_argument, NULL, 'j'},
		{"cc", required_argument, NULL, 'c'},
		{"profile-tool", required_argument, NULL, 't'},
		{NULL, 0, NULL, 0},
	};
	const char *cc = getenv("CC"), *tool = NULL;
	int json = 0, c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json = 1; break;
		case 'c': cc = optarg; break;
		case 't': tool = optarg; break;
		default: usage_error("unknown option '%s' (see 'profopt probe --help')", printable(argv[optind - 1]));
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s' (see 'profopt probe --help')", printable(argv[optind]));

	struct toolchain t;
	int identified = toolchain_detect(&t, cc, NULL) == 0;
	if (identified && !tool)
		tool = getenv(t.family == CC_GCC ? "GCOV_TOOL" : "LLVM_PROFDATA");
	if (identified && tool && *tool) {
		toolchain_free(&t);
		toolchain_detect(&t, cc, tool);
	}
	int ok = identified && t.tool_matches && t.runtime_links;
	if (json)
		print_json(&t, ok);
	else
		print_text(&t, ok);
	toolchain_free(&t);
	return ok ? 0 : 1;
}

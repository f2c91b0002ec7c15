/* main.c - profopt's entry point: dispatches to a command, answers --help and --version. */
#include "commands.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef PROFOPT_VERSION
#define PROFOPT_VERSION "unknown"
#endif

const struct command commands[] = {
	{"probe", cmd_probe, "identify the compiler and its matching profile tool", help_probe},
	{"train", cmd_train, "run training commands in parallel with timeouts and a progress line", help_train},
	{"run", cmd_run, "run one build stage quietly: log, heartbeat, duration, tail on failure", help_run},
	{"merge", cmd_merge, "merge raw profiles into one (llvm-profdata) or check .gcda files", help_merge},
	{"stash", cmd_stash, "save or restore profile files around a clean", help_stash},
	{"verify", cmd_verify, "after the profile-use build: check each object was compiled with the profile", help_verify},
	{"summary", cmd_summary, "collect pipeline stage stamps into a JSON summary", help_summary},
	{"export", cmd_export, "write the merged profile and its manifest as one reusable file", help_export},
	{"import", cmd_import, "check a profile bundle against this build and install its profile", help_import},
	{"diff", cmd_diff, "how alike two profiles are (edge-count overlap) and whether identical", help_diff},
	{"bench", cmd_bench, "compare interpreters on a benchmark suite: medians, speedups, intervals", help_bench},
	{"compare", cmd_compare, "one command on two builds (plain and PGO): time, instructions, slower functions", help_compare},
	{"report", cmd_report, "what the training covered: functions executed, hottest, cold share", help_report},
	{"check", cmd_check, "check the sources are still those the profile was trained on", help_check},
	{"coverage", cmd_coverage, "what the training reached per group of units (core, compiler, modules)", help_coverage},
	{"check-raw", cmd_check_raw, "before training: check llvm-profdata reads the raw profiles clang writes", help_check_raw},
	{"clear", cmd_clear, "remove the profile data the compiler's runtime wrote into the build tree", help_clear},
	{"lock", cmd_lock, "run a command holding a build directory's lock (one run at a time)", help_lock},
	{NULL, NULL, NULL, NULL},
};

static void print_help(FILE *out)
{
	fprintf(out,
		"usage: profopt [--version] [--help] COMMAND [ARGS]\n"
		"\n"
		"profopt drives profile-guided optimization (PGO) builds with GCC or Clang:\n"
		"instrument, train, merge, rebuild with the profile, verify.\n"
		"\n"
		"Commands:\n");
	for (const struct command *c = commands; c->name; c++)
		fprintf(out, "  %-9s %s\n", c->name, c->summary);
	fprintf(out, "\n'profopt COMMAND --help' describes a command; 'man profopt' has the whole story.\n");
}

int wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return 0;
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	/* A result that could not be written (a full disk, a closed pipe) is never a success. */
	atexit(close_stdout);
	if (argc < 2) {
		print_help(stderr);
		return 2;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
		if (argc > 2 && strcmp(argv[1], "help") == 0) {
			for (const struct command *c = commands; c->name; c++)
				if (strcmp(c->name, argv[2]) == 0) {
					fputs(c->help, stdout);
					return 0;
				}
			usage_error("no such command: '%s' (see 'profopt --help')", printable(argv[2]));
		}
		print_help(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("profopt %s\n", PROFOPT_VERSION);
		return 0;
	}
	if (argv[1][0] == '-')
		usage_error("unknown option '%s' (see 'profopt --help')", printable(argv[1]));
	for (const struct command *c = commands; c->name; c++) {
		if (strcmp(c->name, argv[1]) != 0)
			continue;
		if (wants_help(argc - 1, argv + 1)) {
			fputs(c->help, stdout);
			return 0;
		}
		progname = xasprintf("profopt %s", c->name);
		return c->run(argc - 1, argv + 1);
	}
	usage_error("unknown command '%s' (see 'profopt --help')", printable(argv[1]));
}

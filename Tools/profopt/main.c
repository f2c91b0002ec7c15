/* main.c - profopt's entry point: dispatches to a command, answers --help and --version. */
#include "commands.h"
#include "lib/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PROFOPT_VERSION
#define PROFOPT_VERSION "unknown"
#endif

/* bench and compare belong to the benchmark tool, a program of its own (profopt-bench) installed
 * beside this one (PROFOPT_BENCH names another): the command line is handed over unchanged. */
static int run_bench_tool(int argc, char **argv)
{
	const char *tool = getenv("PROFOPT_BENCH");
	if (!tool || !*tool) {
		char *self = realpath("/proc/self/exe", NULL), *slash = self ? strrchr(self, '/') : NULL;
		if (!slash)
			fatal("cannot find the benchmark tool: /proc/self/exe is unreadable (PROFOPT_BENCH=PATH names profopt-bench)");
		tool = xasprintf("%.*s/profopt-bench", (int)(slash - self), self);
	}
	char **args = xcalloc(argc + 2, sizeof *args);
	args[0] = (char *)tool;
	memcpy(args + 1, argv, argc * sizeof *argv);
	execv(tool, args);
	fatal("cannot run the benchmark tool %s: %s (profopt-bench is installed beside profopt; PROFOPT_BENCH=PATH names another)",
		printable(tool), strerror(errno));
}

/* A command: its line in `profopt --help` and its options, which make `profopt NAME --help` (NULL:
 * run answers it). */
static const struct command {
	const char *name;
	int (*run)(int argc, char **argv); /* argv[0] is the command name */
	const char *summary;
	const struct command_options *options;
} commands[] = {
	{"train", cmd_train, "run training commands in parallel with timeouts and a progress line", &options_train},
	{"run", cmd_run, "run one build stage quietly: log, heartbeat, duration, tail on failure", &options_run},
	{"merge", cmd_merge, "merge raw profiles into one (llvm-profdata) or check .gcda files", &options_merge},
	{"stash", cmd_stash, "save or restore profile files around a clean", &options_stash},
	{"verify", cmd_verify, "after the profile-use build: check each object was compiled with the profile", &options_verify},
	{"dispatch", cmd_dispatch, "after the profile-use build: check the interpreter's dispatch kept its indirect jumps",
	 &options_dispatch},
	{"summary", cmd_summary, "collect pipeline stage stamps into a JSON summary", &options_summary},
	{"export", cmd_export, "write the merged profile and its manifest as one reusable file", &options_export},
	{"import", cmd_import, "check a profile bundle against this build and install its profile", &options_import},
	{"diff", cmd_diff, "how alike two profiles are (edge-count overlap) and whether identical", &options_diff},
	{"bench", run_bench_tool, "compare interpreters on a benchmark suite: medians, speedups, intervals", NULL},
	{"compare", run_bench_tool, "one command on two builds (plain and PGO): time, instructions, slower functions", NULL},
	{"report", cmd_report, "what the training covered: functions executed, hottest, cold share", &options_report},
	{"check", cmd_check, "check the sources are still those the profile was trained on", &options_check},
	{"coverage", cmd_coverage, "what the training reached per group of units (core, compiler, modules)", &options_coverage},
	{"check-raw", cmd_check_raw, "before training: check llvm-profdata reads the raw profiles clang writes", &options_check_raw},
	{"clear", cmd_clear, "remove the profile data the compiler's runtime wrote into the build tree", &options_clear},
	{"lock", cmd_lock, "run a command holding a build directory's lock (one run at a time)", &options_lock},
	{"thin-link", cmd_thin_link, "a clang ThinLTO link whose backends run as jobs, on workers when given",
	 &options_thin_link},
	{"dist-log", cmd_dist_log, "a distcc or icecc trace of a compile stage: compiles on the workers and here, and why",
	 &options_dist_log},
	{"store", cmd_store, "clang's merged profile under its content's name, where the use stage's compiles read it",
	 &options_store},
	{"target-run", cmd_target_run, "a cross build's task launcher: a program of the target through $PGO_RUNNER", NULL},
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

/* True if argv (before any "--") asks for help. */
static int wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return 1;
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
	char *help_args[] = {argv[0], argv[2], "--help", NULL}; /* help NAME: NAME --help */
	if (argc > 2 && strcmp(argv[1], "help") == 0)
		argc = 3, argv = help_args;
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
		print_help(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("profopt %s\n", PROFOPT_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "--list-options") == 0) { /* not in --help; for t0175 */
		for (const struct command *c = commands; c->name; c++)
			if (c->options)
				options_list(stdout, c->options);
		return 0;
	}
	if (argv[1][0] == '-')
		usage_error("unknown option '%s' (see 'profopt --help')", printable(argv[1]));
	for (const struct command *c = commands; c->name; c++) {
		if (strcmp(c->name, argv[1]) != 0)
			continue;
		if (c->options && wants_help(argc - 1, argv + 1)) {
			options_usage(stdout, c->options);
			return 0;
		}
		progname = xasprintf("profopt %s", c->name);
		return c->run(argc - 1, argv + 1);
	}
	usage_error("unknown command '%s' (see 'profopt --help')", printable(argv[1]));
}

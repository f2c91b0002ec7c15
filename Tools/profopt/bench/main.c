/* main.c - profopt-bench, the benchmark tool: a program of its own, which the pipeline never
 * runs.  The driver hands `profopt bench` and `profopt compare` over to it (see main.c of the
 * driver); it shares only lib/ with the driver. */
#include "bench/bench.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef PROFOPT_VERSION
#define PROFOPT_VERSION "unknown"
#endif

static const struct {
	const char *name;
	int (*run)(int argc, char **argv); /* argv[0] is the command name */
	const struct command_options *options;
} bench_commands[] = {
	{"bench", cmd_bench, &options_bench},
	{"compare", cmd_compare, &options_compare},
	{NULL, NULL, NULL},
};

static void print_usage(FILE *out)
{
	fprintf(out, "usage: profopt-bench {bench|compare} [ARGS]  (run as 'profopt bench' and 'profopt compare';\n"
		"'profopt bench --help' and 'profopt compare --help' describe them)\n");
}

/* True if argv asks for help before any "--" (what follows "--" is the measured command's). */
static int asks_for_help(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return 1;
	return 0;
}

static int is_help(const char *arg)
{
	return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0 || strcmp(arg, "help") == 0;
}

/* `profopt-bench help [COMMAND]`, --help, -h: the tool's usage, or the command's, from its table. */
static int print_help(int argc, char **argv)
{
	if (argc < 3 || strcmp(argv[1], "help") != 0) {
		print_usage(stdout);
		return 0;
	}
	for (int i = 0; bench_commands[i].name; i++)
		if (strcmp(bench_commands[i].name, argv[2]) == 0) {
			options_usage(stdout, bench_commands[i].options);
			return 0;
		}
	usage_error("no such command: '%s' (profopt-bench runs bench and compare)", printable(argv[2]));
}

int main(int argc, char **argv)
{
	/* A result that could not be written (a full disk, a closed pipe) is never a success. */
	atexit(close_stdout);
	progname = "profopt-bench";
	if (argc < 2) {
		print_usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("profopt-bench %s\n", PROFOPT_VERSION);
		return 0;
	}
	if (is_help(argv[1]))
		return print_help(argc, argv);
	/* --list-options (not in --help; for t0175): every option of both commands. */
	if (strcmp(argv[1], "--list-options") == 0) {
		for (int i = 0; bench_commands[i].name; i++)
			options_list(stdout, bench_commands[i].options);
		return 0;
	}
	for (int i = 0; bench_commands[i].name; i++) {
		if (strcmp(bench_commands[i].name, argv[1]) != 0)
			continue;
		if (asks_for_help(argc - 1, argv + 1)) {
			options_usage(stdout, bench_commands[i].options);
			return 0;
		}
		/* Messages keep the names users type. */
		progname = xasprintf("profopt %s", bench_commands[i].name);
		return bench_commands[i].run(argc - 1, argv + 1);
	}
	usage_error("unknown command '%s' (profopt-bench runs bench and compare)", printable(argv[1]));
}

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
	const char *help;
} bench_commands[] = {
	{"bench", cmd_bench, help_bench},
	{"compare", cmd_compare, help_compare},
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
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		print_usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof bench_commands / sizeof bench_commands[0]; i++) {
		if (strcmp(bench_commands[i].name, argv[1]) != 0)
			continue;
		if (asks_for_help(argc - 1, argv + 1)) {
			fputs(bench_commands[i].help, stdout);
			return 0;
		}
		/* Messages keep the names users type. */
		progname = xasprintf("profopt %s", bench_commands[i].name);
		return bench_commands[i].run(argc - 1, argv + 1);
	}
	usage_error("unknown command '%s' (profopt-bench runs bench and compare)", printable(argv[1]));
}

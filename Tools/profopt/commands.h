/* commands.h - the table of profopt's commands; each lives in its own file as cmd_NAME(). */
#ifndef PROFOPT_COMMANDS_H
#define PROFOPT_COMMANDS_H

#include "lib/options.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv); /* argv[0] is the command name */
	const char *summary;              /* one line for `profopt --help` */
	const char *help;                 /* full text for `profopt NAME --help`, or NULL: */
	const struct command_options *options; /* its table of options makes the help (both NULL: run answers) */
};

extern const struct command commands[];

#define DECLARE_COMMAND(name) \
	int cmd_##name(int argc, char **argv); \
	extern const char help_##name[]
/* A command whose options are a table (lib/options.h). */
#define DECLARE_COMMAND_OPTIONS(name) \
	int cmd_##name(int argc, char **argv); \
	extern const struct command_options options_##name

DECLARE_COMMAND_OPTIONS(train);
DECLARE_COMMAND_OPTIONS(clear);
DECLARE_COMMAND_OPTIONS(run);
DECLARE_COMMAND_OPTIONS(merge);
DECLARE_COMMAND_OPTIONS(stash);
DECLARE_COMMAND_OPTIONS(verify);
DECLARE_COMMAND_OPTIONS(dispatch);
DECLARE_COMMAND_OPTIONS(summary);
DECLARE_COMMAND_OPTIONS(export);
DECLARE_COMMAND_OPTIONS(import);
DECLARE_COMMAND_OPTIONS(diff);
DECLARE_COMMAND_OPTIONS(report);
DECLARE_COMMAND_OPTIONS(check);
DECLARE_COMMAND_OPTIONS(check_raw);
DECLARE_COMMAND_OPTIONS(lock);
DECLARE_COMMAND_OPTIONS(coverage);
DECLARE_COMMAND_OPTIONS(thin_link);
DECLARE_COMMAND_OPTIONS(dist_log);
DECLARE_COMMAND_OPTIONS(store);
/* No option of its own, no --help from main.c: every argument is the task's. */
DECLARE_COMMAND(target_run);

#endif

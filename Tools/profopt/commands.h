/* commands.h - profopt's commands, each in its own file as cmd_NAME() with its options_NAME. */
#ifndef PROFOPT_COMMANDS_H
#define PROFOPT_COMMANDS_H

#include "lib/options.h"

#define DECLARE_COMMAND(name) \
	int cmd_##name(int argc, char **argv); \
	extern const struct command_options options_##name

DECLARE_COMMAND(train);
DECLARE_COMMAND(clear);
DECLARE_COMMAND(run);
DECLARE_COMMAND(merge);
DECLARE_COMMAND(stash);
DECLARE_COMMAND(verify);
DECLARE_COMMAND(dispatch);
DECLARE_COMMAND(summary);
DECLARE_COMMAND(export);
DECLARE_COMMAND(import);
DECLARE_COMMAND(diff);
DECLARE_COMMAND(report);
DECLARE_COMMAND(check);
DECLARE_COMMAND(check_raw);
DECLARE_COMMAND(lock);
DECLARE_COMMAND(coverage);
DECLARE_COMMAND(thin_link);
DECLARE_COMMAND(dist_log);
DECLARE_COMMAND(store);
/* No option of its own, no --help from main.c: every argument is the task's. */
int cmd_target_run(int argc, char **argv);

#endif

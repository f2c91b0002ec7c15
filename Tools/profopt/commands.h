/* commands.h - the table of profopt's commands; each lives in its own file as cmd_NAME(). */
#ifndef PROFOPT_COMMANDS_H
#define PROFOPT_COMMANDS_H

struct command {
	const char *name;
	int (*run)(int argc, char **argv); /* argv[0] is the command name */
	const char *summary;              /* one line for `profopt --help` */
	const char *help;                 /* full text for `profopt NAME --help` */
};

extern const struct command commands[];

/* True if argv (before any "--") asks for help. */
int wants_help(int argc, char **argv);

#define DECLARE_COMMAND(name) \
	int cmd_##name(int argc, char **argv); \
	extern const char help_##name[]

DECLARE_COMMAND(probe);
DECLARE_COMMAND(train);
DECLARE_COMMAND(run);
DECLARE_COMMAND(merge);
DECLARE_COMMAND(clear);
DECLARE_COMMAND(stash);
DECLARE_COMMAND(verify);
DECLARE_COMMAND(summary);
DECLARE_COMMAND(export);
DECLARE_COMMAND(import);
DECLARE_COMMAND(diff);
DECLARE_COMMAND(bench);
DECLARE_COMMAND(compare);
DECLARE_COMMAND(report);
DECLARE_COMMAND(check);
DECLARE_COMMAND(check_raw);
DECLARE_COMMAND(lock);
DECLARE_COMMAND(coverage);

#endif

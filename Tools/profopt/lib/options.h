/* options.h - a command's options in one table that drives both getopt_long and its --help;
 * each row's value goes to an offset in the command's own options struct. */
#ifndef PROFOPT_OPTIONS_H
#define PROFOPT_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

enum option_kind {
	OPTION_FLAG,    /* int, set to 1 */
	OPTION_STRING,  /* const char *, the last one given */
	OPTION_INT,     /* long long, a whole number in [min, max] */
	OPTION_SECONDS, /* double, seconds in (0, MAX_SECONDS] */
	OPTION_SHARE,   /* double, "N" or "N%" (0..100) as a fraction in [0, 1] */
	OPTION_LIST,    /* struct option_list, every one given, in order (repeatable) */
};

/* A repeatable option's values: v[0..n), NULL-terminated (v is NULL when none was given). */
struct option_list {
	const char **v;
	int n, cap;
};

/* Appends value (a default that is always there, say). */
void option_list_add(struct option_list *l, const char *value);

struct option_spec {
	const char *name;   /* the long name, without "--" */
	char letter;        /* the short form (-C), or 0 */
	enum option_kind kind;
	size_t offset;      /* where the value goes in the command's options struct */
	const char *arg;    /* the value's name in --help ("DIR"); NULL for a flag */
	const char *help;   /* what it does, one sentence (--help wraps it) */
	long long min, max; /* OPTION_INT's bounds */
};

/* Rows: OPT_STRING("log", 0, struct run_options, log, "FILE", "where the output goes"). */
#define OPT_FLAG(name, letter, type, field, help) {name, letter, OPTION_FLAG, offsetof(type, field), NULL, help, 0, 0}
#define OPT_STRING(name, letter, type, field, arg, help) {name, letter, OPTION_STRING, offsetof(type, field), arg, help, 0, 0}
#define OPT_INT(name, letter, type, field, arg, min, max, help) {name, letter, OPTION_INT, offsetof(type, field), arg, help, min, max}
#define OPT_SECONDS(name, letter, type, field, help) {name, letter, OPTION_SECONDS, offsetof(type, field), "SECONDS", help, 0, 0}
#define OPT_SHARE(name, letter, type, field, arg, help) {name, letter, OPTION_SHARE, offsetof(type, field), arg, help, 0, 0}
#define OPT_LIST(name, letter, type, field, arg, help) {name, letter, OPTION_LIST, offsetof(type, field), arg, help, 0, 0}
#define OPT_END {NULL, 0, OPTION_FLAG, 0, NULL, NULL, 0, 0}

/* The rows several commands share (as git's OPT__QUIET): one name, one help, one default. */
#define OPT_JSON(type, field) OPT_FLAG("json", 0, type, field, "machine-readable output (keys: profopt(1), JSON OUTPUT)")
#define OPT_STAMP(type, field) OPT_STRING("stamp", 0, type, field, "FILE", "on success, write the stage record (JSON) to FILE")
#define OPT_BUILD_DIR(type, field) OPT_STRING("build-dir", 0, type, field, "DIR", "the build tree")
#define OPT_SKIP(type, field) OPT_LIST("skip", 0, type, field, "NAME", "do not descend into directories called NAME (repeatable)")

/* A command's whole interface: what --help prints, and what the parser accepts. */
struct command_options {
	const char *name;    /* "merge" */
	const char *usage;   /* what follows "usage: profopt NAME "; one line per form ("\n") */
	const char *about;   /* the paragraphs between the usage and the options */
	const struct option_spec *options; /* ends with OPT_END */
	const char *more;    /* paragraphs after the options, or NULL */
	int stop_at_operand; /* options end at the first operand (run's and lock's COMMAND) */
};

/* Parses argv[1..argc) into dest (holding the defaults); a bad option is a usage error (exit 2).
 * Returns the index of the first operand. */
int options_parse(const struct command_options *c, int argc, char **argv, void *dest);

/* `profopt NAME --help` */
void options_usage(FILE *out, const struct command_options *c);

/* "NAME --LONG" (and "NAME -L") per option: what the man page must document (t0175). */
void options_list(FILE *out, const struct command_options *c);

#endif

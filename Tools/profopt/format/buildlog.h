/* buildlog.h - what a build log says about the profile: the compilers' profile diagnostics and
 * each object's compile command.  Hostile bytes: NULs and control characters neither end nor
 * hide a line, and the work is linear in the log's size. */
#ifndef PROFOPT_BUILDLOG_H
#define PROFOPT_BUILDLOG_H

#include "lib/strmap.h"

#include <stdio.h>

enum log_kind { LOG_STALE, LOG_CORRUPTED, LOG_MISSING, LOG_KINDS };
extern const char *const log_kind_names[LOG_KINDS];

struct log_message {
	int line;
	enum log_kind kind;
	char *text;   /* control characters shown as '?' */
	char *source; /* the file the diagnostic names, or NULL */
};

enum { PROFILE_FLAG_USE = 1, PROFILE_FLAG_GENERATE = 2 };
/* PROFILE_FLAG_* bits of a command line (the last of contradicting options wins); -1 when it
 * holds no option at all. */
int profile_flags(const char *cmdline);

struct log_compile {
	char *object; /* relative to the object directory when under it */
	char *source; /* as written on the command line */
	int line;
	int flags;    /* PROFILE_FLAG_* */
	int complaint; /* first stale or missing message about it (after it, before its source's next compile), or -1 */
	char *dir;    /* make's directory at the compile ("Entering directory"), or NULL */
	char **includes; /* the -I and -iquote directories, as written */
	int nincludes;
	struct strmap *missing_fns; /* gcc: functions it said it found no profile for, or NULL */
	int missing_first;          /* the first such message, or -1 */
};

struct build_log {
	const char *path;
	struct log_message *m;
	int n, cap;
	int count[LOG_KINDS];
	int unattributed; /* stale or missing messages that name no file */
	struct log_compile *c;
	int nc, capc;
	struct strmap objects; /* object -> index + 1 in c (the last compile of it) */
};

/* make's directory stack: "Entering directory '/x'" (any quotes) pushes, "Leaving" pops. */
struct make_dirs {
	char *dir[64];
	int depth;
};
/* Whether line is one of make's directory lines (then taken into d). */
int make_dirs_line(struct make_dirs *d, const char *line);
/* make's current directory, or NULL (where make started). */
const char *make_dirs_top(const struct make_dirs *d);
void make_dirs_free(struct make_dirs *d);
/* objdir (absolute, or NULL) is where objects are named from.  -1 with errno if unreadable. */
int build_log_read(struct build_log *l, const char *path, const char *objdir);
/* The compile command of an object (relative to objdir), or NULL. */
const struct log_compile *build_log_compile(const struct build_log *l, const char *object);
/* The counts line and at most max messages ("... N more" after them). */
void build_log_print(const struct build_log *l, FILE *out, int max);
void build_log_free(struct build_log *l);

#endif

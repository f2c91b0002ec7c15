/* unitcount.h - how far a build has got: the compile commands in its growing log, counted
 * as the log grows (each byte read once), and what it is linking now. */
#ifndef PROFOPT_UNITCOUNT_H
#define PROFOPT_UNITCOUNT_H

#include <stdio.h>

struct unit_count {
	FILE *log;        /* opened at the first poll that finds the file */
	char line[4096];  /* the line being read (longer lines are cut: only their start counts) */
	size_t len;
	long compiled;    /* compile commands seen (" -c " and an output ending in .o) */
	char linking[128]; /* the output of the last link command, when it came after the last compile */
};

/* Reads what was added to the log at path since the last poll. */
void unit_count_poll(struct unit_count *u, const char *path);
/* The counts of a whole text (for tests and one-shot use). */
void unit_count_text(struct unit_count *u, const char *text, size_t len);
void unit_count_close(struct unit_count *u);

/* The unit total a previous build of the same tree recorded in path, or 0. */
long unit_count_load(const char *path);
/* Records n as the total for the next build (only n > 0: a stage that compiled nothing keeps
 * the last total). */
void unit_count_save(const char *path, long n);

#endif

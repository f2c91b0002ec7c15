/* unitcount.h - how far a build has got: compile commands counted as its log grows (each byte
 * read once), and what it is linking now. */
#ifndef PROFOPT_UNITCOUNT_H
#define PROFOPT_UNITCOUNT_H

#include <stdio.h>

struct unit_count {
	FILE *log;        /* opened at the first poll that finds the file */
	char line[4096];  /* the line being read (longer lines are cut: only their start counts) */
	size_t len;
	long compiled;    /* compile commands seen (" -c " and an output ending in .o; libtool's own) */
	char linking[128]; /* the output of the last link command, when it came after the last compile */
};

/* Reads what the log at path gained since the last poll. */
void unit_count_poll(struct unit_count *u, const char *path);
/* Counts a text (for tests). */
void unit_count_text(struct unit_count *u, const char *text, size_t len);
void unit_count_close(struct unit_count *u);

/* The unit total a previous build recorded in path, or 0. */
long unit_count_load(const char *path);
/* Records n > 0 for the next build (a stage that compiled nothing keeps the last total). */
void unit_count_save(const char *path, long n);

#endif

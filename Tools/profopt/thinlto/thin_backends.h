/* thin_backends.h - ThinLTO's backend compiles, one job per module of an index-only link, on
 * workers (commands that run a shell line elsewhere, as `ssh HOST`: the job's files go as a tar
 * on stdin, the object comes back on stdout) or here, where a job a worker failed runs too. */
#ifndef PROFOPT_THIN_BACKENDS_H
#define PROFOPT_THIN_BACKENDS_H

#include "lib/util.h"

struct thin_module {
	char *path;           /* as the link named it: relative, under the build's directory */
	char *index, *native; /* PREFIX/PATH.thinlto.bc, and the object the backend writes (DIR/native/N.o) */
	char **imports;       /* the modules its index imports from (NULL-terminated) */
	const char *worker;   /* where it ran: a worker's command, or NULL for here */
	const char *why_here; /* why a module ran here though workers were given, or NULL */
	double seconds;
	int placed;           /* its object is in the final link */
	int failed;           /* its backend made no object: here, or on a worker with fallback off */
};

struct thin_plan {
	char **compile;         /* the compiler and its code generation flags, NULL-terminated */
	const char *const *workers; /* worker commands */
	int nworkers;           /* 0: all here */
	const char *job_dir;    /* the jobs' tar files and logs */
	int jobs;               /* at once */
	int fallback;           /* a job a worker failed runs here */
	double timeout;         /* per job, seconds (0: none) */
};

/* Runs every backend: 0, or the number that wrote no object (their logs named on stderr). */
int thin_backends_run(const struct thin_plan *p, struct thin_module *m, int n);

#endif

/* rundir.h - a fresh directory for one run of a stage, which replaces the stage's output only
 * once the run succeeded: a stray process of an earlier run writes into its own directory,
 * never into the output in use. */
#ifndef PROFOPT_RUNDIR_H
#define PROFOPT_RUNDIR_H

/* PARENT/run.XXXXXX, new, after every earlier PARENT/run.* is removed (one still being written
 * is left, said, and never read); exits on failure. */
char *rundir_fresh(const char *parent);
/* dest (a tree) removed, run renamed to it; exits on failure. */
void rundir_replace(const char *run, const char *dest);

#endif

/* cgfuncs.h - per-function instruction counts from callgrind's output files, and the functions
 * that got more of them in one program than in another (`profopt compare`). */
#ifndef PROFOPT_CGFUNCS_H
#define PROFOPT_CGFUNCS_H

#include "lib/strmap.h"

#include <stddef.h>

/* A function's own (self) count of the first event (Ir), summed over every file read. */
struct cg_func {
	char *object; /* the file name of its binary or library, without the directory */
	char *name;   /* the function's name, a compiler's clone suffix folded (run.part.0: run) */
	double self;
};

/* The counts of one program's run: every process the command started (one file each). */
struct cg_profile {
	struct strmap funcs; /* "object\tname" -> struct cg_func */
	double total;        /* the files' summed totals of the first event */
	char *event;         /* the first event's name (Ir) */
	int files;
};

/* Adds one callgrind output file's text.  Returns 0, or -1 with the reason in err. */
int cg_profile_add(struct cg_profile *p, const char *text, char *err, size_t errlen);
void cg_profile_free(struct cg_profile *p);
/* The function name callgrind printed with GCC's clone and split suffixes (.part.N, .cold,
 * .constprop.N, .isra.N) and callgrind's recursion level ('2) removed, in place. */
void cg_fold_name(char *name);

/* A function whose count grew from `before` (the base program) to `after`. */
struct cg_growth {
	const char *object, *name;
	double before, after;
};
/* The functions of `other` whose count is above the base's by more than `threshold` (a share
 * of the base's count: 0.02) and by at least `min_share` of the base's total, the largest
 * growth first.  Returns their number; *out is malloc'd (free it, not the names). */
int cg_slower(const struct cg_profile *base, const struct cg_profile *other, double threshold, double min_share,
	      struct cg_growth **out);

#endif

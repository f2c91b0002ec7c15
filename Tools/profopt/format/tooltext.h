/* tooltext.h - llvm-profdata show and nm, run and their text read as hostile bytes (NULs,
 * control characters, huge lines) in linear time.  File names are passed as ./NAME or absolute,
 * so none is read as an option. */
#ifndef PROFOPT_TOOLTEXT_H
#define PROFOPT_TOOLTEXT_H

#include <stddef.h>
#include <stdint.h>

struct shown_function {
	char *name;           /* as the profile names it: "f", "file.c:f" or "file.c;f" */
	uint64_t max, sum;    /* largest counter, sum of the counters (saturating) */
	uint64_t counters, zero;
};

struct shown_profile {
	struct shown_function *fn;
	int n, cap;
	char level[16];       /* "IR", "Front-end", "" if not said */
};

/* Parses `llvm-profdata show --all-functions --counts` (a NUL in a name becomes '?').  Returns
 * the number of functions. */
int profdata_show_parse(const char *text, size_t len, struct shown_profile *p);
/* TOOL show FILE parsed: 0, or -1 with the tool's words (or why it did not run) in *why (malloc'd). */
int profdata_show(const char *tool, const char *profdata, struct shown_profile *p, char **why);
void shown_profile_free(struct shown_profile *p);
/* The count at which blocks hold 99% of all counts (LLVM's hot cutoff), from --detailed-summary;
 * 0 if the tool does not say. */
int profdata_hot_count(const char *tool, const char *profdata, uint64_t *hot, char **why);

/* Called per symbol: `object` indexes the objects given, type is nm's letter. */
typedef void (*nm_symbol_fn)(void *ctx, int object, const char *name, char type);
enum { NM_ALL = 0, NM_DEFINED = 1 };
/* Runs nm -A --format=posix on 200 objects at a time (a failing run's list is read too).
 * Returns 0, or as run_batches() (proc.h). */
int nm_symbols(const char *nm, char *const *objects, int n, int flags, nm_symbol_fn fn, void *ctx, char **why);
/* Parses one run's output for objects args[0..n) (for the tests). */
void nm_parse(const char *text, size_t len, char *const *args, int n, nm_symbol_fn fn, void *ctx, int first);

#endif

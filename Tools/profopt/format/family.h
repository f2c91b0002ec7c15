/* family.h - the profile kind (AX_PGO decides it, pgo.mk passes --family) as a table of
 * operations, as curl's Curl_handler is a protocol's: the commands call them and never ask
 * which kind it is.  One file implements each: family_gcc.c (GCC's .gcda counts and .gcno
 * notes), family_llvm.c (LLVM's raw profiles and the merged .profdata); family.c holds the
 * one parser of --family and what both share.  An operation that a kind has no use for is NULL. */
#ifndef PROFOPT_FAMILY_H
#define PROFOPT_FAMILY_H

#include "lib/options.h"
#include "lib/strmap.h"
#include "lib/walk.h"

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* merge: one training workload's raw profiles (--weighted=DIR:W). */
struct workload {
	char *dir;
	long weight;
	struct file_list files;
};

/* merge's options, and what it merged (files, output_bytes). */
struct merge_job {
	const char *dir, *tool, *output, *from, *profdata;
	const char *const *skip;
	int check_only, seal, nwork;
	struct workload *work;
	struct file_list files;
	long long output_bytes;
};

/* report: one function of the profile, and the profile as collected. */
struct fn_stat {
	char *name, *file;
	uint32_t line;      /* first line, 0 if unknown */
	long lines;         /* lines of the function, 0 if unknown */
	uint64_t max, sum, counters, zero; /* executed: max > 0 */
};

struct report {
	const struct family *family;
	struct fn_stat *fn;
	int nfn, capfn;
	int profile_files, damaged, notes_files, mismatched, unloaded, named_by_symbol;
	int objects_without_data; /* no notes: objects beside which no .gcda was written */
	uint32_t runs;
	char version[16];
	int have_lines, have_names;
	struct strmap seen; /* the .gcda files read, by name relative to their directory */
};

/* report's inputs (--profile-dir, --archive, --profdata) and tools. */
struct report_input {
	const char *dir, *archive, *profdata, *notes_dir, *tool, *nm;
	const char *const *skip;
};

/* verify: the profile, loaded once (tool, profdata: the merged profile, named `name` in
 * messages; dir, skip: the build tree), and what it says of one object. */
struct evidence {
	const char *tool, *profdata, *name, *dir;
	const char *const *skip;
	struct strmap fns; /* LLVM: the profile's functions by bare name */
	uint64_t hot;      /* LLVM: the hot count threshold (0: unknown) */
	int nfuncs;        /* functions with non-zero counts; -1: not counted */
};

struct unit_evidence {
	int profile;       /* the profile has data for it */
	int expect_layout; /* the profile calls one of its functions hot or never run */
	const struct strmap *missing_fns; /* functions its compile found no profile for, or NULL */
	int functions, unmatched;         /* with missing_fns: functions it defines; of them, missing */
};

struct family {
	const char *name;        /* as reports name it: gcc, clang */
	const char *raw_suffix;  /* the files training writes: .gcda, .profraw */
	const char *raw_files;   /* what messages call them: ".gcda files", "raw profiles" */
	const char *no_raw_hint; /* when training wrote none: what else to check ("" or ", and ...") */
	const char *if_damaged;  /* what a damaged raw file costs */
	int (*check)(const char *path, char *why, size_t n); /* a raw file: 0, or -1 with why */
	int merged; /* training's files merged into one profile (--profdata), not read where they lie */

	/* train: adds to env where a task's runtime writes its profile (under dir, in the
	 * workload's directory if given; pattern: the file's name, {} the task's) */
	void (*train_env)(struct option_list *env, const char *dir, const char *workload, const char *pattern);
	int weight_by_runs; /* a workload of weight W runs W times (the runtime adds the counts) */
	/* clear: removes what the runtime wrote into the build tree dir (notes: the compiles' too) */
	void (*clear)(const char *dir, int notes, const char *const *skip);
	/* merge: refuses options the kind has no use for (a usage error), then does the job */
	void (*merge_usage)(const struct merge_job *m);
	void (*merge)(struct merge_job *m);
	/* report: reads the input into r; prints what only this kind counts (JSON keys into j,
	 * else text); format: what its version is of ("GCC 13.2") */
	void (*collect)(struct report *r, const struct report_input *in);
	void (*facts)(const struct report *r, json_t *j);
	const char *format;
	/* verify: loads the profile (or checks its files); then per object, and per text symbol
	 * of it, whether the profile has data for it */
	void (*evidence_load)(struct evidence *e);
	void (*evidence_object)(const struct evidence *e, const char *object, struct unit_evidence *u);
	void (*evidence_symbol)(const struct evidence *e, const char *sym, struct unit_evidence *u);
	int layout_proves_use; /* hot/cold sections in an object are the profile's doing */
	const char *nm;        /* verify's nm beside --tool, which reads the kind's LTO objects */
	const char *used, *unused; /* verify's words: the profile's evidence of use, its absence */
};

extern const struct family family_gcc, family_llvm;

/* gcc, clang or apple-clang (LLVM's profiles); NULL for NULL; else a usage error. */
const struct family *family_parse(const char *value);
/* The kind of report's input, when --family is not given: a stash or any .gcda is GCC's,
 * --profdata or a .profraw LLVM's. */
const struct family *family_guess(const struct report_input *in);
/* Whether path, a raw file by its name (.gcda, .profraw), is damaged: then named on stderr. */
int family_raw_damaged(const struct family *fam, const char *path);
/* Every raw file of files (under dir) must read well, else fatal with hint (what to do). */
void family_check_raw(const struct family *fam, const struct file_list *files, const char *dir, const char *hint);
/* merge: the raw files under m->dir into m->files, checked; none is fatal unless allow_none. */
void family_find_raw(const struct family *fam, struct merge_job *m, int allow_none);
/* report: --profile-dir must exist (after the kind refused the inputs it does not read). */
void report_dir_exists(const struct report_input *in);
/* report: a new function of r (zeroed). */
struct fn_stat *report_add_fn(struct report *r);

/* The option rows of the profile kind and its tool, shared by the commands (lib/options.h). */
#define OPT_FAMILY(type, field) OPT_STRING("family", 0, type, field, "gcc|clang", "the compiler family: gcc, clang or apple-clang")
#define OPT_TOOL(type, field) OPT_STRING("tool", 0, type, field, "PATH", "llvm-profdata (default: $LLVM_PROFDATA, else llvm-profdata)")
/* --tool's value: given, else $LLVM_PROFDATA, else llvm-profdata. */
const char *family_tool(const char *given);

#define TRAIN_AGAIN "train again (make profile-removal profile-opt)"

#endif

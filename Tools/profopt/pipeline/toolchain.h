/* toolchain.h - what a C compiler is (by its predefined macros, not its name), and the profile
 * tool that goes with it: llvm-profdata of the same LLVM major version for clang, gcov-tool of
 * the same GCC major version for gcc.  The same search the m4 macro does at configure time. */
#ifndef PROFOPT_TOOLCHAIN_H
#define PROFOPT_TOOLCHAIN_H

enum cc_family { CC_UNKNOWN, CC_GCC, CC_CLANG, CC_APPLE_CLANG };

#define MAX_CANDIDATES 8

struct tool_candidate {
	char *path;
	char version[32]; /* "" when it did not say */
	int major;
	const char *source; /* why it was tried: "LLVM_PROFDATA", "next to clang", "PATH", ... */
};

struct toolchain {
	char *cc;         /* the CC command as given, may hold options ("gcc -m64") */
	char *cc_path;    /* its first word found in PATH, NULL if not found */
	char *real_path;  /* the compiler binary after wrappers and symlinks */
	enum cc_family family;
	int major, minor, patch;
	char version[32];

	const char *tool_name;  /* "llvm-profdata" or "gcov-tool" */
	char *tool_path;        /* the chosen tool, NULL if none */
	char tool_version[32];
	int tool_major;
	int tool_matches;       /* the chosen tool's major version is the compiler's */
	char *why;              /* why no matching tool was found, NULL when it was */
	struct tool_candidate candidates[MAX_CANDIDATES];
	int ncandidates;

	int runtime_links;  /* a program built with gen_flags links (the profile runtime is there) */
	char *gen_flags;  /* compile+link flags for the instrumented build */
	char *use_flags;  /* compile flags for the profile-use build ("@PROFDATA@" = merged file) */
	char *merge_cmd;  /* how raw profiles are merged */
	char *probe_dir, *probe_src; /* a temporary one-line C file for the compiler checks */
};

const char *cc_family_name(enum cc_family f);
/* Detects CC (a command line split by split_command(), never run by a shell). tool_override is the user's explicit
 * choice (--llvm-profdata / LLVM_PROFDATA or GCOV_TOOL), or NULL.
 * Returns 0 when the compiler was identified (the tool may still be missing: see why). */
int toolchain_detect(struct toolchain *t, const char *cc, const char *tool_override);
void toolchain_free(struct toolchain *t);

/* Parsing helpers, exposed for unit tests. */
/* Finds "#define NAME VALUE" in `defines` (output of cc -E -dM); returns VALUE or NULL. */
const char *find_define(const char *defines, const char *name, char *value, int n);
/* Extracts a version "X.Y.Z" from a tool's --version output into out; returns major or -1. */
int parse_tool_version(const char *output, char *out, int n);

#endif

/* sysinfo.h - what on this machine may spoil benchmark numbers, and how to fix it.  profopt
 * only looks (files under /sys and /proc) and tells; it never changes a system setting. */
#ifndef PROFOPT_SYSINFO_H
#define PROFOPT_SYSINFO_H

#include "lib/json.h"

#include <stdio.h>

enum check_status { CHECK_OK, CHECK_WARN, CHECK_INFO };

struct sys_check {
	const char *name;    /* "cpu-governor", "turbo", "load", "busy-processes", "aslr", "cpu-pinning", "virtual-machine" */
	enum check_status status;
	char *detail;        /* what was found */
	char *fix;           /* what to do about it (NULL when nothing) */
};

struct sysinfo_opts {
	const char *root;    /* prefix for /proc and /sys ("" normally; tests use a fake tree) */
	int cpu;             /* CPU profopt is pinned to, -1 if not pinned */
	int no_aslr;         /* benchmarked processes run without address space randomization */
	double sample;       /* seconds to watch for busy processes (0: skip that check) */
};

#define SYSINFO_MAX_CHECKS 12
struct sysinfo {
	struct sys_check checks[SYSINFO_MAX_CHECKS];
	int n;
	int ncpu;
	double load1;
};

void sysinfo_collect(struct sysinfo *si, const struct sysinfo_opts *opts);
void sysinfo_free(struct sysinfo *si);
/* Number of checks with CHECK_WARN. */
int sysinfo_warnings(const struct sysinfo *si);
/* "ok  name: detail" lines, with "fix: ..." under each warning. */
void sysinfo_print(const struct sysinfo *si, FILE *out);
/* An array of {name, status, detail, fix}. */
json_t *sysinfo_json(const struct sysinfo *si);
const char *check_status_name(enum check_status s);

/* Whether a kernel CPU list ("0-3,8,10-11") contains cpu. */
int cpulist_contains(const char *list, int cpu);
/* Pins the calling process (and so its future children) to one CPU; 0 or -1 (errno set). */
int pin_to_cpu(int cpu);

#endif

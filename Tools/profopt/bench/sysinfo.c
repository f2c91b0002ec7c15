/* sysinfo.c - benchmark hygiene checks (see sysinfo.h). */
#include "bench/sysinfo.h"
#include "lib/util.h"

#include <ctype.h>
#include <dirent.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *check_status_name(enum check_status s)
{
	return s == CHECK_OK ? "ok" : s == CHECK_WARN ? "warn" : "info";
}

/* The first line of root/path without its newline, or NULL. */
static char *read_line(const char *root, const char *path)
{
	char *full = xasprintf("%s%s", root, path);
	char *text = read_file(full, NULL);
	free(full);
	if (text)
		text[strcspn(text, "\n")] = '\0';
	return text;
}

static void add(struct sysinfo *si, const char *name, enum check_status st, char *detail, char *fix)
{
	if (si->n >= SYSINFO_MAX_CHECKS) {
		free(detail);
		free(fix);
		return;
	}
	si->checks[si->n++] = (struct sys_check){name, st, detail, fix};
}

int cpulist_contains(const char *list, int cpu)
{
	const char *p = list;
	while (p && *p) {
		char *end;
		long a = strtol(p, &end, 10), b;
		if (end == p)
			return 0;
		b = a;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p)
				return 0;
		}
		if (a <= cpu && cpu <= b)
			return 1;
		p = *end == ',' ? end + 1 : NULL;
	}
	return 0;
}

static void check_governor(struct sysinfo *si, const struct sysinfo_opts *o)
{
	struct buf bad = {0};
	int seen = 0;
	for (int c = 0; c < si->ncpu; c++) {
		if (o->cpu >= 0 && c != o->cpu)
			continue;
		char *path = xasprintf("/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", c);
		char *g = read_line(o->root, path);
		free(path);
		if (!g)
			continue;
		seen++;
		if (strcmp(g, "performance") != 0)
			buf_printf(&bad, "%scpu%d: %s", bad.len ? ", " : "", c, g);
		free(g);
	}
	if (!seen)
		add(si, "cpu-governor", CHECK_INFO, xstrdup("no cpufreq interface (a virtual machine or a fixed clock): not checked"), NULL);
	else if (bad.len)
		add(si, "cpu-governor", CHECK_WARN, xasprintf("frequency governor is not 'performance' (%s); the clock changes with load", bad.data),
		    xstrdup("sudo cpupower frequency-set -g performance"));
	else
		add(si, "cpu-governor", CHECK_OK, xstrdup("governor 'performance'"), NULL);
	buf_free(&bad);
}

static void check_turbo(struct sysinfo *si, const struct sysinfo_opts *o)
{
	char *no_turbo = read_line(o->root, "/sys/devices/system/cpu/intel_pstate/no_turbo");
	char *boost = read_line(o->root, "/sys/devices/system/cpu/cpufreq/boost");
	if (no_turbo && strcmp(no_turbo, "0") == 0)
		add(si, "turbo", CHECK_WARN, xstrdup("Intel Turbo Boost is on: the clock depends on temperature and other cores"),
		    xstrdup("echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo"));
	else if (boost && strcmp(boost, "1") == 0)
		add(si, "turbo", CHECK_WARN, xstrdup("CPU boost is on: the clock depends on temperature and other cores"),
		    xstrdup("echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost"));
	else if (no_turbo || boost)
		add(si, "turbo", CHECK_OK, xstrdup("turbo/boost is off"), NULL);
	else
		add(si, "turbo", CHECK_INFO, xstrdup("no turbo/boost control found: not checked"), NULL);
	free(no_turbo);
	free(boost);
}

static void check_load(struct sysinfo *si, const struct sysinfo_opts *o)
{
	char *la = read_line(o->root, "/proc/loadavg");
	if (!la) {
		add(si, "load", CHECK_INFO, xstrdup("cannot read /proc/loadavg"), NULL);
		return;
	}
	si->load1 = atof(la);
	if (si->load1 >= 0.75)
		add(si, "load", CHECK_WARN, xasprintf("load average %.2f over the last minute (%d CPUs): other work competes for the CPU", si->load1, si->ncpu),
		    xstrdup("wait until other jobs end (uptime, top), then run again"));
	else
		add(si, "load", CHECK_OK, xasprintf("load average %.2f", si->load1), NULL);
	free(la);
}

struct proc_sample {
	long pid;
	char comm[32];
	unsigned long long ticks;
};

/* utime+stime of every process (except ours) under root/proc. */
static struct proc_sample *sample_procs(const char *root, int *n)
{
	char *dirpath = xasprintf("%s/proc", root);
	DIR *d = opendir(dirpath);
	free(dirpath);
	struct proc_sample *v = NULL;
	int cap = 0;
	*n = 0;
	if (!d)
		return NULL;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]) || atol(e->d_name) == (long)getpid())
			continue;
		char *path = xasprintf("/proc/%s/stat", e->d_name);
		char *st = read_line(root, path);
		free(path);
		if (!st)
			continue;
		/* pid (comm) state ppid ... field 14 utime, 15 stime; comm may hold spaces. */
		char *open = strchr(st, '('), *close = strrchr(st, ')');
		unsigned long long ut = 0, stt = 0;
		if (open && close && close > open &&
		    sscanf(close + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &stt) == 2) {
			v = grow_array(v, *n, &cap, sizeof *v, 256);
			v[*n].pid = atol(e->d_name);
			snprintf(v[*n].comm, sizeof v[*n].comm, "%.*s", (int)(close - open - 1), open + 1);
			v[*n].ticks = ut + stt;
			(*n)++;
		}
		free(st);
	}
	closedir(d);
	return v;
}

static void check_busy(struct sysinfo *si, const struct sysinfo_opts *o)
{
	if (o->sample <= 0)
		return;
	int n0, n1;
	struct proc_sample *a = sample_procs(o->root, &n0);
	double t0 = now();
	struct timespec ts = {(time_t)o->sample, (long)((o->sample - (time_t)o->sample) * 1e9)};
	nanosleep(&ts, NULL);
	struct proc_sample *b = sample_procs(o->root, &n1);
	double dt = now() - t0;
	long hz = sysconf(_SC_CLK_TCK);
	struct buf busy = {0};
	for (int i = 0; i < n1; i++)
		for (int k = 0; k < n0; k++)
			if (a[k].pid == b[i].pid) {
				double share = (double)(b[i].ticks - a[k].ticks) / (double)hz / dt;
				if (share >= 0.10)
					buf_printf(&busy, "%s%s (pid %ld, %.0f%% CPU)", busy.len ? ", " : "", b[i].comm, b[i].pid, share * 100);
				break;
			}
	if (busy.len)
		add(si, "busy-processes", CHECK_WARN, xasprintf("busy right now: %s", busy.data),
		    xstrdup("stop or wait for them (top shows them); or pin profopt to a CPU they do not use with --cpu=N"));
	else
		add(si, "busy-processes", CHECK_OK, xasprintf("no other process used 10%% of a CPU during %.1f s", o->sample), NULL);
	buf_free(&busy);
	free(a);
	free(b);
}

static void check_aslr(struct sysinfo *si, const struct sysinfo_opts *o)
{
	char *v = read_line(o->root, "/proc/sys/kernel/randomize_va_space");
	if (o->no_aslr)
		add(si, "aslr", CHECK_OK, xstrdup("address space randomization off for the benchmarked processes (--no-aslr)"), NULL);
	else if (v && strcmp(v, "0") != 0)
		add(si, "aslr", CHECK_WARN, xasprintf("address space layout randomization is on (randomize_va_space=%s): memory layout, and so timing, differs from run to run", v),
		    xstrdup("--no-aslr turns it off for the benchmarked processes only (or: setarch -R); system-wide: echo 0 | sudo tee /proc/sys/kernel/randomize_va_space"));
	else if (v)
		add(si, "aslr", CHECK_OK, xstrdup("address space layout randomization is off"), NULL);
	else
		add(si, "aslr", CHECK_INFO, xstrdup("cannot read randomize_va_space: not checked"), NULL);
	free(v);
}

static void check_pinning(struct sysinfo *si, const struct sysinfo_opts *o)
{
	if (o->cpu < 0) {
		add(si, "cpu-pinning", CHECK_WARN, xstrdup("not pinned: the scheduler may move the benchmark between CPUs"),
		    xstrdup("--cpu=N pins profopt bench and the interpreters to CPU N"));
		return;
	}
	char *iso = read_line(o->root, "/sys/devices/system/cpu/isolated");
	if (iso && cpulist_contains(iso, o->cpu))
		add(si, "cpu-pinning", CHECK_OK, xasprintf("pinned to CPU %d, which is isolated", o->cpu), NULL);
	else
		add(si, "cpu-pinning", CHECK_INFO, xasprintf("pinned to CPU %d; it is not isolated, so other tasks may still run on it", o->cpu),
		    xasprintf("boot with isolcpus=%d nohz_full=%d rcu_nocbs=%d for a quiet CPU", o->cpu, o->cpu, o->cpu));
	free(iso);
}

static void check_vm(struct sysinfo *si, const struct sysinfo_opts *o)
{
	char *path = xasprintf("%s/proc/cpuinfo", o->root);
	char *info = read_file(path, NULL);
	free(path);
	if (info && (strstr(info, " hypervisor ") || strstr(info, " hypervisor\n")))
		add(si, "virtual-machine", CHECK_INFO, xstrdup("running in a virtual machine: the host may take CPU time away at any moment"),
		    xstrdup("prefer a bare-metal machine, more rounds, or instruction counts (--callgrind)"));
	free(info);
}

void sysinfo_collect(struct sysinfo *si, const struct sysinfo_opts *opts)
{
	memset(si, 0, sizeof *si);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	si->ncpu = n > 0 ? (int)n : 1;
	check_governor(si, opts);
	check_turbo(si, opts);
	check_load(si, opts);
	check_busy(si, opts);
	check_aslr(si, opts);
	check_pinning(si, opts);
	check_vm(si, opts);
}

void sysinfo_free(struct sysinfo *si)
{
	for (int i = 0; i < si->n; i++) {
		free(si->checks[i].detail);
		free(si->checks[i].fix);
	}
	si->n = 0;
}

int sysinfo_warnings(const struct sysinfo *si)
{
	int w = 0;
	for (int i = 0; i < si->n; i++)
		w += si->checks[i].status == CHECK_WARN;
	return w;
}

void sysinfo_print(const struct sysinfo *si, FILE *out)
{
	for (int i = 0; i < si->n; i++) {
		const struct sys_check *c = &si->checks[i];
		fprintf(out, "  %-4s %-15s %s\n", check_status_name(c->status), c->name, c->detail);
		if (c->fix && c->status != CHECK_OK)
			fprintf(out, "       %-15s fix: %s\n", "", c->fix);
	}
}

json_t *sysinfo_json(const struct sysinfo *si)
{
	json_t *checks = json_array();
	for (int i = 0; i < si->n; i++) {
		const struct sys_check *c = &si->checks[i];
		json_array_append_new(checks, json_pack("{s:o, s:s, s:o, s:o}",
							"name", jw_opt(c->name),
							"status", check_status_name(c->status),
							"detail", jw_opt(c->detail),
							"fix", jw_opt(c->fix)));
	}
	return checks;
}

int pin_to_cpu(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof set, &set);
}

/* test_bench.c - unit tests of profopt bench's calibration, interleaving order, callgrind
 * parsing, system checks on a fake /proc and /sys, and the report formats. */
#include "bench/bench.h"
#include "unit.h"
#include "lib/output.h"
#include "lib/util.h"

#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

TEST(bench_order_alternates)
{
	int o[3];
	bench_order(0, 3, o);
	CHECK(o[0] == 0 && o[1] == 1 && o[2] == 2);
	bench_order(1, 3, o);
	CHECK(o[0] == 2 && o[1] == 1 && o[2] == 0);
	bench_order(2, 3, o);
	CHECK(o[0] == 0 && o[2] == 2);
	/* over an even number of rounds every interpreter has the same mean position */
	int pos[3] = {0};
	for (int r = 0; r < 6; r++) {
		bench_order(r, 3, o);
		for (int k = 0; k < 3; k++)
			pos[o[k]] += k;
	}
	CHECK(pos[0] == pos[1] && pos[1] == pos[2]);
	int one[1];
	bench_order(1, 1, one);
	CHECK_INT(one[0], 0);
}

TEST(bench_calibration)
{
	/* long enough already (at least half the target): done */
	CHECK_INT(bench_next_loops(10, 0.15, 0.2), 0);
	CHECK_INT(bench_next_loops(10, 0.10, 0.2), 0);
	/* 1 loop took 10 ms: aim at 0.2 s -> 20 loops */
	CHECK_INT(bench_next_loops(1, 0.01, 0.2), 20);
	/* nearly long enough: still at least double */
	CHECK_INT(bench_next_loops(8, 0.09, 0.2), 18);
	CHECK_INT(bench_next_loops(8, 0.099, 0.2), 17);
	/* a zero reading (timer too coarse) grows by 100x, never more */
	CHECK_INT(bench_next_loops(3, 0.0, 0.2), 300);
	CHECK_INT(bench_next_loops(1, 1e-9, 0.2), 100);
	/* simulated workload of 3 ms per loop: converges to ~0.2 s in a few steps */
	long loops = 1, next;
	int steps = 0;
	double e = 0;
	while ((next = bench_next_loops(loops, e = 0.003 * loops, 0.2)) != 0 && steps < 20) {
		loops = next;
		steps++;
	}
	CHECK(steps <= 3);
	CHECK(e >= 0.1 && e <= 0.3);
}

TEST(bench_pages_parse_maps)
{
	const char *maps =
		"55d0a000-55d0b000 r--p 00000000 fd:01 1234                       /b/python\n"
		"55d0b000-55d0c000 r-xp 00001000 fd:01 1234                       /b/python\n"
		"55d0c000-55d2d000 rw-p 00000000 00:00 0                          [heap]\n"
		"7f00a000-7f00b000 rw-p 00000000 00:00 0 \n"
		"7f00b000-7f00c000 r-xp 00000000 fd:01 99                         /b/Modules/my mod.so\n"
		"7f00c000-7f00d000 r--p 00000000 fd:01 98                         /tmp/gone (deleted)\n"
		"7f00d000-7f00e000 r-xp 00000000 fd:01 97                         /lib/libc.so.6";
	char **files = NULL;
	int cap = 0, n = 0;
	n = bench_pages_parse_maps(maps, &files, n, &cap);
	CHECK_INT(n, 3);
	CHECK_STR(files[0], "/b/python");
	CHECK_STR(files[1], "/b/Modules/my mod.so");
	CHECK_STR(files[2], "/lib/libc.so.6");
	/* a second process's maps add only what is new */
	n = bench_pages_parse_maps("1-2 r-xp 0 fd:01 7 /lib/libc.so.6\n3-4 r-xp 0 fd:01 8 /b/_json.so\n", &files, n, &cap);
	CHECK_INT(n, 4);
	CHECK_STR(files[3], "/b/_json.so");
	CHECK_INT(bench_pages_parse_maps("", &files, n, &cap), 4);
	for (int k = 0; k < n; k++)
		free(files[k]);
	free(files);
}

/* The physical page that holds a file's page `k` (mapped and touched), or 0 when the kernel
 * does not say (/proc/self/pagemap gives frame numbers to root only). */
static uint64_t file_page_frame(const char *path, int k)
{
	uint64_t entry = 0;
	long page = sysconf(_SC_PAGESIZE);
	int fd = open(path, O_RDONLY), pm = open("/proc/self/pagemap", O_RDONLY);
	volatile const char *m = fd < 0 ? MAP_FAILED : mmap(NULL, (size_t)page * (k + 1), PROT_READ, MAP_SHARED, fd, 0);
	if (m != MAP_FAILED && pm >= 0) {
		(void)m[(size_t)page * k];
		if (pread(pm, &entry, sizeof entry, (off_t)((uintptr_t)(m + (size_t)page * k) / page * sizeof entry)) != sizeof entry)
			entry = 0;
	}
	if (m != MAP_FAILED)
		munmap((void *)m, (size_t)page * (k + 1));
	if (pm >= 0)
		close(pm);
	if (fd >= 0)
		close(fd);
	return entry & ((1ULL << 55) - 1);
}

/* Renewed: the file's pages are resident again, in other physical pages (checked where the
 * kernel tells page frames: as root). */
TEST(bench_pages_renew)
{
	char *dir = make_temp_dir("pages"), *path = xasprintf("%s/f", dir);
	static char block[1 << 16];
	memset(block, 'x', sizeof block);
	CHECK_INT(write_file_atomic(path, block, sizeof block), 0);
	char *missing = xasprintf("%s/none", dir), *files[] = {path, missing};
	uint64_t before[4];
	for (int k = 0; k < 4; k++)
		before[k] = file_page_frame(path, k);
	CHECK_INT(bench_pages_renew(files, 2), 1);
	int fd = open(path, O_RDONLY);
	void *m = mmap(NULL, sizeof block, PROT_READ, MAP_SHARED, fd, 0);
	unsigned char vec[sizeof block / 4096];
	CHECK(m != MAP_FAILED && mincore(m, sizeof block, vec) == 0);
	int resident = 0;
	for (size_t k = 0; k < sizeof vec; k++)
		resident += vec[k] & 1;
	CHECK_INT(resident, (int)sizeof vec);
	munmap(m, sizeof block);
	close(fd);
	int moved = 0, known = 0;
	for (int k = 0; k < 4; k++) {
		uint64_t after = file_page_frame(path, k);
		known += before[k] && after;
		moved += before[k] && after && after != before[k];
	}
	if (known)
		CHECK_INT(moved, known);
	remove_dir_tree(dir);
	free(missing);
	free(path);
	free(dir);
}

TEST(bench_parse_callgrind)
{
	const char *text = "version: 1\ncreator: callgrind-3.19.0\ncmd: python run.py calls 1\n"
			   "events: Ir Bc Bcm\n"
			   "fl=(1) x.c\nfn=(1) main\n5 100 3 1\n"
			   "summary: 123456789 2000 300\n"
			   "totals: 123456789 2000 300\n";
	char *names[8];
	double v[8];
	int n = bench_parse_callgrind(text, names, v, 8);
	CHECK_INT(n, 3);
	if (n == 3) {
		CHECK_STR(names[0], "Ir");
		CHECK_STR(names[2], "Bcm");
		CHECK_NEAR(v[0], 123456789, 0);
		CHECK_NEAR(v[2], 300, 0);
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	CHECK_INT(bench_parse_callgrind("events: Ir\n", names, v, 8), 0);
	CHECK_INT(bench_parse_callgrind("", names, v, 8), 0);
	/* totals: alone (older valgrind) */
	n = bench_parse_callgrind("events: Ir\ntotals: 42\n", names, v, 8);
	CHECK_INT(n, 1);
	if (n == 1) {
		CHECK_NEAR(v[0], 42, 0);
		free(names[0]);
	}
}

TEST(bench_format_value)
{
	static const struct {
		double v;
		enum bench_mode mode;
		const char *want;
	} cases[] = {
		{0.0123, BENCH_TIME, "12.3 ms"},          {1.5, BENCH_TIME, "1.50 s"},
		{0.000456, BENCH_TIME, "456 us"},         {123456789, BENCH_INSTRUCTIONS, "123 M"},
		{2500000000.0, BENCH_INSTRUCTIONS, "2.50 G"}, {512, BENCH_INSTRUCTIONS, "512"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char b[32];
		bench_format_value(b, sizeof b, cases[i].v, cases[i].mode);
		CHECK_STR(b, cases[i].want);
	}
}

TEST(cpulist_contains)
{
	CHECK(cpulist_contains("0-3,8,10-11", 2));
	CHECK(cpulist_contains("0-3,8,10-11", 8));
	CHECK(cpulist_contains("0-3,8,10-11", 11));
	CHECK(!cpulist_contains("0-3,8,10-11", 9));
	CHECK(!cpulist_contains("", 0));
	CHECK(cpulist_contains("5", 5));
}

static void put(const char *root, const char *path, const char *text)
{
	char *full = xasprintf("%s%s", root, path), *cmd = xasprintf("mkdir -p \"$(dirname '%s')\"", full);
	CHECK_INT(system(cmd), 0);
	CHECK_INT(write_file_atomic(full, text, strlen(text)), 0);
	free(cmd);
	free(full);
}

static const struct sys_check *find_check(const struct sysinfo *si, const char *name)
{
	for (int i = 0; i < si->n; i++)
		if (strcmp(si->checks[i].name, name) == 0)
			return &si->checks[i];
	return NULL;
}

TEST(sysinfo_fake_root)
{
	char root[] = "/tmp/profopt-sysinfo-XXXXXX";
	CHECK(mkdtemp(root) != NULL);
	put(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave\n");
	put(root, "/sys/devices/system/cpu/intel_pstate/no_turbo", "0\n");
	put(root, "/sys/devices/system/cpu/isolated", "0\n");
	put(root, "/proc/loadavg", "2.50 1.00 0.50 3/200 1234\n");
	put(root, "/proc/sys/kernel/randomize_va_space", "2\n");
	put(root, "/proc/cpuinfo", "flags\t\t: fpu vme hypervisor lahf_lm\n");
	struct sysinfo si;
	struct sysinfo_opts o = {.root = root, .cpu = 0, .no_aslr = 0, .sample = 0};
	sysinfo_collect(&si, &o);
	const struct sys_check *c;
	CHECK((c = find_check(&si, "cpu-governor")) && c->status == CHECK_WARN && strstr(c->detail, "powersave") &&
	      strstr(c->fix, "performance"));
	CHECK((c = find_check(&si, "turbo")) && c->status == CHECK_WARN && strstr(c->fix, "no_turbo"));
	CHECK((c = find_check(&si, "load")) && c->status == CHECK_WARN);
	CHECK((c = find_check(&si, "aslr")) && c->status == CHECK_WARN && strstr(c->fix, "--no-aslr"));
	CHECK((c = find_check(&si, "cpu-pinning")) && c->status == CHECK_OK);
	CHECK((c = find_check(&si, "virtual-machine")) && c->status == CHECK_INFO);
	CHECK(find_check(&si, "busy-processes") == NULL); /* sample 0: not checked */
	CHECK_NEAR(si.load1, 2.5, 1e-9);
	CHECK_INT(sysinfo_warnings(&si), 4);
	sysinfo_free(&si);

	/* a quiet, well set up machine */
	put(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n");
	put(root, "/sys/devices/system/cpu/intel_pstate/no_turbo", "1\n");
	put(root, "/proc/loadavg", "0.05 0.10 0.10 1/100 99\n");
	put(root, "/proc/sys/kernel/randomize_va_space", "0\n");
	sysinfo_collect(&si, &o);
	CHECK_INT(sysinfo_warnings(&si), 0);
	sysinfo_free(&si);
	/* not pinned: a warning with the fix */
	o.cpu = -1;
	sysinfo_collect(&si, &o);
	CHECK((c = find_check(&si, "cpu-pinning")) && c->status == CHECK_WARN && strstr(c->fix, "--cpu=N"));
	sysinfo_free(&si);
	char *cmd = xasprintf("rm -rf '%s'", root);
	CHECK_INT(system(cmd), 0);
	free(cmd);
}

/* A two-interpreter, two-workload result with known samples. */
static void make_result(struct bench_result *r, double (*s)[2][4])
{
	static struct bench_interp in[2] = {{.name = "plain", .python = "/p/python", .executable = "/p/python", .version = "3.11.2"},
					    {.name = "pgo", .python = "/q/python", .executable = "/q/python", .version = "3.11.2"}};
	static struct bench_workload wk[2] = {{.name = "calls", .loops = 10, .calib_seconds = 0.2},
					      {.name = "dicts", .loops = 20, .calib_seconds = 0.2}};
	memset(r, 0, sizeof *r);
	r->mode = BENCH_TIME;
	r->rounds = 4;
	r->nboot = 1000;
	r->conf = 0.95;
	r->seed = 1;
	r->cpu = -1;
	r->started = "2026-01-01T00:00:00Z";
	r->ninterp = 2;
	r->nwork = 2;
	r->interps = in;
	r->works = wk;
	r->cells = xcalloc(4, sizeof *r->cells);
	for (int w = 0; w < 2; w++)
		for (int i = 0; i < 2; i++) {
			bench_cell(r, w, i)->samples = s[w][i];
			bench_cell(r, w, i)->n = 4;
		}
}

static char *render(const struct bench_result *r, void (*fn)(const struct bench_result *, FILE *))
{
	char *data = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&data, &len);
	fn(r, f);
	fclose(f);
	return data;
}

TEST(bench_report_formats)
{
	/* calls: pgo 2x faster, clear; dicts: the same distribution (noise) */
	double s[2][2][4] = {
		{{0.010, 0.0101, 0.0099, 0.0100}, {0.0050, 0.0049, 0.00505, 0.0051}},
		{{0.0020, 0.0022, 0.0019, 0.0021}, {0.0021, 0.0019, 0.0022, 0.0020}},
	};
	struct bench_result r;
	make_result(&r, s);
	bench_analyze(&r);
	CHECK_NEAR(bench_cell(&r, 0, 0)->median, 0.01, 1e-12);
	CHECK_NEAR(bench_cell(&r, 0, 1)->speedup.point, 0.01 / 0.005025, 1e-9);
	CHECK_INT(bench_cell(&r, 0, 1)->verdict, VERDICT_FASTER);
	CHECK_INT(bench_cell(&r, 1, 1)->verdict, VERDICT_NOISE);
	CHECK_NEAR(r.pair[1 * 2 + 0].point, sqrt(0.01 / 0.005025 * (0.00205 / 0.00205)), 1e-9);
	CHECK_NEAR(r.pair[0 * 2 + 1].point, 1 / sqrt(0.01 / 0.005025), 1e-9);

	char *table = render(&r, bench_print_table);
	if (getenv("SHOW"))
		fputs(table, stderr);
	CHECK(strstr(table, "workload") && strstr(table, "plain (3.11.2)") && strstr(table, "pgo (3.11.2)"));
	CHECK(strstr(table, "10.0 ms ± 0.5%") != NULL);
	CHECK(strstr(table, "1.99x [") && strstr(table, "] faster"));
	CHECK(strstr(table, "] noise") != NULL);
	CHECK(strstr(table, "geometric mean") != NULL);
	CHECK(strstr(table, "pgo vs plain: 1.411x faster (95% interval") != NULL);
	free(table);

	char *json = render(&r, bench_write_json);
	if (getenv("SHOW"))
		fputs(json, stderr);
	CHECK(strstr(json, "\"mode\": \"time\"") != NULL);
	CHECK(strstr(json, "\"name\": \"calls\"") && strstr(json, "\"loops\": 10"));
	CHECK(strstr(json, "\"verdict\": \"baseline\"") && strstr(json, "\"verdict\": \"faster\"") &&
	      strstr(json, "\"verdict\": \"noise\""));
	CHECK(strstr(json, "\"speedup_interval\": [") != NULL);
	CHECK(strstr(json, "\"baseline\": \"plain\"") != NULL);
	CHECK(strstr(json, "\"samples\": [") && strstr(json, "0.0101,") && strstr(json, "\"mad\": 5e-5"));
	/* it is valid JSON as far as braces go */
	int depth = 0, bad = 0;
	for (const char *p = json; *p; p++) {
		depth += (*p == '{' || *p == '[') - (*p == '}' || *p == ']');
		bad |= depth < 0;
	}
	CHECK(!bad && depth == 0);
	free(json);
	free(r.cells);
	free(r.pair);
	free(r.pair_verdict);
}

/* One instruction count per workload and interpreter (s[w][i][0]). */
static void make_counts(struct bench_result *r, double s[2][2][4])
{
	make_result(r, s);
	r->mode = BENCH_INSTRUCTIONS;
	r->rounds = 1;
	for (int k = 0; k < 4; k++)
		r->cells[k].n = 1;
}

TEST(bench_report_instructions)
{
	double s[2][2][4] = {{{1e8}, {0.8e8}}, {{5e7}, {5e7}}};
	struct bench_result r;
	make_counts(&r, s);
	bench_analyze(&r);
	CHECK_NEAR(bench_cell(&r, 0, 1)->speedup.point, 1.25, 1e-12);
	CHECK_INT(bench_cell(&r, 0, 1)->verdict, VERDICT_FASTER);
	CHECK_INT(bench_cell(&r, 1, 1)->verdict, VERDICT_SAME);
	char *table = render(&r, bench_print_table);
	CHECK(strstr(table, "instructions per loop") != NULL);
	CHECK(strstr(table, "100 M") && strstr(table, "1.250x faster") && strstr(table, "1.000x same"));
	free(table);
	free(r.cells);
	free(r.pair);
	free(r.pair_verdict);
}

TEST(bench_parse_group)
{
	CHECK_STR_FREE(bench_parse_group("\"\"\"doc\"\"\"\nimport re\n\nGROUP = \"c-modules\"\nX = 1\n"), "c-modules");
	CHECK_STR_FREE(bench_parse_group("GROUP='startup'\n"), "startup");
	/* none, a name in a comment or an expression: the default */
	CHECK_STR_FREE(bench_parse_group("# GROUP = \"x\"\nMY_GROUP = \"y\"\nGROUP = make_group()\n"), "python");
	CHECK_STR_FREE(bench_parse_group(""), "python");
}

/* The worst workload is the lowest of k, picked after looking: its interval holds for the k
 * together (Bonferroni), so it is at least as wide as the workload's own. */
TEST(bench_worst_workload_is_family_wise)
{
	double s[2][2][4] = {{{1.00, 1.01, 0.99, 1.00}, {1.00, 0.99, 1.01, 1.00}},
			     {{1.00, 1.02, 0.98, 1.00}, {1.05, 1.06, 1.04, 1.07}}};
	struct bench_result r;
	make_result(&r, s);
	bench_analyze(&r);
	const struct bench_group *all = &r.groups[r.ngroups - 1];
	const struct interval own = bench_cell(&r, 1, 1)->speedup, worst = all->worst_speedup[1 * 2 + 0];
	CHECK_INT(all->worst[1 * 2 + 0], 1);
	CHECK_NEAR(all->worst_conf, 0.975, 1e-12);
	CHECK_NEAR(worst.point, own.point, 1e-12);
	CHECK(worst.lo <= own.lo && worst.hi >= own.hi);
	CHECK(own.hi < 1.0); /* slower on its own interval */
	char *table = render(&r, bench_print_table);
	CHECK(strstr(table, "the worst workload's interval is family-wise: 95% over the group's workloads") != NULL);
	free(table);
	char *json = render(&r, bench_write_json);
	CHECK(strstr(json, "\"worst_confidence\": 0.975") != NULL);
	free(json);
	free(r.cells);
	free(r.pair);
	free(r.pair_verdict);
}

TEST(bench_report_groups)
{
	/* calls (python): 2x faster; dicts (c-modules): 0.8x, slower; the worst workload of the
	 * suite is dicts though the geometric mean is a win */
	double s[2][2][4] = {{{1e8}, {0.5e8}}, {{4e7}, {5e7}}};
	struct bench_result r;
	make_counts(&r, s);
	r.works[1].group = "c-modules";
	bench_analyze(&r);
	CHECK_INT(r.ngroups, 3);
	CHECK_STR(r.groups[0].name, "python");
	CHECK_STR(r.groups[1].name, "c-modules");
	CHECK_STR(r.groups[2].name, "all");
	/* [interpreter * 2 + baseline]: pgo against plain, and plain against pgo */
	CHECK_NEAR(r.groups[0].geomean[1 * 2 + 0].point, 2.0, 1e-12);
	CHECK_NEAR(r.groups[1].geomean[1 * 2 + 0].point, 0.8, 1e-12);
	CHECK_NEAR(r.groups[2].geomean[1 * 2 + 0].point, sqrt(1.6), 1e-12);
	CHECK_NEAR(r.groups[2].geomean[1 * 2 + 0].point, r.pair[1 * 2 + 0].point, 1e-12);
	CHECK_NEAR(r.groups[2].geomean[0 * 2 + 1].point, 1 / sqrt(1.6), 1e-12);
	CHECK_INT(r.groups[2].worst[1 * 2 + 0], 1);
	CHECK_NEAR(r.groups[2].worst_speedup[1 * 2 + 0].point, 0.8, 1e-12);
	CHECK_INT(r.groups[0].worst[1 * 2 + 0], 0);
	/* against pgo, plain's worst workload is calls (0.5x) */
	CHECK_INT(r.groups[2].worst[0 * 2 + 1], 0);
	CHECK_NEAR(r.groups[2].worst_speedup[0 * 2 + 1].point, 0.5, 1e-12);
	CHECK_INT(r.groups[2].worst_verdict[0 * 2 + 1], VERDICT_SLOWER);
	char *table = render(&r, bench_print_table);
	if (getenv("SHOW"))
		fputs(table, stderr);
	CHECK(strstr(table, "by group, against plain") != NULL);
	CHECK(strstr(table, "\nc-modules         1  pgo          0.800x slower") != NULL);
	CHECK(strstr(table, "\nall               2  pgo          1.265x faster               0.800x slower") != NULL);
	CHECK(strstr(table, "0.800x slower              dicts\n") != NULL);
	free(table);
	char *json = render(&r, bench_write_json);
	CHECK(strstr(json, "\"group\": \"c-modules\"") && strstr(json, "\"group\": \"python\""));
	CHECK(strstr(json, "\"groups\": [") && strstr(json, "\"worst_workload\": \"dicts\"") &&
	      strstr(json, "\"worst_speedup\": 0.8,"));
	free(json);
	r.baseline = 1;
	table = render(&r, bench_print_table);
	CHECK(strstr(table, "by group, against pgo") != NULL);
	CHECK(strstr(table, "\nall               2  plain        0.791x slower               0.500x slower              calls\n") != NULL);
	free(table);
	r.works[1].group = NULL;
	free(r.cells);
	free(r.pair);
	free(r.pair_verdict);
}

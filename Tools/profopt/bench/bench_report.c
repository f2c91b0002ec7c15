/* bench_report.c - turns samples into medians, spreads and speedups, and reports them as a
 * terminal table or JSON (see bench.h; the statistics are in stats.c). */
#include "bench/bench.h"
#include "lib/json.h"
#include "lib/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Instruction counts of one sample are deterministic to about 0.01%; within this of 1 they
 * are "same", not a speedup. */
#define EXACT_TOLERANCE 0.001

char *bench_parse_group(const char *source)
{
	for (const char *p = source; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!starts_with(p, "GROUP"))
			continue;
		const char *q = p + 5;
		q += strspn(q, " \t");
		if (*q++ != '=')
			continue;
		q += strspn(q, " \t");
		char quote = *q;
		if (quote != '"' && quote != '\'')
			continue;
		size_t len = strspn(q + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+-");
		if (len && q[1 + len] == quote)
			return xasprintf("%.*s", (int)len, q + 1);
	}
	return xstrdup("python");
}

static void free_groups(struct bench_result *r)
{
	for (int g = 0; g < r->ngroups; g++) {
		struct bench_group *gr = &r->groups[g];
		free(gr->name);
		free(gr->works);
		free(gr->geomean);
		free(gr->geomean_verdict);
		free(gr->worst);
		free(gr->worst_speedup);
		free(gr->worst_verdict);
	}
	free(r->groups);
	r->groups = NULL;
	r->ngroups = 0;
}

/* Workload w's speedup of interpreter i over baseline b at confidence conf: the table's own
 * against the first interpreter at the table's confidence, else a bootstrap of its own. */
static struct interval pair_speedup(const struct bench_result *r, int w, int i, int b, double conf, enum verdict *v)
{
	const struct bench_cell *ci = bench_cell(r, w, i), *cb = bench_cell(r, w, b);
	if (b == 0 && conf == r->conf) {
		*v = ci->verdict;
		return ci->speedup;
	}
	int n = ci->n < cb->n ? ci->n : cb->n;
	/* the tail quantiles need resamples beyond them: 50 for the rarer side */
	double need = 50.0 / (1.0 - conf);
	int nboot = need > r->nboot ? (need < 1e6 ? (int)need : 1000000) : r->nboot;
	struct interval iv = i == b ? (struct interval){1, 1, 1}
				    : stats_speedup(cb->samples, ci->samples, n, conf, nboot,
						    r->seed + 1000003ULL * (uint64_t)(w * r->ninterp + i) + 104729ULL * (uint64_t)b);
	*v = i == b ? VERDICT_SAME : stats_verdict(iv, EXACT_TOLERANCE);
	if (i != b && r->mode == BENCH_TIME && n < 2)
		*v = VERDICT_NOISE;
	return iv;
}

/* The worst of k workloads is picked after looking, so its interval must hold for all k at
 * once (Bonferroni): with per-workload intervals an interpreter timed against a byte-identical
 * copy of itself shows some workload "slower". */
static double family_conf(double conf, int k)
{
	return k > 1 ? 1.0 - (1.0 - conf) / k : conf;
}

/* The geometric mean and the worst workload of group g, for every pair of interpreters. */
static void analyze_group(struct bench_result *r, struct bench_group *g)
{
	int ni = r->ninterp, k = g->nwork;
	const double **bs = xcalloc((size_t)k, sizeof *bs), **os = xcalloc((size_t)k, sizeof *os);
	int *n = xcalloc((size_t)k, sizeof *n);
	size_t np = (size_t)(ni * ni);
	g->geomean = xcalloc(np, sizeof *g->geomean);
	g->geomean_verdict = xcalloc(np, sizeof *g->geomean_verdict);
	g->worst = xcalloc(np, sizeof *g->worst);
	g->worst_speedup = xcalloc(np, sizeof *g->worst_speedup);
	g->worst_verdict = xcalloc(np, sizeof *g->worst_verdict);
	g->worst_conf = family_conf(r->conf, k);
	for (int i = 0; i < ni; i++)
		for (int b = 0; b < ni; b++) {
			int p = i * ni + b;
			for (int x = 0; x < k; x++) {
				const struct bench_cell *ci = bench_cell(r, g->works[x], i), *cb = bench_cell(r, g->works[x], b);
				bs[x] = cb->samples;
				os[x] = ci->samples;
				n[x] = ci->n < cb->n ? ci->n : cb->n;
				/* the cells' medians (bench_analyze): every interpreter has the same rounds */
				double point = i == b ? 1.0 : cb->median / ci->median;
				if (x == 0 || point < g->worst_speedup[p].point) {
					g->worst[p] = g->works[x];
					g->worst_speedup[p].point = point;
				}
			}
			g->worst_speedup[p] = pair_speedup(r, g->worst[p], i, b, g->worst_conf, &g->worst_verdict[p]);
			/* the seed stream of the overall figure: "all" reproduces r->pair exactly */
			g->geomean[p] = i == b ? (struct interval){1, 1, 1}
					       : stats_geomean_speedup(bs, os, n, k, r->conf, r->nboot, r->seed + 7919ULL * (uint64_t)p);
			g->geomean_verdict[p] = i == b ? VERDICT_SAME : stats_verdict(g->geomean[p], EXACT_TOLERANCE);
			if (i != b && r->mode == BENCH_TIME && r->rounds < 2)
				g->geomean_verdict[p] = VERDICT_NOISE;
		}
	free(bs);
	free(os);
	free(n);
}

/* Groups in the order they first appear among the workloads, then "all". */
static void bench_analyze_groups(struct bench_result *r)
{
	free_groups(r);
	r->groups = xcalloc((size_t)r->nwork + 1, sizeof *r->groups);
	for (int w = 0; w < r->nwork; w++) {
		const char *name = r->works[w].group ? r->works[w].group : "python";
		int g = 0;
		while (g < r->ngroups && strcmp(r->groups[g].name, name))
			g++;
		if (g == r->ngroups) {
			r->groups[g].name = xstrdup(name);
			r->groups[g].works = xcalloc((size_t)r->nwork, sizeof(int));
			r->ngroups++;
		}
		r->groups[g].works[r->groups[g].nwork++] = w;
	}
	struct bench_group *all = &r->groups[r->ngroups++];
	all->name = xstrdup("all");
	all->works = xcalloc((size_t)r->nwork, sizeof(int));
	for (int w = 0; w < r->nwork; w++)
		all->works[all->nwork++] = w;
	for (int g = 0; g < r->ngroups; g++)
		analyze_group(r, &r->groups[g]);
}

void bench_analyze(struct bench_result *r)
{
	int ni = r->ninterp, nw = r->nwork;
	for (int w = 0; w < nw; w++)
		for (int i = 0; i < ni; i++) {
			struct bench_cell *c = bench_cell(r, w, i), *base = bench_cell(r, w, 0);
			c->median = stats_median(c->samples, c->n);
			c->mad = stats_mad(c->samples, c->n);
			c->iqr = stats_iqr(c->samples, c->n);
			int n = c->n < base->n ? c->n : base->n;
			/* Each workload and pair gets its own stream of the seed: reproducible, independent. */
			c->speedup = stats_speedup(base->samples, c->samples, n, r->conf, r->nboot, r->seed + 1000003ULL * (uint64_t)(w * ni + i));
			c->verdict = i == 0 ? VERDICT_SAME : stats_verdict(c->speedup, EXACT_TOLERANCE);
			/* One timed sample says nothing about its noise: never call it a win. */
			if (i && r->mode == BENCH_TIME && n < 2)
				c->verdict = VERDICT_NOISE;
		}
	free(r->pair);
	free(r->pair_verdict);
	r->pair = xcalloc((size_t)(ni * ni), sizeof *r->pair);
	r->pair_verdict = xcalloc((size_t)(ni * ni), sizeof *r->pair_verdict);
	const double **b = xcalloc((size_t)nw, sizeof *b), **o = xcalloc((size_t)nw, sizeof *o);
	int *n = xcalloc((size_t)nw, sizeof *n);
	for (int i = 0; i < ni; i++)
		for (int j = 0; j < ni; j++) {
			for (int w = 0; w < nw; w++) {
				const struct bench_cell *ci = bench_cell(r, w, i), *cj = bench_cell(r, w, j);
				b[w] = cj->samples;
				o[w] = ci->samples;
				n[w] = ci->n < cj->n ? ci->n : cj->n;
			}
			struct interval iv = i == j ? (struct interval){1, 1, 1}
						    : stats_geomean_speedup(b, o, n, nw, r->conf, r->nboot, r->seed + 7919ULL * (uint64_t)(i * ni + j));
			r->pair[i * ni + j] = iv;
			r->pair_verdict[i * ni + j] = stats_verdict(iv, EXACT_TOLERANCE);
			if (i != j && r->mode == BENCH_TIME && r->rounds < 2)
				r->pair_verdict[i * ni + j] = VERDICT_NOISE;
		}
	free(b);
	free(o);
	free(n);
	bench_analyze_groups(r);
}

void bench_format_value(char *out, size_t n, double v, enum bench_mode mode)
{
	static const char *const time_units[] = {"s", "ms", "us", "ns"};
	static const char *const count_units[] = {"", "k", "M", "G", "T"};
	int u = 0;
	if (mode == BENCH_TIME) {
		while (u < 3 && fabs(v) < 1 && v != 0) {
			v *= 1000;
			u++;
		}
	} else {
		while (u < 4 && fabs(v) >= 1000) {
			v /= 1000;
			u++;
		}
	}
	const char *unit = mode == BENCH_TIME ? time_units[u] : count_units[u];
	const char *sep = mode == BENCH_TIME || *unit ? " " : "";
	if (fabs(v) < 10)
		snprintf(out, n, "%.2f%s%s", v, sep, unit);
	else if (fabs(v) < 100)
		snprintf(out, n, "%.1f%s%s", v, sep, unit);
	else
		snprintf(out, n, "%.0f%s%s", v, sep, unit);
}

void bench_format_speedup(char *out, size_t n, struct interval iv, enum verdict v)
{
	if (iv.lo == iv.hi)
		snprintf(out, n, "%.3fx %s", iv.point, verdict_name(v));
	else
		snprintf(out, n, "%.2fx [%.2f,%.2f] %s", iv.point, iv.lo, iv.hi, verdict_name(v));
}

/* "12.3 ms ±0.4%": the median and the MAD relative to it; a single sample has no spread.
 * Returns the bytes beyond the columns shown ("±" is two bytes, one column). */
static int format_median(char *out, size_t n, const struct bench_cell *c, enum bench_mode mode)
{
	char v[32];
	bench_format_value(v, sizeof v, c->median, mode);
	if (c->n < 2) {
		snprintf(out, n, "%9s", v);
		return 0;
	}
	double rel = c->median != 0 ? 100 * c->mad / c->median : 0;
	snprintf(out, n, "%9s ±%4.1f%%", v, rel);
	return 1;
}

#define MEDIAN_W 17
#define SPEEDUP_W 26

/* Per group and overall: the geometric mean next to the worst workload, for every interpreter
 * against the baseline (a suite's mean can hide one workload that got slower). */
static void print_groups(const struct bench_result *r, FILE *out)
{
	int ni = r->ninterp, base = r->baseline >= 0 && r->baseline < ni ? r->baseline : 0;
	if (ni < 2 || !r->ngroups)
		return;
	int gw = 9, iw = 11;
	for (int g = 0; g < r->ngroups; g++)
		if ((int)strlen(r->groups[g].name) > gw)
			gw = (int)strlen(r->groups[g].name);
	for (int i = 0; i < ni; i++)
		if ((int)strlen(r->interps[i].name) > iw)
			iw = (int)strlen(r->interps[i].name);
	fprintf(out, "\nby group, against %s (speedup: geometric mean, and the worst workload):\n", r->interps[base].name);
	if (r->mode == BENCH_TIME)
		fprintf(out, "(the worst workload's interval is family-wise: %g%% over the group's workloads together)\n",
			r->conf * 100);
	fprintf(out, "%-*s %9s  %-*s  %-*s  %s\n", gw, "group", "workloads", iw, "interpreter", SPEEDUP_W, "geometric mean",
		"worst workload");
	for (int g = 0; g < r->ngroups; g++) {
		const struct bench_group *gr = &r->groups[g];
		int first = 1;
		for (int i = 0; i < ni; i++) {
			if (i == base)
				continue;
			int p = i * ni + base;
			char m[96], w[96];
			bench_format_speedup(m, sizeof m, gr->geomean[p], gr->geomean_verdict[p]);
			bench_format_speedup(w, sizeof w, gr->worst_speedup[p], gr->worst_verdict[p]);
			fprintf(out, "%-*s %9d  %-*s  %-*s  %-*s %s\n", gw, first ? gr->name : "", gr->nwork, iw, r->interps[i].name,
				SPEEDUP_W, m, SPEEDUP_W, w, r->works[gr->worst[p]].name);
			first = 0;
		}
	}
}

void bench_print_table(const struct bench_result *r, FILE *out)
{
	int ni = r->ninterp, nw = r->nwork, namew = 14;
	for (int w = 0; w < nw; w++)
		if ((int)strlen(r->works[w].name) > namew)
			namew = (int)strlen(r->works[w].name);
	const char *what = r->mode == BENCH_TIME ? "time per loop" : "instructions per loop";
	if (r->rounds > 1) {
		fprintf(out, "%s: median of %d rounds ± MAD; speedup = %s of %s / this one, [%.0f%% interval]\n", what,
			r->rounds, r->mode == BENCH_TIME ? "median time" : "median count", r->interps[0].name, r->conf * 100);
		if (r->layouts > 1)
			fprintf(out, "heap layouts: %d (round r holds a pad of (r mod %d) x %d bytes while it measures)\n",
				r->layouts, r->layouts, BENCH_PAD_STEP);
		else
			fprintf(out, "heap layout: the same in every round (--layouts=1)\n");
		if (r->mode == BENCH_TIME)
			fprintf(out, "%s\n", r->drop_pages ? "page cache: each interpreter's files dropped and read back every round, so every round has another placement"
							   : "page cache: kept (--keep-page-cache): each interpreter keeps one placement for the whole run");
	} else
		fprintf(out, "%s: one %s each; speedup = %s of %s / this one\n", what, r->mode == BENCH_TIME ? "sample" : "count",
			r->mode == BENCH_TIME ? "time" : "count", r->interps[0].name);
	fprintf(out, "%-*s", namew, "workload");
	for (int i = 0; i < ni; i++) {
		char h[128];
		snprintf(h, sizeof h, "%s (%s)", r->interps[i].name, r->interps[i].version ? r->interps[i].version : "?");
		fprintf(out, "  %-*s", i ? MEDIAN_W + 1 + SPEEDUP_W : MEDIAN_W, h);
	}
	fputc('\n', out);
	for (int w = 0; w < nw; w++) {
		fprintf(out, "%-*s", namew, printable(r->works[w].name));
		for (int i = 0; i < ni; i++) {
			const struct bench_cell *c = bench_cell(r, w, i);
			char m[64], s[96];
			int extra = format_median(m, sizeof m, c, r->mode);
			fprintf(out, "  %-*s", MEDIAN_W + extra, m);
			if (i) {
				bench_format_speedup(s, sizeof s, c->speedup, c->verdict);
				fprintf(out, " %-*s", SPEEDUP_W, s);
			}
		}
		fputc('\n', out);
	}
	fprintf(out, "%-*s  %-*s", namew, "geometric mean", MEDIAN_W, "");
	for (int i = 1; i < ni; i++) {
		char s[96];
		bench_format_speedup(s, sizeof s, r->pair[i * ni], r->pair_verdict[i * ni]);
		fprintf(out, "  %-*s %-*s", MEDIAN_W, "", SPEEDUP_W, s);
	}
	fputc('\n', out);
	print_groups(r, out);
	fputc('\n', out);
	for (int i = 1; i < ni; i++)
		for (int j = 0; j < i; j++) {
			struct interval iv = r->pair[i * ni + j];
			enum verdict v = r->pair_verdict[i * ni + j];
			const char *a = r->interps[i].name, *b = r->interps[j].name;
			if (v == VERDICT_NOISE)
				fprintf(out, "%s vs %s: no difference beyond the noise (%.3fx, %.0f%% interval %.3f-%.3f contains 1)\n", a, b,
					iv.point, r->conf * 100, iv.lo, iv.hi);
			else if (v == VERDICT_SAME)
				fprintf(out, "%s vs %s: the same (%.4fx)\n", a, b, iv.point);
			else if (iv.lo == iv.hi)
				fprintf(out, "%s vs %s: %.3fx (%.1f%% %s), geometric mean of %d workloads\n", a, b, iv.point,
					100 * fabs(iv.point - 1), iv.point > 1 ? "fewer instructions" : "more instructions", nw);
			else
				fprintf(out, "%s vs %s: %.3fx %s (%.0f%% interval %.3f-%.3f), geometric mean of %d workloads\n", a, b,
					iv.point, verdict_name(v), r->conf * 100, iv.lo, iv.hi, nw);
		}
}

static json_t *json_interval(struct interval iv)
{
	return json_pack("[o, o]", jw_number(iv.lo), jw_number(iv.hi));
}

/* One interpreter against a baseline, in a group. */
static json_t *json_group_result(const struct bench_result *r, const struct bench_group *gr, int i,
				 int b)
{
	int p = i * r->ninterp + b;
	return json_pack("{s:o, s:o, s:o, s:o, s:s, s:o, s:o, s:o, s:o, s:s}",
			 "interpreter", jw_text(r->interps[i].name),
			 "baseline", jw_text(r->interps[b].name),
			 "geometric_mean", jw_number(gr->geomean[p].point),
			 "interval", json_interval(gr->geomean[p]),
			 "verdict", verdict_name(gr->geomean_verdict[p]),
			 "worst_workload", jw_text(r->works[gr->worst[p]].name),
			 "worst_speedup", jw_number(gr->worst_speedup[p].point),
			 "worst_interval", json_interval(gr->worst_speedup[p]),
			 "worst_confidence", jw_number(gr->worst_conf),
			 "worst_verdict", verdict_name(gr->worst_verdict[p]));
}

/* "groups": per group (the last is "all"), for every interpreter against every other: the
 * geometric mean and the worst workload. */
static json_t *json_groups(const struct bench_result *r)
{
	int ni = r->ninterp;
	json_t *groups = json_array();
	for (int g = 0; g < r->ngroups; g++) {
		const struct bench_group *gr = &r->groups[g];
		json_t *works = json_array(), *results = json_array();
		for (int x = 0; x < gr->nwork; x++)
			json_array_append_new(works, jw_text(r->works[gr->works[x]].name));
		for (int b = 0; b < ni; b++)
			for (int i = 0; i < ni; i++)
				if (i != b)
					json_array_append_new(results,
							      json_group_result(r, gr, i, b));
		json_t *one = json_pack("{s:o, s:o, s:o}", "name", jw_text(gr->name),
					"workloads", works, "results", results);
		json_array_append_new(groups, one);
	}
	return groups;
}

static json_t *json_interpreters(const struct bench_result *r)
{
	json_t *interps = json_array();
	for (int i = 0; i < r->ninterp; i++) {
		const struct bench_interp *in = &r->interps[i];
		json_t *mapped = json_array();
		for (int k = 0; k < in->nmapped; k++)
			json_array_append_new(mapped, jw_opt(in->mapped[k]));
		json_t *one = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}",
					"name", jw_opt(in->name),
					"python", jw_opt(in->python),
					"executable", jw_opt(in->executable),
					"version", jw_opt(in->version),
					"library_path", jw_opt(in->env ? in->env[0] + strlen("LD_LIBRARY_PATH=") : NULL),
					"mapped_files", mapped);
		json_array_append_new(interps, one);
	}
	return interps;
}

/* The run's settings and the machine it ran on. */
static json_t *json_settings(const struct bench_result *r)
{
	int time = r->mode == BENCH_TIME;
	json_t *j = json_pack("{s:s, s:s, s:s, s:o, s:o, s:i, s:i, s:i, s:i, s:o, s:i, s:I, s:s, "
			      "s:o, s:b, s:b, s:o}",
			      "tool", "profopt bench",
			      "mode", time ? "time" : "instructions",
			      "unit", time ? "seconds per loop" : "instructions per loop",
			      "started", jw_opt(r->started),
			      "seconds", jw_number(r->seconds),
			      "rounds", r->rounds,
			      "warmup", r->warmup,
			      "layouts", r->layouts,
			      "layout_pad_step", BENCH_PAD_STEP,
			      "confidence", jw_number(r->conf),
			      "bootstrap_resamples", r->nboot,
			      "seed", (json_int_t)r->seed,
			      "interval_method", "paired percentile bootstrap over rounds of "
			      "median(base)/median(other); geometric mean: rounds of every "
			      "workload resampled in each replicate",
			      "cpu", r->cpu >= 0 ? json_integer(r->cpu) : json_null(),
			      "no_aslr", r->no_aslr,
			      "drop_page_cache", r->drop_pages,
			      "callgrind_options", jw_opt(r->callgrind_args));
	/* what a count subtracts (startup and the first loop's warm-up), so bench-compare can
	 * tell counts of separate runs apart that do not compare */
	if (r->mode == BENCH_INSTRUCTIONS)
		json_object_set_new(j, "subtracted_loops", json_integer(BENCH_SUBTRACTED_LOOPS));
	if (r->sys)
		json_object_set_new(j, "system", sysinfo_json(r->sys));
	json_object_set_new(j, "interpreters", json_interpreters(r));
	return j;
}

/* One workload on one interpreter: its samples and what they say. */
static json_t *json_cell(const struct bench_result *r, int w, int i)
{
	const struct bench_cell *c = bench_cell(r, w, i);
	json_t *samples = json_array();
	for (int k = 0; k < c->n; k++)
		json_array_append_new(samples, jw_number(c->samples[k]));
	json_t *j = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:s}",
			      "interpreter", jw_text(r->interps[i].name),
			      "samples", samples,
			      "median", jw_number(c->median),
			      "mad", jw_number(c->mad),
			      "iqr", jw_number(c->iqr),
			      "ratio", jw_number(c->median / bench_cell(r, w, 0)->median),
			      "speedup", jw_number(c->speedup.point),
			      "speedup_interval", json_interval(c->speedup),
			      "verdict", i ? verdict_name(c->verdict) : "baseline");
	if (c->nevents) {
		json_t *events = json_object();
		for (int e = 0; e < c->nevents; e++)
			jw_set(events, c->event_names[e], jw_number(c->events[e]));
		json_object_set_new(j, "events", events);
	}
	return j;
}

static json_t *json_workloads(const struct bench_result *r)
{
	json_t *works = json_array();
	for (int w = 0; w < r->nwork; w++) {
		json_t *results = json_array();
		for (int i = 0; i < r->ninterp; i++)
			json_array_append_new(results, json_cell(r, w, i));
		const struct bench_workload *wl = &r->works[w];
		json_t *one = json_pack("{s:o, s:o, s:I, s:o}",
					"name", jw_text(wl->name),
					"group", jw_text(wl->group ? wl->group : "python"),
					"loops", (json_int_t)wl->loops,
					"results", results);
		json_array_append_new(works, one);
	}
	return works;
}

/* The geometric mean of every interpreter against every other. */
static json_t *json_pairs(const struct bench_result *r)
{
	int ni = r->ninterp;
	json_t *pairs = json_array();
	for (int i = 0; i < ni; i++)
		for (int b = 0; b < ni; b++) {
			if (i == b)
				continue;
			int p = i * ni + b;
			json_t *one = json_pack("{s:o, s:o, s:o, s:o, s:s}",
						"interpreter", jw_text(r->interps[i].name),
						"baseline", jw_text(r->interps[b].name),
						"speedup", jw_number(r->pair[p].point),
						"interval", json_interval(r->pair[p]),
						"verdict", verdict_name(r->pair_verdict[p]));
			json_array_append_new(pairs, one);
		}
	return pairs;
}

void bench_write_json(const struct bench_result *r, FILE *out)
{
	json_t *doc = json_settings(r);
	json_object_set_new(doc, "workloads", json_workloads(r));
	json_object_set_new(doc, "geometric_mean", json_pairs(r));
	json_object_set_new(doc, "groups", json_groups(r));
	jw_write(doc, out);
}

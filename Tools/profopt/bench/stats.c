/* stats.c - medians, spreads, bootstrap intervals of speedups (see stats.h for the method). */
#include "bench/stats.h"
#include "lib/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double *sorted_copy(const double *x, int n)
{
	double *s = xmalloc((size_t)n * sizeof *s);
	memcpy(s, x, (size_t)n * sizeof *s);
	qsort(s, (size_t)n, sizeof *s, cmp_double);
	return s;
}

/* Type 7 quantile of already sorted values. */
static double quantile_sorted(const double *s, int n, double q)
{
	if (n <= 0)
		return NAN;
	if (q <= 0)
		return s[0];
	if (q >= 1)
		return s[n - 1];
	double h = (n - 1) * q;
	int i = (int)floor(h);
	if (i + 1 >= n)
		return s[n - 1];
	return s[i] + (h - i) * (s[i + 1] - s[i]);
}

double stats_quantile(const double *x, int n, double q)
{
	if (n <= 0)
		return NAN;
	double *s = sorted_copy(x, n);
	double v = quantile_sorted(s, n, q);
	free(s);
	return v;
}

double stats_median(const double *x, int n)
{
	return stats_quantile(x, n, 0.5);
}

double stats_mad(const double *x, int n)
{
	if (n <= 0)
		return NAN;
	double m = stats_median(x, n);
	double *d = xmalloc((size_t)n * sizeof *d);
	for (int i = 0; i < n; i++)
		d[i] = fabs(x[i] - m);
	double v = stats_median(d, n);
	free(d);
	return v;
}

double stats_iqr(const double *x, int n)
{
	if (n <= 0)
		return NAN;
	double *s = sorted_copy(x, n);
	double v = quantile_sorted(s, n, 0.75) - quantile_sorted(s, n, 0.25);
	free(s);
	return v;
}

double stats_mean(const double *x, int n)
{
	double sum = 0;
	for (int i = 0; i < n; i++)
		sum += x[i];
	return n > 0 ? sum / n : NAN;
}

double stats_geomean(const double *x, int n)
{
	double sum = 0;
	for (int i = 0; i < n; i++)
		sum += log(x[i]);
	return n > 0 ? exp(sum / n) : NAN;
}

uint64_t stats_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int stats_rand_below(uint64_t *state, int n)
{
	/* The modulo bias is below 2^-40 for the sample counts used here. */
	return (int)(stats_rand(state) % (uint64_t)n);
}

/* The speedup of one bootstrap resample of n paired rounds (scratch: 2n doubles). */
static double resampled_speedup(const double *base, const double *other, int n, uint64_t *rng, double *scratch)
{
	double *b = scratch, *o = scratch + n;
	for (int i = 0; i < n; i++) {
		int r = stats_rand_below(rng, n);
		b[i] = base[r];
		o[i] = other[r];
	}
	return stats_median(b, n) / stats_median(o, n);
}

static struct interval percentile_interval(double point, double *reps, int nboot, double conf)
{
	double *s = sorted_copy(reps, nboot);
	struct interval iv = {point, quantile_sorted(s, nboot, (1 - conf) / 2), quantile_sorted(s, nboot, (1 + conf) / 2)};
	free(s);
	/* The percentile interval of a median ratio can, with few rounds, miss the point estimate
	 * itself; widen it so that it always contains the reported value. */
	if (iv.lo > point)
		iv.lo = point;
	if (iv.hi < point)
		iv.hi = point;
	return iv;
}

struct interval stats_speedup(const double *base, const double *other, int n, double conf, int nboot, uint64_t seed)
{
	double point = stats_median(base, n) / stats_median(other, n);
	if (n < 2 || nboot < 1)
		return (struct interval){point, point, point};
	double *reps = xmalloc((size_t)nboot * sizeof *reps), *scratch = xmalloc(2 * (size_t)n * sizeof *scratch);
	uint64_t rng = seed;
	for (int r = 0; r < nboot; r++)
		reps[r] = resampled_speedup(base, other, n, &rng, scratch);
	struct interval iv = percentile_interval(point, reps, nboot, conf);
	free(reps);
	free(scratch);
	return iv;
}

struct interval stats_geomean_speedup(const double *const *base, const double *const *other, const int *n, int k,
				      double conf, int nboot, uint64_t seed)
{
	if (k <= 0)
		return (struct interval){NAN, NAN, NAN};
	double logsum = 0;
	int maxn = 1, resample = 0;
	for (int w = 0; w < k; w++) {
		logsum += log(stats_median(base[w], n[w]) / stats_median(other[w], n[w]));
		if (n[w] > maxn)
			maxn = n[w];
		resample |= n[w] > 1;
	}
	double point = exp(logsum / k);
	if (!resample || nboot < 1)
		return (struct interval){point, point, point};
	double *reps = xmalloc((size_t)nboot * sizeof *reps), *scratch = xmalloc(2 * (size_t)maxn * sizeof *scratch);
	uint64_t rng = seed;
	for (int r = 0; r < nboot; r++) {
		double s = 0;
		for (int w = 0; w < k; w++)
			s += log(resampled_speedup(base[w], other[w], n[w], &rng, scratch));
		reps[r] = exp(s / k);
	}
	struct interval iv = percentile_interval(point, reps, nboot, conf);
	free(reps);
	free(scratch);
	return iv;
}

enum verdict stats_verdict(struct interval iv, double exact_tolerance)
{
	if (iv.lo == iv.hi) {
		if (fabs(iv.point - 1) <= exact_tolerance)
			return VERDICT_SAME;
		return iv.point > 1 ? VERDICT_FASTER : VERDICT_SLOWER;
	}
	if (iv.lo > 1)
		return VERDICT_FASTER;
	if (iv.hi < 1)
		return VERDICT_SLOWER;
	return VERDICT_NOISE;
}

const char *verdict_name(enum verdict v)
{
	switch (v) {
	case VERDICT_FASTER: return "faster";
	case VERDICT_SLOWER: return "slower";
	case VERDICT_NOISE: return "noise";
	case VERDICT_SAME: return "same";
	}
	return "?";
}

double stats_parse_confidence(const char *text)
{
	char *end;
	double c = strtod(text, &end);
	if (end == text || *end || !(c > 0.5 && c < 1))
		usage_error("--confidence wants a number between 0.5 and 1 (e.g. 0.95), not '%s'", printable(text));
	return c;
}

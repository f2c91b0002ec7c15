/* stats.h - the statistics of `profopt bench`: robust location and spread of repeated
 * measurements, and confidence intervals of speedups by a seeded (so reproducible) bootstrap.
 *
 * Method, per workload: an interpreter's samples are compared with the first interpreter's
 * samples of the same rounds.  The speedup is median(base) / median(other) (above 1: other is
 * faster).  Its interval comes from a paired percentile bootstrap: resample the rounds with
 * replacement (a round keeps its base and other sample together, so slow drift that hit both
 * stays paired), recompute the speedup, take the (1-c)/2 and (1+c)/2 quantiles of B resamples.
 * The overall figure is the geometric mean of the per-workload speedups; its interval resamples
 * the rounds of every workload independently in each bootstrap replicate (a two-level
 * bootstrap), so it reflects the noise of every workload and not the spread between
 * workloads (which is real, not noise).  A speedup whose interval contains 1 is "noise". */
#ifndef PROFOPT_STATS_H
#define PROFOPT_STATS_H

#include <stdint.h>

/* Order statistics of n values (x is not changed).  n > 0. */
double stats_median(const double *x, int n);
/* Quantile q in [0,1], linear interpolation between order statistics (Hyndman & Fan type 7). */
double stats_quantile(const double *x, int n, double q);
/* Median absolute deviation from the median (not scaled to a normal sigma). */
double stats_mad(const double *x, int n);
/* Interquartile range: quantile 0.75 - quantile 0.25. */
double stats_iqr(const double *x, int n);
double stats_mean(const double *x, int n);
/* exp(mean(log x)); all x > 0. */
double stats_geomean(const double *x, int n);

/* A deterministic pseudo-random generator (splitmix64). */
uint64_t stats_rand(uint64_t *state);
/* Uniform in [0, n). */
int stats_rand_below(uint64_t *state, int n);

struct interval {
	double point, lo, hi;
};

/* Speedup median(base)/median(other) over n paired rounds, with a bootstrap interval of
 * confidence conf (e.g. 0.95) from nboot resamples.  n == 1 gives lo == hi == point. */
struct interval stats_speedup(const double *base, const double *other, int n, double conf, int nboot, uint64_t seed);

/* Geometric mean of k speedups; base[i] and other[i] hold n[i] paired samples of workload i. */
struct interval stats_geomean_speedup(const double *const *base, const double *const *other, const int *n, int k,
				      double conf, int nboot, uint64_t seed);

/* --confidence's value (bench and compare): a number between 0.5 and 1, else a usage error. */
double stats_parse_confidence(const char *text);

enum verdict { VERDICT_FASTER, VERDICT_SLOWER, VERDICT_NOISE, VERDICT_SAME };
/* FASTER/SLOWER when the interval excludes 1, NOISE when it contains 1.  An interval of zero
 * width (a single, deterministic measurement) is SAME when within `exact_tolerance` of 1. */
enum verdict stats_verdict(struct interval iv, double exact_tolerance);
const char *verdict_name(enum verdict v);

#endif

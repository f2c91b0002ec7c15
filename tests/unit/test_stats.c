/* test_stats.c - unit tests of stats.c: order statistics, spreads, bootstrap intervals, verdicts. */
#include "bench/stats.h"
#include "unit.h"

#include <math.h>

TEST(stats_median_odd_even)
{
	double odd[] = {5, 1, 3};
	double even[] = {4, 1, 3, 2};
	CHECK_NEAR(stats_median(odd, 3), 3, 1e-12);
	CHECK_NEAR(stats_median(even, 4), 2.5, 1e-12);
	double one[] = {7};
	CHECK_NEAR(stats_median(one, 1), 7, 1e-12);
	/* the input is not reordered */
	CHECK_NEAR(odd[0], 5, 0);
}

TEST(stats_quantile_type7)
{
	double x[] = {1, 2, 3, 4, 5};
	CHECK_NEAR(stats_quantile(x, 5, 0), 1, 1e-12);
	CHECK_NEAR(stats_quantile(x, 5, 1), 5, 1e-12);
	CHECK_NEAR(stats_quantile(x, 5, 0.25), 2, 1e-12);
	CHECK_NEAR(stats_quantile(x, 5, 0.1), 1.4, 1e-12);
	double y[] = {10, 20, 30, 40};
	CHECK_NEAR(stats_quantile(y, 4, 0.75), 32.5, 1e-12); /* h = 2.25 */
}

TEST(stats_mad_iqr)
{
	double x[] = {1, 1, 2, 2, 4, 6, 9};
	/* median 2; deviations 1 1 0 0 2 4 7 -> median 1 */
	CHECK_NEAR(stats_mad(x, 7), 1, 1e-12);
	/* type 7: q1 at h=1.5 -> 1.5, q3 at h=4.5 -> 5 */
	CHECK_NEAR(stats_iqr(x, 7), 3.5, 1e-12);
	double same[] = {3, 3, 3};
	CHECK_NEAR(stats_mad(same, 3), 0, 0);
	CHECK_NEAR(stats_iqr(same, 3), 0, 0);
}

TEST(stats_mean_geomean)
{
	double x[] = {1, 4, 16};
	CHECK_NEAR(stats_mean(x, 3), 7, 1e-12);
	CHECK_NEAR(stats_geomean(x, 3), 4, 1e-12);
	double r[] = {2, 0.5};
	CHECK_NEAR(stats_geomean(r, 2), 1, 1e-12);
}

TEST(stats_rand_deterministic)
{
	uint64_t a = 42, b = 42;
	for (int i = 0; i < 10; i++)
		CHECK(stats_rand(&a) == stats_rand(&b));
	uint64_t s = 1;
	int seen[5] = {0};
	for (int i = 0; i < 1000; i++) {
		int v = stats_rand_below(&s, 5);
		CHECK(v >= 0 && v < 5);
		if (v >= 0 && v < 5)
			seen[v]++;
	}
	for (int k = 0; k < 5; k++)
		CHECK(seen[k] > 150); /* roughly uniform */
}

TEST(stats_speedup_identical_is_exactly_one)
{
	double x[] = {1.0, 1.1, 0.9, 1.05, 0.95};
	struct interval iv = stats_speedup(x, x, 5, 0.95, 500, 1);
	CHECK(iv.point == 1 && iv.lo == 1 && iv.hi == 1);
	CHECK_INT(stats_verdict(iv, 0.001), VERDICT_SAME);
}

TEST(stats_speedup_clear_win)
{
	/* other takes half the time, with small noise: 2x, interval well above 1 */
	double base[] = {10.0, 10.2, 9.9, 10.1, 10.0, 9.8};
	double other[] = {5.0, 5.1, 4.9, 5.05, 5.0, 4.95};
	struct interval iv = stats_speedup(base, other, 6, 0.95, 2000, 7);
	CHECK_NEAR(iv.point, 10.0 / 5.0, 1e-9);
	CHECK(iv.lo > 1.9 && iv.lo <= iv.point);
	CHECK(iv.hi < 2.1 && iv.hi >= iv.point);
	CHECK_INT(stats_verdict(iv, 0.001), VERDICT_FASTER);
	/* and the other way round */
	struct interval back = stats_speedup(other, base, 6, 0.95, 2000, 7);
	CHECK_NEAR(back.point, 0.5, 1e-9);
	CHECK_INT(stats_verdict(back, 0.001), VERDICT_SLOWER);
}

TEST(stats_speedup_noise_contains_one)
{
	/* the same distribution in both: the interval must straddle 1 */
	double base[] = {1.00, 1.20, 0.90, 1.10, 0.95, 1.05};
	double other[] = {1.10, 0.92, 1.15, 0.98, 1.04, 1.01};
	struct interval iv = stats_speedup(base, other, 6, 0.95, 2000, 3);
	CHECK(iv.lo < 1 && iv.hi > 1);
	CHECK_INT(stats_verdict(iv, 0.001), VERDICT_NOISE);
}

TEST(stats_speedup_reproducible_by_seed)
{
	double base[] = {1.0, 1.3, 0.8, 1.2}, other[] = {0.9, 1.1, 1.0, 0.7};
	struct interval a = stats_speedup(base, other, 4, 0.95, 1000, 99);
	struct interval b = stats_speedup(base, other, 4, 0.95, 1000, 99);
	CHECK(a.lo == b.lo && a.hi == b.hi);
}

TEST(stats_speedup_single_sample)
{
	double base[] = {300}, other[] = {200};
	struct interval iv = stats_speedup(base, other, 1, 0.95, 1000, 1);
	CHECK_NEAR(iv.point, 1.5, 1e-12);
	CHECK(iv.lo == iv.point && iv.hi == iv.point);
	CHECK_INT(stats_verdict(iv, 0.001), VERDICT_FASTER);
	double a[] = {1000}, b[] = {1000.5};
	CHECK_INT(stats_verdict(stats_speedup(a, b, 1, 0.95, 100, 1), 0.001), VERDICT_SAME);
}

TEST(stats_geomean_speedup)
{
	/* workload speedups 2 and 0.5 (exactly): geometric mean 1 */
	double b1[] = {2, 2, 2}, o1[] = {1, 1, 1};
	double b2[] = {1, 1, 1}, o2[] = {2, 2, 2};
	const double *b[] = {b1, b2}, *o[] = {o1, o2};
	int n[] = {3, 3};
	struct interval iv = stats_geomean_speedup(b, o, n, 2, 0.95, 500, 5);
	CHECK_NEAR(iv.point, 1, 1e-12);
	CHECK_NEAR(iv.lo, 1, 1e-12);
	CHECK_NEAR(iv.hi, 1, 1e-12);
	/* 1.2x and 1.3x with noise: the mean lies between, interval around it above 1 */
	double c1[] = {12, 12.1, 11.9, 12.05}, p1[] = {10, 10.1, 9.9, 10};
	double c2[] = {13, 13.1, 12.9, 13}, p2[] = {10, 9.95, 10.05, 10};
	const double *c[] = {c1, c2}, *p[] = {p1, p2};
	int m[] = {4, 4};
	struct interval g = stats_geomean_speedup(c, p, m, 2, 0.95, 2000, 5);
	CHECK_NEAR(g.point, sqrt(1.2 * 1.3), 0.01);
	CHECK(g.lo > 1.2 && g.hi < 1.3 && g.lo <= g.point && g.point <= g.hi);
	CHECK_INT(stats_verdict(g, 0.001), VERDICT_FASTER);
}

TEST(stats_verdict_names)
{
	CHECK_STR(verdict_name(VERDICT_FASTER), "faster");
	CHECK_STR(verdict_name(VERDICT_SLOWER), "slower");
	CHECK_STR(verdict_name(VERDICT_NOISE), "noise");
	CHECK_STR(verdict_name(VERDICT_SAME), "same");
	struct interval edge = {1.02, 1.0, 1.04};
	CHECK_INT(stats_verdict(edge, 0.001), VERDICT_NOISE); /* touching 1 is not a win */
}

/*
 * test_rng.c: the world's seeded random streams. Same seed and stream
 * give the same sequence, different streams differ, and the uniform,
 * bounded and normal draws have the right moments within 5 standard
 * errors (derived below from n, with fixed seeds).
 */
#include <criterion/criterion.h>
#include <math.h>

#include "rng.h"

Test(world_rng, same_seed_same_sequence)
{
	struct wrng a, b, c;

	wrng_seed(&a, 42, 3);
	wrng_seed(&b, 42, 3);
	wrng_seed(&c, 42, 4);
	int differ = 0;

	for (int i = 0; i < 1000; i++) {
		uint64_t x = wrng_next(&a), y = wrng_next(&b),
			 z = wrng_next(&c);

		cr_assert_eq(x, y);
		differ += x != z;
	}
	cr_assert_gt(differ, 990);
}

Test(world_rng, uniform_mean_and_variance)
{
	struct wrng r;
	const int n = 200000;
	double s = 0, s2 = 0;

	wrng_seed(&r, 1, 0);
	for (int i = 0; i < n; i++) {
		double u = wrng_uniform(&r);

		cr_assert(u >= 0 && u < 1);
		s += u;
		s2 += u * u;
	}
	double mean = s / n, var = s2 / n - mean * mean;
	/* U(0,1): mean 1/2, variance 1/12; standard error of the mean
	 * sqrt(1/12/n); of the variance sqrt((mu4 - sigma^4)/n) with
	 * mu4 = 1/80, sigma^4 = 1/144. */
	double se_mean = sqrt(1.0 / 12 / n);
	double se_var = sqrt((1.0 / 80 - 1.0 / 144) / n);

	cr_assert_lt(fabs(mean - 0.5), 5 * se_mean, "mean %f", mean);
	cr_assert_lt(fabs(var - 1.0 / 12), 5 * se_var, "var %f", var);
}

Test(world_rng, below_is_uniform_per_bin)
{
	struct wrng r;
	const int n = 70000, k = 7;
	int count[7] = {0};

	wrng_seed(&r, 9, 1);
	for (int i = 0; i < n; i++) {
		uint32_t v = wrng_below(&r, k);

		cr_assert_lt(v, (uint32_t)k);
		count[v]++;
	}
	/* each bin ~ Binomial(n, 1/k): sd sqrt(n p (1-p)) */
	double p = 1.0 / k, sd = sqrt(n * p * (1 - p));

	for (int i = 0; i < k; i++)
		cr_assert_lt(fabs(count[i] - n * p), 5 * sd, "bin %d: %d", i,
			     count[i]);
}

Test(world_rng, normal_moments)
{
	struct wrng r;
	const int n = 200000;
	double s = 0, s2 = 0;

	wrng_seed(&r, 5, 2);
	for (int i = 0; i < n; i++) {
		double z = wrng_normal(&r);

		cr_assert(isfinite(z));
		s += z;
		s2 += z * z;
	}
	double mean = s / n, var = s2 / n - mean * mean;
	/* N(0,1): se of mean 1/sqrt(n); se of variance sqrt(2/n) */
	cr_assert_lt(fabs(mean), 5 / sqrt(n), "mean %f", mean);
	cr_assert_lt(fabs(var - 1), 5 * sqrt(2.0 / n), "var %f", var);
}

/*
 * test_ping.c: the RTT estimators on known sequences: instant follows
 * the newest sample, EWMA (alpha 1/8) is seeded by the first sample, and
 * the UE4 estimate is 0 until a sample arrives a second after the first
 * bucket opened, then the mean of every sample in the four buckets (at
 * most seven per bucket).
 */
#include <criterion/criterion.h>
#include <errno.h>

#include "lagcomp/lagcomp.h"

#define MS 1000000LL

Test(ping, instant_and_ewma)
{
	struct lc_ping a, e;

	lc_ping_init(&a, LC_PING_INSTANT);
	lc_ping_init(&e, LC_PING_EWMA);
	cr_assert_eq(lc_ping_get(&e), 0);
	lc_ping_sample(&a, 0, 100);
	lc_ping_sample(&e, 0, 100);
	lc_ping_sample(&a, MS, 200);
	lc_ping_sample(&e, MS, 200);
	cr_assert_float_eq(lc_ping_get(&a), 200, 0);
	cr_assert_float_eq(lc_ping_get(&e), 112.5, 1e-12);
	lc_ping_sample(&e, 2 * MS, 200);
	/* 112.5 + (200 - 112.5) / 8 */
	cr_assert_float_eq(lc_ping_get(&e), 123.4375, 1e-12);
	cr_assert_eq(lc_ping_sample(&e, 3 * MS, -1), -EINVAL);
	cr_assert_eq(lc_ping_sample(&e, 3 * MS, 0.0 / 0.0), -EINVAL);
	cr_assert_float_eq(lc_ping_get(&e), 123.4375, 1e-12);
}

/* Samples every 100 ms; second s (0-based) carries 10 (s + 1) ms. */
static double ue4_at(double t_end_s)
{
	struct lc_ping p;

	lc_ping_init(&p, LC_PING_UE4);
	for (int64_t t = 0; t <= (int64_t)(t_end_s * 1000); t += 100)
		lc_ping_sample(&p, t * MS, 10.0 * (double)(t / 1000 + 1));
	return lc_ping_get(&p);
}

Test(ping, ue4_four_buckets)
{
	/* bucket 0 keeps the first 7 samples of 10 ms (0.7-0.9 s dropped) */
	cr_assert_float_eq(ue4_at(0.9), 0, 0);
	cr_assert_float_eq(ue4_at(1.0), 10, 1e-12);
	cr_assert_float_eq(ue4_at(1.9), 10, 1e-12); /* recomputed at 1 Hz */
	cr_assert_float_eq(ue4_at(2.0), 15, 1e-12); /* (7*10 + 7*20) / 14 */
	cr_assert_float_eq(ue4_at(3.0), 20, 1e-12);
	cr_assert_float_eq(ue4_at(4.0), 25, 1e-12);
	/* at 4.0 s bucket 0 is overwritten: 20, 30, 40, 50 */
	cr_assert_float_eq(ue4_at(5.0), 35, 1e-12);
	cr_assert_float_eq(ue4_at(6.0), 45, 1e-12);
}

Test(ping, ue4_bucket_follows_arrivals_not_the_wall_clock)
{
	struct lc_ping p;

	lc_ping_init(&p, LC_PING_UE4);
	lc_ping_sample(&p, 500 * MS, 40);
	lc_ping_sample(&p, 1400 * MS, 60); /* 0.9 s after: same bucket */
	cr_assert_float_eq(lc_ping_get(&p), 0, 0);
	lc_ping_sample(&p, 1500 * MS, 500);
	cr_assert_float_eq(lc_ping_get(&p), 50, 1e-12);
}

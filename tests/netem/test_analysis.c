/*
 * test_analysis.c: the closed forms behind `reckonctl spec` against hand
 * derivations, and the Monte-Carlo driver against them (5 standard errors,
 * derived in each test), plus its determinism.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "netem_analysis.h"
#include "stats.h"

Test(analysis, loss_closed_forms)
{
	struct netem_spec s;
	double r, b;

	spec_must("loss 5%", &s);
	cr_assert_eq(netem_loss_analytic(&s, &r, &b), 0);
	cr_assert(fabs(r - 0.05) < 1e-9);
	cr_assert(fabs(b - 1 / 0.95) < 1e-8); /* geometric runs */
	spec_must("loss 5% 25%", &s);
	cr_assert_eq(netem_loss_analytic(&s, &r, &b), -ENOTSUP);
	spec_must("", &s);
	cr_assert_eq(netem_loss_analytic(&s, &r, &b), -EDOM);
	/* Simple Gilbert: pi_B = p/(p+r), bursts are Bad stays, mean 1/r */
	spec_must("loss gemodel 2% 25%", &s);
	cr_assert_eq(netem_loss_analytic(&s, &r, &b), 0);
	cr_assert(fabs(r - 0.02 / 0.27) < 1e-6, "%.8f", r);
	cr_assert(fabs(b - 4) < 1e-5, "%.8f", b);
	/* 4-state "state P" alone is Bernoulli(P) */
	spec_must("loss state 10%", &s);
	cr_assert_eq(netem_loss_analytic(&s, &r, &b), 0);
	cr_assert(fabs(r - 0.1) < 1e-6);
	cr_assert(fabs(b - 1 / 0.9) < 1e-5);
	/* 4-state with isolated losses only: p14 = 10%, 4 -> 1 always:
	 * pi4 = p14 / (1 + p14), bursts of exactly 1 */
	spec_must("loss state 0% 100% 0% 100% 10%", &s);
	cr_assert_eq(netem_loss_analytic(&s, &r, &b), 0);
	cr_assert(fabs(r - 0.1 / 1.1) < 1e-6, "%.8f", r);
	cr_assert(fabs(b - 1) < 1e-6, "%.8f", b);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Expected values from the sampling rule itself, computed here another way
 * than analysis.c does: uniform jitter J takes mu - J + k for k = rnd % 2J,
 * k drawn by floor((2^32 - 1 - k) / 2J) + 1 of the 2^32 draws (summed over
 * all k); a table takes each of its 4096 entries with probability 1/4096,
 * and tabledist rounds mu + sigma t / 8192 to the nearest ns, so the mean
 * is mu + sigma * (table mean) within 0.5 ns and the 99th percentile is the
 * sorted entry 4055 (= ceil(0.99 * 4096) - 1) within 0.5 ns. */
Test(analysis, delay_closed_forms)
{
	int16_t t[NETEM_DIST_BUILTIN_SIZE];
	int64_t v[NETEM_DIST_BUILTIN_SIZE];
	struct netem_spec s;
	double m, p, tm, tsd, want_p99 = -1;
	long double sum = 0, cum = 0;
	uint64_t k, M = 2000000;
	int i;

	spec_must("delay 10ms", &s);
	cr_assert_eq(netem_delay_analytic(&s, &m, &p), 0);
	cr_assert_eq(m, 10e6);
	cr_assert_eq(p, 10e6);

	spec_must("delay 10ms 1ms", &s);
	cr_assert_eq(netem_delay_analytic(&s, &m, &p), 0);
	for (k = 0; k < M; k++) {
		long double w = (long double)((0xffffffffULL - k) / M + 1);

		sum += w * (long double)(9000000 + k);
		cum += w;
		if (want_p99 < 0 && cum >= ceill(0.99L * 4294967296.0L))
			want_p99 = (double)(9000000 + k);
	}
	cr_assert(cum == 4294967296.0L);
	/* both sides carry relative rounding errors near 1e-16 (double) or
	 * 1e-19 (long double) on 1e7 ns: 1e-6 ns is far above them */
	cr_assert(fabsl((long double)m - sum / cum) < 1e-6L, "mean %.6f", m);
	cr_assert_eq(p, want_p99, "p99 %.0f want %.0f", p, want_p99);

	spec_must("delay 100ms 10ms distribution normal", &s);
	cr_assert_eq(netem_delay_analytic(&s, &m, &p), 0);
	cr_assert_eq(netem_dist_builtin(NETEM_DIST_NORMAL, t), 0);
	netem_dist_moments(t, NETEM_DIST_BUILTIN_SIZE, &tm, &tsd);
	for (i = 0; i < NETEM_DIST_BUILTIN_SIZE; i++)
		v[i] = t[i];
	qsort(v, NETEM_DIST_BUILTIN_SIZE, sizeof(v[0]), cmp_i64);
	cr_assert(fabs(m - (100e6 + 10e6 * tm)) <= 0.5, "mean %.3f", m);
	cr_assert(fabs(p - (100e6 + 10e6 * (double)v[4055] / 8192)) <= 0.5,
		  "p99 %.1f", p);
	spec_must("delay 10ms rate 1mbit", &s);
	cr_assert_eq(netem_delay_analytic(&s, &m, &p), -ENOTSUP);
}

/* The Monte-Carlo estimate agrees with the closed forms within 5 standard
 * errors: Bernoulli sd sqrt(p(1-p)/n); delay mean sd/sqrt(delivered) with
 * the uniform's sd = 2J/sqrt(12). */
Test(analysis, monte_carlo_agrees)
{
	struct netem_spec s;
	struct netem_mc a, b;
	double tol;

	spec_must("delay 10ms 1ms loss 3%", &s);
	cr_assert_eq(netem_monte_carlo(&s, NULL, 5, 200000, 1000000, 200, &a),
		     0);
	tol = 5 * sqrt(0.03 * 0.97 / 200000);
	cr_expect(fabs(a.loss_rate - 0.03) < tol, "loss %.5f +- %.5f",
		  a.loss_rate, tol);
	tol = 5 * (2e6 / sqrt(12)) / sqrt((double)a.delivered);
	cr_expect(fabs(a.delay_mean_ns - 10e6) < tol, "mean %.0f +- %.0f",
		  a.delay_mean_ns, tol);
	cr_assert_eq(a.offered, 200000);
	cr_assert_eq(a.lost + a.delivered, a.offered);
	cr_assert_eq(netem_monte_carlo(&s, NULL, 5, 200000, 1000000, 200, &b),
		     0);
	cr_assert_eq(a.lost, b.lost);
	cr_assert_eq(a.delay_p99_ns, b.delay_p99_ns);
	cr_assert_eq(netem_monte_carlo(&s, NULL, 5, 0, 1000000, 200, &b),
		     -EINVAL);
}

/* slot distribution normal 2ms 500us packets 1 on a backlog: gaps follow
 * the table; mean 2 ms + 0.5 ms * table mean, 5 standard errors with the
 * table's sd. */
Test(analysis, slot_distribution_gaps)
{
	int16_t t[NETEM_DIST_BUILTIN_SIZE];
	struct netem_spec s;
	struct netem_link *l;
	struct netem_verdict v;
	struct netem_pkt p;
	double tm, tsd, sum = 0, n = 0, want, tol;
	int64_t now, prev = -1;
	int i;

	cr_assert_eq(netem_dist_builtin(NETEM_DIST_NORMAL, t), 0);
	netem_dist_moments(t, NETEM_DIST_BUILTIN_SIZE, &tm, &tsd);
	spec_must("slot distribution normal 2ms 500us packets 1 limit 100000",
		  &s);
	cr_assert_eq(netem_link_new(&s, 3, 3, &l), 0);
	for (i = 0; i < 20000; i++)
		cr_assert_eq(netem_link_enqueue(l, 0, 100, i, &v), 0);
	while ((now = netem_link_next_time(l)) != INT64_MAX) {
		if (netem_link_dequeue(l, now, &p) != 1)
			continue;
		if (prev >= 0) {
			sum += (double)(now - prev);
			n++;
		}
		prev = now;
	}
	want = 2e6 + 0.5e6 * tm;
	tol = 5 * 0.5e6 * tsd / sqrt(n);
	cr_expect(fabs(sum / n - want) < tol, "gap %.0f want %.0f +- %.0f",
		  sum / n, want, tol);
	netem_link_free(l);
}

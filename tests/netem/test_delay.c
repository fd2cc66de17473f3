/*
 * test_delay.c: delay and jitter. The sample mean and standard deviation
 * of the sampled delay, for uniform, normal, pareto and paretonormal
 * jitter, against the exact values of netem's sampling rule (the table
 * entries are equally likely because 4096 divides 2^32; uniform jitter
 * enumerates rnd % 2J with its modulo bias). Bounds are 5 standard errors:
 * sd/sqrt(n) for the mean and sqrt((mu4 - sd^4)/n)/(2 sd) for the sample sd
 * (delta method). Also correlation, and fifo jitter never reordering.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "netem.h"
#include "stats.h"

#define N 200000

struct moments {
	double mean, sd, mu4;
};

/* Exact moments of tabledist(mu, sigma, rnd) over a uniform u32 rnd:
 * outcome k of cnt is chosen by the rnd in [ceil(k 2^32/cnt),
 * ceil((k+1) 2^32/cnt)), so its weight is the length of that range. */
static uint64_t weight(uint64_t k, uint64_t cnt)
{
	uint64_t a = ((k << 32) + cnt - 1) / cnt;
	uint64_t b = (((k + 1) << 32) + cnt - 1) / cnt;

	return b - a;
}

static struct moments exact(int64_t mu, int32_t sigma, const int16_t *t,
			    uint32_t n)
{
	long double s1 = 0, s2 = 0, s4 = 0, W = 0;
	struct moments m;
	uint64_t i, cnt = t ? n : 2 * (uint64_t)sigma;

	for (i = 0; i < cnt; i++) {
		/* a draw that lands on outcome i */
		uint32_t rnd = (uint32_t)(((i << 32) + cnt - 1) / cnt);
		long double w = (long double)weight(i, cnt);
		long double v =
			(long double)netem_tabledist(mu, sigma, rnd, t, n);

		W += w;
		s1 += w * v;
	}
	m.mean = (double)(s1 / W);
	for (i = 0; i < cnt; i++) {
		uint32_t rnd = (uint32_t)(((i << 32) + cnt - 1) / cnt);
		long double w = (long double)weight(i, cnt);
		long double d =
			(long double)netem_tabledist(mu, sigma, rnd, t, n) -
			m.mean;

		s2 += w * d * d;
		s4 += w * d * d * d * d;
	}
	m.sd = sqrt((double)(s2 / W));
	m.mu4 = (double)(s4 / W);
	return m;
}

static void sample(const char *spec, uint64_t seed, double *d, size_t n)
{
	struct netem_spec s;
	struct netem_link *l;
	struct netem_verdict v;
	struct netem_pkt p;
	size_t i;

	spec_must(spec, &s);
	s.limit = 0xffffffffu;
	cr_assert_eq(netem_link_new(&s, seed, 3, &l), 0);
	for (i = 0; i < n; i++) {
		int64_t now = (int64_t)i * 1000;

		cr_assert_eq(netem_link_enqueue(l, now, 100, i, &v), 0);
		cr_assert_eq(v.copies, 1);
		d[i] = (double)(v.time_ns[0] - now);
		while (netem_link_dequeue(l, now, &p) == 1)
			;
	}
	netem_link_free(l);
}

static void check_jitter(const char *spec, enum netem_dist dist)
{
	int16_t tab[NETEM_DIST_BUILTIN_SIZE];
	double *d = malloc(N * sizeof(*d)), mean = 0, var = 0, sd, tm, ts;
	struct moments m;
	size_t i;

	if (dist != NETEM_DIST_UNIFORM)
		cr_assert_eq(netem_dist_builtin(dist, tab), 0);
	m = exact(10000000, 1000000, dist == NETEM_DIST_UNIFORM ? NULL : tab,
		  NETEM_DIST_BUILTIN_SIZE);
	sample(spec, 21, d, N);
	for (i = 0; i < N; i++)
		mean += d[i];
	mean /= N;
	for (i = 0; i < N; i++)
		var += (d[i] - mean) * (d[i] - mean);
	sd = sqrt(var / (N - 1));
	tm = 5 * m.sd / sqrt(N);
	ts = 5 * sqrt((m.mu4 - pow(m.sd, 4)) / N) / (2 * m.sd);
	cr_expect(fabs(mean - m.mean) < tm, "%s: mean %.1f, want %.1f +- %.1f",
		  spec, mean, m.mean, tm);
	cr_expect(fabs(sd - m.sd) < ts, "%s: sd %.1f, want %.1f +- %.1f", spec,
		  sd, m.sd, ts);
	free(d);
}

Test(delay, jitter_uniform)
{
	check_jitter("delay 10ms 1ms", NETEM_DIST_UNIFORM);
}

Test(delay, jitter_normal)
{
	check_jitter("delay 10ms 1ms distribution normal", NETEM_DIST_NORMAL);
}

Test(delay, jitter_pareto)
{
	check_jitter("delay 10ms 1ms distribution pareto", NETEM_DIST_PARETO);
}

Test(delay, jitter_paretonormal)
{
	check_jitter("delay 10ms 1ms distribution paretonormal",
		     NETEM_DIST_PARETONORMAL);
}

/* Uniform jitter stays in [mu - J, mu + J). */
Test(delay, uniform_bounds)
{
	double *d = malloc(N * sizeof(*d));
	size_t i;

	sample("delay 10ms 1ms", 22, d, N);
	for (i = 0; i < N; i++)
		cr_assert(d[i] >= 9000000 && d[i] < 11000000, "%.0f", d[i]);
	free(d);
}

Test(delay, no_jitter_is_exact)
{
	double *d = malloc(1000 * sizeof(*d));
	size_t i;

	sample("delay 7ms", 23, d, 1000);
	for (i = 0; i < 1000; i++)
		cr_assert_eq(d[i], 7000000.0);
	free(d);
}

static double lag1(const double *x, size_t n)
{
	double m = 0, c0 = 0, c1 = 0;
	size_t i;

	for (i = 0; i < n; i++)
		m += x[i];
	m /= (double)n;
	for (i = 0; i < n; i++) {
		c0 += (x[i] - m) * (x[i] - m);
		if (i)
			c1 += (x[i] - m) * (x[i - 1] - m);
	}
	return c1 / c0;
}

/* Independent draws: sample lag-1 autocorrelation has sd 1/sqrt(n), so
 * |r1| < 5/sqrt(n); with 50% correlation it must exceed that. */
Test(delay, correlation_raises_lag1)
{
	double *a = malloc(N * sizeof(*a)), *b = malloc(N * sizeof(*b));
	double bound = 5 / sqrt((double)N), ra, rb;

	sample("delay 10ms 1ms", 24, a, N);
	sample("delay 10ms 1ms 50%", 24, b, N);
	ra = lag1(a, N);
	rb = lag1(b, N);
	cr_expect(fabs(ra) < bound, "independent r1 %.4f (bound %.4f)", ra,
		  bound);
	cr_expect(rb > bound, "correlated r1 %.4f not above %.4f", rb, bound);
	free(a);
	free(b);
}

/* Deliver everything in virtual time; count packets that leave before an
 * earlier-offered one (the cookie is the offer index). */
static uint64_t out_of_order(const char *spec, uint64_t n)
{
	struct netem_spec s;
	struct netem_link *l;
	struct netem_verdict v;
	struct netem_pkt p;
	uint64_t i, inv = 0, maxc = 0, got = 0;
	int64_t t, last_t = INT64_MIN, clock = 0;

	spec_must(spec, &s);
	cr_assert_eq(netem_link_new(&s, 25, 3, &l), 0);
	for (i = 0; i <= n; i++) {
		int64_t now = (int64_t)i * 1000000;

		while ((t = netem_link_next_time(l)) <= now ||
		       (i == n && t != INT64_MAX)) {
			if (t < clock)
				t = clock; /* due in the past: now */
			if (netem_link_dequeue(l, t, &p) != 1)
				continue;
			cr_assert_geq(p.time_ns, last_t);
			last_t = p.time_ns;
			if (got && p.cookie < maxc)
				inv++;
			if (p.cookie > maxc)
				maxc = p.cookie;
			got++;
		}
		clock = now;
		if (i < n)
			cr_assert_eq(netem_link_enqueue(l, now, 100, i, &v), 0);
	}
	cr_assert_eq(got, n);
	netem_link_free(l);
	return inv;
}

Test(delay, fifo_never_reorders)
{
	/* 5 ms of jitter on 1 ms spacing: netem mode reorders a lot, fifo
	 * mode never */
	cr_assert_gt(out_of_order("delay 20ms 5ms distribution normal", 20000),
		     1000);
	cr_assert_eq(out_of_order("delay 20ms 5ms distribution normal jitter "
				  "fifo",
				  20000),
		     0);
	cr_assert_eq(out_of_order("delay 20ms 10ms jitter fifo", 20000), 0);
}

/* A normal jitter larger than the delay gives negative samples: those
 * packets are due at once (reported delay 0), never before they were
 * offered, and fifo mode still keeps the order. */
Test(delay, negative_delay_is_due_now)
{
	double *d = malloc(N * sizeof(*d));
	size_t i, zero = 0;

	sample("delay 1ms 2ms distribution normal", 26, d, N);
	for (i = 0; i < N; i++) {
		cr_assert_geq(d[i], 0);
		zero += d[i] == 0;
	}
	/* P(N(1ms, 2ms) < 0) = Phi(-0.5) = 0.31: far from none */
	cr_assert_gt(zero, N / 5);
	cr_assert_eq(out_of_order("delay 1ms 2ms distribution normal jitter "
				  "fifo",
				  2000),
		     0);
	free(d);
}

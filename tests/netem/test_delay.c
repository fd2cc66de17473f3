/*
 * test_delay.c: delay and jitter. The sample mean and standard deviation
 * of the sampled delay, for uniform, normal, pareto and paretonormal
 * jitter, against the exact values of the kernel's sampling rule, rnd %
 * range (the 4096 table entries are equally likely because 4096 divides
 * 2^32; uniform jitter enumerates rnd % 2J with its modulo bias). Bounds
 * are 5 standard errors: sd/sqrt(n) for the mean and sqrt((mu4 - sd^4)/n)/
 * (2 sd) for the sample sd (delta method). Also what delay correlation does
 * under that rule, jitter-induced reordering against its expected count,
 * and fifo jitter never reordering.
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
 * outcome k of cnt is chosen by the rnd with rnd % cnt == k, i.e. k, k +
 * cnt, ... up to 2^32 - 1, so its weight is floor((2^32-1-k)/cnt) + 1. */
static uint64_t weight(uint64_t k, uint64_t cnt)
{
	return (0xffffffffULL - k) / cnt + 1;
}

static struct moments exact(int64_t mu, int32_t sigma, const int16_t *t,
			    uint32_t n)
{
	long double s1 = 0, s2 = 0, s4 = 0, W = 0;
	struct moments m;
	uint64_t i, cnt = t ? n : 2 * (uint64_t)sigma;

	for (i = 0; i < cnt; i++) {
		/* rnd = i lands on outcome i */
		uint32_t rnd = (uint32_t)i;
		long double w = (long double)weight(i, cnt);
		long double v =
			(long double)netem_tabledist(mu, sigma, rnd, t, n);

		W += w;
		s1 += w * v;
	}
	m.mean = (double)(s1 / W);
	for (i = 0; i < cnt; i++) {
		uint32_t rnd = (uint32_t)i;
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

static void check_jitter_at(const char *spec, enum netem_dist dist, int64_t mu,
			    int32_t sigma)
{
	int16_t tab[NETEM_DIST_BUILTIN_SIZE];
	double *d = malloc(N * sizeof(*d)), mean = 0, var = 0, sd, tm, ts;
	struct moments m;
	size_t i;

	if (dist != NETEM_DIST_UNIFORM)
		cr_assert_eq(netem_dist_builtin(dist, tab), 0);
	m = exact(mu, sigma, dist == NETEM_DIST_UNIFORM ? NULL : tab,
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

static void check_jitter(const char *spec, enum netem_dist dist)
{
	check_jitter_at(spec, dist, 10000000, 1000000);
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

/* Delay correlation under the kernel's rule. get_crandom() returns
 * c = floor(((2^32 - rho') v + rho' last) / 2^32) with a fresh uniform v,
 * and tabledist() keeps c % range. Given the past, c covers (1 - rho) 2^32
 * consecutive values in steps under 1, so c % range is uniform up to a
 * relative error of about range / ((1 - rho) 2^32): 1e-6 for a 4096-entry
 * table at 25%, 6e-3 for 20 ms of uniform jitter (range 2e7 ns) at 25%.
 * Successive delays are thus correlated by at most that much (variance of
 * the sample moments off by a factor 1 + O(1e-2)), and the marginal of
 * c % range is uniform (c's density is smooth over hundreds of periods of
 * the range), so the uncorrelated 5-standard-error bounds of check_jitter
 * hold. With the multiply-shift mapping this engine used before, the sd
 * of "delay 100ms 10ms 25% distribution normal" was about 6.5 ms; the sd
 * bound here is about 0.08 ms. */
Test(delay, correlated_jitter_keeps_sigma)
{
	check_jitter_at("delay 100ms 10ms 25% distribution normal",
			NETEM_DIST_NORMAL, 100000000, 10000000);
	check_jitter_at("delay 100ms 10ms 25%", NETEM_DIST_UNIFORM, 100000000,
			10000000);
}

/* Independent draws: the sample lag-1 autocorrelation has sd 1/sqrt(n), so
 * |r1| < 5/sqrt(n). By the argument above, a 50% delay correlation leaves
 * the delays independent up to 2J / ((1 - rho) 2^32) = 1e-3 here, so it
 * must stay inside the same bound: the kernel's modulo discards the
 * correlation. Only when (1 - rho) 2^32 is small against the range does
 * it show: at 99.99% a step moves c by at most 4.3e5 against 2J = 2e6, so
 * consecutive delays are close and r1 must exceed the bound; at 100% the
 * delay never changes. */
Test(delay, correlation_under_kernel_rule)
{
	double *a = malloc(N * sizeof(*a)), *b = malloc(N * sizeof(*b));
	double bound = 5 / sqrt((double)N), ra, rb;
	size_t i;

	sample("delay 10ms 1ms", 24, a, N);
	ra = lag1(a, N);
	cr_expect(fabs(ra) < bound, "independent r1 %.4f (bound %.4f)", ra,
		  bound);
	sample("delay 10ms 1ms 50%", 24, b, N);
	rb = lag1(b, N);
	cr_expect(fabs(rb) < bound, "50%% r1 %.4f (bound %.4f)", rb, bound);
	sample("delay 10ms 1ms 99.99%", 24, b, N);
	rb = lag1(b, N);
	cr_expect(rb > bound, "99.99%% r1 %.4f not above %.4f", rb, bound);
	sample("delay 10ms 1ms 100%", 24, b, 1000);
	for (i = 1; i < 1000; i++)
		cr_assert_eq(b[i], b[0]);
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

/* Expected number of packets overtaken by a later-offered one, for i.i.d.
 * delays taking the n equally likely values v[] (sorted), packets offered
 * every gap ns, npk of them: packet i is overtaken unless every later j
 * has d_j >= d_i - (j - i) gap (equal times keep offer order), so
 * P(overtaken) = 1 - E_x prod_{k=1..K} P(d >= x - k gap), K the number of
 * later packets that could overtake. Only k gap < v_max - v_min can, so
 * the overtaken flags are m-dependent with m = that largest k; *m gets it. */
static double expect_overtaken(const int64_t *v, size_t n, int64_t gap,
			       uint64_t npk, size_t *m)
{
	size_t mm = 0, a, k, lo, hi, mid;
	double *A, e = 0;
	uint64_t i;

	while ((int64_t)(mm + 1) * gap < v[n - 1] - v[0])
		mm++;
	A = calloc(mm + 1, sizeof(*A));
	cr_assert_not_null(A);
	for (a = 0; a < n; a++) {
		double prod = 1;

		A[0] += 1.0 / (double)n;
		for (k = 1; k <= mm; k++) {
			int64_t y = v[a] - (int64_t)k * gap;

			/* first index with v >= y */
			lo = 0;
			hi = n;
			while (lo < hi) {
				mid = (lo + hi) / 2;
				if (v[mid] < y)
					lo = mid + 1;
				else
					hi = mid;
			}
			prod *= (double)(n - lo) / (double)n;
			A[k] += prod / (double)n;
		}
	}
	for (i = 0; i < npk; i++)
		e += 1 - A[npk - 1 - i < mm ? npk - 1 - i : mm];
	free(A);
	*m = mm;
	return e;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The delays tabledist(mu, sigma) takes with the normal table, sorted. */
static void normal_delays(int64_t mu, int32_t sigma, int64_t *v)
{
	int16_t tab[NETEM_DIST_BUILTIN_SIZE];
	uint32_t k;

	cr_assert_eq(netem_dist_builtin(NETEM_DIST_NORMAL, tab), 0);
	for (k = 0; k < NETEM_DIST_BUILTIN_SIZE; k++)
		v[k] = netem_tabledist(mu, sigma, k, tab,
				       NETEM_DIST_BUILTIN_SIZE);
	qsort(v, NETEM_DIST_BUILTIN_SIZE, sizeof(*v), cmp_i64);
}

/* 5 ms of normal jitter on 1 ms spacing: netem mode reorders as the i.i.d.
 * delays predict, fifo mode never. The overtaken flags are m-dependent
 * Bernoulli, so their sum has variance at most n (2m + 1) / 4 and the
 * count must lie within 5 of those standard deviations of its mean. */
Test(delay, fifo_never_reorders)
{
	int64_t v[NETEM_DIST_BUILTIN_SIZE];
	const uint64_t n = 20000;
	double want, tol;
	uint64_t got;
	size_t m;

	normal_delays(20000000, 5000000, v);
	cr_assert_geq(v[0], 0); /* no negative delays: tts order is exact */
	want = expect_overtaken(v, NETEM_DIST_BUILTIN_SIZE, 1000000, n, &m);
	tol = 5 * sqrt((double)n * (double)(2 * m + 1) / 4);
	got = out_of_order("delay 20ms 5ms distribution normal", n);
	cr_expect(fabs((double)got - want) < tol,
		  "overtaken %llu, want %.0f +- %.0f (m %zu)",
		  (unsigned long long)got, want, tol, m);
	cr_assert_eq(out_of_order("delay 20ms 5ms distribution normal jitter "
				  "fifo",
				  n),
		     0);
	cr_assert_eq(out_of_order("delay 20ms 10ms jitter fifo", n), 0);
}

/* A normal jitter larger than the delay gives negative samples: those
 * packets are due at once (reported delay 0), never before they were
 * offered, and fifo mode still keeps the order. The reported delay is 0
 * exactly for the table entries with tabledist <= 0, probability p0 (the
 * entries are equally likely); the draws are i.i.d., so the count of zeros
 * is Binomial(N, p0), within 5 sqrt(N p0 (1 - p0)) of N p0. */
Test(delay, negative_delay_is_due_now)
{
	int64_t v[NETEM_DIST_BUILTIN_SIZE];
	double *d = malloc(N * sizeof(*d)), p0 = 0, tol;
	size_t i, zero = 0;

	normal_delays(1000000, 2000000, v);
	for (i = 0; i < NETEM_DIST_BUILTIN_SIZE; i++)
		p0 += v[i] <= 0;
	p0 /= NETEM_DIST_BUILTIN_SIZE;
	sample("delay 1ms 2ms distribution normal", 26, d, N);
	for (i = 0; i < N; i++) {
		cr_assert_geq(d[i], 0);
		zero += d[i] == 0;
	}
	tol = 5 * sqrt(N * p0 * (1 - p0));
	cr_expect(fabs((double)zero - N * p0) < tol,
		  "%zu zero delays, want %.0f +- %.0f", zero, N * p0, tol);
	cr_assert_eq(out_of_order("delay 1ms 2ms distribution normal jitter "
				  "fifo",
				  2000),
		     0);
	free(d);
}

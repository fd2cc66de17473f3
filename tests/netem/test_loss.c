/*
 * test_loss.c: the loss models against their stationary statistics. Each
 * bound is 5 standard errors, computed here from n and the model: a
 * Bernoulli rate has variance p(1-p)/n; a Markov-modulated loss indicator
 * has the asymptotic variance of stats.c (Markov-chain CLT plus the
 * Bernoulli noise). Burst lengths of the simplest chains are i.i.d.
 * geometric, so their sample mean over B bursts has variance (1-q)/q^2/B;
 * the general gemodel and 4-state bursts are checked against
 * netem_loss_analytic through a Markov-chain delta method (check_burst).
 * Seeds are fixed.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "netem.h"
#include "netem_analysis.h"
#include "stats.h"

#define N 400000

static double pr(uint32_t p)
{
	return (double)p / 4294967296.0;
}

static struct netem_link *mk(const char *text, uint64_t seed)
{
	struct netem_spec s;
	struct netem_link *l;

	spec_must(text, &s);
	cr_assert_eq(netem_link_new(&s, seed, 7, &l), 0);
	return l;
}

/* mean length of runs of 1s, and the number of runs */
static double burst_mean(const unsigned char *x, size_t n, size_t *runs)
{
	size_t i, ones = 0, r = 0;

	for (i = 0; i < n; i++) {
		ones += x[i];
		if (x[i] && (i == 0 || !x[i - 1]))
			r++;
	}
	*runs = r;
	return r ? (double)ones / (double)r : 0;
}

Test(loss, random_rate)
{
	struct netem_link *l = mk("loss 5%", 11);
	unsigned char *lost = malloc(N);
	double p = 0.05, got, tol;

	got = (double)stat_offer(l, N, 1000, 100, lost) / N;
	/* Bernoulli(p): sd of the mean = sqrt(p(1-p)/n) */
	tol = 5 * sqrt(p * (1 - p) / N);
	cr_expect(fabs(got - p) < tol, "loss %.5f, want %.5f +- %.5f", got, p,
		  tol);
	netem_link_free(l);
	free(lost);
}

Test(loss, state_rate_matches_stationary)
{
	struct netem_spec s;
	struct netem_link *l;
	unsigned char *lost = malloc(N);
	double P[MAXS][MAXS] = {{0}}, e[MAXS] = {0, 0, 1, 1};
	double rate, burst, got, tol;

	spec_must("loss state 1% 30% 10% 5% 0.5%", &s);
	cr_assert_eq(netem_link_new(&s, 12, 7, &l), 0);
	/* states 1..4 -> 0..3, loss when the chain enters 3 or 4 */
	P[0][3] = pr(s.p14);
	P[0][2] = pr(s.p13);
	P[0][0] = 1 - P[0][2] - P[0][3];
	P[1][2] = pr(s.p23);
	P[1][1] = 1 - P[1][2];
	P[2][1] = pr(s.p32);
	P[2][0] = pr(s.p31);
	P[2][2] = 1 - P[2][0] - P[2][1];
	P[3][0] = 1;
	cr_assert_eq(netem_loss_analytic(&s, &rate, &burst), 0);
	got = (double)stat_offer(l, N, 1000, 100, lost) / N;
	tol = 5 * sqrt(stat_hmm_asym_var(4, P, e) / N);
	cr_expect(fabs(got - rate) < tol, "loss %.5f, want %.5f +- %.5f", got,
		  rate, tol);
	netem_link_free(l);
	free(lost);
}

Test(loss, gemodel_rate_matches_stationary)
{
	struct netem_spec s;
	struct netem_link *l;
	unsigned char *lost = malloc(N);
	double P[MAXS][MAXS] = {{0}}, e[MAXS];
	double rate, burst, got, tol;

	spec_must("loss gemodel 1% 10% 70% 0.1%", &s);
	cr_assert_eq(netem_link_new(&s, 13, 7, &l), 0);
	P[0][1] = pr(s.ge_p);
	P[0][0] = 1 - P[0][1];
	P[1][0] = pr(s.ge_r);
	P[1][1] = 1 - P[1][0];
	e[0] = pr(s.ge_1k);
	e[1] = pr(s.ge_1h);
	cr_assert_eq(netem_loss_analytic(&s, &rate, &burst), 0);
	/* closed form: pi_B = p/(p+r); loss = pi_G (1-k) + pi_B (1-h) */
	{
		double pb = 0.01 / 0.11;

		cr_assert(fabs(rate - ((1 - pb) * 0.001 + pb * 0.7)) < 1e-6,
			  "analytic %.7f", rate);
	}
	got = (double)stat_offer(l, N, 1000, 100, lost) / N;
	tol = 5 * sqrt(stat_hmm_asym_var(2, P, e) / N);
	cr_expect(fabs(got - rate) < tol, "loss %.5f, want %.5f +- %.5f", got,
		  rate, tol);
	netem_link_free(l);
	free(lost);
}

/* Simple Gilbert (1-h = 100%, 1-k = 0): a burst is exactly one stay in
 * Bad, geometric with exit probability r: mean 1/r, variance (1-r)/r^2. */
Test(loss, gemodel_burst_length)
{
	struct netem_link *l = mk("loss gemodel 2% 25%", 14);
	unsigned char *lost = malloc(N);
	double r = 0.25, got, tol;
	size_t runs;

	stat_offer(l, N, 1000, 100, lost);
	got = burst_mean(lost, N, &runs);
	cr_assert_gt(runs, 1000);
	tol = 5 * sqrt((1 - r) / (r * r) / (double)runs);
	cr_expect(fabs(got - 1 / r) < tol, "burst %.4f, want %.4f +- %.4f", got,
		  1 / r, tol);
	netem_link_free(l);
	free(lost);
}

/* 4-state with p14 = 0: every burst is a stay in state 3, geometric with
 * exit probability q = p31 + p32. */
Test(loss, state_burst_length)
{
	struct netem_spec s;
	struct netem_link *l;
	unsigned char *lost = malloc(N);
	double q = 0.30 + 0.10, got, tol, rate, burst;
	size_t runs;

	spec_must("loss state 2% 30% 10% 5% 0%", &s);
	cr_assert_eq(netem_link_new(&s, 15, 7, &l), 0);
	cr_assert_eq(netem_loss_analytic(&s, &rate, &burst), 0);
	cr_assert(fabs(burst - 1 / q) < 1e-6, "analytic burst %.6f", burst);
	stat_offer(l, N, 1000, 100, lost);
	got = burst_mean(lost, N, &runs);
	cr_assert_gt(runs, 1000);
	tol = 5 * sqrt((1 - q) / (q * q) / (double)runs);
	cr_expect(fabs(got - 1 / q) < tol, "burst %.4f, want %.4f +- %.4f", got,
		  1 / q, tol);
	netem_link_free(l);
	free(lost);
}

/* "loss state P" alone is Bernoulli(P) (tc's defaults), burst 1/(1-P). */
Test(loss, state_default_is_bernoulli)
{
	struct netem_link *l = mk("loss state 10%", 16);
	unsigned char *lost = malloc(N);
	double p = 0.10, got, tol;

	got = (double)stat_offer(l, N, 1000, 100, lost) / N;
	tol = 5 * sqrt(p * (1 - p) / N);
	cr_expect(fabs(got - p) < tol, "loss %.5f want %.5f +- %.5f", got, p,
		  tol);
	netem_link_free(l);
	free(lost);
}

static double lag1(const unsigned char *x, size_t n)
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

/* Correlation raises the lag-1 autocorrelation of the loss indicator. For
 * independent losses the sample lag-1 autocorrelation has sd 1/sqrt(n), so
 * |r1| < 5/sqrt(n); with 50% correlation it must exceed that bound. */
Test(loss, correlation_raises_lag1)
{
	struct netem_link *a = mk("loss 30%", 17), *b = mk("loss 30% 50%", 17);
	unsigned char *la = malloc(N), *lb = malloc(N);
	double ra, rb, bound = 5 / sqrt((double)N);

	stat_offer(a, N, 1000, 100, la);
	stat_offer(b, N, 1000, 100, lb);
	ra = lag1(la, N);
	rb = lag1(lb, N);
	cr_expect(fabs(ra) < bound, "independent r1 %.4f, bound %.4f", ra,
		  bound);
	cr_expect(rb > bound, "correlated r1 %.4f not above %.4f", rb, bound);
	netem_link_free(a);
	netem_link_free(b);
	free(la);
	free(lb);
}

Test(loss, ecn_marks_instead_of_dropping)
{
	struct netem_link *l = mk("loss 100% ecn", 18);
	struct netem_verdict v;
	struct netem_pkt p;
	struct netem_counters c;

	cr_assert_eq(netem_link_enqueue_ecn(l, 0, 100, 1, 1, &v), 0);
	cr_assert_eq(v.drop, NETEM_PASS);
	cr_assert_eq(v.ecn_marked, 1);
	cr_assert_eq(netem_link_dequeue(l, 0, &p), 1);
	cr_assert(p.flags & NETEM_PKT_CE);
	/* not ECN-capable: dropped */
	cr_assert_eq(netem_link_enqueue(l, 0, 100, 2, &v), 0);
	cr_assert_eq(v.drop, NETEM_DROP_LOSS);
	cr_assert_eq(v.copies, 0);
	netem_link_counters(l, &c);
	cr_assert_eq(c.ecn_marked, 1);
	cr_assert_eq(c.drop_loss, 1);
	netem_link_free(l);
}

/* Duplicate + loss on the same packet leaves one copy (count 2 -> 1). */
Test(loss, duplicate_and_loss_leave_one_copy)
{
	struct netem_link *l = mk("loss 100% duplicate 100%", 19);
	struct netem_verdict v;

	cr_assert_eq(netem_link_enqueue(l, 0, 100, 1, &v), 0);
	/* the loss takes one of the two: the clone is never made, the
	 * original goes through (sch_netem.c: --count, then count > 1 fails) */
	cr_assert_eq(v.copies, 1);
	cr_assert_eq(v.drop, NETEM_PASS);
	netem_link_free(l);
}

/* General burst lengths. The sample mean burst length over N packets is
 * B = sum L_k / sum S_k, with L_k the loss indicator and S_k = L_k (1 -
 * L_{k-1}) (a burst starts at k). Both are averages of functions of a
 * finite Markov chain Z_k that carries the previous packet's fate, so by
 * the delta method sqrt(N) (B - b) tends to Normal(0, sf2 / E[S]^2), with
 * b = E L / E S and sf2 the asymptotic variance of f = L - b S over Z
 * (stats.c). The bound is 5 of those standard errors. The engine starts
 * the chain in state 1 (Good), not in its stationary law: a bias of order
 * (mixing time) / N, about 1e-4 of the bound. b from Z's stationary law
 * must also equal the closed form of analysis.c (two independent numerical
 * routes to the same number: 1e-9 relative). */
static void check_burst(const char *text, uint64_t seed, int nz,
			double Q[MAXS][MAXS], const double *L, const double *S)
{
	struct netem_spec s;
	struct netem_link *l;
	unsigned char *lost = malloc(N);
	double pi[MAXS], f[MAXS], EL = 0, ES = 0, b, rate, burst, got, tol;
	size_t runs;
	int i;

	stat_stationary(nz, Q, pi);
	for (i = 0; i < nz; i++) {
		EL += pi[i] * L[i];
		ES += pi[i] * S[i];
	}
	b = EL / ES;
	spec_must(text, &s);
	cr_assert_eq(netem_loss_analytic(&s, &rate, &burst), 0);
	cr_assert(fabs(rate - EL) < 1e-9 * EL, "%s: rate %.10f chain %.10f",
		  text, rate, EL);
	cr_assert(fabs(burst - b) < 1e-9 * b, "%s: burst %.10f chain %.10f",
		  text, burst, b);
	for (i = 0; i < nz; i++)
		f[i] = L[i] - b * S[i];
	tol = 5 * sqrt(stat_chain_asym_var(nz, Q, f) / N) / ES;
	cr_assert_eq(netem_link_new(&s, seed, 7, &l), 0);
	stat_offer(l, N, 1000, 100, lost);
	got = burst_mean(lost, N, &runs);
	cr_expect(fabs(got - b) < tol, "%s: burst %.4f, want %.4f +- %.4f",
		  text, got, b, tol);
	netem_link_free(l);
	free(lost);
}

/* Gilbert-Elliott with loss in both states: Z = (state found, previous
 * fate, this fate), z = 4 x + 2 l0 + l1; from (x, l0, l1) to (y, l1, m)
 * with P(x, y) times the loss probability of y (m = 1) or its complement. */
static void check_ge_burst(const char *text, uint64_t seed)
{
	double Q[MAXS][MAXS] = {{0}}, L[MAXS], S[MAXS], P[2][2], e[2];
	struct netem_spec s;
	int x, l0, l1, y, m;

	spec_must(text, &s);
	P[0][1] = pr(s.ge_p);
	P[0][0] = 1 - P[0][1];
	P[1][0] = pr(s.ge_r);
	P[1][1] = 1 - P[1][0];
	e[0] = pr(s.ge_1k);
	e[1] = pr(s.ge_1h);
	for (x = 0; x < 2; x++)
		for (l0 = 0; l0 < 2; l0++)
			for (l1 = 0; l1 < 2; l1++) {
				int z = 4 * x + 2 * l0 + l1;

				L[z] = l1;
				S[z] = l1 * (1 - l0);
				for (y = 0; y < 2; y++)
					for (m = 0; m < 2; m++)
						Q[z][4 * y + 2 * l1 + m] =
							P[x][y] *
							(m ? e[y] : 1 - e[y]);
			}
	check_burst(text, seed, 8, Q, L, S);
}

/* 4-state: the fate is the state entered (3 or 4 lost), so Z = (state,
 * previous fate), z = 2 x + l0; from (x, l0) to (y, lost(x)) with P(x, y). */
static void check_state_burst(const char *text, uint64_t seed)
{
	double Q[MAXS][MAXS] = {{0}}, L[MAXS], S[MAXS], P[4][4] = {{0}};
	struct netem_spec s;
	int x, l0, y;

	spec_must(text, &s);
	P[0][3] = pr(s.p14);
	P[0][2] = pr(s.p13);
	P[0][0] = 1 - P[0][2] - P[0][3];
	P[1][2] = pr(s.p23);
	P[1][1] = 1 - P[1][2];
	P[2][1] = pr(s.p32);
	P[2][0] = pr(s.p31);
	P[2][2] = 1 - P[2][0] - P[2][1];
	P[3][0] = 1;
	for (x = 0; x < 4; x++)
		for (l0 = 0; l0 < 2; l0++) {
			int z = 2 * x + l0, lx = x >= 2;

			L[z] = lx;
			S[z] = lx * (1 - l0);
			for (y = 0; y < 4; y++)
				Q[z][2 * y + lx] = P[x][y];
		}
	check_burst(text, seed, 8, Q, L, S);
}

/* Loss in Good and a lossy-but-not-always Bad: bursts are not Bad stays. */
Test(loss, gemodel_burst_general)
{
	check_ge_burst("loss gemodel 1% 10% 70% 0.1%", 31);
	check_ge_burst("loss gemodel 5% 20% 90% 2%", 32);
}

/* Isolated losses (p14) mixed with state-3 stays, and 3 -> 2 -> 3 cycles
 * that end a burst and start another: a mixture, not a geometric. */
Test(loss, state_burst_general)
{
	check_state_burst("loss state 1% 30% 10% 5% 0.5%", 33);
	check_state_burst("loss state 3% 20% 40% 30% 2%", 34);
}

/*
 * analysis.c: closed forms for a spec's loss and delay, and a Monte-Carlo
 * driver for everything else. Loss: the packet fates form a hidden Markov
 * chain X_n with transition matrix P and loss probability e(x); the loss
 * rate is sum pi(x) e(x) and a loss burst starts when a kept packet is
 * followed by a lost one, with probability sum pi(x)(1-e(x)) P(x,y) e(y),
 * so the mean burst length is their ratio. For the 4-state model X_n is
 * the state entered at packet n and e is 1 in states 3 and 4 (Salsano et
 * al., NetemCLG report, section 3); for Gilbert-Elliott X_n is the state
 * the packet finds, e(G) = 1-k, e(B) = 1-h (Gilbert 1960; Elliott 1963).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "netem_analysis.h"

#define NS_MAX 4
#define TWO32  4294967296.0

static double pr(uint32_t p)
{
	return (double)p / TWO32;
}

/* Solve pi P = pi, sum pi = 1 by Gaussian elimination with partial
 * pivoting; -ENOTSUP when the chain has no unique stationary law. */
static int stationary(int n, double P[NS_MAX][NS_MAX], double *pi)
{
	double A[NS_MAX][NS_MAX + 1];
	int i, j, k;

	/* rows: (P^T - I) pi = 0, last row replaced by sum pi = 1 */
	for (i = 0; i < n; i++) {
		for (j = 0; j < n; j++)
			A[i][j] = P[j][i] - (i == j ? 1 : 0);
		A[i][n] = 0;
	}
	for (j = 0; j < n; j++)
		A[n - 1][j] = 1;
	A[n - 1][n] = 1;
	for (k = 0; k < n; k++) {
		int piv = k;

		for (i = k + 1; i < n; i++)
			if (fabs(A[i][k]) > fabs(A[piv][k]))
				piv = i;
		if (fabs(A[piv][k]) < 1e-13)
			return -ENOTSUP;
		if (piv != k)
			for (j = 0; j <= n; j++) {
				double t = A[k][j];

				A[k][j] = A[piv][j];
				A[piv][j] = t;
			}
		for (i = 0; i < n; i++) {
			double f;

			if (i == k)
				continue;
			f = A[i][k] / A[k][k];
			for (j = k; j <= n; j++)
				A[i][j] -= f * A[k][j];
		}
	}
	for (i = 0; i < n; i++)
		pi[i] = A[i][n] / A[i][i];
	return 0;
}

static int hmm_loss(int n, double P[NS_MAX][NS_MAX], const double *e,
		    double *rate, double *burst)
{
	double pi[NS_MAX], r = 0, starts = 0;
	int i, j, rc = stationary(n, P, pi);

	if (rc < 0)
		return rc;
	for (i = 0; i < n; i++) {
		r += pi[i] * e[i];
		for (j = 0; j < n; j++)
			starts += pi[i] * (1 - e[i]) * P[i][j] * e[j];
	}
	if (r <= 0) {
		*rate = 0;
		*burst = 0;
		return -EDOM;
	}
	*rate = r;
	*burst = starts > 0 ? r / starts : INFINITY;
	return 0;
}

int netem_loss_analytic(const struct netem_spec *s, double *rate, double *burst)
{
	double P[NS_MAX][NS_MAX] = {{0}};
	double e[NS_MAX] = {0};

	switch (s->loss_model) {
	case NETEM_LOSS_RANDOM: {
		/* lost when loss >= U, U uniform on 0..2^32-1 */
		double p = s->loss ? (s->loss + 1.0) / TWO32 : 0;

		if (s->loss_corr)
			return -ENOTSUP;
		if (p <= 0) {
			*rate = 0;
			*burst = 0;
			return -EDOM;
		}
		*rate = p;
		*burst = p < 1 ? 1 / (1 - p) : INFINITY;
		return 0;
	}
	case NETEM_LOSS_STATE: {
		/* index 0..3 = states 1..4 */
		double p13 = pr(s->p13), p14 = pr(s->p14), p31 = pr(s->p31),
		       p32 = pr(s->p32), p23 = pr(s->p23);

		P[0][3] = p14;
		P[0][2] = p13;
		P[0][0] = 1 - p13 - p14;
		P[1][2] = p23;
		P[1][1] = 1 - p23;
		P[2][1] = p32;
		P[2][0] = p31;
		P[2][2] = 1 - p31 - p32;
		P[3][0] = 1;
		e[2] = e[3] = 1;
		if (s->p13 == 0 && s->p14 == 0) {
			/* the chain never leaves state 1 */
			*rate = 0;
			*burst = 0;
			return -EDOM;
		}
		return hmm_loss(4, P, e, rate, burst);
	}
	case NETEM_LOSS_GEMODEL: {
		double p = pr(s->ge_p), r = pr(s->ge_r);

		P[0][1] = p;
		P[0][0] = 1 - p;
		P[1][0] = r;
		P[1][1] = 1 - r;
		e[0] = pr(s->ge_1k);
		e[1] = pr(s->ge_1h);
		if (s->ge_p == 0) {
			/* stays Good forever */
			if (s->ge_1k == 0) {
				*rate = 0;
				*burst = 0;
				return -EDOM;
			}
			*rate = e[0];
			*burst = 1 / (1 - e[0]);
			return 0;
		}
		return hmm_loss(2, P, e, rate, burst);
	}
	default:
		*rate = 0;
		*burst = 0;
		return -EDOM;
	}
}

/* sum of max(0, c + k) over the integers k in [a, b) (c, a, b integral) */
static double ramp_sum(double c, double a, double b)
{
	double lo = fmax(a, -c);

	if (lo >= b)
		return 0;
	return (b - lo) * (c + (lo + b - 1) / 2);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int netem_delay_analytic(const struct netem_spec *s, double *mean_ns,
			 double *p99_ns)
{
	double mu = (double)s->latency_ns, J = (double)s->jitter_ns;

	if (s->rate || s->slot || s->reorder || s->delay_corr ||
	    s->jitter_mode == NETEM_JITTER_FIFO || s->dist == NETEM_DIST_CUSTOM)
		return -ENOTSUP;
	if (s->jitter_ns == 0) {
		*mean_ns = mu;
		*p99_ns = mu;
		return 0;
	}
	if (s->dist == NETEM_DIST_UNIFORM) {
		/* mu - J + rnd % M, M = 2J, clipped at 0: offsets below
		 * r = 2^32 mod M have q + 1 draws, the others q */
		double M = 2 * J, q = floor(TWO32 / M), r = TWO32 - q * M;
		double c = mu - J, target = ceil(0.99 * TWO32), k;

		*mean_ns =
			((q + 1) * ramp_sum(c, 0, r) + q * ramp_sum(c, r, M)) /
			TWO32;
		/* smallest offset k whose cumulative count reaches 99% */
		if (r * (q + 1) >= target)
			k = ceil(target / (q + 1)) - 1;
		else
			k = r + ceil((target - r * (q + 1)) / q) - 1;
		*p99_ns = fmax(0, c + k);
		return 0;
	}
	{
		int16_t t[NETEM_DIST_BUILTIN_SIZE];
		double d[NETEM_DIST_BUILTIN_SIZE], sum = 0;
		int i, n = NETEM_DIST_BUILTIN_SIZE;

		if (netem_dist_builtin(s->dist, t) < 0)
			return -ENOTSUP;
		for (i = 0; i < n; i++) {
			/* rnd = i selects entry i (rnd % n) */
			d[i] = (double)netem_tabledist(
				s->latency_ns, (int32_t)s->jitter_ns,
				(uint32_t)i, t, (uint32_t)n);
			if (d[i] < 0)
				d[i] = 0;
			sum += d[i];
		}
		qsort(d, (size_t)n, sizeof(d[0]), cmp_double);
		*mean_ns = sum / n;
		/* each entry has probability 1/4096: the smallest value with
		 * at least 99% of the mass at or below it */
		*p99_ns = d[(int)ceil(0.99 * n) - 1];
		return 0;
	}
}

int netem_monte_carlo(const struct netem_spec *s,
		      const struct netem_dist_registry *reg, uint64_t seed,
		      uint64_t n, int64_t interval_ns, uint32_t len,
		      struct netem_mc *out)
{
	struct netem_link *l;
	struct netem_verdict v;
	struct netem_pkt p;
	struct netem_mc r;
	double *d, sum = 0;
	uint64_t i, nd = 0, runs = 0, nlost = 0;
	int64_t clock = 0;
	int rc, prev_lost = 0;

	if (n == 0 || interval_ns <= 0 || n > (1ULL << 28))
		return -EINVAL;
	d = malloc(2 * n * sizeof(*d));
	if (!d)
		return -ENOMEM;
	rc = netem_link_new_reg(s, seed, netem_link_id("mc-src", "mc-dst"), reg,
				&l);
	if (rc < 0) {
		free(d);
		return rc;
	}
	memset(&r, 0, sizeof(r));
	for (i = 0; i <= n; i++) {
		int64_t now = (int64_t)i * interval_ns, t;

		/* deliver everything due before this offer, at its time */
		while ((t = netem_link_next_time(l)) <= now ||
		       (i == n && t != INT64_MAX)) {
			/* a time in the past means "now" */
			if (t < clock)
				t = clock;
			rc = netem_link_dequeue(l, t, &p);
			if (rc < 0)
				goto out;
			if (rc == 1) {
				d[nd++] = (double)(t - (int64_t)p.cookie *
							       interval_ns);
				sum += d[nd - 1];
			}
		}
		if (i == n)
			break;
		clock = now;
		rc = netem_link_enqueue(l, now, len, i, &v);
		if (rc < 0)
			goto out;
		if (v.drop == NETEM_DROP_LOSS) {
			nlost++;
			if (!prev_lost)
				runs++;
			prev_lost = 1;
		} else {
			if (v.drop == NETEM_DROP_LIMIT)
				r.limit_dropped++;
			prev_lost = 0;
		}
	}
	r.offered = n;
	r.lost = nlost;
	r.delivered = nd;
	r.loss_rate = (double)nlost / (double)n;
	r.burst_mean = runs ? (double)nlost / (double)runs : 0;
	if (nd) {
		qsort(d, nd, sizeof(d[0]), cmp_double);
		r.delay_mean_ns = sum / (double)nd;
		r.delay_p50_ns = d[(size_t)ceil(0.50 * (double)nd) - 1];
		r.delay_p99_ns = d[(size_t)ceil(0.99 * (double)nd) - 1];
		r.delay_max_ns = d[nd - 1];
	}
	*out = r;
	rc = 0;
out:
	netem_link_free(l);
	free(d);
	return rc;
}

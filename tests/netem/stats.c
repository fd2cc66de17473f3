/*
 * stats.c: see stats.h. Used only by the netem tests.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "stats.h"

void stat_stationary(int n, double P[MAXS][MAXS], double *pi)
{
	double next[MAXS];
	int it, i, j;

	for (i = 0; i < n; i++)
		pi[i] = 1.0 / n;
	for (it = 0; it < 200000; it++) {
		for (j = 0; j < n; j++) {
			next[j] = 0;
			for (i = 0; i < n; i++)
				next[j] += pi[i] * P[i][j];
		}
		memcpy(pi, next, sizeof(next[0]) * (size_t)n);
	}
}

double stat_hmm_asym_var(int n, double P[MAXS][MAXS], const double *e)
{
	double pi[MAXS], mean = 0, var = 0, noise = 0, cov = 0;
	double g[MAXS], ng[MAXS], fb[MAXS];
	int i, j, k;

	stat_stationary(n, P, pi);
	for (i = 0; i < n; i++)
		mean += pi[i] * e[i];
	for (i = 0; i < n; i++) {
		fb[i] = e[i] - mean;
		var += pi[i] * fb[i] * fb[i];
		noise += pi[i] * e[i] * (1 - e[i]);
		g[i] = fb[i];
	}
	/* Cov(f(X0), f(Xk)) = sum_i pi_i fb_i (P^k fb)_i */
	for (k = 1; k < 100000; k++) {
		double c = 0;

		for (i = 0; i < n; i++) {
			ng[i] = 0;
			for (j = 0; j < n; j++)
				ng[i] += P[i][j] * g[j];
		}
		memcpy(g, ng, sizeof(g));
		for (i = 0; i < n; i++)
			c += pi[i] * fb[i] * g[i];
		cov += c;
		if (fabs(c) < 1e-15 && k > 10)
			break;
	}
	return noise + var + 2 * cov;
}

double stat_chain_asym_var(int n, double P[MAXS][MAXS], const double *f)
{
	double pi[MAXS], mean = 0, var = 0, cov = 0;
	double g[MAXS], ng[MAXS], fb[MAXS];
	int i, j, k;

	stat_stationary(n, P, pi);
	for (i = 0; i < n; i++)
		mean += pi[i] * f[i];
	for (i = 0; i < n; i++) {
		fb[i] = f[i] - mean;
		var += pi[i] * fb[i] * fb[i];
		g[i] = fb[i];
	}
	/* Cov(f(X0), f(Xk)) = sum_i pi_i fb_i (P^k fb)_i */
	for (k = 1; k < 100000; k++) {
		double c = 0, gmax = 0;

		for (i = 0; i < n; i++) {
			ng[i] = 0;
			for (j = 0; j < n; j++)
				ng[i] += P[i][j] * g[j];
		}
		memcpy(g, ng, sizeof(g));
		for (i = 0; i < n; i++) {
			c += pi[i] * fb[i] * g[i];
			gmax = fmax(gmax, fabs(g[i]));
		}
		cov += c;
		/* P^k fb has converged to its (zero) mean */
		if (gmax < 1e-15)
			break;
	}
	return var + 2 * cov;
}

uint64_t stat_offer(struct netem_link *l, uint64_t n, int64_t interval_ns,
		    uint32_t len, unsigned char *lost)
{
	struct netem_verdict v;
	struct netem_pkt p;
	uint64_t i, nl = 0;

	for (i = 0; i < n; i++) {
		int64_t now = (int64_t)i * interval_ns;

		cr_assert_eq(netem_link_enqueue(l, now, len, i, &v), 0);
		lost[i] = v.drop == NETEM_DROP_LOSS;
		nl += lost[i];
		while (netem_link_dequeue(l, now, &p) == 1)
			;
	}
	return nl;
}

void spec_must(const char *text, struct netem_spec *s)
{
	char err[256];
	int rc = netem_spec_parse(text, s, err, sizeof(err));

	cr_assert_eq(rc, 0, "spec \"%s\": %s", text, err);
}

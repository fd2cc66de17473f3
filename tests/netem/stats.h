/*
 * stats.h: statistics helpers for the netem tests: the asymptotic variance
 * of a sample mean over a hidden Markov chain (for 5-sigma bounds on loss
 * rates), moments of a distribution table, and a tiny packet driver.
 */
#ifndef RECKON_TEST_NETEM_STATS_H
#define RECKON_TEST_NETEM_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "netem.h"

#define MAXS 8

/* Stationary law of P by power iteration (chains in the tests mix fast). */
void stat_stationary(int n, double P[MAXS][MAXS], double *pi);

/* Asymptotic variance sigma^2 of sqrt(N) * (mean of L_k - E L) where L_k is
 * Bernoulli(e(X_k)) given a stationary chain X with matrix P:
 *   sigma^2 = sum pi e (1-e) + Var_pi(e) + 2 sum_{k>=1} Cov(e(X_0), e(X_k))
 * (the Bernoulli noise is independent across k; the chain part is the usual
 * Markov-chain CLT variance). */
double stat_hmm_asym_var(int n, double P[MAXS][MAXS], const double *e);

/* Asymptotic variance of sqrt(N) * (mean of f(X_k) - E_pi f) for a
 * stationary chain X with matrix P (no extra noise):
 *   sigma^2 = Var_pi(f) + 2 sum_{k>=1} Cov(f(X_0), f(X_k)). */
double stat_chain_asym_var(int n, double P[MAXS][MAXS], const double *f);

/* Offer n packets every interval_ns (len bytes) and record the verdicts'
 * drop flags in lost[] (1 = NETEM_DROP_LOSS); returns the number lost. */
uint64_t stat_offer(struct netem_link *l, uint64_t n, int64_t interval_ns,
		    uint32_t len, unsigned char *lost);

/* Parse a spec that must be valid (fails the test otherwise). */
void spec_must(const char *text, struct netem_spec *s);

#endif

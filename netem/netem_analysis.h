/*
 * netem_analysis.h: what a spec implies, analytically where the model
 * allows and by a seeded Monte-Carlo run of the engine otherwise. The loss
 * figures are per loss-model decision (a duplicated packet's copy takes its
 * own decision); delays are one-way, enqueue to dequeue, in virtual time.
 */
#ifndef RECKON_NETEM_ANALYSIS_H
#define RECKON_NETEM_ANALYSIS_H

#include <stdint.h>

#include "netem.h"

/* Stationary loss rate and mean loss-burst length (packets) of the loss
 * model. 0 on success; -ENOTSUP for random loss with correlation (netem's
 * correlated uniform is not uniform, so no closed form) or a chain whose
 * long-run behaviour depends on more than the initial state; -EDOM when no
 * loss can occur (rate 0, burst 0 written). */
int netem_loss_analytic(const struct netem_spec *s, double *rate,
			double *burst);

/* Mean and 99th percentile of the one-way delay (ns), when it depends only
 * on the jitter distribution: no rate, slot, reorder, delay correlation or
 * fifo mode, and a built-in or uniform distribution. Packets whose sampled
 * delay is negative leave at once (delay 0), as in netem. -ENOTSUP
 * otherwise. */
int netem_delay_analytic(const struct netem_spec *s, double *mean_ns,
			 double *p99_ns);

struct netem_mc {
	uint64_t offered, lost, limit_dropped, delivered;
	double loss_rate;  /* lost / offered */
	double burst_mean; /* mean run of consecutive lost offers */
	double delay_mean_ns, delay_p50_ns, delay_p99_ns, delay_max_ns;
};

/* Offer n packets of len bytes every interval_ns to a fresh link, deliver
 * each at its earliest time, and summarise. Allocates n*2 samples. */
int netem_monte_carlo(const struct netem_spec *s,
		      const struct netem_dist_registry *reg, uint64_t seed,
		      uint64_t n, int64_t interval_ns, uint32_t len,
		      struct netem_mc *out);

#endif

/*
 * rng.h: reckon's seeded random streams. Each stream is a splitmix64
 * generator (Steele, Lea and Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014) whose state is derived from (scenario seed,
 * link id, purpose) through the splitmix64 finaliser, so streams never
 * share state and adding a link or a purpose never shifts another stream.
 * netem_crandom is the kernel's get_crandom() (sch_netem.c): an
 * exponentially weighted average of uniforms, with the initial "last" drawn
 * from the seeded stream instead of the kernel's unseeded RNG.
 */
#ifndef RECKON_NETEM_RNG_H
#define RECKON_NETEM_RNG_H

#include <stdint.h>

#include "util.h"

enum netem_purpose {
	NETEM_RNG_DUPLICATE = 1,
	NETEM_RNG_LOSS,
	NETEM_RNG_CORRUPT,
	NETEM_RNG_CORRUPT_POS,
	NETEM_RNG_DELAY,
	NETEM_RNG_REORDER,
	NETEM_RNG_SLOT,
	NETEM_RNG_CORR_INIT,
	NETEM_RNG_MONTE_CARLO,
};

struct netem_rng {
	uint64_t s;
};

uint64_t netem_mix64(uint64_t z);
void netem_rng_seed(struct netem_rng *r, uint64_t seed, uint64_t link_id,
		    enum netem_purpose purpose);

static inline uint64_t netem_rng_u64(struct netem_rng *r)
{
	return splitmix64(&r->s);
}

static inline uint32_t netem_rng_u32(struct netem_rng *r)
{
	return (uint32_t)(netem_rng_u64(r) >> 32);
}

/* Uniform in [0, n) without modulo bias (Lemire's multiply-shift with
 * rejection). n > 0. */
uint32_t netem_rng_below(struct netem_rng *r, uint32_t n);

/* get_crandom(): rho is the correlation as a u32 fraction. */
struct netem_crnd {
	uint32_t rho;
	uint32_t last;
};

static inline uint32_t netem_crandom(struct netem_crnd *c, struct netem_rng *r)
{
	uint64_t value, rho;

	if (c->rho == 0)
		return netem_rng_u32(r);
	value = netem_rng_u32(r);
	rho = (uint64_t)c->rho + 1;
	c->last = (uint32_t)((value * ((1ULL << 32) - rho) +
			      (uint64_t)c->last * rho) >>
			     32);
	return c->last;
}

#endif

/*
 * rng.h: the world's seeded random streams (xoshiro256** seeded through
 * splitmix64, after Blackman and Vigna, "Scrambled linear pseudorandom
 * number generators", 2021). Every bot owns one stream derived from the
 * run seed and its id, so a run is a pure function of its seed.
 */
#ifndef RECKON_WORLD_RNG_H
#define RECKON_WORLD_RNG_H

#include <stdint.h>

struct wrng {
	uint64_t s[4];
};

void wrng_seed(struct wrng *r, uint64_t seed, uint64_t stream);
uint64_t wrng_next(struct wrng *r);
double wrng_uniform(struct wrng *r);			 /* [0,1) */
double wrng_range(struct wrng *r, double lo, double hi); /* [lo,hi) */
uint32_t wrng_below(struct wrng *r, uint32_t n);	 /* [0,n), n > 0 */
double wrng_normal(struct wrng *r);			 /* N(0,1) */

#endif

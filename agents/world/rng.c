/*
 * rng.c: xoshiro256** with splitmix64 seeding (Blackman and Vigna 2021),
 * plus uniform, bounded-integer (Lemire's multiply-shift with rejection)
 * and normal (Box-Muller, one value per call) draws.
 */
#include "rng.h"
#include "util.h"

#include <math.h>

void wrng_seed(struct wrng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * 0xd1342543de82ef95ull);

	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t wrng_next(struct wrng *r)
{
	uint64_t *s = r->s;
	uint64_t out = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

double wrng_uniform(struct wrng *r)
{
	return (double)(wrng_next(r) >> 11) * 0x1.0p-53;
}

double wrng_range(struct wrng *r, double lo, double hi)
{
	return lo + (hi - lo) * wrng_uniform(r);
}

uint32_t wrng_below(struct wrng *r, uint32_t n)
{
	uint64_t m = (wrng_next(r) >> 32) * n;

	if ((uint32_t)m < n) {
		uint32_t thresh = (uint32_t)-n % n;

		while ((uint32_t)m < thresh)
			m = (wrng_next(r) >> 32) * n;
	}
	return (uint32_t)(m >> 32);
}

double wrng_normal(struct wrng *r)
{
	double u1 = 1.0 - wrng_uniform(r); /* (0,1] so log is finite */
	double u2 = wrng_uniform(r);

	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

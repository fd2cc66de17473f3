/*
 * rng.c: stream seeding for reckon's random streams (see rng.h) and the
 * link id hash. The stream state is mix(mix(mix(seed) ^ link_id) ^ purpose),
 * where mix is the splitmix64 finaliser, a bijection on 64-bit words with
 * full avalanche.
 */
#include "netem.h"
#include "rng.h"

uint64_t netem_mix64(uint64_t z)
{
	return splitmix64_mix(z + SPLITMIX64_GAMMA);
}

void netem_rng_seed(struct netem_rng *r, uint64_t seed, uint64_t link_id,
		    enum netem_purpose purpose)
{
	r->s = netem_mix64(netem_mix64(netem_mix64(seed) ^ link_id) ^
			   (uint64_t)purpose);
}

uint32_t netem_rng_below(struct netem_rng *r, uint32_t n)
{
	uint64_t m = (uint64_t)netem_rng_u32(r) * n;
	uint32_t low = (uint32_t)m;

	if (low < n) {
		uint32_t t = (uint32_t)-n % n;

		while (low < t) {
			m = (uint64_t)netem_rng_u32(r) * n;
			low = (uint32_t)m;
		}
	}
	return (uint32_t)(m >> 32);
}

/* FNV-1a over "src\0dst", finalised with the splitmix64 mixer, so a->b and
 * b->a get unrelated ids. */
uint64_t netem_link_id(const char *src, const char *dst)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	const unsigned char *p;

	for (p = (const unsigned char *)(src ? src : ""); *p; p++)
		h = (h ^ *p) * 0x100000001b3ULL;
	h = (h ^ 0) * 0x100000001b3ULL;
	for (p = (const unsigned char *)(dst ? dst : ""); *p; p++)
		h = (h ^ *p) * 0x100000001b3ULL;
	return netem_mix64(h);
}

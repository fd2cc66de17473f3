/*
 * util.h: the small pieces every layer shares, libc only: the splitmix64
 * generator. Nothing here reads a clock, logs, exits or
 * allocates behind the caller's back, so the pure layers (netem/, the
 * agents' libraries) may use it as freely as the daemon.
 */
#ifndef RECKON_UTIL_H
#define RECKON_UTIL_H

#include <stdint.h>

/* clang-format off */
#define SPLITMIX64_GAMMA 0x9e3779b97f4a7c15ULL /* golden-ratio increment */
/* clang-format on */

/*
 * splitmix64 (Steele, Lea, Flood: "Fast splittable pseudorandom number
 * generators", OOPSLA 2014), with the constants of Vigna's reference
 * splitmix64.c: a Weyl sequence with the golden-ratio increment, finalised
 * by two xor-shift-multiply rounds. Inline, because netem draws from it
 * per packet.
 */

/* The finaliser: a bijection on 64-bit words that mixes every input bit
 * into every output bit. */
static inline uint64_t splitmix64_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The generator: adds SPLITMIX64_GAMMA to *state and returns the mix of
 * the new state. */
static inline uint64_t splitmix64(uint64_t *state)
{
	*state += SPLITMIX64_GAMMA;
	return splitmix64_mix(*state);
}

#endif

/*
 * splitmix.c: splitmix64 (Steele, Lea, Flood: "Fast splittable
 * pseudorandom number generators", OOPSLA 2014), with the constants of
 * Vigna's reference splitmix64.c: a Weyl sequence with the golden-ratio
 * increment, finalised by two xor-shift-multiply rounds.
 */
#include "util.h"

uint64_t splitmix64_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t splitmix64(uint64_t *state)
{
	*state += SPLITMIX64_GAMMA;
	return splitmix64_mix(*state);
}

/*
 * util.h: the small pieces every layer shares, libc only: the splitmix64
 * generator (splitmix.c). Nothing here reads a clock, logs, exits or
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
 * splitmix.c: splitmix64 (Steele, Lea, Flood: "Fast splittable
 * pseudorandom number generators", OOPSLA 2014; Vigna's splitmix64.c).
 */

/* The finaliser: a bijection on 64-bit words that mixes every input bit
 * into every output bit. */
uint64_t splitmix64_mix(uint64_t z);

/* The generator: adds SPLITMIX64_GAMMA to *state and returns the mix of
 * the new state. */
uint64_t splitmix64(uint64_t *state);

#endif

/*
 * espdu_sample.h: seeded generators for the proto tests: a xorshift64*
 * random stream and random valid entity updates covering every field
 * (whole float32/float64 ranges, all DR algorithms, all DR other parameter
 * types, markings, predictor blobs of every length).
 */
#ifndef RECKON_TESTS_PROTO_ESPDU_SAMPLE_H
#define RECKON_TESTS_PROTO_ESPDU_SAMPLE_H

#include <stdint.h>

#include "proto/espdu.h"

struct sample_rng {
	uint64_t s;
};

void sample_seed(struct sample_rng *r, uint64_t seed);
uint64_t sample_next(struct sample_rng *r);
/* Uniform integer in [lo, hi]. */
uint64_t sample_range(struct sample_rng *r, uint64_t lo, uint64_t hi);

/* A random valid update; every double that travels as float32 holds a
 * float32 value, so encode/decode must reproduce the struct exactly. */
void sample_espdu(struct sample_rng *r, struct reckon_espdu *p);

/* A random valid update whose velocities are multiples of 1/4 in
 * [-100, 100] and whose marking is alphanumeric, so any text printer
 * (tshark) shows them exactly. */
void sample_espdu_printable(struct sample_rng *r, struct reckon_espdu *p);

#endif

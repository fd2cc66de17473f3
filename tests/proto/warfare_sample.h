/*
 * warfare_sample.h: seeded random Fire PDUs, Detonation PDUs and ALC
 * replies for the proto tests. Every float that travels as float32 is a
 * multiple of 1/4 in [-1000, 1000] (exact in float32 and printed exactly
 * by tshark), locations are multiples of 1/8 in [-32768, 32768].
 */
#ifndef RECKON_TESTS_PROTO_WARFARE_SAMPLE_H
#define RECKON_TESTS_PROTO_WARFARE_SAMPLE_H

#include "espdu_sample.h"
#include "proto/lcreply.h"
#include "proto/warfare.h"

void sample_fire(struct sample_rng *r, struct reckon_fire *f);
void sample_detonation(struct sample_rng *r, struct reckon_detonation *d);
void sample_lcreply(struct sample_rng *r, struct reckon_lcreply *x);

#endif

/*
 * fuzz_espdu.h: the fuzzing entry point for the Entity State PDU decoder,
 * shared by the libFuzzer target and the seeded regression test.
 */
#ifndef RECKON_TESTS_PROTO_FUZZ_ESPDU_H
#define RECKON_TESTS_PROTO_FUZZ_ESPDU_H

#include <stddef.h>
#include <stdint.h>

#include "proto/espdu.h"

/* Decodes data, counts the verdict in c, and aborts if an invariant
 * breaks: the verdict is in range, decoding with and without an output
 * agrees, and an accepted datagram re-encodes to exactly the same octets.
 * Returns the verdict. */
enum reckon_espdu_verdict fuzz_espdu_one(const uint8_t *data, size_t size,
					 struct reckon_espdu_counters *c);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif

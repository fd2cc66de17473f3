/*
 * bench_espdu.c: throughput of the Entity State PDU encoder and decoder on
 * seeded random updates (synthetic data from espdu_sample.c). Prints
 * nanoseconds per call; a benchmark, never a pass/fail test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "espdu_sample.h"
#include "proto/espdu.h"

#define N_PDUS 4096
#define ROUNDS 100

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(void)
{
	static struct reckon_espdu in[N_PDUS];
	static uint8_t wire[N_PDUS][RECKON_ESPDU_MAX_LEN];
	static size_t len[N_PDUS];
	struct reckon_espdu out;
	struct sample_rng r;
	size_t bytes = 0;
	unsigned i, k;
	double t0, t_enc, t_dec;
	unsigned long bad = 0;

	sample_seed(&r, 1);
	for (i = 0; i < N_PDUS; i++)
		sample_espdu(&r, &in[i]);

	t0 = now_s();
	for (k = 0; k < ROUNDS; k++)
		for (i = 0; i < N_PDUS; i++)
			bad += reckon_espdu_encode(&in[i], wire[i],
						   sizeof(wire[i]),
						   &len[i]) != 0;
	t_enc = now_s() - t0;
	for (i = 0; i < N_PDUS; i++)
		bytes += len[i];

	t0 = now_s();
	for (k = 0; k < ROUNDS; k++)
		for (i = 0; i < N_PDUS; i++)
			bad += reckon_espdu_decode(wire[i], len[i], &out) !=
			       RECKON_ESPDU_OK;
	t_dec = now_s() - t0;

	if (bad) {
		fprintf(stderr, "bench_espdu: %lu calls failed\n", bad);
		return 1;
	}
	printf("espdu codec (synthetic random updates, mean %.1f octets):\n",
	       (double)bytes / N_PDUS);
	printf("  encode %.1f ns/PDU, decode %.1f ns/PDU (%u calls each)\n",
	       t_enc * 1e9 / ((double)N_PDUS * ROUNDS),
	       t_dec * 1e9 / ((double)N_PDUS * ROUNDS), N_PDUS * ROUNDS);
	return 0;
}

/*
 * fuzz_regress.c: runs the fuzz entry point over a seeded corpus of
 * mutated PDUs (bit flips, 8- and 16-bit stores of edge values, 32-bit random
 * stores, truncations, extensions, splices and random garbage) when no
 * libFuzzer build is available. Asserts no crash (the entry point aborts
 * on a broken invariant), that every input is counted under exactly one
 * verdict, and that the corpus reaches every verdict.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "espdu_sample.h"
#include "fuzz_espdu.h"

#define N_SEEDS	  400
#define N_MUTANTS 100
#define BUF	  512

static size_t seed_pdu(struct sample_rng *r, uint8_t *b)
{
	struct reckon_espdu p;
	size_t len;

	sample_espdu(r, &p);
	cr_assert_eq(reckon_espdu_encode(&p, b, BUF, &len), 0);
	return len;
}

static size_t mutate(struct sample_rng *r, uint8_t *b, size_t len,
		     const uint8_t *other, size_t olen)
{
	static const uint8_t edge[] = {0x00, 0x01, 0x7f, 0x80, 0xfe,
				       0xff, 0xf0, 0xf1, 0x07, 0x0a};
	unsigned k, n = (unsigned)sample_range(r, 1, 4);
	size_t at;

	for (k = 0; k < n; k++) {
		switch (sample_range(r, 0, 8)) {
		case 0: /* flip one bit */
			at = sample_range(r, 0, len - 1);
			b[at] ^= (uint8_t)(1u << sample_range(r, 0, 7));
			break;
		case 1: /* store an edge value */
			at = sample_range(r, 0, len - 1);
			b[at] = edge[sample_range(r, 0, sizeof(edge) - 1)];
			break;
		case 2: /* random 4-octet store at a 4-aligned offset */
			at = sample_range(r, 0, (len - 4) / 4) * 4;
			for (unsigned i = 0; i < 4; i++)
				b[at + i] = (uint8_t)sample_next(r);
			break;
		case 3: /* truncate */
			len = sample_range(r, 0, len);
			if (len < 8)
				return len;
			break;
		case 4: /* extend with random octets */
		{
			size_t add = sample_range(r, 1, 64);

			for (size_t i = 0; i < add && len < BUF; i++)
				b[len++] = (uint8_t)sample_next(r);
			break;
		}
		case 5: /* splice the tail of another PDU */
			at = sample_range(r, 0, len - 1);
			if (at < olen) {
				memcpy(b + at, other + at, olen - at);
				len = olen;
			}
			break;
		case 8: /* store an edge 16-bit value at an even offset */
			at = sample_range(r, 0, (len - 2) / 2) * 2;
			b[at] = b[at + 1] = sample_range(r, 0, 1) ? 0xff : 0x00;
			break;
		case 6: /* set the record count */
			if (len > 19)
				b[19] = (uint8_t)sample_range(r, 0, 6);
			break;
		default: /* fix the length field to the datagram length */
			if (len > 9) {
				b[8] = (uint8_t)(len >> 8);
				b[9] = (uint8_t)len;
			}
			break;
		}
	}
	return len;
}

Test(fuzz_regress, seeded_corpus)
{
	struct sample_rng r;
	struct reckon_espdu_counters c;
	uint8_t seed[BUF], other[BUF], b[BUF];
	size_t slen, olen, len;
	uint64_t inputs = 0, total = 0;
	unsigned i, j, v;

	sample_seed(&r, 0x5eed0f0221ull);
	reckon_espdu_counters_init(&c);
	olen = seed_pdu(&r, other);
	for (i = 0; i < N_SEEDS; i++) {
		slen = seed_pdu(&r, seed);
		cr_assert_eq(fuzz_espdu_one(seed, slen, &c), RECKON_ESPDU_OK);
		inputs++;
		for (j = 0; j < N_MUTANTS; j++) {
			memcpy(b, seed, slen);
			len = mutate(&r, b, slen, other, olen);
			fuzz_espdu_one(b, len, &c);
			inputs++;
		}
		/* pure garbage of random length */
		len = sample_range(&r, 0, BUF);
		for (j = 0; j < len; j++)
			b[j] = (uint8_t)sample_next(&r);
		fuzz_espdu_one(b, len, &c);
		inputs++;
		memcpy(other, seed, slen);
		olen = slen;
	}
	for (v = 0; v < RECKON_ESPDU_NVERDICTS; v++) {
		total += c.n[v];
		cr_assert_gt(c.n[v], 0, "corpus never reached %s",
			     reckon_espdu_verdict_name(v));
	}
	cr_assert_eq(total, inputs);
	cr_assert_eq(c.n[RECKON_ESPDU_OK] + reckon_espdu_rejected(&c), inputs);
}

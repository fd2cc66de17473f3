/*
 * fuzz_espdu.c: fuzz target for reckon_espdu_decode(). With RECKON_FUZZ=ON
 * it is a libFuzzer binary (proto_fuzz_espdu); otherwise the regression
 * test fuzz_regress.c calls fuzz_espdu_one() over a seeded corpus. The
 * oracle is canonical decoding: whatever the decoder accepts must encode
 * back to the very same octets.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_espdu.h"

enum reckon_espdu_verdict fuzz_espdu_one(const uint8_t *data, size_t size,
					 struct reckon_espdu_counters *c)
{
	uint8_t again[RECKON_ESPDU_MAX_LEN];
	struct reckon_espdu p;
	enum reckon_espdu_verdict v;
	size_t len;

	v = reckon_espdu_decode_counted(data, size, &p, c);
	if ((unsigned)v >= RECKON_ESPDU_NVERDICTS)
		abort();
	if (reckon_espdu_decode(data, size, NULL) != v)
		abort();
	if (v == RECKON_ESPDU_OK) {
		if (reckon_espdu_encode(&p, again, sizeof(again), &len) != 0)
			abort();
		if (len != size || memcmp(again, data, size) != 0)
			abort();
	}
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct reckon_espdu_counters c;

	fuzz_espdu_one(data, size, &c);
	return 0;
}

/*
 * espdu_verdict.c: names of the decoder's verdicts and the per-reason
 * counters a receiver keeps, so that every refused datagram is counted
 * under the reason it was refused for.
 */
#include <errno.h>
#include <string.h>

#include "proto/espdu.h"

static const char *const names[RECKON_ESPDU_NVERDICTS] = {
	[RECKON_ESPDU_OK] = "ok",
	[RECKON_ESPDU_TRUNCATED] = "truncated",
	[RECKON_ESPDU_OVERSIZED] = "oversized",
	[RECKON_ESPDU_BAD_VERSION] = "bad-version",
	[RECKON_ESPDU_BAD_PDU_TYPE] = "bad-pdu-type",
	[RECKON_ESPDU_BAD_FAMILY] = "bad-family",
	[RECKON_ESPDU_LENGTH_MISMATCH] = "length-mismatch",
	[RECKON_ESPDU_BAD_PADDING] = "bad-padding",
	[RECKON_ESPDU_TOO_MANY_VP] = "too-many-vp",
	[RECKON_ESPDU_VP_COUNT_MISMATCH] = "vp-count-mismatch",
	[RECKON_ESPDU_BAD_ENTITY_ID] = "bad-entity-id",
	[RECKON_ESPDU_NONFINITE] = "nonfinite",
	[RECKON_ESPDU_ORIENTATION_RANGE] = "orientation-range",
	[RECKON_ESPDU_BAD_DR_ALGORITHM] = "bad-dr-algorithm",
	[RECKON_ESPDU_BAD_DR_PARAMS] = "bad-dr-params",
	[RECKON_ESPDU_BAD_MARKING] = "bad-marking",
	[RECKON_ESPDU_BAD_VP_TYPE] = "bad-vp-type",
	[RECKON_ESPDU_NO_TIME_RECORD] = "no-time-record",
	[RECKON_ESPDU_BAD_TIME_RECORD] = "bad-time-record",
	[RECKON_ESPDU_BAD_PREDICTOR_RECORD] = "bad-predictor-record",
	[RECKON_ESPDU_TIMESTAMP_MISMATCH] = "timestamp-mismatch",
};

const char *reckon_espdu_verdict_name(enum reckon_espdu_verdict v)
{
	if ((unsigned)v >= RECKON_ESPDU_NVERDICTS || !names[v])
		return "unknown";
	return names[v];
}

void reckon_espdu_counters_init(struct reckon_espdu_counters *c)
{
	memset(c, 0, sizeof(*c));
}

int reckon_espdu_count(struct reckon_espdu_counters *c,
		       enum reckon_espdu_verdict v)
{
	if (!c || (unsigned)v >= RECKON_ESPDU_NVERDICTS)
		return -EINVAL;
	c->n[v]++;
	return 0;
}

uint64_t reckon_espdu_rejected(const struct reckon_espdu_counters *c)
{
	uint64_t sum = 0;
	unsigned v;

	for (v = RECKON_ESPDU_OK + 1; v < RECKON_ESPDU_NVERDICTS; v++)
		sum += c->n[v];
	return sum;
}

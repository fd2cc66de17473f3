/*
 * test_espdu_reject.c: every reason the decoder can give is triggered by a
 * crafted datagram (a valid PDU with one field broken), the decoder
 * returns exactly that reason, leaves the output untouched, and the
 * counters record it under that reason. A table check makes sure no
 * verdict is left without a crafted case.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "proto/espdu.h"
#include "proto/espdu_layout.h"

/* A valid update with a two-record predictor blob (PDU of 192 octets). */
static size_t base(uint8_t *b)
{
	struct reckon_espdu p;
	size_t len;

	reckon_espdu_init(&p);
	p.send_ns = 123456789012345ull;
	p.seq = 77;
	p.model = 3;
	p.blob_len = 20;
	memset(p.blob, 0xee, p.blob_len);
	strcpy(p.marking, "P1");
	cr_assert_eq(reckon_espdu_encode(&p, b, RECKON_ESPDU_MAX_LEN, &len), 0);
	cr_assert_eq(len, 192);
	return len;
}

static void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v & 0xffff);
}

/* Each mutator breaks b (capacity 4096) and returns the length to pass. */
typedef size_t (*mutator)(uint8_t *b, size_t len);

#define VP(i) (ESPDU_OFF_VP + 16 * (i))

static size_t short_header(uint8_t *b, size_t len)
{
	(void)b;
	(void)len;
	return 11;
}
static size_t cut_body(uint8_t *b, size_t len)
{
	(void)b;
	return len - 1;
}
static size_t short_fixed(uint8_t *b, size_t len)
{
	(void)len;
	put16(b + ESPDU_OFF_LENGTH, 100);
	return 100;
}
static size_t huge(uint8_t *b, size_t len)
{
	memset(b + len, 0, 4096 - len);
	put16(b + ESPDU_OFF_LENGTH, 4096);
	return 4096;
}
static size_t just_over(uint8_t *b, size_t len)
{
	memset(b + len, 0, 209 - len);
	put16(b + ESPDU_OFF_LENGTH, 209);
	return 209;
}
static size_t version6(uint8_t *b, size_t len)
{
	b[0] = 6;
	return len;
}
static size_t fire_pdu(uint8_t *b, size_t len)
{
	b[2] = 2;
	return len;
}
static size_t family0(uint8_t *b, size_t len)
{
	b[3] = 0;
	return len;
}
static size_t trailing(uint8_t *b, size_t len)
{
	b[len] = 0;
	return len + 1;
}
static size_t padding(uint8_t *b, size_t len)
{
	b[ESPDU_OFF_HDR_PAD] = 1;
	return len;
}
static size_t vp5(uint8_t *b, size_t len)
{
	b[ESPDU_OFF_NUM_VP] = 5;
	return len;
}
static size_t vp2(uint8_t *b, size_t len)
{
	b[ESPDU_OFF_NUM_VP] = 2;
	return len;
}
static size_t site0(uint8_t *b, size_t len)
{
	put16(b + ESPDU_OFF_SITE, 0);
	return len;
}
static size_t entity_all(uint8_t *b, size_t len)
{
	put16(b + ESPDU_OFF_ENTITY, 0xffff);
	return len;
}
static size_t nan_vel(uint8_t *b, size_t len)
{
	put32(b + ESPDU_OFF_VELOCITY + 4, 0x7fc00000);
	return len;
}
static size_t inf_loc(uint8_t *b, size_t len)
{
	put32(b + ESPDU_OFF_LOCATION + 16, 0x7ff00000);
	put32(b + ESPDU_OFF_LOCATION + 20, 0);
	return len;
}
static size_t inf_acc(uint8_t *b, size_t len)
{
	put32(b + ESPDU_OFF_ACCEL, 0xff800000);
	return len;
}
static size_t nan_angvel(uint8_t *b, size_t len)
{
	put32(b + ESPDU_OFF_ANGVEL + 8, 0xffffffff);
	return len;
}
static size_t nan_ori(uint8_t *b, size_t len)
{
	put32(b + ESPDU_OFF_ORIENTATION, 0x7f800001);
	return len;
}
static size_t nan_other(uint8_t *b, size_t len)
{
	b[ESPDU_OFF_DR_OTHER] = 2;
	put32(b + ESPDU_OFF_DR_OTHER + 3, 0x7fc00000);
	return len;
}
/* 0x40490fdc is the float32 just above float32(pi) = 0x40490fdb */
static size_t psi_over(uint8_t *b, size_t len)
{
	put32(b + ESPDU_OFF_ORIENTATION, 0x40490fdc);
	return len;
}
static size_t theta_2(uint8_t *b, size_t len)
{
	put32(b + ESPDU_OFF_ORIENTATION + 4, 0x40000000);
	return len;
}
static size_t drm0(uint8_t *b, size_t len)
{
	b[ESPDU_OFF_DR_ALG] = 0;
	return len;
}
static size_t drm10(uint8_t *b, size_t len)
{
	b[ESPDU_OFF_DR_ALG] = 10;
	return len;
}
static size_t other3(uint8_t *b, size_t len)
{
	b[ESPDU_OFF_DR_OTHER] = 3;
	return len;
}
static size_t other_none_junk(uint8_t *b, size_t len)
{
	b[ESPDU_OFF_DR_OTHER + 14] = 1;
	return len;
}
static size_t other_euler_unused(uint8_t *b, size_t len)
{
	b[ESPDU_OFF_DR_OTHER] = 1;
	b[ESPDU_OFF_DR_OTHER + 2] = 1;
	return len;
}
static size_t charset0(uint8_t *b, size_t len)
{
	b[ESPDU_OFF_MARK_CHARSET] = 0;
	return len;
}
static size_t mark_ctrl(uint8_t *b, size_t len)
{
	b[ESPDU_OFF_MARKING] = 0x07;
	return len;
}
static size_t mark_after_nul(uint8_t *b, size_t len)
{
	b[ESPDU_OFF_MARKING + 10] = 'X';
	return len;
}
static size_t mark_high(uint8_t *b, size_t len)
{
	b[ESPDU_OFF_MARKING + 1] = 0xc3;
	return len;
}
static size_t vp_articulated(uint8_t *b, size_t len)
{
	b[VP(2)] = 0;
	return len;
}
static size_t no_records(uint8_t *b, size_t len)
{
	(void)len;
	b[ESPDU_OFF_NUM_VP] = 0;
	put16(b + ESPDU_OFF_LENGTH, 144);
	return 144;
}
static size_t pred_first(uint8_t *b, size_t len)
{
	uint8_t t[16];

	memcpy(t, b + VP(0), 16);
	memcpy(b + VP(0), b + VP(1), 16);
	memcpy(b + VP(1), t, 16);
	return len;
}
static size_t time_format(uint8_t *b, size_t len)
{
	b[VP(0) + 1] = 2;
	return len;
}
static size_t time_reserved(uint8_t *b, size_t len)
{
	b[VP(0) + 3] = 1;
	return len;
}
static size_t time_twice(uint8_t *b, size_t len)
{
	b[VP(2)] = 240;
	return len;
}
static size_t pred_model0(uint8_t *b, size_t len)
{
	b[VP(1) + 1] = 0;
	b[VP(2) + 1] = 0;
	return len;
}
static size_t pred_models_differ(uint8_t *b, size_t len)
{
	b[VP(2) + 1] = 4;
	return len;
}
static size_t pred_blob33(uint8_t *b, size_t len)
{
	b[VP(1) + 3] = 33;
	b[VP(2) + 3] = 33;
	return len;
}
static size_t pred_chunk_order(uint8_t *b, size_t len)
{
	b[VP(2) + 2] = 2;
	return len;
}
static size_t pred_short_blob(uint8_t *b, size_t len)
{
	/* says 12 octets but carries two records */
	b[VP(1) + 3] = 12;
	b[VP(2) + 3] = 12;
	return len;
}
static size_t pred_tail_junk(uint8_t *b, size_t len)
{
	b[VP(2) + 15] = 1;
	return len;
}
static size_t ts_absolute(uint8_t *b, size_t len)
{
	b[ESPDU_OFF_TIMESTAMP + 3] |= 1;
	return len;
}
static size_t ts_plus_one(uint8_t *b, size_t len)
{
	b[ESPDU_OFF_TIMESTAMP + 2] ^= 0x10;
	return len;
}
static size_t send_ns_changed(uint8_t *b, size_t len)
{
	b[VP(0) + 8] ^= 0x80;
	return len;
}

static const struct {
	const char *what;
	mutator mut;
	enum reckon_espdu_verdict want;
} cases[] = {
	{"11 octets", short_header, RECKON_ESPDU_TRUNCATED},
	{"last octet cut", cut_body, RECKON_ESPDU_TRUNCATED},
	{"length 100 < fixed part", short_fixed, RECKON_ESPDU_TRUNCATED},
	{"4096 octets", huge, RECKON_ESPDU_OVERSIZED},
	{"209 octets", just_over, RECKON_ESPDU_OVERSIZED},
	{"version 6", version6, RECKON_ESPDU_BAD_VERSION},
	{"fire PDU", fire_pdu, RECKON_ESPDU_BAD_PDU_TYPE},
	{"family 0", family0, RECKON_ESPDU_BAD_FAMILY},
	{"trailing octet", trailing, RECKON_ESPDU_LENGTH_MISMATCH},
	{"header padding", padding, RECKON_ESPDU_BAD_PADDING},
	{"5 records", vp5, RECKON_ESPDU_TOO_MANY_VP},
	{"count 2 for 3 records", vp2, RECKON_ESPDU_VP_COUNT_MISMATCH},
	{"site 0", site0, RECKON_ESPDU_BAD_ENTITY_ID},
	{"entity 0xffff", entity_all, RECKON_ESPDU_BAD_ENTITY_ID},
	{"NaN velocity", nan_vel, RECKON_ESPDU_NONFINITE},
	{"inf location", inf_loc, RECKON_ESPDU_NONFINITE},
	{"-inf acceleration", inf_acc, RECKON_ESPDU_NONFINITE},
	{"NaN angular velocity", nan_angvel, RECKON_ESPDU_NONFINITE},
	{"NaN orientation", nan_ori, RECKON_ESPDU_NONFINITE},
	{"NaN quaternion", nan_other, RECKON_ESPDU_NONFINITE},
	{"psi > pi", psi_over, RECKON_ESPDU_ORIENTATION_RANGE},
	{"theta 2", theta_2, RECKON_ESPDU_ORIENTATION_RANGE},
	{"DRM 0", drm0, RECKON_ESPDU_BAD_DR_ALGORITHM},
	{"DRM 10", drm10, RECKON_ESPDU_BAD_DR_ALGORITHM},
	{"DR other type 3", other3, RECKON_ESPDU_BAD_DR_PARAMS},
	{"DR other none + junk", other_none_junk, RECKON_ESPDU_BAD_DR_PARAMS},
	{"DR other euler unused", other_euler_unused,
	 RECKON_ESPDU_BAD_DR_PARAMS},
	{"charset 0", charset0, RECKON_ESPDU_BAD_MARKING},
	{"marking BEL", mark_ctrl, RECKON_ESPDU_BAD_MARKING},
	{"marking after NUL", mark_after_nul, RECKON_ESPDU_BAD_MARKING},
	{"marking 0xc3", mark_high, RECKON_ESPDU_BAD_MARKING},
	{"articulated part", vp_articulated, RECKON_ESPDU_BAD_VP_TYPE},
	{"no records", no_records, RECKON_ESPDU_NO_TIME_RECORD},
	{"predictor first", pred_first, RECKON_ESPDU_NO_TIME_RECORD},
	{"time format 2", time_format, RECKON_ESPDU_BAD_TIME_RECORD},
	{"time reserved", time_reserved, RECKON_ESPDU_BAD_TIME_RECORD},
	{"two time records", time_twice, RECKON_ESPDU_BAD_TIME_RECORD},
	{"model 0", pred_model0, RECKON_ESPDU_BAD_PREDICTOR_RECORD},
	{"models differ", pred_models_differ,
	 RECKON_ESPDU_BAD_PREDICTOR_RECORD},
	{"blob 33", pred_blob33, RECKON_ESPDU_BAD_PREDICTOR_RECORD},
	{"chunk 2 for 1", pred_chunk_order, RECKON_ESPDU_BAD_PREDICTOR_RECORD},
	{"extra chunk", pred_short_blob, RECKON_ESPDU_BAD_PREDICTOR_RECORD},
	{"junk after blob", pred_tail_junk, RECKON_ESPDU_BAD_PREDICTOR_RECORD},
	{"absolute flag", ts_absolute, RECKON_ESPDU_TIMESTAMP_MISMATCH},
	{"timestamp changed", ts_plus_one, RECKON_ESPDU_TIMESTAMP_MISMATCH},
	{"send time changed", send_ns_changed, RECKON_ESPDU_TIMESTAMP_MISMATCH},
};

#define NCASES (sizeof(cases) / sizeof(cases[0]))

Test(espdu_reject, each_crafted_datagram_gets_its_reason)
{
	static uint8_t b[4096];
	struct reckon_espdu out, sentinel;
	struct reckon_espdu_counters c;
	size_t i, len;

	memset(&sentinel, 0x77, sizeof(sentinel));
	reckon_espdu_counters_init(&c);
	for (i = 0; i < NCASES; i++) {
		memset(b, 0, sizeof(b));
		len = cases[i].mut(b, base(b));
		out = sentinel;
		enum reckon_espdu_verdict v =
			reckon_espdu_decode_counted(b, len, &out, &c);
		cr_assert_eq(v, cases[i].want, "%s: got %s, want %s",
			     cases[i].what, reckon_espdu_verdict_name(v),
			     reckon_espdu_verdict_name(cases[i].want));
		cr_assert_eq(memcmp(&out, &sentinel, sizeof(out)), 0,
			     "%s: output written on failure", cases[i].what);
		cr_assert_eq(reckon_espdu_decode(b, len, NULL), v);
	}
	cr_assert_eq(reckon_espdu_rejected(&c), NCASES);
	cr_assert_eq(c.n[RECKON_ESPDU_OK], 0);
	for (i = 0; i < NCASES; i++)
		cr_assert_gt(c.n[cases[i].want], 0);
}

Test(espdu_reject, every_verdict_has_a_crafted_case)
{
	unsigned v;
	size_t i;

	for (v = RECKON_ESPDU_OK + 1; v < RECKON_ESPDU_NVERDICTS; v++) {
		int found = 0;

		for (i = 0; i < NCASES; i++)
			found |= cases[i].want == (enum reckon_espdu_verdict)v;
		cr_assert(found, "no case for %s",
			  reckon_espdu_verdict_name(
				  (enum reckon_espdu_verdict)v));
	}
}

Test(espdu_reject, base_is_accepted_and_null_buffer_is_truncated)
{
	uint8_t b[RECKON_ESPDU_MAX_LEN];
	size_t len = base(b);

	cr_assert_eq(reckon_espdu_decode(b, len, NULL), RECKON_ESPDU_OK);
	cr_assert_eq(reckon_espdu_decode(NULL, 0, NULL),
		     RECKON_ESPDU_TRUNCATED);
	cr_assert_eq(reckon_espdu_decode(NULL, 160, NULL),
		     RECKON_ESPDU_TRUNCATED);
}

Test(espdu_reject, names_are_distinct_and_counters_add_up)
{
	struct reckon_espdu_counters c;
	unsigned v, w;

	for (v = 0; v < RECKON_ESPDU_NVERDICTS; v++) {
		const char *n = reckon_espdu_verdict_name(v);

		cr_assert_str_neq(n, "unknown");
		for (w = 0; w < v; w++)
			cr_assert_str_neq(n, reckon_espdu_verdict_name(w));
	}
	cr_assert_str_eq(reckon_espdu_verdict_name(RECKON_ESPDU_NVERDICTS),
			 "unknown");
	cr_assert_str_eq(reckon_espdu_verdict_name(RECKON_ESPDU_OK), "ok");

	reckon_espdu_counters_init(&c);
	for (v = 0; v < RECKON_ESPDU_NVERDICTS; v++)
		for (w = 0; w <= v; w++)
			cr_assert_eq(reckon_espdu_count(&c, v), 0);
	cr_assert_lt(reckon_espdu_count(&c, RECKON_ESPDU_NVERDICTS), 0);
	cr_assert_lt(reckon_espdu_count(NULL, RECKON_ESPDU_OK), 0);
	/* verdict v was counted v + 1 times: rejected = sum_{v=1}^{N-1}(v+1) */
	cr_assert_eq(c.n[RECKON_ESPDU_OK], 1);
	cr_assert_eq(reckon_espdu_rejected(&c),
		     (uint64_t)(RECKON_ESPDU_NVERDICTS - 1) *
			     (RECKON_ESPDU_NVERDICTS + 2) / 2);
}

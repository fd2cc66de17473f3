/*
 * test_espdu_roundtrip.c: encode -> decode -> encode over many seeded
 * random updates (every field over its whole range) must give back the
 * same struct and the same octets; the encoder's own refusals (-EINVAL,
 * -ERANGE, -ENOSPC) leave the caller's buffer untouched; wire lengths
 * follow the number of predictor records.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "espdu_sample.h"
#include "proto/espdu.h"
#include "proto/espdu_layout.h"

#define N_ROUNDTRIP 20000

Test(espdu_roundtrip, random_updates_are_bit_exact)
{
	struct sample_rng r;
	struct reckon_espdu p, q;
	uint8_t a[RECKON_ESPDU_MAX_LEN], b[RECKON_ESPDU_MAX_LEN];
	size_t la, lb;
	unsigned i, with_blob = 0;

	sample_seed(&r, 20261121);
	for (i = 0; i < N_ROUNDTRIP; i++) {
		sample_espdu(&r, &p);
		cr_assert_eq(reckon_espdu_encode(&p, a, sizeof(a), &la), 0,
			     "update %u refused", i);
		cr_assert_eq(la, reckon_espdu_encoded_len(&p));
		cr_assert_eq(reckon_espdu_decode(a, la, &q), RECKON_ESPDU_OK,
			     "update %u: %s", i,
			     reckon_espdu_verdict_name(
				     reckon_espdu_decode(a, la, NULL)));
		cr_assert_eq(memcmp(&p, &q, sizeof(p)), 0,
			     "update %u decoded differently", i);
		cr_assert_eq(reckon_espdu_encode(&q, b, sizeof(b), &lb), 0);
		cr_assert_eq(lb, la);
		cr_assert_eq(memcmp(a, b, la), 0, "update %u re-encoded", i);
		with_blob += p.blob_len > 12;
	}
	/* the generator reaches multi-record blobs */
	cr_assert_gt(with_blob, 0);
}

Test(espdu_roundtrip, doubles_round_to_nearest_float32)
{
	struct reckon_espdu p, q;
	uint8_t buf[RECKON_ESPDU_MAX_LEN];
	size_t len;

	reckon_espdu_init(&p);
	p.vel.x = 0.1;
	p.acc.y = -1.0 / 3.0;
	p.ori.psi = 3.14159265358979323846; /* rounds to float(pi) */
	p.pos.x = 0.1;			    /* float64 on the wire: exact */
	cr_assert_eq(reckon_espdu_encode(&p, buf, sizeof(buf), &len), 0);
	cr_assert_eq(reckon_espdu_decode(buf, len, &q), RECKON_ESPDU_OK);
	cr_assert_eq(q.vel.x, (double)0.1f);
	cr_assert_eq(q.acc.y, (double)(float)(-1.0 / 3.0));
	cr_assert_eq(q.ori.psi, (double)3.14159265358979323846f);
	cr_assert_eq(q.pos.x, 0.1);
}

Test(espdu_roundtrip, lengths_follow_predictor_records)
{
	static const struct {
		uint8_t model, blob_len;
		size_t len;
	} cases[] = {
		{0, 0, 160},  {1, 0, 176},  {1, 1, 176},  {1, 12, 176},
		{1, 13, 192}, {1, 24, 192}, {1, 25, 208}, {1, 32, 208},
	};
	struct reckon_espdu p;
	uint8_t buf[RECKON_ESPDU_MAX_LEN];
	size_t len, i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		reckon_espdu_init(&p);
		p.model = cases[i].model;
		p.blob_len = cases[i].blob_len;
		memset(p.blob, 0xab, p.blob_len);
		cr_assert_eq(reckon_espdu_encode(&p, buf, sizeof(buf), &len),
			     0);
		cr_assert_eq(len, cases[i].len, "case %zu", i);
		cr_assert_eq(buf[ESPDU_OFF_NUM_VP], (len - 144) / 16);
		cr_assert_eq(reckon_espdu_decode(buf, len, NULL),
			     RECKON_ESPDU_OK);
	}
}

/* Each mutation of a valid update and the error the encoder must return. */
static void m_nan_vel(struct reckon_espdu *p)
{
	p->vel.x = NAN;
}
static void m_inf_pos(struct reckon_espdu *p)
{
	p->pos.z = -INFINITY;
}
static void m_nan_other(struct reckon_espdu *p)
{
	p->dr_other.type = RECKON_DR_OTHER_WORLD_QUAT;
	p->dr_other.v[1] = NAN;
}
static void m_big_acc(struct reckon_espdu *p)
{
	p->acc.z = 1e39;
}
static void m_psi(struct reckon_espdu *p)
{
	p->ori.psi = 3.1416;
}
static void m_theta(struct reckon_espdu *p)
{
	p->ori.theta = -1.6;
}
static void m_phi(struct reckon_espdu *p)
{
	p->ori.phi = 4.0;
}
static void m_drm0(struct reckon_espdu *p)
{
	p->dr_alg = 0;
}
static void m_drm10(struct reckon_espdu *p)
{
	p->dr_alg = 10;
}
static void m_other_type(struct reckon_espdu *p)
{
	p->dr_other.type = 3;
}
static void m_other_none(struct reckon_espdu *p)
{
	p->dr_other.v[0] = 1;
}
static void m_other_euler_qu0(struct reckon_espdu *p)
{
	p->dr_other.type = RECKON_DR_OTHER_LOCAL_EULER;
	p->dr_other.qu0 = 1;
}
static void m_site0(struct reckon_espdu *p)
{
	p->id.site = 0;
}
static void m_entity_all(struct reckon_espdu *p)
{
	p->id.entity = 0xffff;
}
static void m_mark_long(struct reckon_espdu *p)
{
	memcpy(p->marking, "ABCDEFGHIJKL", 12); /* 12 chars, no NUL */
}
static void m_mark_ctrl(struct reckon_espdu *p)
{
	strcpy(p->marking, "A\tB");
}
static void m_blob_long(struct reckon_espdu *p)
{
	p->model = 1;
	p->blob_len = 33;
}
static void m_blob_no_model(struct reckon_espdu *p)
{
	p->blob_len = 4;
}

Test(espdu_roundtrip, encoder_refuses_bad_fields_and_writes_nothing)
{
	static const struct {
		void (*mut)(struct reckon_espdu *);
		int err;
	} cases[] = {
		{m_nan_vel, -EINVAL},	 {m_inf_pos, -EINVAL},
		{m_nan_other, -EINVAL},	 {m_big_acc, -ERANGE},
		{m_psi, -ERANGE},	 {m_theta, -ERANGE},
		{m_phi, -ERANGE},	 {m_drm0, -EINVAL},
		{m_drm10, -EINVAL},	 {m_other_type, -EINVAL},
		{m_other_none, -EINVAL}, {m_other_euler_qu0, -EINVAL},
		{m_site0, -EINVAL},	 {m_entity_all, -EINVAL},
		{m_mark_long, -EINVAL},	 {m_mark_ctrl, -EINVAL},
		{m_blob_long, -EINVAL},	 {m_blob_no_model, -EINVAL},
	};
	struct reckon_espdu p;
	uint8_t buf[RECKON_ESPDU_MAX_LEN], fresh[RECKON_ESPDU_MAX_LEN];
	size_t len, i;

	memset(fresh, 0x5a, sizeof(fresh));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		reckon_espdu_init(&p);
		cases[i].mut(&p);
		memcpy(buf, fresh, sizeof(buf));
		len = 12345;
		cr_assert_eq(reckon_espdu_encode(&p, buf, sizeof(buf), &len),
			     cases[i].err, "case %zu", i);
		cr_assert_eq(len, 12345, "case %zu wrote len", i);
		cr_assert_eq(memcmp(buf, fresh, sizeof(buf)), 0,
			     "case %zu wrote the buffer", i);
	}
}

Test(espdu_roundtrip, short_buffer_and_null_arguments)
{
	struct reckon_espdu p;
	uint8_t buf[RECKON_ESPDU_MAX_LEN];
	size_t len = 7;

	reckon_espdu_init(&p);
	memset(buf, 0x5a, sizeof(buf));
	cr_assert_eq(reckon_espdu_encode(&p, buf, 159, &len), -ENOSPC);
	cr_assert_eq(len, 7);
	cr_assert_eq(buf[0], 0x5a);
	cr_assert_eq(reckon_espdu_encode(&p, buf, 160, &len), 0);
	cr_assert_eq(len, 160);
	cr_assert_eq(reckon_espdu_encode(NULL, buf, 160, &len), -EINVAL);
	cr_assert_eq(reckon_espdu_encode(&p, NULL, 160, &len), -EINVAL);
	cr_assert_eq(reckon_espdu_encode(&p, buf, 160, NULL), -EINVAL);
}

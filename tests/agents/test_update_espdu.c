/*
 * test_update_espdu.c: the predict_update <-> Entity State PDU mapping
 * (agents/role/update_espdu.c): seeded random updates survive encode and
 * decode (location exactly, float32 fields as their float32 rounding,
 * reason and blob octet for octet), entity numbers are trace id + 1 and
 * bounded to 1..0xfffe on the wire, and bad input is refused without
 * touching the output.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "util.h"
#include "role/update_espdu.h"

static uint64_t rng = 42;

/* A fixed-seed stream for the random updates. */
static uint64_t next(void)
{
	return splitmix64(&rng);
}

static double uni(double lo, double hi)
{
	return lo + (hi - lo) * (double)(next() >> 11) / 9007199254740992.0;
}

static void random_update(struct predict_update *u)
{
	memset(u, 0, sizeof(*u));
	u->t_ns = (int64_t)(next() >> 2);
	u->entity = (uint32_t)(next() % (ROLE_ENTITY_MAX + 1));
	u->team = (uint8_t)next();
	u->drm = (uint8_t)(1 + next() % 9);
	u->reason = (uint8_t)(next() % PREDICT_REASON_COUNT);
	u->blob_len = (uint8_t)(next() % (PREDICT_BLOB_MAX + 1));
	for (int i = 0; i < 3; i++) {
		u->pos[i] = uni(-1e5, 1e5);
		u->vel[i] = uni(-500, 500);
		u->acc[i] = uni(-2000, 2000);
		u->angvel[i] = uni(-10, 10);
	}
	u->ori[0] = uni(-M_PI, M_PI);
	u->ori[1] = uni(-M_PI / 2, M_PI / 2);
	u->ori[2] = uni(-M_PI, M_PI);
	for (int i = 0; i < u->blob_len; i++)
		u->blob[i] = (uint8_t)next();
}

static void roundtrip(const struct predict_update *u, struct predict_update *v,
		      uint8_t model, uint8_t *model_out)
{
	struct reckon_espdu p, q;
	uint8_t buf[RECKON_ESPDU_MAX_LEN];
	size_t len;

	cr_assert_eq(role_update_to_espdu(u, model, 7, &p), 0);
	cr_assert_eq(reckon_espdu_encode(&p, buf, sizeof(buf), &len), 0);
	cr_assert_eq(reckon_espdu_decode(buf, len, &q), RECKON_ESPDU_OK);
	cr_assert_eq(q.seq, 7);
	cr_assert_eq(role_espdu_to_update(&q, v, model_out), 0);
}

Test(update_espdu, random_roundtrip)
{
	for (int n = 0; n < 2000; n++) {
		struct predict_update u, v;
		uint8_t model = (uint8_t)(1 + next() % 255), m = 0;

		random_update(&u);
		roundtrip(&u, &v, model, &m);
		cr_assert_eq(m, model);
		cr_assert_eq(v.t_ns, u.t_ns);
		cr_assert_eq(v.entity, u.entity);
		cr_assert_eq(v.team, u.team);
		cr_assert_eq(v.drm, u.drm);
		cr_assert_eq(v.reason, u.reason);
		cr_assert_eq(v.blob_len, u.blob_len);
		cr_assert_eq(memcmp(v.blob, u.blob, u.blob_len), 0);
		for (int i = 0; i < 3; i++) {
			/* location is float64 on the wire: exact */
			cr_assert_eq(v.pos[i], u.pos[i]);
			cr_assert_eq(v.vel[i], (double)(float)u.vel[i]);
			cr_assert_eq(v.acc[i], (double)(float)u.acc[i]);
			cr_assert_eq(v.angvel[i], (double)(float)u.angvel[i]);
			cr_assert_eq(v.ori[i], (double)(float)u.ori[i]);
		}
	}
}

Test(update_espdu, entity_numbering)
{
	struct predict_update u;
	struct reckon_espdu p;

	random_update(&u);
	u.entity = 0;
	cr_assert_eq(role_update_to_espdu(&u, 1, 0, &p), 0);
	cr_assert_eq(p.id.entity, 1);
	cr_assert_eq(p.id.site, ROLE_SITE);
	cr_assert_eq(p.id.application, ROLE_APP);
	u.entity = ROLE_ENTITY_MAX;
	cr_assert_eq(role_update_to_espdu(&u, 1, 0, &p), 0);
	cr_assert_eq(p.id.entity, 0xfffe);
}

Test(update_espdu, refuses_bad_updates_untouched)
{
	struct predict_update u, good;
	struct reckon_espdu p, sentinel;

	random_update(&good);
	memset(&sentinel, 0xa5, sizeof(sentinel));
	/* each mutation alone makes the update unsendable */
	for (int c = 0; c < 6; c++) {
		uint8_t model = 3;

		u = good;
		switch (c) {
		case 0:
			u.entity = ROLE_ENTITY_MAX + 1;
			break;
		case 1:
			u.t_ns = -1;
			break;
		case 2:
			u.drm = 0;
			break;
		case 3:
			u.blob_len = PREDICT_BLOB_MAX + 1;
			break;
		case 4:
			u.reason = PREDICT_REASON_COUNT;
			break;
		case 5:
			model = 0;
			break;
		}
		p = sentinel;
		cr_assert_eq(role_update_to_espdu(&u, model, 0, &p), -EINVAL,
			     "case %d", c);
		cr_assert_eq(memcmp(&p, &sentinel, sizeof(p)), 0, "case %d", c);
	}
}

Test(update_espdu, refuses_foreign_pdus)
{
	struct predict_update u, v, sentinel;
	struct reckon_espdu p;
	uint8_t m = 9;

	random_update(&u);
	memset(&sentinel, 0x5a, sizeof(sentinel));
	for (int c = 0; c < 4; c++) {
		cr_assert_eq(role_update_to_espdu(&u, 2, 0, &p), 0);
		switch (c) {
		case 0:
			p.id.site = 2;
			break;
		case 1:
			p.model = 0;
			p.blob_len = 0;
			break;
		case 2:
			p.blob_len = 0;
			break;
		case 3:
			p.blob[0] = PREDICT_REASON_COUNT;
			break;
		}
		v = sentinel;
		cr_assert_eq(role_espdu_to_update(&p, &v, &m), -EPROTO,
			     "case %d", c);
		cr_assert_eq(memcmp(&v, &sentinel, sizeof(v)), 0);
		cr_assert_eq(m, 9);
	}
}

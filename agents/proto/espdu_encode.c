/*
 * espdu_encode.c: struct reckon_espdu -> DIS 7 Entity State PDU bytes.
 * Every field is validated and the PDU is built in a local buffer first,
 * so the caller's buffer is written only when the whole PDU is good. The
 * encoder and the decoder apply the same rules (espdu_rules.h), which is
 * what makes decoding canonical.
 */
#include <errno.h>
#include <string.h>

#include "proto/dis_time.h"
#include "proto/espdu.h"
#include "proto/espdu_layout.h"
#include "proto/espdu_rules.h"
#include "proto/wire.h"

static unsigned predictor_records(const struct reckon_espdu *p)
{
	if (!p->model)
		return 0;
	if (p->blob_len == 0)
		return 1;
	return (p->blob_len + VPPRED_CHUNK_LEN - 1) / VPPRED_CHUNK_LEN;
}

size_t reckon_espdu_encoded_len(const struct reckon_espdu *p)
{
	unsigned blob = p->blob_len > RECKON_ESPDU_BLOB_MAX
				? RECKON_ESPDU_BLOB_MAX
				: p->blob_len;
	struct reckon_espdu q = *p;

	q.blob_len = (uint8_t)blob;
	return ESPDU_FIXED_LEN + ESPDU_VP_LEN * (1 + predictor_records(&q));
}

/* Rounds d to float32: -EINVAL for NaN/infinity, -ERANGE if too large. */
static int to_f32(double d, float *out)
{
	if (!espdu_finite(d))
		return -EINVAL;
	if (d > ESPDU_F32_MAX || d < -ESPDU_F32_MAX)
		return -ERANGE;
	*out = (float)d;
	return 0;
}

static int put_vec_f32(uint8_t *b, const double v[3])
{
	float f[3];
	int i, err;

	for (i = 0; i < 3; i++) {
		err = to_f32(v[i], &f[i]);
		if (err)
			return err;
	}
	for (i = 0; i < 3; i++)
		wire_put_f32(b + 4 * i, f[i]);
	return 0;
}

static void put_type(uint8_t *b, const struct reckon_entity_type *t)
{
	b[ETYPE_OFF_KIND] = t->kind;
	b[ETYPE_OFF_DOMAIN] = t->domain;
	wire_put16(b + ETYPE_OFF_COUNTRY, t->country);
	b[ETYPE_OFF_CATEGORY] = t->category;
	b[ETYPE_OFF_SUBCATEGORY] = t->subcategory;
	b[ETYPE_OFF_SPECIFIC] = t->specific;
	b[ETYPE_OFF_EXTRA] = t->extra;
}

static int put_dr_other(uint8_t *b, const struct reckon_dr_other *o)
{
	switch (o->type) {
	case RECKON_DR_OTHER_NONE:
		if (o->qu0 || o->v[0] != 0 || o->v[1] != 0 || o->v[2] != 0)
			return -EINVAL;
		/* also refuses -0.0, which would not survive a round trip */
		if (espdu_signbit(o->v[0]) || espdu_signbit(o->v[1]) ||
		    espdu_signbit(o->v[2]))
			return -EINVAL;
		memset(b, 0, ESPDU_DR_OTHER_LEN);
		return 0;
	case RECKON_DR_OTHER_LOCAL_EULER:
		if (o->qu0)
			return -EINVAL;
		/* fall through */
	case RECKON_DR_OTHER_WORLD_QUAT:
		b[DROTHER_OFF_TYPE] = o->type;
		wire_put16(b + DROTHER_OFF_U16, o->qu0);
		return put_vec_f32(b + DROTHER_OFF_V, o->v);
	default:
		return -EINVAL;
	}
}

static int put_orientation(uint8_t *b, const struct reckon_euler *e)
{
	double v[3] = {e->psi, e->theta, e->phi};
	float f[3];
	int i, err;

	for (i = 0; i < 3; i++) {
		err = to_f32(v[i], &f[i]);
		if (err)
			return err;
	}
	if (!espdu_euler_in_range(f[0], f[1], f[2]))
		return -ERANGE;
	for (i = 0; i < 3; i++)
		wire_put_f32(b + 4 * i, f[i]);
	return 0;
}

static int put_marking(uint8_t *b, const char *m)
{
	size_t n = strnlen(m, RECKON_ESPDU_MARKING_MAX + 1);
	size_t i;

	if (n > RECKON_ESPDU_MARKING_MAX)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!espdu_marking_char((uint8_t)m[i]))
			return -EINVAL;
	b[0] = RECKON_DIS_CHARSET_ASCII;
	memset(b + 1, 0, ESPDU_MARKING_LEN);
	memcpy(b + 1, m, n);
	return 0;
}

static void put_time_record(uint8_t *r, const struct reckon_espdu *p)
{
	memset(r, 0, ESPDU_VP_LEN);
	r[VPTIME_OFF_TYPE] = RECKON_VP_TYPE_TIME;
	r[VPTIME_OFF_FORMAT] = RECKON_VP_TIME_FORMAT;
	wire_put32(r + VPTIME_OFF_SEQ, p->seq);
	wire_put64(r + VPTIME_OFF_SEND_NS, p->send_ns);
}

static void put_predictor_records(uint8_t *r, const struct reckon_espdu *p,
				  unsigned nrec)
{
	unsigned k;

	for (k = 0; k < nrec; k++, r += ESPDU_VP_LEN) {
		unsigned off = k * VPPRED_CHUNK_LEN;
		unsigned n = p->blob_len - off;

		if (n > VPPRED_CHUNK_LEN)
			n = VPPRED_CHUNK_LEN;
		memset(r, 0, ESPDU_VP_LEN);
		r[VPPRED_OFF_TYPE] = RECKON_VP_TYPE_PREDICTOR;
		r[VPPRED_OFF_MODEL] = p->model;
		r[VPPRED_OFF_CHUNK] = (uint8_t)k;
		r[VPPRED_OFF_BLOB_LEN] = p->blob_len;
		if (off < p->blob_len)
			memcpy(r + VPPRED_OFF_DATA, p->blob + off, n);
	}
}

static int check_plain_fields(const struct reckon_espdu *p)
{
	if (!espdu_entity_id_ok(p->id.site, p->id.application, p->id.entity))
		return -EINVAL;
	if (!espdu_dr_alg_ok(p->dr_alg))
		return -EINVAL;
	if (p->blob_len > RECKON_ESPDU_BLOB_MAX)
		return -EINVAL;
	if (!p->model && p->blob_len)
		return -EINVAL;
	if (!espdu_finite(p->pos.x) || !espdu_finite(p->pos.y) ||
	    !espdu_finite(p->pos.z))
		return -EINVAL;
	return 0;
}

int reckon_espdu_encode(const struct reckon_espdu *p, void *buf, size_t cap,
			size_t *len)
{
	uint8_t b[RECKON_ESPDU_MAX_LEN];
	unsigned npred, nvp;
	size_t total;
	int err;

	if (!p || !buf || !len)
		return -EINVAL;
	err = check_plain_fields(p);
	if (err)
		return err;
	npred = predictor_records(p);
	nvp = 1 + npred;
	total = ESPDU_FIXED_LEN + ESPDU_VP_LEN * nvp;

	memset(b, 0, sizeof(b));
	b[ESPDU_OFF_VERSION] = RECKON_DIS_VERSION;
	b[ESPDU_OFF_EXERCISE] = p->exercise;
	b[ESPDU_OFF_PDU_TYPE] = RECKON_DIS_PDU_ENTITY_STATE;
	b[ESPDU_OFF_FAMILY] = RECKON_DIS_FAMILY_ENTITY_INFO;
	wire_put32(b + ESPDU_OFF_TIMESTAMP,
		   reckon_dis_timestamp(p->send_ns, 0));
	wire_put16(b + ESPDU_OFF_LENGTH, (uint16_t)total);
	b[ESPDU_OFF_STATUS] = p->pdu_status;
	b[ESPDU_OFF_HDR_PAD] = 0;

	wire_put16(b + ESPDU_OFF_SITE, p->id.site);
	wire_put16(b + ESPDU_OFF_APPLICATION, p->id.application);
	wire_put16(b + ESPDU_OFF_ENTITY, p->id.entity);
	b[ESPDU_OFF_FORCE] = p->force;
	b[ESPDU_OFF_NUM_VP] = (uint8_t)nvp;
	put_type(b + ESPDU_OFF_TYPE, &p->type);
	put_type(b + ESPDU_OFF_ALT_TYPE, &p->alt_type);
	err = put_vec_f32(b + ESPDU_OFF_VELOCITY,
			  (const double[3]){p->vel.x, p->vel.y, p->vel.z});
	if (err)
		return err;
	wire_put_f64(b + ESPDU_OFF_LOCATION, p->pos.x);
	wire_put_f64(b + ESPDU_OFF_LOCATION + 8, p->pos.y);
	wire_put_f64(b + ESPDU_OFF_LOCATION + 16, p->pos.z);
	err = put_orientation(b + ESPDU_OFF_ORIENTATION, &p->ori);
	if (err)
		return err;
	wire_put32(b + ESPDU_OFF_APPEARANCE, p->appearance);
	b[ESPDU_OFF_DR_ALG] = p->dr_alg;
	err = put_dr_other(b + ESPDU_OFF_DR_OTHER, &p->dr_other);
	if (err)
		return err;
	err = put_vec_f32(b + ESPDU_OFF_ACCEL,
			  (const double[3]){p->acc.x, p->acc.y, p->acc.z});
	if (err)
		return err;
	err = put_vec_f32(
		b + ESPDU_OFF_ANGVEL,
		(const double[3]){p->angvel.x, p->angvel.y, p->angvel.z});
	if (err)
		return err;
	err = put_marking(b + ESPDU_OFF_MARK_CHARSET, p->marking);
	if (err)
		return err;
	wire_put32(b + ESPDU_OFF_CAPABILITIES, p->capabilities);
	put_time_record(b + ESPDU_OFF_VP, p);
	put_predictor_records(b + ESPDU_OFF_VP + ESPDU_VP_LEN, p, npred);

	if (cap < total)
		return -ENOSPC;
	memcpy(buf, b, total);
	*len = total;
	return 0;
}

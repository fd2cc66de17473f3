/*
 * espdu_decode.c: DIS 7 Entity State PDU bytes -> struct reckon_espdu.
 * Checks run in the order of enum reckon_espdu_verdict (framing first,
 * then fields, then the reckon variable parameter records) and stop at the
 * first failure, whose reason is returned. The result is written only
 * when every check passed. Reads only within [buf, buf + len).
 */
#include <string.h>

#include "proto/dis_time.h"
#include "proto/espdu.h"
#include "proto/espdu_layout.h"
#include "proto/espdu_rules.h"
#include "proto/wire.h"

typedef enum reckon_espdu_verdict verdict_t;

static verdict_t check_framing(const uint8_t *b, size_t len)
{
	size_t field, nvp;

	if (len < ESPDU_HEADER_LEN)
		return RECKON_ESPDU_TRUNCATED;
	if (len > RECKON_ESPDU_MAX_LEN)
		return RECKON_ESPDU_OVERSIZED;
	if (b[ESPDU_OFF_VERSION] != RECKON_DIS_VERSION)
		return RECKON_ESPDU_BAD_VERSION;
	if (b[ESPDU_OFF_PDU_TYPE] != RECKON_DIS_PDU_ENTITY_STATE)
		return RECKON_ESPDU_BAD_PDU_TYPE;
	if (b[ESPDU_OFF_FAMILY] != RECKON_DIS_FAMILY_ENTITY_INFO)
		return RECKON_ESPDU_BAD_FAMILY;
	field = wire_get16(b + ESPDU_OFF_LENGTH);
	if (field > len)
		return RECKON_ESPDU_TRUNCATED;
	if (field < len)
		return RECKON_ESPDU_LENGTH_MISMATCH;
	if (len < ESPDU_FIXED_LEN)
		return RECKON_ESPDU_TRUNCATED;
	if (b[ESPDU_OFF_HDR_PAD] != 0)
		return RECKON_ESPDU_BAD_PADDING;
	nvp = b[ESPDU_OFF_NUM_VP];
	if (nvp > RECKON_ESPDU_MAX_VP)
		return RECKON_ESPDU_TOO_MANY_VP;
	if (len != ESPDU_FIXED_LEN + ESPDU_VP_LEN * nvp)
		return RECKON_ESPDU_VP_COUNT_MISMATCH;
	return RECKON_ESPDU_OK;
}

static bool f32s_finite(const uint8_t *b, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (!espdu_finite(wire_get_f32(b + 4 * i)))
			return false;
	return true;
}

static verdict_t check_numbers(const uint8_t *b)
{
	const uint8_t *o = b + ESPDU_OFF_DR_OTHER;
	bool other_has_floats =
		o[DROTHER_OFF_TYPE] == RECKON_DR_OTHER_LOCAL_EULER ||
		o[DROTHER_OFF_TYPE] == RECKON_DR_OTHER_WORLD_QUAT;

	if (other_has_floats && !f32s_finite(o + DROTHER_OFF_V, 3))
		return RECKON_ESPDU_NONFINITE;
	if (!f32s_finite(b + ESPDU_OFF_VELOCITY, 3) ||
	    !f32s_finite(b + ESPDU_OFF_ORIENTATION, 3) ||
	    !f32s_finite(b + ESPDU_OFF_ACCEL, 3) ||
	    !f32s_finite(b + ESPDU_OFF_ANGVEL, 3) ||
	    !espdu_finite(wire_get_f64(b + ESPDU_OFF_LOCATION)) ||
	    !espdu_finite(wire_get_f64(b + ESPDU_OFF_LOCATION + 8)) ||
	    !espdu_finite(wire_get_f64(b + ESPDU_OFF_LOCATION + 16)))
		return RECKON_ESPDU_NONFINITE;
	if (!espdu_euler_in_range(wire_get_f32(b + ESPDU_OFF_ORIENTATION),
				  wire_get_f32(b + ESPDU_OFF_ORIENTATION + 4),
				  wire_get_f32(b + ESPDU_OFF_ORIENTATION + 8)))
		return RECKON_ESPDU_ORIENTATION_RANGE;
	return RECKON_ESPDU_OK;
}

static verdict_t check_dr_other(const uint8_t *o)
{
	unsigned i;

	switch (o[DROTHER_OFF_TYPE]) {
	case RECKON_DR_OTHER_NONE:
		for (i = 1; i < ESPDU_DR_OTHER_LEN; i++)
			if (o[i])
				return RECKON_ESPDU_BAD_DR_PARAMS;
		return RECKON_ESPDU_OK;
	case RECKON_DR_OTHER_LOCAL_EULER:
		/* the 16 bits before the angles are unused */
		if (wire_get16(o + DROTHER_OFF_U16))
			return RECKON_ESPDU_BAD_DR_PARAMS;
		return RECKON_ESPDU_OK;
	case RECKON_DR_OTHER_WORLD_QUAT:
		return RECKON_ESPDU_OK; /* floats checked in check_numbers() */
	default:
		return RECKON_ESPDU_BAD_DR_PARAMS;
	}
}

static verdict_t check_marking(const uint8_t *m)
{
	unsigned i = 0;

	if (m[0] != RECKON_DIS_CHARSET_ASCII)
		return RECKON_ESPDU_BAD_MARKING;
	m++;
	while (i < ESPDU_MARKING_LEN && m[i])
		if (!espdu_marking_char(m[i++]))
			return RECKON_ESPDU_BAD_MARKING;
	while (i < ESPDU_MARKING_LEN)
		if (m[i++])
			return RECKON_ESPDU_BAD_MARKING;
	return RECKON_ESPDU_OK;
}

static verdict_t check_time_record(const uint8_t *r)
{
	if (r[VPTIME_OFF_FORMAT] != RECKON_VP_TIME_FORMAT ||
	    wire_get16(r + VPTIME_OFF_RESERVED) != 0)
		return RECKON_ESPDU_BAD_TIME_RECORD;
	return RECKON_ESPDU_OK;
}

/* Records 1..nvp-1 must be the chunks 0..n-1 of one predictor blob. */
static verdict_t check_predictor_records(const uint8_t *r, unsigned n)
{
	unsigned model, blob_len, want, k, i;

	if (n == 0)
		return RECKON_ESPDU_OK;
	model = r[VPPRED_OFF_MODEL];
	blob_len = r[VPPRED_OFF_BLOB_LEN];
	if (model == 0 || blob_len > RECKON_ESPDU_BLOB_MAX)
		return RECKON_ESPDU_BAD_PREDICTOR_RECORD;
	want = blob_len ? (blob_len + VPPRED_CHUNK_LEN - 1) / VPPRED_CHUNK_LEN
			: 1;
	if (n != want)
		return RECKON_ESPDU_BAD_PREDICTOR_RECORD;
	for (k = 0; k < n; k++, r += ESPDU_VP_LEN) {
		if (r[VPPRED_OFF_MODEL] != model || r[VPPRED_OFF_CHUNK] != k ||
		    r[VPPRED_OFF_BLOB_LEN] != blob_len)
			return RECKON_ESPDU_BAD_PREDICTOR_RECORD;
		/* octets past the end of the blob must be zero */
		for (i = 0; i < VPPRED_CHUNK_LEN; i++)
			if (k * VPPRED_CHUNK_LEN + i >= blob_len &&
			    r[VPPRED_OFF_DATA + i])
				return RECKON_ESPDU_BAD_PREDICTOR_RECORD;
	}
	return RECKON_ESPDU_OK;
}

static verdict_t check_records(const uint8_t *b, unsigned nvp)
{
	const uint8_t *vp = b + ESPDU_OFF_VP;
	verdict_t v;
	unsigned i;

	for (i = 0; i < nvp; i++) {
		uint8_t t = vp[i * ESPDU_VP_LEN];

		if (t != RECKON_VP_TYPE_TIME && t != RECKON_VP_TYPE_PREDICTOR)
			return RECKON_ESPDU_BAD_VP_TYPE;
	}
	if (nvp == 0 || vp[0] != RECKON_VP_TYPE_TIME)
		return RECKON_ESPDU_NO_TIME_RECORD;
	for (i = 1; i < nvp; i++)
		if (vp[i * ESPDU_VP_LEN] == RECKON_VP_TYPE_TIME)
			return RECKON_ESPDU_BAD_TIME_RECORD;
	v = check_time_record(vp);
	if (v)
		return v;
	return check_predictor_records(vp + ESPDU_VP_LEN, nvp - 1);
}

static void get_type(const uint8_t *b, struct reckon_entity_type *t)
{
	t->kind = b[ETYPE_OFF_KIND];
	t->domain = b[ETYPE_OFF_DOMAIN];
	t->country = wire_get16(b + ETYPE_OFF_COUNTRY);
	t->category = b[ETYPE_OFF_CATEGORY];
	t->subcategory = b[ETYPE_OFF_SUBCATEGORY];
	t->specific = b[ETYPE_OFF_SPECIFIC];
	t->extra = b[ETYPE_OFF_EXTRA];
}

static void get_vec_f32(const uint8_t *b, struct reckon_vec3 *v)
{
	v->x = wire_get_f32(b);
	v->y = wire_get_f32(b + 4);
	v->z = wire_get_f32(b + 8);
}

static void fill(const uint8_t *b, unsigned nvp, struct reckon_espdu *p)
{
	const uint8_t *o = b + ESPDU_OFF_DR_OTHER;
	const uint8_t *vp = b + ESPDU_OFF_VP;
	unsigned k;

	memset(p, 0, sizeof(*p));
	p->exercise = b[ESPDU_OFF_EXERCISE];
	p->pdu_status = b[ESPDU_OFF_STATUS];
	p->seq = wire_get32(vp + VPTIME_OFF_SEQ);
	p->send_ns = wire_get64(vp + VPTIME_OFF_SEND_NS);
	p->id.site = wire_get16(b + ESPDU_OFF_SITE);
	p->id.application = wire_get16(b + ESPDU_OFF_APPLICATION);
	p->id.entity = wire_get16(b + ESPDU_OFF_ENTITY);
	p->force = b[ESPDU_OFF_FORCE];
	get_type(b + ESPDU_OFF_TYPE, &p->type);
	get_type(b + ESPDU_OFF_ALT_TYPE, &p->alt_type);
	get_vec_f32(b + ESPDU_OFF_VELOCITY, &p->vel);
	p->pos.x = wire_get_f64(b + ESPDU_OFF_LOCATION);
	p->pos.y = wire_get_f64(b + ESPDU_OFF_LOCATION + 8);
	p->pos.z = wire_get_f64(b + ESPDU_OFF_LOCATION + 16);
	p->ori.psi = wire_get_f32(b + ESPDU_OFF_ORIENTATION);
	p->ori.theta = wire_get_f32(b + ESPDU_OFF_ORIENTATION + 4);
	p->ori.phi = wire_get_f32(b + ESPDU_OFF_ORIENTATION + 8);
	p->appearance = wire_get32(b + ESPDU_OFF_APPEARANCE);
	p->dr_alg = b[ESPDU_OFF_DR_ALG];
	p->dr_other.type = o[DROTHER_OFF_TYPE];
	if (p->dr_other.type != RECKON_DR_OTHER_NONE) {
		p->dr_other.qu0 = wire_get16(o + DROTHER_OFF_U16);
		p->dr_other.v[0] = wire_get_f32(o + DROTHER_OFF_V);
		p->dr_other.v[1] = wire_get_f32(o + DROTHER_OFF_V + 4);
		p->dr_other.v[2] = wire_get_f32(o + DROTHER_OFF_V + 8);
	}
	get_vec_f32(b + ESPDU_OFF_ACCEL, &p->acc);
	get_vec_f32(b + ESPDU_OFF_ANGVEL, &p->angvel);
	memcpy(p->marking, b + ESPDU_OFF_MARKING, ESPDU_MARKING_LEN);
	p->marking[ESPDU_MARKING_LEN] = '\0';
	p->capabilities = wire_get32(b + ESPDU_OFF_CAPABILITIES);
	if (nvp > 1) {
		p->model = vp[ESPDU_VP_LEN + VPPRED_OFF_MODEL];
		p->blob_len = vp[ESPDU_VP_LEN + VPPRED_OFF_BLOB_LEN];
	}
	for (k = 0; k + 1 < nvp; k++) {
		unsigned off = k * VPPRED_CHUNK_LEN;
		unsigned n = p->blob_len > off ? p->blob_len - off : 0;

		if (n > VPPRED_CHUNK_LEN)
			n = VPPRED_CHUNK_LEN;
		memcpy(p->blob + off,
		       vp + (k + 1) * ESPDU_VP_LEN + VPPRED_OFF_DATA, n);
	}
}

enum reckon_espdu_verdict reckon_espdu_decode(const void *buf, size_t len,
					      struct reckon_espdu *out)
{
	const uint8_t *b = buf;
	unsigned nvp;
	verdict_t v;

	if (!b)
		len = 0;
	v = check_framing(b, len);
	if (v)
		return v;
	nvp = b[ESPDU_OFF_NUM_VP];
	if (!espdu_entity_id_ok(wire_get16(b + ESPDU_OFF_SITE),
				wire_get16(b + ESPDU_OFF_APPLICATION),
				wire_get16(b + ESPDU_OFF_ENTITY)))
		return RECKON_ESPDU_BAD_ENTITY_ID;
	v = check_numbers(b);
	if (v)
		return v;
	if (!espdu_dr_alg_ok(b[ESPDU_OFF_DR_ALG]))
		return RECKON_ESPDU_BAD_DR_ALGORITHM;
	v = check_dr_other(b + ESPDU_OFF_DR_OTHER);
	if (v)
		return v;
	v = check_marking(b + ESPDU_OFF_MARK_CHARSET);
	if (v)
		return v;
	v = check_records(b, nvp);
	if (v)
		return v;
	if (wire_get32(b + ESPDU_OFF_TIMESTAMP) !=
	    reckon_dis_timestamp(
		    wire_get64(b + ESPDU_OFF_VP + VPTIME_OFF_SEND_NS), 0))
		return RECKON_ESPDU_TIMESTAMP_MISMATCH;
	if (out)
		fill(b, nvp, out);
	return RECKON_ESPDU_OK;
}

enum reckon_espdu_verdict
reckon_espdu_decode_counted(const void *buf, size_t len,
			    struct reckon_espdu *out,
			    struct reckon_espdu_counters *c)
{
	verdict_t v = reckon_espdu_decode(buf, len, out);

	if (c)
		reckon_espdu_count(c, v);
	return v;
}

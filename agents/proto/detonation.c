/*
 * detonation.c: the DIS 7 Detonation PDU (IEEE 1278.1-2012 7.3.3), 104
 * octets plus variable parameter records: header, firing / target /
 * munition ids, event id, velocity (3 x f32), location in world
 * coordinates (3 x f64), munition descriptor, location in the entity's
 * coordinates (3 x f32), detonation result, record count, 2 octets of
 * padding. reckon's server sends one per registered or provisional hit,
 * to the victim and to the shooter: the target is the victim, the world
 * location the impact point, the entity location the impact offset in
 * the hit body part's frame (Lee's v = s1 - s0), and one reckon hit
 * record (type 242: body part, flags, mode, hit id, server tick).
 */
#include <string.h>

#include "proto/warfare.h"
#include "proto/warfare_int.h"

#define DET_OFF_VEL	   36
#define DET_OFF_LOC	   48
#define DET_OFF_DESC	   72
#define DET_OFF_LOC_ENTITY 88
#define DET_OFF_RESULT	   100
#define DET_OFF_NUM_VP	   101
#define DET_OFF_PAD	   102
#define DET_OFF_VP	   104

/* hit record, relative offsets */
#define HIT_OFF_TYPE  0
#define HIT_OFF_PART  1
#define HIT_OFF_FLAGS 2
#define HIT_OFF_MODE  3
#define HIT_OFF_ID    4
#define HIT_OFF_TICK  8

static int hit_ok(const struct reckon_hit_record *h)
{
	return h->part <= 2 && !(h->flags & ~RECKON_HIT_FLAGS_MASK) &&
	       h->mode <= 3 && h->hit_id != 0;
}

static void put_hit(uint8_t *b, const struct reckon_hit_record *h)
{
	b[HIT_OFF_TYPE] = RECKON_VP_TYPE_HIT;
	b[HIT_OFF_PART] = h->part;
	b[HIT_OFF_FLAGS] = h->flags;
	b[HIT_OFF_MODE] = h->mode;
	wire_put32(b + HIT_OFF_ID, h->hit_id);
	wire_put64(b + HIT_OFF_TICK, h->tick);
}

static void vec_arr(const struct reckon_vec3 *v, double a[3])
{
	a[0] = v->x;
	a[1] = v->y;
	a[2] = v->z;
}

int reckon_detonation_encode(const struct reckon_detonation *d, void *buf,
			     size_t cap, size_t *len)
{
	uint8_t b[RECKON_DETONATION_MAX_LEN];
	size_t n;
	double v[3], l[3], le[3];
	int err;

	if (!d || !buf || !len || !wf_id_ok(&d->firing, 0) ||
	    !wf_id_ok(&d->target, 1) || !wf_id_ok(&d->munition, 1) ||
	    (d->has_hit && !hit_ok(&d->hit)))
		return -EINVAL;
	n = RECKON_DETONATION_MIN_LEN + (d->has_hit ? ESPDU_VP_LEN_W : 0);
	if (cap < n)
		return -ENOSPC;
	memset(b, 0, sizeof(b));
	wf_header(b, d->exercise, RECKON_DIS_PDU_DETONATION, d->timestamp, n);
	wf_put_id(b + WF_OFF_FIRING, &d->firing);
	wf_put_id(b + WF_OFF_TARGET, &d->target);
	wf_put_id(b + WF_OFF_MUNITION, &d->munition);
	wf_put_event(b + WF_OFF_EVENT, &d->event);
	vec_arr(&d->vel, v);
	vec_arr(&d->loc, l);
	vec_arr(&d->loc_entity, le);
	err = wf_put_f32s(b + DET_OFF_VEL, v, 3);
	if (!err)
		err = wf_put_f64s(b + DET_OFF_LOC, l, 3);
	if (!err)
		err = wf_put_f32s(b + DET_OFF_LOC_ENTITY, le, 3);
	if (err)
		return err;
	wf_put_munition(b + DET_OFF_DESC, &d->desc);
	b[DET_OFF_RESULT] = d->result;
	b[DET_OFF_NUM_VP] = d->has_hit ? 1 : 0;
	if (d->has_hit)
		put_hit(b + DET_OFF_VP, &d->hit);
	memcpy(buf, b, n);
	*len = n;
	return 0;
}

static int get_hit(const uint8_t *b, struct reckon_hit_record *h)
{
	if (b[HIT_OFF_TYPE] != RECKON_VP_TYPE_HIT)
		return 0;
	h->part = b[HIT_OFF_PART];
	h->flags = b[HIT_OFF_FLAGS];
	h->mode = b[HIT_OFF_MODE];
	h->hit_id = wire_get32(b + HIT_OFF_ID);
	h->tick = wire_get64(b + HIT_OFF_TICK);
	return hit_ok(h);
}

int reckon_detonation_decode(const void *buf, size_t len,
			     struct reckon_detonation *out, char *why, size_t n)
{
	const uint8_t *b = buf;
	struct reckon_detonation d;
	double v[3], l[3], le[3];
	int err;

	if (!buf)
		return wf_why(why, n, "truncated");
	err = wf_check_header(b, len, RECKON_DIS_PDU_DETONATION,
			      RECKON_DETONATION_MIN_LEN,
			      RECKON_DETONATION_MAX_LEN, why, n);
	if (err)
		return err;
	if (len != RECKON_DETONATION_MIN_LEN +
			   (size_t)b[DET_OFF_NUM_VP] * ESPDU_VP_LEN_W)
		return wf_why(why, n, "record count does not match length");
	if (wire_get16(b + DET_OFF_PAD) != 0)
		return wf_why(why, n, "padding not 0");
	memset(&d, 0, sizeof(d));
	d.exercise = b[1];
	d.timestamp = wire_get32(b + 4);
	wf_get_id(b + WF_OFF_FIRING, &d.firing);
	wf_get_id(b + WF_OFF_TARGET, &d.target);
	wf_get_id(b + WF_OFF_MUNITION, &d.munition);
	if (!wf_id_ok(&d.firing, 0) || !wf_id_ok(&d.target, 1) ||
	    !wf_id_ok(&d.munition, 1))
		return wf_why(why, n, "bad entity id");
	wf_get_event(b + WF_OFF_EVENT, &d.event);
	if (!wf_f32s_finite(b + DET_OFF_VEL, 3) ||
	    !wf_get_f64s(b + DET_OFF_LOC, l, 3) ||
	    !wf_f32s_finite(b + DET_OFF_LOC_ENTITY, 3))
		return wf_why(why, n, "NaN or infinity in a float field");
	wf_get_f32s(b + DET_OFF_VEL, v, 3);
	wf_get_f32s(b + DET_OFF_LOC_ENTITY, le, 3);
	wf_get_munition(b + DET_OFF_DESC, &d.desc);
	d.result = b[DET_OFF_RESULT];
	d.has_hit = b[DET_OFF_NUM_VP] == 1;
	if (d.has_hit && !get_hit(b + DET_OFF_VP, &d.hit))
		return wf_why(why, n, "bad reckon hit record");
	d.vel = (struct reckon_vec3){v[0], v[1], v[2]};
	d.loc = (struct reckon_vec3){l[0], l[1], l[2]};
	d.loc_entity = (struct reckon_vec3){le[0], le[1], le[2]};
	if (out)
		*out = d;
	return 0;
}

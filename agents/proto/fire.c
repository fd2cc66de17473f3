/*
 * fire.c: the DIS 7 Fire PDU (IEEE 1278.1-2012 7.3.2), 96 octets: header,
 * firing / target / munition entity ids, event id, fire mission index,
 * location (3 x f64), munition descriptor, velocity (3 x f32), range
 * (f32). reckon's clients send one per hitscan shot: the target is the
 * player the shot hit on the shooter's own screen (0:0:0 if none), the
 * event number is the shot id, the location is the shooter's eye and the
 * velocity is the aim at RECKON_HITSCAN_SPEED. Also the DIS dispatch
 * helper and the rifle munition shared with the Detonation PDU.
 */
#include <string.h>

#include "proto/warfare.h"
#include "proto/warfare_int.h"

#define FIRE_OFF_MISSION 36
#define FIRE_OFF_LOC	 40
#define FIRE_OFF_DESC	 64
#define FIRE_OFF_VEL	 80
#define FIRE_OFF_RANGE	 92

void reckon_munition_rifle(struct reckon_munition *m)
{
	memset(m, 0, sizeof(*m));
	m->type.kind = 2;     /* munition */
	m->type.category = 2; /* ballistic */
	m->quantity = 1;
}

int reckon_dis_pdu_type(const void *buf, size_t len)
{
	const uint8_t *b = buf;

	if (!buf || len < WF_HEADER_LEN || b[0] != RECKON_DIS_VERSION)
		return -1;
	return b[2];
}

int reckon_fire_encode(const struct reckon_fire *f, void *buf, size_t cap,
		       size_t *len)
{
	uint8_t b[RECKON_FIRE_LEN];
	double loc[3], vel[3], range[1];
	int err;

	if (!f || !buf || !len || !wf_id_ok(&f->firing, 0) ||
	    !wf_id_ok(&f->target, 1) || !wf_id_ok(&f->munition, 1) ||
	    !(f->range >= 0))
		return -EINVAL;
	if (cap < RECKON_FIRE_LEN)
		return -ENOSPC;
	memset(b, 0, sizeof(b));
	wf_header(b, f->exercise, RECKON_DIS_PDU_FIRE, f->timestamp,
		  RECKON_FIRE_LEN);
	wf_put_id(b + WF_OFF_FIRING, &f->firing);
	wf_put_id(b + WF_OFF_TARGET, &f->target);
	wf_put_id(b + WF_OFF_MUNITION, &f->munition);
	wf_put_event(b + WF_OFF_EVENT, &f->event);
	wire_put32(b + FIRE_OFF_MISSION, f->mission);
	loc[0] = f->loc.x, loc[1] = f->loc.y, loc[2] = f->loc.z;
	vel[0] = f->vel.x, vel[1] = f->vel.y, vel[2] = f->vel.z;
	range[0] = f->range;
	err = wf_put_f64s(b + FIRE_OFF_LOC, loc, 3);
	if (!err)
		err = wf_put_f32s(b + FIRE_OFF_VEL, vel, 3);
	if (!err)
		err = wf_put_f32s(b + FIRE_OFF_RANGE, range, 1);
	if (err)
		return err;
	wf_put_munition(b + FIRE_OFF_DESC, &f->desc);
	memcpy(buf, b, sizeof(b));
	*len = sizeof(b);
	return 0;
}

int reckon_fire_decode(const void *buf, size_t len, struct reckon_fire *out,
		       char *why, size_t n)
{
	const uint8_t *b = buf;
	struct reckon_fire f;
	double loc[3], vel[3], range[1];
	int err;

	if (!buf)
		return wf_why(why, n, "truncated");
	err = wf_check_header(b, len, RECKON_DIS_PDU_FIRE, RECKON_FIRE_LEN,
			      RECKON_FIRE_LEN, why, n);
	if (err)
		return err;
	memset(&f, 0, sizeof(f));
	f.exercise = b[1];
	f.timestamp = wire_get32(b + 4);
	wf_get_id(b + WF_OFF_FIRING, &f.firing);
	wf_get_id(b + WF_OFF_TARGET, &f.target);
	wf_get_id(b + WF_OFF_MUNITION, &f.munition);
	if (!wf_id_ok(&f.firing, 0) || !wf_id_ok(&f.target, 1) ||
	    !wf_id_ok(&f.munition, 1))
		return wf_why(why, n, "bad entity id");
	wf_get_event(b + WF_OFF_EVENT, &f.event);
	f.mission = wire_get32(b + FIRE_OFF_MISSION);
	if (!wf_get_f64s(b + FIRE_OFF_LOC, loc, 3) ||
	    !wf_f32s_finite(b + FIRE_OFF_VEL, 3) ||
	    !wf_f32s_finite(b + FIRE_OFF_RANGE, 1))
		return wf_why(why, n, "NaN or infinity in a float field");
	wf_get_f32s(b + FIRE_OFF_VEL, vel, 3);
	wf_get_f32s(b + FIRE_OFF_RANGE, range, 1);
	if (range[0] < 0)
		return wf_why(why, n, "negative range");
	wf_get_munition(b + FIRE_OFF_DESC, &f.desc);
	f.loc = (struct reckon_vec3){loc[0], loc[1], loc[2]};
	f.vel = (struct reckon_vec3){vel[0], vel[1], vel[2]};
	f.range = range[0];
	if (out)
		*out = f;
	return 0;
}

/*
 * update_espdu.c: struct predict_update <-> struct reckon_espdu (see
 * update_espdu.h). The predictor record's blob is the update's reason in
 * its first octet followed by the predictor's own blob (up to 15 octets,
 * the size of the DIS "DR other parameters" field it was sized for). The
 * DIS DR other parameters field itself stays type 0 (none).
 */
#include <errno.h>
#include <string.h>

#include "role/update_espdu.h"

int role_update_to_espdu(const struct predict_update *u, uint8_t model,
			 uint32_t seq, struct reckon_espdu *out)
{
	struct reckon_espdu p;

	if (!u || !out || u->t_ns < 0 || u->entity > ROLE_ENTITY_MAX ||
	    model == 0 || u->drm < 1 || u->drm > 9 ||
	    u->blob_len > PREDICT_BLOB_MAX || u->reason >= PREDICT_REASON_COUNT)
		return -EINVAL;
	reckon_espdu_init(&p);
	p.send_ns = (uint64_t)u->t_ns;
	p.seq = seq;
	p.id.site = ROLE_SITE;
	p.id.application = ROLE_APP;
	p.id.entity = (uint16_t)(u->entity + 1);
	p.force = u->team;
	p.pos = (struct reckon_vec3){u->pos[0], u->pos[1], u->pos[2]};
	p.vel = (struct reckon_vec3){u->vel[0], u->vel[1], u->vel[2]};
	p.acc = (struct reckon_vec3){u->acc[0], u->acc[1], u->acc[2]};
	p.angvel =
		(struct reckon_vec3){u->angvel[0], u->angvel[1], u->angvel[2]};
	p.ori = (struct reckon_euler){u->ori[0], u->ori[1], u->ori[2]};
	p.dr_alg = u->drm;
	p.model = model;
	p.blob_len = (uint8_t)(1 + u->blob_len);
	p.blob[0] = u->reason;
	memcpy(p.blob + 1, u->blob, u->blob_len);
	*out = p;
	return 0;
}

int role_espdu_to_update(const struct reckon_espdu *p,
			 struct predict_update *out, uint8_t *model)
{
	struct predict_update u;

	if (!p || !out || !model)
		return -EINVAL;
	if (p->id.site != ROLE_SITE || p->id.application != ROLE_APP ||
	    p->model == 0 || p->blob_len < 1 ||
	    p->blob_len > 1 + PREDICT_BLOB_MAX ||
	    p->blob[0] >= PREDICT_REASON_COUNT || p->send_ns > INT64_MAX ||
	    p->dr_alg < 1 || p->dr_alg > 9)
		return -EPROTO;
	memset(&u, 0, sizeof(u));
	u.t_ns = (int64_t)p->send_ns;
	u.entity = (uint32_t)p->id.entity - 1;
	u.team = p->force;
	u.drm = p->dr_alg;
	u.reason = p->blob[0];
	u.blob_len = (uint8_t)(p->blob_len - 1);
	memcpy(u.blob, p->blob + 1, u.blob_len);
	u.pos[0] = p->pos.x, u.pos[1] = p->pos.y, u.pos[2] = p->pos.z;
	u.vel[0] = p->vel.x, u.vel[1] = p->vel.y, u.vel[2] = p->vel.z;
	u.acc[0] = p->acc.x, u.acc[1] = p->acc.y, u.acc[2] = p->acc.z;
	u.angvel[0] = p->angvel.x, u.angvel[1] = p->angvel.y;
	u.angvel[2] = p->angvel.z;
	u.ori[0] = p->ori.psi, u.ori[1] = p->ori.theta, u.ori[2] = p->ori.phi;
	*out = u;
	*model = p->model;
	return 0;
}

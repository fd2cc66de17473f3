/*
 * fps_wire.c: the pose <-> Entity State PDU mapping, the RTT echo and the
 * PDU bundle framing of the fps roles (fps.h). Positions go through
 * game_coords.h like every reckon entity; stance and death ride in the
 * DIS life-form appearance.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "proto/game_coords.h"
#include "proto/wire.h"
#include "role/fps.h"
#include "role/update_espdu.h"

#define APP_DESTROYED	(3u << 3)
#define APP_STATE_SHIFT 16
#define APP_UPRIGHT	1u
#define APP_CROUCH	4u

int fps_state_to_espdu(int idx, const struct fps_state *s, uint64_t send_ns,
		       uint32_t seq, struct reckon_espdu *out)
{
	struct reckon_espdu p;
	struct reckon_vec3 pos = {s->pose.x, s->pose.y, 0};
	struct reckon_vec3 vel = {s->vx, s->vy, 0};

	if (idx < 0 || idx >= LC_MAX_PLAYERS || s->team < 0 || s->team > 255)
		return -EINVAL;
	reckon_espdu_init(&p);
	if (reckon_espdu_set_game_pose(&p, &pos, &vel, s->pose.yaw))
		return -EINVAL;
	p.send_ns = send_ns;
	p.seq = seq;
	p.id.site = ROLE_SITE;
	p.id.application = ROLE_APP;
	p.id.entity = (uint16_t)(idx + 1);
	p.force = (uint8_t)s->team;
	p.appearance = (s->pose.crouch ? APP_CROUCH : APP_UPRIGHT)
		       << APP_STATE_SHIFT;
	if (!s->alive)
		p.appearance |= APP_DESTROYED;
	*out = p;
	return 0;
}

int fps_espdu_to_state(const struct reckon_espdu *p, int *idx,
		       struct fps_state *out)
{
	struct fps_state s;
	double yaw;

	if (p->id.site != ROLE_SITE || p->id.application != ROLE_APP ||
	    p->id.entity < 1 || p->id.entity > LC_MAX_PLAYERS ||
	    reckon_psi_to_yaw(p->ori.psi, &yaw))
		return -EPROTO;
	memset(&s, 0, sizeof(s));
	s.pose.x = p->pos.x;
	s.pose.y = p->pos.y;
	s.pose.yaw = yaw;
	s.pose.crouch =
		((p->appearance >> APP_STATE_SHIFT) & 0xf) == APP_CROUCH;
	s.vx = p->vel.x;
	s.vy = p->vel.y;
	s.alive = (p->appearance & APP_DESTROYED) != APP_DESTROYED;
	s.team = p->force;
	*idx = p->id.entity - 1;
	*out = s;
	return 0;
}

void fps_echo_put(struct reckon_espdu *p, uint32_t tick, uint32_t hold_us)
{
	p->model = FPS_ECHO_MODEL;
	p->blob_len = FPS_ECHO_LEN;
	wire_put32(p->blob, tick);
	wire_put32(p->blob + 4, hold_us);
}

int fps_echo_get(const struct reckon_espdu *p, uint32_t *tick,
		 uint32_t *hold_us)
{
	if (p->model != FPS_ECHO_MODEL || p->blob_len != FPS_ECHO_LEN)
		return -ENOENT;
	*tick = wire_get32(p->blob);
	*hold_us = wire_get32(p->blob + 4);
	return 0;
}

int fps_bundle_split(const uint8_t *buf, size_t len, struct fps_span *sp,
		     int cap, int *n)
{
	size_t off = 0;
	int k = 0;

	if (!buf || len == 0 || len > FPS_DGRAM_MAX)
		return -EPROTO;
	while (off < len) {
		size_t l;

		if (len - off < FPS_PDU_HEADER || k == cap)
			return -EPROTO;
		l = wire_get16(buf + off + 8);
		if (l < FPS_PDU_HEADER || l > len - off)
			return -EPROTO;
		sp[k].off = (uint16_t)off;
		sp[k].len = (uint16_t)l;
		k++;
		off += l;
	}
	*n = k;
	return 0;
}

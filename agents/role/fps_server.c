/*
 * fps_server.c: the fps-server role (fps_server.h). A thin layer of wire
 * handling around agents/lagcomp: decode, hand to the lagcomp server,
 * encode its outputs as Detonation PDUs (hit record flags: APPEAL for a
 * provisional ALC hit, IRREFUTABLE for an overruled denial, TO_SHOOTER
 * for the shooter's copy), and send snapshots: each tick every joined
 * player's Entity State PDU is encoded once, the PDUs are packed into
 * bundles of at most FPS_DGRAM_MAX octets, and every joined client gets
 * the same bundles (N players: N x ceil(N / per-bundle) datagrams a tick
 * instead of N x N). RTT: a client's state update echoes the newest
 * server tick it received and how long it held it, so RTT = now - send
 * time of that tick - hold (the NTP-style measurement; the estimator of
 * the lagcomp config smooths it).
 */
#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "proto/dis_time.h"
#include "proto/lcreply.h"
#include "proto/warfare.h"
#include "role/fps.h"
#include "role/fps_server.h"
#include "role/update_espdu.h"

#define TICK_RING 1024

struct fps_server {
	struct fps_server_cfg c;
	struct lc_server lc;
	int64_t tick_ns, next_tick, end_ns;
	int64_t sent_ns[TICK_RING]; /* send time of tick k % TICK_RING */
	int joined[LC_MAX_PLAYERS];
	struct fps_server_stats st;
	uint8_t buf[FPS_DGRAM_MAX];
	/* this tick's snapshot bundles, back to back: bundle b is
	 * snap[bend[b - 1] .. bend[b]) (bend[-1] = 0), npdu[b] PDUs */
	uint8_t snap[LC_MAX_PLAYERS * RECKON_ESPDU_MAX_LEN];
	size_t bend[LC_MAX_PLAYERS];
	int npdu[LC_MAX_PLAYERS];
	uint64_t bundles; /* packed so far, this tick's included: the
			   * role_dgram.same of each is its 1-based count */
};

int fps_server_new(const struct fps_server_cfg *c, struct fps_server **out,
		   char *why, size_t whylen)
{
	struct fps_server *s;
	int err;

	if (!c->m || !(c->duration_s > 0) || c->snapshot_hz < 0 ||
	    c->snapshot_hz > c->lc.tick_hz) {
		snprintf(why, whylen, "snapshot_hz must be 0..tick_hz");
		return -EINVAL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->c = *c;
	if (!s->c.exercise)
		s->c.exercise = 1;
	err = lc_server_init(&s->lc, &c->lc, c->m, NULL, why, whylen);
	if (err) {
		free(s);
		return err;
	}
	s->tick_ns = (int64_t)llround(1e9 / c->lc.tick_hz);
	s->end_ns = (int64_t)llround(c->duration_s * 1e9);
	*out = s;
	return 0;
}

void fps_server_free(struct fps_server *s)
{
	if (!s)
		return;
	lc_server_free(&s->lc);
	free(s);
}

int64_t fps_server_next(const struct fps_server *s)
{
	int64_t t = s->next_tick * s->tick_ns;

	return t < s->end_ns ? t : INT64_MAX;
}

static int tx(struct fps_server *s, int dest, const uint8_t *buf, size_t len,
	      uint64_t same, role_emit_fn emit, void *arg)
{
	struct role_dgram d = {(uint16_t)dest, FPS_PORT_DIS, len, buf, same};
	int rc = emit(arg, &d);

	if (rc == ROLE_EMIT_FAILED) {
		s->st.tx_failed++;
		return 0;
	}
	if (rc == 0)
		s->st.tx++;
	return rc;
}

static int entity_id(int idx, struct reckon_entity_id *id)
{
	id->site = ROLE_SITE;
	id->application = ROLE_APP;
	id->entity = (uint16_t)(idx + 1);
	return 0;
}

/* One lagcomp output as a Detonation PDU to the victim or shooter. */
static int send_hit(struct fps_server *s, const struct lc_out *o,
		    int64_t now_ns, role_emit_fn emit, void *arg)
{
	const struct lc_verdict *v = &s->lc.v[o->hit_id - 1];
	struct reckon_detonation d;
	int to = o->kind == LC_OUT_HIT_VICTIM ? o->victim : o->shooter;
	size_t n;

	memset(&d, 0, sizeof(d));
	d.exercise = s->c.exercise;
	d.timestamp = reckon_dis_timestamp((uint64_t)now_ns, 0);
	entity_id(o->shooter, &d.firing);
	entity_id(o->victim, &d.target);
	d.event = (struct reckon_event_id){ROLE_SITE, ROLE_APP,
					   (uint16_t)v->shot_id};
	d.loc = (struct reckon_vec3){o->point[0], o->point[1], o->point[2]};
	d.loc_entity = (struct reckon_vec3){o->v_local[0], o->v_local[1],
					    o->v_local[2]};
	reckon_munition_rifle(&d.desc);
	d.result = RECKON_DET_ENTITY_IMPACT;
	d.has_hit = 1;
	d.hit.part = (uint8_t)o->part;
	d.hit.flags =
		(o->appeal ? RECKON_HIT_APPEAL : 0) |
		(o->irrefutable ? RECKON_HIT_IRREFUTABLE : 0) |
		(o->kind == LC_OUT_HIT_SHOOTER ? RECKON_HIT_TO_SHOOTER : 0);
	d.hit.mode = (uint8_t)s->c.lc.mode;
	d.hit.hit_id = o->hit_id;
	d.hit.tick = (uint64_t)(s->lc.tick < 0 ? 0 : s->lc.tick);
	if (reckon_detonation_encode(&d, s->buf, sizeof(s->buf), &n))
		return -EINVAL;
	return tx(s, to, s->buf, n, 0, emit, arg);
}

static int send_outs(struct fps_server *s, const struct lc_out *out, int n,
		     int64_t now_ns, role_emit_fn emit, void *arg)
{
	for (int i = 0; i < n; i++) {
		int rc = send_hit(s, &out[i], now_ns, emit, arg);

		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Encode every joined player's Entity State PDU into s->snap, cutting a
 * new bundle where the next PDU would take one past FPS_DGRAM_MAX.
 * Returns the number of bundles. */
static int pack(struct fps_server *s, int64_t k, int64_t now_ns)
{
	size_t at = 0, start = 0;
	int nb = 0;

	for (int p = 0; p < s->lc.nplayers; p++) {
		const struct lc_player *pl = &s->lc.p[p];
		struct fps_state st = {pl->pose, 0, 0, pl->alive, pl->team};
		struct reckon_espdu e;
		size_t n;

		if (!s->joined[p] ||
		    fps_state_to_espdu(p, &st, (uint64_t)now_ns, (uint32_t)k,
				       &e) ||
		    reckon_espdu_encode(&e, s->snap + at, sizeof(s->snap) - at,
					&n))
			continue;
		if (nb == 0 || at + n - start > FPS_DGRAM_MAX) {
			start = at;
			s->npdu[nb++] = 0;
		}
		at += n;
		s->bend[nb - 1] = at;
		s->npdu[nb - 1]++;
	}
	return nb;
}

static int snapshot(struct fps_server *s, int64_t k, int64_t now_ns,
		    role_emit_fn emit, void *arg)
{
	int nb = pack(s, k, now_ns);
	uint64_t id0 = s->bundles;

	s->bundles += (uint64_t)nb;
	for (int c = 0; c < s->lc.nplayers; c++) {
		if (!s->joined[c])
			continue;
		for (int b = 0; b < nb; b++) {
			size_t from = b ? s->bend[b - 1] : 0;
			uint64_t tx0 = s->st.tx;
			int rc = tx(s, c, s->snap + from, s->bend[b] - from,
				    id0 + (uint64_t)b + 1, emit, arg);

			if (rc < 0)
				return rc;
			if (s->st.tx != tx0)
				s->st.snap_pdus += (uint64_t)s->npdu[b];
		}
	}
	return 0;
}

/* Whether tick k carries a snapshot (fps_server_cfg.snapshot_hz). */
static int snapshot_due(const struct fps_server *s, int64_t k)
{
	int64_t hz = s->c.snapshot_hz, tick = s->c.lc.tick_hz;

	if (hz <= 0 || hz >= tick || k == 0)
		return 1;
	return k * hz / tick != (k - 1) * hz / tick;
}

int fps_server_advance(struct fps_server *s, int64_t now_ns, role_emit_fn emit,
		       void *arg)
{
	struct lc_out out[LC_MAX_OUT];
	int n, rc;

	while (fps_server_next(s) <= now_ns) {
		int64_t k = s->next_tick++;

		lc_server_tick(&s->lc, k, now_ns, out, LC_MAX_OUT, &n);
		rc = send_outs(s, out, n, now_ns, emit, arg);
		if (!rc && snapshot_due(s, k))
			rc = snapshot(s, k, now_ns, emit, arg);
		if (rc)
			return rc;
		s->sent_ns[k % TICK_RING] = now_ns;
	}
	return 0;
}

static int on_state(struct fps_server *s, int64_t now_ns,
		    const struct reckon_espdu *e, int *from)
{
	struct fps_state st;
	uint32_t tick, hold;
	int idx;

	if (fps_espdu_to_state(e, &idx, &st))
		return -EPROTO;
	if (!s->joined[idx]) {
		if (lc_server_join(&s->lc, idx, st.team, &st.pose))
			return -EPROTO;
		s->joined[idx] = 1;
	}
	if (lc_server_pose(&s->lc, idx, &st.pose, st.alive))
		return -EPROTO;
	*from = idx;
	s->st.rx_state++;
	if (!fps_echo_get(e, &tick, &hold) && (int64_t)tick < s->next_tick &&
	    (int64_t)tick >= s->next_tick - TICK_RING) {
		double rtt = (double)(now_ns - s->sent_ns[tick % TICK_RING] -
				      (int64_t)hold * 1000) /
			     1e6;

		if (rtt >= 0 && !lc_server_rtt(&s->lc, idx, now_ns, rtt))
			s->st.rtt_samples++;
	}
	return 0;
}

static int on_fire(struct fps_server *s, int64_t now_ns,
		   const struct reckon_fire *f, int *from, role_emit_fn emit,
		   void *arg)
{
	struct lc_out out[LC_MAX_OUT];
	struct lc_shot shot;
	double h = hypot(f->vel.x, f->vel.y);
	int idx = f->firing.entity - 1, n;

	if (idx < 0 || idx >= LC_MAX_PLAYERS || !s->joined[idx] ||
	    (h == 0 && f->vel.z == 0))
		return -EPROTO;
	shot.shot_id = f->event.event;
	shot.shooter = idx;
	shot.yaw = atan2(f->vel.y, f->vel.x) * 180 / M_PI;
	shot.pitch = atan2(f->vel.z, h) * 180 / M_PI;
	shot.screen_victim = f->target.entity ? f->target.entity - 1 : -1;
	if (lc_server_fire(&s->lc, &shot, now_ns, out, LC_MAX_OUT, &n, NULL))
		return -EPROTO;
	*from = idx;
	s->st.rx_fire++;
	return send_outs(s, out, n, now_ns, emit, arg);
}

static int on_reply(struct fps_server *s, int64_t now_ns,
		    const struct reckon_lcreply *r, int *from,
		    role_emit_fn emit, void *arg)
{
	struct lc_out out[LC_MAX_OUT];
	struct lc_pose pose = {r->x, r->y, r->yaw, r->crouch};
	int idx = r->victim - 1, n;

	if (idx < 0 || idx >= LC_MAX_PLAYERS || !s->joined[idx] ||
	    r->hit_id > s->lc.nv || s->lc.v[r->hit_id - 1].victim != idx)
		return -EPROTO;
	*from = idx;
	s->st.rx_reply++;
	if (lc_server_reply(&s->lc, r->hit_id,
			    r->verdict == RECKON_LCREPLY_DENY, &pose,
			    r->rendered_tick, now_ns, out, LC_MAX_OUT, &n))
		return 0; /* a duplicate or late reply: nothing to do */
	return send_outs(s, out, n, now_ns, emit, arg);
}

int fps_server_recv(struct fps_server *s, int64_t now_ns, const uint8_t *buf,
		    size_t len, int *from, role_emit_fn emit, void *arg)
{
	struct reckon_espdu e;
	struct reckon_fire f;
	struct reckon_lcreply r;
	int rc = -EPROTO;

	*from = -1;
	switch (reckon_dis_pdu_type(buf, len)) {
	case RECKON_DIS_PDU_ENTITY_STATE:
		if (reckon_espdu_decode(buf, len, &e) == RECKON_ESPDU_OK)
			rc = on_state(s, now_ns, &e, from);
		break;
	case RECKON_DIS_PDU_FIRE:
		if (!reckon_fire_decode(buf, len, &f, NULL, 0))
			rc = on_fire(s, now_ns, &f, from, emit, arg);
		break;
	default:
		if (!reckon_lcreply_decode(buf, len, &r, NULL, 0))
			rc = on_reply(s, now_ns, &r, from, emit, arg);
		break;
	}
	if (rc == -EPROTO) {
		s->st.rx_bad++;
		*from = -1;
		return 0;
	}
	return rc;
}

const struct lc_server *fps_server_lc(const struct fps_server *s)
{
	return &s->lc;
}

void fps_server_stats(const struct fps_server *s, struct fps_server_stats *o)
{
	*o = s->st;
}

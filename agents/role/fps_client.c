/*
 * fps_client.c: the fps-client role (fps_client.h). Rendering follows
 * the Source engine's interpolation (Bernier 2001): the client places
 * the server's timeline at newest tick + time since it arrived, renders
 * interp ms behind it, and interpolates position linearly between the
 * two snapshots whose ticks bracket that instant (yaw, stance and life
 * from the later one). The aim error is an independent N(0, sigma^2) in
 * yaw and in pitch from the client's own seeded stream. The victim side
 * is Lee's CLIENTRECEIVEFIRE (thesis Algorithm 4) run on every hit:
 * carry the impact offset onto the body part as it is now, trace to the
 * shooter's eye as rendered, and deny when a wall is in between.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "proto/dis_time.h"
#include "proto/lcreply.h"
#include "proto/warfare.h"
#include "proto/wire.h"
#include "role/fps.h"
#include "role/fps_client.h"
#include "role/update_espdu.h"
#include "world/geom.h"
#include "world/rng.h"

#define SNAP_KEEP  32
#define SHOT_RING  1024
#define VIEW_RANGE 4000.0

/* A remote player's snapshot, as much of it as rendering uses (the
 * velocity is not), in half a cache line: 64 rings of 32 of them a
 * client. */
struct snap {
	double x, y, yaw;
	uint32_t tick;
	uint8_t crouch, alive, team;
};

/* A remote player's ring of snapshots: its count, next slot and newest
 * tick. The snapshots are fps_client.ring[slot][player]: all players
 * usually share a slot number (one snapshot each a tick), so one tick's
 * snapshots are written, and rendered from, side by side. */
struct remote {
	int n, head;
	uint32_t top; /* the newest snapshot's tick, when n > 0 */
};

struct fps_client {
	struct fps_client_cfg c;
	int me;
	size_t own_at; /* the track's sample own_index found last */
	int64_t tick_ns, next_tick, end_ns;
	struct lc_body body;
	struct wrng rng;
	struct remote rem[LC_MAX_PLAYERS];
	struct snap ring[SNAP_KEEP][LC_MAX_PLAYERS];
	int64_t newest_tick, newest_recv; /* -1: nothing yet */
	uint32_t seq;
	int target;
	int64_t seen_since, next_fire;
	uint16_t shot_id;
	int64_t shot_sent[SHOT_RING];
	struct fps_client_stats st;
	uint8_t buf[FPS_DGRAM_MAX];
};

void fps_client_defaults(struct fps_client_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->tick_hz = 60;
	c->reaction_s = 0.25;
	c->aim_err_deg = 1.0;
	c->fire_period_s = 0.1;
	c->duration_s = 60;
	c->seed = 1;
	c->exercise = 1;
}

int fps_tracks_take(struct fps_track *k, uint32_t first, size_t nk,
		    const struct trace *t, size_t from)
{
	for (size_t j = from; j < t->n; j++) {
		const struct trace_sample *x = &t->s[j];
		struct fps_track *tk;

		if (x->entity < first || x->entity - first >= nk)
			continue;
		tk = &k[x->entity - first];
		if (trace_append(&tk->tr, x))
			return -ENOMEM;
	}
	return 0;
}

void fps_track_free(struct fps_track *k)
{
	trace_free(&k->tr);
	k->origin_ns = 0;
}

int fps_client_new(const struct fps_client_cfg *c, struct fps_client **out)
{
	struct fps_client *cl;

	if (!c->m || !c->track || !c->track->tr.n || c->entity >= LC_MAX_PLAYERS ||
	    c->tick_hz < 1 || c->tick_hz > 1000 || !(c->interp_ms >= 0) ||
	    !(c->reaction_s >= 0) || !(c->aim_err_deg >= 0) ||
	    !(c->fire_period_s > 0) || !(c->duration_s > 0))
		return -EINVAL;
	cl = calloc(1, sizeof(*cl));
	if (!cl)
		return -ENOMEM;
	cl->c = *c;
	cl->me = (int)c->entity;
	cl->tick_ns = (int64_t)llround(1e9 / c->tick_hz);
	cl->end_ns = (int64_t)llround(c->duration_s * 1e9);
	lc_body_default(&cl->body);
	wrng_seed(&cl->rng, c->seed, 0x6670730000ull + c->entity);
	cl->newest_tick = -1;
	cl->target = -1;
	*out = cl;
	return 0;
}

void fps_client_free(struct fps_client *cl)
{
	free(cl);
}

int64_t fps_client_next(const struct fps_client *cl)
{
	int64_t t = cl->next_tick * cl->tick_ns;

	return t < cl->end_ns ? t : INT64_MAX;
}

/* Index of this client's newest trace sample at or before relative time
 * t (0 when t is before the first). The ticks ask for growing times:
 * from the previous answer, a step or two forward finds it. */
static size_t own_index(struct fps_client *cl, int64_t t)
{
	const struct fps_track *k = cl->c.track;
	const struct trace_sample *s = k->tr.s;
	size_t lo = 0, hi = k->tr.n, i = cl->own_at;

	t += k->origin_ns;
	if (s[i].t_ns <= t) {
		while (i + 1 < k->tr.n && s[i + 1].t_ns <= t)
			i++;
		return cl->own_at = i;
	}
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (s[mid].t_ns <= t)
			lo = mid;
		else
			hi = mid;
	}
	return cl->own_at = lo;
}

/* This client's true state at relative time t: its newest trace sample
 * at or before t. */
static struct fps_state own_state(struct fps_client *cl, int64_t t)
{
	const struct trace_sample *s = &cl->c.track->tr.s[own_index(cl, t)];
	struct fps_state st;

	memset(&st, 0, sizeof(st));
	st.pose =
		(struct lc_pose){s->x, s->y, s->yaw, s->stance == TRACE_CROUCH};
	st.vx = s->vx;
	st.vy = s->vy;
	st.alive = s->alive;
	st.team = s->team;
	return st;
}

static int tx(struct fps_client *cl, size_t len, role_emit_fn emit, void *arg)
{
	struct role_dgram d = {0, FPS_PORT_DIS, len, cl->buf, 0};
	int rc = emit(arg, &d);

	return rc == ROLE_EMIT_FAILED ? 0 : rc;
}

static void snap_state(const struct snap *s, struct fps_state *out,
		       int64_t *tick)
{
	memset(out, 0, sizeof(*out));
	out->pose = (struct lc_pose){s->x, s->y, s->yaw, s->crouch};
	out->alive = s->alive;
	out->team = s->team;
	*tick = s->tick;
}

/* The server tick the remote players are rendered at, at now: the
 * interpolation delay behind the newest snapshot's tick, advanced by the
 * time since it came. */
static double render_tick(const struct fps_client *cl, int64_t now)
{
	return (double)cl->newest_tick +
	       ((double)(now - cl->newest_recv) - cl->c.interp_ms * 1e6) /
		       (double)cl->tick_ns;
}

/* Remote player p as rendered at server tick rt (render_tick): 0 and
 * *out, -ENOENT if never seen. *tick gets the newest snapshot tick the
 * picture uses. The ring is kept in tick order (on_snapshot), so walking
 * back from the newest finds b, the oldest snapshot after the render
 * time, and a, the newest at or before it, after a step or two. */
static int render(const struct fps_client *cl, int p, double rt,
		  struct fps_state *out, int64_t *tick)
{
	const struct remote *r = &cl->rem[p];
	const struct snap *a = NULL, *b = NULL;

	if (!r->n)
		return -ENOENT;
	for (int i = 1; i <= r->n; i++) {
		const struct snap *s =
			&cl->ring[(r->head - i + SNAP_KEEP) % SNAP_KEEP][p];

		if (s->tick <= rt) {
			a = s;
			break;
		}
		b = s;
	}
	if (!a || !b) {
		/* before the oldest or after the newest: hold the nearest */
		snap_state(a ? a : b, out, tick);
		return 0;
	}
	{
		double f = (rt - (double)a->tick) /
			   (double)((int64_t)b->tick - (int64_t)a->tick);

		snap_state(b, out, tick);
		out->pose.x = a->x + f * (b->x - a->x);
		out->pose.y = a->y + f * (b->y - a->y);
	}
	return 0;
}

static int enemies(const struct fps_state *a, const struct fps_state *b)
{
	return a->team == 0 || a->team != b->team;
}

/* The rendered world: poses and alive flags of every player, this one
 * at its true state. Returns the number of slots used. */
static int rendered_world(const struct fps_client *cl, int64_t now,
			  const struct fps_state *me, struct fps_state *w,
			  uint8_t *alive)
{
	double rt = render_tick(cl, now);
	int n = 0;

	memset(w, 0, LC_MAX_PLAYERS * sizeof(*w));
	for (int p = 0; p < LC_MAX_PLAYERS; p++) {
		int64_t t;

		alive[p] = 0;
		if (p == cl->me) {
			w[p] = *me;
			alive[p] = (uint8_t)me->alive;
		} else if (!render(cl, p, rt, &w[p], &t)) {
			alive[p] = (uint8_t)w[p].alive;
		} else {
			continue;
		}
		n = p + 1;
	}
	return n;
}

/* An enemy in view range: its torso centre and squared distance from
 * the eye. */
struct cand {
	double d2, c[2];
	int p;
};

/* Whether enemy p is in view range: fills k. */
static int in_range(const struct fps_client *cl, const struct fps_state *w,
		    const uint8_t *alive, int p, const double eye[3],
		    struct cand *k)
{
	double t[3];

	if (p == cl->me || !alive[p] || !enemies(&w[cl->me], &w[p]))
		return 0;
	lc_part_centre(&cl->body, &w[p].pose, LC_PART_TORSO, t);
	k->p = p;
	k->c[0] = t[0];
	k->c[1] = t[1];
	k->d2 = (t[0] - eye[0]) * (t[0] - eye[0]) +
		(t[1] - eye[1]) * (t[1] - eye[1]);
	return k->d2 < VIEW_RANGE * VIEW_RANGE;
}

/* The target: the current one while it stays in sight, else the nearest
 * enemy in sight (the lowest index among equals), -1 if none. Line of
 * sight, the costly test, is traced nearest first and only until one
 * passes. */
static int pick_target(struct fps_client *cl, const struct fps_state *w,
		       const uint8_t *alive, int n)
{
	struct cand c[LC_MAX_PLAYERS], k;
	double eye[3];
	int nc = 0;

	lc_eye(&cl->body, &w[cl->me].pose, eye);
	if (cl->target >= 0 && cl->target < n &&
	    in_range(cl, w, alive, cl->target, eye, &k) &&
	    geom_los(cl->c.m, eye[0], eye[1], k.c[0], k.c[1]))
		return cl->target; /* keep tracking a visible target */
	for (int p = 0; p < n; p++) {
		int i;

		if (p == cl->target || !in_range(cl, w, alive, p, eye, &k))
			continue;
		for (i = nc++; i > 0 && c[i - 1].d2 > k.d2; i--)
			c[i] = c[i - 1];
		c[i] = k;
	}
	for (int i = 0; i < nc; i++)
		if (geom_los(cl->c.m, eye[0], eye[1], c[i].c[0], c[i].c[1]))
			return c[i].p;
	return -1;
}

static int fire(struct fps_client *cl, int64_t now, const struct fps_state *w,
		const uint8_t *alive, int n, role_emit_fn emit, void *arg)
{
	const struct fps_state *me = &w[cl->me];
	struct lc_pose poses[LC_MAX_PLAYERS];
	struct lc_trace_hit h;
	struct reckon_fire f;
	double eye[3], c[3], dir[3], yaw, pitch;
	size_t len;

	lc_eye(&cl->body, &me->pose, eye);
	lc_part_centre(&cl->body, &w[cl->target].pose, LC_PART_TORSO, c);
	yaw = atan2(c[1] - eye[1], c[0] - eye[0]) * 180 / M_PI +
	      cl->c.aim_err_deg * wrng_normal(&cl->rng);
	pitch = atan2(c[2] - eye[2], hypot(c[0] - eye[0], c[1] - eye[1])) *
			180 / M_PI +
		cl->c.aim_err_deg * wrng_normal(&cl->rng);
	lc_aim_dir(yaw, pitch, dir);
	for (int p = 0; p < n; p++)
		poses[p] = w[p].pose;
	memset(&f, 0, sizeof(f));
	f.exercise = cl->c.exercise;
	f.timestamp = reckon_dis_timestamp((uint64_t)now, 0);
	f.firing = (struct reckon_entity_id){ROLE_SITE, ROLE_APP,
					     (uint16_t)(cl->me + 1)};
	if (lc_trace(cl->c.m, &cl->body, eye, dir, 7874, poses, alive, n,
		     cl->me, &h)) {
		f.target = (struct reckon_entity_id){ROLE_SITE, ROLE_APP,
						     (uint16_t)(h.victim + 1)};
		cl->st.screen_hits++;
	}
	f.event = (struct reckon_event_id){ROLE_SITE, ROLE_APP, ++cl->shot_id};
	f.loc = (struct reckon_vec3){eye[0], eye[1], eye[2]};
	reckon_munition_rifle(&f.desc);
	f.vel = (struct reckon_vec3){dir[0] * RECKON_HITSCAN_SPEED,
				     dir[1] * RECKON_HITSCAN_SPEED,
				     dir[2] * RECKON_HITSCAN_SPEED};
	f.range = 7874;
	if (reckon_fire_encode(&f, cl->buf, sizeof(cl->buf), &len))
		return -EINVAL;
	cl->shot_sent[cl->shot_id % SHOT_RING] = now;
	cl->st.shots++;
	return tx(cl, len, emit, arg);
}

/* One tick's fight: render the world at now, pick a target and fire.
 * The reaction time and the rate of fire count in ticks (tick_t is the
 * tick's nominal time, as a fixed-timestep game simulation does), so a
 * host that wakes late shoots at the same ticks as one that does not. */
static int combat(struct fps_client *cl, int64_t now, int64_t tick_t,
		  const struct fps_state *me, role_emit_fn emit, void *arg)
{
	struct fps_state w[LC_MAX_PLAYERS];
	uint8_t alive[LC_MAX_PLAYERS];
	int n, t;

	if (!me->alive) {
		cl->target = -1;
		return 0;
	}
	n = rendered_world(cl, now, me, w, alive);
	t = pick_target(cl, w, alive, n);
	if (t != cl->target)
		cl->seen_since = tick_t;
	cl->target = t;
	if (t < 0 ||
	    tick_t - cl->seen_since < (int64_t)(cl->c.reaction_s * 1e9) ||
	    tick_t < cl->next_fire)
		return 0;
	cl->next_fire = tick_t + (int64_t)(cl->c.fire_period_s * 1e9);
	return fire(cl, now, w, alive, n, emit, arg);
}

static int send_state(struct fps_client *cl, int64_t now,
		      const struct fps_state *me, role_emit_fn emit, void *arg)
{
	struct reckon_espdu e;
	size_t len;

	if (fps_state_to_espdu(cl->me, me, (uint64_t)now, ++cl->seq, &e))
		return -EINVAL;
	if (cl->newest_tick >= 0) {
		int64_t hold = (now - cl->newest_recv) / 1000;

		fps_echo_put(&e, (uint32_t)cl->newest_tick,
			     (uint32_t)(hold < 0 ? 0 : hold));
	}
	if (reckon_espdu_encode(&e, cl->buf, sizeof(cl->buf), &len))
		return -EINVAL;
	return tx(cl, len, emit, arg);
}

int fps_client_advance(struct fps_client *cl, int64_t now_ns, role_emit_fn emit,
		       void *arg)
{
	while (fps_client_next(cl) <= now_ns) {
		int64_t t = cl->next_tick++ * cl->tick_ns;
		struct fps_state me = own_state(cl, t);
		int rc = send_state(cl, now_ns, &me, emit, arg);

		if (!rc)
			rc = combat(cl, now_ns, t, &me, emit, arg);
		if (rc)
			return rc;
		cl->st.ticks++;
	}
	return 0;
}

/* Keep snapshot n in player p's ring in tick order: it takes the slot
 * after the newest (when the ring is full, the oldest tick's) and moves
 * back past any newer tick (a datagram that overtook it). */
static void remote_add(struct fps_client *cl, int p, const struct snap *n)
{
	struct remote *r = &cl->rem[p];
	int i = r->head;

	cl->ring[i][p] = *n;
	r->head = (r->head + 1) % SNAP_KEEP;
	if (r->n < SNAP_KEEP)
		r->n++;
	if (r->n == 1 || n->tick >= r->top) {
		r->top = n->tick;
		return; /* in order: the common case */
	}
	for (int k = 1; k < r->n; k++) {
		int j = (i - 1 + SNAP_KEEP) % SNAP_KEEP;
		struct snap t;

		if (cl->ring[j][p].tick <= cl->ring[i][p].tick)
			break;
		t = cl->ring[j][p];
		cl->ring[j][p] = cl->ring[i][p];
		cl->ring[i][p] = t;
		i = j;
	}
}

/* One decoded snapshot PDU: idx's state at server tick s.tick. */
struct snap_pdu {
	int idx;
	struct snap s;
};

/* The cache of decoded bundles (fps_client.h). A slot holds a bundle's
 * octets and its PDUs decoded; the slot of a bundle is picked by its
 * first PDU's entity number, which differs between the bundles of one
 * tick. A hit needs the same octets, so it gives what decoding would. */
#define CACHE_SLOTS LC_MAX_PLAYERS
#define CACHE_PDUS  (FPS_DGRAM_MAX / RECKON_ESPDU_MIN_LEN)

struct cache_slot {
	size_t len;
	int n;
	uint32_t sender; /* the bundle's mark (fps_client_recv_same), or */
	uint64_t same;	 /* same 0 */
	uint8_t buf[FPS_DGRAM_MAX];
	struct snap_pdu u[CACHE_PDUS];
};

struct fps_bundle_cache {
	struct cache_slot s[CACHE_SLOTS];
};

int fps_bundle_cache_new(struct fps_bundle_cache **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void fps_bundle_cache_free(struct fps_bundle_cache *c)
{
	free(c);
}

static struct cache_slot *cache_slot(struct fps_bundle_cache *c,
				     const uint8_t *buf, size_t len)
{
	return &c->s[(len >= 18 ? wire_get16(buf + 16) : 0) % CACHE_SLOTS];
}

static void on_snapshot(struct fps_client *cl, int64_t now,
			const struct snap_pdu *u)
{
	cl->st.rx_snap++;
	if ((int64_t)u->s.tick > cl->newest_tick) {
		cl->newest_tick = u->s.tick;
		cl->newest_recv = now;
	}
	if (u->idx == cl->me)
		return; /* the authoritative echo of itself: unused */
	remote_add(cl, u->idx, &u->s);
}

/* Decode a snapshot bundle into u: 0, or -EPROTO when one of its PDUs
 * is not an fps entity's Entity State PDU. */
static int decode_bundle(const uint8_t *buf, const struct fps_span *sp, int n,
			 struct snap_pdu *u)
{
	for (int i = 0; i < n; i++) {
		const uint8_t *p = buf + sp[i].off;
		struct reckon_espdu e;
		struct fps_state st;

		if (reckon_dis_pdu_type(p, sp[i].len) !=
			    RECKON_DIS_PDU_ENTITY_STATE ||
		    reckon_espdu_decode(p, sp[i].len, &e) != RECKON_ESPDU_OK ||
		    fps_espdu_to_state(&e, &u[i].idx, &st))
			return -EPROTO;
		u[i].s = (struct snap){.x = st.pose.x,
				       .y = st.pose.y,
				       .yaw = st.pose.yaw,
				       .tick = e.seq,
				       .crouch = (uint8_t)st.pose.crouch,
				       .alive = (uint8_t)st.alive,
				       .team = (uint8_t)st.team};
	}
	return 0;
}

/* The cache's decoded copy of bundle buf, NULL if it has none: one with
 * the same mark (a mark vouches for the octets), or the same octets. */
static const struct cache_slot *cache_hit(struct fps_bundle_cache *c,
					  const uint8_t *buf, size_t len,
					  uint32_t sender, uint64_t same)
{
	const struct cache_slot *k = c ? cache_slot(c, buf, len) : NULL;

	if (!k || k->len != len)
		return NULL;
	if (same && k->same == same && k->sender == sender)
		return k;
	return memcmp(k->buf, buf, len) ? NULL : k;
}

static void take_bundle(struct fps_client *cl, int64_t now,
			const struct snap_pdu *u, int n)
{
	for (int i = 0; i < n; i++)
		on_snapshot(cl, now, &u[i]);
}

/* A snapshot bundle: every PDU must be an fps entity's Entity State PDU,
 * or the whole datagram is refused (counted once in rx_bad) and none of
 * it is used. A bundle the cache holds was split and decoded when it
 * went in. */
static int on_bundle(struct fps_client *cl, int64_t now, const uint8_t *buf,
		     size_t len, uint32_t sender, uint64_t same)
{
	struct fps_bundle_cache *c = cl->c.cache;
	const struct cache_slot *hit = cache_hit(c, buf, len, sender, same);
	struct fps_span sp[FPS_BUNDLE_PDUS];
	struct snap_pdu mine[FPS_BUNDLE_PDUS];
	int n;

	if (hit) {
		take_bundle(cl, now, hit->u, hit->n);
		return 0;
	}
	if (fps_bundle_split(buf, len, sp, FPS_BUNDLE_PDUS, &n) ||
	    decode_bundle(buf, sp, n, mine)) {
		cl->st.rx_bad++;
		return 0;
	}
	if (c && n <= CACHE_PDUS) {
		struct cache_slot *k = cache_slot(c, buf, len);

		k->len = len;
		k->n = n;
		k->sender = sender;
		k->same = same;
		memcpy(k->buf, buf, len);
		memcpy(k->u, mine, (size_t)n * sizeof(*mine));
	}
	take_bundle(cl, now, mine, n);
	return 0;
}

/* CLIENTRECEIVEFIRE: the SBC test and the reply. */
static int on_hit_taken(struct fps_client *cl, int64_t now,
			const struct reckon_detonation *d, role_emit_fn emit,
			void *arg)
{
	struct fps_state me = own_state(cl, now), sh;
	struct lc_out hit = {.part = d->hit.part};
	struct reckon_lcreply r;
	int64_t tick = -1;
	int shooter = d->firing.entity - 1, sbc;
	size_t len;

	cl->st.hits_taken++;
	if (d->hit.flags & RECKON_HIT_IRREFUTABLE) {
		cl->st.irrefutable++;
		return 0;
	}
	if (shooter < 0 || shooter >= LC_MAX_PLAYERS ||
	    render(cl, shooter, render_tick(cl, now), &sh, &tick))
		return 0; /* a shooter never seen: nothing to test against */
	hit.v_local[0] = d->loc_entity.x;
	hit.v_local[1] = d->loc_entity.y;
	hit.v_local[2] = d->loc_entity.z;
	sbc = lc_client_check(cl->c.m, &cl->body, &me.pose, &hit, &sh.pose);
	cl->st.sbc_seen += (uint64_t)sbc;
	memset(&r, 0, sizeof(r));
	r.verdict = sbc ? RECKON_LCREPLY_DENY : RECKON_LCREPLY_CONFIRM;
	r.flags = d->hit.flags & RECKON_HIT_APPEAL ? RECKON_LCREPLY_PROVISIONAL
						   : 0;
	r.part = d->hit.part;
	r.hit_id = d->hit.hit_id;
	r.victim = (uint16_t)(cl->me + 1);
	r.rendered_tick = (uint32_t)(cl->newest_tick < 0 ? 0 : cl->newest_tick);
	r.x = me.pose.x;
	r.y = me.pose.y;
	r.yaw = me.pose.yaw;
	r.crouch = (uint8_t)me.pose.crouch;
	if (reckon_lcreply_encode(&r, cl->buf, sizeof(cl->buf), &len))
		return -EINVAL;
	cl->st.replies++;
	return tx(cl, len, emit, arg);
}

int fps_client_recv(struct fps_client *cl, int64_t now_ns, const uint8_t *buf,
		    size_t len, role_emit_fn emit, void *arg)
{
	return fps_client_recv_same(cl, now_ns, buf, len, 0, 0, emit, arg);
}

int fps_client_recv_same(struct fps_client *cl, int64_t now_ns,
			 const uint8_t *buf, size_t len, uint32_t sender,
			 uint64_t same, role_emit_fn emit, void *arg)
{
	struct fps_span sp[FPS_BUNDLE_PDUS];
	struct reckon_detonation d;
	int n;

	if (reckon_dis_pdu_type(buf, len) == RECKON_DIS_PDU_ENTITY_STATE)
		return on_bundle(cl, now_ns, buf, len, sender, same);
	if (fps_bundle_split(buf, len, sp, FPS_BUNDLE_PDUS, &n) || n != 1 ||
	    reckon_dis_pdu_type(buf, len) != RECKON_DIS_PDU_DETONATION ||
	    reckon_detonation_decode(buf, len, &d, NULL, 0) || !d.has_hit) {
		cl->st.rx_bad++;
		return 0;
	}
	if (d.hit.flags & RECKON_HIT_TO_SHOOTER) {
		if (d.firing.entity == cl->me + 1) {
			cl->st.hits_confirmed++;
			cl->st.confirm_delay_sum_ms +=
				(double)(now_ns - cl->shot_sent[d.event.event %
								SHOT_RING]) /
				1e6;
		}
		return 0;
	}
	if (d.target.entity != cl->me + 1) {
		cl->st.rx_bad++;
		return 0;
	}
	return on_hit_taken(cl, now_ns, &d, emit, arg);
}

void fps_client_use_cache(struct fps_client *cl, struct fps_bundle_cache *c)
{
	cl->c.cache = c;
}

void fps_client_stats(const struct fps_client *cl, struct fps_client_stats *o)
{
	*o = cl->st;
}

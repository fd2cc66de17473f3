/*
 * server.c: the authoritative side of Lee's lag compensation (thesis
 * chapter 7, Algorithms 2-4, rebuilt in the extraction's sections 1.3,
 * 3.1 and 4.3). SERVERRECEIVEFIRE rolls every other player back
 * round((RTT + interp) / tick) frames (TLC, ALC; CLC only when the
 * shooter's RTT is within the cap, and per target only while its rewind
 * distance is within the distance cap, else the newest frame is used),
 * traces from the shooter's current eye, and registers the hit. In ALC a
 * hit on a victim whose RTT is <= lowPing (and, optionally, from a
 * shooter whose RTT is >= highPing, as LAGCOM's code does) is
 * provisional: the victim confirms or denies it, a denial is re-checked
 * from the shooter's eye at the snapshot tick the victim rendered
 * (ambiguity 14) and upheld or overruled, and no reply within the
 * timeout (2 x lowPing, section 7.4) counts as a confirm. Every hit, in
 * every mode, records the victim's SBC-on-arrival reply (ambiguity 16).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lagcomp/lagcomp.h"
#include "predict/vec3.h"
#include "world/geom.h"

int lc_server_init(struct lc_server *s, const struct lc_config *c,
		   const struct map *m, const struct lc_body *b, char *why,
		   size_t whylen)
{
	int err = lc_config_check(c, why, whylen);

	if (err)
		return err;
	memset(s, 0, sizeof(*s));
	s->cfg = *c;
	s->m = m;
	if (b)
		s->body = *b;
	else
		lc_body_default(&s->body);
	s->tick = -1;
	return 0;
}

void lc_server_free(struct lc_server *s)
{
	free(s->v);
	s->v = NULL;
	s->nv = s->capv = 0;
}

static int valid(const struct lc_server *s, int id)
{
	return id >= 0 && id < LC_MAX_PLAYERS && s->p[id].used;
}

static int pose_ok(const struct lc_pose *p)
{
	return isfinite(p->x) && isfinite(p->y) && isfinite(p->yaw);
}

int lc_server_join(struct lc_server *s, int id, int team,
		   const struct lc_pose *p)
{
	struct lc_player *pl;

	if (id < 0 || id >= LC_MAX_PLAYERS || !pose_ok(p))
		return -EINVAL;
	pl = &s->p[id];
	if (pl->used)
		return -EEXIST;
	memset(pl, 0, sizeof(*pl));
	pl->used = 1;
	pl->alive = 1;
	pl->team = team;
	pl->pose = *p;
	lc_history_init(&pl->hist, s->cfg.tick_hz, s->cfg.history_s);
	lc_ping_init(&pl->ping, s->cfg.ping);
	if (id >= s->nplayers)
		s->nplayers = id + 1;
	return 0;
}

int lc_server_pose(struct lc_server *s, int id, const struct lc_pose *p,
		   int alive)
{
	if (!valid(s, id) || !pose_ok(p))
		return -EINVAL;
	s->p[id].pose = *p;
	s->p[id].alive = alive != 0;
	return 0;
}

int lc_server_rtt(struct lc_server *s, int id, int64_t t_ns, double rtt_ms)
{
	if (!valid(s, id))
		return -EINVAL;
	return lc_ping_sample(&s->p[id].ping, t_ns, rtt_ms);
}

double lc_server_rtt_est(const struct lc_server *s, int id)
{
	return valid(s, id) ? lc_ping_get(&s->p[id].ping) : 0;
}

static int emit(struct lc_out *out, int maxout, int *nout,
		const struct lc_out *o)
{
	if (*nout >= maxout)
		return -ENOSPC;
	out[(*nout)++] = *o;
	return 0;
}

static struct lc_out make_out(const struct lc_verdict *v, size_t vi,
			      enum lc_out_kind k)
{
	struct lc_out o = {
		.kind = k,
		.hit_id = (uint32_t)(vi + 1),
		.shooter = v->shooter,
		.victim = v->victim,
		.part = v->part,
		.appeal = k == LC_OUT_HIT_VICTIM && v->appeal &&
			  v->state == LC_V_PENDING,
	};

	v3_copy(o.v_local, v->v_local);
	v3_copy(o.point, v->point);
	return o;
}

/* Mark a verdict registered and tell the shooter. */
static int register_hit(struct lc_server *s, size_t vi, enum lc_state st,
			int64_t t_ns, struct lc_out *out, int maxout, int *nout)
{
	struct lc_verdict *v = &s->v[vi];
	struct lc_out o;

	v->state = st;
	v->registered = 1;
	v->result_ns = t_ns;
	o = make_out(v, vi, LC_OUT_HIT_SHOOTER);
	return emit(out, maxout, nout, &o);
}

static void unpend(struct lc_server *s, uint32_t hit_id)
{
	for (int i = 0; i < s->npending; i++) {
		if (s->pending[i] == hit_id) {
			s->pending[i] = s->pending[--s->npending];
			return;
		}
	}
}

int lc_server_tick(struct lc_server *s, int64_t tick, int64_t t_ns,
		   struct lc_out *out, int maxout, int *nout)
{
	int64_t tmo = (int64_t)llround(s->cfg.alc_timeout_ms * 1e6);

	*nout = 0;
	s->tick = tick;
	for (int i = 0; i < s->nplayers; i++) {
		struct lc_player *pl = &s->p[i];

		if (pl->used)
			lc_history_push(&pl->hist, tick, &pl->pose, pl->alive);
	}
	for (int i = 0; i < s->npending && *nout < maxout;) {
		size_t vi = s->pending[i] - 1;

		if (t_ns - s->v[vi].recv_ns < tmo) {
			i++;
			continue;
		}
		s->pending[i] = s->pending[--s->npending];
		register_hit(s, vi, LC_V_TIMEOUT, t_ns, out, maxout, nout);
	}
	return 0;
}

static int grow(struct lc_server *s)
{
	size_t cap;
	struct lc_verdict *v;

	if (s->nv < s->capv)
		return 0;
	cap = s->capv ? 2 * s->capv : 256;
	if (cap > UINT32_MAX - 1)
		return -ENOMEM;
	v = realloc(s->v, cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	s->v = v;
	s->capv = cap;
	return 0;
}

/* Frames to rewind for this shot; 0 (and *comp = 0) when not
 * compensated. */
static int rewind_frames(const struct lc_server *s, double rtt, int *comp)
{
	const struct lc_config *c = &s->cfg;

	*comp = 0;
	if (c->mode == LC_MODE_NONE)
		return 0;
	if (c->mode == LC_MODE_CLC && c->clc_rtt_cap_ms > 0 &&
	    rtt > c->clc_rtt_cap_ms)
		return 0;
	*comp = 1;
	return lc_rollback_frames(rtt, c->interp_ms, c->tick_hz);
}

static double eye_dist(const struct lc_body *b, const struct lc_pose *p,
		       const struct lc_pose *q)
{
	double e[3], f[3];

	lc_eye(b, p, e);
	lc_eye(b, q, f);
	return v3_dist(e, f);
}

/* The world the shot is judged in: every player k frames back, except
 * the shooter (current pose) and, under a CLC distance cap, targets
 * that moved farther than the cap (newest frame). */
static void judged_world(const struct lc_server *s, int shooter, int k,
			 struct lc_pose *poses, uint8_t *alive)
{
	for (int i = 0; i < s->nplayers; i++) {
		const struct lc_player *pl = &s->p[i];
		const struct lc_frame *f = lc_history_back(&pl->hist, k);
		const struct lc_frame *nw = lc_history_back(&pl->hist, 0);

		alive[i] = pl->used && pl->alive;
		poses[i] = pl->pose;
		if (!pl->used || i == shooter || !f)
			continue;
		poses[i] = f->pose;
		alive[i] = f->alive;
		if (s->cfg.mode == LC_MODE_CLC && s->cfg.clc_max_rewind > 0 &&
		    eye_dist(&s->body, &f->pose, &nw->pose) >
			    s->cfg.clc_max_rewind) {
			poses[i] = nw->pose;
			alive[i] = nw->alive;
		}
	}
}

static int can_damage(const struct lc_server *s, int a, int b)
{
	int ta = s->p[a].team, tb = s->p[b].team;

	return s->p[a].alive && s->p[b].alive && (ta == 0 || ta != tb);
}

static void judge_hit(struct lc_server *s, struct lc_verdict *v,
		      const struct lc_trace_hit *h, const struct lc_pose *poses)
{
	const struct lc_config *c = &s->cfg;
	const struct lc_frame *nw = lc_history_back(&s->p[h->victim].hist, 0);

	v->victim = h->victim;
	v->victim_rtt_ms = lc_ping_get(&s->p[h->victim].ping);
	v->part = h->part;
	v3_copy(v->point, h->point);
	v3_copy(v->end, h->point);
	v->victim_xy[0] = poses[h->victim].x;
	v->victim_xy[1] = poses[h->victim].y;
	lc_offset_local(&s->body, &poses[h->victim], h->part, h->point,
			v->v_local);
	v->rewind_dist =
		nw ? eye_dist(&s->body, &poses[h->victim], &nw->pose) : 0;
	v->appeal = c->mode == LC_MODE_ALC &&
		    v->victim_rtt_ms <= c->alc_low_ping_ms &&
		    (c->alc_high_ping_ms <= 0 ||
		     v->shooter_rtt_ms >= c->alc_high_ping_ms) &&
		    s->npending < LC_MAX_PENDING;
}

/* The ray as drawn (docs/viewer.md): from the eye to the first wall
 * along the aim, at most trace_dist; a hit moves the end to its impact. */
static void ray_end(const struct lc_server *s, const double eye[3],
		    const double dir[3], struct lc_verdict *v)
{
	double hl = hypot(dir[0], dir[1]), d = s->cfg.trace_dist;

	if (hl > 0 && s->m)
		d = geom_raycast(s->m, eye[0], eye[1], dir[0] / hl, dir[1] / hl,
				 d * hl) /
		    hl;
	v3_copy(v->eye, eye);
	for (int i = 0; i < 3; i++)
		v->end[i] = eye[i] + dir[i] * d;
}

int lc_server_fire(struct lc_server *s, const struct lc_shot *shot,
		   int64_t t_ns, struct lc_out *out, int maxout, int *nout,
		   size_t *vi_out)
{
	struct lc_pose poses[LC_MAX_PLAYERS];
	uint8_t alive[LC_MAX_PLAYERS];
	struct lc_trace_hit h;
	struct lc_verdict *v;
	double eye[3], dir[3];
	size_t vi;
	int err, k, comp;
	struct lc_out o;

	*nout = 0;
	if (!valid(s, shot->shooter) || !isfinite(shot->yaw) ||
	    !isfinite(shot->pitch) || maxout < 2)
		return -EINVAL;
	err = grow(s);
	if (err)
		return err;
	vi = s->nv++;
	v = &s->v[vi];
	memset(v, 0, sizeof(*v));
	v->shot_id = shot->shot_id;
	v->shooter = shot->shooter;
	v->victim = -1;
	v->part = -1;
	v->screen_victim = shot->screen_victim;
	v->recv_ns = t_ns;
	v->tick = s->tick;
	v->sbc = -1;
	v->result_ns = -1;
	v->shooter_rtt_ms = lc_ping_get(&s->p[shot->shooter].ping);
	k = rewind_frames(s, v->shooter_rtt_ms, &comp);
	v->rollback = k;
	v->compensated = comp;
	if (vi_out)
		*vi_out = vi;

	judged_world(s, shot->shooter, k, poses, alive);
	lc_eye(&s->body, &s->p[shot->shooter].pose, eye);
	lc_aim_dir(shot->yaw, shot->pitch, dir);
	ray_end(s, eye, dir, v);
	if (!lc_trace(s->m, &s->body, eye, dir, s->cfg.trace_dist, poses, alive,
		      s->nplayers, shot->shooter, &h) ||
	    !can_damage(s, shot->shooter, h.victim)) {
		v->state = LC_V_MISS;
		return 0;
	}
	judge_hit(s, v, &h, poses);
	if (v->appeal) {
		v->state = LC_V_PENDING;
		s->pending[s->npending++] = (uint32_t)(vi + 1);
		o = make_out(v, vi, LC_OUT_HIT_VICTIM);
		return emit(out, maxout, nout, &o);
	}
	v->state = LC_V_FINAL;
	o = make_out(v, vi, LC_OUT_HIT_VICTIM);
	emit(out, maxout, nout, &o);
	return register_hit(s, vi, LC_V_FINAL, t_ns, out, maxout, nout);
}

/* The server's check of a denial: 1 when it agrees there was SBC. */
static int verify_denial(struct lc_server *s, struct lc_verdict *v,
			 const struct lc_pose *claimed, int64_t rendered_tick)
{
	const struct lc_player *sh = &s->p[v->shooter];
	const struct lc_frame *f = lc_history_at(&sh->hist, rendered_tick);
	const struct lc_pose *auth = &s->p[v->victim].pose;
	double eye[3];

	if (hypot(claimed->x - auth->x, claimed->y - auth->y) >
	    s->cfg.pose_tol) {
		v->pose_mismatch = 1;
		return 0;
	}
	lc_eye(&s->body, f ? &f->pose : &sh->pose, eye);
	return lc_sbc(s->m, &s->body, claimed, v->part, v->v_local, eye);
}

int lc_server_reply(struct lc_server *s, uint32_t hit_id, int deny,
		    const struct lc_pose *victim_pose, int64_t rendered_tick,
		    int64_t t_ns, struct lc_out *out, int maxout, int *nout)
{
	struct lc_verdict *v;
	size_t vi;
	struct lc_out o;

	*nout = 0;
	if (hit_id == 0 || hit_id > s->nv)
		return -ENOENT;
	vi = hit_id - 1;
	v = &s->v[vi];
	if (v->victim < 0)
		return -ENOENT;
	if (!victim_pose || !pose_ok(victim_pose) || maxout < 2)
		return -EINVAL;
	if (v->sbc != -1)
		return -EALREADY;
	v->sbc = deny != 0;
	if (v->state != LC_V_PENDING)
		return 0; /* measurement only: the verdict is final */
	unpend(s, hit_id);
	if (!deny)
		return register_hit(s, vi, LC_V_CONFIRMED, t_ns, out, maxout,
				    nout);
	if (verify_denial(s, v, victim_pose, rendered_tick)) {
		v->state = LC_V_UPHELD;
		return 0;
	}
	v->state = LC_V_OVERRULED;
	o = make_out(v, vi, LC_OUT_HIT_VICTIM);
	o.irrefutable = 1;
	emit(out, maxout, nout, &o);
	return register_hit(s, vi, LC_V_OVERRULED, t_ns, out, maxout, nout);
}

int lc_client_check(const struct map *m, const struct lc_body *b,
		    const struct lc_pose *victim_now, const struct lc_out *hit,
		    const struct lc_pose *shooter_seen)
{
	double eye[3];

	lc_eye(b, shooter_seen, eye);
	return lc_sbc(m, b, victim_now, hit->part, hit->v_local, eye);
}

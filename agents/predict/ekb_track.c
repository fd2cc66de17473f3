/*
 * ekb_track.c: the prediction run of EKB, OAEKB, their hybrids and IS
 * (paper 003, Algorithms 1-4 and eq. 5, 16-17; IS per the extraction
 * §2.2), shared by the sender (which runs it from its last sent state to
 * decide when to send, the paper's §4.6 threshold rule) and the receiver.
 * From the last known state (LKPT) the run steps P_n = P_{n-1} + V_n dt
 * (eq. 5) one prediction tick at a time, recomputing the behaviour
 * velocity at every step from the predicted position and the other
 * players as last received (ctx->peers, never the truth); a display
 * between ticks moves along the next step's velocity. The run is cached,
 * so a display later than the previous one only adds the missing steps,
 * each computed with the peers known when it is computed. OAEKB steers
 * toward the next corner of an A* path (agents/world nav_path) to the
 * follow and bravery goals (Algorithm 2); a path is searched again only
 * when its goal moves more than one map cell or a new state starts more
 * than one cell from where it was searched, so A* work per update is
 * bounded. Positions are clamped to the map bounds when known
 * (extraction §8 item 18). Pure.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "predict/ekb.h"
#include "predict/vec3.h"
#include "world/map.h"
#include "world/nav.h"

#define MAX_BODIES 256

void ekb_track_init(struct ekb_track *t, const struct ekb_cfg *c)
{
	memset(t, 0, sizeof(*t));
	t->c = *c;
}

void ekb_blob_put(struct predict_update *u, int health, int ammo)
{
	uint16_t h = (uint16_t)(int16_t)health, a = (uint16_t)(int16_t)ammo;

	u->blob[0] = (uint8_t)(h & 0xff);
	u->blob[1] = (uint8_t)(h >> 8);
	u->blob[2] = (uint8_t)(a & 0xff);
	u->blob[3] = (uint8_t)(a >> 8);
	u->blob_len = 4;
}

void ekb_blob_get(const struct predict_update *u, int *health, int *ammo)
{
	if (u->blob_len < 4) {
		*health = *ammo = 0;
		return;
	}
	*health = (int16_t)(uint16_t)(u->blob[0] | u->blob[1] << 8);
	*ammo = (int16_t)(uint16_t)(u->blob[2] | u->blob[3] << 8);
}

void ekb_track_update(struct ekb_track *t, const struct predict_update *u)
{
	struct ekb_hist *h;
	int health, ammo;

	t->u = *u;
	t->have = 1;
	t->run_valid = 0;
	ekb_blob_get(u, &health, &ammo);
	if (u->blob_len < 4) { /* not sent: count as full strength */
		health = (int)t->c.h_max;
		ammo = (int)t->c.a_max;
	}
	t->own_health = health;
	t->own_strength = ekb_strength(&t->c, health, ammo);
	t->hist_head = (t->hist_head + 1) % EKB_HIST;
	h = &t->hist[t->hist_head];
	h->t_ns = u->t_ns;
	h->v[0] = u->vel[0];
	h->v[1] = u->vel[1];
	if (t->hist_n < EKB_HIST)
		t->hist_n++;
}

int ekb_track_hybrid_tdm(const struct ekb_track *t, int64_t t_ns)
{
	int64_t lag = t_ns - t->u.t_ns;

	if (!t->c.hybrid || !t->have)
		return 0;
	if ((double)lag <= t->c.t_hyb * 1e9)
		return 0;
	/* Algorithm 4: any turn in the t_lag before LKPT */
	for (size_t i = 1; i < t->hist_n; i++) {
		const struct ekb_hist *h =
			&t->hist[(t->hist_head + EKB_HIST - i) % EKB_HIST];

		if (h->t_ns < t->u.t_ns - lag)
			break;
		if (ekb_direction_changed(t->u.vel, h->v, t->c.theta))
			return 0;
	}
	return 1;
}

/* The other players of ctx as model bodies. */
static size_t bodies(const struct ekb_track *t, const struct predict_ctx *ctx,
		     struct ekb_body *b)
{
	size_t n = 0;

	for (size_t i = 0; i < ctx->n_peers && n < MAX_BODIES; i++) {
		const struct predict_peer *q = &ctx->peers[i];

		if (q->entity == t->u.entity || !q->alive)
			continue;
		b[n].p[0] = q->pos[0];
		b[n].p[1] = q->pos[1];
		b[n].v[0] = q->vel[0];
		b[n].v[1] = q->vel[1];
		/* a living peer with neither health nor ammo known (the
		 * peer book leaves them 0: not on the wire) counts as full */
		if (q->health <= 0 && q->ammo <= 0) {
			b[n].strength =
				ekb_strength(&t->c, t->c.h_max, t->c.a_max);
			b[n].health = t->c.h_max;
		} else {
			b[n].strength = ekb_strength(&t->c, q->health, q->ammo);
			b[n].health = q->health;
		}
		b[n].friend = t->u.team != 0 && q->team == t->u.team;
		n++;
	}
	return n;
}

/* Search path ph from p to goal; on failure keep an empty path (steer
 * straight) for this goal so that the search is not repeated. */
static void path_search(struct ekb_track *t, const struct map *m,
			struct ekb_path *ph, const double p[2],
			const double goal[2])
{
	struct nav nv;
	struct nav_pt pts[EKB_PATH_MAX];
	int n = 0;

	memset(ph, 0, sizeof(*ph));
	ph->valid = 1;
	memcpy(ph->goal, goal, sizeof(ph->goal));
	memcpy(ph->from, p, sizeof(ph->from));
	t->astar_runs++;
	if (nav_init(&nv, m))
		return;
	if (nav_path(&nv, p[0], p[1], goal[0], goal[1], t->c.radius, pts,
		     EKB_PATH_MAX, &n) == 0) {
		for (int i = 0; i < n; i++) {
			ph->pt[i].x = pts[i].x;
			ph->pt[i].y = pts[i].y;
		}
		ph->n = n;
	}
	nav_free(&nv);
}

/* Algorithm 2: velocity S toward the next node of the path to goal. */
static void avoid_dir(struct ekb_track *t, const struct predict_ctx *ctx,
		      int which, const double p[2], const double goal[2],
		      double v[2])
{
	const struct map *m = ctx->map.world;
	struct ekb_path *ph = &t->path[which];
	double to[2];

	if (!m) {
		ekb_toward(t->c.speed, p, goal, v);
		return;
	}
	if (!ph->valid ||
	    hypot(goal[0] - ph->goal[0], goal[1] - ph->goal[1]) > m->cell)
		path_search(t, m, ph, p, goal);
	while (ph->idx < ph->n - 1 &&
	       hypot(p[0] - ph->pt[ph->idx].x, p[1] - ph->pt[ph->idx].y) <
		       0.5 * m->cell)
		ph->idx++;
	if (ph->n == 0) {
		ekb_toward(t->c.speed, p, goal, v);
		return;
	}
	to[0] = ph->pt[ph->idx].x;
	to[1] = ph->pt[ph->idx].y;
	ekb_toward(t->c.speed, p, to, v);
}

/* A new run starts at p: keep each cached path only if it was searched
 * within one cell of p (then follow it from its first corner). */
static void paths_restart(struct ekb_track *t, const struct predict_ctx *ctx,
			  const double p[2])
{
	const struct map *m = ctx->map.world;

	for (int i = 0; i < 2; i++) {
		struct ekb_path *ph = &t->path[i];

		if (!m || !ph->valid)
			continue;
		if (hypot(p[0] - ph->from[0], p[1] - ph->from[1]) > m->cell)
			ph->valid = 0;
		else
			ph->idx = 0;
	}
}

/* EKB's V_R at p (Algorithm 1; Algorithm 2 when avoiding). */
static void ekb_vr(struct ekb_track *t, const struct predict_ctx *ctx,
		   const double p[2], const struct ekb_body *b, size_t n,
		   double vr[2])
{
	struct ekb_eval e;

	ekb_evaluate(&t->c, p, t->own_strength, b, n, &e);
	if (t->c.avoid) {
		if (e.n_friends)
			avoid_dir(t, ctx, 0, p, e.cf, e.vf);
		if (e.n_enemies && e.in_battle)
			avoid_dir(t, ctx, 1, p, e.qb, e.vb);
		ekb_combine(&t->c, &e);
	}
	vr[0] = e.vr[0];
	vr[1] = e.vr[1];
}

/* IS: TDM before t_is, then |V_0| along the interest force (or the last
 * heading when there is none). */
static void is_velocity(struct ekb_track *t, const struct predict_ctx *ctx,
			long n, const double p[2], const struct ekb_body *b,
			size_t nb, double v[2])
{
	const double *vlk = t->u.vel;
	double dir[2], s = hypot(vlk[0], vlk[1]);

	if ((double)(n - 1) * t->c.step < t->c.t_is) {
		v[0] = vlk[0];
		v[1] = vlk[1];
	} else if (is_direction(&t->c, p, t->own_health, b, nb, ctx->items,
				ctx->n_items, dir)) {
		v[0] = s * dir[0];
		v[1] = s * dir[1];
	} else {
		v[0] = t->run_v[0];
		v[1] = t->run_v[1];
	}
}

/* Velocity of step n (1-based) from p: eq. 16 for EKB. */
static void step_velocity(struct ekb_track *t, const struct predict_ctx *ctx,
			  long n, const double p[2], double v[2])
{
	struct ekb_body b[MAX_BODIES];
	size_t nb = bodies(t, ctx, b);
	const double *vlk = t->u.vel;
	double vr[2], w;

	if (t->c.model == EKB_MODEL_IS) {
		is_velocity(t, ctx, n, p, b, nb, v);
		return;
	}
	ekb_vr(t, ctx, p, b, nb, vr);
	w = ekb_transition_weight((double)n, t->run_e);
	v[0] = (1 - w) * vlk[0] + w * vr[0];
	v[1] = (1 - w) * vlk[1] + w * vr[1];
}

static void clamp_bounds(const struct predict_ctx *ctx, double p[2])
{
	for (int i = 0; i < 2; i++) {
		if (ctx->map.lo[i] >= ctx->map.hi[i])
			continue;
		p[i] = fmin(fmax(p[i], ctx->map.lo[i]), ctx->map.hi[i]);
	}
}

static void run_restart(struct ekb_track *t, const struct predict_ctx *ctx)
{
	t->run_valid = 1;
	t->run_n = 0;
	t->run_p[0] = t->u.pos[0];
	t->run_p[1] = t->u.pos[1];
	t->run_v[0] = t->u.vel[0];
	t->run_v[1] = t->u.vel[1];
	t->run_e = t->c.e_max;
	if (t->c.model == EKB_MODEL_EKB) {
		struct ekb_body b[MAX_BODIES];
		size_t nb = bodies(t, ctx, b);
		struct ekb_eval e;

		/* E once at LKPT (extraction §8 item 7) */
		ekb_evaluate(&t->c, t->run_p, t->own_strength, b, nb, &e);
		t->run_e = ekb_transition_len(
			&t->c, fmin(e.closest_enemy, e.closest_friend));
		paths_restart(t, ctx, t->run_p);
	}
}

static void tdm(const struct predict_update *u, double lag, double pos[3],
		double vel[3])
{
	v3_axpy(pos, u->pos, lag, u->vel);
	v3_copy(vel, u->vel);
}

int ekb_track_predict(struct ekb_track *t, const struct predict_ctx *ctx,
		      int64_t t_ns, double pos[3], double vel[3])
{
	double lag, frac, v[2];
	long k;

	if (!t->have)
		return -EAGAIN;
	lag = (double)(t_ns - t->u.t_ns) * 1e-9;
	/* no teams (deathmatch): EKB falls back to TDM (docs/predictors.md) */
	if (lag <= 0 || (t->c.model == EKB_MODEL_EKB && t->u.team == 0) ||
	    ekb_track_hybrid_tdm(t, t_ns)) {
		tdm(&t->u, lag, pos, vel);
		return 0;
	}
	k = (long)floor(lag / t->c.step + 1e-9);
	frac = lag - (double)k * t->c.step;
	if (!t->run_valid || t->run_n > k)
		run_restart(t, ctx);
	while (t->run_n < k) {
		step_velocity(t, ctx, t->run_n + 1, t->run_p, v);
		t->run_p[0] += v[0] * t->c.step;
		t->run_p[1] += v[1] * t->c.step;
		clamp_bounds(ctx, t->run_p);
		t->run_v[0] = v[0];
		t->run_v[1] = v[1];
		t->run_n++;
	}
	if (frac > 1e-12)
		step_velocity(t, ctx, t->run_n + 1, t->run_p, v);
	else
		memcpy(v, t->run_v, sizeof(v));
	pos[0] = t->run_p[0] + v[0] * frac;
	pos[1] = t->run_p[1] + v[1] * frac;
	clamp_bounds(ctx, pos);
	pos[2] = t->u.pos[2] + t->u.vel[2] * lag;
	vel[0] = v[0];
	vel[1] = v[1];
	vel[2] = t->u.vel[2];
	return 0;
}

/* ---- predictor callbacks ---- */

int ekb_sender_init_cfg(void *priv, const struct ekb_cfg *c)
{
	struct ekb_sender *s = priv;

	memset(s, 0, sizeof(*s));
	ekb_track_init(&s->tr, c);
	return 0;
}

int ekb_sender_tick(void *priv, const struct predict_ctx *ctx,
		    const struct predict_state *x, struct predict_update *out)
{
	struct ekb_sender *s = priv;
	struct predict_update u;
	int reason = -1, err;

	if (!s->started) {
		reason = PREDICT_REASON_INIT;
	} else {
		double pos[3], vel[3];
		double dt = (double)(x->t_ns - s->tr.u.t_ns) * 1e-9;

		err = ekb_track_predict(&s->tr, ctx, x->t_ns, pos, vel);
		if (err)
			return err;
		if (s->tr.c.heartbeat > 0 && dt >= s->tr.c.heartbeat)
			reason = PREDICT_REASON_HEARTBEAT;
		else if (v3_dist(pos, x->pos) > s->tr.c.threshold)
			reason = PREDICT_REASON_POSITION;
	}
	if (reason < 0)
		return 0;
	memset(&u, 0, sizeof(u));
	u.t_ns = x->t_ns;
	u.entity = x->entity;
	u.team = x->team;
	u.drm = PREDICT_DRM_FPW;
	u.reason = (uint8_t)reason;
	v3_copy(u.pos, x->pos);
	v3_copy(u.vel, x->vel);
	v3_copy(u.acc, x->acc);
	v3_copy(u.ori, x->ori);
	v3_copy(u.angvel, x->angvel);
	ekb_blob_put(&u, x->health, x->ammo);
	ekb_track_update(&s->tr, &u);
	s->started = 1;
	*out = u;
	return 1;
}

int ekb_receiver_init_cfg(void *priv, const struct ekb_cfg *c)
{
	ekb_track_init(priv, c);
	return 0;
}

int ekb_receiver_update(void *priv, const struct predict_ctx *ctx,
			const struct predict_update *u, int64_t now)
{
	(void)ctx;
	(void)now;
	ekb_track_update(priv, u);
	return 0;
}

int ekb_receiver_display(void *priv, const struct predict_ctx *ctx, int64_t t,
			 struct predict_display *out)
{
	struct ekb_track *tr = priv;
	int err = ekb_track_predict(tr, ctx, t, out->pos, out->vel);

	if (err)
		return err;
	v3_copy(out->ori, tr->u.ori);
	out->converging = 0;
	return 0;
}

/*
 * pred_ant.c: the "ant" predictor, AntReckoning (Yahyavi, Huguenin &
 * Kemme, Multimedia Systems 19(3), 2013; paper 001), and "dr2", its
 * baseline: second-order dead reckoning with EWMA velocity and
 * acceleration (eq. 2-3, alpha_v = alpha_a = 0.8). Both run Algorithm 1:
 * the sender keeps the prediction the receivers make from its last update
 * and sends when the true position is more than `threshold` from it (or
 * every `period` s in the fixed-rate mode of Fig. 9, or at the
 * heartbeat). Every frame the sender updates the EWMA of eq. 3 from its
 * own position and, for ant, its pheromone grid (eq. 6, ant_grid.c) from
 * what its client knows: the static map, the items as last known and the
 * other entities' last received updates (ctx.items, ctx.peers; never
 * their truth). At an update it computes the force of eq. 7 at its
 * position and sends the two terms of eq. 5: the inertial acceleration
 * (1 - alpha) a in the acceleration field (DRM FVW) and the attraction
 * alpha F / m (u/s^2) as two float32 in the DR parameters blob. The
 * receiver extrapolates them (ant_model.c) with the optional
 * post-processing; it needs no grid, so a receiver whose own view of the
 * peers differs from the sender's (loss, latency) still shows exactly the
 * sender's prediction. Resolutions of the paper's gaps are in
 * docs/predictors.md (AntReckoning, R1-R12).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "predict/ant.h"
#include "predict/predict.h"
#include "predict/vec3.h"

enum { GAME_QUAKE, GAME_WOW };
enum { LAMBDA_GEN, LAMBDA_FORCE };

static const char *const games[] = {"quake", "wow", NULL};
static const char *const lambda_ons[] = {"generation", "force", NULL};

enum {
	P_GAME,
	P_THR,
	P_HEARTBEAT,
	P_PERIOD,
	P_FRAME,
	P_ALPHA,
	P_AV,
	P_AA,
	P_K,
	P_RHO,
	P_LAMBDA,
	P_LAMBDA_ON,
	P_PHMAX,
	P_EPS,
	P_GAMMA,
	P_CELL,
	P_REGION,
	P_MASS,
	P_RECENCY,
	P_BLOCK,
	P_VISION,
	P_HALF,
	P_POST,
	P_VMAX,
	P_KAPPA,
	P_STILL,
	P_PEER_TIMEOUT,
	P_PEER_DR,
	P_REACH,
	N_PARAMS
};

#define THR_DOC                                                                \
	"send when the true position is more than this from the shared "       \
	"prediction (Algorithm 1, eta)"
#define FRAME_DOC                                                              \
	"frame (time step of eq. 3 and 6), s; -1: the game's (quake 0.05, "    \
	"wow 0.3; Table 1)"

static const struct predict_param ant_params[N_PARAMS] = {
	[P_GAME] = PREDICT_ENUM(
		"game", 0, games,
		"configuration of Table 1: quake (items attract, weighted by "
		"health; players repel, weighted by recency) or wow (players "
		"attract, all alike)"),
	[P_THR] = PREDICT_REAL("threshold", 20, 0.001, 1e6, "u", THR_DOC),
	[P_HEARTBEAT] = PREDICT_REAL(
		"heartbeat", 5, 0, 3600, "s",
		"send at least this often; 0 = off (DIS 7: 5 s; not in "
		"the paper)"),
	[P_PERIOD] = PREDICT_REAL(
		"period", 0, 0, 3600, "s",
		"fixed-rate mode (Fig. 9): send every period s and never on "
		"the threshold; 0 = off"),
	[P_FRAME] = PREDICT_REAL("frame", -1, -1, 10, "s", FRAME_DOC),
	[P_ALPHA] = PREDICT_REAL(
		"alpha", 0.5, 0, 1, "",
		"weight of the attraction in eq. 5 (Table 1: 0.5)"),
	[P_AV] =
		PREDICT_REAL("alpha_v", 0.8, 0, 1, "",
			     "EWMA weight of the newest velocity (eq. 3; 0.8)"),
	[P_AA] = PREDICT_REAL("alpha_a", 0.8, 0, 1, "",
			      "EWMA weight of the newest acceleration (eq. 3; "
			      "0.8)"),
	[P_K] = PREDICT_REAL("k", 2, 0, 8, "",
			     "distance exponent of eq. 7 (Table 1: 2)"),
	[P_RHO] = PREDICT_REAL("rho", 40, 0, 1e6, "",
			       "base pheromone generated per frame (Table 1: "
			       "40)"),
	[P_LAMBDA] = PREDICT_REAL(
		"lambda", 0.9, 0, 100, "",
		"reference attractiveness (Fig. 9b operating point 0.9)"),
	[P_LAMBDA_ON] = PREDICT_ENUM(
		"lambda_on", 0, lambda_ons,
		"lambda scales the generation (lambda rho w, capped) or the "
		"force (extraction §6.2)"),
	[P_PHMAX] = PREDICT_REAL("ph_max", 100, 0, 1e9, "",
				 "cap of |ph| per cell (Table 1: 100; 0 = no "
				 "cap); |ph| < ph_max/1000 is dropped"),
	[P_EPS] = PREDICT_REAL(
		"epsilon", -1, -1, 1, "",
		"share left after evaporation (eq. 6); -1: the game's "
		"(quake 0.5, wow 0.8; Fig. 9)"),
	[P_GAMMA] = PREDICT_REAL(
		"gamma", -1, -1, 1, "",
		"share disseminated to the 4 neighbours (eq. 6); -1: the "
		"game's (quake 0.7, wow 0.1; Fig. 9)"),
	[P_CELL] = PREDICT_REAL("cell", 50, 1, 1e5, "u",
				"cell side C (Fig. 9f operating point 50)"),
	[P_REGION] = PREDICT_REAL("region", 500, 0, 1e6, "u",
				  "side |R| of the square of cells that pull "
				  "(eq. 7; Fig. 9a: 500)"),
	[P_MASS] = PREDICT_REAL("mass", 1, 1e-9, 1e9, "",
				"mass m of eq. 5 (1 for every avatar)"),
	[P_RECENCY] = PREDICT_REAL(
		"recency", 5, 0.001, 3600, "s",
		"quake: a player repels with weight 1 - tau / recency, tau "
		"the time since it was last in sight (extraction §6.9)"),
	[P_BLOCK] = PREDICT_BOOL("block", 1,
				 "walls block the dissemination (eq. 6 text; "
				 "needs the map's line of sight)"),
	[P_VISION] =
		PREDICT_BOOL("vision", 0,
			     "vision filter: only cells in the cone and in "
			     "sight pull (§5.3)"),
	[P_HALF] = PREDICT_REAL("vision_half", 45, 0, 180, "deg",
				"half-angle of the vision cone (§6.19)"),
	[P_POST] = PREDICT_BOOL("post", 0,
				"post-processing (§5.3): force and speed caps, "
				"stop at walls"),
	[P_VMAX] = PREDICT_REAL("v_max", 320, 0, 1e6, "u/s",
				"post: speed cap (Quake g_speed 320 u/s)"),
	[P_KAPPA] = PREDICT_REAL("kappa", 1, 0, 1e6, "",
				 "post: the force moves at most kappa |v| t "
				 "(§6.18)"),
	[P_STILL] = PREDICT_REAL("still", 0.05, 0, 1, "",
				 "post: no force when |v| < still v_max "
				 "(§6.18)"),
	[P_PEER_TIMEOUT] = PREDICT_REAL(
		"peer_timeout", 12, 0, 3600, "s",
		"ignore peers whose last update is older (DIS 7: 2.4 x the "
		"5 s heartbeat; not in the paper)"),
	[P_PEER_DR] = PREDICT_REAL(
		"peer_dr", 0.5, 0, 60, "s",
		"a peer deposits at its last update extrapolated first-order "
		"by its age, at most this (not in the paper)"),
	[P_REACH] = PREDICT_REAL(
		"reach", -1, -1, 1e6, "u",
		"sources farther than region/2 + reach deposit nothing; -1: "
		"how far the player moves at v_max while pheromone fades to "
		"the drop level, plus 4 cells; 0: all sources (exact; not in "
		"the paper)"),
};

/* dr2 shares the kinematics and the send rule, without forces. */
enum { D_THR, D_HEARTBEAT, D_PERIOD, D_FRAME, D_AV, D_AA, D_POST, D_VMAX, D_N };

static const struct predict_param dr2_params[D_N] = {
	[D_THR] = PREDICT_REAL("threshold", 20, 0.001, 1e6, "u", THR_DOC),
	[D_HEARTBEAT] = PREDICT_REAL("heartbeat", 5, 0, 3600, "s",
				     "send at least this often; 0 = off"),
	[D_PERIOD] = PREDICT_REAL("period", 0, 0, 3600, "s",
				  "fixed-rate mode: send every period s; 0 = "
				  "off"),
	[D_FRAME] = PREDICT_REAL("frame", 0.05, 0.001, 10, "s",
				 "frame of the EWMA (eq. 3; Quake 0.05)"),
	[D_AV] =
		PREDICT_REAL("alpha_v", 0.8, 0, 1, "",
			     "EWMA weight of the newest velocity (eq. 3; 0.8)"),
	[D_AA] = PREDICT_REAL("alpha_a", 0.8, 0, 1, "",
			      "EWMA weight of the newest acceleration (0.8)"),
	[D_POST] = PREDICT_BOOL("post", 0,
				"speed cap and stop at walls (ablation)"),
	[D_VMAX] = PREDICT_REAL("v_max", 320, 0, 1e6, "u/s", "post: speed cap"),
};

struct ant_cfg {
	int ant, game, lambda_on, block, vision, post;
	double thr, heartbeat, period, frame, alpha, av, aa, k, rho, lambda;
	double ph_max, eps, gamma, cell, region, mass, recency, half;
	double v_max, kappa, still, peer_timeout, peer_dr;
	double window; /* region / 2 + reach; 0: every source deposits */
};

static double pick(double v, double quake, double wow, int game)
{
	return v >= 0 ? v : game == GAME_WOW ? wow : quake;
}

static void cfg_ant(struct ant_cfg *c, const double *v)
{
	c->ant = 1;
	c->game = (int)v[P_GAME];
	c->thr = v[P_THR];
	c->heartbeat = v[P_HEARTBEAT];
	c->period = v[P_PERIOD];
	c->frame = pick(v[P_FRAME], 0.05, 0.3, c->game);
	c->alpha = v[P_ALPHA];
	c->av = v[P_AV];
	c->aa = v[P_AA];
	c->k = v[P_K];
	c->rho = v[P_RHO];
	c->lambda = v[P_LAMBDA];
	c->lambda_on = (int)v[P_LAMBDA_ON];
	c->ph_max = v[P_PHMAX];
	c->eps = pick(v[P_EPS], 0.5, 0.8, c->game);
	c->gamma = pick(v[P_GAMMA], 0.7, 0.1, c->game);
	c->cell = v[P_CELL];
	c->region = v[P_REGION];
	c->mass = v[P_MASS];
	c->recency = v[P_RECENCY];
	c->block = v[P_BLOCK] != 0;
	c->vision = v[P_VISION] != 0;
	c->half = v[P_HALF] * M_PI / 180.0;
	c->post = v[P_POST] != 0;
	c->v_max = v[P_VMAX];
	c->kappa = v[P_KAPPA];
	c->still = v[P_STILL];
	c->peer_timeout = v[P_PEER_TIMEOUT];
	c->peer_dr = v[P_PEER_DR];
	c->window = 0;
	if (v[P_REACH] > 0) {
		c->window = c->region / 2 + v[P_REACH];
	} else if (v[P_REACH] < 0 && c->eps > 0 && c->eps < 1) {
		/* frames for eps^n to reach the drop level 1e-3 */
		double n = ceil(log(1e-3) / log(c->eps));

		c->window =
			c->region / 2 + n * c->v_max * c->frame + 4 * c->cell;
	}
}

static void cfg_dr2(struct ant_cfg *c, const double *v)
{
	memset(c, 0, sizeof(*c));
	c->thr = v[D_THR];
	c->heartbeat = v[D_HEARTBEAT];
	c->period = v[D_PERIOD];
	c->frame = v[D_FRAME];
	c->av = v[D_AV];
	c->aa = v[D_AA];
	c->post = v[D_POST] != 0;
	c->v_max = v[D_VMAX];
	c->kappa = 1e9; /* no force to cap */
}

static int cfg_load(struct ant_cfg *c, const struct predict_params *par)
{
	memset(c, 0, sizeof(*c));
	if (par->p == &predict_dr2)
		cfg_dr2(c, par->v);
	else
		cfg_ant(c, par->v);
	return c->frame > 0 ? 0 : -EINVAL;
}

#define MAX_RECENT 256

/* Sender and receiver share this head so that fini can free either. */
struct ant_head {
	struct ant_cfg c;
	int grid_ok;
	struct ant_grid g;
};

struct ant_sender {
	struct ant_cfg c;
	int grid_ok;
	struct ant_grid g;
	int started;
	struct ant_ewma e;
	int64_t next_frame, last_frame;
	struct ant_motion m; /* the receivers' model of the last update */
	int64_t t_upd;
	uint32_t seen_id[MAX_RECENT]; /* quake: last time each peer was in */
	int64_t seen_t[MAX_RECENT];   /* sight (open addressing) */
	uint8_t seen_used[MAX_RECENT];
};

struct ant_receiver {
	struct ant_cfg c;
	int grid_ok; /* always 0: receivers need no grid */
	struct ant_grid g;
	struct ant_motion m;
	int64_t t_upd;
};

static int ant_sender_init(void *priv, const struct predict_params *par)
{
	struct ant_sender *s = priv;

	memset(s, 0, sizeof(*s));
	return cfg_load(&s->c, par);
}

static void ant_fini(void *priv)
{
	struct ant_head *h = priv;

	if (h->grid_ok)
		ant_grid_free(&h->g);
	h->grid_ok = 0;
}

static void post_of(const struct ant_cfg *c, const struct predict_ctx *ctx,
		    struct ant_post *pp)
{
	pp->on = c->post;
	pp->kappa = c->kappa;
	pp->v_max = c->v_max;
	pp->map = ctx && ctx->map.los ? &ctx->map : NULL;
}

/* Slot of peer id in the recency table, or -1 when full. */
static int seen_slot(struct ant_sender *s, uint32_t id)
{
	uint32_t h = (id * 2654435761u) % MAX_RECENT;

	for (int n = 0; n < MAX_RECENT; n++, h = (h + 1) % MAX_RECENT) {
		if (!s->seen_used[h]) {
			s->seen_used[h] = 1;
			s->seen_id[h] = id;
			s->seen_t[h] = INT64_MIN;
			return (int)h;
		}
		if (s->seen_id[h] == id)
			return (int)h;
	}
	return -1;
}

/* Item kind 0 is health (enum map_item_kind of agents/world). */
#define ITEM_KIND_HEALTH 0

/* Where a peer's client shows it: its last update, first-order, by its
 * age up to peer_dr. -1 when too old to count. */
static int peer_pos(const struct ant_cfg *c, const struct predict_peer *p,
		    int64_t t, double q[3])
{
	double age = (double)(t - p->t_ns) * 1e-9;

	if (c->peer_timeout > 0 && age > c->peer_timeout)
		return -1;
	if (age < 0)
		age = 0;
	if (age > c->peer_dr)
		age = c->peer_dr;
	v3_axpy(q, p->pos, age, p->vel);
	return 0;
}

/* Quake: a player repels with 1 - tau / recency, tau the time since it
 * was last in sight of x (in sight always without a map), looked at
 * while it is within the window. */
static double recency_w(struct ant_sender *s, const struct predict_ctx *ctx,
			const struct predict_state *x, uint32_t id,
			const double q[3])
{
	int h = seen_slot(s, id);
	double tau;

	if (h < 0)
		return 0;
	if (!ctx->map.los || ctx->map.los(ctx->map.world, x->pos, q))
		s->seen_t[h] = x->t_ns;
	if (s->seen_t[h] == INT64_MIN)
		return 0;
	tau = (double)(x->t_ns - s->seen_t[h]) * 1e-9;
	return tau >= s->c.recency ? 0 : 1.0 - tau / s->c.recency;
}

/* 1 if q is beyond the window of sources that can reach R (R12). */
static int far(const struct ant_cfg *c, const struct predict_state *x,
	       const double q[3])
{
	return c->window > 0 && (fabs(q[0] - x->pos[0]) > c->window ||
				 fabs(q[1] - x->pos[1]) > c->window);
}

/* Generation of eq. 6: every point of interest deposits its
 * attractiveness to this player (never the player itself: ctx.peers
 * holds only the others), queued for the frame. -ENOMEM. */
static int generate(struct ant_sender *s, const struct predict_ctx *ctx,
		     const struct predict_state *x)
{
	double base =
		s->c.rho * (s->c.lambda_on == LAMBDA_GEN ? s->c.lambda : 1.0);
	double q[3];
	int err;

	if (s->c.game == GAME_QUAKE)
		for (size_t i = 0; i < ctx->n_items; i++) {
			const struct predict_item *it = &ctx->items[i];
			double w = 1;

			if (!it->present || far(&s->c, x, it->pos))
				continue;
			if (it->kind == ITEM_KIND_HEALTH) {
				w = 1.0 - x->health / 100.0;
				w = w < 0 ? 0 : w > 1 ? 1 : w;
			}
			err = ant_grid_queue(&s->g, it->pos[0], it->pos[1],
					     base * w);
			if (err)
				return err;
		}
	for (size_t i = 0; i < ctx->n_peers; i++) {
		const struct predict_peer *p = &ctx->peers[i];
		double w;

		if (p->entity == x->entity || peer_pos(&s->c, p, x->t_ns, q) ||
		    far(&s->c, x, q))
			continue;
		w = s->c.game == GAME_WOW ? 1.0
					  : -recency_w(s, ctx, x, p->entity, q);
		err = ant_grid_queue(&s->g, q[0], q[1], base * w);
		if (err)
			return err;
	}
	return 0;
}

static int grid_setup(struct ant_sender *s, const struct predict_ctx *ctx)
{
	const struct predict_map_view *m = &ctx->map;
	int err;

	if (!(m->hi[0] > m->lo[0]) || !(m->hi[1] > m->lo[1]))
		return -EINVAL; /* ant needs the map's bounds */
	err = ant_grid_init(&s->g, m->lo, m->hi, s->c.cell, m, s->c.block);
	if (err)
		return err;
	s->grid_ok = 1;
	return 0;
}

/* One frame at the tick of x: eq. 3 and, for ant, eq. 6 (the sources
 * are gathered first; ant_grid_frame spreads, then deposits them). */
static int frame_step(struct ant_sender *s, const struct predict_ctx *ctx,
		      const struct predict_state *x)
{
	double dt = (double)(x->t_ns - s->last_frame) * 1e-9;
	int err;

	ant_ewma_step(&s->e, x->pos, s->e.n ? dt : 0, s->c.av, s->c.aa);
	s->last_frame = x->t_ns;
	if (!s->c.ant)
		return 0;
	err = generate(s, ctx, x);
	if (err)
		return err;
	ant_grid_frame(&s->g, s->c.eps, s->c.gamma, s->c.ph_max,
		       s->c.ph_max * 1e-3);
	return 0;
}

/* The attraction term alpha F / m of eq. 5 at x, in u/s^2. */
static void attraction(struct ant_sender *s, const struct predict_ctx *ctx,
		       const struct predict_state *x, double out[2])
{
	struct ant_force_opts o;
	double f[2], sp = hypot(s->e.v[0], s->e.v[1]), gain;

	out[0] = out[1] = 0;
	if (!s->c.ant || s->c.alpha == 0)
		return;
	if (s->c.post && sp < s->c.still * s->c.v_max)
		return; /* standing still: no force (§6.18) */
	memset(&o, 0, sizeof(o));
	o.region = s->c.region;
	o.k = s->c.k;
	o.d_min = s->c.cell / 2;
	o.vision = s->c.vision;
	o.half = s->c.half;
	if (sp > 1e-9) {
		o.heading[0] = s->e.v[0] / sp;
		o.heading[1] = s->e.v[1] / sp;
	} else {
		o.heading[0] = cos(x->ori[0]);
		o.heading[1] = sin(x->ori[0]);
	}
	o.map = ctx->map.los ? &ctx->map : NULL;
	ant_force(&s->g, x->pos, &o, f);
	/* F is in u/frame^2 (the paper's units): / frame^2 for u/s^2 */
	gain = s->c.alpha / s->c.mass / (s->c.frame * s->c.frame);
	if (s->c.lambda_on == LAMBDA_FORCE)
		gain *= s->c.lambda;
	out[0] = gain * f[0];
	out[1] = gain * f[1];
}

static void blob_put(struct predict_update *u, const double f[2])
{
	for (int k = 0; k < 2; k++) {
		float v = (float)f[k];
		uint32_t w;

		memcpy(&w, &v, sizeof(w));
		for (int i = 0; i < 4; i++)
			u->blob[4 * k + i] = (uint8_t)(w >> (8 * i));
	}
	u->blob_len = 8;
}

static int blob_get(const struct predict_update *u, double f[2])
{
	if (u->blob_len < 8)
		return -EINVAL;
	for (int k = 0; k < 2; k++) {
		uint32_t w = 0;
		float v;

		for (int i = 0; i < 4; i++)
			w |= (uint32_t)u->blob[4 * k + i] << (8 * i);
		memcpy(&v, &w, sizeof(v));
		if (!isfinite(v))
			return -EINVAL;
		f[k] = v;
	}
	return 0;
}

/* The receivers' model of update u (float32 fields as on the wire). */
static int motion_of(const struct predict_update *u, struct ant_motion *m)
{
	int err = blob_get(u, m->force);

	if (err)
		return err;
	v3_copy(m->pos, u->pos);
	v3_copy(m->vel, u->vel);
	m->acc[0] = u->acc[0];
	m->acc[1] = u->acc[1];
	return 0;
}

static int make_update(struct ant_sender *s, const struct predict_ctx *ctx,
		       const struct predict_state *x, int reason,
		       struct predict_update *out)
{
	struct predict_update u;
	double f[2];
	int err;

	attraction(s, ctx, x, f);
	memset(&u, 0, sizeof(u));
	u.t_ns = x->t_ns;
	u.drm = PREDICT_DRM_FVW;
	u.reason = (uint8_t)reason;
	v3_copy(u.pos, x->pos);
	v3_copy(u.ori, x->ori);
	/* eq. 3 estimates are per frame in the paper: ours are per second */
	u.vel[0] = (float)s->e.v[0];
	u.vel[1] = (float)s->e.v[1];
	u.vel[2] = (float)x->vel[2];
	u.acc[0] = (float)((1.0 - s->c.alpha) * s->e.a[0]);
	u.acc[1] = (float)((1.0 - s->c.alpha) * s->e.a[1]);
	blob_put(&u, f);
	err = motion_of(&u, &s->m);
	if (err)
		return err;
	s->t_upd = x->t_ns;
	*out = u;
	return 1;
}

static int ant_sender_tick(void *priv, const struct predict_ctx *ctx,
			   const struct predict_state *x,
			   struct predict_update *out)
{
	struct ant_sender *s = priv;
	int64_t frame_ns = (int64_t)llround(s->c.frame * 1e9);
	double since;
	int err;

	if (s->c.ant && !s->grid_ok && (err = grid_setup(s, ctx)))
		return err;
	if (!s->started || x->t_ns >= s->next_frame) {
		err = frame_step(s, ctx, x);
		if (err)
			return err;
		s->next_frame = s->started ? s->next_frame + frame_ns
					   : x->t_ns + frame_ns;
		if (s->next_frame <= x->t_ns)
			s->next_frame = x->t_ns + frame_ns;
	}
	if (!s->started) {
		s->started = 1;
		return make_update(s, ctx, x, PREDICT_REASON_INIT, out);
	}
	since = (double)(x->t_ns - s->t_upd) * 1e-9;
	if (s->c.heartbeat > 0 && since >= s->c.heartbeat)
		return make_update(s, ctx, x, PREDICT_REASON_HEARTBEAT, out);
	if (s->c.period > 0)
		return since >= s->c.period
			       ? make_update(s, ctx, x, PREDICT_REASON_POSITION,
					     out)
			       : 0;
	{
		struct ant_post pp;
		double q[3];

		post_of(&s->c, ctx, &pp);
		ant_motion_eval(&s->m, &pp, since, q, NULL);
		if (v3_dist(q, x->pos) > s->c.thr) /* Algorithm 1: > eta */
			return make_update(s, ctx, x, PREDICT_REASON_POSITION,
					   out);
	}
	return 0;
}

static int ant_receiver_init(void *priv, const struct predict_params *par)
{
	struct ant_receiver *r = priv;

	memset(r, 0, sizeof(*r));
	return cfg_load(&r->c, par);
}

static int ant_receiver_update(void *priv, const struct predict_ctx *ctx,
			       const struct predict_update *u, int64_t now)
{
	struct ant_receiver *r = priv;
	struct ant_motion m;
	int err;

	(void)ctx;
	(void)now;
	if (u->drm != PREDICT_DRM_FVW)
		return -EINVAL;
	err = motion_of(u, &m);
	if (err)
		return err;
	r->m = m;
	r->t_upd = u->t_ns;
	return 0;
}

static int ant_receiver_display(void *priv, const struct predict_ctx *ctx,
				int64_t t, struct predict_display *out)
{
	struct ant_receiver *r = priv;
	struct ant_post pp;

	post_of(&r->c, ctx, &pp);
	ant_motion_eval(&r->m, &pp, (double)(t - r->t_upd) * 1e-9, out->pos,
			out->vel);
	out->converging = 0;
	return 0;
}

/* The pheromone map as the last frame left it: frame_step ends with
 * ant_grid_settle, so the cap and the drop of eq. 6 are applied and ph
 * holds every cell (zero off the active list). */
static int ant_sender_grid(const void *priv, struct predict_grid *out)
{
	const struct ant_sender *s = priv;
	const struct ant_grid *g = &s->g;

	if (!s->grid_ok)
		return -EAGAIN;
	out->x0 = g->x0;
	out->y0 = g->y0;
	out->x1 = g->x0 + g->nx * g->c;
	out->y1 = g->y0 + g->ny * g->c;
	out->nx = g->nx;
	out->ny = g->ny;
	out->v = g->ph;
	out->kind = "pheromone";
	return 0;
}

const struct predictor predict_ant = {
	.name = "ant",
	.summary = "AntReckoning: second-order EWMA dead reckoning pulled by "
		   "a pheromone map of items and players",
	.cite = "Yahyavi, Huguenin & Kemme 2013 (paper 001) eq. 3, 5, 6, 7, "
		"Algorithm 1, §5.3",
	.params = ant_params,
	.n_params = N_PARAMS,
	.sender_size = sizeof(struct ant_sender),
	.receiver_size = sizeof(struct ant_receiver),
	.sender_init = ant_sender_init,
	.sender_tick = ant_sender_tick,
	.receiver_init = ant_receiver_init,
	.receiver_update = ant_receiver_update,
	.receiver_display = ant_receiver_display,
	.fini = ant_fini,
	.sender_grid = ant_sender_grid,
};

const struct predictor predict_dr2 = {
	.name = "dr2",
	.summary = "second-order dead reckoning with EWMA velocity and "
		   "acceleration (AntReckoning's baseline)",
	.cite = "Yahyavi, Huguenin & Kemme 2013 (paper 001) eq. 2-3, "
		"Algorithm 1",
	.params = dr2_params,
	.n_params = D_N,
	.sender_size = sizeof(struct ant_sender),
	.receiver_size = sizeof(struct ant_receiver),
	.sender_init = ant_sender_init,
	.sender_tick = ant_sender_tick,
	.receiver_init = ant_receiver_init,
	.receiver_update = ant_receiver_update,
	.receiver_display = ant_receiver_display,
	.fini = ant_fini,
};

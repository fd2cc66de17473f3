/*
 * pred_hsm.c: the "dhsm" predictor, the Dynamic Hybrid Strategy Model of
 * McCoy, McLoone, Ward and Delaney (ECMS 2005, paper 004) with the
 * candidate set {DR, SP}, plus the Hybrid Strategy Model's switching rule
 * (Delaney et al., as summarised in paper 004 §"HSM": M = p X + (1 - p) G,
 * p = 1 when |E - G| >= Theta) as the option select=hsm. Every candidate
 * predicts in parallel on the sender from the last update: DR by
 * P = P0 + V0 dt, SP by P = P0 + (G - P0) |V0| dt / |G - P0| (the paper's
 * two equations), and the sender sums each one's per-tick error |x - P|.
 * When the active model's error exceeds tau (strict, as the paper's
 * pseudo-code) it picks the candidate with the lowest average error since
 * the last update (ties keep the active model, then prefer DR: notes A11),
 * except that it never moves from DR to SP unless the entity sees its goal
 * (the line-of-sight gate; with fov > 0 the goal must also be within the
 * view cone, notes A6), and sends. A heartbeat update follows `heartbeat`
 * seconds without one. Every update carries the model in force, a counter
 * of model switches and the goal (hsm.h), so the receiver runs exactly the
 * sender's model: it follows the model of the newest update it applied,
 * and reports an update that shows it missed a switch (a lost switch
 * update) with a positive return, which the registry counts as
 * stale_model. The goal is fixed per update (the paper's receiver saw the
 * goal every tick on an ideal network; carrying it keeps the contract
 * under delay, notes §6.2 option B). Updates snap (no convergence, §1.1).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "predict/hsm.h"
#include "predict/predict.h"
#include "predict/vec3.h"
#include "proto/wire.h"

static const char *const model_sets[] = {"dr", "dr+sp", NULL};
static const char *const selects[] = {"ape", "hsm", NULL};
static const char *const gates[] = {"dr-to-sp", "strict", "off", NULL};

enum { SET_DR, SET_DR_SP };
enum { SEL_APE, SEL_HSM };
enum { GATE_DR_TO_SP, GATE_STRICT, GATE_OFF };

enum {
	P_TAU,
	P_HEARTBEAT,
	P_MODELS,
	P_SELECT,
	P_THETA,
	P_GATE,
	P_FOV,
	P_RESELECT,
	P_STANDOFF,
	N_PARAMS
};

static const struct predict_param hsm_params[N_PARAMS] = {
	[P_TAU] = PREDICT_REAL(
		"tau", 20, 0.001, 1e6, "u",
		"error threshold: send when the active model's position "
		"error exceeds it (paper 004 Table 1: 0.5-10 Torque units)"),
	[P_HEARTBEAT] = PREDICT_REAL(
		"heartbeat", 5, 0, 3600, "s",
		"send at least this often; 0 = off (paper 004: 5 s)"),
	[P_MODELS] = PREDICT_ENUM(
		"models", 1, model_sets,
		"candidate set: dr (the paper's DR baseline through the "
		"same loop) or dr+sp (DHSM)"),
	[P_SELECT] = PREDICT_ENUM(
		"select", 0, selects,
		"on a breach pick by ape (lowest average error since the "
		"last update, DHSM) or hsm (SP while its error < theta)"),
	[P_THETA] = PREDICT_REAL("theta", 20, 0, 1e6, "u",
				 "HSM distance threshold Theta (select=hsm)"),
	[P_GATE] = PREDICT_ENUM(
		"los_gate", 0, gates,
		"line of sight to the goal needed to switch DR->SP "
		"(dr-to-sp, paper), to use SP at all (strict, notes A7), "
		"or not at all (off); on needs the map's los"),
	[P_FOV] = PREDICT_REAL(
		"fov", 90, 0, 360, "deg",
		"the goal must also lie within this view cone around the "
		"yaw (on-screen LOS, notes A6); 0 = ray only"),
	[P_RESELECT] = PREDICT_BOOL(
		"reselect_heartbeat", 0,
		"also select the model at heartbeat updates (notes A8)"),
	[P_STANDOFF] =
		PREDICT_REAL("standoff", 0, 0, 1e6, "u",
			     "SP stops this far short of the goal (notes A3)"),
};

struct hsm_cfg {
	double tau, heartbeat, theta, fov, standoff;
	int n_models, select, gate, reselect;
};

static void cfg_load(struct hsm_cfg *c, const struct predict_params *par)
{
	c->tau = par->v[P_TAU];
	c->heartbeat = par->v[P_HEARTBEAT];
	c->n_models = (int)par->v[P_MODELS] == SET_DR ? 1 : 2;
	c->select = (int)par->v[P_SELECT];
	c->theta = par->v[P_THETA];
	c->gate = (int)par->v[P_GATE];
	c->fov = par->v[P_FOV] * M_PI / 180.0;
	c->reselect = par->v[P_RESELECT] != 0;
	c->standoff = par->v[P_STANDOFF];
}

/* ---- models and blob (hsm.h) ---- */

void hsm_predict(int m, const double p0[3], const double v0[3],
		 const double *goal, const double *gvel, double standoff,
		 double dt, double pos[3], double vel[3])
{
	double g[3], d[3], dist, reach, step, speed = v3_norm(v0);

	if (m != HSM_SP || !goal) {
		v3_axpy(pos, p0, dt, v0);
		v3_copy(vel, v0);
		return;
	}
	if (gvel)
		v3_axpy(g, goal, dt, gvel);
	else
		v3_copy(g, goal);
	v3_sub(d, g, p0);
	dist = v3_norm(d);
	reach = dist - standoff;
	v3_set(vel, 0, 0, 0);
	if (reach <= 1e-9 || dist <= 1e-9) {
		v3_copy(pos, p0);
		return;
	}
	step = speed * dt;
	if (step >= reach) {
		v3_axpy(pos, p0, reach / dist, d);
		return;
	}
	v3_axpy(pos, p0, step / dist, d);
	v3_axpy(vel, vel, speed / dist, d);
}

static int16_t quant(double v, double unit)
{
	double q = round(v / unit);

	return (int16_t)(q > 32767 ? 32767 : q < -32767 ? -32767 : q);
}

int hsm_goal_quantize(const double pos[3], const double goal[3],
		      const double *gvel, struct hsm_wire *w)
{
	for (int i = 0; i < 3; i++)
		if (!(fabs(goal[i] - pos[i]) <= 32767 * HSM_GOAL_UNIT))
			return -ERANGE;
	for (int i = 0; i < 3; i++) {
		w->goal[i] = pos[i] + quant(goal[i] - pos[i], HSM_GOAL_UNIT) *
					      HSM_GOAL_UNIT;
		w->gvel[i] =
			gvel ? quant(gvel[i], HSM_GVEL_UNIT) * HSM_GVEL_UNIT
			     : 0;
	}
	w->flags |= HSM_FLAG_GOAL;
	return 0;
}

static void put16(uint8_t *p, int16_t v)
{
	wire_put16(p, (uint16_t)v);
}

void hsm_blob_put(struct predict_update *u, const struct hsm_wire *w)
{
	int goal = w->flags & HSM_FLAG_GOAL;

	memset(u->blob, 0, sizeof(u->blob));
	u->blob[0] = w->model;
	u->blob[1] = w->switches;
	u->blob[2] = w->flags;
	for (int i = 0; goal && i < 3; i++) {
		put16(u->blob + 3 + 2 * i,
		      quant(w->goal[i] - u->pos[i], HSM_GOAL_UNIT));
		put16(u->blob + 9 + 2 * i, quant(w->gvel[i], HSM_GVEL_UNIT));
	}
	u->blob_len = HSM_BLOB_LEN;
}

int hsm_blob_get(const struct predict_update *u, struct hsm_wire *out)
{
	struct hsm_wire w;

	if (u->blob_len != HSM_BLOB_LEN || u->blob[0] >= HSM_NMODELS ||
	    (u->blob[2] & ~(HSM_FLAG_GOAL | HSM_FLAG_SWITCHED)))
		return -EINVAL;
	memset(&w, 0, sizeof(w));
	w.model = u->blob[0];
	w.switches = u->blob[1];
	w.flags = u->blob[2];
	if (w.model == HSM_SP && !(w.flags & HSM_FLAG_GOAL))
		return -EINVAL;
	for (int i = 0; (w.flags & HSM_FLAG_GOAL) && i < 3; i++) {
		int16_t o = (int16_t)wire_get16(u->blob + 3 + 2 * i);
		int16_t v = (int16_t)wire_get16(u->blob + 9 + 2 * i);

		w.goal[i] = u->pos[i] + o * HSM_GOAL_UNIT;
		w.gvel[i] = v * HSM_GVEL_UNIT;
	}
	*out = w;
	return 0;
}

unsigned hsm_missed_switches(uint8_t prev, const struct hsm_wire *now)
{
	uint8_t d = (uint8_t)(now->switches - prev);

	if (now->flags & HSM_FLAG_SWITCHED)
		d = (uint8_t)(d - 1);
	return d;
}

/* ---- sender ---- */

struct hsm_sender {
	struct hsm_cfg c;
	int started;
	int64_t t0; /* time of the last update */
	double p0[3], v0[3];
	struct hsm_wire w; /* what the last update carried */
	double sum[HSM_NMODELS]; /* per-tick errors since the last update */
};

static int hsm_sender_init(void *priv, const struct predict_params *par)
{
	struct hsm_sender *s = priv;

	memset(s, 0, sizeof(*s));
	cfg_load(&s->c, par);
	return 0;
}

static const double *wire_goal(const struct hsm_wire *w)
{
	return w->flags & HSM_FLAG_GOAL ? w->goal : NULL;
}

static const double *wire_gvel(const struct hsm_wire *w)
{
	return w->flags & HSM_FLAG_GOAL ? w->gvel : NULL;
}

/* 1 if the entity at x may switch to SP toward goal (ray and view cone),
 * 0 if not, -EINVAL when the gate needs a line of sight it cannot ask. */
static int sees_goal(const struct hsm_cfg *c, const struct predict_ctx *ctx,
		     const struct predict_state *x, const double *goal)
{
	double dx, dy, off;

	if (c->gate == GATE_OFF)
		return 1;
	if (!ctx->map.los)
		return -EINVAL;
	if (!ctx->map.los(ctx->map.world, x->pos, goal))
		return 0;
	if (c->fov <= 0)
		return 1;
	dx = goal[0] - x->pos[0];
	dy = goal[1] - x->pos[1];
	if (hypot(dx, dy) < 1e-9)
		return 1;
	off = angle_wrap(atan2(dy, dx) - x->ori[0]);
	return fabs(off) <= c->fov / 2;
}

/* The model to use from this update on (paper 004 §3 pseudo-code). */
static int select_model(const struct hsm_sender *s,
			const struct predict_ctx *ctx,
			const struct predict_state *x, const double *e)
{
	int a = s->w.model, b = a, vis;

	if (s->c.n_models < 2 || !ctx->goal)
		return HSM_DR;
	if (s->c.select == SEL_HSM) {
		b = e[HSM_SP] < s->c.theta ? HSM_SP : HSM_DR;
	} else {
		/* argmin of the average errors (the sums: every candidate
		 * has the same tick count); ties keep a, then DR */
		for (int m = 0; m < s->c.n_models; m++)
			if (s->sum[m] < s->sum[b])
				b = m;
	}
	if (b != HSM_SP || s->c.gate == GATE_OFF)
		return b;
	if (s->c.gate == GATE_DR_TO_SP && a == HSM_SP)
		return b;
	vis = sees_goal(&s->c, ctx, x, ctx->goal);
	if (vis < 0)
		return vis;
	return vis ? HSM_SP : HSM_DR;
}

static void fill_update(struct hsm_sender *s, const struct predict_ctx *ctx,
			const struct predict_state *x, int model, int reason,
			struct predict_update *u)
{
	struct hsm_wire w = {.model = (uint8_t)model,
			     .switches = s->w.switches};

	/* predict with the goal as the receiver decodes it */
	if (ctx->goal)
		hsm_goal_quantize(x->pos, ctx->goal, ctx->goal_vel, &w);
	if (model == HSM_SP && !(w.flags & HSM_FLAG_GOAL))
		model = w.model = HSM_DR;
	if (s->started && w.model != s->w.model) {
		w.switches++;
		w.flags |= HSM_FLAG_SWITCHED;
	}
	memset(u, 0, sizeof(*u));
	u->t_ns = x->t_ns;
	u->drm = PREDICT_DRM_FPW;
	u->reason = (uint8_t)reason;
	v3_copy(u->pos, x->pos);
	v3_copy(u->vel, x->vel);
	v3_copy(u->ori, x->ori);
	hsm_blob_put(u, &w);
	s->w = w;
	s->t0 = x->t_ns;
	v3_copy(s->p0, x->pos);
	v3_copy(s->v0, x->vel);
	memset(s->sum, 0, sizeof(s->sum));
	s->started = 1;
}

static int hsm_sender_tick(void *priv, const struct predict_ctx *ctx,
			   const struct predict_state *x,
			   struct predict_update *out)
{
	struct hsm_sender *s = priv;
	double e[HSM_NMODELS] = {0}, p[3], v[3], dt;
	int reason = -1, model;

	if ((ctx->goal && !v3_finite(ctx->goal)) ||
	    (ctx->goal_vel && !v3_finite(ctx->goal_vel)))
		return -EINVAL;
	if (!s->started) {
		fill_update(s, ctx, x, HSM_DR, PREDICT_REASON_INIT, out);
		return 1;
	}
	dt = (double)(x->t_ns - s->t0) * 1e-9;
	for (int m = 0; m < s->c.n_models; m++) {
		hsm_predict(m, s->p0, s->v0, wire_goal(&s->w), wire_gvel(&s->w),
			    s->c.standoff, dt, p, v);
		e[m] = v3_dist(p, x->pos);
		s->sum[m] += e[m];
	}
	model = s->w.model;
	if (e[model] > s->c.tau) {
		reason = PREDICT_REASON_POSITION;
		model = select_model(s, ctx, x, e);
	} else if (s->c.heartbeat > 0 && dt >= s->c.heartbeat) {
		reason = PREDICT_REASON_HEARTBEAT;
		if (s->c.reselect)
			model = select_model(s, ctx, x, e);
	}
	if (reason < 0)
		return 0;
	if (model < 0)
		return model;
	fill_update(s, ctx, x, model, reason, out);
	return 1;
}

/* ---- receiver ---- */

struct hsm_receiver {
	struct hsm_cfg c;
	int have;
	struct predict_update u;
	struct hsm_wire w;
};

static int hsm_receiver_init(void *priv, const struct predict_params *par)
{
	struct hsm_receiver *r = priv;

	memset(r, 0, sizeof(*r));
	cfg_load(&r->c, par);
	return 0;
}

static int hsm_receiver_update(void *priv, const struct predict_ctx *ctx,
			       const struct predict_update *u, int64_t now)
{
	struct hsm_receiver *r = priv;
	struct hsm_wire w;
	int missed;

	(void)ctx;
	(void)now;
	if (hsm_blob_get(u, &w))
		return -EINVAL;
	missed = r->have && hsm_missed_switches(r->w.switches, &w) != 0;
	r->u = *u;
	r->w = w;
	r->have = 1;
	return missed;
}

static int hsm_receiver_display(void *priv, const struct predict_ctx *ctx,
				int64_t t, struct predict_display *out)
{
	const struct hsm_receiver *r = priv;

	(void)ctx;
	hsm_predict(r->w.model, r->u.pos, r->u.vel, wire_goal(&r->w),
		    wire_gvel(&r->w), r->c.standoff,
		    (double)(t - r->u.t_ns) * 1e-9, out->pos, out->vel);
	v3_copy(out->ori, r->u.ori);
	out->converging = 0;
	return 0;
}

const struct predictor predict_dhsm = {
	.name = "dhsm",
	.summary = "Dynamic Hybrid Strategy Model: DR and shortest-path "
		   "pursuit of a goal, lowest average error on a breach, "
		   "line-of-sight gate, model id and goal in the update",
	.cite = "McCoy, McLoone, Ward, Delaney, ECMS 2005 (paper 004): DR "
		"P=P0+V0 dt, SP P=P0+(T-P0)|V0|dt/|T-P0|, DHSM selection and "
		"LOS gate; HSM rule M=pX+(1-p)G (Delaney et al. 2003) as "
		"select=hsm",
	.params = hsm_params,
	.n_params = N_PARAMS,
	.sender_size = sizeof(struct hsm_sender),
	.receiver_size = sizeof(struct hsm_receiver),
	.sender_init = hsm_sender_init,
	.sender_tick = hsm_sender_tick,
	.receiver_init = hsm_receiver_init,
	.receiver_update = hsm_receiver_update,
	.receiver_display = hsm_receiver_display,
};

int hsm_needs_los(const struct predict_params *par)
{
	double gate;

	return par && par->p == &predict_dhsm &&
	       predict_params_get(par, "los_gate", &gate) == 0 &&
	       gate != GATE_OFF;
}

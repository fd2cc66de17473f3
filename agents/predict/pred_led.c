/*
 * pred_led.c: the "led" predictor, led reckoning (Steele, "Improving
 * client-side prediction ... with experiential data", paper 000). It is
 * the paper's baseline dead reckoning, projective velocity blending
 * (eq. 3-6) with a threshold trigger (Algorithm 1), with two changes:
 * the threshold at the entity's position is eta_p = eta_min +
 * C (eta_max - eta_min) (eq. 8) with C = |V_b . V_p| (eq. 7) against the
 * team's velocity trend map, and the blend time is B_t = K / eta_p
 * (eq. 9) used as Q_t = P_t + (T / B_t)(P'_t - P_t) (eq. 10). With
 * eta_min = eta_max = 20 it is exactly the paper's DR baseline.
 *
 * Ambiguities resolved (led-reckoning.md §7, also in docs/predictors.md):
 * A1 the blend fraction is f = clamp(T / B, 0, 1) with T the seconds since
 *    the update, used in both eq. 3 and eq. 6/10; A2 K = blend *
 *    (eta_min + eta_max) / 2, so the median threshold gets the DR blend
 *    time; A2b B_t is frozen at each update from the eta_p that triggered it
 *    and sent in the update (float32 in the blob), so sender and receiver
 *    agree; A3 C is the cosine of the X-Y vectors, 0 when undefined
 *    (variants: signed, strength); A5 the trend is looked up at the actual
 *    position (variant: model position); A6 the trigger error is |x - Q_t|,
 *    the shared model (variant: |x - P'_t|, Algorithm 1 literally); A7 3-D
 *    distance; A8 acceleration as the sender gives it (finite differences
 *    in the replay), or 0 with accel=off; A13 heartbeat off by default;
 *    A18 an empty or outside cell scores C = empty_c (default 0).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "predict/led.h"
#include "predict/predict.h"
#include "predict/trend.h"
#include "predict/vec3.h"

#define MIN_SPEED 1e-6

double led_correlation(const double vb[2], const double vp[2], int mode,
		       double s_ref, double empty)
{
	double nb = hypot(vb[0], vb[1]), np = hypot(vp[0], vp[1]), d;

	if (nb < MIN_SPEED || np < MIN_SPEED)
		return empty;
	if (mode == LED_CORR_STRENGTH) {
		d = fabs((vb[0] * vp[0] + vb[1] * vp[1]) / nb) / s_ref;
		return d > 1.0 ? 1.0 : d;
	}
	d = (vb[0] * vp[0] + vb[1] * vp[1]) / (nb * np);
	if (mode == LED_CORR_SIGNED)
		d = d > 0 ? d : 0;
	else
		d = fabs(d);
	return d > 1.0 ? 1.0 : d;
}

double led_threshold(double c, double eta_min, double eta_max)
{
	return eta_min + c * (eta_max - eta_min);
}

double led_blend_time(double k, double eta)
{
	return k / eta;
}

static const char *const triggers[] = {"shared", "projection", NULL};
static const char *const corrs[] = {"cosine", "signed", "strength", NULL};
static const char *const lookups[] = {"actual", "model", NULL};

enum {
	P_ETA_MIN,
	P_ETA_MAX,
	P_BLEND,
	P_TRIGGER,
	P_CORR,
	P_SREF,
	P_LOOKUP,
	P_EMPTY,
	P_ACCEL,
	P_HEARTBEAT,
	N_PARAMS
};

static const struct predict_param led_params[N_PARAMS] = {
	[P_ETA_MIN] = PREDICT_REAL(
		"eta_min", 5, 0.001, 1e6, "u",
		"threshold when the motion does not follow the trend "
		"(eq. 8; paper: 5 u)"),
	[P_ETA_MAX] = PREDICT_REAL(
		"eta_max", 35, 0.001, 1e6, "u",
		"threshold when it follows the trend (paper: 35 u); "
		"eta_min = eta_max = 20 is the paper's DR baseline"),
	[P_BLEND] = PREDICT_REAL(
		"blend", 0.25, 0.001, 60, "s",
		"blend time at the median threshold; K = blend * "
		"(eta_min + eta_max) / 2 (eq. 9, A2; not in the paper)"),
	[P_TRIGGER] =
		PREDICT_ENUM("trigger", 0, triggers,
			     "error that triggers an update: |x - Q| (shared "
			     "model) or |x - P'| (Algorithm 1 literal), A6"),
	[P_CORR] = PREDICT_ENUM(
		"correlation", 0, corrs,
		"C of eq. 7: |cos|, signed cos, or strength-weighted "
		"(A3, A4)"),
	[P_SREF] = PREDICT_REAL("s_ref", 250, 0.001, 1e6, "u/s",
				"speed giving C = 1 with correlation=strength"),
	[P_LOOKUP] = PREDICT_ENUM(
		"lookup", 0, lookups,
		"trend cell at the actual or the model position (A5)"),
	[P_EMPTY] = PREDICT_REAL(
		"empty_c", 0, 0, 1, "",
		"C for an empty or outside cell or a stationary model "
		"(A18)"),
	[P_ACCEL] = PREDICT_BOOL(
		"accel", 1,
		"send the acceleration A'_0 (off: first-order PVB, "
		"A8 ablation)"),
	[P_HEARTBEAT] = PREDICT_REAL("heartbeat", 0, 0, 3600, "s",
				     "send at least this often; 0 = off (A13)"),
};

struct led_cfg {
	double eta_min, eta_max, k, s_ref, empty, heartbeat;
	int trigger, corr, lookup, accel;
};

/* The shared model of eq. 3-6/10: sender and receiver hold the same one. */
struct led_model {
	int have;
	int64_t t_arr;		    /* model restart time (update arrival) */
	int64_t t_upd;		    /* sender time of the update */
	double p0[3], v0[3];	    /* model start: P_0, V_0 */
	double pa[3], va[3], aa[3]; /* actual: P'_0, V'_0, A'_0 */
	double ori[3];
	double blend; /* B, seconds */
};

struct led_state {
	struct led_cfg c;
	struct led_model m;
	int64_t last_send;
};

static int cfg_load(struct led_cfg *c, const struct predict_params *par)
{
	c->eta_min = par->v[P_ETA_MIN];
	c->eta_max = par->v[P_ETA_MAX];
	if (c->eta_min > c->eta_max)
		return -EINVAL;
	c->k = par->v[P_BLEND] * 0.5 * (c->eta_min + c->eta_max);
	c->trigger = (int)par->v[P_TRIGGER];
	c->corr = (int)par->v[P_CORR];
	c->s_ref = par->v[P_SREF];
	c->lookup = (int)par->v[P_LOOKUP];
	c->empty = par->v[P_EMPTY];
	c->accel = par->v[P_ACCEL] != 0;
	c->heartbeat = par->v[P_HEARTBEAT];
	return 0;
}

static int led_init(void *priv, const struct predict_params *par)
{
	struct led_state *s = priv;

	memset(s, 0, sizeof(*s));
	return cfg_load(&s->c, par);
}

/* Q_t, V_b and P'_t of the model at time t (eq. 3, 4, 5, 6/10). */
static void model_eval(const struct led_model *m, int64_t t, double q[3],
		       double vb[3], double pa_t[3])
{
	double tt = (double)(t - m->t_arr) * 1e-9;
	double tu = (double)(t - m->t_upd) * 1e-9;
	double f = m->blend > 0 ? tt / m->blend : 1.0;
	double pt;

	if (f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	for (int i = 0; i < 3; i++) {
		vb[i] = m->v0[i] + (m->va[i] - m->v0[i]) * f;	       /* 3 */
		pt = m->p0[i] + vb[i] * tt + 0.5 * m->aa[i] * tt * tt; /* 4 */
		pa_t[i] = m->pa[i] + m->va[i] * tu +
			  0.5 * m->aa[i] * tu * tu; /* 5 */
		q[i] = pt + (pa_t[i] - pt) * f;	    /* 6, 10 */
	}
}

/* Restart the model from its own state at time now with update u. */
static void model_restart(struct led_model *m, const struct predict_update *u,
			  double blend, int64_t now)
{
	double q[3], vb[3], pa[3];

	if (m->have) {
		model_eval(m, now, q, vb, pa);
	} else {
		/* first state: the model starts on the actual projection */
		double tu = (double)(now - u->t_ns) * 1e-9;

		for (int i = 0; i < 3; i++) {
			q[i] = u->pos[i] + u->vel[i] * tu +
			       0.5 * u->acc[i] * tu * tu;
			vb[i] = u->vel[i] + u->acc[i] * tu;
		}
	}
	v3_copy(m->p0, q);
	v3_copy(m->v0, vb);
	v3_copy(m->pa, u->pos);
	v3_copy(m->va, u->vel);
	v3_copy(m->aa, u->acc);
	v3_copy(m->ori, u->ori);
	m->t_arr = now;
	m->t_upd = u->t_ns;
	m->blend = blend;
	m->have = 1;
}

/* B_t travels as a little-endian IEEE float32 in the blob. */
static void blob_put(struct predict_update *u, float b)
{
	uint32_t w;

	memcpy(&w, &b, sizeof(w));
	for (int i = 0; i < 4; i++)
		u->blob[i] = (uint8_t)(w >> (8 * i));
	u->blob_len = 4;
}

static int blob_get(const struct predict_update *u, double *b)
{
	uint32_t w = 0;
	float f;

	if (u->blob_len < 4)
		return -EINVAL;
	for (int i = 0; i < 4; i++)
		w |= (uint32_t)u->blob[i] << (8 * i);
	memcpy(&f, &w, sizeof(f));
	if (!isfinite(f) || f <= 0)
		return -EINVAL;
	*b = f;
	return 0;
}

/* eta_p at the entity (eq. 7-8). */
static int eta_at(const struct led_cfg *c, const struct predict_ctx *ctx,
		  const double at[3], const double vb[3], double *eta)
{
	double vp[2], cc;
	int err;

	if (c->eta_min == c->eta_max) {
		*eta = c->eta_min;
		return 0;
	}
	if (!ctx->trend)
		return -EINVAL;
	err = predict_trend_lookup(ctx->trend, at[0], at[1], vp);
	if (err == -ERANGE || err == -ENOENT)
		cc = c->empty;
	else if (err)
		return err;
	else
		cc = led_correlation(vb, vp, c->corr, c->s_ref, c->empty);
	*eta = led_threshold(cc, c->eta_min, c->eta_max);
	return 0;
}

static int led_sender_tick(void *priv, const struct predict_ctx *ctx,
			   const struct predict_state *x,
			   struct predict_update *out)
{
	struct led_state *s = priv;
	struct predict_update u;
	double q[3], vb[3], pa[3], eta, e;
	int reason = -1, err;

	if (s->m.have) {
		model_eval(&s->m, x->t_ns, q, vb, pa);
	} else {
		v3_copy(q, x->pos);
		v3_copy(vb, x->vel);
		v3_copy(pa, x->pos);
	}
	err = eta_at(&s->c, ctx, s->c.lookup == 0 ? x->pos : q, vb, &eta);
	if (err)
		return err;
	if (!s->m.have) {
		reason = PREDICT_REASON_INIT;
	} else {
		e = v3_dist(x->pos, s->c.trigger == 0 ? q : pa);
		if (s->c.heartbeat > 0 &&
		    (double)(x->t_ns - s->last_send) * 1e-9 >= s->c.heartbeat)
			reason = PREDICT_REASON_HEARTBEAT;
		else if (e > eta) /* Algorithm 1: strict > */
			reason = PREDICT_REASON_POSITION;
	}
	if (reason < 0)
		return 0;
	memset(&u, 0, sizeof(u));
	u.t_ns = x->t_ns;
	u.drm = s->c.accel ? PREDICT_DRM_FVW : PREDICT_DRM_FPW;
	u.reason = (uint8_t)reason;
	v3_copy(u.pos, x->pos);
	v3_copy(u.vel, x->vel);
	if (s->c.accel)
		v3_copy(u.acc, x->acc);
	v3_copy(u.ori, x->ori);
	blob_put(&u, (float)led_blend_time(s->c.k, eta));
	{
		double b = 0;

		/* restart with the receiver's float-rounded B */
		err = blob_get(&u, &b);
		if (err)
			return err;
		model_restart(&s->m, &u, b, x->t_ns);
	}
	s->last_send = x->t_ns;
	*out = u;
	return 1;
}

static int led_receiver_update(void *priv, const struct predict_ctx *ctx,
			       const struct predict_update *u, int64_t now)
{
	struct led_state *s = priv;
	double b;
	int err;

	(void)ctx;
	err = blob_get(u, &b);
	if (err)
		return err;
	model_restart(&s->m, u, b, now);
	return 0;
}

static int led_receiver_display(void *priv, const struct predict_ctx *ctx,
				int64_t t, struct predict_display *out)
{
	struct led_state *s = priv;
	double pa[3];

	(void)ctx;
	model_eval(&s->m, t, out->pos, out->vel, pa);
	v3_copy(out->ori, s->m.ori);
	out->converging = (double)(t - s->m.t_arr) * 1e-9 < s->m.blend;
	return 0;
}

const struct predictor predict_led = {
	.name = "led",
	.summary = "led reckoning: PVB dead reckoning whose threshold and "
		   "blend time follow a velocity trend map",
	.cite = "Steele (paper 000) eq. 3-10, Algorithm 1",
	.params = led_params,
	.n_params = N_PARAMS,
	.sender_size = sizeof(struct led_state),
	.receiver_size = sizeof(struct led_state),
	.sender_init = led_init,
	.sender_tick = led_sender_tick,
	.receiver_init = led_init,
	.receiver_update = led_receiver_update,
	.receiver_display = led_receiver_display,
};

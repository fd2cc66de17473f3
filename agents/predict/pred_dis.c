/*
 * pred_dis.c: the "dis" predictor, IEEE 1278.1 dead reckoning with the
 * standard predictive contract and a choice of receiver convergence.
 * Sender (the rule of DIS 7 §5.2.5 as coded in mixr
 * Nib::isPlayerStateUpdateRequired): send the first state; send when the
 * heartbeat time has passed since the last update; otherwise run the same
 * dead reckoning the receivers run from the last sent state and send when
 * the Euclidean position error exceeds pos_threshold or any wrapped Euler
 * angle error exceeds orient_threshold. Receiver: extrapolates the newest
 * update from the producer's timestamp (not the arrival time: the airbus/sen
 * bug, PR #312) and converges from the old display by
 *   snap    - show the new extrapolation at once;
 *   linear  - mixr's offset decay: the offset old-display minus new
 *             extrapolation at arrival shrinks linearly to 0 over blend s;
 *   pvb     - projective velocity blending (Murphy 2011; Steele, paper
 *             000 eq. 3-6): V_b = V_old + (V_new - V_old) f,
 *             P_vb = P_old + V_b tau + A tau^2 / 2, Q = P_vb + (P_new - P_vb)
 * f, f = min(tau / blend, 1), tau = time since arrival. Orientation converges
 * by the same fraction (wrapped Euler offsets). The body algorithms RVB
 * and FVB send A_b = dV_b/dt (dr.h), not the inertial acceleration in body
 * axes, so that a steady turn is extrapolated exactly; pvb blends with the
 * inertial acceleration R0' (A_b + w x V_b) of the update.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "predict/dr.h"
#include "predict/predict.h"
#include "predict/vec3.h"

enum { CONV_SNAP, CONV_LINEAR, CONV_PVB };

static const char *const algorithms[] = {
	"static", "fpw", "rpw", "rvw", "fvw", "fpb", "rpb", "rvb", "fvb", NULL,
};
static const char *const convergences[] = {"snap", "linear", "pvb", NULL};

enum { P_ALG, P_POS, P_ORIENT, P_HEARTBEAT, P_CONV, P_BLEND, P_SNAP, N_PARAMS };

static const struct predict_param dis_params[N_PARAMS] = {
	[P_ALG] =
		PREDICT_ENUM("algorithm", 1, algorithms,
			     "IEEE 1278.1 dead-reckoning algorithm (DRM 1-9)"),
	[P_POS] = PREDICT_REAL(
		"pos_threshold", 20, 0.001, 1e6, "u",
		"send when the Euclidean position error exceeds this "
		"(DIS 7 default 1 m; 20 u is Steele's DR threshold)"),
	[P_ORIENT] = PREDICT_REAL(
		"orient_threshold", 3, 0, 180, "deg",
		"send when any Euler angle error exceeds this; 0 = off"),
	[P_HEARTBEAT] =
		PREDICT_REAL("heartbeat", 5, 0, 3600, "s",
			     "send at least this often; 0 = off (DIS 7: 5 s)"),
	[P_CONV] =
		PREDICT_ENUM("convergence", 1, convergences,
			     "receiver convergence: snap, linear offset decay, "
			     "projective velocity blending"),
	[P_BLEND] = PREDICT_REAL("blend", 0.5, 0.001, 60, "s",
				 "convergence time of linear and pvb"),
	[P_SNAP] = PREDICT_REAL(
		"snap_distance", 0, 0, 1e9, "u",
		"snap instead of blending when the correction exceeds "
		"this; 0 = never"),
};

struct dis_cfg {
	int drm;
	double pos_thr, orient_thr, heartbeat, blend, snap;
	int conv;
};

static void cfg_load(struct dis_cfg *c, const struct predict_params *par)
{
	c->drm = (int)par->v[P_ALG] + PREDICT_DRM_STATIC;
	c->pos_thr = par->v[P_POS];
	c->orient_thr = par->v[P_ORIENT] * M_PI / 180.0;
	c->heartbeat = par->v[P_HEARTBEAT];
	c->conv = (int)par->v[P_CONV];
	c->blend = par->v[P_BLEND];
	c->snap = par->v[P_SNAP];
}

struct dis_sender {
	struct dis_cfg c;
	int started;
	struct predict_update last;
	/* the previous tick's body velocity, for A_b of RVB/FVB */
	int have_prev;
	int64_t prev_t;
	double prev_vb[3];
};

struct dis_receiver {
	struct dis_cfg c;
	int have;
	struct predict_update u;
	int blending;
	int64_t t_arr;
	double p_old[3], v_old[3], o_off[3];
	double p_off[3]; /* linear: old display - new extrapolation */
};

static int dis_sender_init(void *priv, const struct predict_params *par)
{
	struct dis_sender *s = priv;

	memset(s, 0, sizeof(*s));
	cfg_load(&s->c, par);
	return 0;
}

static double ns_to_s(int64_t ns)
{
	return (double)ns * 1e-9;
}

/*
 * A_b = dV_b/dt for the *B algorithms (dr_body_acc). The state's
 * inertial acceleration and yaw rate are backward differences over the
 * last tick (replay_state_at), so R0 a belongs to the middle of the tick
 * while w x V_b belongs to its end; on a steady turn their difference is
 * a spurious forward acceleration of v w^2 dt / 2 (5.3 u/s^2 for 300 u/s
 * at 1.5 rad/s and 64 Hz). The backward difference of the body velocity
 * over the same tick has no such lag and is 0 on a steady turn, so it is
 * used whenever the previous tick is known; the first tick uses
 * R0 a - w x V_b.
 */
static void body_acc(struct dis_sender *s, const struct predict_state *x,
		     double ab[3])
{
	double r0[3][3], vb[3];

	dr_r0(x->ori, r0);
	m3_mul_v(vb, r0, x->vel);
	if (s->have_prev && x->t_ns > s->prev_t) {
		double k = 1.0 / ns_to_s(x->t_ns - s->prev_t);

		for (int i = 0; i < 3; i++)
			ab[i] = (vb[i] - s->prev_vb[i]) * k;
	} else {
		dr_body_acc(x->ori, x->angvel, x->vel, x->acc, ab);
	}
	v3_copy(s->prev_vb, vb);
	s->prev_t = x->t_ns;
	s->have_prev = 1;
}

static int dis_sender_tick(void *priv, const struct predict_ctx *ctx,
			   const struct predict_state *x,
			   struct predict_update *out)
{
	struct dis_sender *s = priv;
	struct predict_update u;
	double pos[3], ori[3], ab[3];
	int reason = -1, err;

	(void)ctx;
	if (dr_is_body(s->c.drm))
		body_acc(s, x, ab);
	if (!s->started) {
		reason = PREDICT_REASON_INIT;
	} else {
		double dt = ns_to_s(x->t_ns - s->last.t_ns);

		err = dr_extrapolate(&s->last, dt, pos, ori, NULL);
		if (err)
			return err;
		if (s->c.heartbeat > 0 && dt >= s->c.heartbeat) {
			reason = PREDICT_REASON_HEARTBEAT;
		} else if (v3_dist(pos, x->pos) > s->c.pos_thr) {
			reason = PREDICT_REASON_POSITION;
		} else if (s->c.orient_thr > 0) {
			for (int i = 0; i < 3; i++)
				if (fabs(angle_wrap(ori[i] - x->ori[i])) >
				    s->c.orient_thr)
					reason = PREDICT_REASON_ORIENTATION;
		}
	}
	if (reason < 0)
		return 0;
	memset(&u, 0, sizeof(u));
	u.t_ns = x->t_ns;
	u.drm = (uint8_t)s->c.drm;
	u.reason = (uint8_t)reason;
	v3_copy(u.pos, x->pos);
	v3_copy(u.ori, x->ori);
	v3_copy(u.angvel, x->angvel);
	v3_copy(u.vel, x->vel);
	if (dr_is_body(s->c.drm)) {
		v3_copy(u.acc, ab);
	} else {
		v3_copy(u.acc, x->acc);
	}
	s->last = u;
	s->started = 1;
	*out = u;
	return 1;
}

static int dis_receiver_init(void *priv, const struct predict_params *par)
{
	struct dis_receiver *r = priv;

	memset(r, 0, sizeof(*r));
	cfg_load(&r->c, par);
	return 0;
}

static int dis_display(const struct dis_receiver *r, int64_t t,
		       struct predict_display *d)
{
	double p_new[3], o_new[3], v_new[3], tau, f;
	int err;

	err = dr_extrapolate(&r->u, ns_to_s(t - r->u.t_ns), p_new, o_new,
			     v_new);
	if (err)
		return err;
	tau = ns_to_s(t - r->t_arr);
	d->converging = 0;
	if (!r->blending || r->c.conv == CONV_SNAP || tau >= r->c.blend ||
	    tau < 0) {
		v3_copy(d->pos, p_new);
		v3_copy(d->ori, o_new);
		v3_copy(d->vel, v_new);
		return 0;
	}
	f = tau / r->c.blend;
	d->converging = 1;
	if (r->c.conv == CONV_LINEAR) {
		v3_axpy(d->pos, p_new, 1.0 - f, r->p_off);
		v3_axpy(d->vel, v_new, -1.0 / r->c.blend, r->p_off);
	} else {
		double vb[3], pvb[3], aw[3] = {0, 0, 0}, vn[3];
		double tp[3], to[3];

		/* V'_0: the new update's world velocity at arrival */
		dr_extrapolate(&r->u, ns_to_s(r->t_arr - r->u.t_ns), tp, to,
			       vn);
		if (dr_is_second_order(r->u.drm)) {
			if (dr_is_body(r->u.drm)) {
				dr_world_acc(r->u.ori, r->u.angvel, r->u.vel,
					     r->u.acc, aw);
			} else {
				v3_copy(aw, r->u.acc);
			}
		}
		for (int i = 0; i < 3; i++) {
			vb[i] = r->v_old[i] + (vn[i] - r->v_old[i]) * f;
			pvb[i] = r->p_old[i] + vb[i] * tau +
				 0.5 * aw[i] * tau * tau;
			d->pos[i] = pvb[i] + (p_new[i] - pvb[i]) * f;
		}
		v3_copy(d->vel, vb);
	}
	for (int i = 0; i < 3; i++)
		d->ori[i] = angle_wrap(o_new[i] + (1.0 - f) * r->o_off[i]);
	return 0;
}

static int dis_receiver_update(void *priv, const struct predict_ctx *ctx,
			       const struct predict_update *u, int64_t now)
{
	struct dis_receiver *r = priv;
	struct predict_display old;
	double p_new[3], o_new[3];
	int err;

	(void)ctx;
	if (u->drm < PREDICT_DRM_STATIC)
		return -EINVAL;
	err = dr_extrapolate(u, ns_to_s(now - u->t_ns), p_new, o_new, NULL);
	if (err)
		return err;
	r->blending = 0;
	if (r->have && r->c.conv != CONV_SNAP) {
		err = dis_display(r, now, &old);
		if (err)
			return err;
		v3_copy(r->p_old, old.pos);
		v3_copy(r->v_old, old.vel);
		v3_sub(r->p_off, old.pos, p_new);
		for (int i = 0; i < 3; i++)
			r->o_off[i] = angle_wrap(old.ori[i] - o_new[i]);
		r->blending = !(r->c.snap > 0 && v3_norm(r->p_off) > r->c.snap);
	}
	r->u = *u;
	r->t_arr = now;
	r->have = 1;
	return 0;
}

static int dis_receiver_display(void *priv, const struct predict_ctx *ctx,
				int64_t t, struct predict_display *out)
{
	(void)ctx;
	return dis_display(priv, t, out);
}

const struct predictor predict_dis = {
	.name = "dis",
	.summary = "IEEE 1278.1 dead reckoning (DRM 1-9), thresholds, "
		   "heartbeat, snap/linear/pvb convergence",
	.cite = "IEEE 1278.1 DIS annex E; Towers & Hines 1994; Murphy 2011 "
		"and Steele (paper 000) eq. 3-6 for pvb",
	.params = dis_params,
	.n_params = N_PARAMS,
	.sender_size = sizeof(struct dis_sender),
	.receiver_size = sizeof(struct dis_receiver),
	.sender_init = dis_sender_init,
	.sender_tick = dis_sender_tick,
	.receiver_init = dis_receiver_init,
	.receiver_update = dis_receiver_update,
	.receiver_display = dis_receiver_display,
};

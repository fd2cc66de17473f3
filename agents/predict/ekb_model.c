/*
 * ekb_model.c: the behaviour velocities of EKB (Shi, Corriveau and Agar,
 * IJCGT 2014, paper 003, §3 as rebuilt in the extraction §3.2-3.10) and
 * the force of our Interest Scheme reconstruction (extraction §2.2). At a
 * predicted position P of the target player, with the other players as
 * last received:
 *   ROI        |dx| <= W/2, |dy| <= H/2 around P                (§3.2)
 *   battle     min_e |P - P_e| < T_battle over ROI enemies       (eq. 2-4)
 *   follow     C_F = mean ROI friend position, V_F = S unit(C_F - P)
 *                                                                (eq. 6-7)
 *   align      A' = sum w(d) V_f over friends with d_min <= d <= d_max,
 *              w(d) = (d_max - d) / (d_max - d_min), V_A = A' capped at S
 *                                                                (eq. 9-10)
 *   bravery    I = H/H_max + A/A_max; r = (I_own + k I_F - I_E) /
 *              (I_own + k I_F + I_E); Q_B = C_F' + r D_max unit(C_E -
 *              C_F'); V_B = S unit(Q_B - P)                      (eq. 12-15)
 *   combine    in battle alpha V_F + (1 - alpha) V_B, else beta V_F +
 *              (1 - beta) V_A                                    (Alg. 1)
 *   transition E = clamp(c d_near, 1, E_max); V = (1 - n/E) V_LK +
 *              (n/E) V_R for n < E                               (eq. 16-17)
 *   hybrid     a turn is an angle above theta between V(LKPT) and an
 *              earlier velocity                                  (Alg. 4)
 * The linear align weight, the normalised strength ratio and the ROI
 * rectangle are the extraction's suggested resolutions (§8 items 4, 5).
 * Pure.
 */
#include <math.h>
#include <string.h>

#include "predict/ekb.h"

double ekb_strength(const struct ekb_cfg *c, double health, double ammo)
{
	return health / c->h_max + ammo / c->a_max;
}

int ekb_in_roi(const struct ekb_cfg *c, const double p[2], const double q[2])
{
	return fabs(q[0] - p[0]) <= 0.5 * c->roi_w &&
	       fabs(q[1] - p[1]) <= 0.5 * c->roi_h;
}

void ekb_toward(double speed, const double p[2], const double to[2],
		double out[2])
{
	double dx = to[0] - p[0], dy = to[1] - p[1];
	double d = hypot(dx, dy);

	if (d <= 0) {
		out[0] = out[1] = 0;
		return;
	}
	out[0] = speed * dx / d;
	out[1] = speed * dy / d;
}

/* Align (eq. 9-10) over friends already known to be in the ROI. */
static void align_add(const struct ekb_cfg *c, double d, const double v[2],
		      double a[2])
{
	double w;

	if (d < c->d_min || d > c->d_max)
		return;
	w = c->d_max > c->d_min ? (c->d_max - d) / (c->d_max - c->d_min) : 1;
	a[0] += w * v[0];
	a[1] += w * v[1];
}

static void cap(double v[2], double s)
{
	double m = hypot(v[0], v[1]);

	if (m > s) {
		v[0] *= s / m;
		v[1] *= s / m;
	}
}

/* Bravery (eq. 12-15) from the ROI sums. */
static void bravery(const struct ekb_cfg *c, const double p[2], double own,
		    double i_f, double i_e, struct ekb_eval *e)
{
	double den = own + c->k * i_f + i_e, dir[2];

	e->r = den > 0 ? (own + c->k * i_f - i_e) / den : 0;
	ekb_toward(1.0, e->cf, e->ce, dir);
	e->qb[0] = e->cf[0] + e->r * c->d_run * dir[0];
	e->qb[1] = e->cf[1] + e->r * c->d_run * dir[1];
	ekb_toward(c->speed, p, e->qb, e->vb);
}

void ekb_evaluate(const struct ekb_cfg *c, const double p[2], double own,
		  const struct ekb_body *b, size_t n, struct ekb_eval *out)
{
	struct ekb_eval e;
	double sf[2] = {0, 0}, se[2] = {0, 0}, i_f = 0, i_e = 0;

	memset(&e, 0, sizeof(e));
	e.closest_enemy = e.closest_friend = INFINITY;
	for (size_t i = 0; i < n; i++) {
		double d = hypot(b[i].p[0] - p[0], b[i].p[1] - p[1]);

		if (!ekb_in_roi(c, p, b[i].p))
			continue;
		if (b[i].friend) {
			e.n_friends++;
			sf[0] += b[i].p[0];
			sf[1] += b[i].p[1];
			i_f += b[i].strength;
			e.closest_friend = fmin(e.closest_friend, d);
			align_add(c, d, b[i].v, e.va);
		} else {
			e.n_enemies++;
			se[0] += b[i].p[0];
			se[1] += b[i].p[1];
			i_e += b[i].strength;
			e.closest_enemy = fmin(e.closest_enemy, d);
		}
	}
	cap(e.va, c->speed);
	e.in_battle = e.closest_enemy < c->t_battle;
	e.cf[0] = e.n_friends ? sf[0] / e.n_friends : p[0];
	e.cf[1] = e.n_friends ? sf[1] / e.n_friends : p[1];
	e.ce[0] = e.n_enemies ? se[0] / e.n_enemies : p[0];
	e.ce[1] = e.n_enemies ? se[1] / e.n_enemies : p[1];
	if (e.n_friends)
		ekb_toward(c->speed, p, e.cf, e.vf);
	if (e.n_enemies)
		bravery(c, p, own, i_f, i_e, &e);
	else
		memcpy(e.qb, p, sizeof(e.qb));
	ekb_combine(c, &e);
	*out = e;
}

void ekb_combine(const struct ekb_cfg *c, struct ekb_eval *e)
{
	double w = e->in_battle ? c->alpha : c->beta;
	const double *o = e->in_battle ? e->vb : e->va;

	e->vr[0] = w * e->vf[0] + (1 - w) * o[0];
	e->vr[1] = w * e->vf[1] + (1 - w) * o[1];
}

double ekb_transition_len(const struct ekb_cfg *c, double d_near)
{
	double e;

	if (!isfinite(d_near))
		return c->e_max;
	e = c->c * d_near;
	if (e > c->e_max)
		e = c->e_max;
	return e < 1 ? 1 : e;
}

double ekb_transition_weight(double n, double e)
{
	return n < e ? n / e : 1.0;
}

int ekb_direction_changed(const double v0[2], const double v[2], double theta)
{
	double a = hypot(v0[0], v0[1]), b = hypot(v[0], v[1]), cs;

	if (a < EKB_STILL && b < EKB_STILL)
		return 0;
	if (a < EKB_STILL || b < EKB_STILL)
		return 1;
	cs = (v0[0] * v[0] + v0[1] * v[1]) / (a * b);
	cs = cs > 1 ? 1 : cs < -1 ? -1 : cs;
	return acos(cs) > theta;
}

/* One source of interest: s w g(d) unit(q - p), g(d) = (R - d) / R. */
static void is_add(const struct ekb_cfg *c, const double p[2],
		   const double q[2], double sw, double f[2])
{
	double dx = q[0] - p[0], dy = q[1] - p[1], d = hypot(dx, dy);

	if (d <= 0 || d >= c->r_is)
		return;
	f[0] += sw * (c->r_is - d) / c->r_is * dx / d;
	f[1] += sw * (c->r_is - d) / c->r_is * dy / d;
}

int is_direction(const struct ekb_cfg *c, const double p[2], double own_health,
		 const struct ekb_body *b, size_t n,
		 const struct predict_item *items, size_t n_items,
		 double out[2])
{
	double f[2] = {0, 0}, m;

	for (size_t i = 0; i < n; i++) {
		double sw = b[i].friend			? c->w_friend
			    : own_health >= b[i].health ? c->w_enemy
							: -c->w_enemy;

		is_add(c, p, b[i].p, sw, f);
	}
	for (size_t i = 0; i < n_items; i++)
		if (items[i].present)
			is_add(c, p, items[i].pos, c->w_item, f);
	m = hypot(f[0], f[1]);
	if (m <= 1e-12)
		return 0;
	out[0] = f[0] / m;
	out[1] = f[1] / m;
	return 1;
}

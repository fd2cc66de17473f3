/*
 * dr.c: IEEE 1278.1 dead reckoning, the nine algorithms STATIC, FPW, RPW,
 * RVW, FVW, FPB, RPB, RVB, FVB. Equations as in the DIS standard's annex
 * and Towers & Hines (1994), restated in the project notes
 * (netcode-and-dis-dead-reckoning.md §1.2):
 *   P = P0                              STATIC
 *   P = P0 + V0 dt                      FPW, RPW
 *   P = P0 + V0 dt + A0 dt^2 / 2        RVW, FVW
 *   P = P0 + R0' R1 V0                  FPB, RPB (V0 = R0 V_world)
 *   P = P0 + R0' (R1 V0 + R2 A0)        RVB, FVB
 *   R_wb(dt) = DR(dt) R0                R* orientation
 * A0 of RVB/FVB is the derivative of the body-axis velocity, dV_b/dt =
 * R0 a - w x V_b, not the inertial acceleration seen in body axes: R1 V0
 * already bends the path, so a steady turn has A0 = 0 (dr_body_acc).
 * The coefficients of DR, R1 and R2 lose all precision for small w dt
 * (and public code got the w = 0 case wrong: R1 = R2 = I, §1.5), so below
 * x = w dt = 1e-2 they are evaluated from their Taylor series, whose
 * w -> 0 limits are DR = I, R1 = dt I, R2 = dt^2/2 I.
 */
#include <errno.h>
#include <math.h>

#include "predict/dr.h"
#include "predict/vec3.h"

#define SERIES_X 1e-2

void dr_r0(const double ori[3], double r[3][3])
{
	double cps = cos(ori[0]), sps = sin(ori[0]);
	double cth = cos(ori[1]), sth = sin(ori[1]);
	double cph = cos(ori[2]), sph = sin(ori[2]);

	r[0][0] = cth * cps;
	r[0][1] = cth * sps;
	r[0][2] = -sth;
	r[1][0] = sph * sth * cps - cph * sps;
	r[1][1] = sph * sth * sps + cph * cps;
	r[1][2] = sph * cth;
	r[2][0] = cph * sth * cps + sph * sps;
	r[2][1] = cph * sth * sps - sph * cps;
	r[2][2] = cph * cth;
}

/* m = a ww' + b I + k W, with W the skew matrix of w (W v = w x v). */
static void compose(const double w[3], double a, double b, double k,
		    double m[3][3])
{
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			m[i][j] = a * w[i] * w[j] + (i == j ? b : 0.0);
	m[0][1] += -k * w[2];
	m[0][2] += k * w[1];
	m[1][0] += k * w[2];
	m[1][2] += -k * w[0];
	m[2][0] += -k * w[1];
	m[2][1] += k * w[0];
}

void dr_rotation(const double w[3], double dt, double m[3][3])
{
	double wn = v3_norm(w), x = wn * dt, x2 = x * x;
	double a, b, k;

	if (fabs(x) < SERIES_X) {
		/* (1-c)/w^2 and s/w by their series in x */
		a = dt * dt * (0.5 - x2 / 24.0 + x2 * x2 / 720.0);
		k = -dt * (1.0 - x2 / 6.0 + x2 * x2 / 120.0);
		b = 1.0 - x2 / 2.0 + x2 * x2 / 24.0;
	} else {
		a = (1.0 - cos(x)) / (wn * wn);
		k = -sin(x) / wn;
		b = cos(x);
	}
	compose(w, a, b, k, m);
}

void dr_r1(const double w[3], double dt, double m[3][3])
{
	double wn = v3_norm(w), x = wn * dt, x2 = x * x;
	double a, b, k;

	if (fabs(x) < SERIES_X) {
		a = dt * dt * dt * (1.0 / 6.0 - x2 / 120.0 + x2 * x2 / 5040.0);
		b = dt * (1.0 - x2 / 6.0 + x2 * x2 / 120.0);
		k = dt * dt * (0.5 - x2 / 24.0 + x2 * x2 / 720.0);
	} else {
		double s = sin(x), c = cos(x);

		a = (x - s) / (wn * wn * wn);
		b = s / wn;
		k = (1.0 - c) / (wn * wn);
	}
	compose(w, a, b, k, m);
}

void dr_r2(const double w[3], double dt, double m[3][3])
{
	double wn = v3_norm(w), x = wn * dt, x2 = x * x;
	double a, b, k;

	if (fabs(x) < SERIES_X) {
		double dt2 = dt * dt;

		a = dt2 * dt2 * (1.0 / 8.0 - x2 / 144.0 + x2 * x2 / 5760.0);
		b = dt2 * (0.5 - x2 / 8.0 + x2 * x2 / 144.0);
		k = dt2 * dt * (1.0 / 3.0 - x2 / 30.0 + x2 * x2 / 840.0);
	} else {
		double s = sin(x), c = cos(x), w2 = wn * wn;

		a = (0.5 * x2 - c - x * s + 1.0) / (w2 * w2);
		b = (c + x * s - 1.0) / w2;
		k = (s - x * c) / (w2 * wn);
	}
	compose(w, a, b, k, m);
}

void dr_euler(const double m[3][3], double ori[3])
{
	double st = -m[0][2];

	if (st > 1.0)
		st = 1.0;
	else if (st < -1.0)
		st = -1.0;
	ori[1] = asin(st);
	if (hypot(m[0][0], m[0][1]) < 1e-12) {
		/* theta = +-90 deg: only psi -+ phi is defined, and the four
		 * entries read above are 0 up to rounding (their signs would
		 * pick psi and phi); take phi = 0, when row 1 of R0 is
		 * (-sin psi, cos psi, 0) */
		ori[0] = atan2(-m[1][0], m[1][1]);
		ori[2] = 0;
		return;
	}
	ori[0] = atan2(m[0][1], m[0][0]);
	ori[2] = atan2(m[1][2], m[2][2]);
}

void dr_body_acc(const double ori[3], const double w[3], const double vel[3],
		 const double acc[3], double ab[3])
{
	double r0[3][3], vb[3], wxv[3], a[3];

	dr_r0(ori, r0);
	m3_mul_v(vb, r0, vel);
	m3_mul_v(a, r0, acc);
	v3_cross(wxv, w, vb);
	v3_sub(ab, a, wxv);
}

void dr_world_acc(const double ori[3], const double w[3], const double vel[3],
		  const double ab[3], double acc[3])
{
	double r0[3][3], vb[3], a[3];

	dr_r0(ori, r0);
	m3_mul_v(vb, r0, vel);
	v3_cross(a, w, vb);
	v3_axpy(a, a, 1.0, ab);
	m3_tmul_v(acc, r0, a);
}

int dr_is_body(int a)
{
	return a >= PREDICT_DRM_FPB && a <= PREDICT_DRM_FVB;
}

int dr_is_second_order(int a)
{
	return a == PREDICT_DRM_RVW || a == PREDICT_DRM_FVW ||
	       a == PREDICT_DRM_RVB || a == PREDICT_DRM_FVB;
}

int dr_is_rotating(int a)
{
	return a == PREDICT_DRM_RPW || a == PREDICT_DRM_RVW ||
	       a == PREDICT_DRM_RPB || a == PREDICT_DRM_RVB;
}

int dr_extrapolate(const struct predict_update *u, double dt, double pos[3],
		   double ori[3], double vel[3])
{
	double r0[3][3], m[3][3], rwb[3][3], d[3], t[3], v[3];
	int a = u->drm;

	if (a < PREDICT_DRM_STATIC || a > PREDICT_DRM_FVB)
		return -EINVAL;
	v3_copy(pos, u->pos);
	v3_copy(ori, u->ori);
	v3_set(v, 0, 0, 0);
	if (a == PREDICT_DRM_STATIC) {
		if (vel)
			v3_copy(vel, v);
		return 0;
	}
	if (!dr_is_body(a)) {
		v3_axpy(pos, pos, dt, u->vel);
		v3_copy(v, u->vel);
		if (dr_is_second_order(a)) {
			v3_axpy(pos, pos, 0.5 * dt * dt, u->acc);
			v3_axpy(v, v, dt, u->acc);
		}
	} else {
		double vb[3];

		/* the update's velocity is world frame; *B integrate it in
		 * body axes */
		dr_r0(u->ori, r0);
		m3_mul_v(vb, r0, u->vel);
		dr_r1(u->angvel, dt, m);
		m3_mul_v(d, m, vb);
		if (dr_is_second_order(a)) {
			dr_r2(u->angvel, dt, m);
			m3_mul_v(t, m, u->acc);
			v3_axpy(d, d, 1.0, t);
		}
		m3_tmul_v(d, r0, d);
		v3_axpy(pos, pos, 1.0, d);
		/* body velocity V0 + A0 dt, seen in the world: (DR R0)' v */
		v3_copy(t, vb);
		if (dr_is_second_order(a))
			v3_axpy(t, t, dt, u->acc);
		dr_rotation(u->angvel, dt, m);
		m3_mul(rwb, m, r0);
		m3_tmul_v(v, rwb, t);
	}
	if (dr_is_rotating(a)) {
		dr_r0(u->ori, r0);
		dr_rotation(u->angvel, dt, m);
		m3_mul(rwb, m, r0);
		dr_euler(rwb, ori);
	}
	if (vel)
		v3_copy(vel, v);
	return 0;
}

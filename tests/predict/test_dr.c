/*
 * test_dr.c: known-answer tests of the nine IEEE 1278.1 dead-reckoning
 * algorithms (agents/predict/dr.c), values computed by hand in the
 * comments, the omega -> 0 limits of R1 and R2, the oracles of
 * netcode-and-dis-dead-reckoning.md §1.5 (DR orthonormal, R* with w = 0
 * equals F*, *B with R0 = I equals *W, d/dt R1 = DR', d/dt R2 = dt DR'),
 * regressions for the public DR bugs (mixr: R1 = R2 = I at w = 0; R2
 * written into R1 for RVB/FVB), and rotations that do not commute with
 * the attitude (heading 90 deg while rolling about body x, by hand; random
 * states against Rodrigues' formula composed in the test), so that the
 * order DR(dt) R0 is checked.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "predict/dr.h"
#include "predict/vec3.h"

#define EPS 1e-12

static struct predict_update upd(int drm, double px, double py, double pz,
				 double vx, double vy, double vz)
{
	struct predict_update u;

	memset(&u, 0, sizeof(u));
	u.drm = (uint8_t)drm;
	v3_set(u.pos, px, py, pz);
	v3_set(u.vel, vx, vy, vz);
	return u;
}

static void expect_v3(const double a[3], double x, double y, double z,
		      double tol)
{
	cr_expect(fabs(a[0] - x) <= tol, "x: got %.15g want %.15g", a[0], x);
	cr_expect(fabs(a[1] - y) <= tol, "y: got %.15g want %.15g", a[1], y);
	cr_expect(fabs(a[2] - z) <= tol, "z: got %.15g want %.15g", a[2], z);
}

/* A fixed-seed generator for the random states of the oracles. */
static uint64_t lcg = 12345;

static double uni(double lo, double hi)
{
	lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
	return lo + (hi - lo) * (double)(lcg >> 11) / 9007199254740992.0;
}

Test(dr, static_stays)
{
	struct predict_update u = upd(PREDICT_DRM_STATIC, 1, 2, 3, 9, 9, 9);
	double p[3], o[3], v[3];

	u.ori[0] = 0.5;
	cr_assert_eq(dr_extrapolate(&u, 7.0, p, o, v), 0);
	expect_v3(p, 1, 2, 3, 0);
	expect_v3(o, 0.5, 0, 0, 0);
	expect_v3(v, 0, 0, 0, 0);
}

Test(dr, fpw_first_order)
{
	/* (1,2,3) + (4,0,-2) * 0.5 = (3,2,2) */
	struct predict_update u = upd(PREDICT_DRM_FPW, 1, 2, 3, 4, 0, -2);
	double p[3], o[3], v[3];

	u.acc[2] = 100; /* ignored by a first-order algorithm */
	cr_assert_eq(dr_extrapolate(&u, 0.5, p, o, v), 0);
	expect_v3(p, 3, 2, 2, EPS);
	expect_v3(v, 4, 0, -2, EPS);
}

Test(dr, rvw_fvw_second_order)
{
	/* V dt + A dt^2/2 = (1,2,0)*2 + (0,0,-10)*2 = (2,4,-20);
	 * V + A dt = (1,2,-20) */
	int algs[] = {PREDICT_DRM_RVW, PREDICT_DRM_FVW};

	for (int i = 0; i < 2; i++) {
		struct predict_update u = upd(algs[i], 0, 0, 0, 1, 2, 0);
		double p[3], o[3], v[3];

		u.acc[2] = -10;
		cr_assert_eq(dr_extrapolate(&u, 2.0, p, o, v), 0);
		expect_v3(p, 2, 4, -20, EPS);
		expect_v3(v, 1, 2, -20, EPS);
	}
}

Test(dr, rpw_rotates_orientation_only)
{
	/* yaw rate pi/2 for 1 s: psi 0 -> pi/2; position stays linear */
	struct predict_update u = upd(PREDICT_DRM_RPW, 0, 0, 0, 3, 0, 0);
	double p[3], o[3];

	u.angvel[2] = M_PI / 2;
	cr_assert_eq(dr_extrapolate(&u, 1.0, p, o, NULL), 0);
	expect_v3(p, 3, 0, 0, EPS);
	expect_v3(o, M_PI / 2, 0, 0, 1e-12);
}

Test(dr, fpb_heading_90)
{
	/* psi = 90 deg: body x is world y. World velocity (0,10,0) is body
	 * (10,0,0); with w = 0, P = P0 + R0' (dt I) Vb = (0,10,0) at 1 s. */
	struct predict_update u = upd(PREDICT_DRM_FPB, 0, 0, 0, 0, 10, 0);
	double p[3], o[3], v[3];

	u.ori[0] = M_PI / 2;
	cr_assert_eq(dr_extrapolate(&u, 1.0, p, o, v), 0);
	expect_v3(p, 0, 10, 0, 1e-12);
	expect_v3(v, 0, 10, 0, 1e-12);
	expect_v3(o, M_PI / 2, 0, 0, 0);
}

Test(dr, rpb_quarter_circle)
{
	/* Body speed 1 along heading, yaw rate w = pi/2, 1 s: a quarter of
	 * a circle of radius r = 1/w = 2/pi from heading +x: ends at
	 * (r, r, 0) heading +y. R1 V = (s/w) V + ((1-c)/w^2) (w x V) with
	 * s = 1, c = 0: (2/pi, 2/pi, 0). */
	struct predict_update u = upd(PREDICT_DRM_RPB, 0, 0, 0, 1, 0, 0);
	double p[3], o[3], v[3], r = 2 / M_PI;

	u.angvel[2] = M_PI / 2;
	cr_assert_eq(dr_extrapolate(&u, 1.0, p, o, v), 0);
	expect_v3(p, r, r, 0, 1e-12);
	expect_v3(o, M_PI / 2, 0, 0, 1e-12);
	expect_v3(v, 0, 1, 0, 1e-12); /* velocity turned with the body */
}

Test(dr, rpb_from_heading_90_turns_left)
{
	/* Same circle started at psi = 90 deg (world velocity (0,1,0)):
	 * body R1 Vb = (r, r, 0), world R0' (r, r, 0) = (-r, r, 0), and the
	 * heading ends at 180 deg. */
	struct predict_update u = upd(PREDICT_DRM_RPB, 5, 5, 0, 0, 1, 0);
	double p[3], o[3], r = 2 / M_PI;

	u.ori[0] = M_PI / 2;
	u.angvel[2] = M_PI / 2;
	cr_assert_eq(dr_extrapolate(&u, 1.0, p, o, NULL), 0);
	expect_v3(p, 5 - r, 5 + r, 0, 1e-12);
	cr_expect(fabs(angle_wrap(o[0] - M_PI)) < 1e-12);
}

Test(dr, rvb_fvb_accelerating_turn)
{
	/* Body acceleration 1 along heading from rest, yaw rate w = pi/2:
	 * P = int_0^1 t (cos wt, sin wt) dt = (1/w - 1/w^2, 1/w^2)
	 *   = (2/pi - 4/pi^2, 4/pi^2, 0) = (0.231335.., 0.405284.., 0).
	 * From R2: ((c + x s - 1)/w^2) A + ((s - x c)/w^3)(w x A) with x =
	 * pi/2, s = 1, c = 0 gives the same. FVB keeps psi = 0, RVB turns. */
	int algs[] = {PREDICT_DRM_RVB, PREDICT_DRM_FVB};
	double want_psi[] = {M_PI / 2, 0};

	for (int i = 0; i < 2; i++) {
		struct predict_update u = upd(algs[i], 0, 0, 0, 0, 0, 0);
		double p[3], o[3];

		u.acc[0] = 1;
		u.angvel[2] = M_PI / 2;
		cr_assert_eq(dr_extrapolate(&u, 1.0, p, o, NULL), 0);
		expect_v3(p, 2 / M_PI - 4 / (M_PI * M_PI), 4 / (M_PI * M_PI), 0,
			  1e-12);
		expect_v3(o, want_psi[i], 0, 0, 1e-12);
	}
}

/*
 * Non-commuting rotations. Every case above turns about the axis of the
 * attitude it starts from, so DR R0 = R0 DR there and swapping the order
 * of R_wb = DR(dt) R0 (or of the body velocity's (DR R0)' Vb) goes
 * unseen. Here the entity heads psi = 90 deg and rolls about its own x
 * axis at w = pi/2 rad/s for dt = 1 s (s = 1, c = 0).
 *
 * R0(psi = 90) = [[0,1,0],[-1,0,0],[0,0,1]]: body x is world +y, body y
 * is world -x, body z is world +z.
 * DR = ((1-c)/w^2) ww' + c I - (s/w) W with w = (w,0,0) is
 *   [[1,0,0],[0,0,1],[0,-1,0]], a roll of +90 deg (R_x(90) in the
 *   world -> body convention of R0).
 * DR R0 = [[0,1,0],[0,0,1],[1,0,0]]: theta = asin(-m02) = 0, psi =
 *   atan2(m01, m00) = 90 deg, phi = atan2(m12, m22) = 90 deg.
 * The swapped R0 DR = [[0,0,1],[-1,0,0],[0,-1,0]] reads theta = -90 deg.
 *
 * Position of the body algorithms with world velocity (1,0,0), which is
 * body Vb = R0 (1,0,0) = (0,-1,0) (along body -y): body -y at roll phi
 * is world (cos phi, 0, -sin phi), so with phi = w t
 *   P - P0 = int_0^1 (cos wt, 0, -sin wt) dt = (1/w, 0, -1/w)
 *          = (r, 0, -r), r = 2/pi,
 * and the final velocity is body -y at phi = 90 deg: world (0,0,-1).
 * The swapped order gives DR' R0' Vb = DR' (1,0,0) = (1,0,0) instead.
 */
#define R90 (M_PI / 2)

static struct predict_update roll_at_heading_90(int drm)
{
	struct predict_update u = upd(drm, 5, 6, 7, 1, 0, 0);

	u.ori[0] = R90;
	u.angvel[0] = R90;
	return u;
}

Test(dr, rotating_world_noncommuting_attitude)
{
	/* RPW: P = P0 + V dt = (6,6,7); RVW with A = (0,2,-4):
	 * P = (5,6,7) + (1,0,0) + (0,1,-2) = (6,7,5), V = (1,2,-4). Both
	 * end at (psi, theta, phi) = (90, 0, 90) deg, velocity untouched
	 * by the rotation (world frame). */
	struct predict_update u = roll_at_heading_90(PREDICT_DRM_RPW);
	double p[3], o[3], v[3];

	cr_assert_eq(dr_extrapolate(&u, 1.0, p, o, v), 0);
	expect_v3(p, 6, 6, 7, 1e-12);
	expect_v3(o, R90, 0, R90, 1e-12);
	expect_v3(v, 1, 0, 0, 1e-12);
	u = roll_at_heading_90(PREDICT_DRM_RVW);
	v3_set(u.acc, 0, 2, -4);
	cr_assert_eq(dr_extrapolate(&u, 1.0, p, o, v), 0);
	expect_v3(p, 6, 7, 5, 1e-12);
	expect_v3(o, R90, 0, R90, 1e-12);
	expect_v3(v, 1, 2, -4, 1e-12);
}

Test(dr, body_noncommuting_attitude)
{
	/* RPB turns: P = P0 + (r, 0, -r), orientation (90, 0, 90) deg,
	 * velocity (0,0,-1). FPB has the same position and velocity (the
	 * body integral R1 does not depend on whether the orientation is
	 * carried) but keeps the orientation (90, 0, 0) deg. */
	double r = 2 / M_PI;
	struct predict_update u = roll_at_heading_90(PREDICT_DRM_RPB);
	double p[3], o[3], v[3];

	cr_assert_eq(dr_extrapolate(&u, 1.0, p, o, v), 0);
	expect_v3(p, 5 + r, 6, 7 - r, 1e-12);
	expect_v3(o, R90, 0, R90, 1e-12);
	expect_v3(v, 0, 0, -1, 1e-12);
	u.drm = PREDICT_DRM_FPB;
	cr_assert_eq(dr_extrapolate(&u, 1.0, p, o, v), 0);
	expect_v3(p, 5 + r, 6, 7 - r, 1e-12);
	expect_v3(o, R90, 0, 0, 0);
	expect_v3(v, 0, 0, -1, 1e-12);
}

Test(dr, rvb_noncommuting_attitude)
{
	/* RVB from rest with body acceleration along body -y (A = (0,-1,0),
	 * as the sender puts it: body frame):
	 *   P - P0 = int_0^1 t (cos wt, 0, -sin wt) dt
	 *          = (1/w - 1/w^2, 0, -1/w^2) = (2/pi - 4/pi^2, 0, -4/pi^2);
	 * velocity A dt in the final body frame: (0,0,-1); orientation
	 * (90, 0, 90) deg. */
	struct predict_update u = roll_at_heading_90(PREDICT_DRM_RVB);
	double p[3], o[3], v[3], w2 = 4 / (M_PI * M_PI);

	v3_set(u.vel, 0, 0, 0);
	v3_set(u.acc, 0, -1, 0);
	cr_assert_eq(dr_extrapolate(&u, 1.0, p, o, v), 0);
	expect_v3(p, 5 + 2 / M_PI - w2, 6, 7 - w2, 1e-12);
	expect_v3(o, R90, 0, R90, 1e-12);
	expect_v3(v, 0, 0, -1, 1e-12);
}

/* Independent closed forms for random states (not dr.c's formulas):
 * the attitude matrix as the product R_x(phi) R_y(theta) R_z(psi) of
 * elementary rotations, and the body's own turn by Rodrigues' formula
 * Rod(k, a) = I + sin a K + (1 - cos a) K^2 (K the skew matrix of the
 * unit axis k), a rotation of vectors in the body frame. The body-to-
 * world matrix after dt is then R0' Rod(k, w dt), so the world-to-body
 * R_wb = Rod(k, w dt)' R0; its time integral is
 *   int_0^dt Rod = dt I + ((1 - cos w dt)/w) K + (dt - sin(w dt)/w) K^2,
 * which gives P = P0 + R0' (int Rod) Vb and V = R0' Rod Vb. */
static void elem(int axis, double a, double m[3][3])
{
	/* world -> body rotation by a about axis (passive) */
	int i = (axis + 1) % 3, j = (axis + 2) % 3;

	memset(m, 0, 9 * sizeof(double));
	m[axis][axis] = 1;
	m[i][i] = m[j][j] = cos(a);
	m[i][j] = sin(a);
	m[j][i] = -sin(a);
}

static void attitude(const double ori[3], double m[3][3])
{
	double x[3][3], y[3][3], z[3][3], t[3][3];

	elem(0, ori[2], x);
	elem(1, ori[1], y);
	elem(2, ori[0], z);
	m3_mul(t, y, z);
	m3_mul(m, x, t);
}

static void rodrigues(const double k[3], double sa, double ca_1, double id,
		      double m[3][3])
{
	/* m = id I + sa K + ca_1 K^2 */
	double kk[3][3] = {
		{0, -k[2], k[1]}, {k[2], 0, -k[0]}, {-k[1], k[0], 0}};
	double k2[3][3];

	m3_mul(k2, kk, kk);
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			m[i][j] = (i == j ? id : 0) + sa * kk[i][j] +
				  ca_1 * k2[i][j];
}

Test(dr, rotating_matches_rodrigues)
{
	for (int n = 0; n < 100; n++) {
		double w[3] = {uni(-2, 2), uni(-2, 2), uni(-2, 2)};
		double ori[3] = {uni(-3, 3), uni(-1.2, 1.2), uni(-3, 3)};
		double dt = uni(0.2, 3), wn = v3_norm(w), a = wn * dt, k[3];
		double r0[3][3], rod[3][3], irod[3][3], rwb[3][3], got[3][3];
		double vb[3], t[3], pw[3], vw[3], p[3], o[3], v[3];
		struct predict_update u =
			upd(PREDICT_DRM_RPB, uni(-9, 9), uni(-9, 9), uni(-9, 9),
			    uni(-9, 9), uni(-9, 9), uni(-9, 9));

		for (int i = 0; i < 3; i++)
			k[i] = w[i] / wn;
		v3_copy(u.ori, ori);
		v3_copy(u.angvel, w);
		attitude(ori, r0);
		rodrigues(k, sin(a), 1 - cos(a), 1, rod);
		rodrigues(k, (1 - cos(a)) / wn, dt - sin(a) / wn, dt, irod);
		/* R_wb = Rod' R0 */
		for (int i = 0; i < 3; i++)
			for (int j = 0; j < 3; j++)
				rwb[i][j] = rod[0][i] * r0[0][j] +
					    rod[1][i] * r0[1][j] +
					    rod[2][i] * r0[2][j];
		m3_mul_v(vb, r0, u.vel);
		m3_mul_v(t, irod, vb);
		m3_tmul_v(pw, r0, t);
		v3_axpy(pw, pw, 1.0, u.pos);
		m3_mul_v(t, rod, vb);
		m3_tmul_v(vw, r0, t);

		cr_assert_eq(dr_extrapolate(&u, dt, p, o, v), 0);
		expect_v3(p, pw[0], pw[1], pw[2], 1e-9);
		expect_v3(v, vw[0], vw[1], vw[2], 1e-9);
		/* compare matrices, not angles (no wrap or gimbal issues) */
		attitude(o, got);
		for (int i = 0; i < 3; i++)
			for (int j = 0; j < 3; j++)
				cr_expect(
					fabs(got[i][j] - rwb[i][j]) < 1e-9,
					"n %d R[%d][%d]: got %.12g want %.12g",
					n, i, j, got[i][j], rwb[i][j]);
	}
}

Test(dr, pitch_rotation_euler)
{
	/* Pitch rate pi/4 for 1 s from level: DR = R_y(-pi/4), whose
	 * m[0][2] = -sqrt(2)/2, so theta = asin(sqrt(2)/2) = pi/4. */
	struct predict_update u = upd(PREDICT_DRM_RPW, 0, 0, 0, 0, 0, 0);
	double p[3], o[3];

	u.angvel[1] = M_PI / 4;
	cr_assert_eq(dr_extrapolate(&u, 1.0, p, o, NULL), 0);
	expect_v3(o, 0, M_PI / 4, 0, 1e-12);
}

Test(dr, limits_at_zero_rate)
{
	double w[3] = {0, 0, 0}, m[3][3];
	double dt = 2.5;

	dr_rotation(w, dt, m);
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			cr_expect_eq(m[i][j], i == j ? 1.0 : 0.0);
	dr_r1(w, dt, m);
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			cr_expect_eq(m[i][j], i == j ? dt : 0.0);
	dr_r2(w, dt, m);
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			cr_expect_eq(m[i][j], i == j ? 0.5 * dt * dt : 0.0);
}

Test(dr, series_matches_closed_form)
{
	/* Below x = w dt = 1e-2 the coefficients come from Taylor series.
	 * With w = (0,0,w) the matrices read: DR[0][0] = c, DR[1][0] = -s,
	 * ... so compare entries with the closed forms evaluated in long
	 * double at x = 0.005 (rounding there ~1e-19 absolute, far under the
	 * series truncation O(x^6) ~ 1.6e-14 relative):
	 *   R1[0][0] = s/w, R1[1][0] = (1-c)/w, R1[2][2] = dt
	 *   R2[0][0] = (c + x s - 1)/w^2, R2[1][0] = (s - x c)/w^2,
	 *   R2[2][2] = dt^2/2. Relative tolerance 1e-10. */
	double dt = 2.0, wz = 0.0025, w[3] = {0, 0, wz}, m[3][3];
	long double x = (long double)wz * dt, s = sinl(x), c = cosl(x);
	long double lw = wz;

#define REL(got, want)                                                         \
	cr_expect(fabsl((long double)(got) - (want)) <= 1e-10L * fabsl(want),  \
		  "%s: got %.17g want %.17Lg", #got, (double)(got), (want))
	dr_rotation(w, dt, m);
	REL(m[0][0], c);
	REL(m[1][0], -s);
	dr_r1(w, dt, m);
	REL(m[0][0], s / lw);
	REL(m[1][0], (1 - c) / lw);
	REL(m[2][2], (long double)dt);
	dr_r2(w, dt, m);
	REL(m[0][0], (c + x * s - 1) / (lw * lw));
	REL(m[1][0], (s - x * c) / (lw * lw));
	REL(m[2][2], (long double)dt * dt / 2);
#undef REL
}

Test(dr, rotation_is_orthonormal)
{
	for (int n = 0; n < 200; n++) {
		double w[3] = {uni(-3, 3), uni(-3, 3), uni(-3, 3)};
		double m[3][3], det;

		dr_rotation(w, uni(0, 4), m);
		for (int i = 0; i < 3; i++)
			for (int j = 0; j < 3; j++) {
				double d = m[i][0] * m[j][0] +
					   m[i][1] * m[j][1] +
					   m[i][2] * m[j][2];

				cr_expect(fabs(d - (i == j)) < 1e-12);
			}
		det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
		      m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
		      m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
		cr_expect(fabs(det - 1) < 1e-12);
	}
}

Test(dr, r1_r2_derivatives)
{
	/* d/dt R1(t) = DR(t)' and d/dt R2(t) = t DR(t)', checked by central
	 * differences with h = 1e-5: truncation h^2 |m'''| / 6 < 1e-9 for
	 * |w| <= 3, t <= 4; rounding ~ 1e-16 / h = 1e-11. Tolerance 1e-7. */
	for (int n = 0; n < 100; n++) {
		double w[3] = {uni(-3, 3), uni(-3, 3), uni(-3, 3)};
		double t = uni(0.1, 4), h = 1e-5;
		double a[3][3], b[3][3], c[3][3], d[3][3], dr[3][3];

		dr_rotation(w, t, dr);
		dr_r1(w, t + h, a);
		dr_r1(w, t - h, b);
		dr_r2(w, t + h, c);
		dr_r2(w, t - h, d);
		for (int i = 0; i < 3; i++)
			for (int j = 0; j < 3; j++) {
				double d1 = (a[i][j] - b[i][j]) / (2 * h);
				double d2 = (c[i][j] - d[i][j]) / (2 * h);

				cr_expect(fabs(d1 - dr[j][i]) < 1e-7);
				cr_expect(fabs(d2 - t * dr[j][i]) < 1e-7);
			}
	}
}

Test(dr, rotating_with_zero_rate_equals_fixed)
{
	int pairs[][2] = {{PREDICT_DRM_RPW, PREDICT_DRM_FPW},
			  {PREDICT_DRM_RVW, PREDICT_DRM_FVW},
			  {PREDICT_DRM_RPB, PREDICT_DRM_FPB},
			  {PREDICT_DRM_RVB, PREDICT_DRM_FVB}};

	for (int n = 0; n < 50; n++) {
		struct predict_update u =
			upd(0, uni(-9, 9), uni(-9, 9), uni(-9, 9), uni(-9, 9),
			    uni(-9, 9), uni(-9, 9));
		double t = uni(0, 5);

		v3_set(u.acc, uni(-2, 2), uni(-2, 2), uni(-2, 2));
		v3_set(u.ori, uni(-3, 3), uni(-1.5, 1.5), uni(-3, 3));
		for (int k = 0; k < 4; k++) {
			double p1[3], o1[3], p2[3], o2[3];

			u.drm = (uint8_t)pairs[k][0];
			cr_assert_eq(dr_extrapolate(&u, t, p1, o1, NULL), 0);
			u.drm = (uint8_t)pairs[k][1];
			cr_assert_eq(dr_extrapolate(&u, t, p2, o2, NULL), 0);
			expect_v3(p1, p2[0], p2[1], p2[2], 1e-9);
			for (int i = 0; i < 3; i++)
				cr_expect(fabs(angle_wrap(o1[i] - o2[i])) <
					  1e-9);
		}
	}
}

Test(dr, body_with_identity_attitude_equals_world)
{
	/* R0 = I and w = 0: *B and *W give the same position. */
	int pairs[][2] = {{PREDICT_DRM_FPB, PREDICT_DRM_FPW},
			  {PREDICT_DRM_FVB, PREDICT_DRM_FVW}};

	for (int n = 0; n < 50; n++) {
		struct predict_update u =
			upd(0, uni(-9, 9), uni(-9, 9), uni(-9, 9), uni(-9, 9),
			    uni(-9, 9), uni(-9, 9));
		double t = uni(0, 5);

		v3_set(u.acc, uni(-2, 2), uni(-2, 2), uni(-2, 2));
		for (int k = 0; k < 2; k++) {
			double p1[3], p2[3], o[3];

			u.drm = (uint8_t)pairs[k][0];
			dr_extrapolate(&u, t, p1, o, NULL);
			u.drm = (uint8_t)pairs[k][1];
			dr_extrapolate(&u, t, p2, o, NULL);
			expect_v3(p1, p2[0], p2[1], p2[2], 1e-9);
		}
	}
}

Test(dr, regression_mixr_r1_identity_at_zero_rate)
{
	/* mixr returned R1 = I when w = 0, so FPB moved by V, not V dt:
	 * V = (3,0,0), dt = 2 must give (6,0,0), not (3,0,0). */
	struct predict_update u = upd(PREDICT_DRM_FPB, 0, 0, 0, 3, 0, 0);
	double p[3], o[3];

	cr_assert_eq(dr_extrapolate(&u, 2.0, p, o, NULL), 0);
	expect_v3(p, 6, 0, 0, EPS);
}

Test(dr, regression_mixr_r2_written_into_r1)
{
	/* mixr's RVB/FVB computed R2 into R1 and left R2 = I: with V =
	 * (1,0,0), A = (0,2,0), w = 0, dt = 3 it gave 4.5 V + A = (4.5,2,0).
	 * Correct: V dt + A dt^2 / 2 = (3, 9, 0). */
	int algs[] = {PREDICT_DRM_RVB, PREDICT_DRM_FVB};

	for (int i = 0; i < 2; i++) {
		struct predict_update u = upd(algs[i], 0, 0, 0, 1, 0, 0);
		double p[3], o[3];

		u.acc[1] = 2;
		cr_assert_eq(dr_extrapolate(&u, 3.0, p, o, NULL), 0);
		expect_v3(p, 3, 9, 0, EPS);
	}
}

Test(dr, tiny_rate_is_continuous_with_zero)
{
	/* w = 1e-9 rad/s must give the w = 0 answer to ~w^2 dt^2 relative. */
	struct predict_update u = upd(PREDICT_DRM_RVB, 0, 0, 0, 5, 0, 0);
	double p0[3], p1[3], o[3];

	u.acc[1] = 1;
	dr_extrapolate(&u, 4.0, p0, o, NULL);
	u.angvel[2] = 1e-9;
	dr_extrapolate(&u, 4.0, p1, o, NULL);
	expect_v3(p1, p0[0], p0[1], p0[2], 1e-6);
	expect_v3(p0, 20, 8, 0, EPS);
}

Test(dr, rejects_other_and_unknown)
{
	struct predict_update u = upd(PREDICT_DRM_OTHER, 0, 0, 0, 0, 0, 0);
	double p[3] = {7, 7, 7}, o[3];

	cr_expect_eq(dr_extrapolate(&u, 1, p, o, NULL), -EINVAL);
	u.drm = 10;
	cr_expect_eq(dr_extrapolate(&u, 1, p, o, NULL), -EINVAL);
	cr_expect_eq(p[0], 7); /* not written on error */
}

/*
 * Body acceleration of RVB/FVB (issue 13). Heading psi = 90 deg, speed 3
 * along world +y, yaw rate w = 2 rad/s, speeding up by 1 u/s^2: the
 * inertial acceleration is 1 along the track plus the centripetal
 * v w = 6 toward the centre, which is on the left, world -x:
 *   a = (-6, 1, 0).
 * R0(psi = 90) = [[0,1,0],[-1,0,0],[0,0,1]], so V_b = R0 v = (3, 0, 0),
 * R0 a = (1, 6, 0), w x V_b = (0,0,2) x (3,0,0) = (0, 6, 0), and
 *   A_b = R0 a - w x V_b = (1, 0, 0):
 * only the along-track part is left; the turn is R1's job. The reverse
 * gives a back. The old code sent R0 a = (1, 6, 0) and turned twice.
 */
Test(dr, body_acc_known_answer)
{
	double ori[3] = {M_PI / 2, 0, 0}, w[3] = {0, 0, 2};
	double v[3] = {0, 3, 0}, a[3] = {-6, 1, 0}, ab[3], back[3];

	dr_body_acc(ori, w, v, a, ab);
	expect_v3(ab, 1, 0, 0, EPS);
	dr_world_acc(ori, w, v, ab, back);
	expect_v3(back, -6, 1, 0, EPS);
}

/*
 * A steady turn is exact with RVB and FVB: circle of radius r = 200 about
 * the origin at w = 1.5 rad/s (speed r w = 300), starting at angle 0.4 rad
 * heading psi = 0.4 + pi/2 (counter-clockwise). The inertial acceleration
 * is -r w^2 (cos, sin); A_b from dr_body_acc is 0, and after dt the
 * position must be r (cos(0.4 + w dt), sin(0.4 + w dt)) for every dt, to
 * rounding (positions ~200: 1e-9). With A0 = R0 a (the old code) RVB is
 * off by about |A| dt^2 / 2 = 225 u at dt = 1 s; checked to keep the
 * double-counted turn from coming back.
 */
Test(dr, rvb_fvb_steady_turn_exact)
{
	double r = 200, w = 1.5, a0 = 0.4;
	int algs[] = {PREDICT_DRM_RVB, PREDICT_DRM_FVB};

	for (int i = 0; i < 2; i++) {
		struct predict_update u =
			upd(algs[i], r * cos(a0), r * sin(a0), 50,
			    -r * w * sin(a0), r * w * cos(a0), 0);
		double acc[3] = {-r * w * w * cos(a0), -r * w * w * sin(a0), 0};
		double p[3], o[3], r0[3][3];

		u.ori[0] = a0 + M_PI / 2;
		u.angvel[2] = w;
		dr_body_acc(u.ori, u.angvel, u.vel, acc, u.acc);
		expect_v3(u.acc, 0, 0, 0, 1e-12);
		for (double dt = 0.25; dt <= 5.0; dt += 0.25) {
			cr_assert_eq(dr_extrapolate(&u, dt, p, o, NULL), 0);
			expect_v3(p, r * cos(a0 + w * dt), r * sin(a0 + w * dt),
				  50, 1e-9);
		}
		/* the double-counted turn */
		dr_r0(u.ori, r0);
		m3_mul_v(u.acc, r0, acc);
		cr_assert_eq(dr_extrapolate(&u, 1.0, p, o, NULL), 0);
		cr_expect(hypot(p[0] - r * cos(a0 + w),
				p[1] - r * sin(a0 + w)) > 100,
			  "old A0 = R0 a should miss the circle");
	}
}

/*
 * Gimbal lock: at theta = -90 deg with phi = 0, R0 has rows (0, 0, 1),
 * (-sin psi, cos psi, 0), (-cos psi, -sin psi, 0) (from the R0 formula
 * with c theta = 0, s theta = -1). The entries that normally give psi and
 * phi are all zero, and their signs (+0 or -0, as rounding leaves them)
 * must not choose the answer: dr_euler returns (psi, -90 deg, 0), and
 * R0 of the result is the matrix again. At +90 deg the rows are
 * (0, 0, -1), (-sin psi, cos psi, 0), (cos psi, sin psi, 0).
 */
Test(dr, euler_gimbal_lock)
{
	double zs[] = {0.0, -0.0};

	for (int z = 0; z < 2; z++)
		for (double psi = -3; psi <= 3; psi += 0.75)
			for (int up = 0; up < 2; up++) {
				double sg = up ? 1 : -1, o[3], b[3][3];
				double m[3][3] = {
					{zs[z], zs[1 - z], -sg},
					{-sin(psi), cos(psi), zs[z]},
					{sg * cos(psi), sg * sin(psi), zs[z]},
				};

				dr_euler(m, o);
				expect_v3(o, psi, sg * M_PI / 2, 0, EPS);
				dr_r0(o, b);
				for (int i = 0; i < 3; i++)
					expect_v3(b[i], m[i][0], m[i][1],
						  m[i][2], EPS);
			}
}

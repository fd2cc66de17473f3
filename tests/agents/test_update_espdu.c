/*
 * test_update_espdu.c: the predict_update <-> Entity State PDU mapping
 * (agents/role/update_espdu.c): seeded random updates survive encode and
 * decode (location exactly, float32 fields as their float32 rounding,
 * reason and blob octet for octet), entity numbers are trace id + 1 and
 * bounded to 1..0xfffe on the wire, and bad input is refused without
 * touching the output. Frames (issue 13): the *B velocity and every
 * angular velocity travel in DIS body axes (x forward, y right, z down),
 * checked by hand; with a geographic placement a known attitude gives the
 * DIS Euler angles worked out in the comment, and seeded random placements
 * and states survive game -> ECEF -> game through the real codec.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "predict/dr.h"
#include "predict/vec3.h"
#include "util.h"
#include "role/update_espdu.h"

static uint64_t rng = 42;

/* A fixed-seed stream for the random updates. */
static uint64_t next(void)
{
	return splitmix64(&rng);
}

static double uni(double lo, double hi)
{
	return lo + (hi - lo) * (double)(next() >> 11) / 9007199254740992.0;
}

static void random_update(struct predict_update *u)
{
	memset(u, 0, sizeof(*u));
	u->t_ns = (int64_t)(next() >> 2);
	u->entity = (uint32_t)(next() % (ROLE_ENTITY_MAX + 1));
	u->team = (uint8_t)next();
	u->drm = (uint8_t)(1 + next() % 9);
	u->reason = (uint8_t)(next() % PREDICT_REASON_COUNT);
	u->blob_len = (uint8_t)(next() % (PREDICT_BLOB_MAX + 1));
	for (int i = 0; i < 3; i++) {
		u->pos[i] = uni(-1e5, 1e5);
		u->vel[i] = uni(-500, 500);
		u->acc[i] = uni(-2000, 2000);
		u->angvel[i] = uni(-10, 10);
	}
	u->ori[0] = uni(-M_PI, M_PI);
	u->ori[1] = uni(-M_PI / 2, M_PI / 2);
	u->ori[2] = uni(-M_PI, M_PI);
	for (int i = 0; i < u->blob_len; i++)
		u->blob[i] = (uint8_t)next();
}

static void roundtrip(const struct predict_update *u, struct predict_update *v,
		      uint8_t model, uint8_t *model_out)
{
	struct reckon_espdu p, q;
	uint8_t buf[RECKON_ESPDU_MAX_LEN];
	size_t len;

	cr_assert_eq(role_update_to_espdu(u, model, 7, &p), 0);
	cr_assert_eq(reckon_espdu_encode(&p, buf, sizeof(buf), &len), 0);
	cr_assert_eq(reckon_espdu_decode(buf, len, &q), RECKON_ESPDU_OK);
	cr_assert_eq(q.seq, 7);
	cr_assert_eq(role_espdu_to_update(&q, v, model_out), 0);
}

Test(update_espdu, random_roundtrip)
{
	for (int n = 0; n < 2000; n++) {
		struct predict_update u, v;
		uint8_t model = (uint8_t)(1 + next() % 255), m = 0;

		random_update(&u);
		roundtrip(&u, &v, model, &m);
		cr_assert_eq(m, model);
		cr_assert_eq(v.t_ns, u.t_ns);
		cr_assert_eq(v.entity, u.entity);
		cr_assert_eq(v.team, u.team);
		cr_assert_eq(v.drm, u.drm);
		cr_assert_eq(v.reason, u.reason);
		cr_assert_eq(v.blob_len, u.blob_len);
		cr_assert_eq(memcmp(v.blob, u.blob, u.blob_len), 0);
		/*
		 * Location is float64 on the wire: exact. World vectors,
		 * the body acceleration and the angular velocity change at
		 * most signs, so they come back as their float32 rounding.
		 * psi and theta are carried as they are; phi travels as
		 * phi + pi (DIS body z down, game world z up), so it comes
		 * back within half a float32 ulp of pi, 1.2e-7, plus double
		 * rounding: 2.4e-7 (one ulp). The *B velocity travels as
		 * C R0 v: float32 rounding of each body component (relative
		 * 2^-24 each, sqrt(3) 2^-24 = 1.0e-7 of |v| together) and
		 * the decoded R0 built from angles each off by at most
		 * 1.2e-7 rad (rotation error <= 3.6e-7 rad): 4.6e-7 |v|,
		 * checked against 1e-6 |v|.
		 */
		for (int i = 0; i < 3; i++) {
			cr_assert_eq(v.pos[i], u.pos[i]);
			if (dr_is_body(u.drm))
				cr_assert(fabs(v.vel[i] - u.vel[i]) <=
						  1e-6 * v3_norm(u.vel),
					  "vel %d: %.9g vs %.9g", i, v.vel[i],
					  u.vel[i]);
			else
				cr_assert_eq(v.vel[i], (double)(float)u.vel[i]);
			cr_assert_eq(v.acc[i], (double)(float)u.acc[i]);
			cr_assert_eq(v.angvel[i], (double)(float)u.angvel[i]);
		}
		cr_assert_eq(v.ori[0], (double)(float)u.ori[0]);
		cr_assert_eq(v.ori[1], (double)(float)u.ori[1]);
		cr_assert(fabs(angle_wrap(v.ori[2] - u.ori[2])) <= 2.4e-7,
			  "phi %.9g vs %.9g", v.ori[2], u.ori[2]);
	}
}

Test(update_espdu, entity_numbering)
{
	struct predict_update u;
	struct reckon_espdu p;

	random_update(&u);
	u.entity = 0;
	cr_assert_eq(role_update_to_espdu(&u, 1, 0, &p), 0);
	cr_assert_eq(p.id.entity, 1);
	cr_assert_eq(p.id.site, ROLE_SITE);
	cr_assert_eq(p.id.application, ROLE_APP);
	u.entity = ROLE_ENTITY_MAX;
	cr_assert_eq(role_update_to_espdu(&u, 1, 0, &p), 0);
	cr_assert_eq(p.id.entity, 0xfffe);
}

Test(update_espdu, refuses_bad_updates_untouched)
{
	struct predict_update u, good;
	struct reckon_espdu p, sentinel;

	random_update(&good);
	memset(&sentinel, 0xa5, sizeof(sentinel));
	/* each mutation alone makes the update unsendable */
	for (int c = 0; c < 6; c++) {
		uint8_t model = 3;

		u = good;
		switch (c) {
		case 0:
			u.entity = ROLE_ENTITY_MAX + 1;
			break;
		case 1:
			u.t_ns = -1;
			break;
		case 2:
			u.drm = 0;
			break;
		case 3:
			u.blob_len = PREDICT_BLOB_MAX + 1;
			break;
		case 4:
			u.reason = PREDICT_REASON_COUNT;
			break;
		case 5:
			model = 0;
			break;
		}
		p = sentinel;
		cr_assert_eq(role_update_to_espdu(&u, model, 0, &p), -EINVAL,
			     "case %d", c);
		cr_assert_eq(memcmp(&p, &sentinel, sizeof(p)), 0, "case %d", c);
	}
}

Test(update_espdu, refuses_foreign_pdus)
{
	struct predict_update u, v, sentinel;
	struct reckon_espdu p;
	uint8_t m = 9;

	random_update(&u);
	memset(&sentinel, 0x5a, sizeof(sentinel));
	for (int c = 0; c < 4; c++) {
		cr_assert_eq(role_update_to_espdu(&u, 2, 0, &p), 0);
		switch (c) {
		case 0:
			p.id.site = 2;
			break;
		case 1:
			p.model = 0;
			p.blob_len = 0;
			break;
		case 2:
			p.blob_len = 0;
			break;
		case 3:
			p.blob[0] = PREDICT_REASON_COUNT;
			break;
		}
		v = sentinel;
		cr_assert_eq(role_espdu_to_update(&p, &v, &m), -EPROTO,
			     "case %d", c);
		cr_assert_eq(memcmp(&v, &sentinel, sizeof(v)), 0);
		cr_assert_eq(m, 9);
	}
}

/*
 * Body axes by hand, no placement. A game avatar heading yaw 90 deg (psi
 * pi/2, along world +y) at 300 u/s, with a slip of 20 u/s to its left
 * (world -x) and 5 u/s up: the DIS body velocity is x forward = 300,
 * y right = -20, z down = -5. Turning left at 1.5 rad/s is game wz = +1.5,
 * DIS body wz = -1.5 (a left turn about a down axis). A body acceleration
 * (1, 2, 3) in game body axes is (1, -2, -3) in DIS body axes. World
 * algorithms carry the world velocity unchanged. The orientation is the
 * DIS body's: psi and theta as given, phi + pi = pi.
 */
Test(update_espdu, body_axes_by_hand)
{
	struct predict_update u, v;
	struct reckon_espdu p;
	uint8_t m;

	memset(&u, 0, sizeof(u));
	u.drm = PREDICT_DRM_RVB;
	v3_set(u.pos, 10, 20, 30);
	v3_set(u.vel, -20, 300, 5);
	v3_set(u.acc, 1, 2, 3);
	v3_set(u.angvel, 0, 0, 1.5);
	u.ori[0] = M_PI / 2;
	cr_assert_eq(role_update_to_espdu(&u, 1, 0, &p), 0);
	cr_assert(fabs(p.vel.x - 300) < 1e-12 && fabs(p.vel.y + 20) < 1e-12 &&
			  fabs(p.vel.z + 5) < 1e-12,
		  "body vel %g %g %g", p.vel.x, p.vel.y, p.vel.z);
	cr_assert(p.acc.x == 1 && p.acc.y == -2 && p.acc.z == -3);
	cr_assert(p.angvel.x == 0 && p.angvel.y == 0 && p.angvel.z == -1.5);
	cr_assert(p.pos.x == 10 && p.pos.y == 20 && p.pos.z == 30);
	cr_assert(p.ori.psi == M_PI / 2 && p.ori.theta == 0 &&
		  p.ori.phi == M_PI);
	cr_assert_eq(role_espdu_to_update(&p, &v, &m), 0);
	for (int i = 0; i < 3; i++)
		cr_assert(fabs(v.vel[i] - u.vel[i]) < 1e-12);
	u.drm = PREDICT_DRM_RVW;
	cr_assert_eq(role_update_to_espdu(&u, 1, 0, &p), 0);
	cr_assert(p.vel.x == -20 && p.vel.y == 300 && p.vel.z == 5);
	cr_assert(p.acc.x == 1 && p.acc.y == 2 && p.acc.z == 3);
	cr_assert(p.angvel.z == -1.5);
}

/*
 * Geographic placement by hand: origin at latitude 0, longitude 0,
 * height 0, 2 m per unit. There east is ECEF +y, north +z, up +x, and the
 * origin is (a, 0, 0), a = 6378137 m. A level avatar at game (100, 50, 3)
 * is at ECEF (a + 6, 200, 100). Heading east (yaw 0): DIS body x (forward)
 * = east = (0, 1, 0), body y (right) = south = (0, 0, -1), body z (down)
 * = (-1, 0, 0), so the world -> body matrix has those rows,
 *   M = [[0, 1, 0], [0, 0, -1], [-1, 0, 0]],
 * and theta = asin(-M02) = 0, psi = atan2(M01, M00) = pi/2,
 * phi = atan2(M12, M22) = -pi/2. A world velocity (10, 0, 0) u/s (east)
 * is (0, 20, 0) m/s in ECEF; as RPB it is body (20, 0, 0) m/s.
 */
Test(update_espdu, geo_by_hand)
{
	struct reckon_geo g = {
		.on = 1, .lat = 0, .lon = 0, .alt = 0, .scale = 2};
	struct predict_update u, v;
	struct reckon_espdu p;
	uint8_t m;

	memset(&u, 0, sizeof(u));
	u.drm = PREDICT_DRM_FPW;
	v3_set(u.pos, 100, 50, 3);
	v3_set(u.vel, 10, 0, 0);
	cr_assert_eq(role_update_to_espdu_geo(&u, 1, 0, &g, &p), 0);
	cr_assert(fabs(p.pos.x - (6378137.0 + 6)) < 1e-8 &&
			  fabs(p.pos.y - 200) < 1e-8 &&
			  fabs(p.pos.z - 100) < 1e-8,
		  "ecef %.9f %.9f %.9f", p.pos.x, p.pos.y, p.pos.z);
	cr_assert(fabs(p.vel.x) < 1e-12 && fabs(p.vel.y - 20) < 1e-12 &&
		  fabs(p.vel.z) < 1e-12);
	cr_assert(fabs(p.ori.psi - M_PI / 2) < 1e-12 &&
			  fabs(p.ori.theta) < 1e-12 &&
			  fabs(p.ori.phi + M_PI / 2) < 1e-12,
		  "ori %g %g %g", p.ori.psi, p.ori.theta, p.ori.phi);
	u.drm = PREDICT_DRM_RPB;
	cr_assert_eq(role_update_to_espdu_geo(&u, 1, 0, &g, &p), 0);
	cr_assert(fabs(p.vel.x - 20) < 1e-12 && fabs(p.vel.y) < 1e-12 &&
		  fabs(p.vel.z) < 1e-12);
	cr_assert_eq(role_espdu_to_update_geo(&p, &g, &v, &m), 0);
	for (int i = 0; i < 3; i++) {
		cr_assert(fabs(v.pos[i] - u.pos[i]) < 1e-9);
		cr_assert(fabs(v.vel[i] - u.vel[i]) < 1e-12);
		cr_assert(fabs(v.ori[i] - u.ori[i]) < 1e-12);
	}
	g.scale = 0;
	cr_assert_eq(role_update_to_espdu_geo(&u, 1, 0, &g, &p), -EINVAL);
	cr_assert_eq(role_espdu_to_update_geo(&p, &g, &v, &m), -EINVAL);
}

/*
 * Property: game -> ECEF -> game through the real codec, 2000 seeded
 * placements (latitude within 89 deg of the equator, any longitude,
 * height -500..9000 m, 0.01..10 m per unit) and random states (positions
 * +-1e5 units, game pitch within 1.2 rad so the game Euler angles are
 * well defined).
 * Positions: ECEF coordinates up to 7.4e6 m carry double rounding of
 * 2^-53 * 7.4e6 = 8e-10 m per operation; about ten operations and the
 * division by the smallest scale, 0.01, give < 1e-6 units.
 * Orientation: the three DIS angles are float32 on the wire, each off by
 * at most half an ulp at pi, 1.2e-7 rad, so the recovered attitude is
 * within 3.6e-7 rad; every element of R0 is checked to 1e-6, and for level
 * avatars (pitch = roll = 0) the yaw itself to 1e-6.
 * Velocities (float32 in ECEF or body axes, then rotated back): within
 * (sqrt(3) 2^-24 + 3.6e-7) |v| = 4.6e-7 |v|, checked to 1e-6 |v|.
 */
Test(update_espdu, geo_roundtrip_property)
{
	for (int n = 0; n < 2000; n++) {
		struct reckon_geo g = {.on = 1,
				       .lat = uni(-89, 89),
				       .lon = uni(-180, 180),
				       .alt = uni(-500, 9000),
				       .scale = exp(uni(log(0.01), log(10)))};
		struct predict_update u, v;
		struct reckon_espdu p, q;
		uint8_t buf[RECKON_ESPDU_MAX_LEN], m;
		double ra[3][3], rb[3][3];
		size_t len;
		int level = n % 2;

		random_update(&u);
		u.ori[1] = level ? 0 : uni(-1.2, 1.2);
		if (level)
			u.ori[2] = 0;
		cr_assert_eq(role_update_to_espdu_geo(&u, 1, 0, &g, &p), 0);
		cr_assert_eq(reckon_espdu_encode(&p, buf, sizeof(buf), &len),
			     0);
		cr_assert_eq(reckon_espdu_decode(buf, len, &q),
			     RECKON_ESPDU_OK);
		cr_assert_eq(role_espdu_to_update_geo(&q, &g, &v, &m), 0);
		dr_r0(u.ori, ra);
		dr_r0(v.ori, rb);
		for (int i = 0; i < 3; i++) {
			cr_assert(fabs(v.pos[i] - u.pos[i]) < 1e-6,
				  "pos %d: %.12g vs %.12g", i, v.pos[i],
				  u.pos[i]);
			cr_assert(fabs(v.vel[i] - u.vel[i]) <=
					  1e-6 * v3_norm(u.vel),
				  "vel %d", i);
			for (int j = 0; j < 3; j++)
				cr_assert(fabs(ra[i][j] - rb[i][j]) < 1e-6,
					  "R0[%d][%d]", i, j);
		}
		if (level)
			cr_assert(fabs(angle_wrap(v.ori[0] - u.ori[0])) <
						  1e-6 &&
					  fabs(v.ori[1]) < 1e-6 &&
					  fabs(v.ori[2]) < 1e-6,
				  "yaw %.9g vs %.9g", v.ori[0], u.ori[0]);
	}
}

/*
 * Gimbal lock of the geocentric angles: on the equator an avatar heading
 * north points its body x along the earth's axis, ECEF +z, so DIS theta
 * is -90 deg and only psi + phi is defined. Body y (right) is east, ECEF
 * +y at longitude 0, so with phi = 0 the world -> body matrix has rows
 * (0, 0, 1), (0, 1, 0), (-1, 0, 0): psi = atan2(-M10, M11) = 0. The
 * avatar must come back heading north (yaw 90 deg) through the codec.
 */
Test(update_espdu, geo_gimbal_lock)
{
	struct reckon_geo g = {.on = 1, .scale = 1};
	double lons[] = {0, 90, -135};

	for (int i = 0; i < 3; i++) {
		struct predict_update u, v;
		struct reckon_espdu p, q;
		uint8_t buf[RECKON_ESPDU_MAX_LEN], m;
		size_t len;

		g.lon = lons[i];
		memset(&u, 0, sizeof(u));
		u.drm = PREDICT_DRM_RPB;
		u.ori[0] = M_PI / 2;
		v3_set(u.vel, 0, 10, 0);
		cr_assert_eq(role_update_to_espdu_geo(&u, 1, 0, &g, &p), 0);
		cr_assert(fabs(p.ori.theta + M_PI / 2) < 1e-7, "theta %.9g",
			  p.ori.theta);
		cr_assert_eq(reckon_espdu_encode(&p, buf, sizeof(buf), &len),
			     0);
		cr_assert_eq(reckon_espdu_decode(buf, len, &q),
			     RECKON_ESPDU_OK);
		cr_assert_eq(role_espdu_to_update_geo(&q, &g, &v, &m), 0);
		cr_assert(fabs(v.ori[0] - M_PI / 2) < 1e-6 &&
				  fabs(v.ori[1]) < 1e-6 &&
				  fabs(v.ori[2]) < 1e-6,
			  "lon %g: ori %.9g %.9g %.9g", lons[i], v.ori[0],
			  v.ori[1], v.ori[2]);
		cr_assert(fabs(v.vel[1] - 10) < 1e-5, "vel %g %g %g", v.vel[0],
			  v.vel[1], v.vel[2]);
	}
}

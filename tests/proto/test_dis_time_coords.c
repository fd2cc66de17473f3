/*
 * test_dis_time_coords.c: the DIS timestamp conversion (units of
 * 3600/2^31 s past the hour, low bit = absolute flag) and the game <->
 * DIS coordinate mapping (yaw degrees <-> psi radians, identity on
 * positions and velocities), and the WGS-84 geometry of the geographic
 * placement: geodetic -> ECEF known answers, ECEF -> geodetic round trips,
 * the east-north-up basis, and the parsing and checking of an origin.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "espdu_sample.h"
#include "proto/dis_time.h"
#include "proto/espdu.h"
#include "proto/game_coords.h"

#define PI 3.14159265358979323846

Test(dis_time, known_values)
{
	cr_assert_eq(reckon_dis_timestamp(0, 0), 0);
	cr_assert_eq(reckon_dis_timestamp(0, 1), 1);
	/* half an hour is unit 2^30 */
	cr_assert_eq(reckon_dis_timestamp(1800000000000ull, 0), 1u << 31);
	/* the last ns of the hour is unit 2^31 - 1 */
	cr_assert_eq(reckon_dis_timestamp(RECKON_NS_PER_HOUR - 1, 0),
		     0xfffffffeu);
	/* the hour wraps */
	cr_assert_eq(reckon_dis_timestamp(RECKON_NS_PER_HOUR, 0), 0);
	cr_assert_eq(reckon_dis_timestamp(
			     5 * RECKON_NS_PER_HOUR + 1800000000000ull, 1),
		     (1u << 31) | 1);
	cr_assert_eq(reckon_dis_timestamp(UINT64_MAX, 0),
		     reckon_dis_timestamp(UINT64_MAX % RECKON_NS_PER_HOUR, 0));
	cr_assert_eq(reckon_dis_timestamp_ns(1u << 31), 1800000000000ull);
	cr_assert_eq(reckon_dis_timestamp_ns((1u << 31) | 1), 1800000000000ull);
}

/* For any t, the unit u written is the one that holds t past the hour:
 * u * 3600e9 / 2^31 <= h < (u + 1) * 3600e9 / 2^31, checked exactly in
 * integers as u * 878906250 <= h * 2^19 < (u + 1) * 878906250 (both sides
 * divided by 2^12; h * 2^19 < 2^61). The decoded start of the unit is at
 * most h. */
Test(dis_time, unit_brackets_the_time)
{
	struct sample_rng r;
	unsigned i;

	sample_seed(&r, 99);
	for (i = 0; i < 100000; i++) {
		uint64_t t = sample_next(&r);
		uint64_t h = t % RECKON_NS_PER_HOUR;
		uint32_t ts = reckon_dis_timestamp(t, 0);
		uint64_t u = ts >> 1;

		cr_assert_eq(ts & 1, 0);
		cr_assert_leq(u * 878906250ull, h << 19);
		cr_assert_lt(h << 19, (u + 1) * 878906250ull);
		cr_assert_leq(reckon_dis_timestamp_ns(ts), h);
	}
}

Test(dis_time, monotone_within_the_hour)
{
	uint64_t t;
	uint32_t prev = 0, ts;

	for (t = 0; t < RECKON_NS_PER_HOUR; t += 7919 * 1000003ull) {
		ts = reckon_dis_timestamp(t, 0);
		cr_assert_geq(ts, prev);
		prev = ts;
	}
}

Test(game_coords, yaw_to_psi)
{
	static const struct {
		double yaw, psi;
	} cases[] = {
		{0, 0},		{90, PI / 2},
		{180, PI},	{270, -PI / 2},
		{-90, -PI / 2}, {765, PI / 4},
		{-180, -PI},	{359.5, -0.5 * PI / 180},
	};
	double psi;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cr_assert_eq(reckon_yaw_to_psi(cases[i].yaw, &psi), 0);
		/* a few double ulps of pi: 1e-12 is far above 4 * 2^-52 * pi */
		cr_assert(fabs(psi - cases[i].psi) < 1e-12, "yaw %g -> %.17g",
			  cases[i].yaw, psi);
		cr_assert(psi >= -PI && psi <= PI);
	}
	psi = 42;
	cr_assert_eq(reckon_yaw_to_psi(NAN, &psi), -EINVAL);
	cr_assert_eq(reckon_yaw_to_psi(INFINITY, &psi), -EINVAL);
	cr_assert_eq(psi, 42);
}

Test(game_coords, psi_to_yaw_and_back)
{
	struct sample_rng r;
	double yaw, psi, back;
	unsigned i;

	cr_assert_eq(reckon_psi_to_yaw(-PI / 2, &yaw), 0);
	cr_assert(fabs(yaw - 270) < 1e-12);
	cr_assert_eq(reckon_psi_to_yaw(-1e-300, &yaw), 0);
	cr_assert(yaw >= 0 && yaw < 360);
	cr_assert_eq(reckon_psi_to_yaw(NAN, &yaw), -EINVAL);

	sample_seed(&r, 7);
	for (i = 0; i < 10000; i++) {
		yaw = (double)(sample_next(&r) >> 11) / 9007199254740992.0 *
		      360.0;
		cr_assert_eq(reckon_yaw_to_psi(yaw, &psi), 0);
		cr_assert_eq(reckon_psi_to_yaw(psi, &back), 0);
		/* rounding of a few operations on values <= 360: < 1e-9 */
		cr_assert(fabs(back - yaw) < 1e-9 ||
				  fabs(fabs(back - yaw) - 360) < 1e-9,
			  "%.17g -> %.17g", yaw, back);
	}
}

Test(game_coords, pose_goes_into_the_pdu)
{
	struct reckon_espdu p, q;
	struct reckon_vec3 pos = {1024.5, -77.25, 64}, vel = {320, 0, -8};
	uint8_t buf[RECKON_ESPDU_MAX_LEN];
	size_t len;

	reckon_espdu_init(&p);
	cr_assert_eq(reckon_espdu_set_game_pose(&p, &pos, &vel, 180), 0);
	cr_assert_eq(p.pos.x, 1024.5);
	cr_assert_eq(p.vel.z, -8);
	cr_assert(fabs(p.ori.psi - PI) < 1e-15);
	/* DIS body z points down, the game's world z up: a level avatar is
	 * rolled by pi in the game's axes (docs/wire-format.md) */
	cr_assert_eq(p.ori.theta, 0);
	cr_assert(fabs(p.ori.phi - PI) < 1e-15);
	cr_assert_eq(reckon_espdu_encode(&p, buf, sizeof(buf), &len), 0);
	cr_assert_eq(reckon_espdu_decode(buf, len, &q), RECKON_ESPDU_OK);
	cr_assert_eq(q.pos.y, -77.25);
	cr_assert_eq(q.vel.x, 320);

	q = p;
	vel.y = NAN;
	cr_assert_eq(reckon_espdu_set_game_pose(&p, &pos, &vel, 0), -EINVAL);
	cr_assert_eq(memcmp(&p, &q, sizeof(p)), 0);
}

/*
 * WGS-84 known answers: on the equator at longitude 0 the point is
 * (a, 0, 0); longitude 90 turns it to (0, a, 0); the north pole is at
 * z = b = a (1 - f) = 6356752.314245 m; at latitude 45 deg, N =
 * a / sqrt(1 - e^2 / 2) and the point is (N cos 45, 0, N (1 - e^2) sin 45)
 * with e^2 = f (2 - f) = 0.00669437999014.
 */
Test(geo, geodetic_to_ecef_known)
{
	double e[3], e2 = 0.00669437999014, n = 6378137.0 / sqrt(1 - e2 / 2);

	reckon_geodetic_to_ecef(0, 0, 0, e);
	cr_assert(fabs(e[0] - 6378137.0) < 1e-6 && fabs(e[1]) < 1e-6 &&
		  fabs(e[2]) < 1e-6);
	reckon_geodetic_to_ecef(0, 90, 100, e);
	cr_assert(fabs(e[0]) < 1e-6 && fabs(e[1] - 6378237.0) < 1e-6);
	reckon_geodetic_to_ecef(90, 0, 0, e);
	cr_assert(fabs(e[2] - 6356752.314245) < 1e-5, "b = %.6f", e[2]);
	reckon_geodetic_to_ecef(45, 0, 0, e);
	/* e2 is given to 14 digits: 1e-14 relative of N is 6e-8 m */
	cr_assert(fabs(e[0] - n * sqrt(0.5)) < 1e-6, "%.9f", e[0]);
	cr_assert(fabs(e[2] - n * (1 - e2) * sqrt(0.5)) < 1e-6, "%.9f", e[2]);
}

/* ECEF -> geodetic inverts geodetic -> ECEF: 10000 seeded points from
 * pole to pole, -1000..1e5 m. The iteration stops at 1e-12 rad
 * (6e-11 deg, 6e-6 m on the ground); checked to 1e-9 deg and 1e-4 m. */
Test(geo, ecef_geodetic_roundtrip)
{
	struct sample_rng r;
	double e[3], lat, lon, alt, la, lo, h;

	sample_seed(&r, 11);
	for (int i = 0; i < 10000; i++) {
		la = -90 + 180 * (double)(sample_next(&r) >> 11) / 0x1p53;
		lo = -180 + 360 * (double)(sample_next(&r) >> 11) / 0x1p53;
		h = -1000 + 101000 * (double)(sample_next(&r) >> 11) / 0x1p53;
		reckon_geodetic_to_ecef(la, lo, h, e);
		cr_assert_eq(reckon_ecef_to_geodetic(e, &lat, &lon, &alt), 0);
		cr_assert(fabs(lat - la) < 1e-9, "lat %.12f vs %.12f", lat, la);
		if (fabs(la) < 89.9999)
			cr_assert(fabs(lon - lo) < 1e-9 ||
					  fabs(fabs(lon - lo) - 360) < 1e-9,
				  "lon %.12f vs %.12f", lon, lo);
		cr_assert(fabs(alt - h) < 1e-4, "alt %.6f vs %.6f", alt, h);
	}
	e[0] = e[1] = e[2] = 0;
	cr_assert_eq(reckon_ecef_to_geodetic(e, &lat, &lon, &alt), -EINVAL);
}

/* The ENU basis is orthonormal, right-handed (east x north = up), up is
 * the ellipsoid normal (the direction of d ECEF / d alt), and north is
 * the direction of growing latitude. */
Test(geo, enu_basis)
{
	double m[3][3], a[3], b[3], c[3];

	reckon_enu_to_ecef(37.5, -122.25, m);
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++) {
			double d = 0;

			for (int k = 0; k < 3; k++)
				d += m[k][i] * m[k][j];
			cr_assert(fabs(d - (i == j)) < 1e-15);
		}
	cr_assert(fabs(m[0][0] * m[1][1] - m[1][0] * m[0][1] - m[2][2]) <
		  1e-15);
	reckon_geodetic_to_ecef(37.5, -122.25, 0, a);
	reckon_geodetic_to_ecef(37.5, -122.25, 1, b);
	reckon_geodetic_to_ecef(37.5 + 1e-6, -122.25, 0, c);
	for (int k = 0; k < 3; k++) {
		cr_assert(fabs((b[k] - a[k]) - m[k][2]) < 1e-8);
		/* 1e-6 deg of latitude is about 0.111 m */
		cr_assert(fabs((c[k] - a[k]) / 0.1109 - m[k][1]) < 2e-3);
	}
}

Test(geo, parse_and_check_origin)
{
	struct reckon_geo g = {0}, keep;

	cr_assert_eq(reckon_geo_check(&g), 0); /* off is fine */
	cr_assert_eq(reckon_geo_parse_origin("52.0116,4.3571,-2.5", &g), 0);
	cr_assert(g.on && g.lat == 52.0116 && g.lon == 4.3571 && g.alt == -2.5);
	cr_assert_eq(reckon_geo_check(&g), -EINVAL); /* scale unset */
	g.scale = 0.0254;
	cr_assert_eq(reckon_geo_check(&g), 0);
	keep = g;
	const char *bad[] = {"",	"1,2",	   "1,2,3,4", "91,0,0",
			     "0,181,0", "0,0,1e8", "a,b,c",   "1,,3",
			     "1,2,3x",	"nan,0,0", "1, 2,3",  NULL};
	for (int i = 0; bad[i]; i++) {
		cr_assert_eq(reckon_geo_parse_origin(bad[i], &g), -EINVAL,
			     "'%s'", bad[i]);
		cr_assert_eq(memcmp(&g, &keep, sizeof(g)), 0);
	}
	g.scale = -1;
	cr_assert_eq(reckon_geo_check(&g), -EINVAL);
	g.scale = 1;
	g.lat = NAN;
	cr_assert_eq(reckon_geo_check(&g), -EINVAL);
}

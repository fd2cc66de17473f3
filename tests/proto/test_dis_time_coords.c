/*
 * test_dis_time_coords.c: the DIS timestamp conversion (units of
 * 3600/2^31 s past the hour, low bit = absolute flag) and the game <->
 * DIS coordinate mapping (yaw degrees <-> psi radians, identity on
 * positions and velocities).
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
	cr_assert_eq(reckon_espdu_encode(&p, buf, sizeof(buf), &len), 0);
	cr_assert_eq(reckon_espdu_decode(buf, len, &q), RECKON_ESPDU_OK);
	cr_assert_eq(q.pos.y, -77.25);
	cr_assert_eq(q.vel.x, 320);

	q = p;
	vel.y = NAN;
	cr_assert_eq(reckon_espdu_set_game_pose(&p, &pos, &vel, 0), -EINVAL);
	cr_assert_eq(memcmp(&p, &q, sizeof(p)), 0);
}

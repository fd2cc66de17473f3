/*
 * test_geometry.c: capsule hit tests with known answers (side, end cap,
 * along the axis, from inside, pointing away), the body parts a level or
 * pitched aim lands on, walls stopping a trace, and the impact offset
 * stored in the body part's frame and carried onto a rotated pose.
 */
#include <criterion/criterion.h>
#include <math.h>

#include "lagcomp/lagcomp.h"
#include "testmap.h"

static const struct lc_capsule torso = {{0, 0, 40}, {0, 0, 54}, 11};

Test(capsule, side_hit_is_at_radius)
{
	double o[3] = {-100, 0, 50}, d[3] = {1, 0, 0};

	/* the side of the cylinder at x = -11 */
	cr_assert_float_eq(lc_ray_capsule(o, d, &torso), 89.0, 1e-9);
}

Test(capsule, end_cap_chord)
{
	double o[3] = {-100, 0, 60}, d[3] = {1, 0, 0};
	/* z = 60 is 6 above the top end: the sphere's half-chord is
	 * sqrt(11^2 - 6^2) */
	double want = 100 - sqrt(121.0 - 36.0);

	cr_assert_float_eq(lc_ray_capsule(o, d, &torso), want, 1e-9);
}

Test(capsule, misses_above_and_beside)
{
	double o[3] = {-100, 0, 66}, d[3] = {1, 0, 0};
	double o2[3] = {-100, 11.5, 47};

	cr_assert_eq(lc_ray_capsule(o, d, &torso), -1);	 /* 12 above b */
	cr_assert_eq(lc_ray_capsule(o2, d, &torso), -1); /* beside */
}

Test(capsule, along_axis_and_scaled_direction)
{
	double o[3] = {0, 0, 100}, d[3] = {0, 0, -1}, d2[3] = {0, 0, -2};

	cr_assert_float_eq(lc_ray_capsule(o, d, &torso), 35.0, 1e-9);
	/* t is in units of |d| */
	cr_assert_float_eq(lc_ray_capsule(o, d2, &torso), 17.5, 1e-9);
}

Test(capsule, inside_or_away_is_no_hit)
{
	double in[3] = {0, 0, 47}, o[3] = {-100, 0, 47}, d[3] = {1, 0, 0},
	       away[3] = {-1, 0, 0};

	cr_assert_eq(lc_ray_capsule(in, d, &torso), -1);
	cr_assert_eq(lc_ray_capsule(o, away, &torso), -1);
}

static struct map open_map(void)
{
	struct map m;

	tm_from_grid(&m, 64,
		     "..........\n..........\n..........\n..........\n"
		     "..........");
	return m;
}

/* Shooter at feet (50, 160), victim at (250, 160) facing the shooter. */
static int shoot(const struct map *m, double aim_z, struct lc_trace_hit *h)
{
	struct lc_body b;
	struct lc_pose p[2] = {{50, 160, 0, 0}, {250, 160, 180, 0}};
	double eye[3], d[3];

	lc_body_default(&b);
	lc_eye(&b, &p[0], eye);
	lc_aim_dir(0, atan2(aim_z - eye[2], 200) * 180 / M_PI, d);
	return lc_trace(m, &b, eye, d, 1000, p, NULL, 2, 0, h);
}

Test(trace, level_aim_hits_the_head)
{
	struct map m = open_map();
	struct lc_trace_hit h;

	cr_assert_eq(shoot(&m, 64, &h), 1);
	cr_assert_eq(h.victim, 1);
	cr_assert_eq(h.part, LC_PART_HEAD);
	/* head capsule 2 u in front of the feet (towards the shooter),
	 * radius 5: the side at x = 250 - 2 - 5 = 243, t = 193 */
	cr_assert_float_eq(h.t, 193.0, 1e-9);
	map_free(&m);
}

Test(trace, pitched_aim_hits_torso_and_legs)
{
	struct map m = open_map();
	struct lc_trace_hit h;

	cr_assert_eq(shoot(&m, 47, &h), 1);
	cr_assert_eq(h.part, LC_PART_TORSO);
	cr_assert_eq(shoot(&m, 20, &h), 1);
	cr_assert_eq(h.part, LC_PART_LEGS);
	cr_assert_eq(shoot(&m, 90, &h), 0); /* over the head */
	map_free(&m);
}

Test(trace, wall_stops_the_trace)
{
	struct map m;
	struct lc_trace_hit h;

	/* a wall column at x in [128, 192) between 50 and 250 */
	tm_from_grid(&m, 64,
		     "..#.......\n..#.......\n..#.......\n..#.......\n"
		     "..#.......");
	cr_assert_eq(shoot(&m, 47, &h), 0);
	map_free(&m);
}

Test(trace, nearest_player_shields_the_one_behind)
{
	struct map m = open_map();
	struct lc_body b;
	struct lc_pose p[3] = {
		{50, 160, 0, 0}, {400, 160, 180, 0}, {250, 160, 180, 0}};
	double eye[3], d[3];
	struct lc_trace_hit h;

	lc_body_default(&b);
	lc_eye(&b, &p[0], eye);
	lc_aim_dir(0, 0, d);
	cr_assert_eq(lc_trace(&m, &b, eye, d, 1000, p, NULL, 3, 0, &h), 1);
	cr_assert_eq(h.victim, 2);
	/* a dead player does not block */
	cr_assert_eq(lc_trace(&m, &b, eye, d, 1000, p,
			      (const uint8_t[]){1, 1, 0}, 3, 0, &h),
		     1);
	cr_assert_eq(h.victim, 1);
	map_free(&m);
}

/* The nearest part the ray from eye along d meets on pose p, tested part
 * by part (as lc_trace does for a body it does not pass over): its t,
 * or -1. */
static double every_part(const struct lc_body *b, const struct lc_pose *p,
			 const double eye[3], const double d[3], int *part)
{
	double best = -1;

	for (int k = 0; k < LC_NPARTS; k++) {
		struct lc_capsule c;
		double t;

		lc_part_world(b, p, k, &c);
		t = lc_ray_capsule(eye, d, &c);
		if (t >= 0 && (best < 0 || t <= best)) {
			best = t;
			*part = k;
		}
	}
	return best;
}

/* lc_trace passes over a body whose axis the ray stays far from in the
 * ground plane. Rays aimed beside a body by 0 to 20 u (its parts reach
 * 13 u from the axis), at random yaws, stances and pitches: every hit
 * the parts give is the trace's, part and distance alike, and the rays
 * that miss every part miss in the trace. */
Test(trace, passes_over_only_bodies_it_cannot_hit)
{
	struct map m = open_map();
	struct lc_body b;
	uint64_t x = 12345;
	unsigned hits = 0, grazes = 0;

	lc_body_default(&b);
	for (int i = 0; i < 20000; i++) {
		struct lc_pose p[2] = {{50, 160, 0, 0}, {300, 160, 0, 0}};
		double eye[3], d[3], u[4], miss, side, want;
		struct lc_trace_hit h;
		int part = -1, got;

		for (int k = 0; k < 4; k++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			u[k] = (double)(x >> 11) / 9007199254740992.0;
		}
		p[1].yaw = u[0] * 360 - 180;
		p[1].crouch = u[1] < 0.5;
		miss = u[2] * 20;
		side = atan2(miss, 250) * 180 / M_PI;
		lc_eye(&b, &p[0], eye);
		lc_aim_dir(u[1] < 0.25 || u[1] >= 0.75 ? side : -side,
			   u[3] * 30 - 20, d);
		want = every_part(&b, &p[1], eye, d, &part);
		got = lc_trace(&m, &b, eye, d, 1000, p, NULL, 2, 0, &h);
		cr_assert_eq(got, want >= 0, "ray %d (%.3f u beside): trace %d",
			     i, miss, got);
		if (!got)
			continue;
		cr_assert_eq(h.part, part);
		cr_assert_eq(h.t, want);
		hits++;
		grazes += miss > 10;
	}
	/* rays near the reach hit too, so the test sees the edge */
	cr_assert(hits > 1000 && grazes > 100, "%u hits, %u beyond 10 u", hits,
		  grazes);
	map_free(&m);
}

Test(offset, local_frame_follows_rotation)
{
	struct lc_body b;
	struct lc_pose judged = {100, 100, 0, 0}, turned = {300, 50, 90, 0};
	double c[3], s1[3], v[3], b1[3];

	lc_body_default(&b);
	lc_part_centre(&b, &judged, LC_PART_TORSO, c);
	/* impact 11 u in front of the torso axis (+x at yaw 0) */
	s1[0] = c[0] + 11;
	s1[1] = c[1];
	s1[2] = c[2] + 3;
	lc_offset_local(&b, &judged, LC_PART_TORSO, s1, v);
	cr_assert_float_eq(v[0], 11, 1e-9);
	cr_assert_float_eq(v[1], 0, 1e-9);
	cr_assert_float_eq(v[2], 3, 1e-9);
	/* turned to yaw 90: "in front" is now +y */
	lc_offset_apply(&b, &turned, LC_PART_TORSO, v, b1);
	lc_part_centre(&b, &turned, LC_PART_TORSO, c);
	cr_assert_float_eq(b1[0], c[0], 1e-9);
	cr_assert_float_eq(b1[1], c[1] + 11, 1e-9);
	cr_assert_float_eq(b1[2], c[2] + 3, 1e-9);
}

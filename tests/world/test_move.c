/*
 * test_move.c: the Source-style ground move. From rest a player reaches
 * the run speed and never exceeds it; with no input, friction stops it
 * (speed never rises) after exactly the number of ticks the friction
 * formula gives, under half a second as counter-strafing needs in CS:GO;
 * walking and crouching cap the speed lower; walls stop the body without
 * letting it in.
 */
#include <criterion/criterion.h>
#include <math.h>

#include "geom.h"
#include "move.h"
#include "testmap.h"

static void open_map(struct map *m)
{
	tm_from_grid(m, 64,
		     "....................\n....................\n"
		     "....................\n....................\n"
		     "....................\n....................");
}

Test(world_move, reaches_and_holds_run_speed)
{
	struct map m;
	struct move_params p;
	struct body b = {.x = 100, .y = 100};
	double prev = 0;
	int reached = -1;

	open_map(&m);
	move_defaults(&p);
	for (int k = 0; k < 64; k++) {
		move_step(&m, &p, &b, 1, 0, p.max_speed, 1.0 / 64);
		double v = hypot(b.vx, b.vy);

		cr_assert_leq(v, p.max_speed + 1e-9);
		cr_assert_geq(v + 1e-9, prev, "speed fell while running");
		if (reached < 0 && v > p.max_speed - 1e-6)
			reached = k;
		prev = v;
		if (b.x > 1100) {
			b.x = 100;
		}
	}
	cr_assert_geq(reached, 0, "never reached run speed");
	map_free(&m);
}

Test(world_move, friction_stops_when_the_formula_says)
{
	struct map m;
	struct move_params p;
	struct body b = {.x = 100, .y = 200, .vx = 250};
	double prev = 250, dt = 1.0 / 64, v = 250;
	int k, want = 0;

	open_map(&m);
	move_defaults(&p);
	/* Source friction, closed form: above stopspeed the speed shrinks
	 * by the factor (1 - friction dt) per tick; below it, it drops by
	 * stopspeed * friction * dt per tick until zero. From 250 u/s with
	 * CS:GO's constants: 14 + 12 = 26 ticks, about 0.41 s. */
	while (v >= p.stop_speed) {
		v *= 1 - p.friction * dt;
		want++;
	}
	want += (int)ceil(v / (p.stop_speed * p.friction * dt));
	for (k = 0; k < 640 && hypot(b.vx, b.vy) > 0; k++) {
		move_step(&m, &p, &b, 0, 0, 0, dt);
		cr_assert_leq(hypot(b.vx, b.vy), prev);
		prev = hypot(b.vx, b.vy);
	}
	cr_assert_eq(k, want, "stopped after %d ticks, formula says %d", k,
		     want);
	cr_assert_lt(k * dt, 0.5); /* counter-strafing works */
	map_free(&m);
}

Test(world_move, walk_and_crouch_caps)
{
	struct map m;
	struct move_params p;

	open_map(&m);
	move_defaults(&p);
	double caps[2] = {p.walk_speed, p.crouch_speed};

	for (int c = 0; c < 2; c++) {
		struct body b = {.x = 100, .y = 100};

		for (int k = 0; k < 128; k++) {
			move_step(&m, &p, &b, 0.6, 0.8, caps[c], 1.0 / 64);
			cr_assert_leq(hypot(b.vx, b.vy), caps[c] + 1e-9);
			if (b.y > 300)
				b.y = 100;
			if (b.x > 1000)
				b.x = 100;
		}
		cr_assert_gt(hypot(b.vx, b.vy), caps[c] * 0.99);
	}
	map_free(&m);
}

Test(world_move, walls_stop_the_body)
{
	struct map m;
	struct move_params p;
	struct body b = {.x = 96, .y = 96};

	tm_from_grid(&m, 64, "....#\n....#\n....#");
	move_defaults(&p);
	for (int k = 0; k < 200; k++) {
		move_step(&m, &p, &b, 1, 0.1, p.max_speed, 1.0 / 64);
		cr_assert(!geom_circle_blocked(&m, b.x, b.y, p.radius));
	}
	/* pressed against the wall at x = 256 */
	cr_assert_gt(b.x, 256 - p.radius - 0.5);
	cr_assert_leq(b.x, 256 - p.radius);
	map_free(&m);
}

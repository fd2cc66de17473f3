/*
 * test_replay.c: the replay loop (agents/predict/replay.c): cutting a
 * trace into paths (dead samples, missing ticks, teleports, short paths),
 * the true state with finite-difference acceleration and yaw rate, the
 * nearest-rank p95, exact leave-one-out trend maps and leave-one-out end
 * to end (a subject alone in its cells scores C = empty_c), the team
 * filter, and the seeded, distinct subject draw of the experiment.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "predict/replay.h"

#define TICK 15625000LL /* 64 Hz */

/* Append entity e, team tm at tick k, position (x, y). */
static void put(struct trace *t, uint32_t e, uint8_t tm, int k, double x,
		double y, double vx, double vy, int alive)
{
	struct trace_sample s;

	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 256;
		t->s = realloc(t->s, t->cap * sizeof(*t->s));
		cr_assert(t->s);
	}
	memset(&s, 0, sizeof(s));
	s.t_ns = (int64_t)k * TICK;
	s.entity = e;
	s.team = tm;
	s.alive = (uint8_t)alive;
	s.x = x;
	s.y = y;
	s.vx = vx;
	s.vy = vy;
	t->s[t->n++] = s;
}

/*
 * Entity 1 (team 1): ticks 0..699 walking +x at 64 u/s (1 u per tick),
 * dead at ticks 700..709, alive again 710..1399 far away. Entity 2 (team
 * 2): ticks 0..1399 with a teleport of 500 u at tick 900, and entity 3
 * (team 1) alive only 100 ticks (1.56 s, dropped as short). Samples in
 * (t, entity) order as a trace file has them.
 */
static void make_trace(struct trace *t)
{
	memset(t, 0, sizeof(*t));
	t->tick_ns = TICK;
	for (int k = 0; k < 1400; k++) {
		if (k < 700)
			put(t, 1, 1, k, k, 0, 64, 0, 1);
		else if (k < 710)
			put(t, 1, 1, k, k, 0, 0, 0, 0);
		else
			put(t, 1, 1, k, 5000 + k, 100, 64, 0, 1);
		put(t, 2, 2, k, 100, k < 900 ? k : 500 + k, 0, 64, 1);
		if (k < 100)
			put(t, 3, 1, k, -k, -k, -64, -64, 1);
	}
}

Test(replay, split_paths)
{
	struct trace t;
	struct replay_opts o;
	struct replay_set set;

	make_trace(&t);
	replay_opts_init(&o);
	cr_assert_eq(replay_set_build(&t, &o, &set), 0);
	cr_assert_eq(set.n_paths, 4);
	cr_expect_eq(set.path[0].entity, 1);
	cr_expect_eq(set.path[0].n, 700);
	cr_expect_eq(set.path[1].entity, 1);
	cr_expect_eq(set.path[1].n, 690);
	cr_expect_eq(set.path[2].entity, 2);
	cr_expect_eq(set.path[2].n, 900);
	cr_expect_eq(set.path[3].n, 500);
	cr_expect_eq(set.path[3].team, 2);
	cr_expect_eq(set.dropped_short, 1);
	cr_expect_eq(set.dropped_dead, 10);
	cr_expect_eq(set.lo[0], -99);
	cr_expect_eq(set.hi[0], 5000 + 1399);
	cr_expect_eq(set.hi[1], 500 + 1399);
	replay_set_free(&set);
	/* a missing tick also cuts: drop entity 2's tick 400 */
	for (size_t i = 0; i < t.n; i++)
		if (t.s[i].entity == 2 && t.s[i].t_ns == 400 * TICK)
			t.s[i].entity = 99; /* now a 1-tick entity: short */
	cr_assert_eq(replay_set_build(&t, &o, &set), 0);
	cr_expect_eq(set.n_paths, 5);
	cr_expect_eq(set.path[2].n, 400);
	cr_expect_eq(set.path[3].n, 499);
	replay_set_free(&set);
	free(t.s);
}

Test(replay, state_finite_differences)
{
	struct trace_sample s[3];
	struct replay_path p = {.s = s, .n = 3};
	struct predict_state x;

	memset(s, 0, sizeof(s));
	for (int k = 0; k < 3; k++) {
		s[k].t_ns = k * TICK;
		s[k].vx = 10.0 * k;
		s[k].yaw = k == 2 ? -179.0 : 179.0;
	}
	replay_state_at(&p, 0, &x);
	cr_expect_eq(x.acc[0], 0.0);
	cr_expect_eq(x.angvel[2], 0.0);
	replay_state_at(&p, 1, &x);
	/* (10 - 0) u/s over 1/64 s */
	cr_expect(fabs(x.acc[0] - 640.0) < 1e-9);
	replay_state_at(&p, 2, &x);
	/* 179 -> -179 deg is +2 deg across the wrap: 128 deg/s */
	cr_expect(fabs(x.angvel[2] - 128.0 * M_PI / 180.0) < 1e-9, "%g",
		  x.angvel[2]);
	cr_expect(fabs(x.ori[0] + 179.0 * M_PI / 180.0) < 1e-12);
}

Test(replay, p95_nearest_rank)
{
	double v[100], mean, p95, max;

	for (int i = 0; i < 100; i++)
		v[i] = 100 - i; /* 100..1, unsorted */
	replay_error_summary(v, 100, &mean, &p95, &max);
	cr_expect_eq(mean, 50.5);
	cr_expect_eq(p95, 95.0); /* rank ceil(0.95 * 100) = 95 */
	cr_expect_eq(max, 100.0);
	double w[3] = {3, 1, 2};

	replay_error_summary(w, 3, &mean, &p95, &max);
	cr_expect_eq(p95, 3.0); /* rank ceil(2.85) = 3 */
}

Test(replay, leave_one_out_is_exact)
{
	struct trace t;
	struct replay_opts o;
	struct replay_set set;
	struct predict_trend all, without;
	size_t cells;

	make_trace(&t);
	replay_opts_init(&o);
	cr_assert_eq(replay_set_build(&t, &o, &set), 0);
	cr_assert_eq(replay_trend_build(&set, 1, &o, &all), 0);
	cr_expect_eq(all.samples, 700 + 690);
	/* without path 0, built from scratch */
	cr_assert_eq(replay_trend_build(&set, 1, &o, &without), 0);
	cr_assert_eq(replay_trend_path(&without, &set.path[0], -1), 0);
	struct predict_trend scratch;

	cr_assert_eq(predict_trend_init(&scratch, all.x0, all.y0, all.x1,
					all.y1, 100, 100),
		     0);
	cr_assert_eq(replay_trend_path(&scratch, &set.path[1], 1), 0);
	cells = 100 * 100;
	cr_expect_eq(memcmp(scratch.sx, without.sx, cells * 8), 0);
	cr_expect_eq(memcmp(scratch.sy, without.sy, cells * 8), 0);
	cr_expect_eq(memcmp(scratch.n, without.n, cells * 8), 0);
	/* and adding it back restores the full map */
	cr_assert_eq(replay_trend_path(&without, &set.path[0], 1), 0);
	cr_expect_eq(memcmp(all.sx, without.sx, cells * 8), 0);
	cr_expect_eq(memcmp(all.n, without.n, cells * 8), 0);
	/* the team filter: team 2's map holds only entity 2 */
	struct predict_trend t2;

	cr_assert_eq(replay_trend_build(&set, 2, &o, &t2), 0);
	cr_expect_eq(t2.samples, 1400);
	predict_trend_free(&t2);
	predict_trend_free(&scratch);
	predict_trend_free(&all);
	predict_trend_free(&without);
	replay_set_free(&set);
	free(t.s);
}

Test(replay, run_set_and_experiment_draw)
{
	struct trace t;
	struct replay_opts o;
	struct replay_set set;
	struct predict_params dr, led;
	struct replay_experiment e1, e2;
	struct replay_result res[4];

	make_trace(&t);
	replay_opts_init(&o);
	cr_assert_eq(replay_set_build(&t, &o, &set), 0);
	cr_assert_eq(predict_params_init(&led, predict_find("led")), 0);
	dr = led;
	cr_assert_eq(predict_params_set_kv(&dr, "eta_min=20"), 0);
	cr_assert_eq(predict_params_set_kv(&dr, "eta_max=20"), 0);
	/* straight lines at constant speed: no updates, no error */
	cr_assert_eq(replay_run_set(&set, &o, &led, res, NULL), 0);
	for (int i = 0; i < 4; i++) {
		cr_expect_eq(res[i].updates, 0);
		cr_expect(res[i].err_max < 1e-9);
		cr_expect_eq(res[i].ticks, set.path[i].n);
	}
	cr_assert_eq(replay_experiment_run(&set, &o, &dr, &led, 42, 3, &e1), 0);
	cr_assert_eq(replay_experiment_run(&set, &o, &dr, &led, 42, 3, &e2), 0);
	cr_expect_eq(e1.n, 3);
	for (size_t i = 0; i < 3; i++) {
		cr_expect_eq(e1.subject[i], e2.subject[i]);
		cr_expect_lt(e1.subject[i], set.n_paths);
		for (size_t j = 0; j < i; j++)
			cr_expect_neq(e1.subject[i], e1.subject[j]);
	}
	replay_experiment_free(&e2);
	/* more subjects than paths: every path once */
	cr_assert_eq(replay_experiment_run(&set, &o, &dr, &led, 7, 500, &e2),
		     0);
	cr_expect_eq(e2.n, 4);
	replay_experiment_free(&e1);
	replay_experiment_free(&e2);
	replay_set_free(&set);
	free(t.s);
}

Test(replay, rejects_bad_input)
{
	struct trace t;
	struct replay_opts o;
	struct replay_set set;

	make_trace(&t);
	replay_opts_init(&o);
	t.tick_ns = 0;
	cr_expect_eq(replay_set_build(&t, &o, &set), -EINVAL);
	t.tick_ns = TICK;
	/* a NaN sample is dropped, not fatal */
	t.s[5].x = NAN;
	cr_assert_eq(replay_set_build(&t, &o, &set), 0);
	cr_expect_eq(set.dropped_dead, 11);
	replay_set_free(&set);
	free(t.s);
}

/*
 * Steele's regression setup (paper 000 §VI-C, Algorithm 2): a subject,
 * a same-team path and an other-team path over the same cells. The
 * subject zig-zags; the same-team path follows it with parallel
 * velocities, the other-team path with perpendicular ones. With the team
 * filter the other team cannot change the subject's result; without it
 * it must.
 */
static void three_paths(struct trace *t, int with_other)
{
	memset(t, 0, sizeof(*t));
	t->tick_ns = TICK;
	for (int k = 0; k < 640; k++) {
		double s = (double)k * TICK * 1e-9;
		double x = 200 + 150 * s, y = 500 + 100 * sin(2 * s);
		double vx = 150, vy = 200 * cos(2 * s);

		put(t, 1, 1, k, x, y, vx, vy, 1);
		put(t, 2, 1, k, x, y, vx, vy, 1);
		if (with_other)
			put(t, 3, 2, k, x, y, -vy, vx, 1);
	}
}

static struct replay_result subject_result(int with_other, int filter)
{
	struct trace t;
	struct replay_opts o;
	struct replay_set set;
	struct predict_params par;
	struct replay_result res[3], r;

	three_paths(&t, with_other);
	replay_opts_init(&o);
	o.team_filter = filter;
	cr_assert_eq(replay_set_build(&t, &o, &set), 0);
	cr_assert_eq(set.n_paths, with_other ? 3u : 2u);
	cr_assert_eq(set.path[0].entity, 1);
	cr_assert_eq(predict_params_init(&par, predict_find("led")), 0);
	cr_assert_eq(replay_run_set(&set, &o, &par, res, NULL), 0);
	r = res[0];
	replay_set_free(&set);
	free(t.s);
	return r;
}

Test(replay, team_filter)
{
	struct replay_result a = subject_result(1, 1);
	struct replay_result b = subject_result(0, 1);
	struct replay_result c = subject_result(1, 0);

	cr_expect_gt(a.updates, 0);
	cr_expect_eq(a.updates, b.updates);
	cr_expect_eq(a.err_mean, b.err_mean);
	/* the other team's perpendicular flow lowers C: more updates */
	cr_expect_gt(c.updates, a.updates, "all teams %llu, filtered %llu",
		     (unsigned long long)c.updates,
		     (unsigned long long)a.updates);
}

/*
 * Leave-one-out end to end. The subject (entity 1, team 1) zig-zags
 * along y = 500 + 100 sin 2t; its teammate (entity 2) walks the same x
 * range along y = 5000. The set's bounds are y in [400, 5000], so the
 * 100 x 100 grid has rows 46 u high: the subject only visits rows 0-4,
 * the teammate only row 99. With leave-one-out the subject's cells are
 * empty in its own trend map, so eq. 7 gives C = empty_c everywhere on
 * its path:
 *   empty_c = 0:   eta = eta_min = 5 and B = K/5 = (0.25 * 20)/5 = 1 s,
 *                  exactly led with eta_min = eta_max = 5, blend = 1
 *                  (K = 1 * 5, B = 5/5);
 *   empty_c = 0.5: eta = 5 + 0.5 * 30 = 20 and B = 5/20 = 0.25 s,
 *                  exactly the DR baseline eta = 20, blend = 0.25.
 * The same arithmetic gives the same updates and bit-identical errors.
 * Without leave-one-out the subject's own velocities fill its cells and
 * C is near 1 (eta near 35): fewer updates than at eta = 5.
 */
static void loo_trace(struct trace *t)
{
	memset(t, 0, sizeof(*t));
	t->tick_ns = TICK;
	for (int k = 0; k < 640; k++) {
		double s = (double)k * TICK * 1e-9;

		put(t, 1, 1, k, 200 + 150 * s, 500 + 100 * sin(2 * s), 150,
		    200 * cos(2 * s), 1);
		put(t, 2, 1, k, 200 + 150 * s, 5000, 150, 0, 1);
	}
}

static void loo_run(const char *const *kv, int loo, struct replay_result *res)
{
	struct trace t;
	struct replay_opts o;
	struct replay_set set;
	struct predict_params par;

	loo_trace(&t);
	replay_opts_init(&o);
	o.leave_one_out = loo;
	cr_assert_eq(replay_set_build(&t, &o, &set), 0);
	cr_assert_eq(set.n_paths, 2);
	cr_assert_eq(set.path[0].entity, 1);
	cr_assert_eq(predict_params_init(&par, predict_find("led")), 0);
	for (; *kv; kv++)
		cr_assert_eq(predict_params_set_kv(&par, *kv), 0, "%s", *kv);
	cr_assert_eq(replay_run_set(&set, &o, &par, res, NULL), 0);
	replay_set_free(&set);
	free(t.s);
}

Test(replay, leave_one_out_end_to_end)
{
	const char *led0[] = {"empty_c=0", NULL};
	const char *led5[] = {"empty_c=0.5", NULL};
	const char *eta5[] = {"eta_min=5", "eta_max=5", "blend=1", NULL};
	const char *eta20[] = {"eta_min=20", "eta_max=20", "blend=0.25", NULL};
	struct replay_result on[2], off[2], fix[2];

	loo_run(led0, 1, on);
	loo_run(eta5, 1, fix);
	cr_expect_gt(fix[0].updates, 5);
	cr_expect_eq(on[0].updates, fix[0].updates, "loo %llu, eta_min %llu",
		     (unsigned long long)on[0].updates,
		     (unsigned long long)fix[0].updates);
	cr_expect_eq(on[0].err_mean, fix[0].err_mean);
	cr_expect_eq(on[0].err_max, fix[0].err_max);

	loo_run(led5, 1, on);
	loo_run(eta20, 1, fix);
	cr_expect_eq(on[0].updates, fix[0].updates);
	cr_expect_eq(on[0].err_mean, fix[0].err_mean);

	loo_run(led0, 0, off);
	loo_run(eta5, 1, fix);
	cr_expect_lt(off[0].updates, fix[0].updates,
		     "no leave-one-out %llu, eta_min %llu",
		     (unsigned long long)off[0].updates,
		     (unsigned long long)fix[0].updates);
	/* the straight teammate needs no update either way */
	cr_expect_eq(off[1].updates, 0);
	cr_expect_eq(fix[1].updates, 0);
}

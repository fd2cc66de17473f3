/*
 * test_truth.c: where led reckoning's trend maps come from in a run
 * (agents/role/truth.c). Without a training session each path gets its
 * team's map of this trace minus the path itself (leave-one-out); with one
 * (--trend-train / --trend-trace) every path gets its team's map of the
 * training session, whatever the run's own trace holds. A trace whose
 * first sample is not at 0 is rebased: the roles see the same relative
 * times as for the same movement starting at 0. The truth owns the map it
 * is given: every context then sees the map's bounds, line of sight and
 * items, and taking the map away gives the set's bounds back.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "role/truth.h"
#include "role_fixture.h"

static int same_map(const struct predict_trend *a, const struct predict_trend *b)
{
	size_t cells = (size_t)a->nx * (size_t)a->ny;

	return a->nx == b->nx && a->ny == b->ny && a->x0 == b->x0 &&
	       a->y1 == b->y1 && a->samples == b->samples &&
	       !memcmp(a->n, b->n, cells * sizeof(*a->n)) &&
	       !memcmp(a->sx, b->sx, cells * sizeof(*a->sx)) &&
	       !memcmp(a->sy, b->sy, cells * sizeof(*a->sy));
}

static void team_map(const struct trace *t, int team, struct predict_trend *m)
{
	struct replay_opts o;
	struct replay_set s;

	replay_opts_init(&o);
	cr_assert_eq(replay_set_build(t, &o, &s), 0);
	cr_assert_eq(replay_trend_build(&s, o.team_filter ? team : -1, &o, m),
		     0);
	replay_set_free(&s);
}

Test(truth, trained_maps_are_the_training_sessions_team_maps)
{
	struct trace run_a, run_b, train;
	struct role_truth a, b;

	fix_trace(&run_a, 4, 10);
	fix_trace(&run_b, 3, 6);
	fix_trace(&train, 6, 30);
	cr_assert_eq(role_truth_build_trained(&run_a, &train, NULL, &a), 0);
	cr_assert_eq(role_truth_build_trained(&run_b, &train, NULL, &b), 0);
	cr_assert_gt(a.set.n_paths, 1);
	for (size_t i = 0; i < a.set.n_paths; i++) {
		struct predict_trend m;

		team_map(&train, a.set.path[i].team, &m);
		cr_assert_gt(m.samples, 0);
		cr_assert(same_map(&a.trend[i], &m), "path %zu", i);
		predict_trend_free(&m);
	}
	/* a different run trace gets the same maps for the same team */
	for (size_t i = 0; i < b.set.n_paths; i++)
		for (size_t j = 0; j < a.set.n_paths; j++)
			if (b.set.path[i].team == a.set.path[j].team)
				cr_assert(same_map(&b.trend[i], &a.trend[j]));
	role_truth_free(&a);
	role_truth_free(&b);
	trace_free(&run_a);
	trace_free(&run_b);
	trace_free(&train);
}

Test(truth, untrained_maps_leave_the_path_out)
{
	struct trace run;
	struct role_truth a, b;

	fix_trace(&run, 4, 10);
	cr_assert_eq(role_truth_build(&run, NULL, &a), 0);
	cr_assert_eq(role_truth_build_trained(&run, NULL, NULL, &b), 0);
	for (size_t i = 0; i < a.set.n_paths; i++) {
		struct predict_trend m;

		team_map(&run, a.set.path[i].team, &m);
		/* the path's own moving samples are missing from its map */
		cr_assert_lt(a.trend[i].samples, m.samples, "path %zu", i);
		cr_assert(same_map(&a.trend[i], &b.trend[i]));
		predict_trend_free(&m);
	}
	role_truth_free(&a);
	role_truth_free(&b);
	trace_free(&run);
}

Test(truth, an_empty_training_trace_is_refused)
{
	struct trace run, empty;
	struct role_truth a;

	fix_trace(&run, 2, 5);
	trace_init(&empty);
	empty.tick_ns = FIX_TICK;
	cr_assert_eq(role_truth_build_trained(&run, &empty, NULL, &a), -EINVAL);
	trace_free(&run);
	trace_free(&empty);
}

/*
 * An imported trace keeps its own clock: here its first sample is at
 * 3600.000000007 s, which is no multiple of the tick. The truth must be
 * the same as that of the same movement starting at 0, sample for
 * sample, with the origin kept, so that players stamp their updates in
 * ns after t0 and the observer finds their paths.
 */
Test(truth, a_time_shifted_trace_is_rebased_to_its_first_sample)
{
	const int64_t off = 3600000000007LL;
	struct trace t0, ts;
	struct role_truth a, b;
	size_t path;

	fix_trace(&t0, 3, 8);
	fix_trace(&ts, 3, 8);
	fix_shift(&ts, off);
	cr_assert_eq(role_truth_build(&t0, NULL, &a), 0);
	cr_assert_eq(role_truth_build(&ts, NULL, &b), 0);
	cr_assert_eq(a.origin_ns, 0);
	cr_assert_eq(b.origin_ns, off);
	cr_assert_eq(b.end_ns, a.end_ns);
	cr_assert_eq(b.set.n_paths, a.set.n_paths);
	for (size_t i = 0; i < a.set.n_paths; i++) {
		cr_assert_eq(b.set.path[i].n, a.set.path[i].n);
		for (size_t k = 0; k < a.set.path[i].n; k++) {
			cr_assert_eq(b.set.path[i].s[k].t_ns,
				     a.set.path[i].s[k].t_ns, "path %zu k %zu",
				     i, k);
			cr_assert_eq(role_truth_time(&b, i, k),
				     role_truth_time(&a, i, k));
		}
	}
	cr_assert_eq(role_truth_time(&b, 0, 0), 0);
	/* an update stamped 1 s after t0 belongs to a path */
	cr_assert_eq(role_truth_find_path(&b, 0, 1000000000, &path), 0);
	cr_assert_eq(role_truth_find_path(&b, 0, off + 1000000000, &path),
		     -ENOENT);
	role_truth_free(&a);
	role_truth_free(&b);
	trace_free(&t0);
	trace_free(&ts);
}

/* 5 x 4 cells of 10 u, a wall down x = 20..30 between y = 10 and 30,
 * a spawn at (15, 15), one health pack respawning after 30 s at
 * (15, 25). */
static struct map *small_map(void)
{
	static const char txt[] = "reckon-map 1\n"
				  "cell 10\n"
				  "team 1 red\n"
				  "spawn 1 s\n"
				  "item health 25 30 h\n"
				  "grid\n"
				  "#####\n"
				  "#s#.#\n"
				  "#h#.#\n"
				  "#####\n"
				  "end\n";
	struct map *m = malloc(sizeof(*m));
	char err[128];

	cr_assert_not_null(m);
	cr_assert_eq(map_parse(txt, sizeof(txt) - 1, m, err, sizeof(err)), 0,
		     "%s", err);
	return m;
}

Test(truth, the_map_gives_every_context_bounds_sight_and_items)
{
	const double a[3] = {15, 15, 0}, b[3] = {35, 15, 0}, c[3] = {15, 25, 0};
	struct role_truth tr;
	struct trace t;

	fix_trace(&t, 3, 6);
	cr_assert_eq(role_truth_build(&t, NULL, &tr), 0);
	trace_free(&t);
	cr_assert_gt(tr.set.n_paths, 1);
	cr_assert_eq(role_truth_set_map(&tr, small_map()), 0);
	cr_assert_eq(tr.n_items, 1);
	cr_assert_float_eq(tr.respawn_s[0], 30, 1e-9);
	for (size_t i = 0; i < tr.set.n_paths; i++) {
		const struct predict_ctx *x = &tr.ctx[i];

		cr_assert_eq(x->map.world, tr.map);
		cr_assert_float_eq(x->map.hi[0], 50, 1e-9);
		cr_assert_float_eq(x->map.hi[1], 40, 1e-9);
		cr_assert_not_null(x->map.los);
		cr_assert_eq(x->map.los(x->map.world, a, b), 0, "the wall");
		cr_assert_eq(x->map.los(x->map.world, a, c), 1);
		cr_assert_eq(x->n_items, 1);
		cr_assert(x->items[0].present);
		cr_assert_float_eq(x->items[0].pos[0], 15, 1e-9);
		cr_assert_float_eq(x->items[0].pos[1], 25, 1e-9);
		cr_assert_eq(x->trend, &tr.trend[i], "the trend stays");
	}
	/* a second map replaces the first (which the truth frees) */
	cr_assert_eq(role_truth_set_map(&tr, small_map()), 0);
	cr_assert_eq(tr.ctx[0].map.world, tr.map);
	cr_assert_eq(role_truth_set_map(&tr, NULL), 0);
	cr_assert_null(tr.map);
	for (size_t i = 0; i < tr.set.n_paths; i++) {
		cr_assert_null(tr.ctx[i].map.los);
		cr_assert_null(tr.ctx[i].items);
		cr_assert_float_eq(tr.ctx[i].map.lo[0], tr.set.lo[0], 1e-12);
		cr_assert_float_eq(tr.ctx[i].map.hi[1], tr.set.hi[1], 1e-12);
	}
	cr_assert_eq(role_truth_set_map(&tr, small_map()), 0);
	role_truth_free(&tr); /* frees the map: valgrind/ASan see no leak */
}

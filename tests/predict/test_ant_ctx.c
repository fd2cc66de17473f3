/*
 * test_ant_ctx.c: AntReckoning in the multi-entity replay on a bot trace
 * of the arena map (agents/world): what a receiver may know, and
 * determinism. The property: every client's display of the other
 * entities is bit for bit the same whether or not one entity's truth
 * changes after its last delivered update (its later updates are lost),
 * while the same change, delivered, does move the others' displays (so
 * ant does read ctx.peers, and the first check can fail). Determinism:
 * the same seed gives the same bytes.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "agent_io.h"
#include "predict/map_view.h"
#include "predict/replay.h"
#include "world/map.h"
#include "world/sim.h"

#define MUTED  3
#define T_MUTE 10000000000LL /* 10 s */

struct rec {
	double *v; /* entity, t, shown x, y, z of every tick */
	size_t n, cap;
	int skip_muted;
};

static void on_tick(void *arg, const struct replay_tick *k)
{
	struct rec *r = arg;

	if (r->skip_muted && k->entity == MUTED)
		return;
	if (r->n + 5 > r->cap) {
		r->cap = r->cap ? 2 * r->cap : 4096;
		r->v = realloc(r->v, r->cap * sizeof(double));
		cr_assert(r->v);
	}
	r->v[r->n++] = k->entity;
	r->v[r->n++] = (double)k->t_ns;
	memcpy(&r->v[r->n], k->shown, 3 * sizeof(double));
	r->n += 3;
}

static struct map arena;
static int arena_loaded;
static struct predict_item items[MAP_MAX_ITEMS];
static double respawn[MAP_MAX_ITEMS];

static void make(struct trace *t, uint64_t seed)
{
	struct sim_config c;
	struct trace_events ev;
	char err[256];

	if (arena_loaded)
		map_free(&arena); /* each trace loads the map afresh */
	cr_assert_eq(agent_map_load("arena", &arena, err, sizeof(err)), 0, "%s",
		     err);
	arena_loaded = 1;
	sim_config_defaults(&c);
	c.seed = seed;
	c.nbots = 6;
	c.duration_s = 30;
	trace_init(t);
	trace_events_init(&ev);
	cr_assert_eq(sim_run(&arena, &c, t, &ev), 0);
	trace_events_free(&ev);
}

/* Replay t together with ant; rec gets every tick. */
static void run(const struct trace *t, int mute, struct rec *rec,
		uint64_t *updates)
{
	struct replay_opts o;
	struct replay_set set;
	struct replay_world w;
	struct predict_params par;
	struct replay_result res[256];

	replay_opts_init(&o);
	cr_assert_eq(replay_set_build(t, &o, &set), 0);
	cr_assert(set.n_paths < 256);
	memset(&w, 0, sizeof(w));
	predict_map_view(&arena, &w.map);
	w.n_items = predict_map_items(&arena, items, respawn, MAP_MAX_ITEMS);
	w.items = items;
	w.respawn_s = respawn;
	w.pickup_r = AGENT_PICKUP_R;
	w.mute = mute;
	w.mute_entity = MUTED;
	w.mute_after_ns = T_MUTE;
	w.on_tick = on_tick;
	w.arg = rec;
	predict_params_init(&par, &predict_ant);
	cr_assert_eq(replay_run_together(&set, &w, &par, res, NULL), 0);
	*updates = 0;
	for (size_t i = 0; i < set.n_paths; i++)
		if (set.path[i].entity != MUTED)
			*updates += res[i].updates;
	replay_set_free(&set);
}

/* Entity MUTED's truth after T_MUTE moves elsewhere: mirrored in x
 * around the map's centre line (still a walkable arena position). */
static void perturb(struct trace *t)
{
	double w = arena.w * arena.cell;

	for (size_t i = 0; i < t->n; i++)
		if (t->s[i].entity == MUTED && t->s[i].t_ns > T_MUTE) {
			t->s[i].x = w - t->s[i].x;
			t->s[i].vx = -t->s[i].vx;
		}
}

Test(ant_ctx, no_receiver_reads_the_truth)
{
	struct trace a, b;
	struct rec ra = {.skip_muted = 1}, rb = {.skip_muted = 1};
	struct rec rc = {.skip_muted = 1}, rd = {.skip_muted = 1};
	uint64_t ua, ub, uc, ud;

	make(&a, 11);
	make(&b, 11);
	perturb(&b);
	/* lost after T_MUTE: the others cannot tell the two truths apart */
	run(&a, 1, &ra, &ua);
	run(&b, 1, &rb, &ub);
	cr_assert_gt(ra.n, 1000);
	cr_assert_eq(ra.n, rb.n);
	cr_expect_eq(memcmp(ra.v, rb.v, ra.n * sizeof(double)), 0,
		     "a display depends on a truth that never arrived");
	cr_expect_eq(ua, ub);
	/* delivered: the same change reaches the others' predictions */
	run(&a, 0, &rc, &uc);
	run(&b, 0, &rd, &ud);
	cr_assert_eq(rc.n, rd.n);
	cr_expect_neq(memcmp(rc.v, rd.v, rc.n * sizeof(double)), 0,
		      "ant ignores its peers: the first check proves nothing");
	free(ra.v);
	free(rb.v);
	free(rc.v);
	free(rd.v);
	trace_free(&a);
	trace_free(&b);
	map_free(&arena);
}

Test(ant_ctx, same_seed_same_bytes)
{
	struct trace a, b;
	struct rec ra = {0}, rb = {0};
	uint64_t ua, ub;

	make(&a, 5);
	make(&b, 5);
	run(&a, 0, &ra, &ua);
	run(&b, 0, &rb, &ub);
	cr_assert_gt(ua, 10);
	cr_assert_eq(ra.n, rb.n);
	cr_expect_eq(memcmp(ra.v, rb.v, ra.n * sizeof(double)), 0);
	cr_expect_eq(ua, ub);
	free(ra.v);
	free(rb.v);
	trace_free(&a);
	trace_free(&b);
	map_free(&arena);
}

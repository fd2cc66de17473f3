/*
 * test_player.c: the player role machine (agents/role/player.c) driven
 * with synthetic time: nothing before the first tick, the initial state
 * of every entity on every lane at t = 0 sent to each destination, the
 * next-wake time, the per-entity update counts equal to the offline
 * replay's on the same truth (for DIS and led reckoning), entity
 * selection, a transmit error handed back, and a datagram the host
 * failed to send counted as a send error, not as sent, and an ant
 * lane's pheromone map while it plays and after its sender is freed.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>

#include "predict/replay.h"
#include "role/player.h"
#include "role/update_espdu.h"
#include "role_fixture.h"

static struct trace tr_;
static struct role_truth truth;
static struct predict_params lanes[2];

static void setup(void)
{
	fix_trace(&tr_, 4, 20);
	cr_assert_eq(role_truth_build(&tr_, NULL, &truth), 0);
	fix_params(&lanes[0], "dis");
	fix_params(&lanes[1], "led");
}

static void teardown(void)
{
	role_truth_free(&truth);
	trace_free(&tr_);
}

TestSuite(player, .init = setup, .fini = teardown);

static struct role_player *mk(uint16_t n_dest, const uint32_t *ents,
			      size_t n_ents)
{
	struct role_player_cfg c = {
		.truth = &truth,
		.lanes = lanes,
		.n_lanes = 2,
		.n_dest = n_dest,
		.entities = ents,
		.n_entities = n_ents,
	};
	struct role_player *p = NULL;

	cr_assert_eq(role_player_new(&c, &p), 0);
	return p;
}

Test(player, first_tick_sends_initial_states)
{
	struct role_player *p = mk(3, NULL, 0);
	struct fix_queue q;

	fix_queue_init(&q);
	cr_assert_eq(role_player_next(p), 0);
	cr_assert_eq(role_player_advance(p, -1, fix_emit, &q), 0);
	cr_assert_eq(q.n, 0, "nothing before t0");
	cr_assert_eq(role_player_advance(p, 0, fix_emit, &q), 0);
	/* 4 entities x 2 lanes x 3 destinations */
	cr_assert_eq(q.n, 24);
	cr_assert_eq(role_player_next(p), FIX_TICK);
	for (size_t i = 0; i < q.n; i++) {
		struct reckon_espdu pdu;
		struct predict_update u;
		uint8_t model;

		cr_assert_eq(q.d[i].dest, i % 3);
		cr_assert_eq(q.d[i].lane, (i / 3) % 2);
		cr_assert_eq(reckon_espdu_decode(q.d[i].buf, q.d[i].len, &pdu),
			     RECKON_ESPDU_OK);
		cr_assert_eq(role_espdu_to_update(&pdu, &u, &model), 0);
		cr_assert_eq(u.entity, i / 6);
		cr_assert_eq(pdu.id.entity, i / 6 + 1);
		cr_assert_eq(u.reason, PREDICT_REASON_INIT);
		cr_assert_eq(u.t_ns, 0);
		cr_assert_eq(model, role_model_id(lanes[q.d[i].lane].p));
	}
	fix_queue_free(&q);
	role_player_free(p);
}

/* Updates per entity of the offline replay for lane l. */
static void replay_counts(int l, uint64_t *per_entity)
{
	struct replay_result *res = calloc(truth.set.n_paths, sizeof(*res));

	cr_assert(res);
	cr_assert_eq(
		replay_run_set(&truth.set, &truth.opts, &lanes[l], res, NULL),
		0);
	for (size_t i = 0; i < truth.set.n_paths; i++)
		per_entity[truth.set.path[i].entity] += res[i].updates;
	free(res);
}

Test(player, counts_equal_offline_replay)
{
	struct role_player *p = mk(2, NULL, 0);
	struct fix_queue q;
	uint64_t want[2][8] = {{0}};
	int64_t t;

	fix_queue_init(&q);
	/* wake up irregularly, as a real timer does */
	for (t = 0; role_player_next(p) != INT64_MAX; t += 3 * FIX_TICK + 17)
		cr_assert_eq(role_player_advance(p, t, fix_emit, &q), 0);
	replay_counts(0, want[0]);
	replay_counts(1, want[1]);
	cr_assert_eq(role_player_rows(p), 8);
	uint64_t total = 0;

	for (size_t i = 0; i < role_player_rows(p); i++) {
		struct role_metrics m;

		cr_assert_eq(role_player_metrics(p, i, &m), 0);
		/* replay counts updates after the initial state (A11); the
		 * respawned entity 1 has two paths, so two initial states */
		cr_assert_eq(m.sent - m.sent_init, want[m.lane][m.entity],
			     "lane %u entity %u: %lu vs replay %lu", m.lane,
			     m.entity, (unsigned long)(m.sent - m.sent_init),
			     (unsigned long)want[m.lane][m.entity]);
		cr_assert_eq(m.sent_init, m.entity == 1 ? 2 : 1);
		cr_assert_eq(m.datagrams, 2 * m.sent);
		total += m.datagrams;
		cr_assert_gt(m.bytes_sent, 160 * m.datagrams - 1);
		/* each update once; every copy has the same length */
		cr_assert_eq(m.bytes_sent, 2 * m.update_bytes);
		cr_assert_eq(m.send_errors, 0);
	}
	cr_assert_eq(q.n, total);
	/* the curves make both predictors send more than initial states */
	cr_assert_gt(want[0][0], 0);
	cr_assert_gt(want[1][0], 0);
	fix_queue_free(&q);
	role_player_free(p);
}

Test(player, plays_only_its_entities)
{
	uint32_t mine[] = {2};
	struct role_player *p = mk(1, mine, 1);
	struct fix_queue q;

	fix_queue_init(&q);
	cr_assert_eq(role_player_advance(p, 100 * FIX_TICK, fix_emit, &q), 0);
	cr_assert_geq(q.n, 2);
	for (size_t i = 0; i < q.n; i++) {
		struct reckon_espdu pdu;

		cr_assert_eq(reckon_espdu_decode(q.d[i].buf, q.d[i].len, &pdu),
			     RECKON_ESPDU_OK);
		cr_assert_eq(pdu.id.entity, 3);
	}
	cr_assert_eq(role_player_rows(p), 2);
	fix_queue_free(&q);
	role_player_free(p);
}

Test(player, rejects_bad_config)
{
	uint32_t nobody[] = {99};
	struct role_player_cfg c = {
		.truth = &truth,
		.lanes = lanes,
		.n_lanes = 2,
		.n_dest = 1,
		.entities = nobody,
		.n_entities = 1,
	};
	struct role_player *p = (struct role_player *)&c;

	cr_assert_eq(role_player_new(&c, &p), -EINVAL);
	cr_assert_eq(p, (struct role_player *)&c, "output untouched");
	c.entities = NULL;
	c.n_dest = 0;
	cr_assert_eq(role_player_new(&c, &p), -EINVAL);
	c.n_dest = 1;
	c.n_lanes = 0;
	cr_assert_eq(role_player_new(&c, &p), -EINVAL);
}

Test(player, emit_error_is_returned)
{
	struct role_player *p = mk(1, NULL, 0);
	struct fix_queue q;

	fix_queue_init(&q);
	q.fail_after = 3;
	cr_assert_eq(role_player_advance(p, 0, fix_emit, &q), -EPIPE);
	cr_assert_eq(q.n, 3);
	fix_queue_free(&q);
	role_player_free(p);
}

Test(player, failed_sends_are_send_errors)
{
	struct role_player *p = mk(3, NULL, 0);
	struct fix_queue q;
	size_t total = 0;

	fix_queue_init(&q);
	q.refuse_dest = 1;
	cr_assert_eq(role_player_advance(p, INT64_MAX - 1, fix_emit, &q), 0);
	cr_assert_eq(role_player_next(p), INT64_MAX);
	for (size_t i = 0; i < role_player_rows(p); i++) {
		struct role_metrics m;

		cr_assert_eq(role_player_metrics(p, i, &m), 0);
		cr_assert_gt(m.sent, 0);
		/* 3 destinations, one of which refuses every datagram */
		cr_assert_eq(m.datagrams, 2 * m.sent);
		cr_assert_eq(m.send_errors, m.sent);
		cr_assert_eq(m.bytes_sent, 2 * m.update_bytes);
		total += m.datagrams;
	}
	cr_assert_eq(q.n, total);
	for (size_t i = 0; i < q.n; i++)
		cr_assert_neq(q.d[i].dest, 1);
	fix_queue_free(&q);
	role_player_free(p);
}

/*
 * role_player_grid: the pheromone map of an ant lane for the first
 * entity played, from its live sender while its path plays and from the
 * copy kept when the path ends and the sender is freed. One armour item
 * (kind 1, weight 1) at the centre of the set's bounds in every path's
 * context, and region 1e5 so that it deposits in every frame wherever
 * entity 0 walks: its cell holds at least rho = 40 at the end of any
 * frame (deposited after the spread, never above the cap 100). A dis
 * lane keeps no grid: -ENOTSUP.
 */
Test(player, ant_grid_live_and_kept)
{
	struct predict_params two[2];
	struct predict_item it = {.id = 1, .kind = 1, .present = 1};
	struct predict_grid g;
	struct role_player *p;
	struct fix_queue q;
	uint32_t ent = 99;
	const double *live;
	int64_t mid = truth.end_ns / 2;

	fix_params(&two[0], "dis");
	cr_assert_eq(predict_params_init(&two[1], predict_find("ant")), 0);
	cr_assert_eq(predict_params_set(&two[1], "region", "100000"), 0);
	it.pos[0] = (truth.ctx[0].map.lo[0] + truth.ctx[0].map.hi[0]) / 2;
	it.pos[1] = (truth.ctx[0].map.lo[1] + truth.ctx[0].map.hi[1]) / 2;
	for (size_t i = 0; i < truth.set.n_paths; i++) {
		truth.ctx[i].items = &it;
		truth.ctx[i].n_items = 1;
	}
	struct role_player_cfg c = {
		.truth = &truth, .lanes = two, .n_lanes = 2, .n_dest = 1};
	cr_assert_eq(role_player_new(&c, &p), 0);
	fix_queue_init(&q);
	cr_expect_eq(role_player_grid(p, 1, &g, &ent), -EAGAIN);
	cr_expect_eq(role_player_grid(p, 0, &g, &ent), -ENOTSUP);
	cr_expect_eq(role_player_grid(p, 2, &g, &ent), -EINVAL);

	cr_assert_eq(role_player_advance(p, mid, fix_emit, &q), 0);
	cr_assert_eq(role_player_grid(p, 1, &g, &ent), 0);
	cr_expect_eq(ent, 0);
	cr_expect_str_eq(g.kind, "pheromone");
	cr_assert(g.nx > 0 && g.ny > 0 && g.v);
	int c0 = (int)((it.pos[0] - g.x0) / ((g.x1 - g.x0) / g.nx)),
	    r0 = (int)((it.pos[1] - g.y0) / ((g.y1 - g.y0) / g.ny));
	cr_expect_geq(g.v[r0 * g.nx + c0], 40);
	live = g.v;

	cr_assert_eq(role_player_advance(p, truth.end_ns, fix_emit, &q), 0);
	cr_assert_eq(role_player_next(p), INT64_MAX);
	cr_assert_eq(role_player_grid(p, 1, &g, &ent), 0, "kept copy");
	cr_expect_neq(g.v, live, "the copy, not the freed sender's");
	cr_expect_eq(ent, 0);
	cr_expect_geq(g.v[r0 * g.nx + c0], 40);
	cr_expect_leq(g.v[r0 * g.nx + c0], 100);
	cr_expect_eq(role_player_grid(p, 0, &g, &ent), -ENOTSUP);
	fix_queue_free(&q);
	role_player_free(p);
}

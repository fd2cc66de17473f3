/*
 * test_peers.c: the multi-entity context (agents/predict/peers.c and
 * replay_together.c): the book keeps each entity's newest update as
 * received and refuses older ones, ctx.peers holds every entity but the
 * caller's, item pickups are inferred from received positions and items
 * come back after their respawn time, and the together replay of a
 * predictor that reads no context gives bit for bit the errors of the
 * path-by-path replay.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "predict/peers.h"
#include "predict/replay.h"

#define TICK 15625000LL /* 64 Hz */

static struct predict_update upd(uint32_t e, int64_t t, double x, double y)
{
	struct predict_update u;

	memset(&u, 0, sizeof(u));
	u.entity = e;
	u.team = (uint8_t)(e % 2);
	u.t_ns = t;
	u.pos[0] = x;
	u.pos[1] = y;
	u.vel[0] = 1;
	return u;
}

Test(peers, newest_per_entity_and_self_excluded)
{
	struct predict_peerbook b;
	struct predict_ctx ctx;
	struct predict_update u;

	cr_assert_eq(predict_peerbook_init(&b, NULL, NULL, 0, 0), 0);
	u = upd(7, 100, 1, 1);
	cr_assert_eq(predict_peerbook_apply(&b, &u), 0);
	u = upd(3, 100, 2, 2);
	cr_assert_eq(predict_peerbook_apply(&b, &u), 0);
	u = upd(5, 100, 3, 3);
	cr_assert_eq(predict_peerbook_apply(&b, &u), 0);
	u = upd(7, 90, 9, 9); /* older: stale, entry unchanged */
	cr_expect_eq(predict_peerbook_apply(&b, &u), -ESTALE);
	u = upd(7, 100, 9, 9); /* same time: stale too */
	cr_expect_eq(predict_peerbook_apply(&b, &u), -ESTALE);
	u = upd(3, 200, 4, 4);
	cr_assert_eq(predict_peerbook_apply(&b, &u), 0);
	predict_ctx_init(&ctx);
	predict_peerbook_ctx(&b, 5, &ctx);
	cr_assert_eq(ctx.n_peers, 2);
	cr_expect_eq(ctx.peers[0].entity, 3);
	cr_expect_eq(ctx.peers[0].t_ns, 200);
	cr_expect_eq(ctx.peers[0].pos[0], 4);
	cr_expect_eq(ctx.peers[1].entity, 7);
	cr_expect_eq(ctx.peers[1].pos[0], 1);
	cr_expect_eq(ctx.peers[1].team, 1);
	predict_peerbook_ctx(&b, 99, &ctx);
	cr_expect_eq(ctx.n_peers, 3);
	cr_expect_eq(ctx.n_items, 0);
	predict_peerbook_free(&b);
}

Test(peers, item_pickup_inferred_and_respawned)
{
	struct predict_item it[2];
	double respawn[2] = {10, 30};
	struct predict_peerbook b;
	struct predict_ctx ctx;
	struct predict_update u;
	int64_t s = 1000000000LL;

	memset(it, 0, sizeof(it));
	it[0].pos[0] = 100;
	it[1].pos[0] = 500;
	cr_assert_eq(predict_peerbook_init(&b, it, respawn, 2, 40), 0);
	u = upd(1, 2 * s, 100, 41); /* just outside the radius */
	predict_peerbook_apply(&b, &u);
	predict_ctx_init(&ctx);
	predict_peerbook_ctx(&b, 0, &ctx);
	cr_assert_eq(ctx.n_items, 2);
	cr_expect_eq(ctx.items[0].present, 1);
	u = upd(1, 3 * s, 100, 40); /* on the edge: taken at t = 3 s */
	predict_peerbook_apply(&b, &u);
	cr_expect_eq(ctx.items[0].present, 0);
	cr_expect_eq(ctx.items[1].present, 1);
	predict_peerbook_items_at(&b, 13 * s - 1);
	cr_expect_eq(ctx.items[0].present, 0);
	predict_peerbook_items_at(&b, 13 * s);
	cr_expect_eq(ctx.items[0].present, 1);
	predict_peerbook_free(&b);
}

/* Three entities walking lines with turns, one dying half way. */
static void append(struct trace *t, const struct trace_sample *s)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 256;
		t->s = realloc(t->s, t->cap * sizeof(*t->s));
		cr_assert(t->s);
	}
	t->s[t->n++] = *s;
}

static void make_trace(struct trace *t)
{
	memset(t, 0, sizeof(*t));
	t->tick_ns = TICK;
	for (int k = 0; k < 1200; k++)
		for (uint32_t e = 0; e < 3; e++) {
			struct trace_sample s;
			double w = 0.01 * (e + 1);

			memset(&s, 0, sizeof(s));
			s.t_ns = k * TICK;
			s.entity = e;
			s.alive = !(e == 2 && k >= 600 && k < 620);
			s.x = 100 * e + 200 * sin(w * k);
			s.y = 50 * e + 200 * cos(w * k);
			s.vx = 200 * w * 64 * cos(w * k);
			s.vy = -200 * w * 64 * sin(w * k);
			append(t, &s);
		}
}

Test(peers, together_equals_path_by_path_without_context)
{
	struct trace t;
	struct replay_opts o;
	struct replay_set set;
	struct replay_world w;
	struct predict_params par;
	struct replay_result ra[8], rb[8];
	double *ea, *eb;
	size_t total = 0;

	make_trace(&t);
	replay_opts_init(&o);
	cr_assert_eq(replay_set_build(&t, &o, &set), 0);
	cr_assert_eq(set.n_paths, 4);
	for (size_t i = 0; i < set.n_paths; i++)
		total += set.path[i].n;
	ea = calloc(total, sizeof(double));
	eb = calloc(total, sizeof(double));
	cr_assert(ea && eb);
	predict_params_init(&par, &predict_dis);
	cr_assert_eq(replay_run_set(&set, &o, &par, ra, ea), 0);
	memset(&w, 0, sizeof(w));
	cr_assert_eq(replay_run_together(&set, &w, &par, rb, eb), 0);
	cr_expect_eq(memcmp(ea, eb, total * sizeof(double)), 0);
	for (size_t i = 0; i < set.n_paths; i++) {
		cr_expect_eq(ra[i].updates, rb[i].updates);
		cr_expect_eq(ra[i].err_mean, rb[i].err_mean);
		cr_expect_eq(rb[i].blind, 0);
	}
	free(ea);
	free(eb);
	replay_set_free(&set);
	free(t.s);
}

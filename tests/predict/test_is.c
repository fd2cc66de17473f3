/*
 * test_is.c: the Interest Scheme reconstruction (pred_is.c, extraction
 * §2.2 of paper 003): first-order dead reckoning up to t_is, then the
 * player heads along the summed interest force at its last known speed:
 * toward an enemy it is not weaker than, away from a stronger one, toward
 * present items; nothing in range keeps the heading.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "predict/ekb.h"
#include "predict/predict.h"

static struct predict_receiver *receiver(void)
{
	struct predict_params par;
	struct predict_receiver *r;

	cr_assert_eq(predict_params_init(&par, predict_find("is")), 0);
	cr_assert_eq(predict_receiver_new(&par, &r), 0);
	return r;
}

static struct predict_update update(int health)
{
	struct predict_update u;

	memset(&u, 0, sizeof(u));
	u.entity = 1;
	u.team = 1;
	u.drm = PREDICT_DRM_FPW;
	u.vel[0] = 200; /* east at 200 u/s from the origin */
	ekb_blob_put(&u, health, 120);
	return u;
}

static void one_enemy(struct predict_peer *q, struct predict_ctx *ctx,
		      int health)
{
	memset(q, 0, sizeof(*q));
	q->entity = 2;
	q->team = 2;
	q->alive = 1;
	q->pos[0] = 60; /* reached after 0.3 s: then due north */
	q->pos[1] = 300;
	q->health = (int16_t)health;
	predict_ctx_init(ctx);
	ctx->peers = q;
	ctx->n_peers = 1;
}

Test(is, tdm_until_t_is)
{
	struct predict_receiver *r = receiver();
	struct predict_update u = update(100);
	struct predict_display d;
	struct predict_peer q;
	struct predict_ctx ctx;

	one_enemy(&q, &ctx, 50);
	cr_assert_eq(predict_receiver_update(r, &ctx, &u, 0), 0);
	cr_assert_eq(predict_receiver_display(r, &ctx, 290000000, &d), 0);
	cr_assert_float_eq(d.pos[0], 200 * 0.29, 1e-9);
	cr_assert_float_eq(d.pos[1], 0, 1e-9);
	predict_receiver_free(r);
}

/*
 * At t_is = 0.3 s the player is at (60, 0) (18 steps of 1/60 s at
 * 200 u/s); the enemy at (60, 300) is straight north (+y), 300 u away,
 * inside R = 734. Not weaker (100 >= 50): the first IS step heads +y at
 * 200 u/s; weaker (30 < 50): -y.
 */
Test(is, attracted_by_weaker_repelled_by_stronger_enemy)
{
	for (int k = 0; k < 2; k++) {
		struct predict_receiver *r = receiver();
		struct predict_update u = update(k ? 30 : 100);
		struct predict_display d;
		struct predict_peer q;
		struct predict_ctx ctx;
		double sign = k ? -1 : 1;

		one_enemy(&q, &ctx, 50);
		cr_assert_eq(predict_receiver_update(r, &ctx, &u, 0), 0);
		/* 0.31 s: 18 full steps, then 0.31 - 0.3 s along step 19 */
		cr_assert_eq(predict_receiver_display(r, &ctx, 310000000, &d),
			     0);
		cr_assert_float_eq(d.vel[0], 0, 1e-9);
		cr_assert_float_eq(d.vel[1], sign * 200, 1e-9);
		cr_assert_float_eq(d.pos[0], 60, 1e-6);
		cr_assert_float_eq(d.pos[1], sign * 200 * (0.31 - 0.3), 1e-6);
		predict_receiver_free(r);
	}
}

Test(is, no_interest_keeps_heading_and_items_attract)
{
	struct predict_receiver *r = receiver();
	struct predict_update u = update(100);
	struct predict_display d;
	struct predict_item it;
	struct predict_ctx ctx;

	predict_ctx_init(&ctx);
	cr_assert_eq(predict_receiver_update(r, &ctx, &u, 0), 0);
	cr_assert_eq(predict_receiver_display(r, &ctx, 1000000000, &d), 0);
	cr_assert_float_eq(d.pos[0], 200, 1e-6);
	cr_assert_float_eq(d.pos[1], 0, 1e-9);
	predict_receiver_free(r);
	/* a present item due south of the IS start point pulls -y */
	r = receiver();
	memset(&it, 0, sizeof(it));
	it.present = 1;
	it.pos[0] = 60;
	it.pos[1] = -100;
	ctx.items = &it;
	ctx.n_items = 1;
	cr_assert_eq(predict_receiver_update(r, &ctx, &u, 0), 0);
	cr_assert_eq(predict_receiver_display(r, &ctx, 310000000, &d), 0);
	cr_assert_float_eq(d.vel[1], -200, 1e-9);
	/* 0.35 s commits 21 steps, the last ones heading -y */
	cr_assert_eq(predict_receiver_display(r, &ctx, 350000000, &d), 0);
	it.present = 0; /* picked up: no pull, the last heading is kept */
	cr_assert_eq(predict_receiver_display(r, &ctx, 400000000, &d), 0);
	cr_assert_float_eq(d.vel[1], -200, 1e-9);
	predict_receiver_free(r);
}

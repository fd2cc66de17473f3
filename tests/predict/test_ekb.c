/*
 * test_ekb.c: known answers and properties of the EKB family (paper 003,
 * agents/predict/ekb_model.c, ekb_track.c, pred_ekb.c): follow, align and
 * bravery on a hand-computed 3-teammate, 2-enemy layout; the battle test
 * on both sides of T_battle; the weights of the smooth transition over E
 * updates; OAEKB steering along the A* path around a wall with one search
 * per prediction; the hybrid's switch on a straight-then-turn history;
 * the deathmatch fallback to TDM.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "predict/ekb.h"
#include "predict/predict.h"
#include "world/map.h"
#include "world/nav.h"

#define TOL 1e-9

/* The defaults of the ekb table as a cfg (the predictor's own loader is
 * private: build the same through a receiver). */
static struct ekb_cfg defaults(void)
{
	struct ekb_cfg c = {
		.model = EKB_MODEL_EKB,
		.speed = 250,
		.roi_w = 1280,
		.roi_h = 720,
		.t_battle = 400,
		.alpha = 0.6,
		.beta = 0.7,
		.k = 0.5,
		.d_run = 300,
		.d_min = 64,
		.d_max = 360,
		.h_max = 100,
		.a_max = 120,
		.c = 0.1,
		.e_max = 60,
		.step = 1.0 / 60,
		.t_hyb = 0.15,
		.theta = M_PI / 6,
		.radius = 16,
		.threshold = 32,
	};
	return c;
}

/*
 * The layout, target player P = (0, 0) with H = 100, A = 120, so
 * I_own = 100/100 + 120/120 = 2 (eq. 12):
 *   F1 (100,   0) v (0, 100)  H 100 A 120  I = 2     d = 100
 *   F2 (  0, 200) v (100, 0)  H  50 A   0  I = 0.5   d = 200
 *   F3 (300, 300) v (50, 50)  H 100 A  60  I = 1.5   d = 424.26
 *   E1 (500,   0)             H 100 A 120  I = 2     d = 500
 *   E2 (500, 100)             H  50 A  60  I = 1     d = 509.90
 * All lie in the ROI (|dx| <= 640, |dy| <= 360).
 * Follow (eq. 6-7): C_F = (400/3, 500/3) = (133.3333, 166.6667),
 *   |C_F| = sqrt(17777.78 + 27777.78) = 213.43747,
 *   V_F = 250 C_F / 213.43747 = (156.17376, 195.21720).
 * Align (eq. 9-10), d_min 64, d_max 360: F1 w = (360-100)/296 = 0.878378,
 *   F2 w = (360-200)/296 = 0.540541, F3 beyond d_max;
 *   A' = 0.878378 (0,100) + 0.540541 (100,0) = (54.05405, 87.83784),
 *   |A'| = 103.137 < S, so V_A = A'.
 * Bravery (eq. 12-15), k 0.5, D_max 300: I_F = 4, I_E = 3,
 *   r = (2 + 2 - 3) / (2 + 2 + 3) = 1/7; C_E = (500, 50);
 *   C_E - C_F = (366.6667, -116.6667), length 384.77988,
 *   unit = (0.952926, -0.303204);
 *   Q_B = C_F + (300/7) unit = (174.17301, 153.67222),
 *   V_B = 250 Q_B / |Q_B| (232.2748) = (187.46472, 165.39945).
 * Battle: the closest enemy is E1 at 500.
 *   T_battle 400: out, V_R = 0.7 V_F + 0.3 V_A = (125.53785, 163.00339);
 *   T_battle 600: in,  V_R = 0.6 V_F + 0.4 V_B = (168.69014, 183.29010).
 */
static void layout(const struct ekb_cfg *c, struct ekb_body *b)
{
	const double v[5][6] = {
		{100, 0, 0, 100, 100, 120},  {0, 200, 100, 0, 50, 0},
		{300, 300, 50, 50, 100, 60}, {500, 0, 0, 0, 100, 120},
		{500, 100, 0, 0, 50, 60},
	};

	for (int i = 0; i < 5; i++) {
		b[i] = (struct ekb_body){
			.p = {v[i][0], v[i][1]},
			.v = {v[i][2], v[i][3]},
			.strength = ekb_strength(c, v[i][4], v[i][5]),
			.health = v[i][4],
			.friend = i < 3,
		};
	}
}

#define VEQ(a, x, y, tol)                                                      \
	do {                                                                   \
		cr_assert_float_eq((a)[0], (x), (tol), "x %.6f vs %.6f",       \
				   (a)[0], (double)(x));                       \
		cr_assert_float_eq((a)[1], (y), (tol), "y %.6f vs %.6f",       \
				   (a)[1], (double)(y));                       \
	} while (0)

Test(ekb, follow_align_bravery_known_answers)
{
	struct ekb_cfg c = defaults();
	struct ekb_body b[5];
	struct ekb_eval e;
	const double p[2] = {0, 0};

	layout(&c, b);
	ekb_evaluate(&c, p, ekb_strength(&c, 100, 120), b, 5, &e);
	cr_assert_eq(e.n_friends, 3);
	cr_assert_eq(e.n_enemies, 2);
	VEQ(e.cf, 400.0 / 3, 500.0 / 3, 1e-9);
	VEQ(e.vf, 156.17376, 195.21720, 1e-4);
	VEQ(e.va, 54.05405, 87.83784, 1e-4);
	cr_assert_float_eq(e.r, 1.0 / 7, TOL);
	VEQ(e.qb, 174.17301, 153.67222, 1e-4);
	VEQ(e.vb, 187.46472, 165.39945, 1e-4);
	cr_assert_float_eq(e.closest_enemy, 500, TOL);
	cr_assert_eq(e.in_battle, 0);
	VEQ(e.vr, 125.53785, 163.00339, 1e-4);
	c.t_battle = 600;
	ekb_evaluate(&c, p, ekb_strength(&c, 100, 120), b, 5, &e);
	cr_assert_eq(e.in_battle, 1);
	VEQ(e.vr, 168.69014, 183.29010, 1e-4);
}

Test(ekb, battle_on_and_off_at_the_threshold)
{
	struct ekb_cfg c = defaults();
	struct ekb_body b[5];
	struct ekb_eval e;
	const double p[2] = {0, 0};

	layout(&c, b);
	/* eq. 4 is strict: closest enemy 500 */
	c.t_battle = 500;
	ekb_evaluate(&c, p, 2, b, 5, &e);
	cr_assert_eq(e.in_battle, 0);
	c.t_battle = nextafter(500, 1e9);
	ekb_evaluate(&c, p, 2, b, 5, &e);
	cr_assert_eq(e.in_battle, 1);
	/* an enemy outside the ROI does not count, however near T says */
	c.t_battle = 1e6;
	b[3].p[0] = b[4].p[0] = 700; /* |dx| > 640 */
	ekb_evaluate(&c, p, 2, b, 5, &e);
	cr_assert_eq(e.n_enemies, 0);
	cr_assert_eq(e.in_battle, 0);
	cr_assert(isinf(e.closest_enemy));
}

Test(ekb, weaker_side_retreats)
{
	struct ekb_cfg c = defaults();
	struct ekb_body b[5];
	struct ekb_eval e;
	const double p[2] = {0, 0};

	layout(&c, b);
	/* own I = 0, friends' sum 4 scaled by k = 0.5, enemies 3:
	 * r = (0 + 2 - 3) / (0 + 2 + 3) = -0.2, Q_B moves away from C_E */
	ekb_evaluate(&c, p, 0, b, 5, &e);
	cr_assert_float_eq(e.r, -0.2, TOL);
	VEQ(e.qb, 400.0 / 3 - 60 * 0.9529257800, 500.0 / 3 + 60 * 0.3032036573,
	    1e-6);
}

/*
 * Eq. 16-17: with the layout, d_near = min(closest friend 100, closest
 * enemy 500) = 100, E = 0.1 * 100 = 10 updates; the weight of V_R is
 * n/10 for n < 10 and 1 from n = 10. No one in the ROI: E = E_max = 60;
 * c d_near below 1: E = 1.
 */
Test(ekb, transition_weights_over_e_updates)
{
	struct ekb_cfg c = defaults();

	cr_assert_float_eq(ekb_transition_len(&c, 100), 10, TOL);
	cr_assert_float_eq(ekb_transition_len(&c, INFINITY), 60, TOL);
	cr_assert_float_eq(ekb_transition_len(&c, 5000), 60, TOL);
	cr_assert_float_eq(ekb_transition_len(&c, 3), 1, TOL);
	for (int n = 1; n <= 12; n++)
		cr_assert_float_eq(ekb_transition_weight(n, 10),
				   n < 10 ? n / 10.0 : 1.0, TOL);
}

/* ---- through the predictor interface ---- */

static struct predict_receiver *receiver(const char *name, const char **kv,
					 int n)
{
	struct predict_params par;
	struct predict_receiver *r;

	cr_assert_eq(predict_params_init(&par, predict_find(name)), 0);
	for (int i = 0; i < n; i++)
		cr_assert_eq(predict_params_set_kv(&par, kv[i]), 0, "%s",
			     kv[i]);
	cr_assert_eq(predict_receiver_new(&par, &r), 0);
	return r;
}

static struct predict_update update(int64_t t, double x, double y, double vx,
				    double vy, uint8_t team)
{
	struct predict_update u;

	memset(&u, 0, sizeof(u));
	u.t_ns = t;
	u.entity = 7;
	u.team = team;
	u.drm = PREDICT_DRM_FPW;
	u.pos[0] = x;
	u.pos[1] = y;
	u.vel[0] = vx;
	u.vel[1] = vy;
	ekb_blob_put(&u, 100, 120);
	return u;
}

static void peers_of_layout(struct predict_peer *q)
{
	const double v[5][6] = {
		{100, 0, 0, 100, 100, 120},  {0, 200, 100, 0, 50, 0},
		{300, 300, 50, 50, 100, 60}, {500, 0, 0, 0, 100, 120},
		{500, 100, 0, 0, 50, 60},
	};

	memset(q, 0, 5 * sizeof(*q));
	for (int i = 0; i < 5; i++) {
		q[i].entity = (uint32_t)(10 + i);
		q[i].team = i < 3 ? 1 : 2;
		q[i].alive = 1;
		q[i].pos[0] = v[i][0];
		q[i].pos[1] = v[i][1];
		q[i].vel[0] = v[i][2];
		q[i].vel[1] = v[i][3];
		q[i].health = (int16_t)v[i][4];
		q[i].ammo = (int16_t)v[i][5];
	}
}

/*
 * The first prediction step from LKPT at P = 0 with V_LK = (250, 0): E =
 * 10 (above), so V_1 = 0.9 V_LK + 0.1 V_R = (225 + 12.553785, 16.300339)
 * and after one step of 1/60 s P_1 = V_1 / 60; a display half a step
 * later moves on along V_2 = 0.8 V_LK + 0.2 V_R(P_1).
 */
Test(ekb, first_step_blends_last_known_velocity)
{
	struct predict_receiver *r = receiver("ekb", NULL, 0);
	struct predict_peer q[5];
	struct predict_ctx ctx;
	struct predict_update u = update(0, 0, 0, 250, 0, 1);
	struct predict_display d;
	const int64_t step = 16666667; /* 1/60 s, rounded up */

	peers_of_layout(q);
	predict_ctx_init(&ctx);
	ctx.peers = q;
	ctx.n_peers = 5;
	cr_assert_eq(predict_receiver_update(r, &ctx, &u, 0), 0);
	cr_assert_eq(predict_receiver_display(r, &ctx, step, &d), 0);
	/* k = 1 full step (1e-9 floor slack), frac = 3.3e-10 s */
	cr_assert_float_eq(d.pos[0], (225 + 12.553785) / 60, 1e-4);
	cr_assert_float_eq(d.pos[1], 16.300339 / 60, 1e-4);
	predict_receiver_free(r);
}

Test(ekb, deathmatch_falls_back_to_tdm)
{
	struct predict_receiver *r = receiver("ekb", NULL, 0);
	struct predict_peer q[5];
	struct predict_ctx ctx;
	struct predict_update u = update(0, 10, 20, 250, -30, 0);
	struct predict_display d;

	peers_of_layout(q);
	for (int i = 0; i < 5; i++)
		q[i].team = 0;
	predict_ctx_init(&ctx);
	ctx.peers = q;
	ctx.n_peers = 5;
	cr_assert_eq(predict_receiver_update(r, &ctx, &u, 0), 0);
	cr_assert_eq(predict_receiver_display(r, &ctx, 1500000000, &d), 0);
	cr_assert_float_eq(d.pos[0], 10 + 250 * 1.5, 1e-9);
	cr_assert_float_eq(d.pos[1], 20 - 30 * 1.5, 1e-9);
	predict_receiver_free(r);
}

/* ---- OAEKB ---- */

static void map_from(struct map *m, const char *grid)
{
	char txt[2048], err[200] = "";

	snprintf(txt, sizeof(txt),
		 "reckon-map 1\nname t\ncell 32\nspawn 0 0 0\ngrid\n%s\nend\n",
		 grid);
	cr_assert_eq(map_parse(txt, strlen(txt), m, err, sizeof(err)), 0, "%s",
		     err);
}

/* A wall (column 4, rows 2-7) between P at cell (2, 5) and the three
 * teammates around cell (7, 5): plain EKB heads straight at the wall,
 * OAEKB at the first corner of agents/world's A* path around it. */
static const char *wall_grid = "..........\n"
			       "..........\n"
			       "....#.....\n"
			       "....#.....\n"
			       "....#.....\n"
			       "....#.....\n"
			       "....#.....\n"
			       "....#.....\n"
			       "..........\n"
			       "..........";

static void wall_ctx(struct predict_ctx *ctx, struct predict_peer *q,
		     const struct map *m)
{
	memset(q, 0, 3 * sizeof(*q));
	for (int i = 0; i < 3; i++) {
		q[i].entity = (uint32_t)(10 + i);
		q[i].team = 1;
		q[i].alive = 1;
		q[i].pos[0] = 240;
		q[i].pos[1] = 150 + 10 * i; /* C_F = (240, 160) */
		q[i].health = 100;
	}
	predict_ctx_init(ctx);
	ctx->peers = q;
	ctx->n_peers = 3;
	ctx->map.world = m;
}

Test(ekb, oaekb_follows_the_astar_path_around_a_wall)
{
	/* beta = 1: pure follow; c = 0: E = 1, so V_1 = V_R */
	const char *kv_plain[] = {"beta=1", "c=0"};
	const char *kv_avoid[] = {"beta=1", "c=0", "avoid=1"};
	struct predict_receiver *plain = receiver("ekb", kv_plain, 2);
	struct predict_receiver *avoid = receiver("ekb", kv_avoid, 3);
	struct predict_update u = update(0, 80, 176, 0, 0, 1);
	struct predict_display dp, da;
	struct predict_peer q[3];
	struct predict_ctx ctx;
	struct nav_pt pts[32];
	struct nav nv;
	struct map m;
	int n = 0;

	map_from(&m, wall_grid);
	wall_ctx(&ctx, q, &m);
	cr_assert_eq(predict_receiver_update(plain, &ctx, &u, 0), 0);
	cr_assert_eq(predict_receiver_update(avoid, &ctx, &u, 0), 0);
	cr_assert_eq(predict_receiver_display(plain, &ctx, 8000000, &dp), 0);
	cr_assert_eq(predict_receiver_display(avoid, &ctx, 8000000, &da), 0);
	/* plain: straight at C_F = (240, 160) */
	cr_assert_float_eq(atan2(dp.vel[1], dp.vel[0]), atan2(-16, 160), 1e-9);
	/* avoid: toward the first corner of the radius-16 path */
	cr_assert_eq(nav_init(&nv, &m), 0);
	cr_assert_eq(nav_path(&nv, 80, 176, 240, 160, 16, pts, 32, &n), 0);
	nav_free(&nv);
	cr_assert_geq(n, 2, "the wall forces a corner");
	cr_assert_float_eq(atan2(da.vel[1], da.vel[0]),
			   atan2(pts[0].y - 176, pts[0].x - 80), 1e-9);
	cr_assert_float_eq(hypot(da.vel[0], da.vel[1]), 250, 1e-9);
	/* the corner is off the straight line: above row 2 or below row 7 */
	cr_assert(pts[0].y < 64 || pts[0].y > 256, "corner y %.1f", pts[0].y);
	/* 2 s on: the predicted player went round the wall (it is right of
	 * column 4) and stayed out of it; plain EKB is stuck behind it only
	 * in the sense that it crossed the wall cells */
	cr_assert_eq(predict_receiver_display(avoid, &ctx, 2000000000, &da), 0);
	cr_assert_gt(da.pos[0], 160, "x %.1f", da.pos[0]);
	cr_assert_eq(map_point_blocked(&m, da.pos[0], da.pos[1]), 0);
	predict_receiver_free(plain);
	predict_receiver_free(avoid);
	map_free(&m);
}

Test(ekb, oaekb_searches_once_per_prediction_when_goals_stay)
{
	struct ekb_cfg c = defaults();
	struct ekb_track *t = calloc(1, sizeof(*t));
	struct predict_update u = update(0, 80, 176, 0, 0, 1);
	struct predict_peer q[3];
	struct predict_ctx ctx;
	double pos[3], vel[3];
	struct map m;

	map_from(&m, wall_grid);
	wall_ctx(&ctx, q, &m);
	c.avoid = 1;
	ekb_track_init(t, &c);
	ekb_track_update(t, &u);
	for (int64_t ms = 10; ms <= 2000; ms += 10)
		cr_assert_eq(ekb_track_predict(t, &ctx, ms * 1000000, pos, vel),
			     0);
	cr_assert_eq(t->astar_runs, 1, "%llu searches",
		     (unsigned long long)t->astar_runs);
	free(t);
	map_free(&m);
}

/* ---- hybrid (Algorithms 3-4) ---- */

/*
 * History at 60 Hz: heading north (0, 250) until 0.2 s before LKPT = 1 s,
 * then east (250, 0). T_hyb 0.15 s, theta 30 deg.
 *   t_lag 0.10 s <= T_hyb              -> EKB
 *   t_lag 0.18 s: window [0.82, 1.0) all east   -> TDM
 *   t_lag 0.30 s: window [0.70, 1.0) has north  -> EKB (90 deg turn)
 * Without the turn every lag above T_hyb is TDM.
 */
Test(ekb, hybrid_switches_on_straight_then_turn)
{
	struct ekb_cfg c = defaults();
	struct ekb_track *t = calloc(1, sizeof(*t));
	struct ekb_track *s = calloc(1, sizeof(*s));
	const int64_t ms = 1000000;

	c.hybrid = 1;
	ekb_track_init(t, &c);
	ekb_track_init(s, &c);
	for (int i = 0; i <= 60; i++) {
		int64_t ti = (int64_t)i * 1000 * ms / 60;
		int east = ti >= 800 * ms;
		struct predict_update u =
			update(ti, 0, 0, east ? 250 : 0, east ? 0 : 250, 1);
		struct predict_update v = update(ti, 0, 0, 250, 0, 1);

		ekb_track_update(t, &u);
		ekb_track_update(s, &v);
	}
	cr_assert_eq(t->u.t_ns, 1000 * ms);
	cr_assert_eq(ekb_track_hybrid_tdm(t, 1100 * ms), 0);
	cr_assert_eq(ekb_track_hybrid_tdm(t, 1180 * ms), 1);
	cr_assert_eq(ekb_track_hybrid_tdm(t, 1300 * ms), 0);
	cr_assert_eq(ekb_track_hybrid_tdm(s, 1100 * ms), 0);
	cr_assert_eq(ekb_track_hybrid_tdm(s, 1300 * ms), 1);
	cr_assert_eq(ekb_track_hybrid_tdm(s, 3000 * ms), 1);
	free(t);
	free(s);
}

Test(ekb, hybrid_display_is_tdm_or_ekb)
{
	const char *kv_h[] = {"hybrid=1"};
	struct predict_receiver *h = receiver("ekb", kv_h, 1);
	struct predict_receiver *e = receiver("ekb", NULL, 0);
	struct predict_peer q[5];
	struct predict_ctx ctx;
	struct predict_display dh, de;
	const int64_t ms = 1000000;

	peers_of_layout(q);
	predict_ctx_init(&ctx);
	ctx.peers = q;
	ctx.n_peers = 5;
	for (int i = 0; i <= 60; i++) {
		int64_t ti = (int64_t)i * 1000 * ms / 60;
		int east = ti >= 800 * ms;
		struct predict_update u =
			update(ti, 0, 0, east ? 250 : 0, east ? 0 : 250, 1);

		cr_assert_eq(predict_receiver_update(h, &ctx, &u, ti), 0);
		cr_assert_eq(predict_receiver_update(e, &ctx, &u, ti), 0);
	}
	/* TDM at 0.18 s: exactly P0 + V0 t */
	cr_assert_eq(predict_receiver_display(h, &ctx, 1180 * ms, &dh), 0);
	cr_assert_float_eq(dh.pos[0], 250 * 0.18, 1e-9);
	cr_assert_float_eq(dh.pos[1], 0, 1e-9);
	/* EKB at 0.30 s: the same as the plain predictor */
	cr_assert_eq(predict_receiver_display(h, &ctx, 1300 * ms, &dh), 0);
	cr_assert_eq(predict_receiver_display(e, &ctx, 1300 * ms, &de), 0);
	cr_assert_float_eq(dh.pos[0], de.pos[0], 1e-12);
	cr_assert_float_eq(dh.pos[1], de.pos[1], 1e-12);
	cr_assert(fabs(de.pos[1]) > 1, "EKB bends off the straight line");
	predict_receiver_free(h);
	predict_receiver_free(e);
}

Test(ekb, direction_change_zero_speed_rules)
{
	const double z[2] = {0, 0}, a[2] = {100, 0}, b[2] = {100, 50},
		     c[2] = {100, 60};

	cr_assert_eq(ekb_direction_changed(z, z, 0.5), 0);
	cr_assert_eq(ekb_direction_changed(z, a, 0.5), 1);
	cr_assert_eq(ekb_direction_changed(a, z, 0.5), 1);
	/* atan(0.5) = 26.57 deg, atan(0.6) = 30.96 deg against 30 deg */
	cr_assert_eq(ekb_direction_changed(a, b, M_PI / 6), 0);
	cr_assert_eq(ekb_direction_changed(a, c, M_PI / 6), 1);
}

/*
 * Peers as the peer book gives them (health and ammo 0: not on the wire)
 * count at full strength, I = 2 each: I_F = 6, I_E = 4, I_own = 2 (from
 * the update's blob), r = (2 + 3 - 4) / (2 + 3 + 4) = 1/9;
 * Q_B = C_F + (300/9) unit(C_E - C_F) = (165.09753, 156.55988),
 * |Q_B| = 227.52624, V_B = (181.40493, 172.02398). With T_battle 600 (in
 * battle), alpha = 0 (bravery only) and c = 0 (E = 1) the first step's
 * velocity is V_B.
 */
Test(ekb, unknown_peer_strength_counts_as_full)
{
	const char *kv[] = {"t_battle=600", "alpha=0", "c=0"};
	struct predict_receiver *r = receiver("ekb", kv, 3);
	struct predict_peer q[5];
	struct predict_ctx ctx;
	struct predict_update u = update(0, 0, 0, 250, 0, 1);
	struct predict_display d;

	peers_of_layout(q);
	for (int i = 0; i < 5; i++)
		q[i].health = q[i].ammo = 0;
	predict_ctx_init(&ctx);
	ctx.peers = q;
	ctx.n_peers = 5;
	cr_assert_eq(predict_receiver_update(r, &ctx, &u, 0), 0);
	cr_assert_eq(predict_receiver_display(r, &ctx, 8000000, &d), 0);
	cr_assert_float_eq(d.vel[0], 181.40493, 1e-4);
	cr_assert_float_eq(d.vel[1], 172.02398, 1e-4);
	predict_receiver_free(r);
}

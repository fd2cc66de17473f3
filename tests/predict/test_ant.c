/*
 * test_ant.c: known answers of AntReckoning's pure pieces (paper 001):
 * one frame of the pheromone update of eq. 6 on a 3x3 grid and on the
 * paper's Fig. 6 example, the cap and the drop threshold, walls blocking
 * the dissemination, the force of eq. 7 from one source, the EWMA of
 * eq. 3, the motion equation of eq. 5 and its post-processing, and the
 * parameter tables (game operating points, dr2 = ant with alpha = 0).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "predict/ant.h"
#include "predict/predict.h"

static void grid3(struct ant_grid *g)
{
	double lo[2] = {0, 0}, hi[2] = {30, 30};

	cr_assert_eq(ant_grid_init(g, lo, hi, 10, NULL, 0), 0);
	cr_assert_eq(g->nx, 3);
	cr_assert_eq(g->ny, 3);
}

/*
 * 3x3 grid of 10 u cells, eps = 0.5, gamma = 0.5, so a cell keeps
 * eps (1 - gamma) = 0.25 of its pheromone and sends eps gamma = 0.25 of
 * it split over its valid neighbours (corner 2, edge 3, centre 4).
 * Before: centre (1,1) = 32, west (0,1) = 12, east (2,1) = 24.
 *   centre: keeps 0.25*32 = 8; gets 0.25*12/3 = 1 (W) + 0.25*24/3 = 2
 *           (E): 11; then generation +5: 16
 *   west:   keeps 0.25*12 = 3; gets 0.25*32/4 = 2 from the centre: 5
 *   east:   keeps 0.25*24 = 6; gets 2 from the centre: 8
 *   (1,0), (1,2): 2 each from the centre
 *   (0,0), (0,2): 1 each from the west; (2,0), (2,2): 2 each from the east
 * Mass before 68, after evaporation 34 = 11+5+8+2+2+1+1+2+2 (conserved
 * by the dissemination), plus 5 generated.
 */
Test(ant_grid, one_frame_3x3_by_hand)
{
	struct ant_grid g;
	const double want[3][3] = {/* [j][i] */
				   {1, 2, 2},
				   {5, 16, 8},
				   {1, 2, 2}};

	grid3(&g);
	ant_grid_deposit(&g, 15, 15, 32);
	ant_grid_deposit(&g, 5, 15, 12);
	ant_grid_deposit(&g, 25, 15, 24);
	ant_grid_spread(&g, 0.5, 0.5);
	ant_grid_deposit(&g, 15, 15, 5);
	ant_grid_settle(&g, 0, 0);
	for (int j = 0; j < 3; j++)
		for (int i = 0; i < 3; i++)
			cr_expect(fabs(ant_grid_get(&g, i, j) - want[j][i]) <
					  1e-12,
				  "(%d,%d) %g want %g", i, j,
				  ant_grid_get(&g, i, j), want[j][i]);
	/* cap at 10 and drop |ph| < 1.5: the centre 16 -> 10, the two
	 * western corners (1) -> 0 */
	ant_grid_settle(&g, 10, 1.5);
	cr_expect_eq(ant_grid_get(&g, 1, 1), 10);
	cr_expect_eq(ant_grid_get(&g, 0, 0), 0);
	cr_expect_eq(ant_grid_get(&g, 0, 2), 0);
	cr_expect_eq(ant_grid_get(&g, 2, 2), 2);
	cr_expect_eq(g.n_act, 7);
	ant_grid_free(&g);
}

/* Fig. 6: centre 32, neighbours 16, 64, 32, 64 each with 4 neighbours of
 * their own (inside a 5x5 grid), eps = gamma = 0.5, generation 5:
 * 16 - 8 + (1 + 4 + 2 + 4) + 5 = 24. */
Test(ant_grid, paper_fig6)
{
	struct ant_grid g;
	double lo[2] = {0, 0}, hi[2] = {50, 50};

	cr_assert_eq(ant_grid_init(&g, lo, hi, 10, NULL, 0), 0);
	ant_grid_deposit(&g, 25, 25, 32);
	ant_grid_deposit(&g, 15, 25, 16);
	ant_grid_deposit(&g, 35, 25, 64);
	ant_grid_deposit(&g, 25, 15, 32);
	ant_grid_deposit(&g, 25, 35, 64);
	ant_grid_spread(&g, 0.5, 0.5);
	ant_grid_deposit(&g, 25, 25, 5);
	ant_grid_settle(&g, 100, 0);
	cr_expect(fabs(ant_grid_get(&g, 2, 2) - 24) < 1e-12, "%g",
		  ant_grid_get(&g, 2, 2));
	ant_grid_free(&g);
}

/* A wall along x = 20 (a fake line of sight): the east column gets
 * nothing, and a west cell divides among its 2 or 3 remaining links. */
static int los_wall(const void *w, const double a[3], const double b[3])
{
	(void)w;
	return (a[0] < 20) == (b[0] < 20);
}

Test(ant_grid, walls_block_dissemination)
{
	struct ant_grid g;
	double lo[2] = {0, 0}, hi[2] = {30, 30};
	struct predict_map_view m;

	memset(&m, 0, sizeof(m));
	m.los = los_wall;
	cr_assert_eq(ant_grid_init(&g, lo, hi, 10, &m, 1), 0);
	ant_grid_deposit(&g, 15, 15, 30);
	ant_grid_spread(&g, 1, 0.6);
	cr_expect_eq(g.deg[1 * 3 + 1], 3); /* centre lost its east link */
	ant_grid_settle(&g, 0, 0);
	/* keeps 0.4*30 = 12, sends 0.6*30/3 = 6 to W, N and S */
	cr_expect(fabs(ant_grid_get(&g, 1, 1) - 12) < 1e-12);
	cr_expect(fabs(ant_grid_get(&g, 0, 1) - 6) < 1e-12);
	cr_expect(fabs(ant_grid_get(&g, 1, 2) - 6) < 1e-12);
	cr_expect_eq(ant_grid_get(&g, 2, 1), 0);
	ant_grid_free(&g);
}

/* Eq. 7, one source: ph = 90 in the cell centred at (15, 15); from
 * (15, 45), d = 30, F = 90 / 30^2 = 0.1 toward -y. */
Test(ant_force, single_source)
{
	struct ant_grid g;
	double lo[2] = {0, 0}, hi[2] = {100, 100}, f[2];
	struct ant_force_opts o;

	cr_assert_eq(ant_grid_init(&g, lo, hi, 10, NULL, 0), 0);
	ant_grid_deposit(&g, 15, 15, 90);
	memset(&o, 0, sizeof(o));
	o.region = 100;
	o.k = 2;
	o.d_min = 5;
	ant_force(&g, (double[2]){15, 45}, &o, f);
	cr_expect(fabs(f[0]) < 1e-15);
	cr_expect(fabs(f[1] + 0.1) < 1e-12, "%g", f[1]);
	/* k = 1: 90 / 30 = 3 */
	o.k = 1;
	ant_force(&g, (double[2]){15, 45}, &o, f);
	cr_expect(fabs(f[1] + 3) < 1e-12, "%g", f[1]);
	/* outside R: |R| = 50 reaches 25 from x, the centre is 30 away */
	o.k = 2;
	o.region = 50;
	ant_force(&g, (double[2]){15, 45}, &o, f);
	cr_expect_eq(f[1], 0);
	/* closer than d_min = 5: 90 / 5^2 = 3.6 along the true direction */
	o.region = 100;
	ant_force(&g, (double[2]){15, 17}, &o, f);
	cr_expect(fabs(f[1] + 3.6) < 1e-12, "%g", f[1]);
	/* negative pheromone pushes away */
	ant_grid_deposit(&g, 15, 15, -180);
	ant_force(&g, (double[2]){45, 15}, &o, f);
	cr_expect(fabs(f[0] - 0.1) < 1e-12, "%g", f[0]);
	/* vision: looking away (+x) from the source hides it */
	o.vision = 1;
	o.half = M_PI / 4;
	o.heading[0] = 1;
	ant_force(&g, (double[2]){45, 15}, &o, f);
	cr_expect_eq(f[0], 0);
	ant_grid_free(&g);
}

/* Eq. 3 with alpha = 0.8 on x = 0, 1, 3 (dt = 1): v1 = 0.8, a1 = 0.64;
 * v2 = 0.8*2 + 0.2*0.8 = 1.76, a2 = 0.8*(1.76-0.8) + 0.2*0.64 = 0.896. */
Test(ant_model, ewma_eq3)
{
	struct ant_ewma e;

	memset(&e, 0, sizeof(e));
	ant_ewma_step(&e, (double[2]){0, 0}, 0, 0.8, 0.8);
	ant_ewma_step(&e, (double[2]){1, 0}, 1, 0.8, 0.8);
	cr_expect(fabs(e.v[0] - 0.8) < 1e-12);
	cr_expect(fabs(e.a[0] - 0.64) < 1e-12);
	ant_ewma_step(&e, (double[2]){3, 0}, 1, 0.8, 0.8);
	cr_expect(fabs(e.v[0] - 1.76) < 1e-12, "%g", e.v[0]);
	cr_expect(fabs(e.a[0] - 0.896) < 1e-12, "%g", e.a[0]);
}

/* Eq. 5 at tau = 2: 10 + 3*2 + (1 + 2) * 4 / 2 = 22; post caps the
 * force displacement at kappa |v| tau = 0.5 * 3 * 2 = 3 (it was 4),
 * then the whole displacement at v_max tau = 2 * 2.4 = 4.8. */
Test(ant_model, motion_eq5_and_post)
{
	struct ant_motion m = {.pos = {10, 0, 0},
			       .vel = {3, 0, 0},
			       .acc = {1, 0},
			       .force = {2, 0}};
	struct ant_post pp = {.on = 0};
	double x[3];

	ant_motion_eval(&m, &pp, 2, x, NULL);
	cr_expect(fabs(x[0] - 22) < 1e-12, "%g", x[0]);
	pp.on = 1;
	pp.kappa = 0.5;
	pp.v_max = 1e9;
	ant_motion_eval(&m, &pp, 2, x, NULL);
	cr_expect(fabs(x[0] - (10 + 6 + 2 + 3)) < 1e-12, "%g", x[0]);
	pp.v_max = 2.4;
	ant_motion_eval(&m, &pp, 2, x, NULL);
	cr_expect(fabs(x[0] - 14.8) < 1e-12, "%g", x[0]);
}

/* Post-processing stops the prediction before a wall at x = 20. */
Test(ant_model, truncation_at_wall)
{
	struct predict_map_view mv;
	struct ant_motion m = {.pos = {10, 0, 0}, .vel = {10, 0, 0}};
	struct ant_post pp = {.on = 1, .kappa = 1, .v_max = 1e9};
	double x[3];

	memset(&mv, 0, sizeof(mv));
	mv.los = los_wall;
	pp.map = &mv;
	ant_motion_eval(&m, &pp, 2, x, NULL); /* would be 30 */
	cr_expect(x[0] < 20 && x[0] > 19.9, "%g", x[0]);
}

Test(ant_params, tables_and_baseline)
{
	struct predict_params a, d;
	double v;

	cr_assert_eq(predict_find("ant"), &predict_ant);
	cr_assert_eq(predict_find("dr2"), &predict_dr2);
	cr_assert_eq(predict_params_init(&a, &predict_ant), 0);
	cr_assert_eq(predict_params_set(&a, "game", "wow"), 0);
	cr_expect_eq(predict_params_set(&a, "epsilon", "1.5"), -ERANGE);
	cr_expect_eq(predict_params_set(&a, "game", "doom"), -EINVAL);
	cr_assert_eq(predict_params_get(&a, "alpha", &v), 0);
	cr_expect_eq(v, 0.5);
	cr_assert_eq(predict_params_init(&d, &predict_dr2), 0);
	cr_expect_eq(predict_params_get(&d, "alpha", &v), -ENOENT);
	cr_assert_eq(predict_params_get(&d, "alpha_v", &v), 0);
	cr_expect_eq(v, 0.8);
}

/*
 * predict_sender_grid: an ant sender exposes its pheromone map with the
 * grid's own geometry. Bounds [0, 1000]^2 with 50 u cells give 20 x 20
 * cells. One armour item (kind 1: weight 1, quake) at (525, 525), cell
 * (10, 10), in reach of a still player at (500, 500); each of the 10
 * frames deposits rho = 40 there after the spread, and the cell never
 * falls below its last deposit, so it holds at least 40 and at most the
 * cap ph_max = 100 that ant_grid_settle applies every frame. A dis or a
 * dr2 sender keeps no grid: -ENOTSUP.
 */
Test(ant_sender_grid, pheromone_map_exposed)
{
	struct predict_item it = {
		.id = 1, .kind = 1, .present = 1, .pos = {525, 525, 0}};
	struct predict_params par;
	struct predict_sender *s;
	struct predict_grid g;
	struct predict_ctx ctx;
	struct predict_update u;

	predict_ctx_init(&ctx);
	ctx.map.hi[0] = ctx.map.hi[1] = 1000;
	ctx.map.hi[2] = 100;
	ctx.items = &it;
	ctx.n_items = 1;
	cr_assert_eq(predict_params_init(&par, &predict_ant), 0);
	cr_assert_eq(predict_sender_new(&par, &s), 0);
	cr_expect_eq(predict_sender_grid(s, &g), -EAGAIN);
	for (int k = 0; k < 10; k++) {
		struct predict_state x = {.t_ns = k * 50000000LL,
					  .entity = 7,
					  .health = 100,
					  .pos = {500, 500, 0}};

		cr_assert_geq(predict_sender_tick(s, &ctx, &x, &u), 0);
	}
	cr_assert_eq(predict_sender_grid(s, &g), 0);
	cr_assert_not_null(g.v);
	cr_expect_str_eq(g.kind, "pheromone");
	cr_expect_eq(g.nx, 20);
	cr_expect_eq(g.ny, 20);
	cr_expect_eq(g.x0, 0);
	cr_expect_eq(g.y0, 0);
	cr_expect_eq(g.x1, 1000);
	cr_expect_eq(g.y1, 1000);
	cr_expect_geq(g.v[10 * 20 + 10], 40);
	for (int c = 0; c < 400; c++)
		cr_expect_leq(fabs(g.v[c]), 100, "cell %d: %g", c, g.v[c]);
	predict_sender_free(s);

	cr_assert_eq(predict_params_init(&par, &predict_dis), 0);
	cr_assert_eq(predict_sender_new(&par, &s), 0);
	cr_expect_eq(predict_sender_grid(s, &g), -ENOTSUP);
	predict_sender_free(s);
	cr_assert_eq(predict_params_init(&par, &predict_dr2), 0);
	cr_assert_eq(predict_sender_new(&par, &s), 0);
	cr_expect_eq(predict_sender_grid(s, &g), -ENOTSUP);
	predict_sender_free(s);
}

/*
 * test_geom.c: line of sight, ray casts and circle collision against the
 * wall grid. LOS must be exactly symmetric and agree with a brute-force
 * sampler that tests points every h units along the segment. The sampler
 * can miss a wall only where the segment clips a cell's corner by a chord
 * shorter than h; a chord of a square shorter than h enters and leaves
 * through two adjacent edges within h of their shared corner, so every
 * disagreement must have a wall-cell corner within h of the segment.
 * That is the documented tolerance for grazing rays.
 */
#include <criterion/criterion.h>
#include <math.h>

#include "geom.h"
#include "testmap.h"

static int sampled_blocked(const struct map *m, double ax, double ay, double bx,
			   double by, double h)
{
	double len = hypot(bx - ax, by - ay);
	long n = (long)ceil(len / h);

	for (long i = 0; i < n; i++) {
		double t = (i + 0.5) / n;

		if (map_point_blocked(m, ax + t * (bx - ax),
				      ay + t * (by - ay)))
			return 1;
	}
	return 0;
}

static double seg_point_dist(double ax, double ay, double bx, double by,
			     double px, double py)
{
	double dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
	double t = l2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / l2 : 0;

	t = t < 0 ? 0 : (t > 1 ? 1 : t);
	return hypot(ax + t * dx - px, ay + t * dy - py);
}

static int near_wall_corner(const struct map *m, double ax, double ay,
			    double bx, double by, double h)
{
	for (int y = 0; y <= m->h; y++)
		for (int x = 0; x <= m->w; x++) {
			int walls = map_blocked(m, x - 1, y - 1) +
				    map_blocked(m, x, y - 1) +
				    map_blocked(m, x - 1, y) +
				    map_blocked(m, x, y);

			if (walls == 0)
				continue;
			if (seg_point_dist(ax, ay, bx, by, x * m->cell,
					   y * m->cell) <= h)
				return 1;
		}
	return 0;
}

static void random_free_point(const struct map *m, struct wrng *r, double *x,
			      double *y)
{
	do {
		*x = wrng_uniform(r) * m->w * m->cell;
		*y = wrng_uniform(r) * m->h * m->cell;
	} while (map_point_blocked(m, *x, *y));
}

Test(world_geom, los_symmetric_and_matches_sampler)
{
	const double h = 0.05; /* u; cells are 10 u */
	int disagree = 0, blocked = 0;

	for (uint64_t seed = 1; seed <= 6; seed++) {
		struct map m;
		struct wrng r;

		tm_random(&m, 16, 12, 0.25, seed, 10);
		wrng_seed(&r, seed, 7);
		for (int i = 0; i < 400; i++) {
			double ax, ay, bx, by;

			random_free_point(&m, &r, &ax, &ay);
			random_free_point(&m, &r, &bx, &by);
			int ab = geom_los(&m, ax, ay, bx, by);
			int ba = geom_los(&m, bx, by, ax, ay);
			int s = !sampled_blocked(&m, ax, ay, bx, by, h);

			cr_assert_eq(ab, ba, "asymmetric LOS");
			blocked += !ab;
			if (ab != s) {
				disagree++;
				/* only a missed corner clip is allowed */
				cr_assert(ab == 0 && s == 1,
					  "sampler sees a wall LOS missed");
				cr_assert(
					near_wall_corner(&m, ax, ay, bx, by, h),
					"disagreement away from a corner");
			}
		}
		map_free(&m);
	}
	/* the test exercises both outcomes (2400 segments) */
	cr_assert_gt(blocked, 0);
	cr_assert_lt(blocked, 2400);
	cr_log_info("%d blocked, %d grazing disagreements", blocked, disagree);
}

Test(world_geom, symmetric_on_grid_lines_and_vertices)
{
	struct map m;

	tm_from_grid(&m, 10, "...\n.#.\n...");
	/* along grid lines and through vertices, both directions */
	for (int i = 0; i <= 30; i += 5)
		for (int j = 0; j <= 30; j += 5)
			for (int k = 0; k <= 30; k += 5)
				for (int l = 0; l <= 30; l += 5)
					cr_assert_eq(geom_los(&m, i, j, k, l),
						     geom_los(&m, k, l, i, j));
	map_free(&m);
}

Test(world_geom, diagonal_squeeze_rule)
{
	struct map m;

	/* walls (1,0) and (0,1) touch at the vertex (10,10): a ray
	 * through that vertex squeezes between them and is blocked */
	tm_from_grid(&m, 10, ".#.\n#..\n...");
	cr_assert_eq(geom_los(&m, 5, 5, 15, 15), 0);
	cr_assert_eq(geom_los(&m, 15, 15, 5, 5), 0);
	map_free(&m);
	/* only one side wall: grazing its corner is allowed */
	tm_from_grid(&m, 10, ".#.\n...\n...");
	cr_assert_eq(geom_los(&m, 5, 5, 15, 15), 1);
	cr_assert_eq(geom_los(&m, 15, 15, 5, 5), 1);
	/* a ray into the wall cell is blocked, one beside it is not */
	cr_assert_eq(geom_los(&m, 5, 5, 15, 5), 0);
	cr_assert_eq(geom_los(&m, 5, 15, 25, 15), 1);
	/* an endpoint inside a wall is never visible */
	cr_assert_eq(geom_los(&m, 15, 5, 15, 25), 0);
	map_free(&m);
}

Test(world_geom, raycast_hits_the_first_wall)
{
	struct map m;
	struct wrng r;
	int hits = 0;

	tm_random(&m, 20, 20, 0.2, 11, 10);
	wrng_seed(&r, 3, 3);
	for (int i = 0; i < 500; i++) {
		double x, y, a = wrng_uniform(&r) * 2 * M_PI, d;

		random_free_point(&m, &r, &x, &y);
		d = geom_raycast(&m, x, y, cos(a), sin(a), 500);
		cr_assert(d >= 0 && d <= 500);
		if (d < 500) {
			hits++;
			/* just before: free and visible; just after: wall */
			cr_assert(!map_point_blocked(&m,
						     x + cos(a) * (d - 1e-6),
						     y + sin(a) * (d - 1e-6)) ||
				  d < 1e-6);
			cr_assert(map_point_blocked(&m, x + cos(a) * (d + 1e-6),
						    y + sin(a) * (d + 1e-6)));
		}
	}
	cr_assert_gt(hits, 400);
	map_free(&m);
}

Test(world_geom, slide_never_enters_walls)
{
	struct map m;
	struct wrng r;
	double x = 5 * 64 + 32, y = 5 * 64 + 32;

	tm_random(&m, 30, 30, 0.15, 5, 64);
	wrng_seed(&r, 8, 8);
	while (geom_circle_blocked(&m, x, y, 16)) {
		x = wrng_uniform(&r) * 30 * 64;
		y = wrng_uniform(&r) * 30 * 64;
	}
	for (int i = 0; i < 20000; i++) {
		double a = wrng_uniform(&r) * 2 * M_PI;
		double len = wrng_uniform(&r) * 40;
		double px = x, py = y;

		geom_slide(&m, &x, &y, cos(a) * len, sin(a) * len, 16, NULL,
			   NULL);
		cr_assert(!geom_circle_blocked(&m, x, y, 16),
			  "step %d entered a wall at (%f,%f)", i, x, y);
		cr_assert_leq(hypot(x - px, y - py), len + 1e-9);
	}
	map_free(&m);
}

/* The summed-area shortcut (a segment whose box of cells, grown by one,
 * holds no wall is clear without the walk) answers as the walk does: the
 * same map with its table taken away walks every segment. Endpoints on
 * a 2.5 u lattice put many of them on grid lines and vertices, and the
 * two walls leave boxes with and without a wall. */
Test(world_geom, wall_table_shortcut_answers_as_the_walk)
{
	struct map m, bare;
	int clear = 0, n = 0;

	tm_from_grid(&m, 10,
		     "..........\n..........\n..........\n....#.....\n"
		     "..........\n......#...\n..........\n..........");
	bare = m;
	bare.walls = NULL;
	for (double ax = 0; ax <= 100; ax += 2.5)
		for (double ay = 0; ay <= 80; ay += 5) {
			cr_assert_eq(geom_raycast(&m, ax, ay, 0.6, 0.8, 90),
				     geom_raycast(&bare, ax, ay, 0.6, 0.8, 90));
			for (double bx = 0; bx <= 100; bx += 5)
				for (double by = 0; by <= 80; by += 2.5) {
					int w = geom_los(&m, ax, ay, bx, by);

					cr_assert_eq(w, geom_los(&bare, ax, ay,
								 bx, by),
						     "(%g,%g)-(%g,%g)", ax, ay,
						     bx, by);
					clear += w;
					n++;
				}
		}
	/* both answers occur */
	cr_assert_gt(clear, 0);
	cr_assert_lt(clear, n);
	map_free(&m);
}

/* A point for sampled_shortcut_answers_as_the_walk: anywhere (kind 0),
 * on a lattice of a quarter cell (grid lines, vertices and the points
 * halfway between them), or a hair off that lattice. */
static double probe(struct wrng *r, double span, double cell, int kind)
{
	double v = wrng_uniform(r) * span;

	if (kind == 0)
		return v;
	v = floor(v / (cell / 4)) * (cell / 4);
	return kind == 1 ? v : v + (wrng_uniform(r) - 0.5) * 1e-9 * cell;
}

/* A segment whose middle or a quarter point lies well inside a wall cell
 * is blocked without a walk; the answer must be the walk's, also for
 * segments that run along grid lines, through vertices, or end a hair
 * from them, on the shipped maps and on random ones. */
Test(world_geom, sampled_shortcut_answers_as_the_walk)
{
	static const char *const names[] = {"dust", "arena", "field", "loop"};
	long blocked = 0, n = 0;

	for (int k = 0; k < 8; k++) {
		struct map m;
		struct wrng r;

		if (k < 4)
			tm_load(&m, names[k]);
		else
			tm_random(&m, 20, 14, 0.3, (uint64_t)k, 10);
		wrng_seed(&r, (uint64_t)k, 11);
		for (int i = 0; i < 60000; i++, n++) {
			int kind = i % 3;
			double ax = probe(&r, m.w * m.cell, m.cell, kind);
			double ay = probe(&r, m.h * m.cell, m.cell, kind);
			double bx = probe(&r, m.w * m.cell, m.cell, kind);
			double by = probe(&r, m.h * m.cell, m.cell, kind);
			int w = geom_los_walk(&m, ax, ay, bx, by);

			cr_assert_eq(geom_los(&m, ax, ay, bx, by), w,
				     "(%.17g,%.17g)-(%.17g,%.17g)", ax, ay, bx,
				     by);
			blocked += !w;
		}
		map_free(&m);
	}
	cr_assert_gt(blocked, n / 4);
	cr_assert_lt(blocked, n);
}

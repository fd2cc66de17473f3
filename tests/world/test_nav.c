/*
 * test_nav.c: A* on random small maps against a brute-force Dijkstra
 * with the same move rules (8-connected, diagonal only when both
 * orthogonal neighbours are free, costs 1 and sqrt 2). Costs must agree
 * (A* with the octile heuristic is optimal), unreachable goals must be
 * reported, the returned path must be legal and cost what A* says, and
 * smoothed world paths must be walkable straight lines.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>

#include "geom.h"
#include "nav.h"
#include "testmap.h"

/* O(V^2) Dijkstra: no heap, nothing shared with nav.c */
static double dijkstra(const struct map *m, int s, int g)
{
	int n = m->w * m->h;
	double *d = malloc(n * sizeof(*d));
	char *done = calloc(n, 1);
	double res;

	for (int i = 0; i < n; i++)
		d[i] = INFINITY;
	d[s] = 0;
	for (;;) {
		int u = -1;

		for (int i = 0; i < n; i++)
			if (!done[i] && isfinite(d[i]) &&
			    (u < 0 || d[i] < d[u]))
				u = i;
		if (u < 0)
			break;
		done[u] = 1;
		int ux = u % m->w, uy = u / m->w;

		for (int dy = -1; dy <= 1; dy++)
			for (int dx = -1; dx <= 1; dx++) {
				int vx = ux + dx, vy = uy + dy;

				if ((!dx && !dy) || map_blocked(m, vx, vy))
					continue;
				if (dx && dy &&
				    (map_blocked(m, ux + dx, uy) ||
				     map_blocked(m, ux, uy + dy)))
					continue;
				double c = d[u] + (dx && dy ? M_SQRT2 : 1.0);
				int v = vy * m->w + vx;

				if (c < d[v])
					d[v] = c;
			}
	}
	res = d[g];
	free(d);
	free(done);
	return res;
}

Test(world_nav, astar_is_optimal_against_dijkstra)
{
	int reach = 0, unreach = 0;

	for (uint64_t seed = 1; seed <= 12; seed++) {
		struct map m;
		struct nav nv;
		struct wrng r;

		tm_random(&m, 14, 11, 0.3, seed, 10);
		cr_assert_eq(nav_init(&nv, &m), 0);
		wrng_seed(&r, seed, 5);
		for (int q = 0; q < 40; q++) {
			int s, g, len, cells[200];
			double cost;

			do
				s = (int)wrng_below(&r, m.w * m.h);
			while (m.cells[s] == MAP_WALL);
			do
				g = (int)wrng_below(&r, m.w * m.h);
			while (m.cells[g] == MAP_WALL);
			double want = dijkstra(&m, s, g);
			int rc = nav_astar(&nv, s % m.w, s / m.w, g % m.w,
					   g / m.w, cells, 200, &len, &cost);

			if (!isfinite(want)) {
				cr_assert_eq(rc, -ENOENT);
				unreach++;
				continue;
			}
			reach++;
			cr_assert_eq(rc, 0);
			/* float accumulation in nav.c: 1e-4 over <= 200 steps
			 */
			cr_assert_float_eq(cost, want, 1e-4,
					   "seed %lu: %f vs %f",
					   (unsigned long)seed, cost, want);
			cr_assert_eq(cells[0], s);
			cr_assert_eq(cells[len - 1], g);
			double sum = 0;

			for (int i = 1; i < len; i++) {
				int ax = cells[i - 1] % m.w,
				    ay = cells[i - 1] / m.w;
				int bx = cells[i] % m.w, by = cells[i] / m.w;

				cr_assert(abs(ax - bx) <= 1 &&
					  abs(ay - by) <= 1);
				cr_assert(!map_blocked(&m, bx, by));
				if (ax != bx && ay != by) {
					cr_assert(!map_blocked(&m, bx, ay));
					cr_assert(!map_blocked(&m, ax, by));
					sum += M_SQRT2;
				} else {
					sum += 1;
				}
			}
			cr_assert_float_eq(sum, want, 1e-4);
		}
		nav_free(&nv);
		map_free(&m);
	}
	cr_assert_gt(reach, 100);
	cr_assert_gt(unreach, 0);
}

Test(world_nav, blocked_ends_are_rejected)
{
	struct map m;
	struct nav nv;
	int cells[16], len;
	double cost;

	tm_from_grid(&m, 10, "..#\n...");
	cr_assert_eq(nav_init(&nv, &m), 0);
	cr_assert_eq(nav_astar(&nv, 0, 0, 2, 0, cells, 16, &len, &cost),
		     -EINVAL);
	cr_assert_eq(nav_astar(&nv, 0, 0, 2, 1, cells, 1, &len, &cost),
		     -ENOSPC);
	cr_assert_eq(nav_astar(&nv, 0, 0, 2, 1, cells, 16, &len, &cost), 0);
	nav_free(&nv);
	map_free(&m);
}

Test(world_nav, smoothed_paths_are_walkable_on_dust)
{
	struct map m;
	struct nav nv;
	struct wrng r;

	tm_load(&m, "dust");
	cr_assert_eq(nav_init(&nv, &m), 0);
	wrng_seed(&r, 4, 4);
	for (int q = 0; q < 60; q++) {
		struct nav_pt pts[128];
		int n;
		double ax, ay, bx, by, px, py, len = 0;

		do {
			ax = wrng_uniform(&r) * m.w * m.cell;
			ay = wrng_uniform(&r) * m.h * m.cell;
		} while (geom_circle_blocked(&m, ax, ay, 20));
		do {
			bx = wrng_uniform(&r) * m.w * m.cell;
			by = wrng_uniform(&r) * m.h * m.cell;
		} while (geom_circle_blocked(&m, bx, by, 20));
		cr_assert_eq(nav_path(&nv, ax, ay, bx, by, 18, pts, 128, &n),
			     0);
		cr_assert_gt(n, 0);
		cr_assert_float_eq(pts[n - 1].x, bx, 1e-9);
		cr_assert_float_eq(pts[n - 1].y, by, 1e-9);
		px = ax;
		py = ay;
		for (int i = 0; i < n; i++) {
			cr_assert(geom_los(&m, px, py, pts[i].x, pts[i].y),
				  "leg %d crosses a wall", i);
			len += hypot(pts[i].x - px, pts[i].y - py);
			px = pts[i].x;
			py = pts[i].y;
		}
		/* never shorter than the straight line */
		cr_assert_geq(len + 1e-9, hypot(bx - ax, by - ay));
	}
	nav_free(&nv);
	map_free(&m);
}

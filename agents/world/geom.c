/*
 * geom.c: grid line of sight, ray casts and circle collision. The cell
 * walk is Amanatides and Woo's (Eurographics 1987): step to whichever of
 * the next vertical or horizontal grid line the segment meets first
 * (tmax_x vs tmax_y). Tie rule: when both are met at the same parameter
 * the segment passes exactly through a grid vertex; it is blocked there
 * only if both side cells are walls (a diagonal squeeze), and then steps
 * diagonally. Symmetry is made exact by always walking from the
 * lexicographically smaller endpoint, so floating-point rounding cannot
 * make geom_los(a,b) differ from geom_los(b,a). Two shortcuts give the
 * walk's answer without it: a segment whose box of cells holds no wall
 * is clear, and one whose middle or quarter point is well inside a wall
 * cell is not.
 */
#include "geom.h"

#include <math.h>

/* Whether the walk from cell (cx, cy) to the segment's end (ex, ey, in
 * cells) can meet no wall: the cells it visits lie in the box of the two
 * end cells (grown by one each way for an end on a grid line), and that
 * box holds none. Then the walk would return 1, so it need not run. */
static int open_box(const struct map *m, int cx, int cy, double ex, double ey)
{
	double fx = floor(ex), fy = floor(ey);
	int x1, y1;

	if (!(fx >= -1 && fx <= m->w && fy >= -1 && fy <= m->h))
		return 0;
	x1 = (int)fx;
	y1 = (int)fy;
	return map_walls_in(m, (cx < x1 ? cx : x1) - 1, (cy < y1 ? cy : y1) - 1,
			    (cx > x1 ? cx : x1) + 1,
			    (cy > y1 ? cy : y1) + 1) == 0;
}

/* Walk from a to b. Returns 1 if clear; when hit_t is non-NULL the
 * parameter in [0,1] at which the first wall cell is entered. */
static int walk(const struct map *m, double ax, double ay, double bx, double by,
		double *hit_t)
{
	double c = m->cell;
	double x0 = ax / c, y0 = ay / c, dx = (bx - ax) / c, dy = (by - ay) / c;
	int cx = (int)floor(x0), cy = (int)floor(y0);
	int sx = dx > 0 ? 1 : (dx < 0 ? -1 : 0);
	int sy = dy > 0 ? 1 : (dy < 0 ? -1 : 0);
	double tmx, tmy, tdx, tdy;
	long guard;

	/* outside the grid is wall: an endpoint there is never visible,
	 * and coordinates stay small enough to convert to int */
	if (!(x0 >= 0 && x0 < m->w && y0 >= 0 && y0 < m->h) || !isfinite(dx) ||
	    !isfinite(dy)) {
		if (hit_t)
			*hit_t = 0;
		return 0;
	}
	/* a start exactly on a grid line, leaving downwards, is in the
	 * lower cell as far as the open segment is concerned */
	if (sx < 0 && x0 == floor(x0))
		cx--;
	if (sy < 0 && y0 == floor(y0))
		cy--;
	if (map_blocked(m, cx, cy)) {
		if (hit_t)
			*hit_t = 0;
		return 0;
	}
	if (open_box(m, cx, cy, x0 + dx, y0 + dy))
		return 1;
	tdx = sx ? 1.0 / fabs(dx) : INFINITY;
	tdy = sy ? 1.0 / fabs(dy) : INFINITY;
	tmx = sx > 0 ? (cx + 1 - x0) * tdx
		     : (sx < 0 ? (x0 - cx) * tdx : INFINITY);
	tmy = sy > 0 ? (cy + 1 - y0) * tdy
		     : (sy < 0 ? (y0 - cy) * tdy : INFINITY);
	/* a walk crosses at most w + h cells before it leaves the grid,
	 * and leaving it is hitting a wall */
	guard = 4 + 2 * ((long)m->w + (long)m->h);
	while (guard-- > 0) {
		double t = tmx < tmy ? tmx : tmy;

		if (t >= 1.0)
			return 1;
		if (tmx == tmy) {
			/* through a vertex: the two side cells */
			if (map_blocked(m, cx + sx, cy) &&
			    map_blocked(m, cx, cy + sy)) {
				if (hit_t)
					*hit_t = t;
				return 0;
			}
			cx += sx;
			cy += sy;
			tmx += tdx;
			tmy += tdy;
		} else if (tmx < tmy) {
			cx += sx;
			tmx += tdx;
		} else {
			cy += sy;
			tmy += tdy;
		}
		if (map_blocked(m, cx, cy)) {
			if (hit_t)
				*hit_t = t;
			return 0;
		}
	}
	return 1;
}

/* How far inside a cell, in cells, a point must be for inside_wall: the
 * walk's crossing times, and the point, are off by rounding some 1e-13
 * at most. */
#define IN_MARGIN 1e-6

/* Whether the point (x, y), in cells, lies in a wall cell, IN_MARGIN or
 * more from its sides. For a point of a segment, the segment then
 * passes through that cell's inside, and the walk from either end would
 * enter it: no line of sight, found without walking. */
static inline int inside_wall(const struct map *m, double x, double y)
{
	int ix, iy;

	if (!(x >= 0 && x < m->w && y >= 0 && y < m->h))
		return 0;
	ix = (int)x;
	iy = (int)y;
	if (x - ix < IN_MARGIN || x - ix > 1 - IN_MARGIN ||
	    y - iy < IN_MARGIN || y - iy > 1 - IN_MARGIN)
		return 0;
	return map_blocked(m, ix, iy);
}

int geom_los_walk(const struct map *m, double ax, double ay, double bx,
		  double by)
{
	if (bx < ax || (bx == ax && by < ay))
		return walk(m, bx, by, ax, ay, NULL);
	return walk(m, ax, ay, bx, by, NULL);
}

/* Most blocked sight lines across a map have a wall cell around their
 * middle or a quarter point: of those the 64-client match traces, three
 * in four around the middle, 97 in 100 around one of the three. */
int geom_los(const struct map *m, double ax, double ay, double bx, double by)
{
	double k = 1.0 / m->cell, x = ax * k, y = ay * k;
	double dx = (bx - ax) * k, dy = (by - ay) * k;

	return !inside_wall(m, x + 0.5 * dx, y + 0.5 * dy) &&
	       !inside_wall(m, x + 0.25 * dx, y + 0.25 * dy) &&
	       !inside_wall(m, x + 0.75 * dx, y + 0.75 * dy) &&
	       geom_los_walk(m, ax, ay, bx, by);
}

int geom_los_view(const void *world, const double a[3], const double b[3])
{
	return geom_los(world, a[0], a[1], b[0], b[1]);
}

int geom_clear(const struct map *m, double ax, double ay, double bx, double by,
	       double radius)
{
	double dx = bx - ax, dy = by - ay, len = hypot(dx, dy), nx, ny;

	if (!geom_los(m, ax, ay, bx, by))
		return 0;
	if (len <= 0 || radius <= 0)
		return 1;
	nx = -dy / len * radius;
	ny = dx / len * radius;
	return geom_los(m, ax + nx, ay + ny, bx + nx, by + ny) &&
	       geom_los(m, ax - nx, ay - ny, bx - nx, by - ny);
}

double geom_raycast(const struct map *m, double x, double y, double dx,
		    double dy, double maxd)
{
	double t;

	if (walk(m, x, y, x + dx * maxd, y + dy * maxd, &t))
		return maxd;
	return t * maxd;
}

int geom_circle_blocked(const struct map *m, double x, double y, double r)
{
	double c = m->cell;
	int x0, x1, y0, y1;

	/* a centre outside the grid is in the wall outside; inside, the
	 * cell indices below stay small */
	if (!(x >= 0 && x < m->w * c && y >= 0 && y < m->h * c) ||
	    !(r >= 0 && r < c * MAP_MAX_DIM))
		return 1;
	x0 = (int)floor((x - r) / c);
	x1 = (int)floor((x + r) / c);
	y0 = (int)floor((y - r) / c);
	y1 = (int)floor((y + r) / c);

	for (int cy = y0; cy <= y1; cy++) {
		for (int cx = x0; cx <= x1; cx++) {
			double px, py;

			if (!map_blocked(m, cx, cy))
				continue;
			/* closest point of the cell's square to the centre */
			px = fmax(cx * c, fmin(x, (cx + 1) * c));
			py = fmax(cy * c, fmin(y, (cy + 1) * c));
			if ((px - x) * (px - x) + (py - y) * (py - y) < r * r)
				return 1;
		}
	}
	return 0;
}

/* Largest fraction f in [0,1] of the move (dx,dy) that stays clear,
 * found by bisection; 1 when the whole move is clear. */
static double clear_fraction(const struct map *m, double x, double y, double dx,
			     double dy, double r)
{
	double lo = 0, hi = 1;

	if (!geom_circle_blocked(m, x + dx, y + dy, r))
		return 1;
	for (int i = 0; i < 12; i++) {
		double mid = (lo + hi) / 2;

		if (geom_circle_blocked(m, x + dx * mid, y + dy * mid, r))
			hi = mid;
		else
			lo = mid;
	}
	return lo;
}

void geom_slide(const struct map *m, double *x, double *y, double dx, double dy,
		double r, int *hitx, int *hity)
{
	/* sub-steps no longer than half the radius, so a thin wall cannot
	 * be jumped over */
	double len = hypot(dx, dy);
	int steps = (int)ceil(len / (r * 0.5));
	int hx = 0, hy = 0;

	if (steps < 1)
		steps = 1;
	for (int i = 0; i < steps; i++) {
		double sdx = hx ? 0 : dx / steps, sdy = hy ? 0 : dy / steps;
		double f;

		if (sdx != 0) {
			f = clear_fraction(m, *x, *y, sdx, 0, r);
			*x += sdx * f;
			if (f < 1)
				hx = 1;
		}
		if (sdy != 0) {
			f = clear_fraction(m, *x, *y, 0, sdy, r);
			*y += sdy * f;
			if (f < 1)
				hy = 1;
		}
	}
	if (hitx)
		*hitx = hx;
	if (hity)
		*hity = hy;
}

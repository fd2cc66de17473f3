/*
 * botnav.c: how a bot gets somewhere: plan with A* plus string pulling
 * (nav.c), follow the corners, replan when stuck against something, pick
 * a random reachable spot near a point, and search for cover (the
 * nearest cell, by breadth-first steps, whose centre an enemy at a given
 * position cannot see).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "geom.h"
#include "sim_int.h"

#define ARRIVE_R 20.0

int botnav_goto(struct sim *s, struct bot *b, double x, double y,
		enum bot_goal g)
{
	int n, rc;

	rc = nav_path(&s->nav, b->b.x, b->b.y, x, y, s->cfg.mp.radius + 2,
		      b->path, BOT_PATH_MAX, &n);
	if (rc) {
		b->npath = 0;
		return rc;
	}
	b->npath = n;
	b->ipath = 0;
	b->gx = x;
	b->gy = y;
	b->goal = g;
	b->stuck_t = s->t;
	b->stuck_x = b->b.x;
	b->stuck_y = b->b.y;
	return 0;
}

int botnav_follow(struct sim *s, struct bot *b, double *wx, double *wy)
{
	double dx, dy, d;

	*wx = *wy = 0;
	while (b->ipath < b->npath) {
		dx = b->path[b->ipath].x - b->b.x;
		dy = b->path[b->ipath].y - b->b.y;
		d = hypot(dx, dy);
		if (d > ARRIVE_R)
			break;
		b->ipath++;
	}
	if (b->ipath >= b->npath)
		return 1;
	*wx = dx / d;
	*wy = dy / d;
	/* stuck: less than 32 u of progress in a second while moving */
	if (s->t - b->stuck_t >= 1.0) {
		double moved = hypot(b->b.x - b->stuck_x, b->b.y - b->stuck_y);

		b->stuck_t = s->t;
		b->stuck_x = b->b.x;
		b->stuck_y = b->b.y;
		if (moved < 32.0) {
			if (++b->stuck_n > 2 ||
			    botnav_goto(s, b, b->gx, b->gy, b->goal)) {
				b->stuck_n = 0;
				b->npath = 0;
				b->goal = G_NONE;
				*wx = *wy = 0;
				return 1;
			}
		} else {
			b->stuck_n = 0;
		}
	}
	return 0;
}

void botnav_random_floor_near(struct sim *s, struct bot *b, double x, double y,
			      double r, double *ox, double *oy)
{
	double rad = s->cfg.mp.radius + 4;

	for (int i = 0; i < 40; i++) {
		double a = wrng_range(&b->rng, 0, 2 * M_PI);
		double d = r * sqrt(wrng_uniform(&b->rng));
		double px = x + d * cos(a), py = y + d * sin(a);

		if (!geom_circle_blocked(s->m, px, py, rad) &&
		    geom_los(s->m, x, y, px, py)) {
			*ox = px;
			*oy = py;
			return;
		}
	}
	*ox = x;
	*oy = y;
}

int botnav_find_cover(struct sim *s, struct bot *b, double ex, double ey,
		      double *cx, double *cy)
{
	const struct map *m = s->m;
	enum { MAXD = 8, SIDE = 2 * MAXD + 1 };
	int qx[SIDE * SIDE], qy[SIDE * SIDE], dist[SIDE * SIDE];
	int head = 0, tail = 0, bx, by;
	static const int ddx[4] = {1, -1, 0, 0}, ddy[4] = {0, 0, 1, -1};

	map_cell_of(m, b->b.x, b->b.y, &bx, &by);
	for (int i = 0; i < SIDE * SIDE; i++)
		dist[i] = -1;
	qx[tail] = bx;
	qy[tail++] = by;
	dist[MAXD * SIDE + MAXD] = 0;
	while (head < tail) {
		int x = qx[head], y = qy[head++];
		int d = dist[(y - by + MAXD) * SIDE + (x - bx + MAXD)];
		double px = (x + 0.5) * m->cell, py = (y + 0.5) * m->cell;

		if (d > 0 && !geom_los(m, ex, ey, px, py) &&
		    !geom_los(m, ex, ey, px, py - s->cfg.mp.radius) &&
		    !geom_los(m, ex, ey, px, py + s->cfg.mp.radius) &&
		    !geom_circle_blocked(m, px, py, s->cfg.mp.radius + 2)) {
			*cx = px;
			*cy = py;
			return 0;
		}
		if (d == MAXD)
			continue;
		for (int k = 0; k < 4; k++) {
			int nx = x + ddx[k], ny = y + ddy[k], i;

			if (abs(nx - bx) > MAXD || abs(ny - by) > MAXD ||
			    map_blocked(m, nx, ny))
				continue;
			i = (ny - by + MAXD) * SIDE + (nx - bx + MAXD);
			if (dist[i] >= 0)
				continue;
			dist[i] = d + 1;
			qx[tail] = nx;
			qy[tail++] = ny;
		}
	}
	return -1;
}

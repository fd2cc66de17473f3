/*
 * nav.h: navigation on a map's grid. A* (Hart, Nilsson and Raphael 1968)
 * over cells, 8-connected, with no corner cutting (a diagonal step needs
 * both orthogonal neighbours free), step costs 1 and sqrt(2) cells and
 * the octile-distance heuristic, which is admissible and consistent, so
 * paths are optimal. Paths are then smoothed by string pulling: keep a
 * corner only where a body of the given radius could not walk straight
 * past it (geom_clear).
 */
#ifndef RECKON_WORLD_NAV_H
#define RECKON_WORLD_NAV_H

#include "map.h"

struct nav_pt {
	double x, y;
};

/* Scratch space for searches on one map (reused, no per-search reset). */
struct nav {
	const struct map *m;
	int ncell;
	float *g;
	int *parent;
	uint32_t *stamp; /* generation when g/parent were last written */
	uint8_t *closed_gen;
	uint32_t gen;
	int *heap;
	float *heap_f;
	int heap_n;
	int *path; /* cell path of the last search */
};

int nav_init(struct nav *n, const struct map *m);
void nav_free(struct nav *n);

/* Optimal cell path from (sx,sy) to (gx,gy). Writes the cells (index
 * cy*w+cx, start first, goal last) to cells (at most max) and the cost in
 * cells to *cost. -EINVAL if an end is blocked, -ENOENT if unreachable,
 * -ENOSPC if the path is longer than max. */
int nav_astar(struct nav *n, int sx, int sy, int gx, int gy, int *cells,
	      int max, int *len, double *cost);

/* World-space path from a to b for a body of radius r: A* between the
 * cells of a and b, then string pulling. pts[0] is the first corner after
 * a; the last is b. */
int nav_path(struct nav *n, double ax, double ay, double bx, double by,
	     double r, struct nav_pt *pts, int max, int *npts);

#endif

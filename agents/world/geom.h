/*
 * geom.h: geometry against a map's wall grid. Line of sight walks the
 * cells a segment crosses (Amanatides and Woo, "A fast voxel traversal
 * algorithm for ray tracing", Eurographics 1987) and is exactly symmetric;
 * ray casts return the distance to the first wall; circle tests and a
 * sliding move keep a round body (a player) out of walls.
 */
#ifndef RECKON_WORLD_GEOM_H
#define RECKON_WORLD_GEOM_H

#include "map.h"

/* 1 if the open segment a-b touches no wall cell's interior and does not
 * squeeze through a grid vertex between two diagonal wall cells; 0
 * otherwise (also when an endpoint is inside a wall). geom_los(a,b) ==
 * geom_los(b,a) always: the walk runs from the lexicographically smaller
 * endpoint. */
int geom_los(const struct map *m, double ax, double ay, double bx, double by);
/* geom_los by the walk of the cells alone, without the shortcut that
 * answers a segment whose middle or a quarter point is well inside a
 * wall cell: the same answer, for tests that hold the shortcut to it. */
int geom_los_walk(const struct map *m, double ax, double ay, double bx,
		  double by);
/* geom_los in the form of a predictor context's map.los (world is the
 * struct map; z is ignored: the maps are flat). */
int geom_los_view(const void *world, const double a[3], const double b[3]);

/* LOS for a body of the given radius: the centre line and the two
 * parallel lines offset by +-radius all clear. */
int geom_clear(const struct map *m, double ax, double ay, double bx, double by,
	       double radius);

/* Distance along the unit direction (dx, dy) from (x, y) to the first
 * wall, at most maxd; returns maxd when nothing is hit. */
double geom_raycast(const struct map *m, double x, double y, double dx,
		    double dy, double maxd);

/* 1 if a circle at (x, y) with radius r overlaps a wall cell. */
int geom_circle_blocked(const struct map *m, double x, double y, double r);

/* Move a circle from (*x, *y) by (dx, dy), sliding along walls: each axis
 * is moved separately and cut short (by bisection) where it would touch
 * a wall. Never leaves the circle overlapping a wall if it started clear.
 * Sets *hitx / *hity when that axis was blocked. */
void geom_slide(const struct map *m, double *x, double *y, double dx, double dy,
		double r, int *hitx, int *hity);

#endif

/*
 * map.c: small queries on a loaded map (cells of points, names of modes
 * and items, lookups by name) and its destructor.
 */
#include "map.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void map_free(struct map *m)
{
	free(m->cells);
	free(m->marks);
	free(m->walls);
	m->cells = NULL;
	m->marks = NULL;
	m->walls = NULL;
}

long map_walls_in(const struct map *m, int x0, int y0, int x1, int y1)
{
	size_t w = (size_t)m->w + 1;

	if (x0 < 0 || y0 < 0 || x1 >= m->w || y1 >= m->h || x0 > x1 ||
	    y0 > y1 || !m->walls)
		return -1;
	return (long)m->walls[(size_t)(y1 + 1) * w + (size_t)(x1 + 1)] -
	       (long)m->walls[(size_t)y0 * w + (size_t)(x1 + 1)] -
	       (long)m->walls[(size_t)(y1 + 1) * w + (size_t)x0] +
	       (long)m->walls[(size_t)y0 * w + (size_t)x0];
}

void map_cell_of(const struct map *m, double x, double y, int *cx, int *cy)
{
	*cx = (int)floor(x / m->cell);
	*cy = (int)floor(y / m->cell);
}

int map_point_blocked(const struct map *m, double x, double y)
{
	int cx, cy;

	if (!isfinite(x) || !isfinite(y) || x < 0 || y < 0 ||
	    x >= m->w * m->cell || y >= m->h * m->cell)
		return 1;
	map_cell_of(m, x, y, &cx, &cy);
	return map_blocked(m, cx, cy);
}

const char *map_mode_name(enum map_mode mode)
{
	static const char *n[] = {"defuse", "deathmatch", "teams", "loop"};

	return (unsigned)mode < 4 ? n[mode] : "?";
}

const char *map_item_kind_name(enum map_item_kind k)
{
	static const char *n[] = {"health", "armor", "weapon", "ammo"};

	return (unsigned)k < 4 ? n[k] : "?";
}

int map_find_waypoint(const struct map *m, const char *name)
{
	for (int i = 0; i < m->nwaypoints; i++)
		if (strcmp(m->waypoints[i].name, name) == 0)
			return i;
	return -1;
}

int map_find_route(const struct map *m, const char *name)
{
	for (int i = 0; i < m->nroutes; i++)
		if (strcmp(m->routes[i].name, name) == 0)
			return i;
	return -1;
}

int map_find_objective(const struct map *m, const char *name)
{
	for (int i = 0; i < m->nobj; i++)
		if (strcmp(m->obj[i].name, name) == 0)
			return i;
	return -1;
}

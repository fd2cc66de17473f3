/*
 * map_view.c: a game map as a predictor sees it (see map_view.h): the
 * bounds of its grid, line of sight through agents/world/geom.c, and its
 * items as struct predict_item.
 */
#include <string.h>

#include "predict/map_view.h"
#include "world/geom.h"
#include "world/map.h"

void predict_map_view(const struct map *m, struct predict_map_view *v)
{
	memset(v, 0, sizeof(*v));
	v->hi[0] = m->w * m->cell;
	v->hi[1] = m->h * m->cell;
	v->world = m;
	v->los = geom_los_view;
}

size_t predict_map_items(const struct map *m, struct predict_item *items,
			 double *respawn_s, size_t max)
{
	size_t n = 0;

	for (int i = 0; i < m->nitems && n < max; i++, n++) {
		memset(&items[n], 0, sizeof(items[n]));
		items[n].id = (uint32_t)i;
		items[n].kind = (uint8_t)m->items[i].kind;
		items[n].present = 1;
		items[n].pos[0] = m->items[i].x;
		items[n].pos[1] = m->items[i].y;
		respawn_s[n] = m->items[i].respawn_s;
	}
	return n;
}

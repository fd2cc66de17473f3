/*
 * map_view.h: a map of agents/world as a predictor sees it, the static
 * map every client has: its bounds and line of sight (geom_los_view) for
 * struct predict_map_view, and its items, all present, with their
 * respawn times for ctx.items and the peer book (peers.h). Used by the
 * truth of a run (role/truth.h) and by replay's together mode. Pure.
 */
#ifndef RECKON_PREDICT_MAP_VIEW_H
#define RECKON_PREDICT_MAP_VIEW_H

#include <stddef.h>

#include "predict/predict.h"

struct map;

/* m's X-Y bounds and line of sight; v->world points at m. */
void predict_map_view(const struct map *m, struct predict_map_view *v);

/* m's items (all present, id = index) and their respawn times, s, into
 * the first max slots of items and respawn_s; returns the count. */
size_t predict_map_items(const struct map *m, struct predict_item *items,
			 double *respawn_s, size_t max);

#endif

/*
 * map_svg.h: draw a map (walls, doors, spawns, objectives, items,
 * waypoints and routes) as an SVG picture, optionally with the paths of
 * some entities from a trace drawn over it. Writes to a FILE the caller
 * opened.
 */
#ifndef RECKON_WORLD_MAP_SVG_H
#define RECKON_WORLD_MAP_SVG_H

#include <stdio.h>

#include "map.h"
#include "trace.h"

struct map_svg_opts {
	double width_px;       /* picture width, default 900 */
	const struct trace *t; /* optional overlay */
	int max_entities;      /* overlay at most this many entities */
	double seconds;	       /* overlay the first seconds of the trace */
};

int map_svg_write(FILE *f, const struct map *m, const struct map_svg_opts *o);

#endif

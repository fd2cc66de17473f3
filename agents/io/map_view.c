/*
 * map_view.c: a game map as a predictor may see it (the static map every
 * client has): loading a map by name the way the bot generator finds it,
 * its bounds and a line-of-sight callback (agents/world/geom.c) for
 * struct predict_map_view, and its items with their respawn times for
 * the peer book (agents/predict/peers.h). Reads files; never prints.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "agent_io.h"
#include "world/geom.h"
#include "world/map.h"

static int map_los(const void *world, const double a[3], const double b[3])
{
	return geom_los(world, a[0], a[1], b[0], b[1]);
}

int agent_map_load(const char *name, struct map *out, char *err, size_t errlen)
{
	char path[PATH_MAX + 64], why[256] = "";
	FILE *f = agent_map_open(name, path, sizeof(path));
	int rc;

	if (!f) {
		snprintf(err, errlen,
			 "map '%s' not found (looked in $RECKON_MAP_DIR, "
			 "scenarios/maps and next to the program)",
			 name);
		return -ENOENT;
	}
	rc = map_read(f, out, why, sizeof(why));
	fclose(f);
	if (rc)
		snprintf(err, errlen, "%s: %s", path,
			 rc == -EINVAL ? why : strerror(-rc));
	return rc;
}

void agent_map_view(const struct map *m, struct predict_map_view *v)
{
	memset(v, 0, sizeof(*v));
	v->hi[0] = m->w * m->cell;
	v->hi[1] = m->h * m->cell;
	v->world = m;
	v->los = map_los;
}

size_t agent_map_items(const struct map *m, struct predict_item *items,
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

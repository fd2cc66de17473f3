/*
 * map.h: a game map, loaded from the text format of docs/world.md: a
 * header (name, mode, cell size in game units, teams, spawns, objectives,
 * items with respawn times, named waypoints and routes) and a character
 * grid of walls and floor. World coordinates: x grows with the column, y
 * with the row; cell (c, r) covers [c*cell, (c+1)*cell) x [r*cell,
 * (r+1)*cell). Outside the grid is wall. Pure: parsing works on a buffer
 * or a FILE the caller opened, and errors name the line.
 */
#ifndef RECKON_WORLD_MAP_H
#define RECKON_WORLD_MAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define MAP_MAX_DIM	  512
#define MAP_MAX_TEAMS	  4
#define MAP_MAX_SPAWNS	  64
#define MAP_MAX_OBJ	  8
#define MAP_MAX_ITEMS	  64
#define MAP_MAX_WAYPOINTS 64
#define MAP_MAX_ROUTES	  16
#define MAP_MAX_ROUTE_LEN 32
#define MAP_NAME_LEN	  24

enum map_cell { MAP_FLOOR = 0, MAP_WALL = 1, MAP_DOOR = 2 };

/* What the bots play: bomb defusal rounds, free-for-all deathmatch,
 * team deathmatch on a battlefield, or a waypoint loop with pursuers. */
enum map_mode { MAP_DEFUSE, MAP_DEATHMATCH, MAP_TEAMS, MAP_LOOP };

enum map_item_kind { ITEM_HEALTH, ITEM_ARMOR, ITEM_WEAPON, ITEM_AMMO };

struct map_spawn {
	uint8_t team; /* 0: any team (deathmatch) */
	double x, y;
};

struct map_objective {
	char name[MAP_NAME_LEN];
	double x, y, r; /* centroid and radius covering its cells */
};

struct map_item {
	enum map_item_kind kind;
	double x, y;
	int amount;
	double respawn_s;
};

struct map_waypoint {
	char name[MAP_NAME_LEN];
	double x, y;
};

struct map_route {
	char name[MAP_NAME_LEN];
	int loop;
	int n;
	int wp[MAP_MAX_ROUTE_LEN]; /* indices into waypoints */
};

struct map {
	char name[64];
	enum map_mode mode;
	double cell;
	int w, h;
	uint8_t *cells; /* enum map_cell, row-major w*h */
	/* walls[y * (w + 1) + x]: wall cells in columns < x of rows < y, a
	 * summed-area table (Crow 1984) that counts a rectangle's walls in
	 * four reads (map_walls_in) */
	uint32_t *walls;
	char *marks;	/* marker letter of each cell or 0 */
	int nteams;
	char team_name[MAP_MAX_TEAMS + 1][MAP_NAME_LEN]; /* [1..nteams] */
	int nspawns, nobj, nitems, nwaypoints, nroutes;
	struct map_spawn spawns[MAP_MAX_SPAWNS];
	struct map_objective obj[MAP_MAX_OBJ];
	struct map_item items[MAP_MAX_ITEMS];
	struct map_waypoint waypoints[MAP_MAX_WAYPOINTS];
	struct map_route routes[MAP_MAX_ROUTES];
};

/* Parse a map. On error returns -EINVAL (or -ENOMEM) and writes
 * "line N: why" into err; *out is untouched. */
int map_parse(const char *buf, size_t len, struct map *out, char *err,
	      size_t errlen);
int map_read(FILE *f, struct map *out, char *err, size_t errlen);
void map_free(struct map *m);

/* Wall cells in columns x0..x1, rows y0..y1 (inclusive); a rectangle
 * that reaches outside the grid counts as walled (-1). */
long map_walls_in(const struct map *m, int x0, int y0, int x1, int y1);

/* 1 if cell (cx, cy) blocks movement and sight (walls and outside). */
static inline int map_blocked(const struct map *m, int cx, int cy)
{
	if (cx < 0 || cy < 0 || cx >= m->w || cy >= m->h)
		return 1;
	return m->cells[(size_t)cy * (size_t)m->w + (size_t)cx] == MAP_WALL;
}

/* Cell of a world point (floor of x/cell). */
void map_cell_of(const struct map *m, double x, double y, int *cx, int *cy);
/* 1 if the world point lies inside a blocked cell. */
int map_point_blocked(const struct map *m, double x, double y);

const char *map_mode_name(enum map_mode mode);
const char *map_item_kind_name(enum map_item_kind k);
int map_find_waypoint(const struct map *m, const char *name);
int map_find_route(const struct map *m, const char *name);
int map_find_objective(const struct map *m, const char *name);

#endif

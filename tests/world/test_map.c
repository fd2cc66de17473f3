/*
 * test_map.c: the map text format. The shipped maps load and hold what
 * their papers need; malformed maps are rejected with the right line
 * number and leave the output untouched.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "map.h"

static int load(const char *name, struct map *m)
{
	char path[256], err[256] = "";
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "scenarios/maps/%s.map", name);
	f = fopen(path, "r");
	cr_assert_not_null(f, "cannot open %s (run from the source dir)", path);
	rc = map_read(f, m, err, sizeof(err));
	fclose(f);
	cr_assert_eq(rc, 0, "%s: %s", path, err);
	return rc;
}

static int count_routes(const struct map *m, const char *prefix)
{
	int n = 0;

	for (int i = 0; i < m->nroutes; i++)
		n += strncmp(m->routes[i].name, prefix, strlen(prefix)) == 0;
	return n;
}

Test(world_map, dust_has_two_sites_two_spawns_three_lanes)
{
	struct map m;
	int t = 0, ct = 0, doors = 0;

	load("dust", &m);
	cr_assert_eq(m.mode, MAP_DEFUSE);
	cr_assert_eq(m.cell, 64);
	cr_assert_eq(m.nteams, 2);
	cr_assert_eq(m.nobj, 2);
	cr_assert_geq(map_find_objective(&m, "A"), 0);
	cr_assert_geq(map_find_objective(&m, "B"), 0);
	for (int i = 0; i < m.nspawns; i++) {
		t += m.spawns[i].team == 1;
		ct += m.spawns[i].team == 2;
	}
	cr_assert_geq(t, 5);
	cr_assert_geq(ct, 5);
	/* three attacker lanes: banana, mid, apartments */
	cr_assert_geq(count_routes(&m, "T."), 3);
	for (int i = 0; i < m.w * m.h; i++)
		doors += m.cells[i] == MAP_DOOR;
	cr_assert_gt(doors, 0);
	map_free(&m);
}

Test(world_map, arena_items_respawn)
{
	struct map m;
	int kinds[4] = {0};

	load("arena", &m);
	cr_assert_eq(m.mode, MAP_DEATHMATCH);
	for (int i = 0; i < m.nitems; i++) {
		kinds[m.items[i].kind]++;
		cr_assert_gt(m.items[i].respawn_s, 0);
	}
	for (int k = 0; k < 4; k++)
		cr_assert_gt(kinds[k], 0, "no item of kind %d", k);
	map_free(&m);
}

Test(world_map, field_and_loop)
{
	struct map m;
	int r;

	load("field", &m);
	cr_assert_eq(m.mode, MAP_TEAMS);
	cr_assert_eq(m.nteams, 2);
	map_free(&m);
	/* three loop environments, as in the DHSM study */
	static const char *loops[] = {"loop", "loop2", "loop3"};

	for (int i = 0; i < 3; i++) {
		load(loops[i], &m);
		cr_assert_eq(m.mode, MAP_LOOP);
		r = map_find_route(&m, "loop");
		cr_assert_geq(r, 0);
		cr_assert(m.routes[r].loop);
		cr_assert_geq(m.routes[r].n, 4);
		map_free(&m);
	}
}

Test(world_map, coordinates_and_markers)
{
	static const char txt[] = "reckon-map 1\n"
				  "name tiny\n"
				  "cell 10\n"
				  "team 1 red\n"
				  "spawn 1 s\n"
				  "spawn 1 3 1\n"
				  "waypoint w 1 2\n"
				  "item health 25 30 h\n"
				  "grid\n"
				  "#####\n"
				  "#s..#\n"
				  "#.h+#\n"
				  "#####\n"
				  "end\n";
	struct map m;
	char err[128];

	cr_assert_eq(map_parse(txt, sizeof(txt) - 1, &m, err, sizeof(err)), 0,
		     "%s", err);
	cr_assert_eq(m.w, 5);
	cr_assert_eq(m.h, 4);
	cr_assert_eq(m.nspawns, 2);
	cr_assert_float_eq(m.spawns[0].x, 15, 1e-9);
	cr_assert_float_eq(m.spawns[0].y, 15, 1e-9);
	cr_assert_float_eq(m.spawns[1].x, 35, 1e-9);
	cr_assert_float_eq(m.waypoints[0].y, 25, 1e-9);
	cr_assert_eq(m.items[0].amount, 25);
	cr_assert_float_eq(m.items[0].respawn_s, 30, 1e-9);
	cr_assert(map_blocked(&m, 0, 0));
	cr_assert(!map_blocked(&m, 3, 2)); /* door is passable */
	cr_assert_eq(m.cells[2 * 5 + 3], MAP_DOOR);
	cr_assert(map_blocked(&m, -1, 2)); /* outside is wall */
	cr_assert(map_point_blocked(&m, 5, 5));
	cr_assert(!map_point_blocked(&m, 15, 15));
	map_free(&m);
}

struct bad_case {
	const char *text;
	int line;
	const char *needle;
};

Test(world_map, errors_name_the_line)
{
	static const struct bad_case cases[] = {
		{"name x\ncell 8\nspawn 0 1 1\ngrid\n...\nend\n", 1,
		 "reckon-map 1"},
		{"reckon-map 2\ncell 8\ngrid\n...\nend\n", 1, "version"},
		{"reckon-map 1\ncell 8\nspawn 0 1 0\nbogus 3\ngrid\n...\nend\n",
		 4, "unknown directive"},
		{"reckon-map 1\ncell 8\nspawn 0 z\ngrid\n...\nend\n", 3,
		 "marker"},
		{"reckon-map 1\ncell 8\nspawn 0 0 0\ngrid\n#..\nend\n", 3,
		 "inside a wall"},
		{"reckon-map 1\ncell 8\nspawn 3 1 0\ngrid\n...\nend\n", 3,
		 "not declared"},
		{"reckon-map 1\ncell 8\nspawn 0 1 0\ngrid\n..\n.?\nend\n", 6,
		 "unknown grid character"},
		{"reckon-map 1\ncell 8\nspawn 0 1 0\ngrid\n...\n", 4,
		 "not closed"},
		{"reckon-map 1\ncell -3\nspawn 0 1 0\ngrid\n...\nend\n", 2,
		 "cell size"},
		{"reckon-map 1\ncell 8\nitem health x 3 1 0\ngrid\n...\nend\n",
		 3, "usage: item"},
		{"reckon-map 1\ncell 8\nspawn 0 1 0\nroute r a "
		 "b\ngrid\n...\nend\n",
		 4, "unknown waypoint"},
		{"reckon-map 1\ncell 8\ngrid\n...\nend\n", 3, "no spawn"},
		{"reckon-map 1\ncell 8\nspawn 0 1 0\ngrid\n...\nend\nmore\n", 7,
		 "after the grid"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct map m;
		char err[200] = "", want[32];

		memset(&m, 0x5a, sizeof(m));
		int rc = map_parse(cases[i].text, strlen(cases[i].text), &m,
				   err, sizeof(err));

		cr_assert_eq(rc, -EINVAL, "case %zu accepted", i);
		snprintf(want, sizeof(want), "line %d:", cases[i].line);
		cr_assert(strncmp(err, want, strlen(want)) == 0,
			  "case %zu: got '%s', want '%s...'", i, err, want);
		cr_assert(strstr(err, cases[i].needle), "case %zu: '%s'", i,
			  err);
		/* output untouched */
		cr_assert_eq(m.w, 0x5a5a5a5a);
	}
}

Test(world_map, nul_and_garbage_do_not_crash)
{
	char buf[512];
	struct map m;
	char err[100];

	memset(buf, 'A', sizeof(buf));
	cr_assert_eq(map_parse(buf, sizeof(buf), &m, err, sizeof(err)),
		     -EINVAL);
	buf[10] = '\0';
	cr_assert_eq(map_parse(buf, sizeof(buf), &m, err, sizeof(err)),
		     -EINVAL);
	cr_assert_eq(map_parse("", 0, &m, err, sizeof(err)), -EINVAL);
}

/* map_walls_in counts a rectangle's wall cells as a scan of it does, and
 * calls a rectangle that leaves the grid walled. */
Test(world_map, wall_counts_match_a_scan)
{
	struct map m;

	load("dust", &m);
	for (int y0 = 0; y0 < m.h; y0 += 3)
		for (int x0 = 0; x0 < m.w; x0 += 4)
			for (int y1 = y0; y1 < m.h; y1 += 5)
				for (int x1 = x0; x1 < m.w; x1 += 7) {
					long n = 0;

					for (int y = y0; y <= y1; y++)
						for (int x = x0; x <= x1; x++)
							n += m.cells[y * m.w + x] ==
							     MAP_WALL;
					cr_assert_eq(map_walls_in(&m, x0, y0,
								  x1, y1),
						     n);
				}
	cr_assert_eq(map_walls_in(&m, -1, 0, 2, 2), -1);
	cr_assert_eq(map_walls_in(&m, 0, 0, m.w, 2), -1);
	map_free(&m);
}

/*
 * testmap.h: helpers for the world tests: build a map from grid text or
 * at random (walls with probability p, seeded), and load a shipped map.
 */
#ifndef RECKON_TEST_WORLD_TESTMAP_H
#define RECKON_TEST_WORLD_TESTMAP_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "map.h"
#include "rng.h"

static inline void tm_from_grid(struct map *m, double cell, const char *grid)
{
	char *txt = malloc(strlen(grid) + 256), err[200] = "";

	cr_assert_not_null(txt);
	sprintf(txt,
		"reckon-map 1\nname t\ncell %g\nspawn 0 0 0\ngrid\n%s\nend\n",
		cell, grid);
	/* the spawn at cell (0,0) must be floor: tests keep it so */
	cr_assert_eq(map_parse(txt, strlen(txt), m, err, sizeof(err)), 0, "%s",
		     err);
	free(txt);
}

static inline void tm_random(struct map *m, int w, int h, double p,
			     uint64_t seed, double cell)
{
	char *g = malloc((size_t)(w + 1) * (size_t)h + 1), *q = g;
	struct wrng r;

	wrng_seed(&r, seed, 99);
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++)
			*q++ = (x == 0 && y == 0) || wrng_uniform(&r) >= p
				       ? '.'
				       : '#';
		*q++ = '\n';
	}
	q[-1] = '\0';
	tm_from_grid(m, cell, g);
	free(g);
}

static inline void tm_load(struct map *m, const char *name)
{
	char path[256], err[256] = "";
	FILE *f;

	snprintf(path, sizeof(path), "scenarios/maps/%s.map", name);
	f = fopen(path, "r");
	cr_assert_not_null(f, "cannot open %s", path);
	cr_assert_eq(map_read(f, m, err, sizeof(err)), 0, "%s", err);
	fclose(f);
}

#endif

/*
 * fuzz_map.c: libFuzzer target for the map parser (built with
 * -DRECKON_FUZZ=ON and clang). Any input must give 0 or -EINVAL/-ENOMEM,
 * never a crash, a leak or undefined behaviour; a parsed map must be
 * usable by line of sight and A*.
 */
#include <stddef.h>
#include <stdint.h>

#include "geom.h"
#include "map.h"
#include "nav.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct map m;
	char err[128];

	if (map_parse((const char *)data, size, &m, err, sizeof(err)) == 0) {
		struct nav n;

		(void)geom_los(&m, m.spawns[0].x, m.spawns[0].y, 1.5, 2.5);
		if (nav_init(&n, &m) == 0) {
			struct nav_pt pts[32];
			int np;

			(void)nav_path(&n, m.spawns[0].x, m.spawns[0].y,
				       m.spawns[m.nspawns - 1].x,
				       m.spawns[m.nspawns - 1].y, 4, pts, 32,
				       &np);
			nav_free(&n);
		}
		map_free(&m);
	}
	return 0;
}

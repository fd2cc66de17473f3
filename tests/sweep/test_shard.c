/*
 * test_shard.c: --shard I/N parsing and the partition of a grid into
 * shards (daemon/sweep/sweep_out.c): for every N up to 17 and grids of 0 to
 * 200 points, each point belongs to exactly one shard, and the shards'
 * sizes differ by at most one.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdint.h>

#include "sweep_int.h"

Test(sweep_shard, parse_accepts_i_of_n_only)
{
	unsigned i = 99, n = 99;

	cr_assert_eq(sweep_shard_parse("0/1", &i, &n), 0);
	cr_assert_eq(i, 0);
	cr_assert_eq(n, 1);
	cr_assert_eq(sweep_shard_parse("2/3", &i, &n), 0);
	cr_assert_eq(i, 2);
	cr_assert_eq(n, 3);
	static const char *const bad[] = {"3/3", "1/0",	      "-1/3", "1/",
					  "/3",	 "1",	      "1/3x", "a/b",
					  "",	 "1/2000000", " 1/3", "1/ 3"};
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		i = n = 77;
		cr_assert_eq(sweep_shard_parse(bad[k], &i, &n), -EINVAL, "%s",
			     bad[k]);
		cr_assert_eq(i, 77, "written on failure");
		cr_assert_eq(n, 77);
	}
}

Test(sweep_shard, every_point_in_exactly_one_shard)
{
	for (unsigned n = 1; n <= 17; n++) {
		for (uint64_t points = 0; points <= 200; points++) {
			uint64_t size[17] = {0};

			for (uint64_t p = 0; p < points; p++) {
				unsigned owners = 0;

				for (unsigned i = 0; i < n; i++)
					if (sweep_in_shard(p, i, n)) {
						owners++;
						size[i]++;
					}
				cr_assert_eq(owners, 1,
					     "point %llu of %llu, %u shards",
					     (unsigned long long)p,
					     (unsigned long long)points, n);
			}
			for (unsigned i = 0; i < n; i++)
				cr_assert(size[i] == points / n ||
						  size[i] == points / n + 1,
					  "balanced");
		}
	}
	cr_assert_not(sweep_in_shard(0, 0, 0), "no shards, no points");
}

/*
 * merge.c: `reckonctl merge OUT SHARD_DIR...`. It combines the
 * directories of `reckond sweep --shard I/N` runs into one sweep
 * directory: the shards must come from the same scenario and grid
 * (scenario.ini and grid.csv byte-equal), every point must be present in
 * exactly one shard, and the points are copied into OUT/points/. Then
 * sweep.csv and sweep.json are assembled by the same code as an
 * unsharded sweep, so the result equals it byte for byte; plots and
 * index.html follow.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "results.h"
#include "sweep.h"
#include "sweep_int.h"

static int same_file(const char *a_dir, const char *b_dir, const char *name)
{
	char a[PATH_MAX], b[PATH_MAX];
	int rc;

	if (results_path(a, sizeof(a), "%s/%s", a_dir, name) < 0 ||
	    results_path(b, sizeof(b), "%s/%s", b_dir, name) < 0)
		return -ENAMETOOLONG;
	rc = sweep_file_cmp(a, b);
	if (rc < 0)
		fprintf(stderr, "reckonctl merge: %s or %s: %s\n", a, b,
			strerror(-rc));
	else if (rc > 0)
		fprintf(stderr,
			"reckonctl merge: %s and %s differ: not shards of "
			"the same sweep\n",
			a, b);
	return rc;
}

int sweep_merge(int argc, char *argv[])
{
	const char *out;
	char src[PATH_MAX], dst[PATH_MAX], rows[PATH_MAX];
	uint64_t np, missing = 0;
	int *owner = NULL, rc, plots = 1, a = 0;
	struct stat st;

	if (argc > 0 && strcmp(argv[0], "--no-plots") == 0) {
		plots = 0;
		a = 1;
	}
	if (argc - a < 2) {
		fprintf(stderr, "usage: reckonctl merge [--no-plots] OUT "
				"SHARD_DIR...\n");
		return 2;
	}
	out = argv[a];
	argv += a + 1;
	argc -= a + 1;
	if ((rc = sweep_grid_points(argv[0], &np)) < 0) {
		fprintf(stderr, "reckonctl merge: %s/grid.csv: %s\n", argv[0],
			rc == -EINVAL ? "malformed" : strerror(-rc));
		return 1;
	}
	for (int i = 1; i < argc; i++)
		if (same_file(argv[0], argv[i], "scenario.ini") ||
		    same_file(argv[0], argv[i], "grid.csv"))
			return 1;
	owner = calloc(np, sizeof(*owner));
	if (owner == NULL)
		return 1;
	/* Every point in exactly one shard. */
	for (int i = 0; i < argc; i++)
		for (uint64_t p = 0; p < np; p++) {
			if (sweep_point_dir(argv[i], p, src, sizeof(src)) < 0 ||
			    results_path(rows, sizeof(rows), "%s/rows.csv",
					 src) < 0)
				goto fail;
			if (stat(rows, &st) < 0)
				continue;
			if (owner[p]) {
				fprintf(stderr,
					"reckonctl merge: point %" PRIu64
					" is in both %s and %s\n",
					p, argv[owner[p] - 1], argv[i]);
				goto fail;
			}
			owner[p] = i + 1;
		}
	for (uint64_t p = 0; p < np; p++)
		if (!owner[p]) {
			fprintf(stderr,
				"reckonctl merge: point %" PRIu64
				" is in no shard (a shard missing or "
				"failed?)\n",
				p);
			goto fail;
		}
	if ((rc = results_mkdirs(out)) < 0) {
		fprintf(stderr, "reckonctl merge: %s: %s\n", out,
			strerror(-rc));
		goto fail;
	}
	for (const char *const *f =
		     (const char *const[]){"scenario.ini", "grid.csv", NULL};
	     *f; f++) {
		if (results_path(src, sizeof(src), "%s/%s", argv[0], *f) < 0 ||
		    results_path(dst, sizeof(dst), "%s/%s", out, *f) < 0)
			goto fail;
		if ((rc = sweep_copy_file(src, dst)) < 0) {
			fprintf(stderr, "reckonctl merge: %s: %s\n", dst,
				strerror(-rc));
			goto fail;
		}
	}
	for (uint64_t p = 0; p < np; p++) {
		if (sweep_point_dir(argv[owner[p] - 1], p, src, sizeof(src)) <
			    0 ||
		    sweep_point_dir(out, p, dst, sizeof(dst)) < 0)
			goto fail;
		if ((rc = sweep_copy_tree(src, dst)) < 0) {
			fprintf(stderr, "reckonctl merge: %s -> %s: %s\n", src,
				dst, strerror(-rc));
			goto fail;
		}
	}
	if ((rc = sweep_assemble(out, np, &missing)) < 0) {
		fprintf(stderr,
			"reckonctl merge: %s/sweep.csv not written: point "
			"%" PRIu64 ": rows.csv %s\n",
			out, missing,
			rc == -EINVAL ? "is malformed" : strerror(-rc));
		goto fail;
	}
	if (plots)
		plot_sweep(out);
	if ((rc = sweep_table(stdout, out, SWEEP_TABLE_ROWS)) < 0)
		fprintf(stderr,
			"reckonctl merge: the table of %s/sweep.csv: %s\n", out,
			strerror(-rc));
	fflush(stdout);
	fprintf(stderr,
		"reckonctl merge: %" PRIu64 " points from %d shards: "
		"%s/sweep.csv\n",
		np, argc, out);
	free(owner);
	return 0;
fail:
	free(owner);
	return 1;
}

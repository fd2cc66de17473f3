/*
 * sweep_int.h: what the files of the sweeps share: the worker pool
 * (sweep_pool.c) and the files of a sweep directory (sweep_out.c). The
 * public interface is sweep.h.
 */
#ifndef RECKON_SWEEP_INT_H
#define RECKON_SWEEP_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "scenario.h"

/*
 * sweep_pool.c: running the points of a sweep on parallel workers
 * (sweep_pool.c). Each point runs in its own forked child, at most jobs
 * at a time; the parent shows a progress bar with an ETA on stderr and
 * collects the exit statuses.
 */

/* Runs in the child for one point; returns its exit status (0 = ok). */
typedef int (*sweep_point_fn)(uint64_t point, void *arg);

struct sweep_pool_result {
	uint64_t done, failed;
	uint64_t first_failed; /* valid when failed > 0 */
	int interrupted;       /* SIGINT/SIGTERM stopped the pool */
};

/* Run fn for every point in points[0..n) on up to jobs children.
 * quiet: no progress output. Returns 0 or -errno (fork failed). */
int sweep_pool_run(const uint64_t *points, size_t n, unsigned jobs, int quiet,
		   sweep_point_fn fn, void *arg, struct sweep_pool_result *res);

/*
 * sweep_out.c: the files of a sweep directory and the functions that
 * write and combine them (sweep_out.c). A sweep directory holds
 * scenario.ini (the canonical base scenario with its [sweep]), grid.csv
 * (every point of the grid and its axis values), shard.txt (which slice
 * it ran), points/pNNNNNN/ (one run directory per point: repetitions,
 * summary.csv, rows.csv) and, once every point is there, sweep.csv and
 * sweep.json. Nothing written here carries a time stamp or a host name,
 * so a merge of shards equals the unsharded run byte for byte.
 */

/* "I/N" with 0 <= I < N <= 1000000. Returns 0 or -EINVAL. */
int sweep_shard_parse(const char *s, unsigned *i, unsigned *n);

/* 1 when grid point `point` belongs to shard i of n (point % n == i). */
int sweep_in_shard(uint64_t point, unsigned i, unsigned n);

/* dir/points/pNNNNNN into buf. 0 or -ENAMETOOLONG. */
int sweep_point_dir(const char *dir, uint64_t point, char *buf, size_t len);

/* scenario.ini, grid.csv and shard.txt of a sweep of sc into dir (which
 * exists). */
int sweep_write_head(const char *dir, const struct scenario *sc, unsigned i,
		     unsigned n);

/* rows.csv of one finished point: its summary.csv (in run_dir) with the
 * point index and axis values put in front of every row. */
int sweep_point_rows(const char *point_dir, const char *run_dir,
		     const struct scenario *sc, uint64_t point);

/* sweep.csv and sweep.json of dir from the rows.csv of points 0..npoints-1,
 * in point order. -ENOENT when a point has no rows.csv, -EINVAL when one
 * is malformed (rows not matching the header, a header unlike the other
 * points'); *missing is then that point. Nothing is written on error. */
int sweep_assemble(const char *dir, uint64_t npoints, uint64_t *missing);

/* The table a sweep ends with: from dir/sweep.csv, one line per point x
 * predictor (at most max_rows, then how many more): the point, its axis
 * values, the predictor, updates/s per entity, delivery, mean and p95
 * error with their 95% intervals. 0 or -errno. */
int sweep_table(FILE *f, const char *dir, size_t max_rows);

/* The rows `reckond sweep` and `reckonctl merge` print. */
#define SWEEP_TABLE_ROWS 100

/* Copy one regular file (mode 0644). 0 or -errno. */
int sweep_copy_file(const char *src, const char *dst);

/* Copy the tree src into dst (created), regular files and directories
 * only. 0 or -errno. */
int sweep_copy_tree(const char *src, const char *dst);

/* Points of the grid, read back from dir/grid.csv (the merge has no
 * scenario). 0 or -errno; -EINVAL when grid.csv is malformed. */
int sweep_grid_points(const char *dir, uint64_t *npoints);

/* Byte-compare two files: 0 when equal, 1 when different, -errno. */
int sweep_file_cmp(const char *a, const char *b);

#endif

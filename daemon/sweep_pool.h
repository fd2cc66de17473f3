/*
 * sweep_pool.h: running the points of a sweep on parallel workers
 * (sweep_pool.c). Each point runs in its own forked child, at most jobs
 * at a time; the parent shows a progress bar with an ETA on stderr and
 * collects the exit statuses.
 */
#ifndef RECKON_SWEEP_POOL_H
#define RECKON_SWEEP_POOL_H

#include <stddef.h>
#include <stdint.h>

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

#endif

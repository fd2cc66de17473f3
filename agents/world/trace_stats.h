/*
 * trace_stats.h: what a trace's movement looks like, in numbers: speed
 * and turn-rate distributions, the share of living time spent moving,
 * stopped, fighting, walking and crouching, "paths" (a life split at
 * position jumps, as in the led-reckoning paper) and movement segments.
 * Definitions, with the thresholds below, are in docs/world.md.
 */
#ifndef RECKON_WORLD_TRACE_STATS_H
#define RECKON_WORLD_TRACE_STATS_H

#include <stddef.h>

#include "trace.h"

struct trace_stats_opts {
	double move_speed;     /* u/s: moving at or above, default 10 */
	double seg_turn_deg;   /* heading change ending a segment, default 45 */
	double jump_u;	       /* per-sample jump that splits a path, 100 */
	double min_path_s;     /* paths shorter than this are dropped, 5 */
	double fight_window_s; /* fighting: fired or hit within this, 1 */
};

struct dist {
	size_t n;
	double mean, p10, p50, p90, p99, max;
};

#define TRACE_STATS_SPEED_BINS 11 /* 25 u/s wide; the last is >= 250 */

struct trace_stats {
	size_t entities, samples, alive_samples;
	double duration_s;
	struct dist speed;	  /* u/s, alive samples */
	struct dist turn_view;	  /* deg/s of yaw between samples */
	struct dist turn_heading; /* deg/s of the velocity direction */
	double speed_hist[TRACE_STATS_SPEED_BINS]; /* fraction per bin */
	double frac_moving, frac_stopped, frac_fighting, frac_walk, frac_crouch;
	int have_events;
	struct dist path_s;  /* path durations (s) */
	struct dist seg_len; /* segment lengths (u) */
	struct dist seg_s;   /* segment durations (s) */
};

void trace_stats_defaults(struct trace_stats_opts *o);

/* ev may be NULL (then frac_fighting is 0 and have_events 0). */
int trace_stats(const struct trace *t, const struct trace_events *ev,
		const struct trace_stats_opts *o, struct trace_stats *out);

#endif

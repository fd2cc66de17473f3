/*
 * truth.h: the movement every role of a run agrees on. Players replay it,
 * observers measure against it. The trace is cut into paths exactly as
 * the offline replay cuts it (agents/predict/replay.h: one living entity,
 * no teleport, short paths dropped), and every path gets the predictor
 * context replay gives it (map bounds, and its team's velocity trend map
 * without the path itself, for led reckoning), so that a zero-latency,
 * lossless run sends the same updates as `reckon-agent replay`; with
 * role_truth_set_map the contexts also see the static map: its bounds,
 * line of sight and items (predict/map_view.h). Times here, including
 * the t_ns of the paths' samples (rebased when built), are relative to
 * the trace's first sample, which plays at the run's t0. Pure.
 */
#ifndef RECKON_ROLE_TRUTH_H
#define RECKON_ROLE_TRUTH_H

#include <stddef.h>
#include <stdint.h>

#include "predict/predict.h"
#include "predict/replay.h"
#include "predict/trend.h"
#include "world/map.h"
#include "world/trace.h"

struct role_truth {
	struct replay_set set;
	struct replay_opts opts;
	/* t_ns of the source trace's first sample; the samples of set are
	 * rebased by it, so set's times start at 0 */
	int64_t origin_ns;
	int64_t tick_ns;
	int64_t end_ns; /* relative time just after the last tick */
	struct predict_trend *trend; /* one per path */
	struct predict_ctx *ctx;     /* one per path, points into trend */
	uint32_t *entities; /* distinct entities of the paths, sorted */
	size_t n_entities;
	/* the trace's map (role_truth_set_map), owned, or NULL; while set,
	 * every ctx has its bounds, line of sight and items */
	struct map *map;
	struct predict_item *items; /* owned: the map's items, all present */
	double *respawn_s;	    /* owned: their respawn times, s */
	size_t n_items;
};

/* Build from t with replay options o (NULL: replay_opts_init defaults).
 * -EINVAL for an empty trace or a bad tick, -ENOMEM. */
int role_truth_build(const struct trace *t, const struct replay_opts *o,
		     struct role_truth *out);
/* The same, with led trend maps built from another session, train (its
 * paths of each subject's team, all of them), instead of from t minus the
 * subject's own path. train == NULL is role_truth_build. */
int role_truth_build_trained(const struct trace *t, const struct trace *train,
			     const struct replay_opts *o,
			     struct role_truth *out);
void role_truth_free(struct role_truth *tr);
/* Give the truth the trace's map (ownership passes; freed with the
 * truth, also on error): every path's context then has the map's bounds,
 * its line of sight (dhsm, ant) and its items, all present (ant, is, the
 * observer's peer book). m NULL takes the map away. 0 or -ENOMEM. */
int role_truth_set_map(struct role_truth *tr, struct map *m);

/* Relative time of sample k of path i. */
int64_t role_truth_time(const struct role_truth *tr, size_t path, size_t k);

/* Index of entity in tr->entities, or -1. */
long role_truth_entity_index(const struct role_truth *tr, uint32_t entity);

/* The path of entity whose samples span relative time t (sample time
 * within [first, last]); -ENOENT if none. */
int role_truth_find_path(const struct role_truth *tr, uint32_t entity,
			 int64_t t, size_t *path);

#endif

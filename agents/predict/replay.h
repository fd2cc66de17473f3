/*
 * replay.h: offline replay of a predictor on recorded movement, as
 * Steele's paper (000) ran it: zero latency, every update applied in the
 * frame it is sent, the receiver's displayed position compared with the
 * true one every tick. A trace is cut into paths (one entity, alive, no
 * teleport); each path is run through a fresh sender and receiver. The
 * trend maps of led reckoning are built from the other paths of the
 * subject's team (leave-one-out). Pure: the caller reads the trace and
 * prints; simulator and agents reuse the loop.
 */
#ifndef RECKON_PREDICT_REPLAY_H
#define RECKON_PREDICT_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "predict/predict.h"
#include "predict/trend.h"
#include "world/trace.h"

struct map;

struct replay_opts {
	double jump;	     /* split a path where a tick moves more, u (A10) */
	double min_duration; /* drop shorter paths, s (A10: 5 s) */
	int trend_nx, trend_ny; /* trend grid (100 x 100) */
	int team_filter;	/* trend from the subject's team only */
	int leave_one_out;	/* the subject path never trains its map */
	/* the trace's map, or NULL: every path's ctx.map.world, with its
	 * line of sight (geom_los_view) for the predictors that ask it
	 * (dhsm's gate, ant) */
	const struct map *world;
};

void replay_opts_init(struct replay_opts *o);

/* One path: consecutive ticks of one living entity. */
struct replay_path {
	const struct trace_sample *s;
	size_t n;
	uint32_t entity;
	uint8_t team;
	/* per sample, the index in base of its goal's sample
	 * (REPLAY_NO_GOAL: none); NULL: no goals */
	const uint32_t *goal;
	const struct trace_sample *base;
};

#define REPLAY_NO_GOAL UINT32_MAX

/* The goal of sample k of a path (ctx.goal and ctx.goal_vel for dhsm):
 * the position and velocity, in the same tick, of the nearest living
 * entity of another team (any other entity when the subject's team is
 * 0). This is paper 004's dynamic goal, the opponent's position
 * (docs/predictors.md). 1 and pos, vel written; 0 if there is none. */
int replay_path_goal(const struct replay_path *p, size_t k, double pos[3],
		     double vel[3]);

/* The paths of a trace, with per-entity copies of the samples. */
struct replay_set {
	struct trace_sample *buf;
	uint32_t *goal; /* per sample of buf, see replay_path_goal */
	struct replay_path *path;
	size_t n_paths;
	int64_t tick_ns;
	double lo[2], hi[2]; /* X-Y bounds of every sample (A9) */
	uint64_t dropped_short, dropped_dead;
};

int replay_set_build(const struct trace *t, const struct replay_opts *o,
		     struct replay_set *out);
void replay_set_free(struct replay_set *set);

/* The true state at sample k of a path: yaw (deg) -> psi (rad), world
 * acceleration and yaw rate by backward differences (0 at k = 0; A8). */
void replay_state_at(const struct replay_path *p, size_t k,
		     struct predict_state *out);

/* A trend map over the set's bounds from every path of team (all teams
 * if team < 0), in the grid of o. */
int replay_trend_build(const struct replay_set *set, int team,
		       const struct replay_opts *o, struct predict_trend *out);
/* Add (+1) or remove (-1) one path's samples. */
int replay_trend_path(struct predict_trend *m, const struct replay_path *p,
		      int sign);

struct replay_result {
	uint64_t ticks;
	uint64_t updates; /* sent, not counting the initial state (A11) */
	uint64_t by_reason[PREDICT_REASON_COUNT];
	uint64_t back_to_back; /* updates sent the tick after another one */
	double duration;       /* ticks * tick, s (A12) */
	double err_mean;       /* mean |x - Q| over ticks, 3-D (A7) */
	double err_xy_mean;
	double err_p95, err_max;
	uint64_t blind; /* together mode: ticks with nothing to show */
};

/* Run one path at zero latency. err, when not NULL, receives the n
 * per-tick errors. */
int replay_run_path(const struct predict_params *par,
		    const struct predict_ctx *ctx, const struct replay_path *p,
		    int64_t tick_ns, double *err, struct replay_result *out);

/* Mean, nearest-rank p95 and max of n values (sorted in place). */
void replay_error_summary(double *v, size_t n, double *mean, double *p95,
			  double *max);

/* Run every path of set (led: trend of its team, leave-one-out as o says).
 * res has set->n_paths entries; errs, when not NULL, has one slot per
 * sample of the set (path i's errors start at the sum of earlier n). */
int replay_run_set(const struct replay_set *set, const struct replay_opts *o,
		   const struct predict_params *par, struct replay_result *res,
		   double *errs);

/* Steele's experiment (paper 000 §VI): `subjects` distinct paths drawn
 * with a seeded generator, each run with params a (DR) and b (led). */
struct replay_experiment {
	size_t n;
	size_t *subject;       /* path indices */
	double *ups_a, *ups_b; /* updates/s per subject */
	double *err_a, *err_b; /* mean error per subject */
};

int replay_experiment_run(const struct replay_set *set,
			  const struct replay_opts *o,
			  const struct predict_params *a,
			  const struct predict_params *b, uint64_t seed,
			  size_t subjects, struct replay_experiment *out);
void replay_experiment_free(struct replay_experiment *e);

/* ---- together: every entity of a trace at once ---- */

/* One displayed sample of the together mode, for per-tick analyses. */
struct replay_tick {
	size_t path;
	uint32_t entity;
	int64_t t_ns;
	int64_t since_ns; /* since the send time of the newest update the
			     path's receiver applied */
	double shown[3], truth[3];
};

/* What every client knows besides the updates, and the run's options.
 * Zero it, then set what applies. */
struct replay_world {
	struct predict_map_view map;	  /* lo == hi: the set's X-Y bounds */
	const struct predict_item *items; /* the map's items */
	const double *respawn_s;	  /* their respawn times, s */
	size_t n_items;
	double pickup_r; /* pickup inference radius, u (peers.h) */
	/* updates of mute_entity sent after mute_after_ns are lost */
	int mute;
	uint32_t mute_entity;
	int64_t mute_after_ns;
	void (*on_tick)(void *arg, const struct replay_tick *k);
	void *arg;
};

/*
 * Every path of set at once, in time order, at zero latency and without
 * loss (but for mute). Each tick: (1) every path alive at t gets its true
 * state, its sender seeing ctx.peers/ctx.items as the book held them
 * before this tick; (2) the updates sent at t enter the book
 * (predict_peerbook_apply: the newest per entity, as received), in path
 * order; (3) each goes to its path's receiver, whose ctx now holds the
 * book after (2); (4) every path's display is sampled. One book serves
 * every client: at zero latency without loss they all receive the same.
 * No led trend maps are given. res and errs as replay_run_set; a tick
 * whose receiver has no update yet (mute) is counted in res.blind and its
 * error slot is 0.
 */
int replay_run_together(const struct replay_set *set,
			const struct replay_world *w,
			const struct predict_params *par,
			struct replay_result *res, double *errs);

/* ---- fixed-lag replay (replay_lag.c): paper 003's evaluation and ours ----
 *
 * Every entity of the set plays at once; what an entity's sender sends
 * reaches every receiver (and every sender's context) lag_ns later, and
 * each receiver's ctx.peers holds the other entities' last *received*
 * states, never the truth. Two modes:
 *  - every_tick (the paper's AEE and hits, paper 003 §4.5, eq. 19): each
 *    entity sends its full state (position, velocity, health, ammo) every
 *    tick, so at tick tau the receiver predicts from LKPT = tau - lag;
 *    predictions whose window [tau - lag, tau] is not inside one life are
 *    skipped; every stride-th tick is scored;
 *  - threshold (ours): each entity runs the predictor's own sender; the
 *    receiver's displayed position is scored every frame from the first
 *    arrival, and updates and bytes are counted.
 */
struct replay_lag_opts {
	int64_t lag_ns;
	int every_tick;
	double hit_threshold;	 /* u: a hit is an error <= this */
	size_t stride;		 /* every_tick: score every stride-th tick */
	size_t update_bytes;	 /* on the wire per update (for bytes/s) */
	const struct map *world; /* for OAEKB, or NULL */
	/* optional: every scored display (entity, time, shown position) */
	void (*on_display)(void *arg, uint32_t entity, int64_t t_ns,
			   const double pos[3]);
	void *arg;
};

struct replay_lag_result {
	int64_t lag_ns;
	uint64_t n, hits, skipped;    /* scored predictions / frames */
	double aee, median, p95, max; /* error over the scored ones */
	uint64_t updates;	      /* sent, not counting the first state */
	double duration;	      /* s of entity life played */
	double updates_per_s, bytes_per_s;
};

void replay_lag_opts_init(struct replay_lag_opts *o);
/* Distinct non-zero teams of the set's paths (0: a deathmatch trace,
 * where EKB has no teammates and falls back to TDM). */
int replay_set_teams(const struct replay_set *set);
/* Run par over every path of set with the fixed lag of o. -EINVAL bad
 * arguments, -ENOMEM, or a predictor's error. Deterministic. */
int replay_lag_run(const struct replay_set *set,
		   const struct replay_lag_opts *o,
		   const struct predict_params *par,
		   struct replay_lag_result *out);

#endif

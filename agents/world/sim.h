/*
 * sim.h: the bot world. Runs N seeded bots on a map at a fixed tick with
 * the movement physics of move.h, the game rules of the map's mode
 * (bomb-defusal rounds, deathmatch with respawning items, team battle,
 * waypoint loop with pursuers) and a per-bot personality, and records a
 * trace sample of every bot at every tick plus the events (fire, hit,
 * pickup, death, spawn). Bots decide from what they can see (line of
 * sight, field of view, a reaction time); they use no predictor's model.
 * Pure: a run is a function of the map and the config, seed included.
 */
#ifndef RECKON_WORLD_SIM_H
#define RECKON_WORLD_SIM_H

#include "map.h"
#include "move.h"
#include "trace.h"

struct sim_config {
	uint64_t seed;
	int nbots;
	double duration_s;
	int tick_hz;	       /* simulation and sampling rate, default 64 */
	struct move_params mp; /* movement constants (move_defaults) */
};

#define SIM_MAX_BOTS 64

/* What the bots did that the trace does not show: the fall-back-to-cover
 * cycle of docs/world.md (fall back, peek, duck back), for tests and
 * diagnostics. */
struct sim_stats {
	long fallbacks; /* a hurt bot left a fight for cover */
	long peeks;	/* it walked back out from cover to look */
	long duckbacks; /* it fought from a peek, then went back to cover */
	int max_peeks;	/* the most peeks in one fall-back */
};

void sim_config_defaults(struct sim_config *c);

/* Run the world and append to trace (tick, map name and seed are set)
 * and ev. Returns 0, -EINVAL for a bad config (nbots 1..SIM_MAX_BOTS,
 * duration > 0, tick 1..1000) or -ENOMEM. */
int sim_run(const struct map *m, const struct sim_config *c, struct trace *t,
	    struct trace_events *ev);
/* The same, also filling *st (written only on success). */
int sim_run_stats(const struct map *m, const struct sim_config *c,
		  struct trace *t, struct trace_events *ev,
		  struct sim_stats *st);

/* The same run a few ticks at a time, for a host that needs the game as
 * it is played rather than up front (an fps-client): sim_open checks the
 * config as sim_run does, sets t's tick, map name and seed and starts the
 * first round (its spawn events go to ev) (0, -EINVAL, -ENOMEM);
 * sim_step_until runs every tick whose time (ns from
 * the first) is below t_ns, appending to t and ev, and returns 0 or the
 * first error, which it keeps returning; sim_next_ns is the time of the
 * next tick, INT64_MAX after the last; sim_ticks is how many ticks the
 * whole run has (each records one sample of every bot). Ticks run in
 * chunks give exactly sim_run's trace. c is copied; m must outlive the
 * run. */
struct sim;
int sim_open(const struct map *m, const struct sim_config *c, struct trace *t,
	     struct trace_events *ev, struct sim **out);
int sim_step_until(struct sim *s, int64_t t_ns, struct trace *t,
		   struct trace_events *ev);
int64_t sim_next_ns(const struct sim *s);
long sim_ticks(const struct sim *s);
void sim_close(struct sim *s);

#endif

/*
 * agent_io.h: what both hosts of the reckon-agent roles share beyond the
 * pure role machines: the role options (one parser, so `reckon-agent
 * player ARGS` and the simulator read the same ARGS identically), the
 * truth (a trace file or in-process bot generation, cut into paths), and
 * the metrics files the roles leave in the run directory. Not pure: it
 * reads files and the environment and writes files; it never prints,
 * messages go into the caller's buffer.
 */
#ifndef RECKON_AGENT_IO_H
#define RECKON_AGENT_IO_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "predict/predict.h"
#include "proto/game_coords.h"
#include "role/role.h"
#include "role/truth.h"
#include "world/trace.h"

#define SHELL_MAX_DEST	   64
#define SHELL_MAX_ENTITIES 256
#define AGENT_DEFAULT_PORT 47000

enum shell_role {
	SHELL_PLAYER,
	SHELL_OBSERVER,
	SHELL_RELAY,
};

struct shell_opts {
	enum shell_role role;
	/* truth */
	const char *trace_path;
	const char *map;
	int bots, tick_hz;
	double duration_s;
	uint64_t seed;
	int seed_set;
	/* led trend maps from another session instead of this run's other
	 * paths: a trace file, or train_s seconds generated in process */
	const char *train_path;
	double train_s;
	/* predictors, one lane each */
	struct predict_params lanes[ROLE_MAX_LANES];
	const char *lane_spec[ROLE_MAX_LANES];
	/* what results call the lane: the instance name of
	 * --predictor NAME=TYPE:..., else the predictor's name */
	char lane_name[ROLE_MAX_LANES][32];
	size_t n_lanes;
	/* network */
	struct sockaddr_in dest[SHELL_MAX_DEST];
	uint16_t n_dest;
	struct in_addr bind;
	uint16_t port; /* lane L is port + L */
	const char *topology;
	/* player */
	uint32_t entities[SHELL_MAX_ENTITIES];
	size_t n_entities;
	int player_index, players;
	/* observer */
	double threshold;
	double linger_s;
	/* placement of the map on the earth (--geo-origin, --geo-scale) */
	struct reckon_geo geo;
	/* per-frame samples for `reckonctl view`, Hz (0: none) */
	double samples_hz;
	/* relay: seconds after t0 to stop (0: when signalled) */
	double stop_s;
	/* run context */
	const char *run_dir, *host, *condition;
	int64_t start_ns;
	int start_set;
	int start_relative; /* start_ns came from "+MS" (now + MS) */
	unsigned rep;
};

/* Role by name ("player", "observer", "relay"); -ENOENT for others. */
int agent_role_parse(const char *name, enum shell_role *out);

/* Defaults of every option; name is the default host name. */
void agent_opts_init(struct shell_opts *o, enum shell_role role,
		     const char *name);

/* Run context from RECKON_RUN_DIR, RECKON_HOST, RECKON_START_NS,
 * RECKON_SEED and RECKON_REP ("+MS" start times count from now_ns).
 * 0, or -EINVAL with the reason in err. */
int agent_opts_env(struct shell_opts *o, int64_t now_ns, char *err,
		   size_t errlen);

/* Parse the role's options argv[1..argc-1] (argv[0] is the command name,
 * skipped) over what o holds, then check them together. Strings in o
 * point into argv, which must outlive o. Not reentrant (getopt_long).
 * 0, or -EINVAL with a one-line reason in err. */
int agent_opts_parse(struct shell_opts *o, int argc, char *argv[],
		     int64_t now_ns, char *err, size_t errlen);

/* The option summary for usage messages (static text). */
const char *agent_opts_usage(void);

/* The names of the maps agent_map_load finds by name (each once, the
 * first directory's first): at most max into names; returns how many. */
#define AGENT_MAP_NAME_MAX 32
size_t agent_map_names(char (*names)[AGENT_MAP_NAME_MAX], size_t max);

/* The truth of a run: agent_trace_load, plus the training session of
 * --trend-train / --trend-trace when given, into role_truth_build_trained,
 * with the map of --map or of the trace's "# map=" (role_truth_set_map:
 * bounds, line of sight and items for every context). A map that is not
 * found is an error only for dhsm's line-of-sight gate. 0 or -errno with
 * the reason in err. */
int agent_truth_load(const struct shell_opts *o, struct role_truth *out,
		     char *err, size_t errlen);

/* The trace of o: the file, or the bot simulation of --map. 0 or -errno
 * with the reason in err. */
int agent_trace_load(const struct shell_opts *o, struct trace *out, char *err,
		     size_t errlen);

/* A map by name (or path) from $RECKON_MAP_DIR, ./scenarios/maps or next
 * to the program: the open file with its path in path, or NULL. */
FILE *agent_map_open(const char *name, char *path, size_t plen);
/* Load map name as agent_map_open finds it; 0, -ENOENT (not found) or
 * -errno, with the reason in err. */
int agent_map_load(const char *name, struct map *out, char *err, size_t errlen);

/* Radius of the item pickup inference (agents/predict/peers.h): the
 * bots' pickup radius in agents/world/sim.c. */
#define AGENT_PICKUP_R 40.0

/* The write-then-rename steps of the metrics writers: open
 * RUN_DIR/WHAT-HOST.csv's temporary file, and flush, sync and rename it
 * into place (unlinking it on failure). 0 or -errno. */
int open_tmp(const struct shell_opts *o, const char *what, char *path,
	     size_t plen, char *tmp, size_t tlen, FILE **f);
int close_rename(FILE *f, const char *tmp, const char *path);

/* Check o's entities against tr and expand --player-index/--players into
 * the entity list. 0; -ENOENT (an --entities id has no path) or -ERANGE
 * (an entity does not fit a DIS entity number) with the reason in err.
 * A warning that is no error (nothing to play) may be left in warn
 * (warn[0] == 0 otherwise). */
int agent_truth_bind(struct shell_opts *o, const struct role_truth *tr,
		     char *err, size_t errlen, char *warn, size_t warnlen);

/* Metrics file writers: write PATH.tmp then rename to
 * RUN_DIR/metrics-HOST.csv and RUN_DIR/rejects-HOST.csv. 0 or -errno. */
struct metrics_table {
	const struct shell_opts *o;
	const char *role;
	const struct role_metrics *rows;
	size_t n_rows;
	double duration_s; /* seconds of truth the rows cover */
};
int metrics_write(const struct metrics_table *t);

struct reckon_espdu_counters;
int rejects_write(const struct shell_opts *o,
		  const struct reckon_espdu_counters *per_lane,
		  const uint64_t *foreign, size_t n_lanes);

/* RUN_DIR/errcdf-HOST.csv: per lane, ERRCDF_POINTS quantiles of the
 * per-frame position error pooled over the observer's entities (the
 * source of the error-CDF figure). 0 or -errno. */
#define ERRCDF_POINTS 201
struct role_observer;
int errcdf_write(const struct shell_opts *o, const struct role_observer *ob);

/* The viewer's recording (--samples HZ, observer; docs/viewer.md):
 * frames-HOST.csv (displayed and true position of every lane and entity,
 * decimated to HZ), arrivals-HOST.csv (every update of a known entity
 * that arrived) and, when a lane runs led reckoning, grid-HOST.csv (the
 * trend maps). view_rec_open gives *out = NULL when o asks for nothing;
 * view_rec_hook points the observer's callbacks at the recorder
 * (role_observer_watch), which must outlive the observer; view_rec_close
 * commits the files (commit != 0) or removes them, frees, and returns
 * the first error met. */
struct view_rec;
int view_rec_open(const struct shell_opts *o, const struct role_truth *tr,
		  struct view_rec **out);
void view_rec_hook(struct view_rec *r, struct role_observer *ob);
int view_rec_close(struct view_rec *r, int commit);

/* Write a uniform grid as rows of RUN_DIR/grid-HOST.csv (docs/viewer.md):
 * one row per cell with a value. Used for the observer's led trend maps
 * and the players' AntReckoning pheromone maps (view_player_grids). */
struct view_grid {
	const char *name, *kind; /* kind: "trend" or "pheromone" */
	double x0, y0, x1, y1;
	int nx, ny;
};
void view_grid_header(FILE *f);
void view_grid_cell(FILE *f, const struct view_grid *g, int ix, int iy,
		    double value, double u, double v);

/* A player's share of the viewer's recording (--samples HZ > 0):
 * grid-HOST.csv with, for each lane whose sender keeps a grid
 * (AntReckoning), the grid of the first entity the player plays, named
 * "LANE pheromone entity N" (role_player_grid). Writes nothing when no
 * lane has one. 0 or -errno. */
struct role_player;
int view_player_grids(const struct shell_opts *o, const struct role_player *pl);

/* RUN_DIR/timing-HOST.csv (the simulator writes it too, with no
 * lateness in virtual time and "signal" for a host the duration
 * stopped): how late its timer fired against the times the role
 * machine asked for, the truth's tick, how much of the play it covered
 * and how it ended ("done": the play ran out; "signal": SIGINT/SIGTERM
 * came first; "error"). reckond reads it to call a run partial or its
 * emulation degraded (daemon/results/runinfo.c). 0 or -errno. */
struct agent_timing {
	const char *role;
	uint64_t wakeups;
	double late_mean_ms, late_max_ms;
	double tick_ms;		 /* 0: no truth (relay) */
	double played_s, play_s; /* covered, and the whole play */
	const char *end;	 /* done, signal, error */
};
int timing_write(const struct shell_opts *o, const struct agent_timing *t);

/* The relay's metric row of lane i (what shell and simulator write). */
struct role_relay;
int agent_relay_metrics(const struct role_relay *r, size_t i,
			struct role_metrics *out);

#endif

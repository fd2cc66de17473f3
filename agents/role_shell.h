/*
 * role_shell.h: the reckon-agent roles' host on real sockets. cmd_role.c
 * reads the options and the run context (RECKON_* environment, overridden
 * by options), truth_load.c loads or generates the trace, shell.c runs a
 * role's pure state machine (agents/role/) on libevent timers and UDP
 * sockets, and metrics_io.c writes what it measured into the run
 * directory. No logic lives here beyond I/O and timers.
 */
#ifndef RECKON_AGENT_ROLE_SHELL_H
#define RECKON_AGENT_ROLE_SHELL_H

#include <netinet/in.h>
#include <stdint.h>

#include "predict/predict.h"
#include "role/role.h"
#include "role/truth.h"
#include "world/trace.h"

#define SHELL_MAX_DEST	   64
#define SHELL_MAX_ENTITIES 256

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
	/* predictors, one lane each */
	struct predict_params lanes[ROLE_MAX_LANES];
	const char *lane_spec[ROLE_MAX_LANES];
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
	/* relay: seconds after t0 to stop (0: when signalled) */
	double stop_s;
	/* run context */
	const char *run_dir, *host, *condition;
	int64_t start_ns;
	int start_set;
	unsigned rep;
};

/* CLOCK_MONOTONIC in ns. */
int64_t shell_now_ns(void);

/* The trace of o (file or in-process generation); 0 or 1 after printing
 * why. */
int shell_load_trace(const struct shell_opts *o, struct trace *out);

/* Run the role until its end (or SIGINT/SIGTERM), then write metrics.
 * truth is NULL for the relay. Returns an exit status. */
int shell_run(const struct shell_opts *o, const struct role_truth *truth);

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

#endif

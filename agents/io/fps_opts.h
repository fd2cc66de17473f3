/*
 * fps_opts.h: the options of the lag-compensation roles (`reckon-agent
 * fps-server` and `fps-client`) and the game they play, shared by the
 * socket host (agents/cmd_fps.c) and the simulator (daemon/netsim): the
 * same args give the same server configuration, the same client and the
 * same bot-world trace in both. Not pure (reads the map file); never
 * prints, reasons go into the caller's buffer.
 */
#ifndef RECKON_AGENT_FPS_OPTS_H
#define RECKON_AGENT_FPS_OPTS_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>

#include "agent_io.h"
#include "lagcomp/lagcomp.h"
#include "role/fps_client.h"
#include "world/map.h"
#include "world/trace.h"

#define FPS_DEFAULT_PORT 47100

struct fps_opts {
	struct shell_opts run; /* run context: run dir, host, start, seed */
	int server_role;       /* 1 fps-server, 0 fps-client */
	const char *map;
	int bots;
	double duration_s;
	struct lc_config lc;
	struct fps_client_cfg cl;
	struct sockaddr_in server;
	struct in_addr bind;
	uint16_t port;
	int entity_set;
	int snapshot_hz; /* server: snapshots a second, 0 = every tick */
};

extern const char fps_usage_text[];

/* Defaults of every option (the run context as agent_opts_init leaves
 * it; the caller fills it from the environment or the simulator). */
void fps_opts_init(struct fps_opts *o, int server);

/* argv[0..argc-1] are the options (without the role name). "--start-ns
 * +MS" means now + MS and sets run.start_relative. 0, or -EINVAL with
 * the reason in err. */
int fps_opts_parse(struct fps_opts *o, int argc, char *argv[], int64_t now,
		   char *err, size_t errlen);

/* The options of a host that the daemon starts or simulates: the run
 * context its agent would take from the environment (run directory, host
 * name, the repetition's seed and number), then argv parsed as the agent
 * parses it (now 0). 0, or -EINVAL with the reason in err. */
int fps_opts_host(struct fps_opts *o, int server, const char *run_dir,
		  const char *host, uint64_t seed, unsigned rep, int argc,
		  char *argv[], char *err, size_t errlen);

/* The map NAME (agent_map_open's search). 0 or -errno, reason in err. */
int fps_map_load(const char *name, struct map *m, char *err, size_t errlen);

/* The bot game every client of a run generates: --seed (the repetition's
 * seed), --bots, --duration + 1 s, --tick-hz. 0 or -errno. */
int fps_trace_make(const struct fps_opts *o, const struct map *m,
		   struct trace *t);

/* The same game run as it is played, for the one client of an agent,
 * so that its start-up does not grow with the game: fps_game_open sets
 * it up and runs nothing (0, -EINVAL, -ENOMEM); fps_game_feed runs the
 * world up to until_ns of game time (the first sample plays at t0) and
 * appends entity's samples to k (0 or -errno). The track it builds is
 * the one fps_trace_make's trace gives. */
struct sim;
struct fps_game {
	struct sim *world;
	struct trace chunk; /* the samples of the last feed */
};
int fps_game_open(const struct fps_opts *o, const struct map *m,
		  struct fps_game *g);
int fps_game_feed(struct fps_game *g, int64_t until_ns, uint32_t entity,
		  struct fps_track *k);
/* Lower level, for a caller that takes every bot's samples: play runs
 * the world up to until_ns with this step's samples of all bots in
 * g->chunk (0 or -errno); next is the time of the next tick (INT64_MAX
 * after the last); ticks is how many the whole game has, each with one
 * sample of every bot. */
int fps_game_play(struct fps_game *g, int64_t until_ns);
int64_t fps_game_next(const struct fps_game *g);
long fps_game_ticks(const struct fps_game *g);
void fps_game_close(struct fps_game *g);

/* The whole game of o cut into one track per bot, o->bots of them, in
 * one pass (the simulator's and the emulator's shared game; each
 * track's origin_ns is the game's first sample time). 0 or -errno;
 * fps_game_tracks_free frees them. */
int fps_game_tracks(const struct fps_opts *o, const struct map *m,
		    struct fps_track **out);
void fps_game_tracks_free(struct fps_track *k, int bots);

/* What makes two clients' games the same: the map's name, bots, tick
 * rate, duration and seed. fps_game_key: 0, or -ENAMETOOLONG for a map
 * name longer than the key holds. fps_game_key_eq: 1 when equal. */
struct fps_game_key {
	char map[256];
	int32_t bots, tick_hz;
	double duration_s;
	uint64_t seed;
};
int fps_game_key(const struct fps_opts *o, struct fps_game_key *k);
int fps_game_key_eq(const struct fps_game_key *a,
		    const struct fps_game_key *b);

/* A game file: every bot's track of one game, written once by the
 * emulator before a repetition's hosts start so that its clients load
 * their tracks instead of each running the world (the environment
 * variable FPS_GAME_ENV names it). Raw samples behind a header holding
 * a magic, a version, sizeof(struct trace_sample) and the game's key
 * (map, bots, seed, duration, tick rate), then per bot its origin_ns,
 * sample count and offset: written and read by the same build.
 * fps_game_write writes k (o->bots tracks) to path; fps_game_read
 * gives entity's track of the file at path into k (initialised by it)
 * and refuses a file that is not a game file, comes from another build,
 * is cut short or holds another game than o's. 0, or -errno with the
 * reason in err (-EINVAL: not this game or this build, -EIO: cut
 * short). */
#define FPS_GAME_ENV "RECKON_FPS_GAME"
int fps_game_write(const char *path, const struct fps_opts *o,
		   const struct fps_track *k, char *err, size_t errlen);
int fps_game_read(const char *path, const struct fps_opts *o,
		  uint32_t entity, struct fps_track *k, char *err,
		  size_t errlen);

#endif

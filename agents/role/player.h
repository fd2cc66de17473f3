/*
 * player.h: the player role. It replays its entities' paths of the shared
 * truth tick by tick; at every tick each lane's predictor sender is given
 * the true state, and every update it decides on is encoded as an Entity
 * State PDU and emitted once per destination (every observer in p2p, the
 * relay in client-server). A path gets fresh senders, as in the offline
 * replay. Pure: the host calls role_player_advance when the time of
 * role_player_next has come.
 */
#ifndef RECKON_ROLE_PLAYER_H
#define RECKON_ROLE_PLAYER_H

#include <stddef.h>
#include <stdint.h>

#include "proto/game_coords.h"
#include "role/role.h"
#include "role/truth.h"

struct role_player_cfg {
	const struct role_truth *truth; /* must outlive the player */
	const struct predict_params *lanes;
	size_t n_lanes;		  /* 1..ROLE_MAX_LANES */
	uint16_t n_dest;	  /* >= 1 */
	const uint32_t *entities; /* entities this player plays; NULL: all */
	size_t n_entities;
	uint8_t exercise; /* DIS exercise id, 0 means 1 */
	/* placement on the earth for the wire (update_espdu.h); NULL: none */
	const struct reckon_geo *geo;
	double pickup_r; /* pickup inference radius of the peer books, u */
};

struct role_player;

/* -EINVAL bad config (entity not in the truth, lane predictor without a
 * wire model id), -ENOMEM. */
int role_player_new(const struct role_player_cfg *cfg,
		    struct role_player **out);
void role_player_free(struct role_player *p);

/* Relative time of the next tick to play; INT64_MAX when done. */
int64_t role_player_next(const struct role_player *p);

/* Play every tick whose time is <= now_ns. Returns 0, or the first
 * negative value of emit or of a predictor (the tick is then left
 * unfinished and the player must be freed). */
int role_player_advance(struct role_player *p, int64_t now_ns,
			role_emit_fn emit, void *arg);

/* Number of metric rows (lanes x played entities) and row i. */
size_t role_player_rows(const struct role_player *p);
int role_player_metrics(const struct role_player *p, size_t i,
			struct role_metrics *out);

/* The grid lane's sender keeps for the first entity played (ents in
 * ascending order; AntReckoning: its pheromone map), from the sender of
 * its path still playing or else as its last finished path left it;
 * *entity (if not NULL) names the entity. The values stay valid until
 * the next advance or the free. -ENOTSUP: the lane's predictor keeps no
 * grid; -EAGAIN: none built yet; -EINVAL. */
int role_player_grid(const struct role_player *p, size_t lane,
		     struct predict_grid *out, uint32_t *entity);

#endif

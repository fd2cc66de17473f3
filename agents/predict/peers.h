/*
 * peers.h: what one client knows of the rest of the game, the source of
 * struct predict_ctx's peers and items. The book holds the last applied
 * update of every entity, exactly as it was received (newest send time
 * wins, older ones are stale), and the map's items as last known. No
 * pickup or respawn message travels on our wire (an IEEE 1278.1 Entity
 * State PDU per item would be the place for one), so item presence is
 * inferred from what did arrive: an item is believed taken when a
 * received update puts an entity within the pickup radius of it, and
 * back after the item's respawn time (static map knowledge). The
 * inference over-counts pickups (an entity that walks over an item it
 * does not need is believed to take it) and misses pickups between two
 * updates; both errors come from the network, never from the truth.
 * Replay (together mode) and the observer role both use it. Pure.
 */
#ifndef RECKON_PREDICT_PEERS_H
#define RECKON_PREDICT_PEERS_H

#include <stddef.h>
#include <stdint.h>

#include "predict/predict.h"

struct predict_peerbook {
	struct predict_peer *peer; /* sorted by entity */
	size_t n, cap;
	struct predict_peer *view; /* scratch: every peer but one */
	struct predict_item *item;
	double *respawn_s;
	int64_t *back_ns; /* believed respawn time while not present */
	size_t n_items;
	double pickup_r;
};

/* A book with the map's items (all present, n_items may be 0) whose
 * respawn times are respawn_s[i] seconds; pickup_r is the radius, u, of
 * the pickup inference (0 = never infer). -EINVAL, -ENOMEM. */
int predict_peerbook_init(struct predict_peerbook *b,
			  const struct predict_item *items,
			  const double *respawn_s, size_t n_items,
			  double pickup_r);
void predict_peerbook_free(struct predict_peerbook *b);

/* An update of u->entity was received: it becomes that entity's peer
 * entry when newer than the one held. 0 applied, -ESTALE older or same
 * time (ignored), -ENOMEM. */
int predict_peerbook_apply(struct predict_peerbook *b,
			   const struct predict_update *u);

/* Bring item beliefs to time t_ns: items believed taken come back when
 * their respawn time has passed. */
void predict_peerbook_items_at(struct predict_peerbook *b, int64_t t_ns);

/* Point ctx->peers at every entity but self (the book's scratch, valid
 * until the next call on b) and, when the book has items, ctx->items at
 * them (otherwise ctx->items is left as it was). */
void predict_peerbook_ctx(struct predict_peerbook *b, uint32_t self,
			  struct predict_ctx *ctx);

#endif

/*
 * fps_client.h: the fps-client role, one player of a lag-compensation
 * run. It moves its entity along its path of a bot-world trace (the
 * world's bot logic decides the movement: routes, fights, cover, peeks),
 * sends its state to the server every tick (with the RTT echo), keeps
 * the server's snapshots of the other players (bundles of Entity State
 * PDUs; a malformed bundle is counted and dropped whole) and renders
 * them at now - interp (interpolating between the two snapshots that
 * bracket the render time; interp 0 shows the newest, as LAGCOM does),
 * and fights on its own screen: an enemy in its line of sight is
 * engaged after a reaction time, aimed at (torso, with a seeded Gaussian
 * aim error) and fired on at the weapon's rate; each shot is a Fire PDU
 * naming the player it hit on this screen. Hits on itself (Detonation
 * PDUs) get the SBC-on-arrival test of agents/lagcomp and a
 * confirm/deny reply in every mode. Pure.
 */
#ifndef RECKON_ROLE_FPS_CLIENT_H
#define RECKON_ROLE_FPS_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "lagcomp/lagcomp.h"
#include "role/role.h"
#include "world/trace.h"

struct fps_bundle_cache;

/* One entity's samples of the bot world's trace, in time order.
 * origin_ns is the trace time that plays at the run's t0 (its first
 * sample's). A host may generate the game as it is played: between two
 * calls into the client it may append samples (and so move tr.s), as long
 * as the track covers every time the next call asks for. */
struct fps_track {
	struct trace tr; /* only its samples are used */
	int64_t origin_ns;
};

/* Append to k[i] every sample of t[from..t->n) of entity first + i,
 * i < nk, in one pass. 0, or -ENOMEM with part of t taken. */
int fps_tracks_take(struct fps_track *k, uint32_t first, size_t nk,
		    const struct trace *t, size_t from);
void fps_track_free(struct fps_track *k);

struct fps_client_cfg {
	const struct map *m;		/* must outlive the client */
	const struct fps_track *track;	/* the entity's movement, ditto */
	uint32_t entity;		/* the entity this client plays */
	int tick_hz;		/* send rate, 60 */
	double interp_ms;	/* render delay, 0 */
	double reaction_s;	/* 0.25 */
	double aim_err_deg;	/* standard deviation per axis, 1.0 */
	double fire_period_s;	/* 0.1 = 600 rounds per minute */
	double duration_s;	/* ticks while t < duration */
	uint64_t seed;
	uint8_t exercise;
	/* NULL, or a cache of decoded snapshot bundles shared by clients
	 * in one process (the simulator): the server sends every client
	 * the same bundles, and a client that finds the same octets in
	 * the cache takes the PDUs decoded there instead of decoding them
	 * again. Pure memoisation: what a client does is the same with or
	 * without it. */
	struct fps_bundle_cache *cache;
};

struct fps_client_stats {
	uint64_t ticks, shots, screen_hits, hits_confirmed;
	uint64_t hits_taken, sbc_seen, replies, irrefutable;
	uint64_t rx_snap; /* snapshot PDUs taken */
	uint64_t rx_bad;  /* datagrams refused: a malformed bundle counts once */
	double confirm_delay_sum_ms; /* shot sent -> shooter's copy back */
};

struct fps_client;

void fps_client_defaults(struct fps_client_cfg *c);
/* -EINVAL (bad config, an empty track), -ENOMEM. */
int fps_client_new(const struct fps_client_cfg *c, struct fps_client **out);
void fps_client_free(struct fps_client *cl);

int64_t fps_client_next(const struct fps_client *cl);
int fps_client_advance(struct fps_client *cl, int64_t now_ns, role_emit_fn emit,
		       void *arg);
int fps_client_recv(struct fps_client *cl, int64_t now_ns, const uint8_t *buf,
		    size_t len, role_emit_fn emit, void *arg);
/* fps_client_recv for a datagram its sender marked (role_dgram.same, not
 * 0): every datagram from that sender with the mark carries these
 * octets, so the cache may know the bundle by its mark alone. */
int fps_client_recv_same(struct fps_client *cl, int64_t now_ns,
			 const uint8_t *buf, size_t len, uint32_t sender,
			 uint64_t same, role_emit_fn emit, void *arg);
void fps_client_stats(const struct fps_client *cl, struct fps_client_stats *o);

/* The cache the client's next calls use (fps_client_cfg.cache): a
 * process whose threads take turns running a client gives it the cache
 * of the thread that runs it. */
void fps_client_use_cache(struct fps_client *cl, struct fps_bundle_cache *c);

int fps_bundle_cache_new(struct fps_bundle_cache **out); /* 0, -ENOMEM */
void fps_bundle_cache_free(struct fps_bundle_cache *c);

#endif

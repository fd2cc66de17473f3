/*
 * fps_server.h: the fps-server role, the authoritative game server of a
 * lag-compensation run. Each tick (60 Hz by default) it pushes every
 * player's newest pose into the lag-compensation history and sends every
 * client a snapshot (one Entity State PDU per player, seq = server tick,
 * bundled several to a datagram, fps.h), every tick or at a lower
 * snapshot rate;
 * it takes clients' state updates (poses, and the RTT echo it turns into
 * RTT samples), Fire PDUs (judged by agents/lagcomp in the configured
 * mode; hits go out as Detonation PDUs to the victim and the shooter) and
 * ALC replies (confirm/deny). Every shot's verdict stays in the lagcomp
 * server's log for the metrics. Pure: the host supplies the time and the
 * datagrams; datagrams to send go to emit with dest = player index.
 */
#ifndef RECKON_ROLE_FPS_SERVER_H
#define RECKON_ROLE_FPS_SERVER_H

#include <stddef.h>
#include <stdint.h>

#include "lagcomp/lagcomp.h"
#include "role/role.h"

struct fps_server_cfg {
	const struct map *m; /* must outlive the server */
	struct lc_config lc;
	double duration_s; /* ticks run while t < duration */
	uint8_t exercise;  /* 0 means 1 */
	/* snapshots a second, 1..lc.tick_hz; 0 (or the tick rate): every
	 * tick. Tick k carries one when floor(k x snapshot_hz / tick_hz)
	 * steps, so tick 0 does and they are as even as ticks allow (20 of
	 * 60: ticks 0, 3, 6 ...; 25 of 60: 0, 3, 5, 8, 10 ...). */
	int snapshot_hz;
};

struct fps_server_stats {
	uint64_t rx_state, rx_fire, rx_reply, rx_bad, rx_unknown;
	uint64_t tx, tx_failed, rtt_samples;
	uint64_t snap_pdus; /* snapshot PDUs in the datagrams of tx */
};

struct fps_server;

int fps_server_new(const struct fps_server_cfg *c, struct fps_server **out,
		   char *why, size_t whylen);
void fps_server_free(struct fps_server *s);

/* Relative time of the next tick; INT64_MAX after the last. */
int64_t fps_server_next(const struct fps_server *s);
/* Run every tick due at now_ns. 0 or a negative emit value. */
int fps_server_advance(struct fps_server *s, int64_t now_ns, role_emit_fn emit,
		       void *arg);
/* One datagram received at now_ns. *from gets the sending player's index
 * (so the host learns its address) or -1 when the datagram was refused
 * (counted in rx_bad). */
int fps_server_recv(struct fps_server *s, int64_t now_ns, const uint8_t *buf,
		    size_t len, int *from, role_emit_fn emit, void *arg);

const struct lc_server *fps_server_lc(const struct fps_server *s);
void fps_server_stats(const struct fps_server *s, struct fps_server_stats *o);

#endif

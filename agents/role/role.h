/*
 * role.h: what the three reckon-agent roles share. A role is a pure state
 * machine: the host (the libevent shell in agents/, or the simulator) gives
 * it the time and the datagrams that arrived, and it hands back datagrams
 * to send through an emit callback, each with a destination index and a
 * lane. A lane is one predictor of the run; on real sockets lane L is UDP
 * port base + L, so every predictor crosses the same links. Times are
 * nanoseconds relative to the run's common start t0, the instant the
 * trace's first tick plays. Nothing here reads a clock or does I/O.
 */
#ifndef RECKON_ROLE_H
#define RECKON_ROLE_H

#include <stddef.h>
#include <stdint.h>

#include "predict/predict.h"

#define ROLE_MAX_LANES 16

/* One datagram the host must send. buf is valid during the callback.
 * same, when not 0, says that every datagram of this role with the same
 * value carries the same octets (one snapshot sent to every client), so
 * a host may keep one copy for all of them; 0 promises nothing. */
struct role_dgram {
	uint16_t dest; /* index into the role's destination list */
	uint16_t lane; /* predictor lane (UDP port base + lane) */
	size_t len;
	const uint8_t *buf;
	uint64_t same;
};

/* The host's transmit hook. 0: sent. ROLE_EMIT_FAILED: this datagram
 * could not be sent (sendto failed); the role counts a send error and
 * carries on. A negative return aborts the call that emitted and is
 * passed back to the host. */
#define ROLE_EMIT_FAILED 1
typedef int (*role_emit_fn)(void *arg, const struct role_dgram *d);

/* Model id of a predictor on the wire (ESPDU predictor record): its
 * 1-based index in the registry; 0 if it is not registered. */
uint8_t role_model_id(const struct predictor *p);

/* Per lane and entity counters of a role, the rows of metrics-HOST.csv.
 * A player fills the sender half, an observer the receiver half. */
struct role_metrics {
	uint16_t lane;
	uint32_t entity;
	/* sender */
	uint64_t sent;	       /* updates decided by the sender */
	uint64_t sent_init;    /* of which initial states (reason INIT) */
	uint64_t datagrams;    /* datagrams sent (updates x destinations) */
	uint64_t bytes_sent;   /* UDP payload octets of those datagrams */
	uint64_t update_bytes; /* octets of the updates, each counted once */
	uint64_t send_errors;  /* datagrams the host failed to send */
	/* receiver */
	uint64_t received; /* datagrams accepted by the decoder */
	uint64_t bytes_received;
	uint64_t applied;      /* taken by the predictor's receiver */
	uint64_t stale;	       /* older than the newest applied (-ESTALE) */
	uint64_t rejected;     /* refused by the receiver (-EINVAL) */
	uint64_t unmatched;    /* no living path of the entity at that time */
	uint64_t frames;       /* frames with an estimate (error sampled) */
	uint64_t frames_blind; /* frames before the path's first update */
	double err_mean, err_p50, err_p95, err_max; /* game units */
	double over_s; /* seconds with error > threshold */
	/* applied updates that showed a missed model switch (dhsm) */
	uint64_t stale_model;
};

#endif

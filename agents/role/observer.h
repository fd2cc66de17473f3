/*
 * observer.h: the observer role. It takes the Entity State PDUs that
 * arrive on each lane, decodes them (malformed datagrams are counted per
 * reject reason and dropped), hands each update to the receiver of the
 * lane's predictor for the path it belongs to (older-than-newest updates
 * come back -ESTALE and are counted), and at every frame, one per trace
 * tick, measures the distance between the displayed and the true
 * position of every entity it watches. Pure: the host calls
 * role_observer_recv as datagrams arrive and role_observer_frame when
 * the time of role_observer_next has come. A frame shows only what had
 * arrived by its time: role_observer_recv first runs every frame due
 * before the arrival, so a host whose timer is late cannot let an update
 * reach a frame that was due before it arrived.
 * Each lane keeps a peer book (agents/predict/peers.h) of the updates
 * it applied: every receiver call of that lane gets, in ctx.peers, the
 * other entities' last applied update as received, and in ctx.items the
 * items as last known.
 */
#ifndef RECKON_ROLE_OBSERVER_H
#define RECKON_ROLE_OBSERVER_H

#include <stddef.h>
#include <stdint.h>

#include "proto/espdu.h"
#include "proto/game_coords.h"
#include "role/role.h"
#include "role/truth.h"

/* One error sample: what lane showed for entity at frame time t_ns. */
struct role_frame {
	uint16_t lane;
	uint32_t entity;
	int64_t t_ns;
	double shown[3], truth[3];
	double err; /* |shown - truth|, u */
};

/* One update that arrived for a known entity of the lane, with what the
 * observer did with it: 0 applied, -ENOENT no path at its send time,
 * -ESTALE older than the newest, -EINVAL refused by the receiver. */
struct role_arrival {
	uint16_t lane;
	uint32_t entity;
	uint32_t seq;	 /* the PDU's sequence number per (entity, lane) */
	int64_t send_ns; /* the state's time */
	int64_t recv_ns; /* arrival */
	double pos[3];	 /* the position the update carries */
	int result;
};

struct role_observer_cfg {
	const struct role_truth *truth; /* must outlive the observer */
	const struct predict_params *lanes;
	size_t n_lanes;	  /* 1..ROLE_MAX_LANES */
	double threshold; /* error over this counts toward over_s, u */
	/* the players' placement on the earth (update_espdu.h); NULL: none */
	const struct reckon_geo *geo;
	/* optional: called for every error sample, in frame order */
	void (*on_frame)(void *arg, const struct role_frame *f);
	void *frame_arg;
	/* radius of the pickup inference, u, of the lanes' peer books
	 * (peers.h); the books start from the truth's items */
	double pickup_r;
};

struct role_observer;

int role_observer_new(const struct role_observer_cfg *cfg,
		      struct role_observer **out);
void role_observer_free(struct role_observer *o);

/* Replace the optional callbacks: on_frame as in the configuration, and
 * on_arrival for every update of a known entity as it arrives (after the
 * observer took it or not). NULL: none. */
void role_observer_watch(struct role_observer *o,
			 void (*on_frame)(void *, const struct role_frame *),
			 void *frame_arg,
			 void (*on_arrival)(void *, const struct role_arrival *),
			 void *arrival_arg);

/* A datagram arrived on lane at relative time now_ns. The frames due
 * before now_ns are run first (as role_observer_frame(o, now_ns - 1));
 * a frame at exactly now_ns runs after, so it shows an update that
 * arrives at its time, as the offline replay does. Returns 0 when the
 * predictor took it; -EBADMSG malformed PDU (counted by verdict),
 * -EPROTO a valid PDU that is no reckon update of this lane (wrong model,
 * unknown entity), -ENOENT no path of the entity at its time, -ESTALE
 * older than the newest, -EINVAL refused by the receiver, -ENOMEM. All
 * but -ENOMEM are counted and harmless. */
int role_observer_recv(struct role_observer *o, uint16_t lane, int64_t now_ns,
		       const void *buf, size_t len);

/* Relative time of the next frame; INT64_MAX when the truth is over. */
int64_t role_observer_next(const struct role_observer *o);

/* Run every frame whose time is <= now_ns. 0 or -ENOMEM. */
int role_observer_frame(struct role_observer *o, int64_t now_ns);

/* Decoder verdicts of lane (n[RECKON_ESPDU_OK] = accepted). */
int role_observer_verdicts(const struct role_observer *o, uint16_t lane,
			   struct reckon_espdu_counters *out);
/* Valid PDUs of lane that were not reckon updates for it (-EPROTO). */
uint64_t role_observer_foreign(const struct role_observer *o, uint16_t lane);

/* Updates received (decoded PDUs of known entities) and, of them, those
 * that matched no path of their entity at their send time, over every
 * lane and entity. received > 0 == unmatched means the players and this
 * observer disagree on the truth (another trace, another time origin):
 * nothing was measured. */
void role_observer_totals(const struct role_observer *o, uint64_t *received,
			  uint64_t *unmatched);

/* The per-frame error distribution of one lane, pooled over its
 * entities: out[k] is the nearest-rank quantile k / (nq - 1) of every
 * frame's error (nq >= 2; out[0] the smallest, out[nq - 1] the largest).
 * *frames gets the number of frames pooled; with none, out is untouched.
 * 0, -EINVAL or -ENOMEM. */
int role_observer_quantiles(const struct role_observer *o, uint16_t lane,
			    double *out, size_t nq, uint64_t *frames);

/* The peers and items lane's receivers of entity self are given now:
 * ctx.peers holds every other entity's last update applied on lane (as
 * received), ctx.items the items as last known; the other fields are
 * zero. Valid until the next call on o. 0 or -EINVAL. */
int role_observer_peers(struct role_observer *o, uint16_t lane, uint32_t self,
			struct predict_ctx *out);

/* Metric rows (lanes x entities of the truth) and row i; error
 * statistics are computed here (nearest-rank percentiles). */
size_t role_observer_rows(const struct role_observer *o);
int role_observer_metrics(const struct role_observer *o, size_t i,
			  struct role_metrics *out);

#endif

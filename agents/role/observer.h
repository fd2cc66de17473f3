/*
 * observer.h: the observer role. It takes the Entity State PDUs that
 * arrive on each lane, decodes them (malformed datagrams are counted per
 * reject reason and dropped), hands each update to the receiver of the
 * lane's predictor for the path it belongs to (older-than-newest updates
 * come back -ESTALE and are counted), and at every frame, one per trace
 * tick, measures the distance between the displayed and the true
 * position of every entity it watches. Pure: the host calls
 * role_observer_recv as datagrams arrive and role_observer_frame when
 * the time of role_observer_next has come.
 */
#ifndef RECKON_ROLE_OBSERVER_H
#define RECKON_ROLE_OBSERVER_H

#include <stddef.h>
#include <stdint.h>

#include "proto/espdu.h"
#include "role/role.h"
#include "role/truth.h"

struct role_observer_cfg {
	const struct role_truth *truth; /* must outlive the observer */
	const struct predict_params *lanes;
	size_t n_lanes;	  /* 1..ROLE_MAX_LANES */
	double threshold; /* error over this counts toward over_s, u */
};

struct role_observer;

int role_observer_new(const struct role_observer_cfg *cfg,
		      struct role_observer **out);
void role_observer_free(struct role_observer *o);

/* A datagram arrived on lane at relative time now_ns. Returns 0 when the
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

/* Metric rows (lanes x entities of the truth) and row i; error
 * statistics are computed here (nearest-rank percentiles). */
size_t role_observer_rows(const struct role_observer *o);
int role_observer_metrics(const struct role_observer *o, size_t i,
			  struct role_metrics *out);

#endif

/*
 * hsm.h: the pure pieces of the "dhsm" predictor (pred_hsm.c) that tests
 * and tools need on their own: the two candidate models of McCoy et al.'s
 * Dynamic Hybrid Strategy Model (paper 004, "DHSM Implementation"): first
 * order dead reckoning P = P0 + V0 dt and the shortest-path (SP) pursuit
 * model P = P0 + (G - P0) |V0| dt / |G - P0|, and the layout of the 15
 * octets the predictor puts in predict_update.blob (the "DR other
 * parameters" blob of update.h; docs/wire-format.md, "DHSM blob").
 */
#ifndef RECKON_PREDICT_HSM_H
#define RECKON_PREDICT_HSM_H

#include <stdint.h>

#include "predict/predict.h"
#include "predict/update.h"

enum hsm_model {
	HSM_DR = 0, /* first-order dead reckoning */
	HSM_SP = 1, /* straight line toward the goal at the last speed */
	HSM_NMODELS = 2,
};

/* Blob octets: model, switch counter, flags, the goal's offset from the
 * update's position (3 x int16, big-endian, HSM_GOAL_UNIT u) and the
 * goal's velocity (3 x int16, big-endian, HSM_GVEL_UNIT u/s). */
#define HSM_BLOB_LEN	  15
#define HSM_GOAL_UNIT	  0.25	/* u: offsets up to +-8191.75 u */
#define HSM_GVEL_UNIT	  0.125 /* u/s: speeds up to +-4095.875 u/s */
#define HSM_FLAG_GOAL	  0x01u /* the goal octets hold a goal */
#define HSM_FLAG_SWITCHED 0x02u /* this update changed the model */

/* What a DHSM update carries besides the state. */
struct hsm_wire {
	uint8_t model;	  /* enum hsm_model */
	uint8_t switches; /* model switches so far, modulo 256 */
	uint8_t flags;	  /* HSM_FLAG_* */
	double goal[3];	  /* absolute, as the receiver decodes it */
	double gvel[3];
};

/* The wire form of goal (velocity gvel, NULL: still) seen from position
 * pos: quantized as the receiver will decode it. 0, or -ERANGE when the
 * goal is too far from pos for the offset field (then no goal). */
int hsm_goal_quantize(const double pos[3], const double goal[3],
		      const double *gvel, struct hsm_wire *w);
/* u->pos must be set: the goal travels as an offset from it. */
void hsm_blob_put(struct predict_update *u, const struct hsm_wire *w);
/* -EINVAL: wrong length, unknown model or flag, SP without a goal. */
int hsm_blob_get(const struct predict_update *u, struct hsm_wire *out);

/* Position and velocity of model m started at p0, v0 after dt seconds.
 * SP heads from p0 toward the goal's dead-reckoned position
 * G(dt) = goal + gvel dt at the speed |v0| (paper 004's SP equation in
 * closed form, notes A2), and stops standoff short of G(dt); without a
 * goal (goal NULL) SP is DR. */
void hsm_predict(int m, const double p0[3], const double v0[3],
		 const double *goal, const double *gvel, double standoff,
		 double dt, double pos[3], double vel[3]);

/* Model switches the receiver missed: the difference of the switch
 * counters of the newly applied update and of the previous one, less one
 * if the new update is itself the switch. 0 means the model the receiver
 * ran until now was the sender's. */
unsigned hsm_missed_switches(uint8_t prev, const struct hsm_wire *now);

/* 1 if par is dhsm's with its line-of-sight gate on: its contexts need
 * map.los (the map of the trace), else its sender refuses to run. */
int hsm_needs_los(const struct predict_params *par);

#endif

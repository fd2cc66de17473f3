/*
 * update.h: the entity-state update every predictor sends, in plain fields
 * so that agents/proto can map it one to one onto an IEEE 1278.1 Entity
 * State PDU: timestamp, location, linear velocity, orientation (psi,
 * theta, phi), dead-reckoning algorithm, linear acceleration, angular
 * velocity, and the 15 octets of "Dead Reckoning Other Parameters", which
 * carry the predictor-specific blob (led reckoning's blend time, a DHSM
 * model id, ...). Units are the game's: positions in game units, velocities
 * in units/s, angles in radians, angular velocity in rad/s (body frame).
 */
#ifndef RECKON_PREDICT_UPDATE_H
#define RECKON_PREDICT_UPDATE_H

#include <stdint.h>

/* IEEE 1278.1 Dead Reckoning Algorithm field (DIS 7 table 25). */
enum predict_drm {
	PREDICT_DRM_OTHER = 0,
	PREDICT_DRM_STATIC = 1,
	PREDICT_DRM_FPW = 2,
	PREDICT_DRM_RPW = 3,
	PREDICT_DRM_RVW = 4,
	PREDICT_DRM_FVW = 5,
	PREDICT_DRM_FPB = 6,
	PREDICT_DRM_RPB = 7,
	PREDICT_DRM_RVB = 8,
	PREDICT_DRM_FVB = 9,
};

/* Why the sender produced the update (not on the wire in an ESPDU; the
 * receiver does not need it, the metrics do). */
enum predict_reason {
	PREDICT_REASON_INIT = 0,	/* first state of an entity */
	PREDICT_REASON_POSITION = 1,	/* position error over threshold */
	PREDICT_REASON_ORIENTATION = 2, /* orientation error over threshold */
	PREDICT_REASON_HEARTBEAT = 3,	/* nothing sent for heartbeat time */
	PREDICT_REASON_COUNT = 4,
};

/* Size of the ESPDU "Dead Reckoning Other Parameters" field. */
#define PREDICT_BLOB_MAX 15

struct predict_update {
	int64_t t_ns;	  /* sender's time of this state (ESPDU timestamp) */
	uint32_t entity;  /* entity id */
	uint8_t team;	  /* force id */
	uint8_t drm;	  /* enum predict_drm */
	uint8_t reason;	  /* enum predict_reason */
	uint8_t blob_len; /* bytes of blob in use, <= PREDICT_BLOB_MAX */
	double pos[3];	  /* world position */
	double vel[3];	  /* linear velocity, world frame (game axes) */
	double acc[3];	  /* world acceleration for *W; dV_b/dt for *B */
	double ori[3]; /* Euler angles psi (yaw), theta (pitch), phi (roll) */
	double angvel[3]; /* body angular velocity wx, wy, wz */
	uint8_t blob[PREDICT_BLOB_MAX];
};

#endif

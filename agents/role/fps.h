/*
 * fps.h: what the fps-server and fps-client roles share: entity numbers
 * on the wire (DIS entity = player index + 1, site and application as the
 * other roles), the appearance bits that carry stance and death (IEEE
 * 1278.1 life-form appearance: damage bits 3-4 = 3 destroyed, life-form
 * state bits 16-19 = 1 upright or 4 crouching), the RTT echo a client
 * puts in its state updates (a reckon predictor record with model
 * FPS_ECHO_MODEL: the newest server tick it received and how long it
 * held it), and the pose <-> Entity State PDU mapping. Pure.
 */
#ifndef RECKON_ROLE_FPS_H
#define RECKON_ROLE_FPS_H

#include <stdint.h>

#include "lagcomp/lagcomp.h"
#include "proto/espdu.h"

#define FPS_ECHO_MODEL 250
#define FPS_ECHO_LEN   8 /* u32 server tick, u32 hold in microseconds */
#define FPS_PORT_DIS   0 /* lane of DIS PDUs */
#define FPS_DGRAM_MAX  256

struct fps_state {
	struct lc_pose pose;
	double vx, vy;
	int alive, team;
};

/* Entity State PDU for player idx at pose (send_ns, seq set by caller). */
int fps_state_to_espdu(int idx, const struct fps_state *s, uint64_t send_ns,
		       uint32_t seq, struct reckon_espdu *out);
/* Back; -EPROTO when the PDU is not a reckon fps entity. *idx gets the
 * player index. */
int fps_espdu_to_state(const struct reckon_espdu *p, int *idx,
		       struct fps_state *out);

/* The echo record: tick and hold time into / out of p's predictor blob.
 * get returns -ENOENT when p carries no echo. */
void fps_echo_put(struct reckon_espdu *p, uint32_t tick, uint32_t hold_us);
int fps_echo_get(const struct reckon_espdu *p, uint32_t *tick,
		 uint32_t *hold_us);

#endif

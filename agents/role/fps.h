/*
 * fps.h: what the fps-server and fps-client roles share: entity numbers
 * on the wire (DIS entity = player index + 1, site and application as the
 * other roles), the appearance bits that carry stance and death (IEEE
 * 1278.1 life-form appearance: damage bits 3-4 = 3 destroyed, life-form
 * state bits 16-19 = 1 upright or 4 crouching), the RTT echo a client
 * puts in its state updates (a reckon predictor record with model
 * FPS_ECHO_MODEL: the newest server tick it received and how long it
 * held it), the pose <-> Entity State PDU mapping, and PDU bundles: DIS
 * lets several PDUs ride back to back in one UDP datagram (PDU bundling,
 * IEEE 1278.1), each PDU's header length field (octets 8-9) saying where
 * the next one starts. The server's snapshots are bundles of Entity
 * State PDUs. Pure.
 */
#ifndef RECKON_ROLE_FPS_H
#define RECKON_ROLE_FPS_H

#include <stdint.h>

#include "lagcomp/lagcomp.h"
#include "proto/espdu.h"

#define FPS_ECHO_MODEL 250
#define FPS_ECHO_LEN   8 /* u32 server tick, u32 hold in microseconds */
#define FPS_PORT_DIS   0 /* lane of DIS PDUs */
/* Largest datagram of the fps roles: the UDP payload of one Ethernet
 * frame (1500-octet MTU - 20 IP - 8 UDP), so a bundle is never
 * IP-fragmented. */
#define FPS_DGRAM_MAX	1472
#define FPS_BUNDLE_PDUS 64 /* most PDUs a receiver takes from a datagram */
#define FPS_PDU_HEADER	12 /* DIS PDU header, the least a PDU can be */

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

/* One PDU of a bundle: buf + off, len octets. */
struct fps_span {
	uint16_t off, len;
};

/* Cut datagram buf[0..len) into its PDUs: 0 and sp[0..*n), or -EPROTO
 * when it is not a well-formed bundle (empty; fewer than a header's
 * octets left; a length field below the header or past the datagram's
 * end, i.e. a PDU truncated or a length that lies; more than cap PDUs).
 * Only the framing is checked, not the PDUs. */
int fps_bundle_split(const uint8_t *buf, size_t len, struct fps_span *sp,
		     int cap, int *n);

#endif

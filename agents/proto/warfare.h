/*
 * warfare.h: shots and hits as IEEE 1278.1-2012 (DIS version 7) Warfare
 * family PDUs: the Fire PDU (7.3.2, PDU type 2) a client sends when it
 * fires a hitscan weapon, and the Detonation PDU (7.3.3, type 3) the
 * server sends when a shot hit a player, carrying a reckon variable
 * parameter record (type 242) with the hit id, the body part and the ALC
 * flags. Plain structs in, big-endian bytes out; decoding checks the
 * framing and every field and names its reason in why. Positions and
 * velocities are game units in the DIS world fields (game_coords.h).
 * Layouts are drawn in docs/wire-format.md. Pure: no clock, no I/O.
 */
#ifndef RECKON_PROTO_WARFARE_H
#define RECKON_PROTO_WARFARE_H

#include <stddef.h>
#include <stdint.h>

#include "proto/espdu.h"

#define RECKON_DIS_PDU_FIRE	  2
#define RECKON_DIS_PDU_DETONATION 3
#define RECKON_DIS_FAMILY_WARFARE 2
#define RECKON_VP_TYPE_HIT	  242

#define RECKON_FIRE_LEN		  96
#define RECKON_DETONATION_MIN_LEN 104
#define RECKON_DETONATION_MAX_LEN (104 + 16)

/* Detonation result (SISO-REF-010 UID 62) values reckon uses. */
#define RECKON_DET_ENTITY_IMPACT 1
#define RECKON_DET_GROUND_IMPACT 3
#define RECKON_DET_NONE		 6

/* Hit record flags. */
#define RECKON_HIT_APPEAL      0x01 /* provisional: the victim may deny */
#define RECKON_HIT_IRREFUTABLE 0x02 /* an overruled denial: final */
#define RECKON_HIT_TO_SHOOTER  0x04 /* the shooter's copy (registered) */
#define RECKON_HIT_FLAGS_MASK  0x07

/* Hitscan rounds travel at this nominal speed in the velocity field, so
 * the aim is velocity / |velocity| (30000 u/s is 762 m/s at 2.54 cm/u). */
#define RECKON_HITSCAN_SPEED 30000.0

struct reckon_event_id {
	uint16_t site, application, event;
};

/* Munition descriptor (IEEE 1278.1-2012 6.2.19.2). */
struct reckon_munition {
	struct reckon_entity_type type;
	uint16_t warhead, fuse, quantity, rate;
};

struct reckon_fire {
	uint8_t exercise;
	uint32_t timestamp;		  /* DIS timestamp (dis_time.h) */
	struct reckon_entity_id firing;	  /* must be a valid id */
	struct reckon_entity_id target;	  /* 0:0:0 = none / unknown */
	struct reckon_entity_id munition; /* 0:0:0 = no munition entity */
	struct reckon_event_id event;
	uint32_t mission;
	struct reckon_vec3 loc; /* f64: where the round left (the eye) */
	struct reckon_munition desc;
	struct reckon_vec3 vel; /* f32 */
	double range;		/* f32, >= 0 */
};

/* reckon hit record: variable parameter record type 242. */
struct reckon_hit_record {
	uint8_t part;  /* body part: 0 head, 1 torso, 2 legs */
	uint8_t flags; /* RECKON_HIT_* */
	uint8_t mode;  /* lag compensation mode: 0 none .. 3 alc */
	uint32_t hit_id;
	uint64_t tick; /* server tick at dispatch */
};

struct reckon_detonation {
	uint8_t exercise;
	uint32_t timestamp;
	struct reckon_entity_id firing, target, munition;
	struct reckon_event_id event;
	struct reckon_vec3 vel; /* f32 */
	struct reckon_vec3 loc; /* f64: impact point, world */
	struct reckon_munition desc;
	struct reckon_vec3 loc_entity; /* f32: impact offset, part frame */
	uint8_t result;
	int has_hit; /* a hit record follows */
	struct reckon_hit_record hit;
};

/* The munition reckon's hitscan rifle fires: kind 2 (munition),
 * category 2 (ballistic), the rest 0 (other), one round. */
void reckon_munition_rifle(struct reckon_munition *m);

/* Encode into buf (capacity cap); *len gets the length. -EINVAL for a
 * bad id, a non-finite value, bad flags; -ERANGE for a float32 overflow;
 * -ENOSPC when cap is too small. buf is written only on success. */
int reckon_fire_encode(const struct reckon_fire *f, void *buf, size_t cap,
		       size_t *len);
int reckon_detonation_encode(const struct reckon_detonation *d, void *buf,
			     size_t cap, size_t *len);

/* Decode one datagram; 0 and *out filled, or -EBADMSG with the reason in
 * why (out untouched). */
int reckon_fire_decode(const void *buf, size_t len, struct reckon_fire *out,
		       char *why, size_t whylen);
int reckon_detonation_decode(const void *buf, size_t len,
			     struct reckon_detonation *out, char *why,
			     size_t whylen);

/* The PDU type of a DIS datagram (octet 2) after checking the version,
 * or -1 when it is too short or not DIS 7: lets a receiver dispatch. */
int reckon_dis_pdu_type(const void *buf, size_t len);

#endif

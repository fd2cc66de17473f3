/*
 * lcreply.h: the victim's reply to a hit event, reckon's "confirmation
 * message" of Lee's advanced lag compensation (thesis section 7.3; no
 * DIS PDU carries it). 36 octets, big-endian, on UDP: magic "RKLC",
 * version 1, verdict (1 confirm, 2 deny = shot behind covers on arrival),
 * flags (bit 0: the hit was provisional), body part, hit id, the victim's
 * entity number, the server tick of the snapshot the victim was
 * rendering, and the victim's pose when the hit arrived (x, y, yaw as
 * float32, stance). docs/wire-format.md draws it; deploy/wireshark/
 * reckon-lcreply.lua decodes it. Pure.
 */
#ifndef RECKON_PROTO_LCREPLY_H
#define RECKON_PROTO_LCREPLY_H

#include <stddef.h>
#include <stdint.h>

#define RECKON_LCREPLY_LEN	   36
#define RECKON_LCREPLY_VERSION	   1
#define RECKON_LCREPLY_CONFIRM	   1
#define RECKON_LCREPLY_DENY	   2
#define RECKON_LCREPLY_PROVISIONAL 0x01

struct reckon_lcreply {
	uint8_t verdict; /* RECKON_LCREPLY_CONFIRM or _DENY */
	uint8_t flags;
	uint8_t part; /* 0 head, 1 torso, 2 legs */
	uint32_t hit_id;
	uint16_t victim;
	uint32_t rendered_tick;
	double x, y, yaw; /* f32 on the wire; yaw in degrees */
	uint8_t crouch;
};

/* -EINVAL for a bad verdict, flags, part, hit id 0 or a non-finite or
 * float32-overflowing pose; -ENOSPC if cap < RECKON_LCREPLY_LEN. */
int reckon_lcreply_encode(const struct reckon_lcreply *r, void *buf, size_t cap,
			  size_t *len);
/* 0 and *out, or -EBADMSG with the reason in why. */
int reckon_lcreply_decode(const void *buf, size_t len,
			  struct reckon_lcreply *out, char *why, size_t whylen);

#endif

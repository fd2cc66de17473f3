/*
 * lcreply.c: encoder and decoder of the ALC confirm/deny message
 * (lcreply.h). The decoder checks the magic, version, verdict, flags,
 * part, reserved octets and float fields, so a datagram is accepted only
 * if it is exactly what the encoder writes.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "proto/lcreply.h"
#include "proto/wire.h"

static const uint8_t magic[4] = {'R', 'K', 'L', 'C'};

static int f32_ok(double d)
{
	return isfinite(d) && fabs(d) <= FLT_MAX;
}

static int fields_ok(const struct reckon_lcreply *r)
{
	return (r->verdict == RECKON_LCREPLY_CONFIRM ||
		r->verdict == RECKON_LCREPLY_DENY) &&
	       !(r->flags & ~RECKON_LCREPLY_PROVISIONAL) && r->part <= 2 &&
	       r->hit_id != 0 && r->crouch <= 1;
}

int reckon_lcreply_encode(const struct reckon_lcreply *r, void *buf, size_t cap,
			  size_t *len)
{
	uint8_t b[RECKON_LCREPLY_LEN];

	if (!r || !buf || !len || !fields_ok(r) || !f32_ok(r->x) ||
	    !f32_ok(r->y) || !f32_ok(r->yaw))
		return -EINVAL;
	if (cap < RECKON_LCREPLY_LEN)
		return -ENOSPC;
	memset(b, 0, sizeof(b));
	memcpy(b, magic, 4);
	b[4] = RECKON_LCREPLY_VERSION;
	b[5] = r->verdict;
	b[6] = r->flags;
	b[7] = r->part;
	wire_put32(b + 8, r->hit_id);
	wire_put16(b + 12, r->victim);
	wire_put32(b + 16, r->rendered_tick);
	wire_put_f32(b + 20, (float)r->x);
	wire_put_f32(b + 24, (float)r->y);
	wire_put_f32(b + 28, (float)r->yaw);
	b[32] = r->crouch;
	memcpy(buf, b, sizeof(b));
	*len = sizeof(b);
	return 0;
}

static int why_(char *why, size_t n, const char *what)
{
	if (why && n)
		snprintf(why, n, "%s", what);
	return -EBADMSG;
}

int reckon_lcreply_decode(const void *buf, size_t len,
			  struct reckon_lcreply *out, char *why, size_t n)
{
	const uint8_t *b = buf;
	struct reckon_lcreply r;

	if (!buf || len < RECKON_LCREPLY_LEN)
		return why_(why, n, "truncated");
	if (len > RECKON_LCREPLY_LEN)
		return why_(why, n, "oversized");
	if (memcmp(b, magic, 4))
		return why_(why, n, "bad magic");
	if (b[4] != RECKON_LCREPLY_VERSION)
		return why_(why, n, "unknown version");
	if (wire_get16(b + 14) || b[33] || b[34] || b[35])
		return why_(why, n, "reserved octets not 0");
	memset(&r, 0, sizeof(r));
	r.verdict = b[5];
	r.flags = b[6];
	r.part = b[7];
	r.hit_id = wire_get32(b + 8);
	r.victim = wire_get16(b + 12);
	r.rendered_tick = wire_get32(b + 16);
	r.x = wire_get_f32(b + 20);
	r.y = wire_get_f32(b + 24);
	r.yaw = wire_get_f32(b + 28);
	r.crouch = b[32];
	if (!fields_ok(&r))
		return why_(why, n,
			    "bad verdict, flags, part, hit id or stance");
	if (!isfinite(r.x) || !isfinite(r.y) || !isfinite(r.yaw))
		return why_(why, n, "NaN or infinity in the pose");
	if (out)
		*out = r;
	return 0;
}

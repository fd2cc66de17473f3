/*
 * warfare_int.h: what the Fire and Detonation codecs share: the 12-octet
 * PDU header, entity and event ids, the munition descriptor and float
 * checks. Internal to agents/proto.
 */
#ifndef RECKON_PROTO_WARFARE_INT_H
#define RECKON_PROTO_WARFARE_INT_H

#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "proto/espdu_rules.h"
#include "proto/warfare.h"
#include "proto/wire.h"

#define WF_OFF_FIRING	12
#define WF_OFF_TARGET	18
#define WF_OFF_MUNITION 24
#define WF_OFF_EVENT	30
#define WF_HEADER_LEN	12
#define ESPDU_VP_LEN_W	16 /* one variable parameter record */

static inline void wf_header(uint8_t *b, uint8_t exercise, uint8_t type,
			     uint32_t ts, size_t len)
{
	b[0] = RECKON_DIS_VERSION;
	b[1] = exercise;
	b[2] = type;
	b[3] = RECKON_DIS_FAMILY_WARFARE;
	wire_put32(b + 4, ts);
	wire_put16(b + 8, (uint16_t)len);
	b[10] = 0;
	b[11] = 0;
}

static inline int wf_why(char *why, size_t n, const char *what)
{
	if (why && n)
		snprintf(why, n, "%s", what);
	return -EBADMSG;
}

/* Header checks; 0 or -EBADMSG with the reason. */
static inline int wf_check_header(const uint8_t *b, size_t len, uint8_t type,
				  size_t min, size_t max, char *why, size_t n)
{
	if (len < min)
		return wf_why(why, n, "truncated");
	if (len > max)
		return wf_why(why, n, "oversized");
	if (b[0] != RECKON_DIS_VERSION)
		return wf_why(why, n, "protocol version is not 7");
	if (b[2] != type)
		return wf_why(why, n, "wrong PDU type");
	if (b[3] != RECKON_DIS_FAMILY_WARFARE)
		return wf_why(why, n, "protocol family is not warfare (2)");
	if (wire_get16(b + 8) != len)
		return wf_why(why, n, "length field does not match datagram");
	if (b[10] != 0 || b[11] != 0)
		return wf_why(why, n, "PDU status or padding not 0");
	return 0;
}

static inline void wf_put_id(uint8_t *b, const struct reckon_entity_id *id)
{
	wire_put16(b, id->site);
	wire_put16(b + 2, id->application);
	wire_put16(b + 4, id->entity);
}

static inline void wf_get_id(const uint8_t *b, struct reckon_entity_id *id)
{
	id->site = wire_get16(b);
	id->application = wire_get16(b + 2);
	id->entity = wire_get16(b + 4);
}

/* A valid entity, or 0:0:0 when none is allowed. */
static inline int wf_id_ok(const struct reckon_entity_id *id, int none_ok)
{
	if (none_ok && !id->site && !id->application && !id->entity)
		return 1;
	return espdu_entity_id_ok(id->site, id->application, id->entity);
}

static inline void wf_put_event(uint8_t *b, const struct reckon_event_id *e)
{
	wire_put16(b, e->site);
	wire_put16(b + 2, e->application);
	wire_put16(b + 4, e->event);
}

static inline void wf_get_event(const uint8_t *b, struct reckon_event_id *e)
{
	e->site = wire_get16(b);
	e->application = wire_get16(b + 2);
	e->event = wire_get16(b + 4);
}

static inline void wf_put_munition(uint8_t *b, const struct reckon_munition *m)
{
	b[0] = m->type.kind;
	b[1] = m->type.domain;
	wire_put16(b + 2, m->type.country);
	b[4] = m->type.category;
	b[5] = m->type.subcategory;
	b[6] = m->type.specific;
	b[7] = m->type.extra;
	wire_put16(b + 8, m->warhead);
	wire_put16(b + 10, m->fuse);
	wire_put16(b + 12, m->quantity);
	wire_put16(b + 14, m->rate);
}

static inline void wf_get_munition(const uint8_t *b, struct reckon_munition *m)
{
	m->type.kind = b[0];
	m->type.domain = b[1];
	m->type.country = wire_get16(b + 2);
	m->type.category = b[4];
	m->type.subcategory = b[5];
	m->type.specific = b[6];
	m->type.extra = b[7];
	m->warhead = wire_get16(b + 8);
	m->fuse = wire_get16(b + 10);
	m->quantity = wire_get16(b + 12);
	m->rate = wire_get16(b + 14);
}

/* float32 fields: -EINVAL for NaN/infinity, -ERANGE when too large. */
static inline int wf_put_f32s(uint8_t *b, const double *v, int n)
{
	for (int i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			return -EINVAL;
		if (fabs(v[i]) > ESPDU_F32_MAX)
			return -ERANGE;
	}
	for (int i = 0; i < n; i++)
		wire_put_f32(b + 4 * i, (float)v[i]);
	return 0;
}

static inline void wf_get_f32s(const uint8_t *b, double *v, int n)
{
	for (int i = 0; i < n; i++)
		v[i] = wire_get_f32(b + 4 * i);
}

static inline int wf_f32s_finite(const uint8_t *b, int n)
{
	for (int i = 0; i < n; i++)
		if (!isfinite(wire_get_f32(b + 4 * i)))
			return 0;
	return 1;
}

static inline int wf_put_f64s(uint8_t *b, const double *v, int n)
{
	for (int i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return -EINVAL;
	for (int i = 0; i < n; i++)
		wire_put_f64(b + 8 * i, v[i]);
	return 0;
}

static inline int wf_get_f64s(const uint8_t *b, double *v, int n)
{
	for (int i = 0; i < n; i++) {
		v[i] = wire_get_f64(b + 8 * i);
		if (!isfinite(v[i]))
			return 0;
	}
	return 1;
}

#endif

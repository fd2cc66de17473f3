/*
 * wire.h: big-endian load/store helpers for the DIS wire format (network
 * byte order, IEEE 754 float32/float64 carried as their bit patterns).
 * Internal to agents/proto; static inline so they cost nothing.
 */
#ifndef RECKON_PROTO_WIRE_H
#define RECKON_PROTO_WIRE_H

#include <float.h>
#include <stdint.h>
#include <string.h>

_Static_assert(sizeof(float) == 4 && FLT_MANT_DIG == 24,
	       "DIS needs IEEE 754 binary32 floats");
_Static_assert(sizeof(double) == 8 && DBL_MANT_DIG == 53,
	       "DIS needs IEEE 754 binary64 doubles");

static inline void wire_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void wire_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline void wire_put64(uint8_t *p, uint64_t v)
{
	wire_put32(p, (uint32_t)(v >> 32));
	wire_put32(p + 4, (uint32_t)v);
}

static inline uint16_t wire_get16(const uint8_t *p)
{
	return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}

static inline uint32_t wire_get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t wire_get64(const uint8_t *p)
{
	return (uint64_t)wire_get32(p) << 32 | wire_get32(p + 4);
}

static inline void wire_put_f32(uint8_t *p, float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	wire_put32(p, u);
}

static inline void wire_put_f64(uint8_t *p, double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof(u));
	wire_put64(p, u);
}

static inline float wire_get_f32(const uint8_t *p)
{
	uint32_t u = wire_get32(p);
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

static inline double wire_get_f64(const uint8_t *p)
{
	uint64_t u = wire_get64(p);
	double d;

	memcpy(&d, &u, sizeof(d));
	return d;
}

#endif

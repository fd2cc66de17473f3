/*
 * espdu_rules.h: the field rules the encoder and the decoder share, so
 * that whatever the encoder writes the decoder accepts and nothing else:
 * finite floats, Euler angle ranges (IEEE 1278.1-2012 6.2.32: psi and phi
 * in [-pi, pi], theta in [-pi/2, pi/2], compared after rounding to
 * float32), DR algorithms 1..9, entity ids that are neither 0 (no entity)
 * nor 0xffff (all entities), printable ASCII markings. Internal to
 * agents/proto.
 */
#ifndef RECKON_PROTO_ESPDU_RULES_H
#define RECKON_PROTO_ESPDU_RULES_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#define ESPDU_F32_MAX	((double)FLT_MAX)
#define ESPDU_PI_F	((float)3.14159265358979323846)
#define ESPDU_HALF_PI_F ((float)1.57079632679489661923)

static inline bool espdu_finite(double d)
{
	return isfinite(d);
}

static inline bool espdu_signbit(double d)
{
	return signbit(d) != 0;
}

static inline bool espdu_euler_in_range(float psi, float theta, float phi)
{
	return psi >= -ESPDU_PI_F && psi <= ESPDU_PI_F &&
	       theta >= -ESPDU_HALF_PI_F && theta <= ESPDU_HALF_PI_F &&
	       phi >= -ESPDU_PI_F && phi <= ESPDU_PI_F;
}

static inline bool espdu_dr_alg_ok(unsigned alg)
{
	return alg >= 1 && alg <= 9;
}

static inline bool espdu_id_part_ok(uint16_t v)
{
	return v != 0 && v != 0xffff;
}

static inline bool espdu_entity_id_ok(uint16_t site, uint16_t app, uint16_t ent)
{
	return espdu_id_part_ok(site) && espdu_id_part_ok(app) &&
	       espdu_id_part_ok(ent);
}

static inline bool espdu_marking_char(uint8_t c)
{
	return c >= 0x20 && c <= 0x7e;
}

#endif

/*
 * espdu_sample.c: seeded random entity updates for the proto tests
 * (xorshift64*, Vigna 2016, multiplier 2685821657736338717).
 */
#include <math.h>
#include <string.h>

#include "espdu_sample.h"

void sample_seed(struct sample_rng *r, uint64_t seed)
{
	r->s = seed ? seed : 0x9e3779b97f4a7c15ull;
}

uint64_t sample_next(struct sample_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 2685821657736338717ull;
}

uint64_t sample_range(struct sample_rng *r, uint64_t lo, uint64_t hi)
{
	return lo + sample_next(r) % (hi - lo + 1);
}

/* Any finite float32, drawn from its bit pattern, or one of a few
 * special values (zeros, extremes, subnormals). */
static double any_f32(struct sample_rng *r)
{
	static const float special[] = {
		0.0f,	       -0.0f,	       1.0f,	 -1.0f,
		3.4028235e38f, -3.4028235e38f, 1.4e-45f, -1.17549435e-38f};
	uint32_t u;
	float f;

	if (sample_range(r, 0, 7) == 0)
		return special[sample_range(r, 0, 7)];
	do {
		u = (uint32_t)(sample_next(r) >> 32);
		memcpy(&f, &u, sizeof(f));
	} while (!isfinite(f));
	return f;
}

static double any_f64(struct sample_rng *r)
{
	uint64_t u;
	double d;

	do {
		u = sample_next(r);
		memcpy(&d, &u, sizeof(d));
	} while (!isfinite(d));
	return d;
}

/* A float32 uniform in [-lim, lim], lim a float32. */
static double angle_f32(struct sample_rng *r, float lim)
{
	double u = (double)(sample_next(r) >> 11) / 9007199254740992.0;
	float f = (float)((2.0 * u - 1.0) * lim);

	if (f > lim)
		f = lim;
	if (f < -lim)
		f = -lim;
	return f;
}

static void any_type(struct sample_rng *r, struct reckon_entity_type *t)
{
	uint64_t x = sample_next(r);

	t->kind = (uint8_t)x;
	t->domain = (uint8_t)(x >> 8);
	t->country = (uint16_t)(x >> 16);
	t->category = (uint8_t)(x >> 32);
	t->subcategory = (uint8_t)(x >> 40);
	t->specific = (uint8_t)(x >> 48);
	t->extra = (uint8_t)(x >> 56);
}

static void any_marking(struct sample_rng *r, char *m, int alnum)
{
	static const char an[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrs"
				 "tuvwxyz0123456789";
	unsigned n = (unsigned)sample_range(r, alnum ? 1 : 0, 11), i;

	for (i = 0; i < n; i++)
		m[i] = alnum ? an[sample_range(r, 0, sizeof(an) - 2)]
			     : (char)sample_range(r, 0x20, 0x7e);
	m[n] = '\0';
}

void sample_espdu(struct sample_rng *r, struct reckon_espdu *p)
{
	unsigned i;

	memset(p, 0, sizeof(*p));
	p->exercise = (uint8_t)sample_next(r);
	p->pdu_status = (uint8_t)sample_next(r);
	p->send_ns = sample_next(r);
	p->seq = (uint32_t)sample_next(r);
	p->id.site = (uint16_t)sample_range(r, 1, 0xfffe);
	p->id.application = (uint16_t)sample_range(r, 1, 0xfffe);
	p->id.entity = (uint16_t)sample_range(r, 1, 0xfffe);
	p->force = (uint8_t)sample_next(r);
	any_type(r, &p->type);
	any_type(r, &p->alt_type);
	p->pos.x = any_f64(r);
	p->pos.y = any_f64(r);
	p->pos.z = any_f64(r);
	p->vel.x = any_f32(r);
	p->vel.y = any_f32(r);
	p->vel.z = any_f32(r);
	p->ori.psi = angle_f32(r, 3.14159265f);
	p->ori.theta = angle_f32(r, 1.57079633f);
	p->ori.phi = angle_f32(r, 3.14159265f);
	p->appearance = (uint32_t)sample_next(r);
	p->capabilities = (uint32_t)sample_next(r);
	p->dr_alg = (uint8_t)sample_range(r, 1, 9);
	p->dr_other.type = (uint8_t)sample_range(r, 0, 2);
	if (p->dr_other.type != RECKON_DR_OTHER_NONE)
		for (i = 0; i < 3; i++)
			p->dr_other.v[i] = any_f32(r);
	if (p->dr_other.type == RECKON_DR_OTHER_WORLD_QUAT)
		p->dr_other.qu0 = (uint16_t)sample_next(r);
	p->acc.x = any_f32(r);
	p->acc.y = any_f32(r);
	p->acc.z = any_f32(r);
	p->angvel.x = any_f32(r);
	p->angvel.y = any_f32(r);
	p->angvel.z = any_f32(r);
	any_marking(r, p->marking, 0);
	if (sample_range(r, 0, 3)) {
		p->model = (uint8_t)sample_range(r, 1, 255);
		p->blob_len =
			(uint8_t)sample_range(r, 0, RECKON_ESPDU_BLOB_MAX);
		for (i = 0; i < p->blob_len; i++)
			p->blob[i] = (uint8_t)sample_next(r);
	}
}

static double quarter(struct sample_rng *r)
{
	return ((double)sample_range(r, 0, 800) - 400.0) / 4.0;
}

void sample_espdu_printable(struct sample_rng *r, struct reckon_espdu *p)
{
	sample_espdu(r, p);
	p->vel.x = quarter(r);
	p->vel.y = quarter(r);
	p->vel.z = quarter(r);
	any_marking(r, p->marking, 1);
}

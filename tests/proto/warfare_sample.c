/*
 * warfare_sample.c: the seeded generators of warfare_sample.h.
 */
#include <string.h>

#include "warfare_sample.h"

static double quarter(struct sample_rng *r)
{
	return ((double)sample_range(r, 0, 8000) - 4000) / 4;
}

static double eighth_loc(struct sample_rng *r)
{
	return ((double)sample_range(r, 0, 524288) - 262144) / 8;
}

static void id(struct sample_rng *r, struct reckon_entity_id *e, int none_ok)
{
	if (none_ok && sample_range(r, 0, 3) == 0) {
		memset(e, 0, sizeof(*e));
		return;
	}
	e->site = (uint16_t)sample_range(r, 1, 0xfffe);
	e->application = (uint16_t)sample_range(r, 1, 0xfffe);
	e->entity = (uint16_t)sample_range(r, 1, 0xfffe);
}

static void vec(struct sample_rng *r, struct reckon_vec3 *v, int loc)
{
	v->x = loc ? eighth_loc(r) : quarter(r);
	v->y = loc ? eighth_loc(r) : quarter(r);
	v->z = loc ? eighth_loc(r) : quarter(r);
}

static void munition(struct sample_rng *r, struct reckon_munition *m)
{
	reckon_munition_rifle(m);
	m->warhead = (uint16_t)sample_range(r, 0, 0xffff);
	m->fuse = (uint16_t)sample_range(r, 0, 0xffff);
	m->quantity = (uint16_t)sample_range(r, 1, 30);
	m->rate = (uint16_t)sample_range(r, 0, 900);
}

void sample_fire(struct sample_rng *r, struct reckon_fire *f)
{
	memset(f, 0, sizeof(*f));
	f->exercise = (uint8_t)sample_range(r, 1, 255);
	f->timestamp = (uint32_t)sample_next(r);
	id(r, &f->firing, 0);
	id(r, &f->target, 1);
	id(r, &f->munition, 1);
	f->event.site = f->firing.site;
	f->event.application = f->firing.application;
	f->event.event = (uint16_t)sample_range(r, 0, 0xffff);
	f->mission = (uint32_t)sample_range(r, 0, 0xffffffff);
	vec(r, &f->loc, 1);
	munition(r, &f->desc);
	vec(r, &f->vel, 0);
	f->range = (double)sample_range(r, 0, 40000) / 4;
}

void sample_detonation(struct sample_rng *r, struct reckon_detonation *d)
{
	memset(d, 0, sizeof(*d));
	d->exercise = (uint8_t)sample_range(r, 1, 255);
	d->timestamp = (uint32_t)sample_next(r);
	id(r, &d->firing, 0);
	id(r, &d->target, 1);
	id(r, &d->munition, 1);
	d->event.site = d->firing.site;
	d->event.application = d->firing.application;
	d->event.event = (uint16_t)sample_range(r, 0, 0xffff);
	vec(r, &d->vel, 0);
	vec(r, &d->loc, 1);
	munition(r, &d->desc);
	vec(r, &d->loc_entity, 0);
	d->result = (uint8_t)sample_range(r, 0, 6);
	d->has_hit = sample_range(r, 0, 3) != 0;
	if (d->has_hit) {
		d->hit.part = (uint8_t)sample_range(r, 0, 2);
		d->hit.flags = (uint8_t)sample_range(r, 0, 7);
		d->hit.mode = (uint8_t)sample_range(r, 0, 3);
		d->hit.hit_id = (uint32_t)sample_range(r, 1, 0xffffffff);
		d->hit.tick = sample_next(r);
	}
}

void sample_lcreply(struct sample_rng *r, struct reckon_lcreply *x)
{
	memset(x, 0, sizeof(*x));
	x->verdict = (uint8_t)sample_range(r, 1, 2);
	x->flags = (uint8_t)sample_range(r, 0, 1);
	x->part = (uint8_t)sample_range(r, 0, 2);
	x->hit_id = (uint32_t)sample_range(r, 1, 0xffffffff);
	x->victim = (uint16_t)sample_range(r, 0, 0xffff);
	x->rendered_tick = (uint32_t)sample_next(r);
	x->x = quarter(r);
	x->y = quarter(r);
	x->yaw = (double)sample_range(r, 0, 1439) / 4;
	x->crouch = (uint8_t)sample_range(r, 0, 1);
}

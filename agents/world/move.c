/*
 * move.c: the ground move of move.h. Friction removes
 * max(speed, stopspeed) * friction * dt of speed each tick; acceleration
 * adds at most accel * wishspeed * dt along the wished direction and only
 * up to wishspeed in that direction (the rule of the Quake / Half-Life
 * player move that Source inherited). We add a hard cap at max_speed so
 * the bound that trace checks rely on holds exactly.
 */
#include "move.h"

#include <math.h>

#include "geom.h"

void move_defaults(struct move_params *p)
{
	p->max_speed = 250.0;
	p->walk_speed = 130.0;
	p->crouch_speed = 85.0;
	p->accel = 5.5;
	p->friction = 5.2;
	p->stop_speed = 80.0;
	p->radius = 16.0;
}

void move_step(const struct map *m, const struct move_params *p, struct body *b,
	       double wx, double wy, double wishspeed, double dt)
{
	double speed = hypot(b->vx, b->vy);
	int hx, hy;

	/* friction */
	if (speed < 0.1) {
		b->vx = b->vy = 0;
	} else {
		double control = speed < p->stop_speed ? p->stop_speed : speed;
		double ns = speed - control * p->friction * dt;

		if (ns < 0)
			ns = 0;
		b->vx *= ns / speed;
		b->vy *= ns / speed;
	}
	/* acceleration */
	if (wishspeed > p->max_speed)
		wishspeed = p->max_speed;
	if (wishspeed > 0) {
		double cur = b->vx * wx + b->vy * wy;
		double add = wishspeed - cur;

		if (add > 0) {
			double acc = p->accel * wishspeed * dt;

			if (acc > add)
				acc = add;
			b->vx += acc * wx;
			b->vy += acc * wy;
		}
	}
	speed = hypot(b->vx, b->vy);
	if (speed > p->max_speed) {
		b->vx *= p->max_speed / speed;
		b->vy *= p->max_speed / speed;
	}
	geom_slide(m, &b->x, &b->y, b->vx * dt, b->vy * dt, p->radius, &hx,
		   &hy);
	if (hx)
		b->vx = 0;
	if (hy)
		b->vy = 0;
}

/*
 * move.h: player movement physics in the style of the Quake / Source
 * engine ground move: friction first, then acceleration toward a wished
 * direction and speed, then a sliding move against the walls. Constants
 * default to CS:GO's (sv_accelerate 5.5, sv_friction 5.2, sv_stopspeed
 * 80, 250 u/s run, 130 walk, 85 crouch, 64 Hz ticks).
 */
#ifndef RECKON_WORLD_MOVE_H
#define RECKON_WORLD_MOVE_H

#include "map.h"

struct move_params {
	double max_speed;    /* u/s, hard cap on horizontal speed */
	double walk_speed;   /* u/s with the walk key */
	double crouch_speed; /* u/s crouched */
	double accel;	     /* sv_accelerate, 1/s */
	double friction;     /* sv_friction, 1/s */
	double stop_speed;   /* sv_stopspeed, u/s */
	double radius;	     /* body radius, u */
};

struct body {
	double x, y;
	double vx, vy;
};

void move_defaults(struct move_params *p);

/* One tick of dt seconds: friction, acceleration toward the unit vector
 * (wx, wy) at wishspeed (0 to stop), speed cap, sliding move. The speed
 * never exceeds p->max_speed and the body never enters a wall. */
void move_step(const struct map *m, const struct move_params *p, struct body *b,
	       double wx, double wy, double wishspeed, double dt);

#endif

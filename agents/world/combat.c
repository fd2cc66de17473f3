/*
 * combat.c: what a hit does in the world: who counts as an enemy, the
 * damage a hit deals (armor takes half, CS-like), death with the mode's
 * respawn delay, and the trace events (hit, death, fire) they leave. The
 * bots (bot.c) and the world's clock (sim.c) both call it; it calls
 * neither, so the two do not call each other.
 */
#include <errno.h>
#include <math.h>

#include "sim_int.h"

void sim_event(struct sim *s, enum trace_event_kind k, uint32_t entity,
	       uint32_t target, double x, double y, int32_t value)
{
	struct trace_event e = {
		.t_ns = s->t_ns,
		.kind = k,
		.entity = entity,
		.target = target,
		.x = x,
		.y = y,
		.z = 0,
		.value = value,
	};

	if (s->ev && trace_events_append(s->ev, &e))
		s->err = -ENOMEM;
}

static double respawn_delay(const struct sim *s)
{
	switch (s->m->mode) {
	case MAP_DEATHMATCH:
		return 1.7;
	case MAP_TEAMS:
		return 4.0;
	case MAP_LOOP:
		return 2.0;
	default:
		return -1; /* defuse: next round */
	}
}

void sim_damage(struct sim *s, struct bot *shooter, struct bot *victim, int dmg)
{
	int h = dmg;

	if (!victim->alive)
		return;
	if (victim->armor > 0) {
		/* armor takes part of the hit (CS-like ratio 0.5) */
		int a = dmg / 2;

		if (a > victim->armor)
			a = victim->armor;
		victim->armor -= a;
		h = dmg - a;
	}
	victim->health -= h;
	sim_event(s, TRACE_EV_HIT, shooter->id, victim->id, victim->b.x,
		  victim->b.y, h);
	/* the victim knows where it came from */
	victim->aware_yaw = fmod(
		atan2(shooter->b.y - victim->b.y, shooter->b.x - victim->b.x) *
				180.0 / M_PI +
			360.0,
		360.0);
	victim->aware_until = s->t + 1.0;
	if (victim->health <= 0) {
		double d = respawn_delay(s);

		victim->health = 0;
		victim->alive = 0;
		victim->b.vx = victim->b.vy = 0;
		victim->respawn_at = d >= 0 ? s->t + d : -1;
		sim_event(s, TRACE_EV_DEATH, victim->id, shooter->id,
			  victim->b.x, victim->b.y, 0);
	}
}

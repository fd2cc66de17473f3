/*
 * sim.c: the world's clock and rules. Each tick: items respawn, the
 * defuse round is decided or restarted, mutual line of sight is computed
 * once per pair, every bot thinks (bot.c) and moves (move.c), picks up
 * items it touches, and one trace sample per bot is recorded. Damage and
 * death are in combat.c; respawn lives here. Mode rules are documented in
 * docs/world.md.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>

#include "geom.h"
#include "sim_int.h"

#define ROUND_S	    100.0
#define BOMB_S	    40.0
#define ROUND_GAP_S 3.0
#define PICKUP_R    40.0

void sim_config_defaults(struct sim_config *c)
{
	memset(c, 0, sizeof(*c));
	c->seed = 1;
	c->nbots = 10;
	c->duration_s = 60;
	c->tick_hz = 64;
	move_defaults(&c->mp);
}

static int spawn_taken(const struct sim *s, const struct bot *self, double x,
		       double y)
{
	for (int i = 0; i < s->n; i++) {
		const struct bot *o = &s->bots[i];

		if (o != self && o->alive && hypot(o->b.x - x, o->b.y - y) < 48)
			return 1;
	}
	return 0;
}

static void spawn(struct sim *s, struct bot *b)
{
	const struct map *m = s->m;
	int cand[MAP_MAX_SPAWNS] = {0}, n = 0, pick;

	for (int i = 0; i < m->nspawns; i++)
		if (m->spawns[i].team == 0 || m->spawns[i].team == b->team)
			cand[n++] = i;
	if (n == 0)
		for (int i = 0; i < m->nspawns; i++)
			cand[n++] = i;
	if (m->mode == MAP_LOOP && b->team == 1 && s->loop_route >= 0) {
		const struct map_waypoint *w =
			&m->waypoints[m->routes[s->loop_route].wp[0]];

		b->b.x = w->x;
		b->b.y = w->y;
		b->route_i = 0;
	} else {
		pick = cand[wrng_below(&s->rng, (uint32_t)n)];
		for (int tries = 0; tries < 2 * n; tries++) {
			int c = cand[wrng_below(&s->rng, (uint32_t)n)];

			if (!spawn_taken(s, b, m->spawns[c].x,
					 m->spawns[c].y)) {
				pick = c;
				break;
			}
		}
		b->b.x = m->spawns[pick].x;
		b->b.y = m->spawns[pick].y;
	}
	bot_reset_life(s, b);
	{
		double cx = m->w * m->cell / 2, cy = m->h * m->cell / 2;

		b->yaw = fmod(atan2(cy - b->b.y, cx - b->b.x) * 180.0 / M_PI +
				      360.0,
			      360.0);
	}
	sim_event(s, TRACE_EV_SPAWN, b->id, TRACE_NONE, b->b.x, b->b.y,
		  b->health);
}

static void new_round(struct sim *s)
{
	s->round_start = s->t;
	s->round_end_at = 0;
	s->planted = 0;
	s->site =
		s->m->nobj ? (int)wrng_below(&s->rng, (uint32_t)s->m->nobj) : 0;
	/* everyone respawns on the next tick, so the trace shows one
	 * sample with alive=0 before the jump to the spawn */
	for (int i = 0; i < s->n; i++) {
		s->bots[i].alive = 0;
		s->bots[i].b.vx = s->bots[i].b.vy = 0;
		s->bots[i].respawn_at = s->t + s->dt / 2;
	}
}

static void rules(struct sim *s)
{
	for (int i = 0; i < s->m->nitems; i++)
		if (!s->items[i].present && s->t >= s->items[i].respawn_at)
			s->items[i].present = 1;
	for (int i = 0; i < s->n; i++) {
		struct bot *b = &s->bots[i];

		if (!b->alive && b->respawn_at >= 0 && s->t >= b->respawn_at)
			spawn(s, b);
	}
	if (s->m->mode == MAP_DEFUSE) {
		int alive[3] = {0, 0, 0};

		for (int i = 0; i < s->n; i++)
			if (s->bots[i].alive && s->bots[i].team <= 2)
				alive[s->bots[i].team]++;
		if (s->round_end_at <= 0) {
			int over = (!alive[1] && !s->planted) || !alive[2] ||
				   (s->planted && s->t - s->bomb_t >= BOMB_S) ||
				   (!s->planted &&
				    s->t - s->round_start >= ROUND_S);

			if (over)
				s->round_end_at = s->t + ROUND_GAP_S;
		} else if (s->t >= s->round_end_at) {
			new_round(s);
		}
	}
}

static void visibility(struct sim *s)
{
	for (int i = 0; i < s->n; i++) {
		s->vis[i][i] = 0;
		for (int j = i + 1; j < s->n; j++) {
			struct bot *a = &s->bots[i], *b = &s->bots[j];
			int v = a->alive && b->alive && sim_enemies(s, a, b) &&
				geom_los(s->m, a->b.x, a->b.y, b->b.x, b->b.y);

			s->vis[i][j] = s->vis[j][i] = (uint8_t)v;
		}
	}
}

static void pickups(struct sim *s, struct bot *b)
{
	const struct map *m = s->m;

	for (int i = 0; i < m->nitems; i++) {
		const struct map_item *it = &m->items[i];
		int got = 0;

		if (!s->items[i].present ||
		    hypot(it->x - b->b.x, it->y - b->b.y) > PICKUP_R)
			continue;
		switch (it->kind) {
		case ITEM_HEALTH: {
			int cap = it->amount >= 100 ? 200 : 100;

			if (b->health < cap) {
				got = b->health + it->amount > cap
					      ? cap - b->health
					      : it->amount;
				b->health += got;
			}
			break;
		}
		case ITEM_ARMOR:
			if (b->armor < 200) {
				got = b->armor + it->amount > 200
					      ? 200 - b->armor
					      : it->amount;
				b->armor += got;
			}
			break;
		case ITEM_WEAPON:
		case ITEM_AMMO:
			if (b->ammo < 200) {
				got = b->ammo + it->amount > 200 ? 200 - b->ammo
								 : it->amount;
				b->ammo += got;
				if (b->mag == 0 && b->reload_until <= 0)
					b->mag = b->ammo < 30 ? b->ammo : 30;
			}
			break;
		}
		if (got > 0) {
			s->items[i].present = 0;
			s->items[i].respawn_at = s->t + it->respawn_s;
			sim_event(s, TRACE_EV_PICKUP, b->id, (uint32_t)i, it->x,
				  it->y, got);
		}
	}
}

static int record(struct sim *s, struct trace *t)
{
	for (int i = 0; i < s->n; i++) {
		const struct bot *b = &s->bots[i];
		struct trace_sample x = {
			.t_ns = s->t_ns,
			.entity = b->id,
			.team = b->team,
			.alive = (uint8_t)b->alive,
			.x = b->b.x,
			.y = b->b.y,
			.vx = b->b.vx,
			.vy = b->b.vy,
			.yaw = b->yaw,
			.health = (int16_t)b->health,
			.armor = (int16_t)b->armor,
			.ammo = (int16_t)b->ammo,
			.stance = (uint8_t)b->stance,
		};
		int rc = trace_append(t, &x);

		if (rc)
			return rc;
	}
	return 0;
}

int sim_run(const struct map *m, const struct sim_config *c, struct trace *t,
	    struct trace_events *ev)
{
	return sim_run_stats(m, c, t, ev, NULL);
}

int sim_run_stats(const struct map *m, const struct sim_config *c,
		  struct trace *t, struct trace_events *ev,
		  struct sim_stats *st)
{
	struct sim *s;
	int rc = sim_open(m, c, t, ev, &s);

	if (rc)
		return rc;
	rc = sim_step_until(s, INT64_MAX, t, ev);
	if (!rc && st)
		*st = s->stats;
	sim_close(s);
	return rc;
}

int sim_open(const struct map *m, const struct sim_config *c, struct trace *t,
	     struct trace_events *ev, struct sim **out)
{
	struct sim *s;
	int rc;

	if (c->nbots < 1 || c->nbots > SIM_MAX_BOTS || !(c->duration_s > 0) ||
	    c->duration_s > 86400 || c->tick_hz < 1 || c->tick_hz > 1000 ||
	    !(c->mp.max_speed > 0) || !(c->mp.radius > 0) ||
	    c->mp.radius * 2 >= m->cell)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->m = m;
	s->cfg = *c;
	s->n = c->nbots;
	s->dt = 1.0 / c->tick_hz;
	s->ticks = (long)ceil(c->duration_s * c->tick_hz - 1e-9);
	wrng_seed(&s->rng, c->seed, 0);
	rc = nav_init(&s->nav, m);
	if (rc) {
		free(s);
		return rc;
	}
	s->loop_route = -1;
	for (int i = 0; i < m->nroutes && s->loop_route < 0; i++)
		if (m->routes[i].loop)
			s->loop_route = i;
	for (int i = 0; i < m->nitems; i++) {
		s->items[i].present = 1;
		s->ammo_items |= m->items[i].kind == ITEM_AMMO ||
				 m->items[i].kind == ITEM_WEAPON;
	}
	for (int i = 0; i < s->n; i++)
		bot_init(s, &s->bots[i], (uint32_t)i);
	t->tick_ns = (int64_t)llround(1e9 / c->tick_hz);
	t->seed = c->seed;
	snprintf(t->map, sizeof(t->map), "%s", m->name);
	s->ev = ev;
	new_round(s);
	for (int i = 0; i < s->n; i++)
		spawn(s, &s->bots[i]);
	s->ev = NULL;
	*out = s;
	return 0;
}

/* One tick: the rules, the record of every bot, then their moves. */
static int tick(struct sim *s, long k, struct trace *t)
{
	int rc;

	s->t = (double)k * s->dt;
	s->t_ns = (int64_t)((k * (int64_t)1000000000) / s->cfg.tick_hz);
	rules(s);
	rc = record(s, t);
	if (rc)
		return rc;
	visibility(s);
	for (int i = 0; i < s->n; i++) {
		struct bot *b = &s->bots[i];
		double wx, wy, ws;

		if (!b->alive)
			continue;
		bot_think(s, b, &wx, &wy, &ws);
		move_step(s->m, &s->cfg.mp, &b->b, wx, wy, ws, s->dt);
		pickups(s, b);
	}
	return s->err;
}

int64_t sim_next_ns(const struct sim *s)
{
	if (s->k >= s->ticks)
		return INT64_MAX;
	return (int64_t)((s->k * (int64_t)1000000000) / s->cfg.tick_hz);
}

long sim_ticks(const struct sim *s)
{
	return s->ticks;
}

int sim_step_until(struct sim *s, int64_t t_ns, struct trace *t,
		   struct trace_events *ev)
{
	int rc = s->err;

	s->ev = ev;
	while (!rc && sim_next_ns(s) < t_ns)
		rc = tick(s, s->k++, t);
	s->ev = NULL;
	if (rc)
		s->err = rc;
	return rc;
}

void sim_close(struct sim *s)
{
	if (!s)
		return;
	nav_free(&s->nav);
	free(s);
}

/*
 * bot.c: what a bot decides each tick. Perception first: an enemy is
 * seen when the line of sight is clear and it is inside the field of
 * view; it is acted on only after the bot's reaction time. Engaged bots
 * pick a tactic (stop-and-shoot, strafe, push, crouch), fire when their
 * aim has turned onto the target, and fall back to cover when hurt, then
 * peek out again. Otherwise they pursue the mode's goal: bomb-site routes
 * and holds (defuse), items by need (deathmatch), rally points (teams),
 * or the loop and its pursuit (loop). Our own design after the behaviour
 * the papers describe (docs/world.md); no predictor's model is used.
 */
#include <math.h>
#include <string.h>

#include "geom.h"
#include "sim_int.h"

#define FOV_HALF_DEG  70.0
#define NEAR_SENSE    160.0 /* u: felt even outside the field of view */
#define VIEW_RANGE    4000.0
#define LOSE_AFTER_S  0.3
#define MAG_SIZE      30
#define RELOAD_S      2.5
#define FIRE_PERIOD_S 0.1
#define FREEZE_S      2.0
#define PLANT_S	      3.0
#define DEFUSE_S      5.0
#define PEEK_SHOOT_S  0.8 /* s of fighting from a peek before ducking back */
#define MAX_PEEKS     2	  /* peeks per fall-back to cover */

static double angdiff(double from, double to)
{
	double d = fmod(to - from, 360.0);

	if (d > 180.0)
		d -= 360.0;
	else if (d <= -180.0)
		d += 360.0;
	return d;
}

static double yaw_of(double dx, double dy)
{
	double y = atan2(dy, dx) * 180.0 / M_PI;

	return y < 0 ? y + 360.0 : y;
}

static double norm_yaw(double y)
{
	y = fmod(y, 360.0);
	return y < 0 ? y + 360.0 : y;
}

void bot_init(struct sim *s, struct bot *b, uint32_t id)
{
	struct personality *p = &b->p;

	memset(b, 0, sizeof(*b));
	b->id = id;
	wrng_seed(&b->rng, s->cfg.seed, (uint64_t)id + 1);
	/* a human-like spread of reaction times (about 0.2-0.35 s) */
	p->reaction_s = 0.17 + 0.18 * wrng_uniform(&b->rng);
	p->accuracy = wrng_range(&b->rng, 0.30, 0.70);
	p->aggression = wrng_uniform(&b->rng);
	p->strafe_pref = wrng_uniform(&b->rng);
	p->fallback_health = wrng_range(&b->rng, 20, 55);
	p->health_seek = wrng_range(&b->rng, 40, 80);
	p->turn_rate = wrng_range(&b->rng, 300, 720);
	p->walk_pref = wrng_range(&b->rng, 0, 0.6);
	p->lurk = wrng_range(&b->rng, 0, 0.35);
	switch (s->m->mode) {
	case MAP_DEATHMATCH:
		b->team = 0;
		break;
	case MAP_LOOP:
		b->team = id == 0 ? 1 : 2;
		break;
	default:
		b->team = (uint8_t)(1 + id % 2);
		break;
	}
	b->target = -1;
}

void bot_reset_life(struct sim *s, struct bot *b)
{
	b->alive = 1;
	b->health = 100;
	b->armor = s->m->mode == MAP_DEFUSE ? 100 : 0;
	b->ammo = s->m->mode == MAP_DEATHMATCH ? 100 : 120;
	b->mag = b->ammo < MAG_SIZE ? b->ammo : MAG_SIZE;
	b->b.vx = b->b.vy = 0;
	b->stance = TRACE_STAND;
	b->goal = G_NONE;
	b->npath = 0;
	b->route = -1;
	b->target = -1;
	b->seen_since = b->lost_at = -1e9;
	b->next_fire = b->reload_until = 0;
	b->burst = 0;
	b->tac_until = 0;
	b->peeks = 0;
	b->peek_seen = -1;
	b->aware_until = 0;
	b->plant_t = 0;
	b->stuck_n = 0;
}

static int in_fov(const struct bot *b, const struct bot *o)
{
	double dx = o->b.x - b->b.x, dy = o->b.y - b->b.y;

	if (hypot(dx, dy) < NEAR_SENSE)
		return 1;
	return fabs(angdiff(b->yaw, yaw_of(dx, dy))) <= FOV_HALF_DEG;
}

static void perceive(struct sim *s, struct bot *b)
{
	int best = -1, bi = (int)(b - s->bots);
	double bestd = VIEW_RANGE;

	for (int i = 0; i < s->n; i++) {
		struct bot *o = &s->bots[i];
		double d;

		if (i == bi || !o->alive || !sim_enemies(s, b, o) ||
		    !s->vis[bi][i])
			continue;
		d = hypot(o->b.x - b->b.x, o->b.y - b->b.y);
		/* keep tracking a target already acquired even if the
		 * turn has not caught up with it */
		if (!in_fov(b, o) && i != b->target)
			continue;
		if (d < bestd || (i == b->target && d < VIEW_RANGE)) {
			if (best == b->target && best >= 0 && i != best)
				continue;
			best = i;
			bestd = d;
		}
	}
	if (best >= 0) {
		if (best != b->target || s->t - b->lost_at > LOSE_AFTER_S)
			b->seen_since = s->t;
		b->target = best;
		b->lost_at = s->t;
		b->last_x = s->bots[best].b.x;
		b->last_y = s->bots[best].b.y;
	} else if (b->target >= 0 && s->t - b->lost_at > LOSE_AFTER_S) {
		b->target = -1;
	}
}

/* One shot at o when the aim is on it. A bot only shoots at what it can
 * see: a target still tracked after line of sight was lost (LOSE_AFTER_S)
 * is aimed at but not fired on. The hit also needs a clear line at the
 * instant of the shot, from the shooter to where the victim is now (a bot
 * earlier in this tick's order may already have stepped behind cover). */
static void fire(struct sim *s, struct bot *b, struct bot *o, double aim)
{
	double dist, p, sp, osp;
	int hit;

	if (b->mag == 0) {
		/* maps without ammo items: an unlimited reserve */
		if (b->ammo == 0 && !s->ammo_items)
			b->ammo = 120;
		if (b->ammo > 0 && b->reload_until <= 0)
			b->reload_until = s->t + RELOAD_S;
		if (b->reload_until > 0 && s->t >= b->reload_until) {
			b->mag = b->ammo < MAG_SIZE ? b->ammo : MAG_SIZE;
			b->reload_until = 0;
		}
		return;
	}
	if (fabs(angdiff(b->yaw, aim)) > 8.0 || s->t < b->next_fire)
		return;
	if (!o->alive || !s->vis[b - s->bots][o - s->bots])
		return;
	b->mag--;
	b->ammo--;
	sim_event(s, TRACE_EV_FIRE, b->id, o->id, b->b.x, b->b.y, 0);
	dist = hypot(o->b.x - b->b.x, o->b.y - b->b.y);
	sp = hypot(b->b.vx, b->b.vy);
	osp = hypot(o->b.vx, o->b.vy);
	p = b->p.accuracy / (1.0 + (dist / 1200.0) * (dist / 1200.0));
	/* CS-like: accurate only below about a third of the run speed */
	if (sp > 0.34 * s->cfg.mp.max_speed)
		p *= 0.25;
	p *= 1.0 - 0.3 * osp / s->cfg.mp.max_speed;
	if (b->stance == TRACE_CROUCH)
		p *= 1.2;
	if (p > 0.95)
		p = 0.95;
	hit = wrng_uniform(&b->rng) < p;
	if (hit && geom_los(s->m, b->b.x, b->b.y, o->b.x, o->b.y)) {
		int dmg;

		if (s->m->mode == MAP_DEATHMATCH)
			dmg = 7; /* Quake III machine gun in deathmatch; no
				    headshots */
		else
			dmg = wrng_uniform(&b->rng) < 0.15 * b->p.accuracy
				      ? 120 /* head */
				      : 27; /* body, CS-rifle-like */
		sim_damage(s, b, o, dmg);
	}
	b->next_fire = s->t + FIRE_PERIOD_S;
	if (++b->burst >= 3 + (int)wrng_below(&b->rng, 4)) {
		b->burst = 0;
		b->next_fire += wrng_range(&b->rng, 0.15, 0.4);
	}
	if (b->mag == 0 && b->ammo > 0)
		b->reload_until = s->t + RELOAD_S;
}

static void combat(struct sim *s, struct bot *b, double *wx, double *wy,
		   double *ws, double *want_yaw)
{
	struct bot *o = &s->bots[b->target];
	double dx = o->b.x - b->b.x, dy = o->b.y - b->b.y, d = hypot(dx, dy);
	double aim = yaw_of(dx, dy), cx, cy;
	const struct move_params *mp = &s->cfg.mp;

	*want_yaw = aim;
	*wx = *wy = 0;
	*ws = mp->max_speed;
	b->stance = TRACE_STAND;
	if (b->goal == G_PEEK) {
		/* out in the open again: fight for PEEK_SHOOT_S from the
		 * first moment of this peek's engagement, then duck back */
		if (b->peek_seen < 0)
			b->peek_seen = s->t;
		if (s->t - b->peek_seen >= PEEK_SHOOT_S) {
			if (botnav_find_cover(s, b, o->b.x, o->b.y, &cx, &cy) ==
				    0 &&
			    botnav_goto(s, b, cx, cy, G_COVER) == 0) {
				b->cover_until =
					s->t + wrng_range(&b->rng, 0.8, 2.0);
				s->stats.duckbacks++;
			} else {
				/* nowhere to duck: the peek is over */
				b->goal = G_NONE;
				b->npath = 0;
			}
		}
	}
	/* a bot already in cover or peeking from it is in the middle of a
	 * fall-back; only a fresh one starts another */
	if (b->goal != G_COVER && b->goal != G_PEEK &&
	    b->health < b->p.fallback_health && b->p.aggression < 0.8) {
		if (botnav_find_cover(s, b, o->b.x, o->b.y, &cx, &cy) == 0 &&
		    botnav_goto(s, b, cx, cy, G_COVER) == 0) {
			b->peek_x = b->b.x;
			b->peek_y = b->b.y;
			b->peeks = 0;
			b->cover_until = s->t + wrng_range(&b->rng, 1.0, 2.5);
			s->stats.fallbacks++;
		}
	}
	if (b->goal == G_COVER) {
		if (!botnav_follow(s, b, wx, wy)) {
			fire(s, b, o, aim);
			return;
		}
	}
	if (s->t >= b->tac_until) {
		double r = wrng_uniform(&b->rng);

		if (b->p.aggression > 0.6 && b->health > 60 &&
		    r < b->p.aggression * 0.4)
			b->tac = TAC_PUSH;
		else if (wrng_uniform(&b->rng) < b->p.strafe_pref)
			b->tac = TAC_STRAFE;
		else if (wrng_uniform(&b->rng) < 0.2)
			b->tac = TAC_CROUCH;
		else
			b->tac = TAC_STOPSHOOT;
		b->strafe_dir = wrng_uniform(&b->rng) < 0.5 ? -1 : 1;
		b->tac_until = s->t + wrng_range(&b->rng, 0.3, 0.9);
	}
	switch (b->tac) {
	case TAC_STRAFE: {
		double px = -dy / d * b->strafe_dir,
		       py = dx / d * b->strafe_dir;

		if (geom_raycast(s->m, b->b.x, b->b.y, px, py, 64) < 48) {
			b->strafe_dir = -b->strafe_dir;
			px = -px;
			py = -py;
		}
		*wx = px;
		*wy = py;
		break;
	}
	case TAC_PUSH:
		if (d > 200 && geom_clear(s->m, b->b.x, b->b.y, o->b.x, o->b.y,
					  mp->radius + 2)) {
			*wx = dx / d;
			*wy = dy / d;
		}
		break;
	case TAC_CROUCH:
		b->stance = TRACE_CROUCH;
		*ws = mp->crouch_speed;
		break;
	case TAC_STOPSHOOT:
		break;
	}
	fire(s, b, o, aim);
}

/* Routes named TEAM.OBJECTIVE.LABEL belong to team TEAM toward OBJECTIVE
 * (docs/world.md). Picks one at random, preferring objective obj (any
 * objective if obj < 0). */
static int pick_route(struct sim *s, struct bot *b, int obj)
{
	const struct map *m = s->m;
	int cand[MAP_MAX_ROUTES], n = 0;

	for (int i = 0; i < m->nroutes; i++) {
		const char *name = m->routes[i].name;
		const char *tn = m->team_name[b->team];
		size_t tl = strlen(tn);
		const char *dot;

		if (!tl || strncmp(name, tn, tl) || name[tl] != '.')
			continue;
		dot = strchr(name + tl + 1, '.');
		if (!dot)
			continue;
		if (obj >= 0) {
			const char *on = m->obj[obj].name;

			if ((size_t)(dot - (name + tl + 1)) != strlen(on) ||
			    strncmp(name + tl + 1, on, strlen(on)))
				continue;
		}
		cand[n++] = i;
	}
	if (n == 0)
		return -1;
	return cand[wrng_below(&b->rng, (uint32_t)n)];
}

static int route_objective(const struct sim *s, int route)
{
	const char *dot = strchr(s->m->routes[route].name, '.');

	for (int i = 0; dot && i < s->m->nobj; i++) {
		size_t l = strlen(s->m->obj[i].name);

		if (strncmp(dot + 1, s->m->obj[i].name, l) == 0 &&
		    dot[1 + l] == '.')
			return i;
	}
	return -1;
}

static void team_centroid(const struct sim *s, int team, double *x, double *y)
{
	double sx = 0, sy = 0;
	int n = 0;

	for (int i = 0; i < s->m->nspawns; i++)
		if (s->m->spawns[i].team == team) {
			sx += s->m->spawns[i].x;
			sy += s->m->spawns[i].y;
			n++;
		}
	*x = n ? sx / n : s->m->w * s->m->cell / 2;
	*y = n ? sy / n : s->m->h * s->m->cell / 2;
}

static void hold_at(struct sim *s, struct bot *b, double x, double y, double r,
		    double tmin, double tmax)
{
	double hx, hy;

	botnav_random_floor_near(s, b, x, y, r, &hx, &hy);
	if (botnav_goto(s, b, hx, hy, G_HOLD) == 0) {
		b->hold_until = s->t + wrng_range(&b->rng, tmin, tmax);
		b->walking = wrng_uniform(&b->rng) < b->p.walk_pref;
	}
}

static void hold_look_away_from_home(struct sim *s, struct bot *b)
{
	double ex, ey;

	team_centroid(s, b->team == 1 ? 2 : 1, &ex, &ey);
	b->hold_yaw = norm_yaw(yaw_of(ex - b->b.x, ey - b->b.y) +
			       wrng_range(&b->rng, -50, 50));
}

/* The next goal when the current one is done or missing. */
static void defuse_goal(struct sim *s, struct bot *b)
{
	const struct map *m = s->m;
	int site = s->site;

	if (s->planted) {
		if (b->team == 2) {
			if (hypot(b->b.x - s->bomb_x, b->b.y - s->bomb_y) > 40)
				botnav_goto(s, b, s->bomb_x, s->bomb_y,
					    G_OBJECTIVE);
		} else {
			hold_at(s, b, s->bomb_x, s->bomb_y, 4 * m->cell, 4, 12);
		}
		return;
	}
	if (b->goal == G_ROUTE) {
		const struct map_route *r = &m->routes[b->route];

		if (++b->route_i < r->n) {
			const struct map_waypoint *w =
				&m->waypoints[r->wp[b->route_i]];

			botnav_goto(s, b, w->x, w->y, G_ROUTE);
			return;
		}
		site = route_objective(s, b->route);
		if (site < 0)
			site = s->site;
		botnav_goto(s, b, m->obj[site].x, m->obj[site].y, G_OBJECTIVE);
		b->route = -1;
		return;
	}
	if (b->goal == G_OBJECTIVE || b->goal == G_HOLD) {
		int in_site = -1;

		for (int i = 0; i < m->nobj; i++)
			if (hypot(b->b.x - m->obj[i].x, b->b.y - m->obj[i].y) <
			    m->obj[i].r)
				in_site = i;
		if (b->team == 1 && in_site >= 0) {
			b->goal = G_OBJECTIVE; /* plant: handled in think */
			b->npath = 0;
			return;
		}
		if (in_site < 0)
			in_site = site;
		hold_at(s, b, m->obj[in_site].x, m->obj[in_site].y,
			m->obj[in_site].r + m->cell, 3, 10);
		hold_look_away_from_home(s, b);
		return;
	}
	/* round start */
	if (b->team == 2) {
		site = (int)((b->id / 2 + (wrng_uniform(&b->rng) < 0.3)) %
			     (uint32_t)(m->nobj ? m->nobj : 1));
	} else if (wrng_uniform(&b->rng) < b->p.lurk) {
		site = -1;
	}
	b->route = m->nobj ? pick_route(s, b, site) : -1;
	if (b->route >= 0) {
		const struct map_waypoint *w =
			&m->waypoints[m->routes[b->route].wp[0]];

		b->route_i = 0;
		botnav_goto(s, b, w->x, w->y, G_ROUTE);
	} else if (m->nobj) {
		if (site < 0)
			site = s->site;
		botnav_goto(s, b, m->obj[site].x, m->obj[site].y, G_OBJECTIVE);
	}
}

static void deathmatch_goal(struct sim *s, struct bot *b)
{
	const struct map *m = s->m;
	int best = -1, want = -1;
	double bestd = 1e18;

	if (b->health < b->p.health_seek)
		want = ITEM_HEALTH;
	else if (b->ammo < 40)
		want = wrng_uniform(&b->rng) < 0.5 ? ITEM_AMMO : ITEM_WEAPON;
	else if (b->armor < 50 && wrng_uniform(&b->rng) < 0.6)
		want = ITEM_ARMOR;
	for (int i = 0; want >= 0 && i < m->nitems; i++) {
		double d =
			hypot(m->items[i].x - b->b.x, m->items[i].y - b->b.y);

		if ((int)m->items[i].kind != want || !s->items[i].present)
			continue;
		if (d < bestd) {
			bestd = d;
			best = i;
		}
	}
	if (best < 0 && m->nitems && wrng_uniform(&b->rng) < 0.6)
		best = (int)wrng_below(&b->rng, (uint32_t)m->nitems);
	if (best >= 0) {
		b->item = best;
		botnav_goto(s, b, m->items[best].x, m->items[best].y, G_ITEM);
		return;
	}
	if (m->nwaypoints) {
		const struct map_waypoint *w = &m->waypoints[wrng_below(
			&b->rng, (uint32_t)m->nwaypoints)];

		botnav_goto(s, b, w->x, w->y, G_ROAM);
	} else {
		const struct map_spawn *sp =
			&m->spawns[wrng_below(&b->rng, (uint32_t)m->nspawns)];

		botnav_goto(s, b, sp->x, sp->y, G_ROAM);
	}
}

static void teams_goal(struct sim *s, struct bot *b)
{
	const struct map *m = s->m;

	if (b->goal == G_OBJECTIVE || b->goal == G_ROUTE) {
		hold_at(s, b, b->b.x, b->b.y, 2 * m->cell, 2, 8);
		hold_look_away_from_home(s, b);
		return;
	}
	if (m->nobj) {
		int o = (int)wrng_below(&b->rng, (uint32_t)m->nobj);
		double x, y;

		botnav_random_floor_near(s, b, m->obj[o].x, m->obj[o].y,
					 m->obj[o].r, &x, &y);
		botnav_goto(s, b, x, y, G_OBJECTIVE);
	} else {
		deathmatch_goal(s, b);
	}
}

static void loop_pursuer_goal(struct sim *s, struct bot *b)
{
	const struct map *m = s->m;

	if (s->t - b->lost_at < 6.0 && b->goal != G_CHASE) {
		botnav_goto(s, b, b->last_x, b->last_y, G_CHASE);
		return;
	}
	if (s->loop_route >= 0) {
		const struct map_route *r = &m->routes[s->loop_route];
		const struct map_waypoint *w = &m->waypoints[r->wp[wrng_below(
			&b->rng, (uint32_t)r->n)]];

		botnav_goto(s, b, w->x, w->y, G_ROAM);
	} else {
		deathmatch_goal(s, b);
	}
}

static void loop_bot(struct sim *s, struct bot *b, double *wx, double *wy)
{
	const struct map *m = s->m;
	const struct map_route *r;

	*wx = *wy = 0;
	if (s->loop_route < 0)
		return;
	r = &m->routes[s->loop_route];
	if (b->goal != G_LOOP || botnav_follow(s, b, wx, wy)) {
		const struct map_waypoint *w;

		if (b->goal == G_LOOP)
			b->route_i = (b->route_i + 1) % r->n;
		w = &m->waypoints[r->wp[b->route_i]];
		if (botnav_goto(s, b, w->x, w->y, G_LOOP) == 0)
			botnav_follow(s, b, wx, wy);
	}
}

static void objective_goal(struct sim *s, struct bot *b)
{
	switch (s->m->mode) {
	case MAP_DEFUSE:
		defuse_goal(s, b);
		break;
	case MAP_DEATHMATCH:
		deathmatch_goal(s, b);
		break;
	case MAP_TEAMS:
		teams_goal(s, b);
		break;
	case MAP_LOOP:
		loop_pursuer_goal(s, b);
		break;
	}
}

/* Planting (attackers) and defusing (defenders) in defuse mode: stand
 * crouched on the spot; returns 1 while busy. */
static int plant_or_defuse(struct sim *s, struct bot *b)
{
	const struct map *m = s->m;

	if (m->mode != MAP_DEFUSE || b->goal != G_OBJECTIVE ||
	    s->round_end_at > 0)
		return 0;
	if (b->team == 1 && !s->planted) {
		for (int i = 0; i < m->nobj; i++) {
			if (hypot(b->b.x - m->obj[i].x, b->b.y - m->obj[i].y) >=
			    m->obj[i].r)
				continue;
			b->plant_t += s->dt;
			if (b->plant_t >= PLANT_S) {
				s->planted = 1;
				s->site = i;
				s->bomb_x = b->b.x;
				s->bomb_y = b->b.y;
				s->bomb_t = s->t;
				b->plant_t = 0;
				b->goal = G_NONE;
				/* everyone learns of the plant */
				for (int k = 0; k < s->n; k++)
					if (s->bots[k].goal != G_COVER &&
					    s->bots[k].goal != G_PEEK)
						s->bots[k].goal = G_NONE;
				return 0;
			}
			return 1;
		}
	}
	if (b->team == 2 && s->planted &&
	    hypot(b->b.x - s->bomb_x, b->b.y - s->bomb_y) <= 40) {
		b->plant_t += s->dt;
		if (b->plant_t >= DEFUSE_S) {
			s->round_end_at = s->t + 3.0;
			s->planted = 0;
		}
		return 1;
	}
	b->plant_t = 0;
	return 0;
}

void bot_think(struct sim *s, struct bot *b, double *wx, double *wy,
	       double *wspeed)
{
	const struct move_params *mp = &s->cfg.mp;
	double want_yaw = b->yaw, rate = b->p.turn_rate, sp;
	int engaged;

	*wx = *wy = 0;
	*wspeed = 0;
	if (!b->alive)
		return;
	if (s->m->mode == MAP_LOOP && b->team == 1) {
		loop_bot(s, b, wx, wy);
		*wspeed = mp->max_speed;
		sp = hypot(b->b.vx, b->b.vy);
		if (sp > 30)
			want_yaw = yaw_of(b->b.vx, b->b.vy);
		goto turn;
	}
	perceive(s, b);
	if (s->m->mode == MAP_DEFUSE && s->t - s->round_start < FREEZE_S)
		return;
	/* no ammo (deathmatch, before a pickup): run for items instead */
	engaged = b->target >= 0 && s->t - b->seen_since >= b->p.reaction_s &&
		  (b->ammo > 0 || !s->ammo_items);
	if (b->reload_until > 0 && s->t >= b->reload_until) {
		b->mag = b->ammo < MAG_SIZE ? b->ammo : MAG_SIZE;
		b->reload_until = 0;
	}
	if (engaged) {
		combat(s, b, wx, wy, wspeed, &want_yaw);
		rate *= 3.0; /* a flick onto the target */
		if (*wspeed == mp->max_speed && b->walking &&
		    b->tac == TAC_STRAFE)
			*wspeed = mp->walk_speed;
		goto turn;
	}
	if (b->target >= 0)
		want_yaw = yaw_of(s->bots[b->target].b.x - b->b.x,
				  s->bots[b->target].b.y - b->b.y);
	b->stance = TRACE_STAND;
	*wspeed = mp->max_speed;
	if (plant_or_defuse(s, b)) {
		b->stance = TRACE_CROUCH;
		b->npath = 0;
		goto turn;
	}
	if (b->goal == G_ITEM && !s->items[b->item].present)
		b->goal = G_NONE;
	if (b->goal == G_COVER) {
		if (botnav_follow(s, b, wx, wy) && s->t >= b->cover_until) {
			if (b->peeks < MAX_PEEKS && b->p.aggression > 0.25 &&
			    botnav_goto(s, b, b->peek_x, b->peek_y, G_PEEK) ==
				    0) {
				b->peeks++;
				b->peek_seen = -1;
				s->stats.peeks++;
				if (b->peeks > s->stats.max_peeks)
					s->stats.max_peeks = b->peeks;
			} else {
				b->goal = G_NONE;
				b->npath = 0;
				b->peeks = 0;
			}
		}
	} else if (b->goal == G_PEEK) {
		if (botnav_follow(s, b, wx, wy)) {
			b->goal = G_NONE;
			b->peeks = 0;
		}
		*wspeed = mp->walk_speed;
	} else if (b->goal == G_HOLD && b->npath == 0) {
		want_yaw = b->hold_yaw;
		if (s->t >= b->hold_until)
			objective_goal(s, b);
	} else {
		if (b->goal == G_NONE && s->t - b->lost_at < 3.0 &&
		    b->p.aggression > 0.5 && s->m->mode != MAP_LOOP) {
			botnav_goto(s, b, b->last_x, b->last_y, G_CHASE);
			b->lost_at = -1e9;
		}
		if (b->goal == G_NONE || botnav_follow(s, b, wx, wy)) {
			if (b->goal == G_HOLD) {
				b->npath = 0; /* arrived: start holding */
			} else {
				if (b->goal == G_CHASE || b->goal == G_ITEM ||
				    b->goal == G_ROAM)
					b->goal = G_NONE;
				objective_goal(s, b);
				botnav_follow(s, b, wx, wy);
			}
		}
		if (b->goal == G_HOLD && b->walking)
			*wspeed = mp->walk_speed;
	}
	sp = hypot(b->b.vx, b->b.vy);
	if (b->target < 0 && b->goal != G_HOLD && sp > 30)
		want_yaw = yaw_of(b->b.vx, b->b.vy);
	if (b->target < 0 && s->t < b->aware_until)
		want_yaw = b->aware_yaw;
	if (b->goal == G_HOLD && b->npath == 0 && b->target < 0 &&
	    s->t >= b->aware_until)
		want_yaw = b->hold_yaw;
turn : {
	double d = angdiff(b->yaw, want_yaw), lim = rate * s->dt;

	if (b->stance != TRACE_CROUCH)
		b->stance = *wspeed > 0 && *wspeed <= mp->walk_speed
				    ? TRACE_WALK
				    : TRACE_STAND;

	if (d > lim)
		d = lim;
	else if (d < -lim)
		d = -lim;
	b->yaw = norm_yaw(b->yaw + d);
}
}

/*
 * sim_int.h: the state the bot world shares between sim.c (clock, rules,
 * items, damage, trace recording), bot.c (decisions) and botnav.c (path
 * following and cover search). Internal to agents/world.
 */
#ifndef RECKON_WORLD_SIM_INT_H
#define RECKON_WORLD_SIM_INT_H

#include "map.h"
#include "move.h"
#include "nav.h"
#include "rng.h"
#include "sim.h"
#include "trace.h"

#define BOT_PATH_MAX 128

/* Per-bot personality, drawn once from the bot's stream. */
struct personality {
	double reaction_s;	/* delay from first sight to first action */
	double accuracy;	/* 0..1, scales hit probability */
	double aggression;	/* 0..1: push and chase vs hold and fall back */
	double strafe_pref;	/* 0..1: strafe vs stop-and-shoot */
	double fallback_health; /* fall back to cover below this health */
	double health_seek;	/* seek health items below this health */
	double turn_rate;	/* deg/s when not aiming */
	double walk_pref; /* 0..1: walk (quiet) when holding or near goals */
	double lurk;	  /* 0..1: take a route of one's own */
};

enum bot_goal {
	G_NONE,
	G_ROUTE,     /* walking a map route's waypoints */
	G_OBJECTIVE, /* heading for an objective point */
	G_HOLD,	     /* holding a spot, watching a direction */
	G_ITEM,	     /* heading for an item */
	G_ROAM,	     /* a random point of interest */
	G_CHASE,     /* last seen enemy position */
	G_COVER,     /* falling back out of sight */
	G_PEEK,	     /* stepping back out to look */
	G_LOOP,	     /* the non-reactive loop bot */
};

enum tactic { TAC_STOPSHOOT, TAC_STRAFE, TAC_PUSH, TAC_CROUCH };

struct bot {
	uint32_t id;
	uint8_t team;
	int alive;
	struct body b;
	double yaw; /* degrees, [0,360) */
	int health, armor, ammo, mag;
	int stance;
	struct wrng rng;
	struct personality p;

	/* navigation */
	enum bot_goal goal;
	double gx, gy; /* goal point */
	struct nav_pt path[BOT_PATH_MAX];
	int npath, ipath;
	int route, route_i; /* map route being walked, next waypoint */
	int item;	    /* item sought */
	double stuck_t, stuck_x, stuck_y;
	int stuck_n;
	double hold_until, hold_yaw;
	int walking;

	/* combat */
	int target;	       /* bot index or -1 */
	double seen_since;     /* when target became visible */
	double lost_at;	       /* when target was last visible */
	double last_x, last_y; /* where it was last seen */
	double next_fire, reload_until, burst_pause;
	int burst;
	enum tactic tac;
	double tac_until;
	int strafe_dir;
	double peek_x, peek_y; /* exposed point we fell back from */
	int peeks;	       /* peeks in the current fall-back */
	double peek_seen;      /* first engagement of this peek, -1 none */
	double cover_until;
	double aware_yaw;
	double aware_until;

	double respawn_at;
	double plant_t; /* time spent planting or defusing */
};

struct item_state {
	int present;
	double respawn_at;
};

struct sim {
	const struct map *m;
	struct sim_config cfg;
	struct nav nav;
	struct wrng rng;
	struct bot bots[SIM_MAX_BOTS];
	int n;
	struct item_state items[MAP_MAX_ITEMS];
	double t, dt;
	int64_t t_ns;
	long k, ticks; /* the next tick to run, and the run's number */
	struct trace_events *ev;
	int err;
	uint8_t vis[SIM_MAX_BOTS][SIM_MAX_BOTS]; /* mutual LOS this tick */

	/* defuse rounds */
	double round_start;
	double round_end_at; /* > 0 once the round is decided */
	int site;	     /* objective the attackers go for */
	int planted;
	double bomb_x, bomb_y, bomb_t;
	int loop_route;
	int ammo_items; /* the map has ammo or weapon items */
	struct sim_stats stats;
};

/* Whether a and b fight each other: two bots, of no team or of two. */
static inline int sim_enemies(const struct sim *s, const struct bot *a,
			      const struct bot *b)
{
	(void)s;
	return a != b && (a->team == 0 || a->team != b->team);
}

/* combat.c */
void sim_event(struct sim *s, enum trace_event_kind k, uint32_t entity,
	       uint32_t target, double x, double y, int32_t value);
void sim_damage(struct sim *s, struct bot *shooter, struct bot *victim,
		int dmg);

/* bot.c */
void bot_init(struct sim *s, struct bot *b, uint32_t id);
void bot_reset_life(struct sim *s, struct bot *b);
void bot_think(struct sim *s, struct bot *b, double *wx, double *wy,
	       double *wspeed);

/* botnav.c */
int botnav_goto(struct sim *s, struct bot *b, double x, double y,
		enum bot_goal g);
/* Wished direction along the path; returns 1 when the goal is reached. */
int botnav_follow(struct sim *s, struct bot *b, double *wx, double *wy);
int botnav_find_cover(struct sim *s, struct bot *b, double ex, double ey,
		      double *cx, double *cy);
void botnav_random_floor_near(struct sim *s, struct bot *b, double x, double y,
			      double r, double *ox, double *oy);

#endif

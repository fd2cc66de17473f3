/*
 * scene.h: the thesis's Alice-and-Bob timeline (extraction sections 1.1
 * and 4.2) on a crafted map, shared by the timeline and ALC tests. The
 * server ticks at 60 Hz at t = 25 ms + k / 60 s; Bob (RTT 50 ms, 25 ms
 * each way) sends update Lk at k / 60 s, so Lk arrives just before tick
 * k, and Alice (RTT 250 ms) stands still. Bob walks +x at 250 u/s along
 * y = 100 from x = 160. Map (cell 64): all floor except a wall along row
 * 2 (y in [128, 192)) from column 3 (x >= 192): Alice at (160, 1000)
 * sees Bob at x = 160 straight up column 2, and by x = 235 the wall is
 * between them.
 */
#ifndef RECKON_TEST_LAGCOMP_SCENE_H
#define RECKON_TEST_LAGCOMP_SCENE_H

#include <errno.h>
#include <math.h>

#include "lagcomp/lagcomp.h"
#include "testmap.h"

#define MS	  1000000LL
#define ALICE	  0
#define BOB	  1
#define BOB_SPEED 250.0 /* u/s */
#define BOB_X0	  160.0
#define RTT_ALICE 250.0
#define RTT_BOB	  50.0

struct scene {
	struct map m;
	struct lc_server s;
	struct lc_out out[LC_MAX_OUT];
	int nout;
	int bob_dir; /* 0: walks +x, 1: walks +y (towards Alice) */
};

static inline void scene_map(struct map *m)
{
	tm_from_grid(m, 64,
		     "................\n"
		     "................\n"
		     "...#############\n"
		     "................\n................\n................\n"
		     "................\n................\n................\n"
		     "................\n................\n................\n"
		     "................\n................\n................\n"
		     "................\n................");
}

/* Bob's pose at time t (seconds since L0 was sent). */
static inline struct lc_pose scene_bob(const struct scene *sc, double t)
{
	struct lc_pose p = {BOB_X0, 100, 0, 0};

	if (sc->bob_dir == 0)
		p.x += BOB_SPEED * t;
	else {
		p.y += BOB_SPEED * t;
		p.yaw = 90;
	}
	return p;
}

static inline struct lc_pose scene_alice(void)
{
	return (struct lc_pose){160, 1000, 270, 0};
}

static inline int64_t scene_tick_ns(int k)
{
	return 25 * MS + (int64_t)llround(k * 1e9 / 60);
}

static inline void scene_init(struct scene *sc, enum lc_mode mode, int bob_dir)
{
	struct lc_config c;
	struct lc_pose a = scene_alice();
	char why[128] = "";

	scene_map(&sc->m);
	sc->bob_dir = bob_dir;
	lc_config_defaults(&c);
	c.mode = mode;
	c.ping = LC_PING_INSTANT;
	cr_assert_eq(lc_server_init(&sc->s, &c, &sc->m, NULL, why, sizeof(why)),
		     0, "%s", why);
	struct lc_pose b = scene_bob(sc, 0);

	cr_assert_eq(lc_server_join(&sc->s, ALICE, 1, &a), 0);
	cr_assert_eq(lc_server_join(&sc->s, BOB, 2, &b), 0);
	lc_server_rtt(&sc->s, ALICE, 0, RTT_ALICE);
	lc_server_rtt(&sc->s, BOB, 0, RTT_BOB);
}

/* Ticks k0..k1: Lk arrives, then the server ticks. */
static inline void scene_ticks(struct scene *sc, int k0, int k1)
{
	for (int k = k0; k <= k1; k++) {
		struct lc_pose b = scene_bob(sc, k / 60.0);

		lc_server_pose(&sc->s, BOB, &b, 1);
		cr_assert_eq(lc_server_tick(&sc->s, k, scene_tick_ns(k),
					    sc->out, LC_MAX_OUT, &sc->nout),
			     0);
	}
}

/* Alice fires at 150 ms at what she sees: Bob's L0 (relayed at the
 * 25 ms tick, 125 ms to her), aimed at his torso centre. The fire
 * reaches the server at 275 ms, after tick 15. */
static inline const struct lc_verdict *scene_fire(struct scene *sc)
{
	struct lc_body *b = &sc->s.body;
	struct lc_pose a = scene_alice(), l0 = scene_bob(sc, 0);
	double eye[3], c[3];
	struct lc_shot shot = {
		.shot_id = 7, .shooter = ALICE, .screen_victim = BOB};
	size_t vi;

	lc_eye(b, &a, eye);
	lc_part_centre(b, &l0, LC_PART_TORSO, c);
	shot.yaw = atan2(c[1] - eye[1], c[0] - eye[0]) * 180 / M_PI;
	shot.pitch = atan2(c[2] - eye[2], hypot(c[0] - eye[0], c[1] - eye[1])) *
		     180 / M_PI;
	scene_ticks(sc, 0, 15);
	cr_assert_eq(lc_server_fire(&sc->s, &shot, 275 * MS, sc->out,
				    LC_MAX_OUT, &sc->nout, &vi),
		     0);
	return &sc->s.v[vi];
}

static inline void scene_free(struct scene *sc)
{
	lc_server_free(&sc->s);
	map_free(&sc->m);
}

#endif

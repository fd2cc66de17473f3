/*
 * test_timeline.c: the thesis timelines as known answers (Lee, chapter 2,
 * Figs 2.1-2.3; extraction sections 1.1 and 2.4). Alice (250 ms) fires at
 * 150 ms at Bob (50 ms) as she sees him (L0); the fire reaches the server
 * at 275 ms. Without compensation the server judges L15 and misses; TLC
 * rolls back 15 frames to L0 and hits; Bob learns of the hit at 300 ms,
 * 300 ms after the pose he was judged on (RTT_s + RTT_v). A Bob who
 * walked behind the wall in that window sees an SBC on arrival, in every
 * mode that registers the hit; one who walked towards Alice does not.
 */
#include <criterion/criterion.h>

#include "scene.h"

Test(timeline, none_judges_L15_and_misses)
{
	struct scene sc;
	const struct lc_verdict *v;

	scene_init(&sc, LC_MODE_NONE, 0);
	v = scene_fire(&sc);
	cr_assert_eq(v->rollback, 0);
	cr_assert_eq(v->state, LC_V_MISS);
	cr_assert_eq(sc.nout, 0);
	/* the newest frame holds L15, sent at 250 ms */
	cr_assert_float_eq(lc_history_back(&sc.s.p[BOB].hist, 0)->pose.x,
			   BOB_X0 + BOB_SPEED * 0.25, 1e-9);
	scene_free(&sc);
}

Test(timeline, tlc_rolls_back_15_frames_to_L0)
{
	struct scene sc;
	const struct lc_verdict *v;
	const struct lc_frame *f;

	scene_init(&sc, LC_MODE_TLC, 0);
	v = scene_fire(&sc);
	cr_assert_eq(v->rollback, 15);
	f = lc_history_back(&sc.s.p[BOB].hist, v->rollback);
	cr_assert_eq(f->tick, 0); /* the 25 ms tick: L0 */
	cr_assert_eq(v->state, LC_V_FINAL);
	cr_assert_eq(v->victim, BOB);
	cr_assert_eq(v->part, LC_PART_TORSO);
	cr_assert_eq(v->registered, 1);
	/* rewind distance: L0 to L15 is 250 ms at 250 u/s */
	cr_assert_float_eq(v->rewind_dist, 62.5, 1e-9);
	/* the hit goes to Bob and the result to Alice at once */
	cr_assert_eq(sc.nout, 2);
	cr_assert_eq(sc.out[0].kind, LC_OUT_HIT_VICTIM);
	cr_assert_eq(sc.out[0].appeal, 0);
	cr_assert_eq(sc.out[1].kind, LC_OUT_HIT_SHOOTER);
	cr_assert_eq(v->result_ns - v->recv_ns, 0);
	scene_free(&sc);
}

Test(timeline, sbc_window_is_rtt_s_plus_rtt_v)
{
	struct scene sc;
	const struct lc_verdict *v;
	const struct lc_frame *f;
	double judged_t, arrival_ms;

	scene_init(&sc, LC_MODE_TLC, 0);
	v = scene_fire(&sc);
	f = lc_history_back(&sc.s.p[BOB].hist, v->rollback);
	/* when Bob was where he was judged (from his walk) */
	judged_t = (f->pose.x - BOB_X0) / BOB_SPEED * 1000;
	arrival_ms = (double)v->recv_ns / MS + RTT_BOB / 2;
	cr_assert_float_eq(judged_t, 0, 1e-9);
	cr_assert_float_eq(arrival_ms - judged_t, RTT_ALICE + RTT_BOB, 1e-9);
	cr_assert_float_eq(arrival_ms - judged_t, 300, 1e-9);
	scene_free(&sc);
}

Test(timeline, high_ping_victim_rollback)
{
	/* Fig. 2.3: Bob (50 ms) fires at Alice (250 ms): 3 frames back,
	 * Alice learns at 300 ms, five sixths of it her own lag */
	cr_assert_eq(lc_rollback_frames(RTT_BOB, 0, 60), 3);
	cr_assert_float_eq(RTT_ALICE / (RTT_ALICE + RTT_BOB), 5.0 / 6, 1e-12);
}

/* The SBC test Bob runs when the hit arrives at 300 ms. */
static int bob_sbc(struct scene *sc)
{
	struct lc_pose now = scene_bob(sc, 0.300), a = scene_alice();

	cr_assert_eq(sc->out[0].kind, LC_OUT_HIT_VICTIM);
	return lc_client_check(&sc->m, &sc->s.body, &now, &sc->out[0], &a);
}

Test(sbc, stepping_behind_the_wall_is_sbc)
{
	struct scene sc;

	scene_init(&sc, LC_MODE_TLC, 0);
	cr_assert_eq(scene_fire(&sc)->registered, 1);
	cr_assert_eq(bob_sbc(&sc), 1);
	/* at L0 the line was clear: the wall came between inside the
	 * window */
	{
		struct lc_pose l0 = scene_bob(&sc, 0);
		double eye[3];
		struct lc_pose a = scene_alice();

		lc_eye(&sc.s.body, &a, eye);
		cr_assert_eq(lc_sbc(&sc.m, &sc.s.body, &l0, sc.out[0].part,
				    sc.out[0].v_local, eye),
			     0);
	}
	scene_free(&sc);
}

Test(sbc, walking_along_the_line_of_fire_is_not)
{
	struct scene sc;
	const struct lc_verdict *v;

	scene_init(&sc, LC_MODE_TLC, 1);
	v = scene_fire(&sc);
	cr_assert_eq(v->registered, 1);
	/* Bob walked 75 u towards Alice, staying in her line of fire */
	cr_assert_eq(bob_sbc(&sc), 0);
	scene_free(&sc);
}

Test(sbc, counted_in_every_mode_that_registers)
{
	enum lc_mode modes[] = {LC_MODE_TLC, LC_MODE_CLC};

	for (int i = 0; i < 2; i++) {
		struct scene sc;
		const struct lc_verdict *v;
		struct lc_pose now;
		struct lc_metrics m;

		scene_init(&sc, modes[i], 0);
		v = scene_fire(&sc);
		cr_assert_eq(v->registered, 1, "mode %s",
			     lc_mode_name(modes[i]));
		now = scene_bob(&sc, 0.300);
		cr_assert_eq(lc_server_reply(&sc.s, sc.out[0].hit_id,
					     bob_sbc(&sc), &now, 15, 300 * MS,
					     sc.out, LC_MAX_OUT, &sc.nout),
			     0);
		/* a measurement only: nothing more is sent */
		cr_assert_eq(sc.nout, 0);
		cr_assert_eq(sc.s.v[0].state, LC_V_FINAL);
		cr_assert_eq(lc_metrics_compute(&sc.s, 50, &m), 0);
		cr_assert_eq(m.sbc_low, 1);
		cr_assert_float_eq(m.sbc100_low, 100, 1e-12);
		cr_assert_eq(lc_server_reply(&sc.s, sc.out[0].hit_id, 1, &now,
					     15, 301 * MS, sc.out, LC_MAX_OUT,
					     &sc.nout),
			     -EALREADY);
		scene_free(&sc);
	}
}

Test(sbc, none_mode_counts_sbc_too)
{
	struct scene sc;
	struct lc_body *b;
	struct lc_pose a = scene_alice(), l3;
	struct lc_shot shot = {
		.shot_id = 1, .shooter = ALICE, .screen_victim = BOB};
	double eye[3], c[3];
	struct lc_pose now;
	struct lc_metrics m;

	/* without compensation the server judges its newest frame: Alice
	 * aims at L3 and the fire arrives after tick 3; the hit event
	 * reaches Bob late (delayed on the way), at 300 ms, when he is
	 * behind the wall */
	scene_init(&sc, LC_MODE_NONE, 0);
	b = &sc.s.body;
	scene_ticks(&sc, 0, 3);
	l3 = scene_bob(&sc, 3 / 60.0);
	lc_eye(b, &a, eye);
	lc_part_centre(b, &l3, LC_PART_TORSO, c);
	shot.yaw = atan2(c[1] - eye[1], c[0] - eye[0]) * 180 / M_PI;
	shot.pitch = atan2(c[2] - eye[2], hypot(c[0] - eye[0], c[1] - eye[1])) *
		     180 / M_PI;
	cr_assert_eq(lc_server_fire(&sc.s, &shot, 80 * MS, sc.out, LC_MAX_OUT,
				    &sc.nout, NULL),
		     0);
	cr_assert_eq(sc.s.v[0].registered, 1);
	cr_assert_eq(sc.s.v[0].rollback, 0);
	now = scene_bob(&sc, 0.300);
	cr_assert_eq(lc_client_check(&sc.m, b, &now, &sc.out[0], &a), 1);
	lc_server_reply(&sc.s, sc.out[0].hit_id, 1, &now, 15, 300 * MS, sc.out,
			LC_MAX_OUT, &sc.nout);
	lc_metrics_compute(&sc.s, 50, &m);
	cr_assert_eq(m.sbc_low, 1);
	scene_free(&sc);
}

Test(clc, rtt_cap_turns_compensation_off)
{
	struct scene sc;
	const struct lc_verdict *v;

	scene_init(&sc, LC_MODE_CLC, 0);
	sc.s.cfg.clc_rtt_cap_ms = 200; /* Alice's 250 ms is over it */
	v = scene_fire(&sc);
	cr_assert_eq(v->compensated, 0);
	cr_assert_eq(v->state, LC_V_MISS);
	scene_free(&sc);

	scene_init(&sc, LC_MODE_CLC, 0);
	sc.s.cfg.clc_rtt_cap_ms = 250; /* "within" is <= */
	v = scene_fire(&sc);
	cr_assert_eq(v->compensated, 1);
	cr_assert_eq(v->rollback, 15);
	cr_assert_eq(v->registered, 1);
	scene_free(&sc);
}

Test(clc, rewind_distance_cap_uses_the_newest_frame)
{
	struct scene sc;
	const struct lc_verdict *v;

	scene_init(&sc, LC_MODE_CLC, 0);
	sc.s.cfg.clc_max_rewind = 60; /* Bob's rewind is 62.5 u */
	v = scene_fire(&sc);
	cr_assert_eq(v->state, LC_V_MISS);
	scene_free(&sc);

	scene_init(&sc, LC_MODE_CLC, 0);
	sc.s.cfg.clc_max_rewind = 63;
	v = scene_fire(&sc);
	cr_assert_eq(v->registered, 1);
	scene_free(&sc);
}

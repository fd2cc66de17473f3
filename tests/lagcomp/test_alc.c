/*
 * test_alc.c: advanced lag compensation (Lee, chapter 7, Algorithm 4;
 * extraction sections 4.2-4.4) on the Alice-and-Bob timeline: a hit on
 * Bob (50 ms <= lowPing) is provisional; a confirm registers it and
 * tells Alice 50 ms later than TLC would; a dropped reply becomes a
 * confirm after 2 x lowPing; a late denial from behind the wall is
 * verified by the server and upheld; a denial the server's own test does
 * not back, or whose pose is far from the server's, is overruled with an
 * irrefutable hit; high-ping victims, and with the optional shooter-ping
 * condition low-ping shooters, cannot appeal.
 */
#include <criterion/criterion.h>

#include "scene.h"

static const struct lc_verdict *alc_fire(struct scene *sc, int bob_dir)
{
	const struct lc_verdict *v;

	scene_init(sc, LC_MODE_ALC, bob_dir);
	v = scene_fire(sc);
	cr_assert_eq(v->state, LC_V_PENDING);
	cr_assert_eq(v->appeal, 1);
	cr_assert_eq(v->registered, 0);
	cr_assert_eq(sc->nout, 1);
	cr_assert_eq(sc->out[0].kind, LC_OUT_HIT_VICTIM);
	cr_assert_eq(sc->out[0].appeal, 1);
	return v;
}

static int reply(struct scene *sc, int deny, double bob_t, int64_t t_ms)
{
	struct lc_pose now = scene_bob(sc, bob_t);

	return lc_server_reply(&sc->s, 1, deny, &now, 15, t_ms * MS, sc->out,
			       LC_MAX_OUT, &sc->nout);
}

Test(alc, confirm_registers_after_the_victims_rtt)
{
	struct scene sc;

	alc_fire(&sc, 0);
	cr_assert_eq(reply(&sc, 0, 0.300, 325), 0);
	cr_assert_eq(sc.s.v[0].state, LC_V_CONFIRMED);
	cr_assert_eq(sc.s.v[0].registered, 1);
	cr_assert_eq(sc.nout, 1);
	cr_assert_eq(sc.out[0].kind, LC_OUT_HIT_SHOOTER);
	/* Alice hears 50 ms later than under TLC (450 vs 400 ms) */
	cr_assert_eq(sc.s.v[0].result_ns - sc.s.v[0].recv_ns, 50 * MS);
	cr_assert_eq(sc.s.npending, 0);
	scene_free(&sc);
}

Test(alc, dropped_confirmation_times_out_as_confirm)
{
	struct scene sc;

	alc_fire(&sc, 0);
	/* tick 20 is at 358.3 ms: 83 ms after the dispatch */
	scene_ticks(&sc, 16, 20);
	cr_assert_eq(sc.s.v[0].state, LC_V_PENDING);
	cr_assert_eq(sc.nout, 0);
	/* tick 21 at 375 ms: 2 x lowPing = 100 ms have passed */
	scene_ticks(&sc, 21, 21);
	cr_assert_eq(sc.s.v[0].state, LC_V_TIMEOUT);
	cr_assert_eq(sc.s.v[0].registered, 1);
	cr_assert_eq(sc.nout, 1);
	cr_assert_eq(sc.out[0].kind, LC_OUT_HIT_SHOOTER);
	cr_assert_eq(sc.s.v[0].result_ns, 375 * MS);
	/* a denial after the timeout is recorded but changes nothing */
	cr_assert_eq(reply(&sc, 1, 0.300, 380), 0);
	cr_assert_eq(sc.s.v[0].sbc, 1);
	cr_assert_eq(sc.s.v[0].state, LC_V_TIMEOUT);
	cr_assert_eq(sc.nout, 0);
	scene_free(&sc);
}

Test(alc, late_denial_from_behind_cover_is_upheld)
{
	struct scene sc;
	struct lc_pose now, a = scene_alice();

	alc_fire(&sc, 0);
	now = scene_bob(&sc, 0.300);
	cr_assert_eq(lc_client_check(&sc.m, &sc.s.body, &now, &sc.out[0], &a),
		     1);
	scene_ticks(&sc, 16, 20);
	/* 90 ms after dispatch: late, but inside the timeout */
	cr_assert_eq(reply(&sc, 1, 0.300, 365), 0);
	cr_assert_eq(sc.s.v[0].state, LC_V_UPHELD);
	cr_assert_eq(sc.s.v[0].registered, 0);
	cr_assert_eq(sc.s.v[0].sbc, 1);
	cr_assert_eq(sc.nout, 0); /* nothing goes to Alice */
	/* and no timeout fires later */
	scene_ticks(&sc, 21, 30);
	cr_assert_eq(sc.s.v[0].state, LC_V_UPHELD);
	cr_assert_eq(sc.nout, 0);
	scene_free(&sc);
}

Test(alc, unfounded_denial_is_overruled)
{
	struct scene sc;

	/* Bob walked towards Alice: the line is clear, yet he denies */
	alc_fire(&sc, 1);
	cr_assert_eq(reply(&sc, 1, 0.300, 325), 0);
	cr_assert_eq(sc.s.v[0].state, LC_V_OVERRULED);
	cr_assert_eq(sc.s.v[0].registered, 1);
	cr_assert_eq(sc.s.v[0].pose_mismatch, 0);
	cr_assert_eq(sc.nout, 2);
	cr_assert_eq(sc.out[0].kind, LC_OUT_HIT_VICTIM);
	cr_assert_eq(sc.out[0].irrefutable, 1);
	cr_assert_eq(sc.out[0].appeal, 0);
	cr_assert_eq(sc.out[1].kind, LC_OUT_HIT_SHOOTER);
	scene_free(&sc);
}

Test(alc, denial_with_a_false_pose_is_overruled)
{
	struct scene sc;
	struct lc_pose hidden = {500, 60, 0, 0};

	alc_fire(&sc, 0);
	scene_ticks(&sc, 16, 18); /* server has Bob near x = 235 */
	/* the claimed pose is > pose_tol (32 u) from the server's */
	cr_assert_eq(lc_server_reply(&sc.s, 1, 1, &hidden, 15, 320 * MS, sc.out,
				     LC_MAX_OUT, &sc.nout),
		     0);
	cr_assert_eq(sc.s.v[0].state, LC_V_OVERRULED);
	cr_assert_eq(sc.s.v[0].pose_mismatch, 1);
	scene_free(&sc);
}

Test(alc, bad_replies)
{
	struct scene sc;
	struct lc_pose p = {0.0 / 0.0, 0, 0, 0};

	alc_fire(&sc, 0);
	cr_assert_eq(lc_server_reply(&sc.s, 0, 0, &p, 0, 0, sc.out, LC_MAX_OUT,
				     &sc.nout),
		     -ENOENT);
	cr_assert_eq(lc_server_reply(&sc.s, 2, 0, &p, 0, 0, sc.out, LC_MAX_OUT,
				     &sc.nout),
		     -ENOENT);
	cr_assert_eq(lc_server_reply(&sc.s, 1, 0, &p, 0, 0, sc.out, LC_MAX_OUT,
				     &sc.nout),
		     -EINVAL);
	cr_assert_eq(sc.s.v[0].state, LC_V_PENDING);
	scene_free(&sc);
}

Test(alc, only_low_ping_victims_appeal)
{
	struct scene sc;
	const struct lc_verdict *v;

	scene_init(&sc, LC_MODE_ALC, 0);
	lc_server_rtt(&sc.s, BOB, 0, 50.5); /* just over lowPing */
	v = scene_fire(&sc);
	cr_assert_eq(v->appeal, 0);
	cr_assert_eq(v->state, LC_V_FINAL);
	cr_assert_eq(sc.nout, 2);
	scene_free(&sc);
}

Test(alc, optional_shooter_ping_condition)
{
	struct scene sc;
	const struct lc_verdict *v;

	scene_init(&sc, LC_MODE_ALC, 0);
	sc.s.cfg.alc_high_ping_ms = 300; /* Alice's 250 ms is below it */
	v = scene_fire(&sc);
	cr_assert_eq(v->appeal, 0);
	cr_assert_eq(v->state, LC_V_FINAL);
	scene_free(&sc);

	scene_init(&sc, LC_MODE_ALC, 0);
	sc.s.cfg.alc_high_ping_ms = 250; /* LAGCOM's value: >= */
	v = scene_fire(&sc);
	cr_assert_eq(v->appeal, 1);
	scene_free(&sc);
}

Test(alc, metrics_of_the_outcomes)
{
	struct scene sc;
	struct lc_metrics m;
	struct lc_shot miss = {
		.shot_id = 9, .shooter = ALICE, .yaw = 0, .screen_victim = -1};

	/* shot 1 upheld, shot 2 confirmed, shot 3 timed out, shot 4 a
	 * miss; all but the miss hit on Alice's screen */
	scene_init(&sc, LC_MODE_ALC, 0);
	scene_ticks(&sc, 0, 15);
	for (int i = 0; i < 3; i++) {
		struct lc_shot s = {.shot_id = (uint32_t)i,
				    .shooter = ALICE,
				    .screen_victim = BOB};
		struct lc_pose a = scene_alice(), l0 = scene_bob(&sc, 0);
		double eye[3], c[3];

		lc_eye(&sc.s.body, &a, eye);
		lc_part_centre(&sc.s.body, &l0, LC_PART_TORSO, c);
		s.yaw = atan2(c[1] - eye[1], c[0] - eye[0]) * 180 / M_PI;
		s.pitch = atan2(c[2] - eye[2],
				hypot(c[0] - eye[0], c[1] - eye[1])) *
			  180 / M_PI;
		lc_server_fire(&sc.s, &s, 275 * MS, sc.out, LC_MAX_OUT,
			       &sc.nout, NULL);
	}
	lc_server_fire(&sc.s, &miss, 275 * MS, sc.out, LC_MAX_OUT, &sc.nout,
		       NULL);
	{
		struct lc_pose now = scene_bob(&sc, 0.300);

		lc_server_reply(&sc.s, 1, 1, &now, 15, 300 * MS, sc.out,
				LC_MAX_OUT, &sc.nout);
		lc_server_reply(&sc.s, 2, 0, &now, 15, 325 * MS, sc.out,
				LC_MAX_OUT, &sc.nout);
	}
	scene_ticks(&sc, 16, 21);
	cr_assert_eq(lc_metrics_compute(&sc.s, 50, &m), 0);
	cr_assert_eq(m.shots, 4);
	cr_assert_eq(m.screen_hits, 3);
	cr_assert_eq(m.server_hits, 3);
	cr_assert_eq(m.registered, 2);
	cr_assert_float_eq(m.reg_accuracy, 2.0 / 3, 1e-12);
	cr_assert_eq(m.provisional, 3);
	cr_assert_eq(m.denials, 1);
	cr_assert_eq(m.upheld, 1);
	cr_assert_eq(m.overruled, 0);
	cr_assert_eq(m.confirmed, 1);
	cr_assert_eq(m.timeouts, 1);
	cr_assert_eq(m.hits_low, 2);
	cr_assert_eq(m.sbc_low, 0);
	cr_assert_eq(m.sbc_unknown, 1); /* the timed-out hit */
	/* delays 50 ms (confirm) and 100 ms (timeout at 375 ms) */
	cr_assert_float_eq(m.delay_mean_ms, 75, 1e-9);
	cr_assert_float_eq(m.delay_p95_ms, 100, 1e-9);
	scene_free(&sc);
}

/*
 * test_dis.c: the "dis" predictor through the predictor interface: the
 * control tests of Steele's paper (000 §VI-C: zero velocity gives no
 * update beyond the heartbeat and zero error; constant velocity along
 * one axis is predicted exactly with no threshold update) for all nine
 * algorithms, the position and orientation thresholds at hand-computed
 * ticks, extrapolation from the producer's timestamp (airbus/sen #312),
 * convergence continuity with per-frame displacement bounds derived in
 * the comments, and rejection of malformed and stale updates.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "predict/predict.h"
#include "predict/replay.h"
#include "predict/vec3.h"

#define HZ	60
#define TICK_NS (1000000000LL / HZ)
/* the tick is 16666666 ns, not 1/60 s: speeds are per real tick */
#define DT ((double)TICK_NS * 1e-9)

static const char *const algs[] = {"static", "fpw", "rpw", "rvw", "fvw",
				   "fpb",    "rpb", "rvb", "fvb"};

static void params(struct predict_params *par, const char *const *kv)
{
	cr_assert_eq(predict_params_init(par, predict_find("dis")), 0);
	for (; kv && *kv; kv++)
		cr_assert_eq(predict_params_set_kv(par, *kv), 0, "%s", *kv);
}

static struct trace_sample *path_new(size_t n)
{
	struct trace_sample *s = calloc(n, sizeof(*s));

	cr_assert(s);
	for (size_t k = 0; k < n; k++) {
		s[k].t_ns = (int64_t)k * TICK_NS;
		s[k].entity = 7;
		s[k].team = 1;
		s[k].alive = 1;
	}
	return s;
}

static void run(const struct predict_params *par, struct trace_sample *s,
		size_t n, double *err, struct replay_result *res)
{
	struct replay_path p = {.s = s, .n = n, .entity = 7, .team = 1};
	struct predict_ctx ctx;

	predict_ctx_init(&ctx);
	cr_assert_eq(replay_run_path(par, &ctx, &p, TICK_NS, err, res), 0);
}

Test(dis, control_zero_velocity_all_algorithms)
{
	/* 12 s standing at (2300, 0, 200): the initial state, heartbeats at
	 * 5 s and 10 s, nothing else, and zero error every tick. */
	size_t n = 12 * HZ;
	struct trace_sample *s = path_new(n);
	double *err = malloc(n * sizeof(*err));

	for (size_t k = 0; k < n; k++) {
		s[k].x = 2300;
		s[k].z = 200;
	}
	for (size_t a = 0; a < 9; a++) {
		struct predict_params par;
		struct replay_result r;
		char kv[64];
		const char *p[] = {kv, NULL};

		snprintf(kv, sizeof(kv), "algorithm=%s", algs[a]);
		params(&par, p);
		run(&par, s, n, err, &r);
		cr_expect_eq(r.by_reason[PREDICT_REASON_INIT], 1);
		cr_expect_eq(r.by_reason[PREDICT_REASON_HEARTBEAT], 2, "%s",
			     algs[a]);
		cr_expect_eq(r.by_reason[PREDICT_REASON_POSITION], 0);
		cr_expect_eq(r.by_reason[PREDICT_REASON_ORIENTATION], 0);
		for (size_t k = 0; k < n; k++)
			cr_expect_eq(err[k], 0.0, "%s tick %zu", algs[a], k);
	}
	free(err);
	free(s);
}

Test(dis, control_constant_velocity_exact)
{
	/* Steele's control data: X = 2300, Z = 200, Y grows 625/36 =
	 * 17.36111 u per 60 Hz frame (1041.67 u/s). Heartbeat off: no
	 * update after the initial one, error 0 up to rounding (positions
	 * ~1e4, so 1e-9 absolute). STATIC cannot follow and is left out. */
	size_t n = 10 * HZ;
	struct trace_sample *s = path_new(n);
	double *err = malloc(n * sizeof(*err));
	double v = 625.0 / 36.0 / DT;

	for (size_t k = 0; k < n; k++) {
		s[k].x = 2300;
		s[k].y = (double)k * 625.0 / 36.0;
		s[k].z = 200;
		s[k].vy = v;
		s[k].yaw = 90; /* facing along +y: body x is world y */
	}
	for (size_t a = 1; a < 9; a++) {
		struct predict_params par;
		struct replay_result r;
		char kv[64];
		const char *p[] = {kv, "heartbeat=0", NULL};

		snprintf(kv, sizeof(kv), "algorithm=%s", algs[a]);
		params(&par, p);
		run(&par, s, n, err, &r);
		cr_expect_eq(r.updates, 0, "%s: %llu updates", algs[a],
			     (unsigned long long)r.updates);
		for (size_t k = 0; k < n; k++)
			cr_expect(err[k] < 1e-9, "%s tick %zu err %g", algs[a],
				  k, err[k]);
	}
	free(err);
	free(s);
}

Test(dis, position_threshold_tick)
{
	/* 60 u/s = 1 u per tick along x for 100 ticks, then standing. FPW
	 * keeps extrapolating: standing at 100.4, the error at tick 100 + j
	 * is j - 0.4 u (no ties with the threshold), so with
	 * threshold 20 (strict >) the one update is at tick 121. */
	size_t n = 300;
	struct trace_sample *s = path_new(n);
	const char *p[] = {"algorithm=fpw", "heartbeat=0", "pos_threshold=20",
			   "convergence=snap", NULL};
	struct predict_params par;
	struct predict_sender *snd;
	struct predict_ctx ctx;
	int sent_at = -1, count = 0;

	for (size_t k = 0; k < n; k++) {
		s[k].x = k <= 100 ? (double)k : 100.4;
		s[k].vx = k < 100 ? 1.0 / DT : 0;
	}
	params(&par, p);
	predict_ctx_init(&ctx);
	cr_assert_eq(predict_sender_new(&par, &snd), 0);
	for (size_t k = 0; k < n; k++) {
		struct replay_path rp = {.s = s, .n = n};
		struct predict_state x;
		struct predict_update u;
		int r;

		replay_state_at(&rp, k, &x);
		r = predict_sender_tick(snd, &ctx, &x, &u);
		cr_assert_geq(r, 0);
		if (r && u.reason == PREDICT_REASON_POSITION) {
			if (sent_at < 0)
				sent_at = (int)k;
			count++;
		}
	}
	cr_expect_eq(sent_at, 121);
	cr_expect_eq(count, 1);
	predict_sender_free(snd);
	free(s);
}

Test(dis, orientation_threshold)
{
	/* Turning in place at 10.5 deg/s = 0.175 deg per tick. FPW holds the
	 * heading: |dpsi| > 3 deg first at 18 ticks (3.15 deg), so in 300
	 * ticks updates at 18, 36, ..., 288: 16 of them. RPW carries the
	 * yaw rate from the first such update on: exactly 1. */
	size_t n = 300;
	struct trace_sample *s = path_new(n);
	struct predict_params par;
	struct replay_result r;
	const char *fpw[] = {"algorithm=fpw", "heartbeat=0", NULL};
	const char *rpw[] = {"algorithm=rpw", "heartbeat=0", NULL};

	for (size_t k = 0; k < n; k++)
		s[k].yaw = fmod(0.175 * (double)k, 360.0);
	params(&par, fpw);
	run(&par, s, n, NULL, &r);
	cr_expect_eq(r.by_reason[PREDICT_REASON_ORIENTATION], 16);
	params(&par, rpw);
	run(&par, s, n, NULL, &r);
	cr_expect_eq(r.by_reason[PREDICT_REASON_ORIENTATION], 1);
	free(s);
}

static struct predict_update make_update(int64_t t, double x, double vx)
{
	struct predict_update u;

	memset(&u, 0, sizeof(u));
	u.t_ns = t;
	u.entity = 3;
	u.drm = PREDICT_DRM_FPW;
	u.reason = PREDICT_REASON_POSITION;
	u.pos[0] = x;
	u.vel[0] = vx;
	return u;
}

Test(dis, extrapolates_from_producer_timestamp)
{
	/* Sent at t = 0 from x = 0 with 10 u/s, arriving 100 ms late: at
	 * t = 0.5 s the display is 5.0 (from the sender's time), not 4.0
	 * (from the arrival time, the airbus/sen bug). */
	const char *p[] = {"convergence=snap", NULL};
	struct predict_params par;
	struct predict_receiver *r;
	struct predict_ctx ctx;
	struct predict_update u = make_update(0, 0, 10);
	struct predict_display d;

	params(&par, p);
	predict_ctx_init(&ctx);
	cr_assert_eq(predict_receiver_new(&par, &r), 0);
	cr_expect_eq(predict_receiver_display(r, &ctx, 0, &d), -EAGAIN);
	cr_assert_eq(predict_receiver_update(r, &ctx, &u, 100000000), 0);
	cr_assert_eq(predict_receiver_display(r, &ctx, 500000000, &d), 0);
	cr_expect(fabs(d.pos[0] - 5.0) < 1e-12, "got %g", d.pos[0]);
	predict_receiver_free(r);
}

Test(dis, rejects_malformed_and_stale)
{
	struct predict_params par;
	struct predict_receiver *r;
	struct predict_ctx ctx;
	struct predict_update u = make_update(1000, 1, 1), bad;
	struct predict_receiver_stats st;
	struct predict_display d;

	params(&par, NULL);
	predict_ctx_init(&ctx);
	cr_assert_eq(predict_receiver_new(&par, &r), 0);
	cr_assert_eq(predict_receiver_update(r, &ctx, &u, 1000), 0);
	bad = u;
	bad.t_ns = 2000;
	bad.pos[1] = NAN;
	cr_expect_eq(predict_receiver_update(r, &ctx, &bad, 2000), -EINVAL);
	bad = u;
	bad.t_ns = 2000;
	bad.drm = 0;
	cr_expect_eq(predict_receiver_update(r, &ctx, &bad, 2000), -EINVAL);
	bad.drm = 10;
	cr_expect_eq(predict_receiver_update(r, &ctx, &bad, 2000), -EINVAL);
	bad = u;
	bad.t_ns = 2000;
	bad.blob_len = PREDICT_BLOB_MAX + 1;
	cr_expect_eq(predict_receiver_update(r, &ctx, &bad, 2000), -EINVAL);
	bad = u;
	bad.t_ns = 2000;
	bad.entity = 4;
	cr_expect_eq(predict_receiver_update(r, &ctx, &bad, 2000), -EINVAL);
	/* a duplicate and an older one are stale */
	cr_expect_eq(predict_receiver_update(r, &ctx, &u, 3000), -ESTALE);
	bad = u;
	bad.t_ns = 500;
	cr_expect_eq(predict_receiver_update(r, &ctx, &bad, 3000), -ESTALE);
	predict_receiver_stats(r, &st);
	cr_expect_eq(st.applied, 1);
	cr_expect_eq(st.rejected, 5);
	cr_expect_eq(st.stale, 2);
	/* nothing was lost: still the first update */
	cr_assert_eq(predict_receiver_display(r, &ctx, 1000, &d), 0);
	cr_expect_eq(d.pos[0], 1.0);
	cr_expect_eq(d.pos[1], 0.0);
	predict_receiver_free(r);
}

Test(dis, sender_rejects_time_going_back_and_nan)
{
	struct predict_params par;
	struct predict_sender *s;
	struct predict_ctx ctx;
	struct predict_state x;
	struct predict_update u;

	params(&par, NULL);
	predict_ctx_init(&ctx);
	memset(&x, 0, sizeof(x));
	x.t_ns = 1000;
	cr_assert_eq(predict_sender_new(&par, &s), 0);
	cr_expect_eq(predict_sender_tick(s, &ctx, &x, &u), 1);
	x.t_ns = 999;
	cr_expect_eq(predict_sender_tick(s, &ctx, &x, &u), -EINVAL);
	x.t_ns = 2000;
	x.vel[0] = INFINITY;
	cr_expect_eq(predict_sender_tick(s, &ctx, &x, &u), -EINVAL);
	predict_sender_free(s);
}

/*
 * Convergence: 2 s along +x at v = 60 u/s (1 u per tick), then 2 s along
 * +y. FPW's one position update comes when the error first exceeds
 * thr = 20; the error grows by at most 2 v dt per tick, so the correction
 * at the update is off0 <= thr + 2 v dt = 22 u.
 *   snap:   the display jumps by off0 > thr at the update.
 *   linear: Q = P_new + off (1 - tau/T), so a tick moves it by at most
 *           v dt + off0 dt / T = 1 + 22/60 = 1.367 u (T = 1 s).
 *   pvb:    dQ/dtau = (1-f) dP_vb + f V_new + (P_new - P_vb)/T, with
 *           |dP_vb| = |V_b + tau (V_new - V_old)/T| <= 3v, and
 *           |P_new - P_vb| <= off0 + 4 v T, so |dQ/dtau| <= 7v + off0/T:
 *           at most (420 + 22)/60 = 7.37 u per tick.
 * All three must also be continuous at the instant of the update in the
 * blending modes: shown just before and just after, the display moves
 * by less than 1e-9.
 */
static double max_step(const char *conv, double *jump_at_update)
{
	size_t n = 4 * HZ;
	struct trace_sample *s = path_new(n);
	struct predict_params par;
	struct predict_sender *snd;
	struct predict_receiver *rcv;
	struct predict_ctx ctx;
	struct replay_path rp = {.s = s, .n = n};
	double prev[3] = {0, 0, 0}, maxs = 0;
	char kv[64];
	const char *p[] = {kv,
			   "algorithm=fpw",
			   "heartbeat=0",
			   "pos_threshold=20",
			   "blend=1",
			   NULL};
	int updates = 0;

	for (size_t k = 0; k < n; k++) {
		size_t a = k < 2 * HZ ? k : 2 * HZ;
		size_t b = k < 2 * HZ ? 0 : k - 2 * HZ;

		s[k].x = (double)a;
		s[k].y = (double)b;
		s[k].vx = k < 2 * HZ ? 1.0 / DT : 0;
		s[k].vy = k < 2 * HZ ? 0 : 1.0 / DT;
	}
	snprintf(kv, sizeof(kv), "convergence=%s", conv);
	params(&par, p);
	predict_ctx_init(&ctx);
	cr_assert_eq(predict_sender_new(&par, &snd), 0);
	cr_assert_eq(predict_receiver_new(&par, &rcv), 0);
	*jump_at_update = 0;
	for (size_t k = 0; k < n; k++) {
		struct predict_state x;
		struct predict_update u;
		struct predict_display before, d;

		replay_state_at(&rp, k, &x);
		int r = predict_sender_tick(snd, &ctx, &x, &u);

		cr_assert_geq(r, 0);
		if (r && k > 0) {
			cr_assert_eq(predict_receiver_display(rcv, &ctx, x.t_ns,
							      &before),
				     0);
			updates++;
		}
		if (r)
			cr_assert_eq(
				predict_receiver_update(rcv, &ctx, &u, x.t_ns),
				0);
		cr_assert_eq(predict_receiver_display(rcv, &ctx, x.t_ns, &d),
			     0);
		if (r && k > 0)
			*jump_at_update = v3_dist(before.pos, d.pos);
		if (k > 0 && v3_dist(d.pos, prev) > maxs)
			maxs = v3_dist(d.pos, prev);
		v3_copy(prev, d.pos);
	}
	cr_expect_eq(updates, 1, "%s: %d updates", conv, updates);
	predict_sender_free(snd);
	predict_receiver_free(rcv);
	free(s);
	return maxs;
}

Test(dis, convergence_snap_jumps)
{
	double jump, step = max_step("snap", &jump);

	cr_expect(jump > 20, "snap jump %g", jump);
	cr_expect(step > 20, "snap max step %g", step);
}

Test(dis, convergence_linear_is_continuous)
{
	double jump, step = max_step("linear", &jump);

	cr_expect(jump < 1e-9, "linear jump %g", jump);
	cr_expect(step <= 1.0 + 22.0 / 60.0 + 1e-9, "linear step %g", step);
}

Test(dis, convergence_pvb_is_continuous)
{
	double jump, step = max_step("pvb", &jump);

	cr_expect(jump < 1e-9, "pvb jump %g", jump);
	cr_expect(step <= (420.0 + 22.0) / 60.0 + 1e-9, "pvb step %g", step);
}

Test(dis, snap_distance_overrides_blend)
{
	/* A 1000 u correction with snap_distance = 64 (Source's teleport
	 * distance) is shown at once even with linear convergence. */
	const char *p[] = {"convergence=linear", "snap_distance=64", NULL};
	struct predict_params par;
	struct predict_receiver *r;
	struct predict_ctx ctx;
	struct predict_update u1 = make_update(0, 0, 0);
	struct predict_update u2 = make_update(1000, 1000, 0);
	struct predict_display d;

	params(&par, p);
	predict_ctx_init(&ctx);
	cr_assert_eq(predict_receiver_new(&par, &r), 0);
	cr_assert_eq(predict_receiver_update(r, &ctx, &u1, 0), 0);
	cr_assert_eq(predict_receiver_update(r, &ctx, &u2, 1000), 0);
	cr_assert_eq(predict_receiver_display(r, &ctx, 1000, &d), 0);
	cr_expect_eq(d.pos[0], 1000.0);
	cr_expect_eq(d.converging, 0);
	predict_receiver_free(r);
}

Test(dis, back_to_back_updates_counted)
{
	/* The trace moves 1 u per tick but reports zero velocity, so FPW
	 * with threshold 0.5 is off by 1 u every tick: an update on each of
	 * ticks 1..99 (99 updates), 98 of them the tick after another. */
	size_t n = 100;
	struct trace_sample *s = path_new(n);
	const char *p[] = {"algorithm=fpw", "pos_threshold=0.5", "heartbeat=0",
			   "convergence=snap", NULL};
	struct predict_params par;
	struct replay_result r;

	for (size_t k = 0; k < n; k++)
		s[k].x = (double)k;
	params(&par, p);
	run(&par, s, n, NULL, &r);
	cr_expect_eq(r.updates, 99);
	cr_expect_eq(r.back_to_back, 98);
	free(s);
}

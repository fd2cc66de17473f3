/*
 * test_dis.c: the "dis" predictor through the predictor interface: the
 * control tests of Steele's paper (000 §VI-C: zero velocity gives no
 * update beyond the heartbeat and zero error; constant velocity along
 * one axis is predicted exactly with no threshold update) for all nine
 * algorithms, the position and orientation thresholds at hand-computed
 * ticks, the exact heartbeat tick, a yaw crossing +-180 deg, extrapolation
 * from the producer's timestamp (airbus/sen #312), known answers of pvb
 * (paper 000 eq. 3-6) and linear convergence, convergence continuity with
 * per-frame displacement bounds derived in the comments, orientation
 * convergence the short way round, and rejection of malformed and stale
 * updates.
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

/*
 * Projective velocity blending known answer (paper 000 eq. 3-6, as in
 * pred_dis.c): blend B = 1 s. Update 1 at t = 0: FPW from (0,0,0) at
 * (10,0,0) u/s, the first update, shown as is. Update 2 at t = 1 s (zero
 * latency) from (12,0,0) at (0,20,0) u/s with acceleration (0,0,-8)
 * u/s^2, FVW. At arrival the old display is P_old = (10,0,0), V_old =
 * (10,0,0). With f = tau / B:
 *   V_b  = V_old + (V_new - V_old) f           = (10 - 10f, 20f, 0)
 *   P_vb = P_old + V_b tau + A tau^2 / 2       = (10 + (10-10f) tau,
 *                                                 20 f tau, -4 tau^2)
 *   P'   = P'_0 + V' tau + A tau^2 / 2         = (12, 20 tau, -4 tau^2)
 *   Q    = P_vb + (P' - P_vb) f
 * tau = 0.5 (B/2, f = 1/2): V_b = (5,10,0), P_vb = (12.5,5,-1),
 *   P' = (12,10,-1), Q = (12.25, 7.5, -1).
 * tau = 0.25 (f = 1/4): V_b = (7.5,5,0), P_vb = (11.875,1.25,-0.25),
 *   P' = (12,5,-0.25), Q = (11.90625, 2.1875, -0.25).
 * tau = 1.5 (past the blend): Q = P' = (12, 30, -9), velocity (0,20,-12).
 * For comparison, the wrong models give at tau = 0.5: V_b = V_old
 * (no eq. 3) Q = (13.5,5,-1); V_b = V_new Q = (11,10,-1); f^2 in eq. 6
 * Q = (12.375,6.25,-1); no A tau^2/2 in P_vb, z = -0.5.
 */
static void pvb_display(const char *conv, int64_t t, struct predict_display *d)
{
	char kv[64];
	const char *p[] = {kv, "blend=1", NULL};
	struct predict_params par;
	struct predict_receiver *r;
	struct predict_ctx ctx;
	struct predict_update u1 = make_update(0, 0, 10);
	struct predict_update u2 = make_update(1000000000, 12, 0);

	u2.drm = PREDICT_DRM_FVW;
	u2.vel[1] = 20;
	u2.acc[2] = -8;
	snprintf(kv, sizeof(kv), "convergence=%s", conv);
	params(&par, p);
	predict_ctx_init(&ctx);
	cr_assert_eq(predict_receiver_new(&par, &r), 0);
	cr_assert_eq(predict_receiver_update(r, &ctx, &u1, 0), 0);
	cr_assert_eq(predict_receiver_update(r, &ctx, &u2, u2.t_ns), 0);
	cr_assert_eq(predict_receiver_display(r, &ctx, t, d), 0);
	predict_receiver_free(r);
}

static void expect_pos(const struct predict_display *d, double x, double y,
		       double z)
{
	cr_expect(fabs(d->pos[0] - x) < 1e-9 && fabs(d->pos[1] - y) < 1e-9 &&
			  fabs(d->pos[2] - z) < 1e-9,
		  "got (%.12g, %.12g, %.12g) want (%g, %g, %g)", d->pos[0],
		  d->pos[1], d->pos[2], x, y, z);
}

Test(dis, pvb_known_answer)
{
	struct predict_display d;

	pvb_display("pvb", 1500000000, &d);
	expect_pos(&d, 12.25, 7.5, -1);
	cr_expect(fabs(d.vel[0] - 5) < 1e-9 && fabs(d.vel[1] - 10) < 1e-9,
		  "V_b (%g, %g)", d.vel[0], d.vel[1]);
	cr_expect_eq(d.converging, 1);
	pvb_display("pvb", 1250000000, &d);
	expect_pos(&d, 11.90625, 2.1875, -0.25);
	pvb_display("pvb", 2500000000, &d);
	expect_pos(&d, 12, 30, -9);
	cr_expect(fabs(d.vel[1] - 20) < 1e-9 && fabs(d.vel[2] + 12) < 1e-9);
	cr_expect_eq(d.converging, 0);
}

Test(dis, linear_known_answer)
{
	/* The same updates with linear offset decay: the offset at arrival
	 * is P_old - P'(1 s) = (10,0,0) - (12,0,0) = (-2,0,0), shown as
	 * P' + (1 - f) offset: at tau = 0.5, (12,10,-1) + (-1,0,0) =
	 * (11, 10, -1); at tau = 0.25, (12,5,-0.25) + (-1.5,0,0). */
	struct predict_display d;

	pvb_display("linear", 1500000000, &d);
	expect_pos(&d, 11, 10, -1);
	pvb_display("linear", 1250000000, &d);
	expect_pos(&d, 10.5, 5, -0.25);
}

/*
 * Orientation converges by the same fraction as the position, along the
 * short way round. Update 1 at t = 0 heads psi = 3.0 rad; update 2 at t =
 * 1 s heads psi = -3.1 rad (the entity turned 2 pi - 6.1 = 0.1832 rad
 * left across +-pi). Offset at arrival: wrap(3.0 - (-3.1)) = 6.1 - 2 pi
 * = -0.18319 rad. With blend 0.5 s the display shows
 *   psi = wrap(-3.1 + (1 - f)(6.1 - 2 pi)):
 * f = 0 (arrival) 3.0 exactly as before the update (no jump);
 * f = 1/2 (t = 1.25 s) wrap(-3.1 + 3.05 - pi) = 3.09159..., halfway on
 * the short arc; f = 1 (t = 1.5 s) -3.1. Going the long way round
 * (no wrap of the offset) would show -0.05 at f = 1/2; showing the new
 * heading at once jumps by 0.1832 rad at arrival.
 */
static void heading_at(const char *conv, int64_t t, double *before, double *psi)
{
	char kv[64];
	const char *p[] = {kv, "blend=0.5", NULL};
	struct predict_params par;
	struct predict_receiver *r;
	struct predict_ctx ctx;
	struct predict_update u1 = make_update(0, 0, 0);
	struct predict_update u2 = make_update(1000000000, 0, 0);
	struct predict_display d;

	u1.ori[0] = 3.0;
	u2.ori[0] = -3.1;
	snprintf(kv, sizeof(kv), "convergence=%s", conv);
	params(&par, p);
	predict_ctx_init(&ctx);
	cr_assert_eq(predict_receiver_new(&par, &r), 0);
	cr_assert_eq(predict_receiver_update(r, &ctx, &u1, 0), 0);
	cr_assert_eq(predict_receiver_display(r, &ctx, u2.t_ns, &d), 0);
	*before = d.ori[0];
	cr_assert_eq(predict_receiver_update(r, &ctx, &u2, u2.t_ns), 0);
	cr_assert_eq(predict_receiver_display(r, &ctx, t, &d), 0);
	*psi = d.ori[0];
	predict_receiver_free(r);
}

Test(dis, orientation_converges_short_way)
{
	const char *convs[] = {"linear", "pvb"};
	double half = angle_wrap(-3.1 + 0.5 * (6.1 - 2 * M_PI));

	cr_assert(fabs(half - 3.0915926535897933) < 1e-12);
	for (int i = 0; i < 2; i++) {
		double before, psi;

		heading_at(convs[i], 1000000000, &before, &psi);
		cr_expect(fabs(before - 3.0) < 1e-12);
		cr_expect(fabs(angle_wrap(psi - 3.0)) < 1e-9,
			  "%s: jumped to %g at the update", convs[i], psi);
		heading_at(convs[i], 1250000000, &before, &psi);
		cr_expect(fabs(angle_wrap(psi - half)) < 1e-9,
			  "%s: %g at f = 1/2", convs[i], psi);
		heading_at(convs[i], 1500000000, &before, &psi);
		cr_expect(fabs(angle_wrap(psi + 3.1)) < 1e-9);
	}
	/* snap shows the new heading at once */
	double before, psi;

	heading_at("snap", 1000000000, &before, &psi);
	cr_expect(fabs(psi + 3.1) < 1e-12);
}

Test(dis, yaw_wrap_is_not_an_error)
{
	/* Turning at 10.5 deg/s from yaw 170 deg, the trace's yaw wrapped
	 * into (-180, 180] as game traces store it: it crosses +-180 deg
	 * between ticks 57 and 58. FPW holds the heading of each update,
	 * and the wrapped error is 0.175 (k - k0) deg, over 3 deg first at
	 * 18 ticks: updates at ticks 18, 36, ..., 288 and nothing else
	 * (at tick 58 the held 179.45 deg against -179.85 deg is 0.7 deg,
	 * not 359.3). */
	size_t n = 300;
	struct trace_sample *s = path_new(n);
	const char *p[] = {"algorithm=fpw", "heartbeat=0", NULL};
	struct predict_params par;
	struct predict_sender *snd;
	struct predict_ctx ctx;
	struct replay_path rp = {.s = s, .n = n};
	int count = 0;

	for (size_t k = 0; k < n; k++)
		s[k].yaw = fmod(170 + 0.175 * (double)k + 180, 360) - 180;
	cr_assert(s[57].yaw > 179 && s[58].yaw < -179);
	params(&par, p);
	predict_ctx_init(&ctx);
	cr_assert_eq(predict_sender_new(&par, &snd), 0);
	for (size_t k = 0; k < n; k++) {
		struct predict_state x;
		struct predict_update u;
		int r;

		replay_state_at(&rp, k, &x);
		r = predict_sender_tick(snd, &ctx, &x, &u);
		cr_assert_geq(r, 0);
		if (r && k > 0) {
			cr_expect_eq(u.reason, PREDICT_REASON_ORIENTATION);
			cr_expect_eq(k % 18, 0, "update at tick %zu", k);
			count++;
		}
	}
	cr_expect_eq(count, 16);
	predict_sender_free(snd);
	free(s);
}

/* Ticks (after the first) at which the sender of predictor name with
 * params kv sends heartbeats to an entity standing still for n ticks. */
static int heartbeat_ticks(const char *name, const char *const *kv,
			   int64_t tick_ns, size_t n, size_t *at, int max)
{
	struct predict_params par;
	struct predict_sender *snd;
	struct predict_ctx ctx;
	int count = 0;

	cr_assert_eq(predict_params_init(&par, predict_find(name)), 0);
	for (; *kv; kv++)
		cr_assert_eq(predict_params_set_kv(&par, *kv), 0);
	predict_ctx_init(&ctx);
	cr_assert_eq(predict_sender_new(&par, &snd), 0);
	for (size_t k = 0; k < n; k++) {
		struct predict_state x;
		struct predict_update u;
		int r;

		memset(&x, 0, sizeof(x));
		x.t_ns = (int64_t)k * tick_ns;
		v3_set(x.pos, 2300, 0, 200);
		r = predict_sender_tick(snd, &ctx, &x, &u);
		cr_assert_geq(r, 0);
		if (r && k > 0) {
			cr_expect_eq(u.reason, PREDICT_REASON_HEARTBEAT);
			if (count < max)
				at[count] = k;
			count++;
		}
	}
	predict_sender_free(snd);
	return count;
}

Test(dis, heartbeat_exact_tick)
{
	/* "Send if heartbeat has passed" is dt >= 5 s. At 60 Hz the tick is
	 * 16666666 ns, so 300 ticks are 4.99999980 s (< 5) and the first
	 * heartbeat is tick 301 (5.01666647 s), the next 301 ticks later:
	 * 602. At 64 Hz (15625000 ns, exact) 320 ticks are exactly 5 s:
	 * ticks 320 and 640. The same rule holds for led's heartbeat. */
	const char *dis[] = {"heartbeat=5", NULL};
	const char *led[] = {"heartbeat=5", "eta_min=20", "eta_max=20", NULL};
	const char *const *sets[] = {dis, led};
	const char *names[] = {"dis", "led"};
	size_t at[4];

	for (int i = 0; i < 2; i++) {
		cr_expect_eq(
			heartbeat_ticks(names[i], sets[i], TICK_NS, 700, at, 4),
			2, "%s", names[i]);
		cr_expect_eq(at[0], 301, "%s: %zu", names[i], at[0]);
		cr_expect_eq(at[1], 602, "%s: %zu", names[i], at[1]);
		cr_expect_eq(heartbeat_ticks(names[i], sets[i], 15625000, 700,
					     at, 4),
			     2, "%s", names[i]);
		cr_expect_eq(at[0], 320, "%s: %zu", names[i], at[0]);
		cr_expect_eq(at[1], 640, "%s: %zu", names[i], at[1]);
	}
}

/*
 * Issue 13: a steady turn, radius 200 u at 1.5 rad/s (300 u/s), 60 s at
 * 60 Hz, pos_threshold 2, orientation threshold off. The first-order body
 * algorithm RPB follows a circle exactly (R1 V_b), so it sends heartbeats
 * only; RVB and FVB send A_b = dV_b/dt = 0 and must do no worse. Before
 * the fix they sent the inertial acceleration in body axes and R2 turned
 * the path a second time: 9.1 updates/s. The first sample has no earlier
 * one, so its yaw rate and acceleration are 0 (replay_state_at) and every
 * algorithm extrapolates it along a straight line, which leaves the circle
 * by v w t^2 / 2 = 225 t^2 > 2 u after 0.094 s: exactly one position
 * update, at tick 6. Heartbeats: 5 s is 300.000012 ticks of 16666666 ns,
 * so one every 301 ticks after tick 6; ticks 6..3599 hold 11.
 */
Test(dis, steady_turn_heartbeat_only)
{
	size_t n = 60 * HZ;
	struct trace_sample *s = path_new(n);
	const char *const names[] = {"rpb", "rvb", "fvb"};
	uint64_t ups[3];

	for (size_t k = 0; k < n; k++) {
		double t = (double)s[k].t_ns * 1e-9, a = 1.5 * t;
		double yaw = fmod((a + M_PI / 2) * 180.0 / M_PI, 360.0);

		s[k].x = 2300 + 200 * cos(a);
		s[k].y = 200 * sin(a);
		s[k].z = 100;
		s[k].vx = -300 * sin(a);
		s[k].vy = 300 * cos(a);
		s[k].yaw = yaw;
	}
	for (size_t i = 0; i < 3; i++) {
		struct predict_params par;
		struct replay_result r;
		char kv[64];
		const char *p[] = {kv, "pos_threshold=2", "orient_threshold=0",
				   NULL};

		snprintf(kv, sizeof(kv), "algorithm=%s", names[i]);
		params(&par, p);
		run(&par, s, n, NULL, &r);
		cr_expect_eq(r.by_reason[PREDICT_REASON_POSITION], 1,
			     "%s: %llu position updates", names[i],
			     (unsigned long long)
				     r.by_reason[PREDICT_REASON_POSITION]);
		cr_expect_eq(r.by_reason[PREDICT_REASON_HEARTBEAT], 11,
			     "%s: %llu heartbeats", names[i],
			     (unsigned long long)
				     r.by_reason[PREDICT_REASON_HEARTBEAT]);
		ups[i] = r.updates;
	}
	cr_expect(ups[1] <= ups[0] && ups[2] <= ups[0],
		  "rvb %llu, fvb %llu updates > rpb %llu",
		  (unsigned long long)ups[1], (unsigned long long)ups[2],
		  (unsigned long long)ups[0]);
	free(s);
}

/*
 * The same circle fed to the sender as exact states, the inertial
 * acceleration -r w^2 (cos, sin) and the yaw rate included from the first
 * tick on: RPB, RVB and FVB send the initial state and heartbeats only
 * (11 in 60 s at 60 Hz, as above but counted from tick 0: ticks 301,
 * 602, ..., 3311), no position update. The old RVB (A0 = R0 a) left the
 * circle by 2 u within 0.1 s of every update.
 */
Test(dis, steady_turn_exact_states_heartbeats_only)
{
	const char *const names[] = {"rpb", "rvb", "fvb"};
	uint64_t sent[3];

	for (size_t i = 0; i < 3; i++) {
		struct predict_params par;
		struct predict_sender *snd;
		struct predict_ctx ctx;
		uint64_t by[PREDICT_REASON_COUNT] = {0};
		char kv[64];
		const char *p[] = {kv, "pos_threshold=2", "orient_threshold=0",
				   NULL};

		snprintf(kv, sizeof(kv), "algorithm=%s", names[i]);
		params(&par, p);
		predict_ctx_init(&ctx);
		cr_assert_eq(predict_sender_new(&par, &snd), 0);
		for (int64_t k = 0; k < 60 * HZ; k++) {
			struct predict_state x;
			struct predict_update u;
			double t = (double)(k * TICK_NS) * 1e-9, a = 1.5 * t;
			int rc;

			memset(&x, 0, sizeof(x));
			x.t_ns = k * TICK_NS;
			x.entity = 7;
			v3_set(x.pos, 200 * cos(a), 200 * sin(a), 0);
			v3_set(x.vel, -300 * sin(a), 300 * cos(a), 0);
			v3_set(x.acc, -450 * cos(a), -450 * sin(a), 0);
			x.ori[0] = angle_wrap(a + M_PI / 2);
			x.angvel[2] = 1.5;
			rc = predict_sender_tick(snd, &ctx, &x, &u);
			cr_assert(rc >= 0);
			if (rc == 1)
				by[u.reason]++;
		}
		predict_sender_free(snd);
		cr_expect_eq(by[PREDICT_REASON_INIT], 1);
		cr_expect_eq(by[PREDICT_REASON_POSITION], 0, "%s: %llu",
			     names[i],
			     (unsigned long long)by[PREDICT_REASON_POSITION]);
		cr_expect_eq(by[PREDICT_REASON_HEARTBEAT], 11, "%s: %llu",
			     names[i],
			     (unsigned long long)by[PREDICT_REASON_HEARTBEAT]);
		sent[i] = by[PREDICT_REASON_POSITION] +
			  by[PREDICT_REASON_HEARTBEAT];
	}
	cr_expect(sent[1] <= sent[0] && sent[2] <= sent[0]);
}

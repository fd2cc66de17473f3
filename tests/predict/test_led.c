/*
 * test_led.c: led reckoning (Steele, paper 000): the correlation score
 * (eq. 7) and its variants, eta_p = eta_min + C (eta_max - eta_min) with
 * C = 1 giving eta_max and C = 0 eta_min (eq. 8), B_t = K / eta_p carried
 * in the update (eq. 9), the paper's two control tests, the update tick
 * that follows from eta_p on a hand-made trend map, C = empty_c for an
 * empty cell and outside the map (A18), a known answer of the shared PVB
 * model (eq. 3-6/10), the trend map itself (cells, bounds, exact removal)
 * and parameter validation.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "predict/led.h"
#include "predict/predict.h"
#include "predict/replay.h"
#include "predict/trend.h"
#include "predict/vec3.h"

#define HZ	60
#define TICK_NS (1000000000LL / HZ)
#define DT	((double)TICK_NS * 1e-9)

Test(led, correlation_scores)
{
	double x[2] = {3, 0}, y[2] = {0, 5}, mx[2] = {-2, 0};
	double d[2] = {1, 1}, z[2] = {0, 0};

	cr_expect_eq(led_correlation(x, x, LED_CORR_COSINE, 250, 0), 1.0);
	cr_expect_eq(led_correlation(x, y, LED_CORR_COSINE, 250, 0), 0.0);
	/* eq. 7 takes |.|: against the trend counts as following it (A4) */
	cr_expect_eq(led_correlation(x, mx, LED_CORR_COSINE, 250, 0), 1.0);
	cr_expect_eq(led_correlation(x, mx, LED_CORR_SIGNED, 250, 0), 0.0);
	cr_expect(fabs(led_correlation(x, d, LED_CORR_COSINE, 250, 0) -
		       sqrt(0.5)) < 1e-15);
	/* undefined (stationary model or empty trend) gives `empty` (A3) */
	cr_expect_eq(led_correlation(z, x, LED_CORR_COSINE, 250, 0.25), 0.25);
	cr_expect_eq(led_correlation(x, z, LED_CORR_COSINE, 250, 0.5), 0.5);
	/* strength: |u(Vb) . Vp| / s_ref, capped at 1: 125/250, 500/250 */
	double t1[2] = {125, 0}, t2[2] = {500, 0};

	cr_expect_eq(led_correlation(x, t1, LED_CORR_STRENGTH, 250, 0), 0.5);
	cr_expect_eq(led_correlation(x, t2, LED_CORR_STRENGTH, 250, 0), 1.0);
}

Test(led, threshold_and_blend_time)
{
	cr_expect_eq(led_threshold(1.0, 5, 35), 35.0);
	cr_expect_eq(led_threshold(0.0, 5, 35), 5.0);
	cr_expect_eq(led_threshold(0.5, 5, 35), 20.0);
	cr_expect_eq(led_blend_time(5.0, 35.0), 5.0 / 35.0);
	cr_expect_eq(led_blend_time(5.0, 5.0), 1.0);
}

static void params(struct predict_params *par, const char *const *kv)
{
	cr_assert_eq(predict_params_init(par, predict_find("led")), 0);
	for (; kv && *kv; kv++)
		cr_assert_eq(predict_params_set_kv(par, *kv), 0, "%s", *kv);
}

static struct trace_sample *path_new(size_t n)
{
	struct trace_sample *s = calloc(n, sizeof(*s));

	cr_assert(s);
	for (size_t k = 0; k < n; k++) {
		s[k].t_ns = (int64_t)k * TICK_NS;
		s[k].entity = 1;
		s[k].team = 2;
		s[k].alive = 1;
	}
	return s;
}

/* A 100 x 100 map over [0,1000]^2 whose every cell has velocity (vx, vy). */
static void uniform_trend(struct predict_trend *m, double vx, double vy)
{
	cr_assert_eq(predict_trend_init(m, 0, 0, 1000, 1000, 100, 100), 0);
	for (int i = 0; i < 100; i++)
		for (int j = 0; j < 100; j++)
			cr_assert_eq(predict_trend_add(m, i * 10 + 5,
						       j * 10 + 5, vx, vy, 1),
				     0);
}

static double blob_b(const struct predict_update *u)
{
	uint32_t w = 0;
	float f;

	cr_assert_eq(u->blob_len, 4);
	for (int i = 0; i < 4; i++)
		w |= (uint32_t)u->blob[i] << (8 * i);
	memcpy(&f, &w, sizeof(f));
	return f;
}

/*
 * 1 u per tick along +x from x = 100 for 100 ticks, then standing. The
 * model keeps V_b = (60,0) u/s; standing at 200.4, its error at tick
 * 100 + j is j - 0.4 u, so with threshold eta (strict >) the first
 * position update is at j = floor(eta) + 1 (eta not a half-integer
 * multiple close to j - 0.4).
 * Trend along +x: C = 1, eta = eta_max = 35, the update is at j = 36
 * and carries B = K / 35 with K = 0.25 s * 20 u = 5 u s.
 * Trend along +y: C = 0, eta = eta_min = 5: update at j = 6, B = 1 s.
 */
static void first_update_on(const struct predict_trend *m,
			    const char *const *kv, int *tick, double *b)
{
	size_t n = 300;
	struct trace_sample *s = path_new(n);
	struct predict_params par;
	struct predict_sender *snd;
	struct predict_ctx ctx;
	struct replay_path rp = {.s = s, .n = n};

	for (size_t k = 0; k < n; k++) {
		s[k].x = 100 + (k <= 100 ? (double)k : 100.4);
		s[k].y = 500;
		s[k].vx = k < 100 ? 1.0 / DT : 0;
	}
	params(&par, kv);
	predict_ctx_init(&ctx);
	ctx.trend = m;
	cr_assert_eq(predict_sender_new(&par, &snd), 0);
	*tick = -1;
	for (size_t k = 0; k < n && *tick < 0; k++) {
		struct predict_state x;
		struct predict_update u;
		int r;

		replay_state_at(&rp, k, &x);
		r = predict_sender_tick(snd, &ctx, &x, &u);
		cr_assert_geq(r, 0);
		if (r && u.reason == PREDICT_REASON_POSITION) {
			*tick = (int)k;
			*b = blob_b(&u);
		}
	}
	predict_sender_free(snd);
	free(s);
}

static void first_update(double tvx, double tvy, int *tick, double *b)
{
	struct predict_trend m;

	uniform_trend(&m, tvx, tvy);
	first_update_on(&m, NULL, tick, b);
	predict_trend_free(&m);
}

Test(led, full_correlation_gives_eta_max)
{
	int tick;
	double b;

	first_update(200, 0, &tick, &b);
	cr_expect_eq(tick, 136);
	cr_expect(fabs(b - 5.0 / 35.0) < 1e-7, "B %g", b); /* float32 */
}

Test(led, zero_correlation_gives_eta_min)
{
	int tick;
	double b;

	first_update(0, 200, &tick, &b);
	cr_expect_eq(tick, 106);
	cr_expect(fabs(b - 1.0) < 1e-7, "B %g", b);
}

/*
 * A18: a cell with no sample, and a position outside the map, score
 * C = empty_c. The path of first_update_on runs along y = 500 from x =
 * 100 to 200.4. "empty": a map over [0,1000]^2 whose only sample, at
 * (905, 905), would give C = 1 if it were looked up. "outside": a map
 * over [2000,3000] x [0,1000] full of +x trend (C = 1 anywhere inside).
 * eta = 5 + 30 empty_c and K = 5 u s:
 *   empty_c = 0:   eta = 5,  update at tick 106, B = 1 s;
 *   empty_c = 0.5: eta = 20, update at tick 121, B = 0.25 s;
 *   empty_c = 1:   eta = 35, update at tick 136, B = 1/7 s.
 */
Test(led, empty_and_outside_cells_score_empty_c)
{
	const char *kv[][2] = {{"empty_c=0", NULL},
			       {"empty_c=0.5", NULL},
			       {"empty_c=1", NULL}};
	int want_tick[] = {106, 121, 136};
	double want_b[] = {1.0, 0.25, 5.0 / 35.0};
	struct predict_trend empty, outside;

	cr_assert_eq(predict_trend_init(&empty, 0, 0, 1000, 1000, 100, 100), 0);
	cr_assert_eq(predict_trend_add(&empty, 905, 905, 200, 0, 1), 0);
	cr_assert_eq(
		predict_trend_init(&outside, 2000, 0, 3000, 1000, 100, 100), 0);
	for (int i = 0; i < 100; i++)
		for (int j = 0; j < 100; j++)
			cr_assert_eq(predict_trend_add(&outside,
						       2000 + i * 10 + 5,
						       j * 10 + 5, 200, 0, 1),
				     0);
	for (int i = 0; i < 3; i++) {
		int tick;
		double b;

		first_update_on(&empty, kv[i], &tick, &b);
		cr_expect_eq(tick, want_tick[i], "empty %s: tick %d", kv[i][0],
			     tick);
		cr_expect(fabs(b - want_b[i]) < 1e-7, "empty %s: B %g",
			  kv[i][0], b);
		first_update_on(&outside, kv[i], &tick, &b);
		cr_expect_eq(tick, want_tick[i], "outside %s: tick %d",
			     kv[i][0], tick);
		cr_expect(fabs(b - want_b[i]) < 1e-7, "outside %s: B %g",
			  kv[i][0], b);
	}
	predict_trend_free(&empty);
	predict_trend_free(&outside);
}

/* B_t as the sender writes it: little-endian float32 in the blob. */
static void blob_set(struct predict_update *u, float b)
{
	uint32_t w;

	memcpy(&w, &b, sizeof(w));
	for (int i = 0; i < 4; i++)
		u->blob[i] = (uint8_t)(w >> (8 * i));
	u->blob_len = 4;
}

/*
 * The shared model of eq. 3-6/10 (model_eval), through the receiver.
 * Update 1 at t = 0 from (0,0,0) at (10,0,0) u/s, B = 1 s: the first
 * state starts the model on itself, so at t = 1 s Q = (10,0,0) and
 * V_b = (10,0,0). Update 2 at t = 1 s (zero latency) from (12,0,0) at
 * (0,20,0) u/s with A'_0 = (0,0,-8) u/s^2 and B = 1 s restarts the model
 * from P_0 = (10,0,0), V_0 = (10,0,0). With T the seconds since update 2
 * and f = T / B:
 *   V_b = V_0 + (V'_0 - V_0) f            = (10 - 10f, 20f, 0)   (3)
 *   P_t = P_0 + V_b T + A'_0 T^2 / 2      = (10 + (10-10f) T, 20 f T,
 *                                            -4 T^2)             (4)
 *   P'_t = P'_0 + V'_0 T + A'_0 T^2 / 2   = (12, 20 T, -4 T^2)   (5)
 *   Q_t = P_t + (P'_t - P_t) f                                   (6)
 * T = 0.5 (B/2): V_b = (5,10,0), P_t = (12.5,5,-1), P' = (12,10,-1),
 *   Q = (12.25, 7.5, -1).
 * T = 0.25: V_b = (7.5,5,0), P_t = (11.875,1.25,-0.25), P' = (12,5,-0.25),
 *   Q = (11.90625, 2.1875, -0.25).
 * T = 1.5 (f clamped to 1): Q = P' = (12, 30, -9), V_b = (0,20,0).
 * These are the numbers of dis's pvb test: led with a fixed threshold
 * is the paper's PVB dead reckoning. Without the V_b blend (V_b = V_0)
 * Q would be (13.5,5,-1) at T = 0.5; with V_b = V'_0, (11,10,-1).
 */
static void model_at(int64_t t, struct predict_display *d)
{
	const char *dr[] = {"eta_min=20", "eta_max=20", NULL};
	struct predict_params par;
	struct predict_receiver *r;
	struct predict_ctx ctx;
	struct predict_update u1, u2;

	memset(&u1, 0, sizeof(u1));
	u1.entity = 1;
	u1.drm = PREDICT_DRM_FVW;
	u1.vel[0] = 10;
	blob_set(&u1, 1.0f);
	u2 = u1;
	u2.t_ns = 1000000000;
	v3_set(u2.pos, 12, 0, 0);
	v3_set(u2.vel, 0, 20, 0);
	v3_set(u2.acc, 0, 0, -8);
	params(&par, dr);
	predict_ctx_init(&ctx);
	cr_assert_eq(predict_receiver_new(&par, &r), 0);
	cr_assert_eq(predict_receiver_update(r, &ctx, &u1, 0), 0);
	cr_assert_eq(predict_receiver_display(r, &ctx, u2.t_ns, d), 0);
	cr_expect(fabs(d->pos[0] - 10) < 1e-12 && fabs(d->vel[0] - 10) < 1e-12);
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

Test(led, model_known_answer)
{
	struct predict_display d;

	model_at(1500000000, &d);
	expect_pos(&d, 12.25, 7.5, -1);
	cr_expect(fabs(d.vel[0] - 5) < 1e-9 && fabs(d.vel[1] - 10) < 1e-9,
		  "V_b (%g, %g)", d.vel[0], d.vel[1]);
	cr_expect_eq(d.converging, 1);
	model_at(1250000000, &d);
	expect_pos(&d, 11.90625, 2.1875, -0.25);
	cr_expect(fabs(d.vel[0] - 7.5) < 1e-9 && fabs(d.vel[1] - 5) < 1e-9);
	model_at(2500000000, &d);
	expect_pos(&d, 12, 30, -9);
	cr_expect(fabs(d.vel[0]) < 1e-9 && fabs(d.vel[1] - 20) < 1e-9);
	cr_expect_eq(d.converging, 0);
}

Test(led, control_zero_velocity)
{
	/* Steele's control: (2300, 0, 200) standing still, team
	 * "Terrorist": no update after the first state, zero error. */
	size_t n = 20 * HZ;
	struct trace_sample *s = path_new(n);
	double *err = malloc(n * sizeof(*err));
	struct replay_path p = {.s = s, .n = n};
	struct predict_params par;
	struct predict_trend m;
	struct predict_ctx ctx;
	struct replay_result r;

	for (size_t k = 0; k < n; k++) {
		s[k].x = 2300;
		s[k].z = 200;
	}
	cr_assert_eq(predict_trend_init(&m, 0, -100, 3000, 100, 100, 100), 0);
	params(&par, NULL);
	predict_ctx_init(&ctx);
	ctx.trend = &m;
	cr_assert_eq(replay_run_path(&par, &ctx, &p, TICK_NS, err, &r), 0);
	cr_expect_eq(r.updates, 0);
	for (size_t k = 0; k < n; k++)
		cr_expect_eq(err[k], 0.0);
	predict_trend_free(&m);
	free(err);
	free(s);
}

Test(led, control_constant_velocity)
{
	/* Y grows 17.36111 (= 625/36) u per frame: eq. (1) exactly, no
	 * update, error 0 up to rounding, for DR (eta 20) and led. */
	size_t n = 10 * HZ;
	struct trace_sample *s = path_new(n);
	double *err = malloc(n * sizeof(*err));
	struct replay_path p = {.s = s, .n = n};
	struct predict_trend m;
	struct predict_ctx ctx;
	const char *dr[] = {"eta_min=20", "eta_max=20", NULL};
	const char *const *sets[] = {dr, NULL};

	for (size_t k = 0; k < n; k++) {
		s[k].x = 2300;
		s[k].y = (double)k * 625.0 / 36.0;
		s[k].z = 200;
		s[k].vy = 625.0 / 36.0 / DT;
	}
	cr_assert_eq(predict_trend_init(&m, 0, 0, 3000, 11000, 100, 100), 0);
	predict_ctx_init(&ctx);
	ctx.trend = &m;
	for (int i = 0; i < 2; i++) {
		struct predict_params par;
		struct replay_result r;

		params(&par, sets[i]);
		cr_assert_eq(replay_run_path(&par, &ctx, &p, TICK_NS, err, &r),
			     0);
		cr_expect_eq(r.updates, 0);
		for (size_t k = 0; k < n; k++)
			cr_expect(err[k] < 1e-9, "tick %zu err %g", k, err[k]);
	}
	predict_trend_free(&m);
	free(err);
	free(s);
}

Test(led, receiver_matches_sender_model)
{
	/* The receiver rebuilds the sender's model from the updates alone:
	 * on a zig-zag the sender sends exactly when |x - Q| > eta, where Q
	 * is what the receiver displays. So between updates the displayed
	 * error never exceeds eta_max (35), and at every update tick it
	 * exceeds eta_min (5). */
	size_t n = 20 * HZ;
	struct trace_sample *s = path_new(n);
	double *err = malloc(n * sizeof(*err));
	struct predict_trend m;
	struct predict_params par;
	struct predict_sender *snd;
	struct predict_receiver *rcv;
	struct predict_ctx ctx;
	struct replay_path rp = {.s = s, .n = n};
	int updates = 0;

	for (size_t k = 0; k < n; k++) {
		double t = (double)k * DT;

		s[k].x = 200 + 150 * t;
		s[k].y = 500 + 100 * sin(2 * t);
		s[k].vx = 150;
		s[k].vy = 200 * cos(2 * t);
	}
	uniform_trend(&m, 100, 30);
	params(&par, NULL);
	predict_ctx_init(&ctx);
	ctx.trend = &m;
	cr_assert_eq(predict_sender_new(&par, &snd), 0);
	cr_assert_eq(predict_receiver_new(&par, &rcv), 0);
	for (size_t k = 0; k < n; k++) {
		struct predict_state x;
		struct predict_update u;
		struct predict_display d;
		double e;
		int r;

		replay_state_at(&rp, k, &x);
		r = predict_sender_tick(snd, &ctx, &x, &u);
		cr_assert_geq(r, 0);
		/* the display before applying: what the sender compared */
		if (k > 0) {
			cr_assert_eq(
				predict_receiver_display(rcv, &ctx, x.t_ns, &d),
				0);
			e = hypot(d.pos[0] - x.pos[0], d.pos[1] - x.pos[1]);
			if (r) {
				cr_expect(e > 5.0, "tick %zu: sent at %g", k,
					  e);
				updates++;
			} else {
				cr_expect(e <= 35.0, "tick %zu: held at %g", k,
					  e);
			}
		}
		if (r)
			cr_assert_eq(
				predict_receiver_update(rcv, &ctx, &u, x.t_ns),
				0);
	}
	cr_expect_gt(updates, 5);
	predict_sender_free(snd);
	predict_receiver_free(rcv);
	predict_trend_free(&m);
	free(err);
	free(s);
}

Test(led, needs_a_trend_unless_fixed)
{
	struct predict_params par;
	struct predict_sender *snd;
	struct predict_ctx ctx;
	struct predict_state x;
	struct predict_update u;
	const char *dr[] = {"eta_min=20", "eta_max=20", NULL};

	memset(&x, 0, sizeof(x));
	predict_ctx_init(&ctx);
	params(&par, NULL);
	cr_assert_eq(predict_sender_new(&par, &snd), 0);
	cr_expect_eq(predict_sender_tick(snd, &ctx, &x, &u), -EINVAL);
	predict_sender_free(snd);
	params(&par, dr);
	cr_assert_eq(predict_sender_new(&par, &snd), 0);
	cr_expect_eq(predict_sender_tick(snd, &ctx, &x, &u), 1);
	predict_sender_free(snd);
}

Test(led, rejects_inverted_range_and_missing_blend)
{
	struct predict_params par;
	struct predict_sender *snd = NULL;
	struct predict_receiver *rcv;
	struct predict_ctx ctx;
	struct predict_update u;
	const char *inv[] = {"eta_min=30", "eta_max=10", NULL};

	params(&par, inv);
	cr_expect_eq(predict_sender_new(&par, &snd), -EINVAL);
	cr_expect_null(snd);
	params(&par, NULL);
	predict_ctx_init(&ctx);
	cr_assert_eq(predict_receiver_new(&par, &rcv), 0);
	memset(&u, 0, sizeof(u));
	u.drm = PREDICT_DRM_FVW;
	u.blob_len = 0; /* no B_t */
	cr_expect_eq(predict_receiver_update(rcv, &ctx, &u, 0), -EINVAL);
	predict_receiver_free(rcv);
}

Test(trend, cells_and_means)
{
	struct predict_trend m;
	double v[2];
	size_t i;

	cr_assert_eq(predict_trend_init(&m, -500, 0, 500, 2000, 100, 100), 0);
	/* cell size 10 x 20: (-500, 0) is cell 0, the upper corner is the
	 * last cell, (5, 30) is column 50, row 1 */
	cr_expect_eq(predict_trend_cell(&m, -500, 0, &i), 0);
	cr_expect_eq(i, 0);
	cr_expect_eq(predict_trend_cell(&m, 500, 2000, &i), 0);
	cr_expect_eq(i, 9999);
	cr_expect_eq(predict_trend_cell(&m, 5, 30, &i), 0);
	cr_expect_eq(i, 150);
	cr_expect_eq(predict_trend_cell(&m, 500.1, 30, &i), -ERANGE);
	cr_expect_eq(predict_trend_lookup(&m, 5, 30, v), -ENOENT);
	cr_expect_eq(predict_trend_add(&m, 5, 30, 10, -4, 1), 0);
	cr_expect_eq(predict_trend_add(&m, 6, 31, 20, 4, 1), 0);
	cr_assert_eq(predict_trend_lookup(&m, 9, 39, v), 0);
	cr_expect_eq(v[0], 15.0);
	cr_expect_eq(v[1], 0.0);
	cr_expect_eq(predict_trend_add(&m, 6, 31, 20, 4, -1), 0);
	cr_assert_eq(predict_trend_lookup(&m, 9, 39, v), 0);
	cr_expect_eq(v[0], 10.0);
	cr_expect_eq(v[1], -4.0);
	cr_expect_eq(predict_trend_add(&m, 5, 30, 10, -4, -1), 0);
	cr_expect_eq(predict_trend_add(&m, 5, 30, 10, -4, -1), -EINVAL);
	cr_expect_eq(predict_trend_add(&m, 5, 30, NAN, 0, 1), -ERANGE);
	cr_expect_eq(predict_trend_add(&m, 5, 30, 2e6, 0, 1), -ERANGE);
	cr_expect_eq(predict_trend_lookup(&m, 5, 30, v), -ENOENT);
	cr_expect_eq(m.samples, 0);
	predict_trend_free(&m);
	cr_expect_eq(predict_trend_init(&m, 0, 0, 0, 1, 100, 100), -EINVAL);
	cr_expect_eq(predict_trend_init(&m, 0, 0, 1, 1, 0, 100), -EINVAL);
}

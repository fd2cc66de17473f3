/*
 * test_stats.c: trace statistics on hand-made traces whose answers are
 * known exactly: a bot runs east at 100 u/s for 10 s, stands 5 s, runs
 * south for 10 s; a second bot's life is split by a position jump; a
 * third dies in mid-run and lives one moving sample between deaths, and
 * its segments still have one length per duration and length = speed x
 * duration.
 */
#include <criterion/criterion.h>
#include <math.h>

#include "trace_stats.h"

#define HZ 64

static void leg(struct trace *t, uint32_t e, int k0, int k1, double *x,
		double *y, double vx, double vy, double yaw)
{
	for (int k = k0; k < k1; k++) {
		struct trace_sample s = {
			.t_ns = (int64_t)k * 15625000,
			.entity = e,
			.alive = 1,
			.x = *x,
			.y = *y,
			.vx = vx,
			.vy = vy,
			.yaw = yaw,
		};
		cr_assert_eq(trace_append(t, &s), 0);
		*x += vx / HZ;
		*y += vy / HZ;
	}
}

Test(world_stats, known_answers)
{
	struct trace t;
	struct trace_events ev;
	struct trace_stats_opts o;
	struct trace_stats st;
	double x = 0, y = 0;
	struct trace_event fire = {.t_ns = 2000000000LL,
				   .kind = TRACE_EV_FIRE,
				   .entity = 0,
				   .target = TRACE_NONE};

	trace_init(&t);
	t.tick_ns = 15625000;
	leg(&t, 0, 0, 10 * HZ, &x, &y, 100, 0, 0);
	leg(&t, 0, 10 * HZ, 15 * HZ, &x, &y, 0, 0, 0);
	leg(&t, 0, 15 * HZ, 25 * HZ, &x, &y, 0, 100, 90);
	trace_events_init(&ev);
	trace_events_append(&ev, &fire);
	trace_stats_defaults(&o);
	cr_assert_eq(trace_stats(&t, &ev, &o, &st), 0);
	cr_assert_eq(st.entities, 1);
	cr_assert_eq(st.alive_samples, 25 * HZ);
	cr_assert_float_eq(st.frac_moving, 20.0 / 25, 1e-12);
	/* fighting: samples with 2 s <= t <= 3 s: 65 of them */
	cr_assert_float_eq(st.frac_fighting, 65.0 / (25 * HZ), 1e-12);
	cr_assert_float_eq(st.speed.p50, 100, 1e-12);
	cr_assert_float_eq(st.speed.max, 100, 1e-12);
	cr_assert_float_eq(st.speed_hist[4], 0.8, 1e-12); /* 100-125 bin */
	cr_assert_float_eq(st.speed_hist[0], 0.2, 1e-12);
	/* the one yaw change, 90 degrees in one tick */
	cr_assert_float_eq(st.turn_view.max, 90.0 * HZ, 1e-6);
	cr_assert_float_eq(st.turn_heading.max, 0, 1e-12);
	/* two segments of 640 samples (the second ends with the trace):
	 * 10 s less one tick from the first sample to the last */
	cr_assert_eq(st.seg_len.n, 2);
	cr_assert_eq(st.seg_s.n, 2);
	cr_assert_float_eq(st.seg_s.max, 10.0 - 1.0 / HZ, 1e-9);
	cr_assert_float_eq(st.seg_len.max, 1000.0 - 100.0 / HZ, 1e-6);
	/* one path of the whole life */
	cr_assert_eq(st.path_s.n, 1);
	cr_assert_float_eq(st.path_s.max, 25.0 - 1.0 / HZ, 1e-9);
	trace_free(&t);
	trace_events_free(&ev);
}

Test(world_stats, jumps_split_paths_and_short_ones_drop)
{
	struct trace t;
	struct trace_stats_opts o;
	struct trace_stats st;
	double x = 0, y = 0;

	trace_init(&t);
	t.tick_ns = 15625000;
	leg(&t, 0, 0, 8 * HZ, &x, &y, 50, 0, 0);
	x += 5000; /* respawn-like teleport */
	leg(&t, 0, 8 * HZ, 11 * HZ, &x, &y, 50, 0, 0);
	x += 5000;
	leg(&t, 0, 11 * HZ, 20 * HZ, &x, &y, 50, 0, 0);
	trace_stats_defaults(&o);
	cr_assert_eq(trace_stats(&t, NULL, &o, &st), 0);
	/* 8 s, 3 s (dropped: < 5 s), 9 s */
	cr_assert_eq(st.path_s.n, 2);
	cr_assert_float_eq(st.path_s.max, 9.0 - 1.0 / HZ, 1e-9);
	cr_assert_float_eq(st.path_s.p10, 8.0 - 1.0 / HZ, 1e-9);
	cr_assert_eq(st.have_events, 0);
	cr_assert_float_eq(st.frac_fighting, 0, 0);
	trace_free(&t);
}

static void dead(struct trace *t, uint32_t e, int k0, int k1, double x,
		 double y)
{
	for (int k = k0; k < k1; k++) {
		struct trace_sample s = {
			.t_ns = (int64_t)k * 15625000,
			.entity = e,
			.alive = 0,
			.x = x,
			.y = y,
		};
		cr_assert_eq(trace_append(t, &s), 0);
	}
}

/* Segments ended by a death, by a turn and by the end of the trace, and
 * a one-sample life: every segment counts once in both the length and
 * the duration distributions, and each covers the same samples in both
 * (here length = 100 u/s x duration). */
Test(world_stats, segment_lengths_and_durations_agree)
{
	struct trace t;
	struct trace_stats_opts o;
	struct trace_stats st;
	double x = 0, y = 0;

	trace_init(&t);
	t.tick_ns = 15625000;
	leg(&t, 0, 0, 2 * HZ, &x, &y, 100, 0, 0);	       /* 128 samples */
	dead(&t, 0, 2 * HZ, 2 * HZ + 3, x, y);		       /* dies */
	x = 3000;					       /* respawn */
	leg(&t, 0, 2 * HZ + 3, 2 * HZ + 4, &x, &y, 100, 0, 0); /* one */
	dead(&t, 0, 2 * HZ + 4, 2 * HZ + 6, x, y);	       /* dies again */
	x = 0;
	y = 500;
	leg(&t, 0, 2 * HZ + 6, 4 * HZ + 6, &x, &y, 100, 0, 0);	/* 128 east */
	leg(&t, 0, 4 * HZ + 6, 5 * HZ + 6, &x, &y, 0, 100, 90); /* 64 south */
	trace_stats_defaults(&o);
	cr_assert_eq(trace_stats(&t, NULL, &o, &st), 0);
	cr_assert_eq(st.seg_len.n, 4);
	cr_assert_eq(st.seg_s.n, 4);
	/* sorted: 0 (the one sample), 63, 127, 127 ticks */
	cr_assert_float_eq(st.seg_s.max, 127.0 / HZ, 1e-9);
	cr_assert_float_eq(st.seg_len.max, 127.0 * 100 / HZ, 1e-6);
	cr_assert_float_eq(st.seg_s.mean, (63.0 + 127 + 127) / 4 / HZ, 1e-9);
	cr_assert_float_eq(st.seg_len.mean, 100 * st.seg_s.mean, 1e-6);
	cr_assert_float_eq(st.seg_s.p10, 0, 0);
	cr_assert_float_eq(st.seg_len.p10, 0, 0);
	trace_free(&t);
}

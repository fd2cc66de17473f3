/*
 * test_history.c: the history ring (1.5 s at 60 Hz is LAGCOM's 90
 * frames; the oldest is dropped when full) and the rollback amount of
 * Algorithms 2-4: round(ping / (1000 / tick rate)) frames before the
 * newest, 15 for Alice's 250 ms and 3 for Bob's 50 ms at 60 Hz.
 */
#include <criterion/criterion.h>
#include <errno.h>

#include "lagcomp/lagcomp.h"

Test(history, capacity_is_ceil_of_seconds_times_rate)
{
	struct lc_history h;

	cr_assert_eq(lc_history_init(&h, 60, 1.5), 0);
	cr_assert_eq(h.cap, 90);
	cr_assert_eq(lc_history_init(&h, 64, 1.5), 0);
	cr_assert_eq(h.cap, 96);
	cr_assert_eq(lc_history_init(&h, 128, 1.5), 0);
	cr_assert_eq(h.cap, 192);
	cr_assert_eq(lc_history_init(&h, 60, 0.001), 0);
	cr_assert_eq(h.cap, 1);
	cr_assert_eq(lc_history_init(&h, 1000, 1.0), -EINVAL);
	cr_assert_eq(lc_history_init(&h, 0, 1.0), -EINVAL);
}

Test(history, ring_keeps_the_newest_cap_frames)
{
	struct lc_history h;

	lc_history_init(&h, 60, 1.5);
	cr_assert_null(lc_history_back(&h, 0));
	for (int k = 0; k < 200; k++) {
		struct lc_pose p = {k, 0, 0, 0};

		lc_history_push(&h, k, &p, 1);
	}
	cr_assert_eq(h.n, 90);
	cr_assert_eq(lc_history_back(&h, 0)->tick, 199);
	cr_assert_eq(lc_history_back(&h, 15)->tick, 184);
	cr_assert_float_eq(lc_history_back(&h, 15)->pose.x, 184.0, 0);
	cr_assert_eq(lc_history_back(&h, 89)->tick, 110);
	/* clamped to the oldest kept */
	cr_assert_eq(lc_history_back(&h, 500)->tick, 110);
	cr_assert_eq(lc_history_at(&h, 150)->tick, 150);
	cr_assert_eq(lc_history_at(&h, 10)->tick, 110);
}

Test(rollback, thesis_values)
{
	cr_assert_eq(lc_rollback_frames(250, 0, 60), 15);
	cr_assert_eq(lc_rollback_frames(50, 0, 60), 3);
	cr_assert_eq(lc_rollback_frames(0, 0, 60), 0);
	/* 8.33 ms rounds to 0.5 -> 1 (lround rounds half away from 0) */
	cr_assert_eq(lc_rollback_frames(1000.0 / 120, 0, 60), 1);
	/* plus an interpolation delay: 250 + 100 ms = 21 frames */
	cr_assert_eq(lc_rollback_frames(250, 100, 60), 21);
	cr_assert_eq(lc_rollback_frames(150, 1000.0 / 64, 64), 11);
	cr_assert_eq(lc_rollback_frames(-5, 0, 60), 0);
}

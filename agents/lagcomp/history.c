/*
 * history.c: the server's per-player pose history of Lee's Algorithm 2
 * (SERVERTICK: "if length of player's frames = maxFrameSize then remove
 * the first element; push player's states") as a ring buffer of
 * ceil(H * tick rate) frames (LAGCOM keeps 90 frames, 1.5 s at 60 Hz),
 * and the rollback amount of Algorithms 2-4: round(ping / (1000 / tick
 * rate)) frames before the newest.
 */
#include <errno.h>
#include <math.h>

#include "lagcomp/lagcomp.h"

int lc_history_init(struct lc_history *h, int tick_hz, double seconds)
{
	double cap = ceil(seconds * tick_hz - 1e-9);

	if (tick_hz < 1 || !(cap >= 1 && cap <= LC_HIST_MAX))
		return -EINVAL;
	h->cap = (int)cap;
	h->n = 0;
	h->head = 0;
	return 0;
}

void lc_history_push(struct lc_history *h, int64_t tick,
		     const struct lc_pose *p, int alive)
{
	struct lc_frame *f = &h->f[h->head];

	f->tick = tick;
	f->pose = *p;
	f->alive = (uint8_t)(alive != 0);
	h->head = (h->head + 1) % h->cap;
	if (h->n < h->cap)
		h->n++;
}

const struct lc_frame *lc_history_back(const struct lc_history *h, int k)
{
	if (h->n == 0)
		return NULL;
	if (k < 0)
		k = 0;
	if (k > h->n - 1)
		k = h->n - 1;
	return &h->f[(h->head - 1 - k + 2 * h->cap) % h->cap];
}

const struct lc_frame *lc_history_at(const struct lc_history *h, int64_t tick)
{
	for (int k = 0; k < h->n; k++) {
		const struct lc_frame *f = lc_history_back(h, k);

		if (f->tick <= tick)
			return f;
	}
	return lc_history_back(h, h->n - 1);
}

int lc_rollback_frames(double rtt_ms, double interp_ms, int tick_hz)
{
	double k = (rtt_ms + interp_ms) * tick_hz / 1000.0;

	if (!(k > 0) || tick_hz < 1)
		return 0;
	return (int)lround(k);
}

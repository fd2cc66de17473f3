/*
 * test_queue_order.c: the link's packet store (netem/queue.c: ring, radix
 * heap, fallback heap) checked against a plain reference, a sorted array
 * ordered by (time_to_send, arrival sequence). Seeded random mixes of
 * pushes and pops with times that repeat, move forward, jump backwards
 * below the last popped time (the fallback heap's case), sit at the ends
 * of the int64 range, and pops that leave the queue empty: every pop must
 * return the reference's first entry, and min, max and length must agree
 * after every step.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "queue.h"

struct ref {
	struct netem_qent *v;
	size_t n, cap;
};

static int before(const struct netem_qent *a, const struct netem_qent *b)
{
	return a->tts < b->tts || (a->tts == b->tts && a->seq < b->seq);
}

static void ref_push(struct ref *r, const struct netem_qent *e)
{
	size_t i;

	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 64;
		r->v = realloc(r->v, r->cap * sizeof(*r->v));
		cr_assert_not_null(r->v);
	}
	i = r->n;
	while (i > 0 && before(e, &r->v[i - 1])) {
		r->v[i] = r->v[i - 1];
		i--;
	}
	r->v[i] = *e;
	r->n++;
}

static uint64_t sm(uint64_t *s)
{
	return splitmix64(s);
}

static void check_same(const struct netem_queue *q, const struct ref *r)
{
	int64_t t, m;
	size_t i;

	cr_assert_eq(netem_queue_len(q), r->n);
	if (r->n == 0) {
		cr_assert_eq(netem_queue_min(q, &t), 0);
		cr_assert_eq(netem_queue_max_tts(q, &t), 0);
		return;
	}
	cr_assert_eq(netem_queue_min(q, &t), 1);
	cr_assert_eq(t, r->v[0].tts);
	m = r->v[0].tts;
	for (i = 1; i < r->n; i++)
		if (r->v[i].tts > m)
			m = r->v[i].tts;
	cr_assert_eq(netem_queue_max_tts(q, &t), 1);
	cr_assert_eq(t, m);
}

/* mode 0: times near a clock that moves forward (the link's case); mode
 * 1: also jumps below the last popped time; mode 2: few distinct times
 * (many ties) and the int64 extremes. */
static int64_t draw_time(uint64_t *s, int mode, int64_t clock)
{
	uint64_t r = sm(s);

	switch (mode) {
	case 0:
		return clock + (int64_t)(r % 1000000);
	case 1:
		if (r % 8 == 0)
			return clock - (int64_t)((r >> 8) % 3000000);
		return clock + (int64_t)((r >> 8) % 1000000);
	default:
		if (r % 64 == 0)
			return (r >> 6) & 1 ? INT64_MAX : INT64_MIN;
		/* a coarse clock: the same few times come back many times */
		return clock / 8000 * 8000 + (int64_t)((r >> 8) % 8) * 1000;
	}
}

static void run(int mode, uint64_t seed, int steps)
{
	struct netem_queue q;
	struct ref r = {0};
	struct netem_qent e, out;
	uint64_t s = seed, seq = 0;
	int64_t clock = 0;
	int i;

	cr_assert_eq(netem_queue_init(&q, 64), 0);
	for (i = 0; i < steps; i++) {
		uint64_t c = sm(&s);
		/* phases of growth and drain, so the queue empties often and
		 * also grows past its first capacity */
		int grow = (i / 5000) % 2 == 0;

		clock += (int64_t)(c % 2000);
		if (r.n == 0 || c % 100 < (grow ? 60u : 35u)) {
			memset(&e, 0, sizeof(e));
			e.tts = draw_time(&s, mode, clock);
			e.seq = seq++;
			e.pkt.cookie = e.seq;
			cr_assert_eq(netem_queue_push(&q, &e), 0);
			ref_push(&r, &e);
		} else {
			netem_queue_pop(&q, &out);
			cr_assert_eq(out.seq, r.v[0].seq,
				     "step %d: popped seq %llu want %llu", i,
				     (unsigned long long)out.seq,
				     (unsigned long long)r.v[0].seq);
			cr_assert_eq(out.tts, r.v[0].tts);
			cr_assert_eq(out.pkt.cookie, r.v[0].pkt.cookie);
			memmove(r.v, r.v + 1, (r.n - 1) * sizeof(*r.v));
			r.n--;
		}
		check_same(&q, &r);
	}
	netem_queue_free(&q);
	free(r.v);
}

Test(queue_order, forward_times)
{
	run(0, 1, 60000);
}

Test(queue_order, times_below_last_popped)
{
	run(1, 2, 60000);
}

Test(queue_order, ties_and_extremes)
{
	run(2, 3, 60000);
}

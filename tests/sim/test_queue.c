/*
 * test_queue.c: the simulator's event queue (daemon/netsim/sim_queue.c). Pops
 * come out in (time, push order) order for seeded random pushes checked
 * against a sorted reference, ties keep push order (also for a time whose
 * events fall into several buckets: 500 times take turns, far more than
 * the buckets a push looks in), interleaved push and pop never go back,
 * and an empty queue says so.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>

#include "util.h"
#include "netsim_int.h"

static uint64_t state;

/* splitmix64: a fixed, seeded stream for the test's inputs */
static uint64_t next_u64(void)
{
	return splitmix64(&state);
}

struct ref {
	int64_t t;
	uint32_t who;
};

static int cmp_ref(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	/* who is the push index: equal times keep push order */
	return x->who < y->who ? -1 : x->who > y->who;
}

Test(sim_queue, empty)
{
	struct sim_queue q;
	struct sim_event e = {.t = 42};

	sim_queue_init(&q);
	cr_assert_null(sim_queue_peek(&q));
	cr_assert_eq(sim_queue_pop(&q, &e), 0);
	cr_assert_eq(e.t, 42, "pop of an empty queue wrote its output");
	sim_queue_free(&q);
}

Test(sim_queue, sorted_like_reference)
{
	enum { N = 20000 };
	struct ref *r = malloc(N * sizeof(*r));
	struct sim_queue q;
	struct sim_event e;

	cr_assert_not_null(r);
	state = 7;
	sim_queue_init(&q);
	for (uint32_t i = 0; i < N; i++) {
		/* few distinct times, so many ties */
		r[i].t = (int64_t)(next_u64() % 500);
		r[i].who = i;
		cr_assert_eq(sim_queue_push(&q, r[i].t, 3, i, i * 2), 0);
	}
	qsort(r, N, sizeof(*r), cmp_ref);
	for (uint32_t i = 0; i < N; i++) {
		cr_assert_eq(sim_queue_peek(&q)->who, r[i].who);
		cr_assert_eq(sim_queue_pop(&q, &e), 1);
		cr_assert_eq(e.t, r[i].t, "pop %u: t %lld, want %lld", i,
			     (long long)e.t, (long long)r[i].t);
		cr_assert_eq(e.who, r[i].who, "pop %u: tie order broken", i);
		cr_assert_eq(e.kind, 3);
		cr_assert_eq(e.gen, (uint64_t)r[i].who * 2);
	}
	cr_assert_eq(sim_queue_pop(&q, &e), 0);
	sim_queue_free(&q);
	free(r);
}

Test(sim_queue, interleaved_push_pop)
{
	struct sim_queue q;
	struct sim_event e;
	int64_t last_t = INT64_MIN;
	uint64_t last_seq = 0, pops = 0;

	state = 99;
	sim_queue_init(&q);
	/* a discrete-event pattern: pop one, push a few at or after it */
	cr_assert_eq(sim_queue_push(&q, 0, 0, 0, 0), 0);
	while (pops < 50000 && sim_queue_pop(&q, &e)) {
		pops++;
		cr_assert(e.t > last_t || (e.t == last_t && e.seq > last_seq),
			  "pop %llu went back in (t, seq)",
			  (unsigned long long)pops);
		last_t = e.t;
		last_seq = e.seq;
		/* one or two children: the queue grows, never empties */
		for (uint64_t k = 1 + next_u64() % 2; k > 0; k--)
			cr_assert_eq(
				sim_queue_push(&q,
					       e.t + (int64_t)(next_u64() % 4),
					       0, 0, 0),
				0);
	}
	cr_assert_eq(pops, 50000);
	sim_queue_free(&q);
}

/*
 * sim_queue.c: the simulator's event queue (see netsim_int.h): a binary
 * min-heap and a ring. Order is (t, seq) lexicographic; seq is unique, so
 * the order is total and pops are deterministic. An event pushed for the
 * time of the last pop goes to the ring (for_ring), after every earlier
 * push: the ring's events share one time and are in seq order, so its
 * first is its least, and the queue's next event is the ring's first or
 * the heap's top, whichever comes first. Heap push and pop are O(log n),
 * the ring's O(1).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "netsim_int.h"

static int before(const struct sim_event *a, const struct sim_event *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

void sim_queue_init(struct sim_queue *q)
{
	memset(q, 0, sizeof(*q));
}

void sim_queue_free(struct sim_queue *q)
{
	free(q->ev);
	free(q->now);
	sim_queue_init(q);
}

static int ring_push(struct sim_queue *q, const struct sim_event *e)
{
	if (q->nnow == q->capnow) {
		size_t cap = q->capnow ? q->capnow * 2 : 256;
		struct sim_event *r = malloc(cap * sizeof(*r));

		if (r == NULL)
			return -ENOMEM;
		for (size_t i = 0; i < q->nnow; i++)
			r[i] = q->now[(q->head + i) % q->capnow];
		free(q->now);
		q->now = r;
		q->head = 0;
		q->capnow = cap;
	}
	q->now[(q->head + q->nnow++) % q->capnow] = *e;
	return 0;
}

static int heap_push(struct sim_queue *q, const struct sim_event *e)
{
	size_t i;

	if (q->n == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 256;
		struct sim_event *ev = realloc(q->ev, cap * sizeof(*ev));

		if (ev == NULL)
			return -ENOMEM;
		q->ev = ev;
		q->cap = cap;
	}
	/* sift up */
	for (i = q->n++; i > 0; i = (i - 1) / 2) {
		size_t parent = (i - 1) / 2;

		if (!before(e, &q->ev[parent]))
			break;
		q->ev[i] = q->ev[parent];
	}
	q->ev[i] = *e;
	return 0;
}

/* Whether an event for t joins the ring: t is the last pop's time and
 * the time of the events in the ring, if any. Sorted by seq, the ring's
 * events then stay in (t, seq) order whatever times are pushed. */
static int for_ring(const struct sim_queue *q, int64_t t)
{
	return q->popped && t == q->t_now &&
	       (q->nnow == 0 || q->now[q->head].t == t);
}

int sim_queue_push(struct sim_queue *q, int64_t t, uint32_t kind, uint32_t who,
		   uint64_t gen)
{
	struct sim_event e = {t, q->next_seq, kind, who, gen};
	int err = for_ring(q, t) ? ring_push(q, &e) : heap_push(q, &e);

	if (!err)
		q->next_seq++;
	return err;
}

static void heap_pop(struct sim_queue *q, struct sim_event *out)
{
	struct sim_event last;
	size_t i = 0;

	*out = q->ev[0];
	last = q->ev[--q->n];
	/* sift the last element down from the root */
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= q->n)
			break;
		if (c + 1 < q->n && before(&q->ev[c + 1], &q->ev[c]))
			c++;
		if (!before(&q->ev[c], &last))
			break;
		q->ev[i] = q->ev[c];
		i = c;
	}
	if (q->n > 0)
		q->ev[i] = last;
}

const struct sim_event *sim_queue_peek(const struct sim_queue *q)
{
	const struct sim_event *r = q->nnow ? &q->now[q->head] : NULL;

	if (q->n && (!r || before(&q->ev[0], r)))
		return &q->ev[0];
	return r;
}

int sim_queue_pop(struct sim_queue *q, struct sim_event *out)
{
	const struct sim_event *next = sim_queue_peek(q);

	if (next == NULL)
		return 0;
	if (q->nnow && next == &q->now[q->head]) {
		*out = *next;
		q->head = (q->head + 1) % q->capnow;
		q->nnow--;
	} else {
		heap_pop(q, out);
	}
	q->t_now = out->t;
	q->popped = 1;
	return 1;
}

/*
 * sim_queue.c: the binary min-heap of simulator events (see netsim_int.h).
 * Order is (t, seq) lexicographic; seq is unique, so the order is total
 * and pops are deterministic. Push and pop are O(log n).
 */
#include <errno.h>
#include <stdlib.h>

#include "netsim_int.h"

static int before(const struct sim_event *a, const struct sim_event *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

void sim_queue_init(struct sim_queue *q)
{
	q->ev = NULL;
	q->n = q->cap = 0;
	q->next_seq = 0;
}

void sim_queue_free(struct sim_queue *q)
{
	free(q->ev);
	sim_queue_init(q);
}

int sim_queue_push(struct sim_queue *q, int64_t t, uint32_t kind, uint32_t who,
		   uint64_t gen)
{
	struct sim_event e = {t, q->next_seq, kind, who, gen};
	size_t i;

	if (q->n == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 256;
		struct sim_event *ev = realloc(q->ev, cap * sizeof(*ev));

		if (ev == NULL)
			return -ENOMEM;
		q->ev = ev;
		q->cap = cap;
	}
	q->next_seq++;
	/* sift up */
	for (i = q->n++; i > 0; i = (i - 1) / 2) {
		size_t parent = (i - 1) / 2;

		if (!before(&e, &q->ev[parent]))
			break;
		q->ev[i] = q->ev[parent];
	}
	q->ev[i] = e;
	return 0;
}

int sim_queue_pop(struct sim_queue *q, struct sim_event *out)
{
	struct sim_event last;
	size_t i = 0;

	if (q->n == 0)
		return 0;
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
	return 1;
}

const struct sim_event *sim_queue_peek(const struct sim_queue *q)
{
	return q->n ? &q->ev[0] : NULL;
}

/*
 * sim_queue.h: the simulator's event queue, a binary min-heap keyed by
 * (time, sequence number). The sequence number is given at push time, so
 * events due at the same instant come out in the order they were pushed
 * and a run is deterministic whatever the heap's internal layout. Pure:
 * no clock, no I/O.
 */
#ifndef RECKON_SIM_QUEUE_H
#define RECKON_SIM_QUEUE_H

#include <stddef.h>
#include <stdint.h>

struct sim_event {
	int64_t t;    /* virtual time, ns */
	uint64_t seq; /* push order, the tie-break */
	uint32_t kind;
	uint32_t who;
	uint64_t gen; /* caller's generation, to recognise stale events */
};

struct sim_queue {
	struct sim_event *ev;
	size_t n, cap;
	uint64_t next_seq;
};

void sim_queue_init(struct sim_queue *q);
void sim_queue_free(struct sim_queue *q);

/* 0 or -ENOMEM (the queue is unchanged then). */
int sim_queue_push(struct sim_queue *q, int64_t t, uint32_t kind, uint32_t who,
		   uint64_t gen);

/* The earliest event into *out and off the queue: 1, or 0 when empty. */
int sim_queue_pop(struct sim_queue *q, struct sim_event *out);

/* The earliest event without removing it; NULL when empty. */
const struct sim_event *sim_queue_peek(const struct sim_queue *q);

#endif

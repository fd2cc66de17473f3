/*
 * bridge_due.c: when the userspace bridge sends. Each directed link with
 * frames in flight sits in a binary min-heap keyed by its engine's next
 * due time (netem_link_next_time); one CLOCK_MONOTONIC timerfd, armed
 * with an absolute deadline at the heap's top and watched by libevent,
 * wakes the bridge. On wake-up every due copy is dequeued and queued on
 * its destination port, and each round of due copies leaves in one
 * sendmmsg per port before the clock is read again. With a spin lead
 * (RECKON_BRIDGE_SPIN_US) the timer fires that much early and the last
 * stretch is waited on the clock.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <sys/timerfd.h>

#include "bridge_int.h"

static void heap_swap(struct bridge *b, unsigned i, unsigned j)
{
	struct blink *t = b->heap[i];

	b->heap[i] = b->heap[j];
	b->heap[j] = t;
	b->heap[i]->hpos = (int)i;
	b->heap[j]->hpos = (int)j;
}

static void heap_up(struct bridge *b, unsigned i)
{
	while (i > 0 && b->heap[(i - 1) / 2]->next > b->heap[i]->next) {
		heap_swap(b, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static void heap_down(struct bridge *b, unsigned i)
{
	for (;;) {
		unsigned l = 2 * i + 1, r = l + 1, m = i;

		if (l < b->heap_n && b->heap[l]->next < b->heap[m]->next)
			m = l;
		if (r < b->heap_n && b->heap[r]->next < b->heap[m]->next)
			m = r;
		if (m == i)
			return;
		heap_swap(b, i, m);
		i = m;
	}
}

/* Re-read the link's next due time and put it where it belongs. */
void br_heap_update(struct bridge *b, struct blink *l)
{
	unsigned i;

	l->next = netem_link_next_time(l->nl);
	if (l->hpos < 0) {
		if (l->next == INT64_MAX)
			return;
		l->hpos = (int)b->heap_n;
		b->heap[b->heap_n++] = l;
		heap_up(b, (unsigned)l->hpos);
		return;
	}
	i = (unsigned)l->hpos;
	if (l->next == INT64_MAX) {
		if (i != b->heap_n - 1)
			heap_swap(b, i, b->heap_n - 1);
		b->heap_n--;
		l->hpos = -1;
		if (i < b->heap_n) {
			heap_up(b, i);
			heap_down(b, i);
		}
		return;
	}
	heap_up(b, i);
	heap_down(b, (unsigned)l->hpos);
}

static void timer_arm_at(struct bridge *b, int64_t t)
{
	struct itimerspec its;

	if (t == b->armed)
		return;
	memset(&its, 0, sizeof(its));
	if (t != INT64_MAX) {
		if (t <= 0)
			t = 1; /* it_value 0 would disarm */
		its.it_value.tv_sec = t / 1000000000;
		its.it_value.tv_nsec = t % 1000000000;
	}
	if (timerfd_settime(b->tfd, TFD_TIMER_ABSTIME, &its, NULL) == 0)
		b->armed = t;
}

void br_timer_arm(struct bridge *b)
{
	timer_arm_at(b, b->heap_n ? b->heap[0]->next - b->spin_ns : INT64_MAX);
}

/* With a spin lead: when the next copy is due within it, wait for it on
 * the clock rather than on the timer. Returns the time read last. */
static int64_t spin_to_next(struct bridge *b, int64_t now)
{
	if (!b->spin_ns || !b->heap_n || b->heap[0]->next <= now ||
	    b->heap[0]->next - now > b->spin_ns)
		return now;
	while (now < b->heap[0]->next)
		now = br_mono_ns();
	return now;
}

/* Send every copy that is due, re-reading the clock until nothing is,
 * then arm the timer for the next one. */
void br_run_due(struct bridge *b)
{
	struct netem_pkt p;
	int64_t now = spin_to_next(b, br_mono_ns());

	while (b->heap_n && b->heap[0]->next <= now) {
		struct blink *l = b->heap[0];
		unsigned got = 0;

		while (netem_link_dequeue(l->nl, now, &p) == 1) {
			br_tx_deliver(b, l, &p);
			got++;
		}
		br_heap_update(b, l);
		if (got == 0 && l->next <= now) {
			/* The engine says "due" but hands nothing out (a
			 * slot boundary it has not moved yet): retry in 1 us
			 * rather than spin. */
			br_tx_flush_all(b);
			timer_arm_at(b, now + 1000);
			return;
		}
		if (!b->heap_n || b->heap[0]->next > now) {
			br_tx_flush_all(b);
			now = spin_to_next(b, br_mono_ns());
		}
	}
	br_tx_flush_all(b);
	br_timer_arm(b);
}

void br_on_timer(evutil_socket_t fd, short what, void *arg)
{
	uint64_t ticks;

	(void)what;
	if (read(fd, &ticks, sizeof(ticks)) < 0 && errno != EAGAIN)
		return;
	br_run_due(arg);
}

/*
 * test_queue.c: what the link's queue does with delivery order: rate
 * spacing (exact: tts = max(last, now + delay) + len*8/rate with packet
 * overhead and cells), reorder with gap (netem's counter), the queue limit
 * (tail drop, counted as NETEM_DROP_LIMIT), slots, duplicates, corruption
 * positions and the counters' conservation law.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "netem.h"
#include "stats.h"

static struct netem_link *mk(const char *text, uint64_t seed)
{
	struct netem_spec s;
	struct netem_link *l;

	spec_must(text, &s);
	cr_assert_eq(netem_link_new(&s, seed, 5, &l), 0);
	return l;
}

static int64_t offer(struct netem_link *l, int64_t now, uint32_t len,
		     uint64_t cookie)
{
	struct netem_verdict v;

	cr_assert_eq(netem_link_enqueue(l, now, len, cookie, &v), 0);
	cr_assert_eq(v.copies, 1);
	return v.time_ns[0];
}

Test(queue, rate_spacing_exact)
{
	struct netem_link *l;
	int k;

	/* 1mbit = 125000 B/s: 1000 bytes take 8 ms */
	l = mk("rate 1mbit", 1);
	for (k = 0; k < 5; k++)
		cr_assert_eq(offer(l, 0, 1000, k), (int64_t)(k + 1) * 8000000);
	netem_link_free(l);
	/* packet overhead 20: 1020 bytes -> 8.16 ms */
	l = mk("rate 1mbit 20", 1);
	for (k = 0; k < 3; k++)
		cr_assert_eq(offer(l, 0, 1000, k), (int64_t)(k + 1) * 8160000);
	netem_link_free(l);
	/* overhead -14 (strip Ethernet): 986 bytes -> 7.888 ms */
	l = mk("rate 1mbit -14", 1);
	cr_assert_eq(offer(l, 0, 1000, 0), 7888000);
	netem_link_free(l);
	/* cells of 48 (+5): ceil(1020/48) = 22 cells of 53 bytes = 1166 */
	l = mk("rate 1mbit 20 48 5", 1);
	cr_assert_eq(offer(l, 0, 1000, 0), 1166LL * 8000);
	cr_assert_eq(offer(l, 0, 1000, 1), 2 * 1166LL * 8000);
	netem_link_free(l);
}

/* tts = max(last tts, now + delay) + t; an idle link still pays t. */
Test(queue, rate_with_delay)
{
	struct netem_link *l = mk("delay 10ms rate 1mbit", 1);
	struct netem_pkt p;

	cr_assert_eq(offer(l, 0, 1000, 0), 18000000);
	cr_assert_eq(offer(l, 0, 1000, 1), 26000000);
	cr_assert_eq(offer(l, 5000000, 1000, 2), 34000000);
	while (netem_link_dequeue(l, 40000000, &p) == 1)
		;
	cr_assert_eq(netem_link_queued(l), 0);
	cr_assert_eq(offer(l, 1000000000, 1000, 3), 1018000000);
	netem_link_free(l);
}

/* reorder 100% gap 5: packets 1..4 delayed, the 5th sent at once. */
Test(queue, reorder_gap_counter)
{
	struct netem_link *l = mk("delay 10ms reorder 100% gap 5", 2);
	struct netem_verdict v;
	struct netem_pkt p;
	int i;

	for (i = 0; i < 50; i++) {
		int64_t now = (int64_t)i * 1000;

		cr_assert_eq(netem_link_enqueue(l, now, 100, i, &v), 0);
		cr_assert_eq(v.reordered, i % 5 == 4, "packet %d", i);
		if (v.reordered) {
			cr_assert_eq(v.time_ns[0], now);
			/* it leaves ahead of the delayed ones */
			cr_assert_eq(netem_link_dequeue(l, now, &p), 1);
			cr_assert_eq(p.cookie, (uint64_t)i);
			cr_assert(p.flags & NETEM_PKT_REORDERED);
		} else {
			cr_assert_eq(v.time_ns[0], now + 10000000);
		}
		cr_assert_eq(netem_link_dequeue(l, now, &p), 0);
	}
	netem_link_free(l);
}

/* reorder P gap G: a cycle is G-1 delayed packets, then Geometric(P)
 * trials, so the reordered fraction is 1/mu with mu = G-1 + 1/P. By the
 * renewal CLT the count over n packets has variance n s2/mu^3 with
 * s2 = (1-P)/P^2. */
Test(queue, reorder_fraction_with_gap)
{
	const double P = 0.25, G = 5, n = 400000;
	double mu = G - 1 + 1 / P, s2 = (1 - P) / (P * P), frac, tol;
	struct netem_link *l = mk("delay 10ms reorder 25% gap 5", 3);
	struct netem_counters c;
	struct netem_verdict v;
	struct netem_pkt p;
	int64_t i;

	for (i = 0; i < (int64_t)n; i++) {
		/* 100 us apart: 100 packets queued, far under the limit */
		cr_assert_eq(
			netem_link_enqueue(l, i * 100000, 100, (uint64_t)i, &v),
			0);
		while (netem_link_dequeue(l, i * 100000, &p) == 1)
			;
	}
	netem_link_counters(l, &c);
	frac = (double)c.reordered / n;
	tol = 5 * sqrt(s2 / (mu * mu * mu) / n);
	cr_expect(fabs(frac - 1 / mu) < tol, "reordered %.5f want %.5f +- %.5f",
		  frac, 1 / mu, tol);
	netem_link_free(l);
}

Test(queue, limit_tail_drop)
{
	struct netem_link *l = mk("delay 1s limit 10", 4);
	struct netem_counters c;
	struct netem_verdict v;
	struct netem_pkt p;
	int i, n = 0;

	for (i = 0; i < 15; i++) {
		cr_assert_eq(netem_link_enqueue(l, 0, 100, i, &v), 0);
		cr_assert_eq(v.drop, i < 10 ? NETEM_PASS : NETEM_DROP_LIMIT);
		cr_assert_eq(v.copies, i < 10 ? 1 : 0);
	}
	cr_assert_eq(netem_link_queued(l), 10);
	while (netem_link_dequeue(l, 1000000000, &p) == 1)
		cr_assert_eq(p.cookie, (uint64_t)n++); /* the head survived */
	cr_assert_eq(n, 10);
	cr_assert_eq(netem_link_enqueue(l, 1000000000, 100, 99, &v), 0);
	cr_assert_eq(v.drop, NETEM_PASS);
	netem_link_counters(l, &c);
	cr_assert_eq(c.drop_limit, 5);
	cr_assert_eq(c.drop_loss, 0);
	netem_link_free(l);
}

/* Packets dequeued ahead of their instant and held still count against
 * the limit, as if they were queued, until held with 0: a link with its
 * two due packets taken and held drops the next offer, as the same link
 * with them still queued does; released, it takes it. */
Test(queue, held_packets_count_against_the_limit)
{
	struct netem_link *a = mk("delay 10ms limit 2", 6);
	struct netem_link *b = mk("delay 10ms limit 2", 6);
	struct netem_verdict v;
	struct netem_pkt p;

	offer(a, 0, 100, 0);
	offer(a, 0, 100, 1);
	offer(b, 0, 100, 0);
	offer(b, 0, 100, 1);
	cr_assert_eq(netem_link_dequeue(b, 10000000, &p), 1);
	cr_assert_eq(netem_link_dequeue(b, 10000000, &p), 1);
	netem_link_hold(b, 2);
	cr_assert_eq(netem_link_queued(b), 2);
	cr_assert_eq(netem_link_enqueue(a, 10000000, 100, 2, &v), 0);
	cr_assert_eq(v.drop, NETEM_DROP_LIMIT);
	cr_assert_eq(netem_link_enqueue(b, 10000000, 100, 2, &v), 0);
	cr_assert_eq(v.drop, NETEM_DROP_LIMIT);
	netem_link_hold(b, 0);
	cr_assert_eq(netem_link_queued(b), 0);
	cr_assert_eq(offer(b, 10000000, 100, 3), 20000000);
	netem_link_free(a);
	netem_link_free(b);
}

/* The least delay: the latency of a fixed delay (rate and loss only add
 * or take away), 0 when jitter, reordering, slots or a schedule can give
 * a packet any delay, or when there is none. */
Test(queue, least_delay)
{
	static const struct {
		const char *spec;
		int64_t least;
	} c[] = {
		{"delay 8ms", 8000000},
		{"delay 8ms loss 5% duplicate 1% corrupt 1% rate 1mbit",
		 8000000},
		{"delay 8ms 1ms", 0},
		{"delay 8ms reorder 10%", 0},
		{"delay 8ms slot 1ms 2ms", 0},
		{"loss 1%", 0},
	};
	struct netem_sched *sc;
	struct netem_link *l;
	char why[200];

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		l = mk(c[i].spec, 7);
		cr_assert_eq(netem_link_least_delay(l), c[i].least, "%s",
			     c[i].spec);
		netem_link_free(l);
	}
	l = mk("delay 8ms", 7);
	cr_assert_eq(
		netem_sched_parse("at 10s delay 20ms", &sc, why, sizeof(why)),
		0, "%s", why);
	cr_assert_eq(netem_link_set_schedule(l, sc, 0), 0);
	cr_assert_eq(netem_link_least_delay(l), 0);
	netem_sched_free(sc);
	netem_link_free(l);
}

/* The kernel checks the limit before it enqueues the duplicate, so a
 * duplicated packet can take the queue one over the limit. */
Test(queue, limit_with_duplicate)
{
	struct netem_link *l = mk("delay 1s limit 3 duplicate 100%", 5);
	struct netem_counters c;
	struct netem_verdict v;

	cr_assert_eq(netem_link_enqueue(l, 0, 100, 0, &v), 0);
	cr_assert_eq(v.copies, 2);
	cr_assert_eq(netem_link_queued(l), 2);
	cr_assert_eq(netem_link_enqueue(l, 0, 100, 1, &v), 0);
	cr_assert_eq(v.copies, 2);
	cr_assert_eq(netem_link_queued(l), 4);
	cr_assert_eq(netem_link_enqueue(l, 0, 100, 2, &v), 0);
	cr_assert_eq(v.drop, NETEM_DROP_LIMIT);
	netem_link_counters(l, &c);
	cr_assert_eq(c.drop_limit, 2);
	netem_link_free(l);
}

Test(queue, duplicate_copies)
{
	struct netem_link *l = mk("delay 10ms duplicate 100%", 6);
	struct netem_verdict v;
	struct netem_pkt p[3];

	cr_assert_eq(netem_link_enqueue(l, 0, 100, 42, &v), 0);
	cr_assert_eq(v.copies, 2);
	cr_assert_eq(v.time_ns[0], 10000000);
	cr_assert_eq(v.time_ns[1], 10000000);
	cr_assert_eq(netem_link_dequeue(l, 10000000, &p[0]), 1);
	cr_assert_eq(netem_link_dequeue(l, 10000000, &p[1]), 1);
	cr_assert_eq(netem_link_dequeue(l, 10000000, &p[2]), 0);
	cr_assert_eq(p[0].cookie, 42);
	cr_assert_eq(p[1].cookie, 42);
	/* the duplicate was queued first (root re-enqueue), equal times
	 * leave in arrival order */
	cr_assert(p[0].flags & NETEM_PKT_DUP);
	cr_assert(!(p[1].flags & NETEM_PKT_DUP));
	netem_link_free(l);
}

Test(queue, corrupt_positions)
{
	struct netem_link *l = mk("corrupt 100%", 7);
	struct netem_verdict v;
	struct netem_pkt p;
	int bits = 0, first = 0, last = 0, i;

	for (i = 0; i < 5000; i++) {
		cr_assert_eq(netem_link_enqueue(l, i, 64, i, &v), 0);
		cr_assert(v.corrupted);
		cr_assert_eq(netem_link_dequeue(l, i, &p), 1);
		cr_assert(p.corrupt_byte >= 0 && p.corrupt_byte < 64);
		cr_assert_lt(p.corrupt_bit, 8);
		bits |= 1 << p.corrupt_bit;
		first += p.corrupt_byte == 0;
		last += p.corrupt_byte == 63;
	}
	/* P(a given byte never hit in 5000 draws) = (63/64)^5000 < 1e-34 */
	cr_assert_eq(bits, 0xff);
	cr_assert_gt(first, 0);
	cr_assert_gt(last, 0);
	cr_assert_eq(netem_link_enqueue(l, 9999, 0, 1, &v), 0);
	cr_assert_eq(netem_link_dequeue(l, 9999, &p), 1);
	cr_assert_eq(p.corrupt_byte, -1); /* nothing to flip */
	netem_link_free(l);
}

/* slot 10ms 10ms packets 3: everything waits for a slot; each slot lets
 * three packets go, then the next starts 10 ms later. */
Test(queue, slot_batching)
{
	struct netem_link *l = mk("slot 10ms 10ms packets 3", 8);
	struct netem_pkt p;
	int64_t t, expect[] = {10, 10, 10, 20, 20, 20, 30, 30, 30, 40};
	int i, n = 0;

	for (i = 0; i < 10; i++)
		offer(l, 0, 100, i);
	cr_assert_eq(netem_link_dequeue(l, 0, &p), 0);
	while ((t = netem_link_next_time(l)) != INT64_MAX) {
		if (netem_link_dequeue(l, t, &p) == 1) {
			cr_assert_eq(t, expect[n] * 1000000,
				     "packet %d at %lld", n, (long long)t);
			cr_assert_eq(p.cookie, (uint64_t)n);
			n++;
		}
	}
	cr_assert_eq(n, 10);
	netem_link_free(l);
}

/* bytes budget 250 with 100-byte packets: the third packet overdraws it,
 * as in the kernel (bytes_left goes negative, then a new slot). */
Test(queue, slot_bytes_budget)
{
	struct netem_link *l = mk("slot 5ms 5ms bytes 250", 9);
	struct netem_pkt p;
	int64_t t;
	int per[4] = {0}, n = 0;

	for (n = 0; n < 9; n++)
		offer(l, 0, 100, n);
	while ((t = netem_link_next_time(l)) != INT64_MAX)
		if (netem_link_dequeue(l, t, &p) == 1)
			per[t / 5000000 - 1]++;
	cr_assert_eq(per[0], 3);
	cr_assert_eq(per[1], 3);
	cr_assert_eq(per[2], 3);
	netem_link_free(l);
}

/* slot 1ms 3ms packets 1 on a backlog: gaps are uniform on [1ms, 3ms]
 * (mean 2 ms, sd 2ms/sqrt 12); 5 standard errors on the mean gap. */
Test(queue, slot_uniform_gaps)
{
	struct netem_link *l = mk("slot 1ms 3ms packets 1 limit 100000", 10);
	struct netem_pkt p;
	int64_t t, prev = -1;
	double sum = 0, n = 0, tol, gmin = 1e18, gmax = 0;
	int i;

	for (i = 0; i < 20000; i++)
		offer(l, 0, 100, i);
	while ((t = netem_link_next_time(l)) != INT64_MAX) {
		if (netem_link_dequeue(l, t, &p) != 1)
			continue;
		if (prev >= 0) {
			double g = (double)(t - prev);

			sum += g;
			n++;
			gmin = g < gmin ? g : gmin;
			gmax = g > gmax ? g : gmax;
		}
		prev = t;
	}
	tol = 5 * (2e6 / sqrt(12)) / sqrt(n);
	cr_expect(fabs(sum / n - 2e6) < tol, "mean gap %.0f +- %.0f", sum / n,
		  tol);
	cr_assert_geq(gmin, 1e6);
	cr_assert_leq(gmax, 3e6);
	netem_link_free(l);
}

/* Conservation: every offered packet and every duplicate is delivered,
 * dropped by the loss model, dropped by the limit, or still queued. */
Test(queue, counters_conserve)
{
	struct netem_spec s;
	struct netem_link *l;
	struct netem_counters c;
	struct netem_verdict v;
	struct netem_pkt p;
	uint64_t bytes = 0;
	int64_t i;

	spec_must("delay 100ms 10ms 25% distribution normal loss gemodel 1% "
		  "10% 70% 0.1% duplicate 1% corrupt 0.1% reorder 25% 50% gap "
		  "5 rate 10mbit 20 limit 1000 slot 800us 1ms",
		  &s);
	cr_assert_eq(netem_link_new(&s, 77, 1, &l), 0);
	for (i = 0; i < 100000; i++) {
		int64_t now = i * 100000;

		cr_assert_eq(netem_link_enqueue(l, now,
						200 + (uint32_t)(i % 1200),
						(uint64_t)i, &v),
			     0);
		while (netem_link_dequeue(l, now, &p) == 1)
			bytes += p.len;
	}
	netem_link_counters(l, &c);
	cr_assert_eq(c.in, 100000);
	cr_assert_eq(c.in + c.duplicated, c.delivered + c.drop_loss +
						  c.drop_limit +
						  netem_link_queued(l));
	cr_assert_eq(c.bytes_delivered, bytes);
	cr_assert_gt(c.drop_limit, 0); /* 10mbit cannot carry ~70 Mbit/s */
	cr_assert_gt(c.reordered, 0);
	cr_assert_gt(c.corrupted, 0);
	netem_link_free(l);
}

/* A new spec leaves queued packets with their delivery times. */
Test(queue, set_spec_keeps_queue)
{
	struct netem_link *l = mk("delay 50ms", 11);
	struct netem_spec s;
	struct netem_pkt p;

	offer(l, 0, 100, 1);
	spec_must("delay 1ms", &s);
	cr_assert_eq(netem_link_set_spec(l, &s, 1000), 0);
	cr_assert_eq(offer(l, 1000, 100, 2), 1001000);
	cr_assert_eq(netem_link_dequeue(l, 1001000, &p), 1);
	cr_assert_eq(p.cookie, 2);
	cr_assert_eq(netem_link_next_time(l), 50000000);
	netem_link_free(l);
}

Test(queue, custom_table_registry)
{
	static const int16_t vals[] = {-8192, 8192};
	const struct netem_dist_table t = {"twopoint", vals, 2};
	const struct netem_dist_registry reg = {&t, 1};
	struct netem_spec s;
	struct netem_link *l;
	int i;

	spec_must("delay 10ms 1ms distribution twopoint", &s);
	cr_assert_eq(netem_link_new(&s, 1, 1, &l), -ENOENT);
	cr_assert_eq(netem_link_new_reg(&s, 1, 1, &reg, &l), 0);
	for (i = 0; i < 200; i++) {
		int64_t d = offer(l, (int64_t)i * 100000000, 100, i) -
			    (int64_t)i * 100000000;

		cr_assert(d == 9000000 || d == 11000000, "%lld", (long long)d);
	}
	netem_link_free(l);
}

/* Heap, ring and growth together: 50000 packets offered at once with
 * wide jitter come out sorted by delivery time, ties in offer order, and
 * match the times the verdicts announced. */
Test(queue, delivery_order_is_sorted)
{
	struct netem_link *l = mk("delay 1s 500ms limit 100000", 12);
	static int64_t announced[50000];
	struct netem_verdict v;
	struct netem_pkt p;
	int64_t t, last_t = -1;
	uint64_t last_c = 0;
	int i, n = 0;

	for (i = 0; i < 50000; i++) {
		/* every 8th packet offered later, so some go to the ring */
		int64_t now = (i % 8 == 0) ? 1000000 : 0;

		cr_assert_eq(netem_link_enqueue(l, now, 100, i, &v), 0);
		announced[i] = v.time_ns[0];
	}
	cr_assert_eq(netem_link_queued(l), 50000);
	while ((t = netem_link_next_time(l)) != INT64_MAX) {
		cr_assert_eq(netem_link_dequeue(l, t, &p), 1);
		cr_assert_eq(p.time_ns, announced[p.cookie]);
		cr_assert(p.time_ns > last_t ||
				  (p.time_ns == last_t && p.cookie > last_c),
			  "out of order at %d", n);
		last_t = p.time_ns;
		last_c = p.cookie;
		n++;
	}
	cr_assert_eq(n, 50000);
	netem_link_free(l);
}

/* netem_change() zeroes the reorder counter (q->counter = 0): with
 * "reorder 100% gap 5", three delayed packets, then a new spec, the next
 * four are delayed and the fifth jumps (without the reset the second
 * would). A schedule's changes keep the counter. */
Test(queue, set_spec_resets_reorder_counter)
{
	struct netem_link *l = mk("delay 10ms reorder 100% gap 5", 12);
	struct netem_sched *sc;
	struct netem_verdict v;
	struct netem_spec s;
	char err[128];
	int i;

	for (i = 0; i < 3; i++) {
		cr_assert_eq(netem_link_enqueue(l, i, 100, i, &v), 0);
		cr_assert_eq(v.reordered, 0);
	}
	spec_must("delay 10ms reorder 100% gap 5", &s);
	cr_assert_eq(netem_link_set_spec(l, &s, 3), 0);
	for (i = 0; i < 5; i++) {
		cr_assert_eq(netem_link_enqueue(l, 3 + i, 100, i, &v), 0);
		cr_assert_eq(v.reordered, i == 4, "packet %d after change", i);
	}
	/* counter now 0: three delayed, a scheduled step, then the counter
	 * goes on from 3 */
	for (i = 0; i < 3; i++) {
		cr_assert_eq(netem_link_enqueue(l, 10 + i, 100, i, &v), 0);
		cr_assert_eq(v.reordered, 0);
	}
	cr_assert_eq(
		netem_sched_parse("at 13ns limit 900", &sc, err, sizeof(err)),
		0);
	cr_assert_eq(netem_link_set_schedule(l, sc, 0), 0);
	netem_sched_free(sc);
	cr_assert_eq(netem_link_enqueue(l, 13, 100, 0, &v), 0);
	cr_assert_eq(netem_link_spec(l)->limit, 900);
	cr_assert_eq(v.reordered, 0);
	cr_assert_eq(netem_link_enqueue(l, 14, 100, 0, &v), 0);
	cr_assert_eq(v.reordered, 1);
	netem_link_free(l);
}

/* netem_change() with TCA_NETEM_LOSS restarts the chain in Good; a
 * schedule does not. "loss gemodel 100% 0% 100% 0%": Good -> Bad at the
 * first packet (kept: Good loses with 1-k = 0), then Bad forever (lost). */
Test(queue, set_spec_resets_loss_state)
{
	struct netem_link *l = mk("loss gemodel 100% 0% 100% 0%", 13);
	struct netem_sched *sc;
	struct netem_verdict v;
	struct netem_spec s;
	char err[128];

	cr_assert_eq(netem_link_enqueue(l, 0, 100, 0, &v), 0);
	cr_assert_eq(v.drop, NETEM_PASS);
	cr_assert_eq(netem_link_enqueue(l, 1, 100, 1, &v), 0);
	cr_assert_eq(v.drop, NETEM_DROP_LOSS);
	spec_must("loss gemodel 100% 0% 100% 0%", &s);
	cr_assert_eq(netem_link_set_spec(l, &s, 2), 0);
	cr_assert_eq(netem_link_enqueue(l, 2, 100, 2, &v), 0);
	cr_assert_eq(v.drop, NETEM_PASS);
	cr_assert_eq(netem_link_enqueue(l, 3, 100, 3, &v), 0);
	cr_assert_eq(v.drop, NETEM_DROP_LOSS);
	cr_assert_eq(netem_sched_parse("at 4ns gemodel-1-k 0%", &sc, err,
				       sizeof(err)),
		     0);
	cr_assert_eq(netem_link_set_schedule(l, sc, 0), 0);
	netem_sched_free(sc);
	cr_assert_eq(netem_link_enqueue(l, 4, 100, 4, &v), 0);
	cr_assert_eq(v.drop, NETEM_DROP_LOSS); /* still Bad */
	netem_link_free(l);
}

/* get_slot() on a change refills the slot budgets and opens a slot at
 * now: two packets already due leave at once with "packets 2", the third
 * waits for the next slot 10 ms later. */
Test(queue, set_spec_refills_slot)
{
	struct netem_link *l = mk("delay 1ms slot 10ms 10ms packets 2", 14);
	struct netem_spec s;
	struct netem_pkt p;
	int i;

	for (i = 0; i < 3; i++)
		offer(l, 0, 100, i);
	spec_must("delay 1ms slot 10ms 10ms packets 2", &s);
	cr_assert_eq(netem_link_set_spec(l, &s, 5000000), 0);
	cr_assert_eq(netem_link_dequeue(l, 5000000, &p), 1);
	cr_assert_eq(netem_link_dequeue(l, 5000000, &p), 1);
	cr_assert_eq(netem_link_dequeue(l, 5000000, &p), 0);
	cr_assert_eq(netem_link_next_time(l), 15000000);
	netem_link_free(l);
}

/* A slot with no delay at all is off, as get_slot() leaves slot_next 0:
 * "slot distribution normal 1ms 0ms" never holds a packet back. */
Test(queue, slot_without_delay_is_off)
{
	struct netem_link *l =
		mk("delay 1ms slot distribution normal 1ms 0ms packets 1", 15);
	struct netem_pkt p;
	int i;

	for (i = 0; i < 3; i++)
		offer(l, 0, 100, i);
	for (i = 0; i < 3; i++)
		cr_assert_eq(netem_link_dequeue(l, 1000000, &p), 1);
	netem_link_free(l);
}

/* ECN with duplicate: netem_enqueue() marks the original CE in the loss
 * step and clones it afterwards, so the duplicate is CE too; the clone
 * then takes its own loss draw. "loss state 100% 100%" alternates lost,
 * kept, lost, ... draw by draw. */
Test(queue, ecn_duplicate_inherits_ce)
{
	struct netem_link *l =
		mk("loss state 100% 100% duplicate 100% ecn", 16);
	struct netem_counters c;
	struct netem_verdict v;
	struct netem_pkt p;
	int i;

	/* A: original lost -> CE, duplicate kept but cloned from it */
	cr_assert_eq(netem_link_enqueue_ecn(l, 0, 100, 1, 1, &v), 0);
	cr_assert_eq(v.copies, 2);
	cr_assert_eq(v.ecn_marked, 1);
	for (i = 0; i < 2; i++) {
		cr_assert_eq(netem_link_dequeue(l, 0, &p), 1);
		cr_assert(p.flags & NETEM_PKT_CE, "copy %d of A", i);
	}
	/* B, not ECN-capable: the loss cancels the copy */
	cr_assert_eq(netem_link_enqueue(l, 0, 100, 2, &v), 0);
	cr_assert_eq(v.copies, 1);
	cr_assert_eq(netem_link_dequeue(l, 0, &p), 1);
	cr_assert_eq(p.flags & NETEM_PKT_CE, 0);
	/* C: original kept (no CE), duplicate lost -> marked on its own */
	cr_assert_eq(netem_link_enqueue_ecn(l, 0, 100, 3, 1, &v), 0);
	cr_assert_eq(v.copies, 2);
	for (i = 0; i < 2; i++) {
		cr_assert_eq(netem_link_dequeue(l, 0, &p), 1);
		cr_assert_eq(!!(p.flags & NETEM_PKT_CE),
			     !!(p.flags & NETEM_PKT_DUP), "copy %d of C", i);
	}
	netem_link_counters(l, &c);
	cr_assert_eq(c.ecn_marked, 2);
	cr_assert_eq(c.drop_loss, 1);
	netem_link_free(l);
}

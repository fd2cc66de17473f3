/*
 * test_golden_order.c: a regression lock on the link's decisions and
 * delivery order. For each of several specs (jitter-induced reordering with
 * several distributions and negative delays, reorder with gap, duplicates,
 * corruption, rate with cells, slots, the queue limit, ECN, jitter fifo and
 * a schedule) 100k packets of seeded random sizes and spacings (with bursts
 * at one instant, so equal times occur) go through a link, and every
 * verdict and every delivered packet (cookie, time, flags, corruption,
 * length) is folded into a 64-bit FNV-1a hash. The expected hashes were
 * recorded with the engine before the per-packet path was optimised
 * (binary heap of full entries, then the 4-ary key heap): any change to a
 * decision, a time or the order of delivery changes the hash. All 28 were
 * re-recorded once, when tabledist() moved from multiply-shift to the
 * kernel's rnd % range: every case draws through it (jitter, or the slot
 * distribution of case 9). With only that mapping reverted, the current
 * engine still gives all 28 old hashes, so nothing else moved them (the
 * reorder-counter, slot and ECN changes of the same commit included).
 * Two drivers: one dequeues at netem_link_next_time() as the simulator
 * does, the other only at arrival instants as the benchmark and a lazy
 * poller do (which exercises slot_check at other times).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "util.h"
#include "netem.h"
#include "stats.h"

#define NPKT 100000

struct hash {
	uint64_t h;
};

static void mix(struct hash *h, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++) {
		h->h ^= (v >> (8 * i)) & 0xff;
		h->h *= 0x100000001b3ULL;
	}
}

/* splitmix64 for the synthetic traffic (its own stream, independent of
 * the engine's) */
static uint64_t tr_next(uint64_t *s)
{
	return splitmix64(s);
}

static void mix_pkt(struct hash *h, const struct netem_pkt *p)
{
	mix(h, p->cookie);
	mix(h, (uint64_t)p->time_ns);
	mix(h, p->len);
	mix(h, (uint64_t)(int64_t)p->corrupt_byte);
	mix(h, ((uint64_t)p->corrupt_bit << 8) | p->flags);
}

static void mix_verdict(struct hash *h, const struct netem_verdict *v)
{
	mix(h, (uint64_t)v->drop);
	mix(h, (uint64_t)v->copies);
	if (v->copies > 0)
		mix(h, (uint64_t)v->time_ns[0]);
	if (v->copies > 1)
		mix(h, (uint64_t)v->time_ns[1]);
	mix(h,
	    (uint64_t)(v->corrupted | v->reordered << 1 | v->ecn_marked << 2));
}

/* mean gap in ns between arrivals; every 16th arrival starts a burst of
 * up to 4 packets at the same instant */
static uint64_t run(const char *text, const char *sched, int64_t mean_gap,
		    int lazy)
{
	struct netem_spec s;
	struct netem_link *l;
	struct netem_sched *sc = NULL;
	struct netem_verdict v;
	struct netem_counters c;
	struct netem_pkt p;
	struct hash h = {0xcbf29ce484222325ULL};
	uint64_t tr = 0x5eed, i = 0, burst = 0;
	int64_t now = 0;
	char err[256];

	spec_must(text, &s);
	cr_assert_eq(netem_link_new(&s, 42, 7, &l), 0);
	if (sched) {
		cr_assert_eq(netem_sched_parse(sched, &sc, err, sizeof(err)), 0,
			     "%s", err);
		cr_assert_eq(netem_link_set_schedule(l, sc, 0), 0);
		netem_sched_free(sc);
	}
	while (i < NPKT) {
		uint64_t r = tr_next(&tr);
		uint32_t len = 40 + (uint32_t)(r % 1461);
		int64_t t;

		if (burst == 0) {
			now += (int64_t)((r >> 16) % (uint64_t)(2 * mean_gap));
			if ((r >> 48) % 16 == 0)
				burst = 1 + (r >> 52) % 4;
		} else {
			burst--;
		}
		if (!lazy) {
			/* deliver everything due before this arrival */
			while ((t = netem_link_next_time(l)) <= now) {
				int rc = netem_link_dequeue(l, t, &p);

				cr_assert_geq(rc, 0);
				if (rc == 0)
					break;
				mix_pkt(&h, &p);
			}
		}
		if (s.ecn)
			cr_assert_eq(netem_link_enqueue_ecn(l, now, len, i,
							    (int)(r & 1), &v),
				     0);
		else
			cr_assert_eq(netem_link_enqueue(l, now, len, i, &v), 0);
		mix_verdict(&h, &v);
		if (lazy)
			while (netem_link_dequeue(l, now, &p) == 1)
				mix_pkt(&h, &p);
		i++;
	}
	/* drain */
	for (;;) {
		int64_t t = netem_link_next_time(l);

		if (t == INT64_MAX)
			break;
		if (t < now)
			t = now;
		now = t;
		if (netem_link_dequeue(l, t, &p) == 1)
			mix_pkt(&h, &p);
		else
			now++;
	}
	netem_link_counters(l, &c);
	cr_assert_eq(c.in, NPKT);
	cr_assert_eq(c.in + c.duplicated,
		     c.delivered + c.drop_loss + c.drop_limit);
	mix(&h, c.delivered);
	mix(&h, c.drop_loss);
	mix(&h, c.drop_limit);
	mix(&h, c.reordered);
	netem_link_free(l);
	return h.h;
}

struct golden {
	const char *spec;
	const char *sched;
	int64_t gap_ns;
	uint64_t want[2]; /* driver at next_time, lazy driver */
};

static const struct golden cases[] = {
	/* the benchmark spec, about 10k queued: normal jitter reorders */
	{"delay 100ms 10ms distribution normal loss gemodel 1% 10% 70% 0.1% "
	 "limit 100000",
	 NULL,
	 10000,
	 {0x64f63328dc76132bULL, 0x45a1d3e93e58bf13ULL}},
	/* uniform jitter as wide as the delay: heavy reordering */
	{"delay 10ms 10ms",
	 NULL,
	 20000,
	 {0xd6bf8c0f6bc66a86ULL, 0xa53166cd2f190df2ULL}},
	/* normal jitter above the delay: negative sampled delays */
	{"delay 2ms 4ms distribution normal",
	 NULL,
	 50000,
	 {0xccef090a46539852ULL, 0x6d203987a43773baULL}},
	/* correlated pareto and paretonormal jitter */
	{"delay 50ms 20ms 25% distribution pareto",
	 NULL,
	 100000,
	 {0x5757cbc61e073926ULL, 0x542b699c67bf887aULL}},
	{"delay 10ms 5ms distribution paretonormal loss state 1% 30% 10% 5% "
	 "0.5%",
	 NULL,
	 40000,
	 {0x6f4a1edbcfc772e6ULL, 0x43386e2b44200a56ULL}},
	/* reorder with gap, duplicates, corruption, correlated loss */
	{"delay 10ms 2ms reorder 25% 50% gap 5",
	 NULL,
	 100000,
	 {0xb8a0ee3233a0e7f5ULL, 0xabd256eded67c3f5ULL}},
	{"delay 5ms 1ms duplicate 10% corrupt 5% loss 2% 10%",
	 NULL,
	 50000,
	 {0x81592a403fd47ad0ULL, 0xff5f601f78e0b64cULL}},
	/* rate with overhead and cells */
	{"delay 1ms 500us rate 10mbit 20 48 5",
	 NULL,
	 800000,
	 {0x893deaf18ed53279ULL, 0xdc8a4880866023c3ULL}},
	/* slots, uniform and from a distribution */
	{"delay 20ms 10ms slot 800us 1ms packets 5 bytes 3000",
	 NULL,
	 250000,
	 {0x62b1146c3f0890d6ULL, 0x1f5f4fe17927a629ULL}},
	{"delay 5ms slot distribution normal 1ms 200us packets 3",
	 NULL,
	 400000,
	 {0x7fe76feda2f09a42ULL, 0xf26f192a6fc751b7ULL}},
	/* the queue limit under jitter */
	{"delay 100ms 30ms limit 500",
	 NULL,
	 100000,
	 {0x0ceedc0307121df0ULL, 0xc038173ab71a835bULL}},
	/* ECN marks, jitter fifo */
	{"delay 10ms 8ms jitter fifo loss 5% ecn",
	 NULL,
	 30000,
	 {0xc842082724dff52bULL, 0x7a0bad889038387fULL}},
	/* the full example spec */
	{"delay 100ms 10ms 25% distribution normal loss gemodel 1% 10% 70% "
	 "0.1% duplicate 1% corrupt 0.1% reorder 25% 50% gap 5 rate 10mbit "
	 "20 limit 1000 slot 800us 1ms",
	 NULL,
	 500000,
	 {0x4068e3a05b6cdccbULL, 0xa87a8eac1728b8f7ULL}},
	/* a schedule moving delay, jitter, rate and loss mid-run */
	{"delay 10ms 5ms",
	 "at 1s delay 40ms; ramp 2s 3s jitter 5ms 20ms; "
	 "at 4s rate 20mbit; at 5s loss 1%",
	 60000,
	 {0x182d9727b7016f4fULL, 0x7721edd4c1cf3cf9ULL}},
};

Test(golden_order, decisions_and_order_unchanged)
{
	size_t k;
	int d, bad = 0;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		for (d = 0; d < 2; d++) {
			uint64_t got = run(cases[k].spec, cases[k].sched,
					   cases[k].gap_ns, d);

			if (got != cases[k].want[d]) {
				bad++;
				cr_log_error(
					"case %zu driver %d \"%s\": hash "
					"0x%016llx want 0x%016llx",
					k, d, cases[k].spec,
					(unsigned long long)got,
					(unsigned long long)cases[k].want[d]);
			}
		}
	}
	cr_assert_eq(bad, 0, "%d hashes changed", bad);
}

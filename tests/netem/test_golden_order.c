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
 * decision, a time or the order of delivery changes the hash. Two drivers:
 * one dequeues at netem_link_next_time() as the simulator does, the other
 * only at arrival instants as the benchmark and a lazy poller do (which
 * exercises slot_check at other times).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

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

/* splitmix64 for the synthetic traffic (independent of the engine's) */
static uint64_t tr_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
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
	 {0x2cd97ef030aab49bULL, 0x0b31ae14a0f52067ULL}},
	/* uniform jitter as wide as the delay: heavy reordering */
	{"delay 10ms 10ms",
	 NULL,
	 20000,
	 {0x4f4cdb64cf6c9e36ULL, 0x689d539ef642d312ULL}},
	/* normal jitter above the delay: negative sampled delays */
	{"delay 2ms 4ms distribution normal",
	 NULL,
	 50000,
	 {0x9c877549dad4fcfeULL, 0x10c14140368c6106ULL}},
	/* correlated pareto and paretonormal jitter */
	{"delay 50ms 20ms 25% distribution pareto",
	 NULL,
	 100000,
	 {0x45011820cb211a06ULL, 0xb308917dc1a96d66ULL}},
	{"delay 10ms 5ms distribution paretonormal loss state 1% 30% 10% 5% "
	 "0.5%",
	 NULL,
	 40000,
	 {0xdb020f873fcbb082ULL, 0xe7f10417314ad8c6ULL}},
	/* reorder with gap, duplicates, corruption, correlated loss */
	{"delay 10ms 2ms reorder 25% 50% gap 5",
	 NULL,
	 100000,
	 {0xb271e89340b60e05ULL, 0x31c4716788e539f5ULL}},
	{"delay 5ms 1ms duplicate 10% corrupt 5% loss 2% 10%",
	 NULL,
	 50000,
	 {0x73fb5f1819eae84cULL, 0xed8117d702de1c34ULL}},
	/* rate with overhead and cells */
	{"delay 1ms 500us rate 10mbit 20 48 5",
	 NULL,
	 800000,
	 {0xb46308e4ef3177a0ULL, 0x5109cdc0bd5f8880ULL}},
	/* slots, uniform and from a distribution */
	{"delay 20ms 10ms slot 800us 1ms packets 5 bytes 3000",
	 NULL,
	 250000,
	 {0x1a2f2c770364dc0aULL, 0x522a23ea02318ed8ULL}},
	{"delay 5ms slot distribution normal 1ms 200us packets 3",
	 NULL,
	 400000,
	 {0x028cb80a2d510b02ULL, 0x5bd52a7ca5d6d422ULL}},
	/* the queue limit under jitter */
	{"delay 100ms 30ms limit 500",
	 NULL,
	 100000,
	 {0x96407df566abc26fULL, 0xc2dc8f22bb5aefb6ULL}},
	/* ECN marks, jitter fifo */
	{"delay 10ms 8ms jitter fifo loss 5% ecn",
	 NULL,
	 30000,
	 {0x4160705ea3db35f7ULL, 0xd9ed2514676eacc3ULL}},
	/* the full example spec */
	{"delay 100ms 10ms 25% distribution normal loss gemodel 1% 10% 70% "
	 "0.1% duplicate 1% corrupt 0.1% reorder 25% 50% gap 5 rate 10mbit "
	 "20 limit 1000 slot 800us 1ms",
	 NULL,
	 500000,
	 {0x6f5281b86c059c0dULL, 0xbf39525d7e670664ULL}},
	/* a schedule moving delay, jitter, rate and loss mid-run */
	{"delay 10ms 5ms",
	 "at 1s delay 40ms; ramp 2s 3s jitter 5ms 20ms; "
	 "at 4s rate 20mbit; at 5s loss 1%",
	 60000,
	 {0xb011ff8dc4aa1fcbULL, 0xd824eb77d644b228ULL}},
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

/*
 * test_net.c: the simulator's links and datagrams in flight
 * (daemon/netsim/sim_net.c). Payloads a sender marks as the same
 * (role_dgram.same) are kept once while in flight, and every copy that
 * arrives carries the octets that were offered: across destinations,
 * through loss and duplication, after the shared copy is released and
 * its mark offered again with other octets, and for a mark offered
 * with another length or port; and when two threads offer at once, each
 * from its own part (sim_net_offer's part), for senders of their own.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "netsim_int.h"
#include "sim_fixture.h"

TestSuite(sim_net, .fini = fx_cleanup);

/* Three hosts (indexes 0, 1, 2) behind the link spec. */
static struct scenario *three_hosts(const char *dir, const char *link)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "[scenario]\nname = nettest\nduration = 5s\nseed = 4\n"
		 "[host a]\nrole = observer\nargs = --map dust --bots 2\n"
		 "[host b]\nrole = observer\nargs = --map dust --bots 2\n"
		 "[host c]\nrole = observer\nargs = --map dust --bots 2\n"
		 "[defaults]\nlink = %s\n",
		 link);
	return fx_load(dir, "net", text);
}

static void fill(uint8_t *p, size_t len, unsigned v)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(v * 31 + i);
}

/* Every copy due on src->dst by now, each of which must carry round's
 * octets. Returns how many there were. */
static unsigned drain(struct sim_net *n, unsigned src, unsigned dst,
		      int64_t now, unsigned round, size_t len)
{
	struct sim_dgram d;
	unsigned got = 0;
	uint8_t want[200];

	fill(want, len, round);
	while (sim_net_dequeue(n, src, dst, now, &d)) {
		cr_assert_eq(d.len, len);
		cr_assert(!memcmp(d.data, want, len),
			  "a copy on %u->%u is not round %u's", src, dst,
			  round);
		sim_net_release(n, &d);
		got++;
	}
	return got;
}

Test(sim_net, same_payload_is_kept_once)
{
	const char *tmp = fx_tmpdir();
	struct scenario *sc = three_hosts(tmp, "delay 10ms");
	struct sim_net *n;
	struct sim_dgram d1, d2, d3;
	uint8_t a[100], b[100];
	int64_t next;

	cr_assert_eq(sim_net_new(sc, 1, &n), 0);
	fill(a, sizeof(a), 1);
	fill(b, sizeof(b), 2);
	cr_assert_eq(sim_net_offer(n, 0, 0, 1, 9000, a, 100, 7, 0, &next), 0);
	cr_assert_eq(sim_net_offer(n, 0, 0, 2, 9000, a, 100, 7, 0, &next), 0);
	/* the same mark with another length is a payload of its own */
	cr_assert_eq(sim_net_offer(n, 0, 0, 2, 9000, b, 60, 7, 0, &next), 0);
	cr_assert_eq(next, 10000000);
	cr_assert(sim_net_dequeue(n, 0, 1, next, &d1));
	cr_assert(sim_net_dequeue(n, 0, 2, next, &d2));
	cr_assert(sim_net_dequeue(n, 0, 2, next, &d3));
	cr_assert_eq(d1.data, d2.data, "one copy for the two destinations");
	cr_assert(!memcmp(d2.data, a, 100));
	cr_assert_eq(d3.len, 60);
	cr_assert(!memcmp(d3.data, b, 60));
	sim_net_release(n, &d1);
	sim_net_release(n, &d2);
	sim_net_release(n, &d3);
	/* released: the mark offered again carries its new octets */
	cr_assert_eq(sim_net_offer(n, 0, 0, 1, 9000, b, 100, 7, next, &next),
		     0);
	cr_assert(sim_net_dequeue(n, 0, 1, next, &d1));
	cr_assert(!memcmp(d1.data, b, 100));
	sim_net_release(n, &d1);
	/* unmarked payloads are copied each time */
	cr_assert_eq(sim_net_offer(n, 0, 0, 1, 9000, a, 100, 0, next, &next),
		     0);
	cr_assert_eq(sim_net_offer(n, 0, 0, 2, 9000, a, 100, 0, next, &next),
		     0);
	cr_assert(sim_net_dequeue(n, 0, 1, next, &d1));
	cr_assert(sim_net_dequeue(n, 0, 2, next, &d2));
	cr_assert_neq(d1.data, d2.data);
	sim_net_release(n, &d1);
	sim_net_release(n, &d2);
	sim_net_free(n);
	scenario_free(sc);
}

/* A round a millisecond of one marked payload to two hosts through
 * loss and duplication, each round with octets of its own. A copy
 * arrives 20 ms after it was sent, while later rounds reuse freed
 * slots: it must carry its round's octets, so no lost or delivered copy
 * may free a slot another copy still uses. */
Test(sim_net, shared_copies_survive_loss_and_duplication)
{
	const char *tmp = fx_tmpdir();
	struct scenario *sc =
		three_hosts(tmp, "delay 20ms loss 30% duplicate 30%");
	struct sim_net *n;
	unsigned got = 0;
	uint64_t delivered = 0;
	int64_t next;
	uint8_t p[120];

	cr_assert_eq(sim_net_new(sc, 3, &n), 0);
	for (unsigned r = 0; r < 2020; r++) {
		int64_t now = (int64_t)r * 1000000;

		for (unsigned dst = 1; r >= 20 && dst <= 2; dst++)
			got += drain(n, 0, dst, now, r - 20, sizeof(p));
		fill(p, sizeof(p), r);
		for (unsigned dst = 1; r < 2000 && dst <= 2; dst++)
			cr_assert_eq(sim_net_offer(n, 0, 0, dst, 9000, p,
						   sizeof(p), r + 1, now,
						   &next),
				     0);
	}
	for (unsigned dst = 1; dst <= 2; dst++) {
		struct netem_counters c;

		sim_net_counters(n, 0, dst, &c);
		cr_assert(c.drop_loss > 0 && c.duplicated > 0,
			  "the links lost %llu and duplicated %llu",
			  (unsigned long long)c.drop_loss,
			  (unsigned long long)c.duplicated);
		cr_assert_eq(c.in, 2000);
		delivered += c.delivered;
	}
	cr_assert_eq(got, delivered, "%u copies checked, %llu delivered", got,
		     (unsigned long long)delivered);
	sim_net_free(n);
	scenario_free(sc);
}

/* Sender k's rounds: round r's octets start with r and k, and the rest
 * follows from them, so any copy can be checked on its own. */
#define ROUNDS 10000

static void stamp(uint8_t *p, size_t len, unsigned k, unsigned r)
{
	memcpy(p, &r, sizeof(r));
	p[4] = (uint8_t)k;
	for (size_t i = 5; i < len; i++)
		p[i] = (uint8_t)(r * 7 + k * 13 + i);
}

struct sender {
	struct sim_net *n;
	unsigned k, part; /* host, and the part it offers from */
	int64_t t0;	  /* the first round's time */
	int err;
};

/* Host k offers ROUNDS marked payloads to the two other hosts, one a
 * millisecond, from its part. */
static void *send_rounds(void *arg)
{
	struct sender *sd = arg;
	uint8_t p[150];
	int64_t next;

	for (unsigned r = 0; r < ROUNDS && !sd->err; r++) {
		stamp(p, sizeof(p), sd->k, r);
		for (unsigned dst = 0; dst < 3 && !sd->err; dst++)
			if (dst != sd->k)
				sd->err = sim_net_offer(
					sd->n, sd->part, sd->k, dst, 9000, p,
					sizeof(p), r + 1,
					sd->t0 + (int64_t)r * 1000000, &next);
	}
	return NULL;
}

/* Copies taken off a link, to release later. */
struct kept {
	struct sim_dgram d[3 * ROUNDS];
	unsigned n;
};

/* Every copy due on src->dst: its own octets, rounds in order (a fixed
 * delay keeps the link's order), released at once or, with keep, kept
 * for later. Returns how many. */
static unsigned take_rounds(struct sim_net *n, unsigned src, unsigned dst,
			    struct kept *keep)
{
	struct sim_dgram d;
	uint8_t want[150];
	unsigned got = 0, r, last = 0;

	while (sim_net_dequeue(n, src, dst, INT64_MAX / 2, &d)) {
		cr_assert_eq(d.len, sizeof(want));
		memcpy(&r, d.data, sizeof(r));
		cr_assert(r < ROUNDS && r >= last,
			  "round %u after %u on %u->%u", r, last, src, dst);
		stamp(want, sizeof(want), src, r);
		cr_assert(!memcmp(d.data, want, sizeof(want)),
			  "round %u on %u->%u is not its sender's", r, src,
			  dst);
		last = r;
		if (keep)
			keep->d[keep->n++] = d;
		else
			sim_net_release(n, &d);
		got++;
	}
	return got;
}

/* Hosts 0 and 1 offer at once from two threads, each from its own part,
 * through loss and duplication; every copy then arrives intact. The
 * parts are then swapped (each sender's last shared slot is the other
 * part's), and every copy again arrives intact. */
Test(sim_net, two_parts_offer_at_once)
{
	const char *tmp = fx_tmpdir();
	struct scenario *sc = three_hosts(
		tmp, "delay 20ms loss 20% duplicate 20% limit 30000");
	struct sim_net *n;
	uint64_t delivered = 0, got = 0;

	cr_assert_eq(sim_net_new(sc, 5, &n), 0);
	for (int swap = 0; swap < 2; swap++) {
		int64_t t0 = swap * (ROUNDS + 100) * INT64_C(1000000);
		struct sender sd[2] = {{n, 0, (unsigned)swap, t0, 0},
				       {n, 1, (unsigned)!swap, t0, 0}};
		pthread_t t[2];

		for (int i = 0; i < 2; i++)
			cr_assert_eq(pthread_create(&t[i], NULL, send_rounds,
						    &sd[i]),
				     0);
		for (int i = 0; i < 2; i++) {
			pthread_join(t[i], NULL);
			cr_assert_eq(sd[i].err, 0);
		}
		for (unsigned src = 0; src < 2; src++)
			for (unsigned dst = 0; dst < 3; dst++)
				if (dst != src)
					got += take_rounds(n, src, dst, NULL);
	}
	for (unsigned src = 0; src < 2; src++)
		for (unsigned dst = 0; dst < 3; dst++) {
			struct netem_counters c;

			if (dst == src)
				continue;
			sim_net_counters(n, src, dst, &c);
			cr_assert_eq(c.in, 2 * ROUNDS);
			cr_assert(c.drop_loss > 0 && c.duplicated > 0);
			delivered += c.delivered;
		}
	cr_assert_eq(got, delivered, "%llu copies checked, %llu delivered",
		     (unsigned long long)got, (unsigned long long)delivered);
	sim_net_free(n);
	scenario_free(sc);
}

struct taker {
	struct sim_net *n;
	struct kept *keep;
	unsigned got;
};

/* Host 1's copies to hosts 0 and 2 taken off, kept. */
static void *take_host1(void *arg)
{
	struct taker *tk = arg;

	tk->got = take_rounds(tk->n, 1, 0, tk->keep) +
		  take_rounds(tk->n, 1, 2, tk->keep);
	return NULL;
}

/* One thread takes host 1's copies off its links while the other offers
 * host 0's from the part whose slots hold host 1's, adding slots as it
 * goes: every copy taken is intact, and so is every copy of host 0's
 * taken afterwards. */
Test(sim_net, take_while_the_other_thread_offers)
{
	const char *tmp = fx_tmpdir();
	struct scenario *sc = three_hosts(tmp, "delay 20ms limit 30000");
	struct sender sd = {NULL, 0, 0, 0, 0};
	struct sender pre = {NULL, 1, 0, 0, 0};
	struct kept *keep = calloc(1, sizeof(*keep));
	struct taker tk = {NULL, keep, 0};
	struct sim_net *n;
	pthread_t t[2];

	cr_assert_not_null(keep);
	cr_assert_eq(sim_net_new(sc, 6, &n), 0);
	sd.n = pre.n = tk.n = n;
	sd.t0 = (ROUNDS + 100) * INT64_C(1000000);
	send_rounds(&pre); /* host 1's, in part 0's first slots */
	cr_assert_eq(pre.err, 0);
	cr_assert_eq(pthread_create(&t[0], NULL, send_rounds, &sd), 0);
	cr_assert_eq(pthread_create(&t[1], NULL, take_host1, &tk), 0);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	cr_assert_eq(sd.err, 0);
	cr_assert_eq(tk.got, 2 * ROUNDS);
	for (unsigned i = 0; i < keep->n; i++)
		sim_net_release(n, &keep->d[i]);
	cr_assert_eq(take_rounds(n, 0, 1, NULL) + take_rounds(n, 0, 2, NULL),
		     2 * ROUNDS);
	sim_net_free(n);
	scenario_free(sc);
	free(keep);
}

/* Rounds deferred as a batch defers a heavy host's sends: BATCH rounds
 * of host 0's marked payload to hosts 1 and 2 reserved on one thread,
 * their links fed by two threads at once (one link each), then settled
 * in order. */
#define BATCH 8

struct feeder {
	struct sim_net *n;
	unsigned dst, k; /* the link 0 -> dst, and its k datagrams */
	uint32_t cookie[BATCH];
	int64_t now[BATCH], next;
	int copies[BATCH], err;
};

static void *feed_rounds(void *arg)
{
	struct feeder *f = arg;

	for (unsigned i = 0; i < f->k && !f->err; i++)
		f->err = sim_net_enqueue(f->n, 0, f->dst, f->cookie[i], 150,
					 f->now[i], &f->copies[i], &f->next);
	return NULL;
}

/* Every copy of host 0's due at now on its two links: each its round's
 * octets, from a round sent 20 ms before now or earlier, rounds in
 * order on a link (last: the latest round seen on each). Returns how
 * many. */
static unsigned take_due(struct sim_net *n, int64_t now, unsigned last[3])
{
	struct sim_dgram d;
	uint8_t want[150];
	unsigned got = 0, r;

	for (unsigned dst = 1; dst <= 2; dst++)
		while (sim_net_dequeue(n, 0, dst, now, &d)) {
			memcpy(&r, d.data, sizeof(r));
			stamp(want, sizeof(want), 0, r);
			cr_assert(r < ROUNDS && r >= last[dst] &&
					  (int64_t)r * 1000000 + 20000000 <=
						  now &&
					  !memcmp(d.data, want, sizeof(want)),
				  "a copy on 0->%u at %lld ns is not its "
				  "round's",
				  dst, (long long)now);
			last[dst] = r;
			sim_net_release(n, &d);
			got++;
		}
	return got;
}

/* Deferred offers (reserve, enqueue, settle) through loss and
 * duplication: every copy arrives intact, slots reused while others are
 * still reserved, and each link counts, copy for copy, what the same
 * link fed by sim_net_offer counts (a link's draws follow its own
 * offers only). */
Test(sim_net, deferred_offers_are_offers)
{
	const char *tmp = fx_tmpdir();
	struct scenario *sc =
		three_hosts(tmp, "delay 20ms loss 20% duplicate 20%");
	struct sim_net *n, *twin;
	unsigned got = 0, twin_got = 0, last[3] = {0}, twin_last[3] = {0};
	uint8_t p[150];
	int64_t next;

	cr_assert_eq(sim_net_new(sc, 7, &n), 0);
	cr_assert_eq(sim_net_new(sc, 7, &twin), 0);
	for (unsigned r0 = 0; r0 < ROUNDS; r0 += BATCH) {
		struct feeder f[2] = {{n, 1, 0, {0}, {0}, 0, {0}, 0},
				      {n, 2, 0, {0}, {0}, 0, {0}, 0}};
		pthread_t t[2];

		got += take_due(n, (int64_t)r0 * 1000000, last);
		twin_got += take_due(twin, (int64_t)r0 * 1000000, twin_last);
		for (unsigned r = r0; r < r0 + BATCH; r++) {
			int64_t now = (int64_t)r * 1000000;

			stamp(p, sizeof(p), 0, r);
			for (int i = 0; i < 2; i++) {
				cr_assert_eq(
					sim_net_reserve(n, 0, 0, 9000, p,
							sizeof(p), r + 1,
							&f[i].cookie[f[i].k]),
					0);
				f[i].now[f[i].k++] = now;
				cr_assert_eq(sim_net_offer(twin, 0, 0, f[i].dst,
							   9000, p, sizeof(p),
							   r + 1, now, &next),
					     0);
			}
		}
		for (int i = 0; i < 2; i++)
			cr_assert_eq(
				pthread_create(&t[i], NULL, feed_rounds, &f[i]),
				0);
		for (int i = 0; i < 2; i++) {
			pthread_join(t[i], NULL);
			cr_assert_eq(f[i].err, 0);
		}
		for (unsigned j = 0; j < BATCH; j++)
			for (int i = 0; i < 2; i++)
				sim_net_settle(n, f[i].cookie[j],
					       f[i].copies[j]);
	}
	got += take_due(n, INT64_MAX / 2, last);
	twin_got += take_due(twin, INT64_MAX / 2, twin_last);
	for (unsigned dst = 1; dst <= 2; dst++) {
		struct netem_counters c, w;

		sim_net_counters(n, 0, dst, &c);
		sim_net_counters(twin, 0, dst, &w);
		cr_assert(c.drop_loss > 0 && c.duplicated > 0);
		cr_assert(!memcmp(&c, &w, sizeof(c)),
			  "0->%u deferred: %llu in, %llu delivered; offered: "
			  "%llu in, %llu delivered",
			  dst, (unsigned long long)c.in,
			  (unsigned long long)c.delivered,
			  (unsigned long long)w.in,
			  (unsigned long long)w.delivered);
	}
	cr_assert_eq(got, twin_got);
	sim_net_free(twin);
	sim_net_free(n);
	scenario_free(sc);
}

/*
 * test_bundle.c: the fps roles' snapshot bundles (role/fps.h). The
 * framing cuts back-to-back PDUs at their header length fields and
 * refuses a datagram whose last PDU is truncated or whose length field
 * lies; the server packs every joined player's Entity State PDU into
 * datagrams of at most FPS_DGRAM_MAX octets, the same ones to every
 * client, marked as such for the host (role_dgram.same); a client
 * refuses a malformed bundle whole (one rx_bad, no snapshot taken) and
 * a shared decode cache changes nothing a client does, a bundle its
 * sender marked being known there by its sender and mark. Below the tick
 * rate, snapshots go out on evenly spread ticks.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#define NS_REQUIRE(c) cr_assert(c, "%s", #c)
#include "netsim.h"
#include "proto/warfare.h"
#include "proto/wire.h"
#include "role/fps.h"

/* n Entity State PDUs of players 0..n-1, back to back; returns the
 * length, lens[i] gets each PDU's. */
static size_t bundle(uint8_t *buf, size_t cap, int n, uint32_t tick,
		     size_t *lens)
{
	size_t at = 0;

	for (int i = 0; i < n; i++) {
		struct fps_state st = {{100.0 * i, 50, 90, 0}, 0, 0, 1, 1 + i % 2};
		struct reckon_espdu e;
		size_t len;

		cr_assert_eq(fps_state_to_espdu(i, &st, 1000, tick, &e), 0);
		cr_assert_eq(reckon_espdu_encode(&e, buf + at, cap - at, &len),
			     0);
		lens[i] = len;
		at += len;
	}
	return at;
}

Test(bundle, split_cuts_at_the_length_fields)
{
	uint8_t buf[FPS_DGRAM_MAX];
	size_t lens[8], len = bundle(buf, sizeof(buf), 8, 7, lens), off = 0;
	struct fps_span sp[FPS_BUNDLE_PDUS];
	int n = -1;

	cr_assert_leq(len, FPS_DGRAM_MAX);
	cr_assert_eq(fps_bundle_split(buf, len, sp, FPS_BUNDLE_PDUS, &n), 0);
	cr_assert_eq(n, 8);
	for (int i = 0; i < n; i++) {
		cr_assert_eq(sp[i].off, off);
		cr_assert_eq(sp[i].len, lens[i]);
		cr_assert_eq(reckon_espdu_decode(buf + sp[i].off, sp[i].len,
						 NULL),
			     RECKON_ESPDU_OK);
		off += lens[i];
	}
	/* one PDU alone is a bundle of one */
	cr_assert_eq(fps_bundle_split(buf, lens[0], sp, FPS_BUNDLE_PDUS, &n),
		     0);
	cr_assert_eq(n, 1);
}

Test(bundle, split_refuses_malformed_framing)
{
	uint8_t buf[FPS_DGRAM_MAX], bad[FPS_DGRAM_MAX];
	size_t lens[3], len = bundle(buf, sizeof(buf), 3, 7, lens);
	struct fps_span sp[FPS_BUNDLE_PDUS];
	size_t second = lens[0] + 8; /* the second PDU's length field */
	const uint16_t lies[] = {0, 1, FPS_PDU_HEADER - 1,
				 (uint16_t)(lens[1] + lens[2] + 1), 0xffff};
	int n = -1;

	cr_assert_eq(fps_bundle_split(buf, 0, sp, FPS_BUNDLE_PDUS, &n),
		     -EPROTO, "empty");
	cr_assert_eq(fps_bundle_split(buf, len - 10, sp, FPS_BUNDLE_PDUS, &n),
		     -EPROTO, "the last PDU truncated");
	cr_assert_eq(fps_bundle_split(buf, lens[0] + 5, sp, FPS_BUNDLE_PDUS,
				      &n),
		     -EPROTO, "a second PDU shorter than a header");
	for (size_t k = 0; k < sizeof(lies) / sizeof(lies[0]); k++) {
		memcpy(bad, buf, len);
		wire_put16(bad + second, lies[k]);
		cr_assert_eq(fps_bundle_split(bad, len, sp, FPS_BUNDLE_PDUS,
					      &n),
			     -EPROTO, "length field %u", lies[k]);
	}
	cr_assert_eq(fps_bundle_split(buf, len, sp, 2, &n), -EPROTO,
		     "more PDUs than the receiver takes");
	cr_assert_eq(n, -1, "n untouched on failure");
}

struct capture {
	int n;
	struct {
		int dest;
		size_t len;
		uint64_t same;
		uint8_t buf[FPS_DGRAM_MAX];
	} d[4096];
};

static int capture_emit(void *arg, const struct role_dgram *d)
{
	struct capture *c = arg;

	cr_assert_lt(c->n, 4096);
	cr_assert_leq(d->len, FPS_DGRAM_MAX);
	c->d[c->n].dest = d->dest;
	c->d[c->n].len = d->len;
	c->d[c->n].same = d->same;
	memcpy(c->d[c->n].buf, d->buf, d->len);
	c->n++;
	return 0;
}

/* A server on dust (snapshot_hz, duration_s) that has heard from
 * players 0..n-1; lens gets the PDU lengths of bundle(). */
static struct fps_server *joined_server(struct map *m, int n, int snapshot_hz,
					double duration_s, struct capture *cap,
					size_t *lens)
{
	struct fps_server_cfg c;
	struct fps_server *srv;
	char why[128];

	ns_load_map(m, "dust");
	memset(&c, 0, sizeof(c));
	c.m = m;
	lc_config_defaults(&c.lc);
	c.duration_s = duration_s;
	c.snapshot_hz = snapshot_hz;
	cr_assert_eq(fps_server_new(&c, &srv, why, sizeof(why)), 0, "%s", why);
	for (int p = 0; p < n; p++) {
		uint8_t one[LC_MAX_PLAYERS * RECKON_ESPDU_MAX_LEN];
		int from;
		size_t len = bundle(one, sizeof(one), p + 1, 0, lens);

		/* the last PDU of that run is player p's state update */
		cr_assert_eq(fps_server_recv(srv, 0, one + len - lens[p],
					     lens[p], &from, capture_emit,
					     cap),
			     0);
		cr_assert_eq(from, p);
	}
	return srv;
}

/* The marks of player 0's k bundles (the first k datagrams) differ from
 * each other, and from those of the server's next tick. */
static void marks_differ(struct fps_server *srv, struct capture *cap, int k)
{
	uint64_t first[LC_MAX_PLAYERS];

	for (int i = 0; i < k; i++) {
		first[i] = cap->d[i].same;
		for (int j = 0; j < i; j++)
			cr_assert_neq(first[i], first[j]);
	}
	cap->n = 0;
	cr_assert_eq(fps_server_advance(srv, fps_server_next(srv), capture_emit,
					cap),
		     0);
	cr_assert_gt(cap->n, 0);
	for (int i = 0; i < cap->n; i++)
		for (int j = 0; j < k; j++)
			cr_assert_neq(cap->d[i].same, first[j]);
}

/* A server that has heard from players 0..n-1 runs one tick: every
 * player gets the same bundles, holding each player's PDU once, each
 * marked the same for every player (role_dgram.same) and unlike the
 * other bundles' marks, this tick's and the next's. */
Test(bundle, server_sends_every_player_once_to_every_client)
{
	static struct capture cap;
	struct fps_server *srv;
	struct fps_server_stats st;
	struct map m;
	const int n = 40;
	size_t lens[LC_MAX_PLAYERS];
	int per;

	srv = joined_server(&m, n, 0, 1, &cap, lens);
	per = (int)(FPS_DGRAM_MAX / lens[0]);
	cap.n = 0;
	cr_assert_eq(fps_server_advance(srv, 0, capture_emit, &cap), 0);
	fps_server_stats(srv, &st);
	cr_assert_eq(st.snap_pdus, (uint64_t)n * n);
	for (int dest = 0; dest < n; dest++) {
		int seen[LC_MAX_PLAYERS] = {0}, k = 0;

		for (int i = 0; i < cap.n; i++) {
			struct fps_span sp[FPS_BUNDLE_PDUS];
			int np;

			if (cap.d[i].dest != dest)
				continue;
			/* the same octets as player 0's i-th datagram */
			cr_assert_eq(cap.d[i].len, cap.d[k].len);
			cr_assert_eq(cap.d[i].same, cap.d[k].same);
			cr_assert_neq(cap.d[i].same, 0);
			cr_assert_eq(memcmp(cap.d[i].buf, cap.d[k].buf,
					    cap.d[i].len),
				     0);
			k++;
			cr_assert_eq(fps_bundle_split(cap.d[i].buf,
						      cap.d[i].len, sp,
						      FPS_BUNDLE_PDUS, &np),
				     0);
			for (int j = 0; j < np; j++) {
				struct reckon_espdu e;
				struct fps_state s;
				int idx;

				cr_assert_eq(reckon_espdu_decode(
						     cap.d[i].buf + sp[j].off,
						     sp[j].len, &e),
					     RECKON_ESPDU_OK);
				cr_assert_eq(fps_espdu_to_state(&e, &idx, &s),
					     0);
				seen[idx]++;
			}
		}
		/* as many PDUs to a datagram as fit: ceil(n / per) */
		cr_assert_eq(k, (n + per - 1) / per);
		for (int p = 0; p < n; p++)
			cr_assert_eq(seen[p], 1, "player %d to %d", p, dest);
	}
	marks_differ(srv, &cap, (n + per - 1) / per);
	fps_server_free(srv);
	map_free(&m);
}

/* Ticks 0..ticks-1 of a server with players 0 and 1 joined, at
 * snapshot_hz: the ticks that carried a snapshot, as a bit mask. */
static uint64_t snapshot_ticks(int snapshot_hz, int ticks)
{
	static struct capture cap;
	struct fps_server *srv;
	struct map m;
	size_t lens[LC_MAX_PLAYERS];
	uint64_t mask = 0;

	srv = joined_server(&m, 2, snapshot_hz, 2, &cap, lens);
	for (int k = 0; k < ticks; k++) {
		cap.n = 0;
		cr_assert_eq(fps_server_advance(srv, fps_server_next(srv),
						capture_emit, &cap),
			     0);
		/* a snapshot is one bundle to each of the two players */
		cr_assert(cap.n == 0 || cap.n == 2, "tick %d: %d", k, cap.n);
		if (cap.n)
			mask |= 1ull << k;
	}
	fps_server_free(srv);
	map_free(&m);
	return mask;
}

/* --snapshot-hz: tick k carries a snapshot when k x rate / tick rate
 * steps, so 20 of 60 is every third tick from 0, 25 of 60 the ticks
 * 0, 3, 5, 8, 10, ... (as even as whole ticks allow), 0 and 60 are
 * every tick, and a rate above the tick rate is refused. */
Test(bundle, snapshot_rate_below_the_tick_rate)
{
	struct fps_server_cfg c;
	struct fps_server *srv = NULL;
	struct map m;
	char why[128] = "";
	uint64_t every3 = 0;

	for (int k = 0; k < 60; k += 3)
		every3 |= 1ull << k;
	cr_assert_eq(snapshot_ticks(20, 60), every3);
	cr_assert_eq(__builtin_popcountll(snapshot_ticks(25, 60)), 25);
	/* ticks 0, 3, 5, 8 and 10 of the first eleven */
	cr_assert_eq(snapshot_ticks(25, 60) & 0x7ff, 0x529);
	cr_assert_eq(snapshot_ticks(0, 60), (1ull << 60) - 1);
	cr_assert_eq(snapshot_ticks(60, 60), (1ull << 60) - 1);
	ns_load_map(&m, "dust");
	memset(&c, 0, sizeof(c));
	c.m = &m;
	lc_config_defaults(&c.lc);
	c.duration_s = 1;
	c.snapshot_hz = 61;
	cr_assert_eq(fps_server_new(&c, &srv, why, sizeof(why)), -EINVAL);
	cr_assert_null(srv);
	cr_assert_str_eq(why, "snapshot_hz must be 0..tick_hz");
	map_free(&m);
}

/* Feed one datagram, which sender marked same (0: unmarked), to both
 * clients; their stats must stay equal. */
static void feed_marked(struct fps_client **cl, const uint8_t *buf,
			size_t len, uint32_t sender, uint64_t same,
			struct fps_client_stats *st)
{
	struct fps_client_stats o;
	static struct capture sink;

	for (int i = 0; i < 2; i++) {
		sink.n = 0;
		cr_assert_eq(fps_client_recv_same(cl[i], 1000000, buf, len,
						  sender, same, capture_emit,
						  &sink),
			     0);
	}
	fps_client_stats(cl[0], st);
	fps_client_stats(cl[1], &o);
	cr_assert_eq(o.rx_snap, st->rx_snap);
	cr_assert_eq(o.rx_bad, st->rx_bad);
}

static void feed(struct fps_client **cl, const uint8_t *buf, size_t len,
		 struct fps_client_stats *st)
{
	feed_marked(cl, buf, len, 0, 0, st);
}

Test(bundle, client_drops_a_malformed_bundle_whole, .timeout = 60)
{
	static struct netsim ns;
	struct lc_config lc;
	int64_t delay[2] = {10, 10};
	struct fps_client *cl[2];
	struct fps_bundle_cache *cache;
	struct fps_client_stats st;
	struct fps_client_cfg cc;
	uint8_t buf[FPS_DGRAM_MAX], bad[FPS_DGRAM_MAX];
	size_t lens[8], len;

	lc_config_defaults(&lc);
	ns_init(&ns, "dust", 2, delay, &lc, 1, 5);
	/* the match itself: bundles of both players, none refused */
	ns_run(&ns, 1);
	for (int i = 0; i < 2; i++) {
		fps_client_stats(ns.cl[i], &st);
		cr_assert_gt(st.rx_snap, 2 * 50, "client %d", i);
		cr_assert_eq(st.rx_bad, 0, "client %d", i);
	}
	cr_assert_eq(fps_bundle_cache_new(&cache), 0);
	fps_client_defaults(&cc);
	cc.m = &ns.m;
	cc.track = &ns.tk[1];
	cc.entity = 1;
	cc.duration_s = 1;
	cr_assert_eq(fps_client_new(&cc, &cl[0]), 0);
	cc.cache = cache;
	cr_assert_eq(fps_client_new(&cc, &cl[1]), 0);
	len = bundle(buf, sizeof(buf), 8, 3, lens);

	feed(cl, buf, len, &st);
	cr_assert_eq(st.rx_snap, 8);
	cr_assert_eq(st.rx_bad, 0);
	feed(cl, buf, len, &st); /* the second from the cache */
	cr_assert_eq(st.rx_snap, 16);

	/* the last PDU truncated: framing fails */
	feed(cl, buf, len - 1, &st);
	cr_assert_eq(st.rx_snap, 16);
	cr_assert_eq(st.rx_bad, 1);
	/* the fourth PDU's length field lies by one octet */
	memcpy(bad, buf, len);
	wire_put16(bad + lens[0] * 3 + 8, (uint16_t)(lens[3] - 1));
	feed(cl, bad, len, &st);
	cr_assert_eq(st.rx_snap, 16);
	cr_assert_eq(st.rx_bad, 2);
	/* framing intact, the fifth PDU not a reckon fps entity: nothing
	 * of the bundle is taken, not even the four good PDUs before it */
	memcpy(bad, buf, len);
	wire_put16(bad + lens[0] * 4 + 12, 999); /* site */
	feed(cl, bad, len, &st);
	cr_assert_eq(st.rx_snap, 16);
	cr_assert_eq(st.rx_bad, 3);
	/* a Detonation PDU may not ride in a snapshot bundle */
	memcpy(bad, buf, len);
	bad[lens[0] * 2 + 2] = RECKON_DIS_PDU_DETONATION;
	feed(cl, bad, len, &st);
	cr_assert_eq(st.rx_bad, 4);

	/* a mark names the octets of its sender's datagrams only: a new
	 * bundle goes in marked 7 by host 3, and the malformed one of its
	 * length, marked 7 by host 4 or 8 by host 3, is still refused */
	cr_assert_eq(bundle(buf, sizeof(buf), 8, 4, lens), len);
	feed_marked(cl, buf, len, 3, 7, &st);
	cr_assert_eq(st.rx_snap, 24);
	feed_marked(cl, buf, len, 3, 7, &st);
	cr_assert_eq(st.rx_snap, 32);
	feed_marked(cl, bad, len, 4, 7, &st);
	feed_marked(cl, bad, len, 3, 8, &st);
	cr_assert_eq(st.rx_snap, 32);
	cr_assert_eq(st.rx_bad, 6);

	for (int i = 0; i < 2; i++)
		fps_client_free(cl[i]);
	fps_bundle_cache_free(cache);
	ns_free(&ns);
}

/*
 * test_watch.c: the observer's callbacks that the viewer's recording
 * uses (role_observer_watch in agents/role/observer.h). A player wired
 * in process to an observer with a fixed latency of 5 ticks (the
 * fixture of tests/agents): every update of a known entity reports one
 * arrival with its entity, sequence number, send and arrival times and
 * outcome; the arrivals' outcomes add up to the metrics' counts; a
 * duplicate reports the same sequence number as stale; malformed and
 * foreign datagrams report nothing; every error sample reports one
 * frame.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "role/observer.h"
#include "role/player.h"
#include "role_fixture.h"

#define MAX_ARR 20000

struct seen {
	struct role_arrival a[MAX_ARR];
	size_t n;
	size_t frames;
};

static void on_arrival(void *arg, const struct role_arrival *a)
{
	struct seen *s = arg;

	cr_assert_lt(s->n, MAX_ARR);
	s->a[s->n++] = *a;
}

static void on_frame(void *arg, const struct role_frame *f)
{
	struct seen *s = arg;

	(void)f;
	s->frames++;
}

static struct seen seen;

Test(watch, arrivals_match_metrics)
{
	struct trace t;
	struct role_truth truth;
	struct predict_params lanes[2];
	struct role_player *p;
	struct role_observer *o;
	struct fix_queue q;
	const int64_t lat = 5 * FIX_TICK, end = 10 * 64 * FIX_TICK;
	size_t next = 0, frames = 0;
	uint8_t junk[64];

	memset(&seen, 0, sizeof(seen));
	fix_trace(&t, 3, 10);
	cr_assert_eq(role_truth_build(&t, NULL, &truth), 0);
	fix_params(&lanes[0], "dis");
	fix_params(&lanes[1], "led");
	struct role_player_cfg pc = {
		.truth = &truth, .lanes = lanes, .n_lanes = 2, .n_dest = 1};
	struct role_observer_cfg oc = {
		.truth = &truth, .lanes = lanes, .n_lanes = 2, .threshold = 20};
	cr_assert_eq(role_player_new(&pc, &p), 0);
	cr_assert_eq(role_observer_new(&oc, &o), 0);
	role_observer_watch(o, on_frame, &seen, on_arrival, &seen);
	fix_queue_init(&q);

	/* every datagram arrives lat after its tick, in order */
	for (int64_t now = 0; now <= end; now += FIX_TICK) {
		cr_assert_eq(role_player_advance(p, now, fix_emit, &q), 0);
		for (; next < q.n; next++)
			cr_assert_geq(role_observer_recv(
					      o, q.d[next].lane, now + lat,
					      q.d[next].buf, q.d[next].len),
				      -ESTALE);
		cr_assert_eq(role_observer_frame(o, now + lat), 0);
	}
	/* nothing for datagrams that are not updates of a known entity */
	size_t before = seen.n;

	memset(junk, 0x41, sizeof(junk));
	cr_assert_eq(role_observer_recv(o, 0, end + lat, junk, sizeof(junk)),
		     -EBADMSG);
	cr_assert_eq(
		role_observer_recv(o, 1, end + lat, q.d[0].buf, q.d[0].len),
		-EPROTO); /* lane 0's PDU on lane 1 */
	cr_assert_eq(seen.n, before);
	/* a duplicate: the same update, reported again as stale */
	cr_assert_eq(role_observer_recv(o, q.d[q.n - 1].lane, end + lat,
					q.d[q.n - 1].buf, q.d[q.n - 1].len),
		     -ESTALE);
	cr_assert_eq(seen.n, before + 1);
	cr_assert_eq(seen.a[seen.n - 1].seq, seen.a[seen.n - 2].seq);
	cr_assert_eq(seen.a[seen.n - 1].result, -ESTALE);
	cr_assert_gt(before, 20, "the fixture's senders sent");

	for (size_t i = 0; i < role_observer_rows(o); i++) {
		struct role_metrics m;
		uint64_t n = 0, applied = 0, stale = 0, other = 0, seq = 0;

		cr_assert_eq(role_observer_metrics(o, i, &m), 0);
		frames += m.frames;
		for (size_t k = 0; k < seen.n; k++) {
			const struct role_arrival *a = &seen.a[k];

			if (a->lane != m.lane || a->entity != m.entity)
				continue;
			n++;
			applied += a->result == 0;
			stale += a->result == -ESTALE;
			other += a->result != 0 && a->result != -ESTALE;
			/* in order, no loss: 0, 1, 2, ... (the duplicate
			 * repeats the last) */
			if (a->result == 0)
				cr_assert_eq(a->seq, seq++);
			cr_assert_leq(a->send_ns, a->recv_ns - lat);
			cr_assert_eq((a->recv_ns - lat) % FIX_TICK, 0);
		}
		cr_assert_eq(n, m.received, "lane %u entity %u", m.lane,
			     m.entity);
		cr_assert_eq(applied, m.applied);
		cr_assert_eq(stale, m.stale);
		cr_assert_eq(other, m.unmatched + m.rejected);
	}
	cr_assert_eq(seen.frames, frames);
	fix_queue_free(&q);
	role_player_free(p);
	role_observer_free(o);
	role_truth_free(&truth);
	trace_free(&t);
}

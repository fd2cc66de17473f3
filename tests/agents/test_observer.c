/*
 * test_observer.c: the observer role machine (agents/role/observer.c)
 * wired in process to a player. At zero latency it reproduces the
 * offline replay: every update taken, and the mean error of each entity
 * equal to replay's within what float32 transport can change. Also:
 * blind frames before the first update, stale (reordered) updates,
 * loss, malformed and foreign datagrams counted by reason, and the
 * nearest-rank percentiles of the rows.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "predict/replay.h"
#include "role/observer.h"
#include "role/player.h"
#include "role/update_espdu.h"
#include "role_fixture.h"

static struct trace tr_;
static struct role_truth truth;
static struct predict_params lanes[2];

static void setup(void)
{
	fix_trace(&tr_, 3, 12);
	cr_assert_eq(role_truth_build(&tr_, NULL, &truth), 0);
	fix_params(&lanes[0], "dis");
	fix_params(&lanes[1], "led");
}

static void teardown(void)
{
	role_truth_free(&truth);
	trace_free(&tr_);
}

TestSuite(observer, .init = setup, .fini = teardown);

static struct role_player *mk_player(void)
{
	struct role_player_cfg c = {
		.truth = &truth,
		.lanes = lanes,
		.n_lanes = 2,
		.n_dest = 1,
	};
	struct role_player *p;

	cr_assert_eq(role_player_new(&c, &p), 0);
	return p;
}

static struct role_observer *mk_observer(void)
{
	struct role_observer_cfg c = {
		.truth = &truth,
		.lanes = lanes,
		.n_lanes = 2,
		.threshold = 20,
	};
	struct role_observer *o;

	cr_assert_eq(role_observer_new(&c, &o), 0);
	return o;
}

/*
 * Zero latency, as replay runs it: at each tick the player's datagrams
 * are delivered before the observer's frame of that tick.
 */
Test(observer, zero_latency_matches_replay)
{
	struct role_player *p = mk_player();
	struct role_observer *o = mk_observer();
	struct fix_queue q;

	fix_queue_init(&q);
	while (role_player_next(p) != INT64_MAX) {
		int64_t t = role_player_next(p);

		q.n = 0;
		cr_assert_eq(role_player_advance(p, t, fix_emit, &q), 0);
		for (size_t i = 0; i < q.n; i++)
			cr_assert_eq(role_observer_recv(o, q.d[i].lane, t,
							q.d[i].buf, q.d[i].len),
				     0);
		cr_assert_eq(role_observer_frame(o, t), 0);
	}
	cr_assert_eq(role_observer_next(o), INT64_MAX);
	for (int l = 0; l < 2; l++) {
		struct replay_result *res =
			calloc(truth.set.n_paths, sizeof(*res));
		double sum[3] = {0}, n[3] = {0};

		cr_assert_eq(replay_run_set(&truth.set, &truth.opts, &lanes[l],
					    res, NULL),
			     0);
		for (size_t i = 0; i < truth.set.n_paths; i++) {
			sum[truth.set.path[i].entity] +=
				res[i].err_mean * (double)res[i].ticks;
			n[truth.set.path[i].entity] += (double)res[i].ticks;
		}
		free(res);
		for (size_t i = 0; i < role_observer_rows(o); i++) {
			struct role_metrics m;

			cr_assert_eq(role_observer_metrics(o, i, &m), 0);
			if (m.lane != l)
				continue;
			cr_assert_eq(m.stale + m.rejected + m.unmatched, 0);
			cr_assert_eq(m.applied, m.received);
			cr_assert_eq(m.frames_blind, 0);
			cr_assert_eq(m.frames, (uint64_t)n[m.entity]);
			/*
			 * Only the float32 transport of velocity, orientation
			 * and acceleration differs from replay. Its relative
			 * rounding is 2^-24. The fixture's speeds are at most
			 * r w = 300 * 1.1 = 330 u/s and its accelerations
			 * r w^2 = 363 u/s^2, and no extrapolation outlasts the
			 * 12 s trace, so a position moves by less than
			 * (330 * 12 + 363 * 12^2 / 2) * 2^-24 = 0.0018 u.
			 */
			cr_assert_float_eq(
				m.err_mean, sum[m.entity] / n[m.entity], 0.01,
				"lane %d entity %u: %f vs %f", l, m.entity,
				m.err_mean, sum[m.entity] / n[m.entity]);
		}
	}
	fix_queue_free(&q);
	role_player_free(p);
	role_observer_free(o);
}

/* Run the player to time t and return its datagrams in q. */
static void play_to(struct role_player *p, int64_t t, struct fix_queue *q)
{
	cr_assert_eq(role_player_advance(p, t, fix_emit, q), 0);
}

static struct role_metrics row(const struct role_observer *o, uint16_t lane,
			       uint32_t entity)
{
	for (size_t i = 0; i < role_observer_rows(o); i++) {
		struct role_metrics m;

		cr_assert_eq(role_observer_metrics(o, i, &m), 0);
		if (m.lane == lane && m.entity == entity)
			return m;
	}
	cr_assert_fail("no row");
	return (struct role_metrics){0};
}

Test(observer, blind_until_first_update)
{
	struct role_observer *o = mk_observer();

	/* frames of ticks 0..9 with nothing received */
	cr_assert_eq(role_observer_frame(o, 9 * FIX_TICK), 0);
	cr_assert_eq(role_observer_next(o), 10 * FIX_TICK);
	struct role_metrics m = row(o, 0, 0);

	cr_assert_eq(m.frames_blind, 10);
	cr_assert_eq(m.frames, 0);
	cr_assert_eq(m.err_max, 0);
	role_observer_free(o);
}

Test(observer, stale_update_dropped)
{
	struct role_player *p = mk_player();
	struct role_observer *o = mk_observer();
	struct fix_queue q;
	ssize_t first = -1, later = -1;

	fix_queue_init(&q);
	play_to(p, 8 * 64 * FIX_TICK, &q);
	/* two updates of entity 0 on lane 0: deliver the later first */
	for (size_t i = 0; i < q.n; i++) {
		struct reckon_espdu pdu;

		cr_assert_eq(reckon_espdu_decode(q.d[i].buf, q.d[i].len, &pdu),
			     0);
		if (q.d[i].lane == 0 && pdu.id.entity == 1) {
			if (first < 0)
				first = (ssize_t)i;
			else if (later < 0)
				later = (ssize_t)i;
		}
	}
	cr_assert(first >= 0 && later >= 0, "dis sent twice in 8 s");
	int64_t now = 8 * 64 * FIX_TICK;

	cr_assert_eq(
		role_observer_recv(o, 0, now, q.d[later].buf, q.d[later].len),
		0);
	cr_assert_eq(
		role_observer_recv(o, 0, now, q.d[first].buf, q.d[first].len),
		-ESTALE);
	struct role_metrics m = row(o, 0, 0);

	cr_assert_eq(m.received, 2);
	cr_assert_eq(m.applied, 1);
	cr_assert_eq(m.stale, 1);
	fix_queue_free(&q);
	role_player_free(p);
	role_observer_free(o);
}

Test(observer, malformed_and_foreign_counted)
{
	struct role_player *p = mk_player();
	struct role_observer *o = mk_observer();
	struct reckon_espdu_counters c;
	struct fix_queue q;
	uint8_t junk[300];

	fix_queue_init(&q);
	play_to(p, 0, &q);
	memset(junk, 0x41, sizeof(junk));
	cr_assert_eq(role_observer_recv(o, 0, 0, junk, 10), -EBADMSG);
	cr_assert_eq(role_observer_recv(o, 0, 0, junk, sizeof(junk)), -EBADMSG);
	cr_assert_eq(role_observer_recv(o, 0, 0, NULL, 0), -EBADMSG);
	/* lane 0's PDU (dis) arriving on lane 1 (led) */
	cr_assert_eq(q.d[0].lane, 0);
	cr_assert_eq(role_observer_recv(o, 1, 0, q.d[0].buf, q.d[0].len),
		     -EPROTO);
	/* a valid PDU whose time is outside every path of its entity */
	struct reckon_espdu pdu;
	uint8_t buf[RECKON_ESPDU_MAX_LEN];
	size_t len;

	cr_assert_eq(reckon_espdu_decode(q.d[0].buf, q.d[0].len, &pdu), 0);
	pdu.send_ns = (uint64_t)truth.end_ns + 1000000000ULL;
	cr_assert_eq(reckon_espdu_encode(&pdu, buf, sizeof(buf), &len), 0);
	cr_assert_eq(role_observer_recv(o, 0, 0, buf, len), -ENOENT);
	/* a lane that does not exist */
	cr_assert_eq(role_observer_recv(o, 2, 0, q.d[0].buf, q.d[0].len),
		     -EINVAL);

	cr_assert_eq(role_observer_verdicts(o, 0, &c), 0);
	cr_assert_eq(c.n[RECKON_ESPDU_TRUNCATED], 2);
	cr_assert_eq(c.n[RECKON_ESPDU_OVERSIZED], 1);
	cr_assert_eq(c.n[RECKON_ESPDU_OK], 1);
	cr_assert_eq(reckon_espdu_rejected(&c), 3);
	cr_assert_eq(role_observer_foreign(o, 1), 1);
	cr_assert_eq(row(o, 0, 0).unmatched, 1);
	cr_assert_eq(row(o, 0, 0).applied, 0);
	fix_queue_free(&q);
	role_player_free(p);
	role_observer_free(o);
}

/*
 * With every other datagram lost, the observer still has an estimate at
 * every frame after the first update (the predictor extrapolates), and
 * it receives exactly the delivered half.
 */
Test(observer, loss_keeps_predicting)
{
	struct role_player *p = mk_player();
	struct role_observer *o = mk_observer();
	struct fix_queue q;
	uint64_t delivered[2][3] = {{0}}, k = 0;

	fix_queue_init(&q);
	while (role_player_next(p) != INT64_MAX) {
		int64_t t = role_player_next(p);

		q.n = 0;
		play_to(p, t, &q);
		for (size_t i = 0; i < q.n; i++) {
			struct reckon_espdu pdu;

			/* keep the initial states, drop every other later */
			cr_assert_eq(reckon_espdu_decode(q.d[i].buf, q.d[i].len,
							 &pdu),
				     0);
			if (pdu.blob[0] != PREDICT_REASON_INIT && (k++ & 1))
				continue;
			delivered[q.d[i].lane][pdu.id.entity - 1]++;
			role_observer_recv(o, q.d[i].lane, t, q.d[i].buf,
					   q.d[i].len);
		}
		cr_assert_eq(role_observer_frame(o, t), 0);
	}
	for (uint16_t l = 0; l < 2; l++)
		for (uint32_t e = 0; e < 3; e++) {
			struct role_metrics m = row(o, l, e);

			cr_assert_eq(m.received, delivered[l][e]);
			cr_assert_eq(m.frames_blind, 0);
			cr_assert_gt(m.frames, 0);
			cr_assert_geq(m.err_p95, m.err_p50);
			cr_assert_geq(m.err_max, m.err_p95);
		}
	fix_queue_free(&q);
	role_player_free(p);
	role_observer_free(o);
}

/*
 * test_observer.c: the observer role machine (agents/role/observer.c)
 * wired in process to a player. At zero latency it reproduces the
 * offline replay: every update taken, and the mean error of each entity
 * equal to replay's within what float32 transport can change. Also:
 * blind frames before the first update, stale (reordered) updates,
 * loss (the shown position follows the dead-reckoning model through a
 * gap and recovers at the next update or heartbeat), a late timer that
 * must not let a frame see a later update, a trace whose clock does not
 * start at 0, malformed and foreign datagrams counted by reason, and the
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
	/* the only update received matched no path: the hosts warn */
	uint64_t received, unmatched;

	role_observer_totals(o, &received, &unmatched);
	cr_assert_eq(received, 1);
	cr_assert_eq(unmatched, 1);
	fix_queue_free(&q);
	role_player_free(p);
	role_observer_free(o);
}

/* Frames recorded through the observer's on_frame hook. */
struct frames {
	struct role_frame *f;
	size_t n, cap;
};

static void record(void *arg, const struct role_frame *f)
{
	struct frames *r = arg;

	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 1024;
		r->f = realloc(r->f, r->cap * sizeof(*r->f));
		cr_assert(r->f);
	}
	r->f[r->n++] = *f;
}

static struct role_observer *mk_observer_on(const struct role_truth *tr,
					    const struct predict_params *ln,
					    size_t n_lanes, struct frames *rec)
{
	struct role_observer_cfg c = {
		.truth = tr,
		.lanes = ln,
		.n_lanes = n_lanes,
		.threshold = 20,
		.on_frame = rec ? record : NULL,
		.frame_arg = rec,
	};
	struct role_observer *o;

	cr_assert_eq(role_observer_new(&c, &o), 0);
	return o;
}

static struct role_player *mk_player_on(const struct role_truth *tr,
					const struct predict_params *ln,
					size_t n_lanes)
{
	struct role_player_cfg c = {
		.truth = tr, .lanes = ln, .n_lanes = n_lanes, .n_dest = 1};
	struct role_player *p;

	cr_assert_eq(role_player_new(&c, &p), 0);
	return p;
}

/* DIS that shows its dead-reckoning model at once (no blending), so the
 * displayed position is P0 + V0 (t - t0) of the last update applied. */
static void dis_snap(struct predict_params *par)
{
	fix_params(par, "dis");
	cr_assert_eq(predict_params_set(par, "convergence", "snap"), 0);
}

/* The last update delivered for an entity, as decoded from its PDU. */
struct last {
	int have;
	double pos[3], vel[3];
	int64_t t_ns;
	uint8_t reason;
};

static void last_of(const struct fix_dgram *d, struct last *out)
{
	struct reckon_espdu pdu;

	cr_assert_eq(reckon_espdu_decode(d->buf, d->len, &pdu), 0);
	out->have = 1;
	out->pos[0] = pdu.pos.x, out->pos[1] = pdu.pos.y;
	out->pos[2] = pdu.pos.z;
	out->vel[0] = pdu.vel.x, out->vel[1] = pdu.vel.y;
	out->vel[2] = pdu.vel.z;
	out->t_ns = (int64_t)pdu.send_ns;
	out->reason = pdu.blob[0];
}

/* FPW: P0 + V0 dt. */
static void dr_fpw(const struct last *u, int64_t t, double out[3])
{
	double dt = (double)(t - u->t_ns) * 1e-9;

	for (int i = 0; i < 3; i++)
		out[i] = u->pos[i] + u->vel[i] * dt;
}

static double dist3(const double a[3], const double b[3])
{
	return sqrt((a[0] - b[0]) * (a[0] - b[0]) +
		    (a[1] - b[1]) * (a[1] - b[1]) +
		    (a[2] - b[2]) * (a[2] - b[2]));
}

/*
 * With every other update lost (initial states kept), the observer
 * receives exactly the delivered ones, and at every frame it shows the
 * dead-reckoning extrapolation of the last update it got: during a gap
 * the shown position moves on at the update's velocity (a receiver that
 * held the last position would fail), and the next delivered update
 * takes over in the frame it arrives. The FPW model is recomputed here
 * from the PDU's own fields; only the order of the float operations can
 * differ, far below 1e-6 u at these magnitudes (|P| < 1500 u).
 */
Test(observer, loss_keeps_predicting)
{
	struct predict_params ln[1];
	struct role_player *p;
	struct role_observer *o;
	struct fix_queue q;
	struct frames rec = {0};
	struct last last[3] = {{0}};
	uint64_t delivered[3] = {0}, k = 0, lost = 0, moved = 0;
	size_t seen = 0;

	dis_snap(&ln[0]);
	p = mk_player_on(&truth, ln, 1);
	o = mk_observer_on(&truth, ln, 1, &rec);
	fix_queue_init(&q);
	while (role_player_next(p) != INT64_MAX) {
		int64_t t = role_player_next(p);

		q.n = 0;
		play_to(p, t, &q);
		for (size_t i = 0; i < q.n; i++) {
			struct last u;

			last_of(&q.d[i], &u);
			if (u.reason != PREDICT_REASON_INIT && (k++ & 1)) {
				lost++;
				continue;
			}
			uint32_t e = (uint32_t)(q.d[i].buf[17] - 1);

			cr_assert_lt(e, 3);
			last[e] = u;
			delivered[e]++;
			cr_assert_eq(role_observer_recv(o, 0, t, q.d[i].buf,
							q.d[i].len),
				     0);
		}
		cr_assert_eq(role_observer_frame(o, t), 0);
		for (; seen < rec.n; seen++) {
			const struct role_frame *f = &rec.f[seen];
			double want[3];

			cr_assert_eq(f->t_ns, t);
			cr_assert(last[f->entity].have);
			dr_fpw(&last[f->entity], t, want);
			cr_assert_lt(
				dist3(f->shown, want), 1e-6,
				"entity %u at %lld: shown (%f %f) DR (%f %f)",
				f->entity, (long long)t, f->shown[0],
				f->shown[1], want[0], want[1]);
			/* extrapolated away from the last position */
			if (dist3(f->shown, last[f->entity].pos) > 1)
				moved++;
		}
	}
	cr_assert_gt(lost, 10, "only %lu updates lost", (unsigned long)lost);
	cr_assert_gt(moved, rec.n / 2, "%lu of %zu frames moved",
		     (unsigned long)moved, rec.n);
	for (uint32_t e = 0; e < 3; e++) {
		struct role_metrics m = row(o, 0, e);

		cr_assert_eq(m.received, delivered[e]);
		cr_assert_eq(m.frames_blind, 0);
		cr_assert_gt(m.frames, 0);
		cr_assert_geq(m.err_p95, m.err_p50);
		cr_assert_geq(m.err_max, m.err_p95);
	}
	free(rec.f);
	fix_queue_free(&q);
	role_player_free(p);
	role_observer_free(o);
}

/*
 * Recovery at the heartbeat. One entity runs straight along x at 100 u/s
 * for 12 s while its trace reports vx = 97, so DIS FPW drifts 3 u/s:
 * under the 20 u threshold until 6.67 s, so the sender sends only its
 * initial state and heartbeats, at 0, 5 and 10 s. The 5 s heartbeat is
 * lost. The observer keeps extrapolating the initial state, error 3 t
 * (past the threshold after 6.67 s, the sender cannot know), until the
 * 10 s heartbeat arrives, and the error is 3 (t - 10) after it.
 */
Test(observer, heartbeat_recovers_after_a_loss)
{
	struct predict_params ln[1];
	struct role_truth tr1;
	struct role_player *p;
	struct role_observer *o;
	struct fix_queue q;
	struct frames rec = {0};
	struct trace t1;
	int64_t sent_at[8];
	uint8_t reason[8];
	size_t n_sent = 0;

	trace_init(&t1);
	t1.tick_ns = FIX_TICK;
	for (int k = 0; k < 12 * 64; k++) {
		struct trace_sample x;

		memset(&x, 0, sizeof(x));
		x.t_ns = (int64_t)k * FIX_TICK;
		x.team = 1;
		x.alive = 1;
		x.x = 100.0 * k / 64;
		x.vx = 97;
		x.health = 100;
		cr_assert_eq(trace_append(&t1, &x), 0);
	}
	cr_assert_eq(role_truth_build(&t1, NULL, &tr1), 0);
	dis_snap(&ln[0]);
	p = mk_player_on(&tr1, ln, 1);
	o = mk_observer_on(&tr1, ln, 1, &rec);
	fix_queue_init(&q);
	while (role_player_next(p) != INT64_MAX) {
		int64_t t = role_player_next(p);

		q.n = 0;
		play_to(p, t, &q);
		for (size_t i = 0; i < q.n; i++) {
			struct last u;

			last_of(&q.d[i], &u);
			cr_assert_lt(n_sent, 8);
			sent_at[n_sent] = u.t_ns;
			reason[n_sent++] = u.reason;
			if (u.reason == PREDICT_REASON_HEARTBEAT &&
			    u.t_ns == 5000000000LL)
				continue; /* lost */
			role_observer_recv(o, 0, t, q.d[i].buf, q.d[i].len);
		}
		cr_assert_eq(role_observer_frame(o, t), 0);
	}
	cr_assert_eq(n_sent, 3);
	cr_assert_eq(reason[0], PREDICT_REASON_INIT);
	cr_assert_eq(reason[1], PREDICT_REASON_HEARTBEAT);
	cr_assert_eq(reason[2], PREDICT_REASON_HEARTBEAT);
	cr_assert_eq(sent_at[0], 0);
	cr_assert_eq(sent_at[1], 5000000000LL);
	cr_assert_eq(sent_at[2], 10000000000LL);
	cr_assert_eq(rec.n, 12 * 64);
	for (size_t i = 0; i < rec.n; i++) {
		double t = (double)rec.f[i].t_ns * 1e-9;
		double want = t < 10 ? 3 * t : 3 * (t - 10);

		cr_assert_float_eq(rec.f[i].err, want, 1e-6, "t %f: %f vs %f",
				   t, rec.f[i].err, want);
	}
	struct role_metrics m = row(o, 0, 0);

	cr_assert_eq(m.received, 2);
	cr_assert_float_eq(m.err_max, 3 * (10 - 1.0 / 64), 1e-6);
	free(rec.f);
	fix_queue_free(&q);
	role_player_free(p);
	role_observer_free(o);
	role_truth_free(&tr1);
	trace_free(&t1);
}

/* One arrival: datagram i of a player's run at time t. */
struct arrival {
	int64_t t;
	size_t i;
};

/*
 * A late timer must not let an update reach a frame that was due before
 * it arrived. Every update arrives 6.5 ticks after it is sent. Observer
 * A runs each frame on time, interleaved with the arrivals in time
 * order; observer B's timer fires only every 32 ticks, so arrivals come
 * while up to 32 frames are pending. B must show exactly what A shows.
 */
Test(observer, late_frames_do_not_see_later_updates)
{
	const int64_t lat = 13 * FIX_TICK / 2;
	struct role_player *p = mk_player();
	struct role_observer *a, *b;
	struct frames ra = {0}, rb = {0};
	struct fix_queue q;
	struct arrival *arr;
	size_t n_arr = 0, next = 0;

	a = mk_observer_on(&truth, lanes, 2, &ra);
	b = mk_observer_on(&truth, lanes, 2, &rb);
	fix_queue_init(&q);
	arr = calloc(4096, sizeof(*arr));
	cr_assert(arr);
	while (role_player_next(p) != INT64_MAX) {
		int64_t t = role_player_next(p);
		size_t from = q.n;

		play_to(p, t, &q);
		for (size_t i = from; i < q.n; i++) {
			cr_assert_lt(n_arr, 4096);
			arr[n_arr++] = (struct arrival){t + lat, i};
		}
	}
	cr_assert_gt(n_arr, 50);
	/* A: frames on time; arrivals fall between ticks (no ties) */
	while (role_observer_next(a) != INT64_MAX || next < n_arr) {
		int64_t tf = role_observer_next(a);

		if (next < n_arr && arr[next].t < tf) {
			const struct fix_dgram *d = &q.d[arr[next++].i];

			role_observer_recv(a, d->lane, arr[next - 1].t, d->buf,
					   d->len);
		} else {
			cr_assert_eq(role_observer_frame(a, tf), 0);
		}
	}
	/* B: the timer fires every 32 ticks; arrivals as they come */
	int64_t wake = 0;

	for (size_t i = 0; i < n_arr; i++) {
		while (wake + 32 * FIX_TICK <= arr[i].t) {
			wake += 32 * FIX_TICK;
			cr_assert_eq(role_observer_frame(b, wake), 0);
		}
		role_observer_recv(b, q.d[arr[i].i].lane, arr[i].t,
				   q.d[arr[i].i].buf, q.d[arr[i].i].len);
	}
	cr_assert_eq(role_observer_frame(b, INT64_MAX - 1), 0);
	cr_assert_eq(ra.n, rb.n);
	cr_assert_gt(ra.n, 1000);
	for (size_t i = 0; i < ra.n; i++) {
		cr_assert_eq(ra.f[i].t_ns, rb.f[i].t_ns);
		cr_assert_eq(ra.f[i].lane, rb.f[i].lane);
		cr_assert_eq(ra.f[i].entity, rb.f[i].entity);
		cr_assert_eq(ra.f[i].err, rb.f[i].err,
			     "frame %zu (t %lld lane %u entity %u): %f vs %f",
			     i, (long long)ra.f[i].t_ns, ra.f[i].lane,
			     ra.f[i].entity, ra.f[i].err, rb.f[i].err);
	}
	free(arr);
	free(ra.f);
	free(rb.f);
	fix_queue_free(&q);
	role_player_free(p);
	role_observer_free(a);
	role_observer_free(b);
}

/*
 * A trace whose clock does not start at 0 (an imported one keeps its
 * time column) plays exactly like the same movement starting at 0:
 * updates are stamped in ns after t0, every one finds its path, and
 * every error sample is the same. Before the truth was rebased, every
 * update came back unmatched and no error was measured.
 */
Test(observer, time_shifted_trace_is_measured)
{
	const int64_t off = 3600000000007LL;
	struct role_truth ts;
	struct trace t1;
	struct frames r0 = {0}, r1 = {0};
	struct fix_queue q;
	struct role_player *p[2];
	struct role_observer *o[2];
	uint64_t received, unmatched;

	fix_trace(&t1, 3, 12);
	fix_shift(&t1, off);
	cr_assert_eq(role_truth_build(&t1, NULL, &ts), 0);
	p[0] = mk_player_on(&truth, lanes, 2);
	p[1] = mk_player_on(&ts, lanes, 2);
	o[0] = mk_observer_on(&truth, lanes, 2, &r0);
	o[1] = mk_observer_on(&ts, lanes, 2, &r1);
	fix_queue_init(&q);
	for (int h = 0; h < 2; h++) {
		while (role_player_next(p[h]) != INT64_MAX) {
			int64_t t = role_player_next(p[h]);

			q.n = 0;
			play_to(p[h], t, &q);
			for (size_t i = 0; i < q.n; i++) {
				struct reckon_espdu pdu;

				cr_assert_eq(reckon_espdu_decode(q.d[i].buf,
								 q.d[i].len,
								 &pdu),
					     0);
				cr_assert_eq((int64_t)pdu.send_ns, t,
					     "send time in ns after t0");
				cr_assert_eq(role_observer_recv(
						     o[h], q.d[i].lane, t,
						     q.d[i].buf, q.d[i].len),
					     0);
			}
			cr_assert_eq(role_observer_frame(o[h], t), 0);
		}
	}
	role_observer_totals(o[1], &received, &unmatched);
	cr_assert_gt(received, 0);
	cr_assert_eq(unmatched, 0);
	cr_assert_eq(r1.n, r0.n);
	cr_assert_gt(r1.n, 0);
	for (size_t i = 0; i < r0.n; i++) {
		cr_assert_eq(r1.f[i].t_ns, r0.f[i].t_ns);
		cr_assert_eq(r1.f[i].err, r0.f[i].err, "frame %zu", i);
	}
	for (size_t i = 0; i < role_observer_rows(o[1]); i++) {
		struct role_metrics m0, m1;

		cr_assert_eq(role_observer_metrics(o[0], i, &m0), 0);
		cr_assert_eq(role_observer_metrics(o[1], i, &m1), 0);
		cr_assert_eq(m1.applied, m0.applied);
		cr_assert_eq(m1.frames, m0.frames);
		cr_assert_eq(m1.frames_blind, 0);
		cr_assert_eq(m1.err_mean, m0.err_mean);
	}
	free(r0.f);
	free(r1.f);
	fix_queue_free(&q);
	for (int h = 0; h < 2; h++) {
		role_player_free(p[h]);
		role_observer_free(o[h]);
	}
	role_truth_free(&ts);
	trace_free(&t1);
}

/* Every frame's error, as the on_frame callback reports it, per lane. */
struct frame_log {
	double *v[2];
	size_t n[2], cap[2];
};

static void log_frame(void *arg, const struct role_frame *f)
{
	struct frame_log *g = arg;
	unsigned l = f->lane;

	if (g->n[l] == g->cap[l]) {
		g->cap[l] = g->cap[l] ? 2 * g->cap[l] : 1024;
		g->v[l] = realloc(g->v[l], g->cap[l] * sizeof(double));
		cr_assert_not_null(g->v[l]);
	}
	g->v[l][g->n[l]++] = f->err;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The pooled per-frame quantiles (errcdf-HOST.csv) equal the nearest-rank
 * quantiles of every error sample the observer reported, over all its
 * entities: quantile k/(n-1) is sorted sample ceil(k/(n-1) N) (1-based),
 * the first and last being the smallest and largest. */
Test(observer, pooled_quantiles_are_nearest_rank_over_all_frames)
{
	struct role_player *p = mk_player();
	struct frame_log g = {0};
	struct role_observer_cfg c = {
		.truth = &truth,
		.lanes = lanes,
		.n_lanes = 2,
		.threshold = 20,
		.on_frame = log_frame,
		.frame_arg = &g,
	};
	struct role_observer *o;
	struct fix_queue q;
	double out[201], none[3] = {-1, -1, -1};
	uint64_t frames;

	cr_assert_eq(role_observer_new(&c, &o), 0);
	/* Nothing displayed yet: no frames, out untouched. */
	cr_assert_eq(role_observer_quantiles(o, 0, none, 3, &frames), 0);
	cr_assert_eq(frames, 0);
	cr_assert_eq(none[1], -1);
	cr_assert_eq(role_observer_quantiles(o, 2, out, 3, &frames), -EINVAL);
	cr_assert_eq(role_observer_quantiles(o, 0, out, 1, &frames), -EINVAL);

	fix_queue_init(&q);
	while (role_player_next(p) != INT64_MAX) {
		int64_t t = role_player_next(p);

		q.n = 0;
		play_to(p, t, &q);
		/* drop every third datagram so errors spread out */
		for (size_t i = 0; i < q.n; i++)
			if (i % 3 != 2)
				cr_assert_eq(role_observer_recv(
						     o, q.d[i].lane, t,
						     q.d[i].buf, q.d[i].len),
					     0);
		cr_assert_eq(role_observer_frame(o, t), 0);
	}
	for (uint16_t l = 0; l < 2; l++) {
		size_t n = g.n[l];

		cr_assert_gt(n, 100);
		qsort(g.v[l], n, sizeof(double), cmp_dbl);
		cr_assert_eq(role_observer_quantiles(o, l, out, 201, &frames),
			     0);
		cr_assert_eq(frames, n);
		cr_assert_eq(out[0], g.v[l][0]);
		cr_assert_eq(out[200], g.v[l][n - 1]);
		for (size_t k = 1; k < 200; k++) {
			size_t r = (size_t)ceil((double)k / 200.0 * (double)n);

			cr_assert_eq(out[k], g.v[l][r - 1], "lane %u k %zu", l,
				     k);
		}
		/* a real spread, not one repeated value */
		cr_assert_lt(out[20], out[190]);
		free(g.v[l]);
	}
	fix_queue_free(&q);
	role_player_free(p);
	role_observer_free(o);
}

/*
 * ctx.peers as the observer builds it: lane 0 loses every datagram of
 * entity 2 sent after 6 s. At the end, the peers given to entity 0's
 * receivers on lane 0 are entities 1 and 2, each exactly its last update
 * that arrived (send time and position): entity 2 frozen at or before
 * 6 s, entity 1 at its last update. Entity 0 itself is left out.
 */
Test(observer, peers_are_the_last_updates_that_arrived)
{
	struct role_player *p = mk_player();
	struct role_observer *o = mk_observer();
	struct predict_update last[3];
	struct predict_ctx ctx;
	struct fix_queue q;
	int seen[3] = {0};

	fix_queue_init(&q);
	while (role_player_next(p) != INT64_MAX) {
		int64_t t = role_player_next(p);

		q.n = 0;
		play_to(p, t, &q);
		for (size_t i = 0; i < q.n; i++) {
			struct reckon_espdu pdu;
			struct predict_update u;
			uint8_t model;

			if (q.d[i].lane != 0)
				continue;
			cr_assert_eq(reckon_espdu_decode(q.d[i].buf, q.d[i].len,
							 &pdu),
				     RECKON_ESPDU_OK);
			cr_assert_eq(role_espdu_to_update(&pdu, &u, &model), 0);
			if (u.entity == 2 && u.t_ns > 6000000000LL)
				continue; /* lost */
			cr_assert_eq(role_observer_recv(o, 0, t, q.d[i].buf,
							q.d[i].len),
				     0);
			last[u.entity] = u;
			seen[u.entity] = 1;
		}
		cr_assert_eq(role_observer_frame(o, t), 0);
	}
	cr_assert(seen[0] && seen[1] && seen[2]);
	cr_assert_gt(last[1].t_ns, 6000000000LL);
	cr_assert_eq(role_observer_peers(o, 0, 0, &ctx), 0);
	cr_assert_eq(ctx.n_peers, 2);
	for (size_t k = 0; k < 2; k++) {
		const struct predict_peer *pe = &ctx.peers[k];

		cr_assert_eq(pe->entity, k + 1);
		cr_expect_eq(pe->t_ns, last[k + 1].t_ns);
		cr_expect_eq(memcmp(pe->pos, last[k + 1].pos, sizeof(pe->pos)),
			     0);
	}
	cr_expect_leq(ctx.peers[1].t_ns, 6000000000LL);
	fix_queue_free(&q);
	role_player_free(p);
	role_observer_free(o);
}

/*
 * test_hsm.c: the "dhsm" predictor (paper 004). Known answers of the two
 * candidate models (DR, and SP toward a still, a moving and a reached
 * goal), the blob layout byte by byte and its rejections, the missed-
 * switch arithmetic with wrap-around, the goals replay derives from a
 * trace (nearest foe in the same tick), and DHSM on a crafted pursuit:
 * an entity runs east, then turns toward a visible goal and pursues it;
 * DR wins the first breach (SP was far off while the entity ran past),
 * SP wins a later one, and the run needs fewer updates than DR alone.
 * With the line of sight closed the run is DR's, update for update, and
 * without a line-of-sight callback the gate refuses to guess. The
 * receiver follows the model of the newest update it applied: with the
 * first switch update dropped it shows the old model's extrapolation
 * until the next update, which it counts as stale_model. Same input,
 * same update bytes.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "predict/hsm.h"
#include "predict/predict.h"
#include "predict/replay.h"
#include "predict/vec3.h"
#include "proto/espdu.h"
#include "role/observer.h"
#include "role/player.h"
#include "role/truth.h"
#include "role/update_espdu.h"

#define HZ	20
#define TICK_NS (1000000000LL / HZ)
#define DT	(1.0 / HZ)

static void params(struct predict_params *par, const char *const *kv)
{
	cr_assert_eq(predict_params_init(par, predict_find("dhsm")), 0);
	for (; kv && *kv; kv++)
		cr_assert_eq(predict_params_set_kv(par, *kv), 0, "%s", *kv);
}

static int los_open(const void *w, const double a[3], const double b[3])
{
	(void)w, (void)a, (void)b;
	return 1;
}

static int los_closed(const void *w, const double a[3], const double b[3])
{
	(void)w, (void)a, (void)b;
	return 0;
}

Test(dhsm, models_known_answers)
{
	double p0[3] = {0, 0, 0}, v0[3] = {10, 0, 0}, g[3] = {0, 100, 0};
	double gv[3] = {10, 0, 0}, pos[3], vel[3];

	hsm_predict(HSM_DR, p0, v0, g, NULL, 0, 2, pos, vel);
	cr_assert(pos[0] == 20 && pos[1] == 0 && vel[0] == 10);
	/* SP: |V0| = 10 toward (0,100): 2 s -> (0,20), velocity (0,10) */
	hsm_predict(HSM_SP, p0, v0, g, NULL, 0, 2, pos, vel);
	cr_assert_float_eq(pos[0], 0, 1e-12);
	cr_assert_float_eq(pos[1], 20, 1e-12);
	cr_assert_float_eq(vel[1], 10, 1e-12);
	/* reached after 10 s: it stays on the goal, and standoff 10 stops
	 * it at (0,90) */
	hsm_predict(HSM_SP, p0, v0, g, NULL, 0, 30, pos, vel);
	cr_assert(pos[1] == 100 && vel[1] == 0);
	hsm_predict(HSM_SP, p0, v0, g, NULL, 10, 30, pos, vel);
	cr_assert_float_eq(pos[1], 90, 1e-12);
	/* moving goal: after 5 s it is at (50,100); 50 u along
	 * (50,100)/sqrt(12500) */
	hsm_predict(HSM_SP, p0, v0, g, gv, 0, 5, pos, vel);
	cr_assert_float_eq(pos[0], 50 * 50 / sqrt(12500), 1e-9);
	cr_assert_float_eq(pos[1], 50 * 100 / sqrt(12500), 1e-9);
	/* no goal: SP is DR */
	hsm_predict(HSM_SP, p0, v0, NULL, NULL, 0, 2, pos, vel);
	cr_assert(pos[0] == 20 && pos[1] == 0);
}

Test(dhsm, blob_layout)
{
	struct predict_update u;
	struct hsm_wire w = {.model = HSM_SP, .switches = 7}, r;
	double goal[3] = {110.3, -20, 5}, gvel[3] = {-250, 1.06, 0};
	const uint8_t want[HSM_BLOB_LEN] = {
		1, 7, 3,
		/* offsets (10.25, -20, 5) / 0.25 = 41, -80, 20 */
		0x00, 0x29, 0xff, 0xb0, 0x00, 0x14,
		/* velocity / 0.125 = -2000, 8 (1.06 rounds to 1.0), 0 */
		0xf8, 0x30, 0x00, 0x08, 0x00, 0x00};

	memset(&u, 0, sizeof(u));
	v3_set(u.pos, 100, 0, 0);
	cr_assert_eq(hsm_goal_quantize(u.pos, goal, gvel, &w), 0);
	w.flags |= HSM_FLAG_SWITCHED;
	hsm_blob_put(&u, &w);
	cr_assert_eq(u.blob_len, HSM_BLOB_LEN);
	cr_assert_arr_eq(u.blob, want, HSM_BLOB_LEN);
	cr_assert_eq(hsm_blob_get(&u, &r), 0);
	cr_assert(r.model == HSM_SP && r.switches == 7 && r.flags == 3);
	cr_assert(r.goal[0] == 110.25 && r.goal[1] == -20 && r.goal[2] == 5);
	cr_assert(r.gvel[0] == -250 && r.gvel[1] == 1.0);
	/* what the sender keeps is what the receiver decodes */
	cr_assert_arr_eq(r.goal, w.goal, sizeof(r.goal));
	cr_assert_arr_eq(r.gvel, w.gvel, sizeof(r.gvel));

	/* rejected: wrong length, model 2, unknown flag, SP without goal */
	struct predict_update bad = u;

	bad.blob_len = 14;
	cr_assert_eq(hsm_blob_get(&bad, &r), -EINVAL);
	bad = u, bad.blob[0] = 2;
	cr_assert_eq(hsm_blob_get(&bad, &r), -EINVAL);
	bad = u, bad.blob[2] |= 0x04;
	cr_assert_eq(hsm_blob_get(&bad, &r), -EINVAL);
	bad = u, bad.blob[2] = HSM_FLAG_SWITCHED;
	cr_assert_eq(hsm_blob_get(&bad, &r), -EINVAL);
	/* a goal beyond the offset range is not sent */
	goal[0] = 100 + 8192;
	w.flags = 0;
	cr_assert_eq(hsm_goal_quantize(u.pos, goal, NULL, &w), -ERANGE);
	cr_assert_eq(w.flags, 0);
}

Test(dhsm, missed_switches)
{
	struct hsm_wire w = {.switches = 3};

	cr_assert_eq(hsm_missed_switches(3, &w), 0);
	w.flags = HSM_FLAG_SWITCHED, w.switches = 4;
	cr_assert_eq(hsm_missed_switches(3, &w), 0); /* this is the switch */
	cr_assert_eq(hsm_missed_switches(2, &w), 1); /* one lost before */
	w.flags = 0;
	cr_assert_eq(hsm_missed_switches(2, &w), 2);
	w.switches = 1; /* 255 -> 0 -> 1 */
	cr_assert_eq(hsm_missed_switches(255, &w), 2);
}

/*
 * The crafted pursuit at 20 Hz, 14 s. Entity 0 (team 1) is the goal: it
 * walks east from (400, 600) at 50 u/s. Entity 1 (team 2) runs east from
 * (0, 0) at 100 u/s for 2 s, then pursues: every tick it heads straight
 * at the goal's current position at 100 u/s (pure pursuit), facing where
 * it runs. A pursuit curve bends continuously, so DR (a straight line)
 * leaves it quadratically, while SP, aimed at the goal's dead-reckoned
 * position, is exactly the entity's heading at the update and then
 * rotates with it.
 */
static void pursuit_trace(struct trace *t)
{
	double x = 0, y = 0, vx = 100, vy = 0;

	trace_init(t);
	t->tick_ns = TICK_NS;
	for (int k = 0; k < 14 * HZ; k++) {
		double tk = k * DT, gx = 400 + 50 * tk, gy = 600;
		struct trace_sample g = {.t_ns = k * TICK_NS,
					 .entity = 0,
					 .team = 1,
					 .alive = 1,
					 .x = gx,
					 .y = gy,
					 .vx = 50};
		struct trace_sample s = {.t_ns = k * TICK_NS,
					 .entity = 1,
					 .team = 2,
					 .alive = 1};

		if (tk >= 2) {
			double d = hypot(gx - x, gy - y);

			vx = 100 * (gx - x) / d;
			vy = 100 * (gy - y) / d;
		}
		s.x = x, s.y = y, s.vx = vx, s.vy = vy;
		s.yaw = fmod(atan2(vy, vx) * 180 / M_PI + 360, 360);
		cr_assert_eq(trace_append(t, &g), 0);
		cr_assert_eq(trace_append(t, &s), 0);
		x += vx * DT;
		y += vy * DT;
	}
}

struct run {
	struct predict_update u[512];
	size_t n;
	struct replay_result res;
};

/* Sender only, collecting the updates of entity 1's path. */
static int run_sender(const struct predict_params *par,
		      const struct replay_set *set,
		      int (*los)(const void *, const double *, const double *),
		      struct run *out)
{
	const struct replay_path *p = &set->path[1];
	struct predict_sender *s;
	struct predict_ctx ctx;
	double gpos[3], gvel[3];
	int rc = 0;

	cr_assert_eq(p->entity, 1);
	predict_ctx_init(&ctx);
	ctx.map.los = los;
	memset(out, 0, sizeof(*out));
	cr_assert_eq(predict_sender_new(par, &s), 0);
	for (size_t k = 0; k < p->n && rc >= 0; k++) {
		struct predict_state x;

		replay_state_at(p, k, &x);
		ctx.goal = ctx.goal_vel = NULL;
		if (replay_path_goal(p, k, gpos, gvel)) {
			ctx.goal = gpos;
			ctx.goal_vel = gvel;
		}
		rc = predict_sender_tick(s, &ctx, &x, &out->u[out->n]);
		if (rc == 1)
			out->n++;
	}
	predict_sender_free(s);
	return rc < 0 ? rc : 0;
}

static struct hsm_wire wire_of(const struct predict_update *u)
{
	struct hsm_wire w;

	cr_assert_eq(hsm_blob_get(u, &w), 0);
	return w;
}

Test(dhsm, goals_are_the_nearest_foe)
{
	struct trace t;
	struct replay_opts o;
	struct replay_set set;

	pursuit_trace(&t);
	replay_opts_init(&o);
	cr_assert_eq(replay_set_build(&t, &o, &set), 0);
	cr_assert_eq(set.n_paths, 2);
	for (size_t k = 0; k < set.path[1].n; k += 37) {
		const struct trace_sample *e0 = &set.path[0].s[k];
		double g[3], v[3];

		cr_assert_eq(replay_path_goal(&set.path[1], k, g, v), 1);
		cr_assert(g[0] == e0->x && g[1] == e0->y && v[0] == 50);
	}
	replay_set_free(&set);
	trace_free(&t);
}

Test(dhsm, switches_to_sp_in_pursuit)
{
	const char *kv_dhsm[] = {"tau=10", NULL};
	const char *kv_dr[] = {"tau=10", "models=dr", NULL};
	struct predict_params dhsm, dr;
	struct trace t;
	struct replay_opts o;
	struct replay_set set;
	struct run a, b;
	int first_sp = -1;

	params(&dhsm, kv_dhsm);
	params(&dr, kv_dr);
	pursuit_trace(&t);
	replay_opts_init(&o);
	cr_assert_eq(replay_set_build(&t, &o, &set), 0);
	cr_assert_eq(run_sender(&dhsm, &set, los_open, &a), 0);
	cr_assert_eq(run_sender(&dr, &set, los_open, &b), 0);
	for (size_t i = 0; i < a.n; i++) {
		struct hsm_wire w = wire_of(&a.u[i]);

		cr_assert_eq(w.flags & HSM_FLAG_GOAL, HSM_FLAG_GOAL);
		if (w.model == HSM_SP && first_sp < 0) {
			first_sp = (int)i;
			cr_assert(w.flags & HSM_FLAG_SWITCHED);
			cr_assert_eq(w.switches, 1);
		}
	}
	/* the initial state, then DR's breach after the turn at 2 s: the
	 * APE of that window holds 2 s in which DR was exact and SP (aimed
	 * 63 deg off the run) was not, so DR stays; SP wins the next one */
	cr_assert_eq(wire_of(&a.u[1]).model, HSM_DR);
	cr_assert(a.u[1].t_ns > 2 * 1000000000LL);
	cr_assert_eq(first_sp, 2, "first SP update %d", first_sp);
	cr_assert_lt(a.n, b.n, "dhsm %zu updates, DR %zu", a.n, b.n);

	/* LOS closed: never SP, and the updates are DR's, one for one */
	cr_assert_eq(run_sender(&dhsm, &set, los_closed, &a), 0);
	cr_assert_eq(a.n, b.n);
	for (size_t i = 0; i < a.n; i++) {
		cr_assert_eq(wire_of(&a.u[i]).model, HSM_DR);
		cr_assert_eq(a.u[i].t_ns, b.u[i].t_ns);
	}
	/* no LOS callback: the gate cannot be evaluated */
	cr_assert_eq(run_sender(&dhsm, &set, NULL, &a), -EINVAL);
	const char *kv_off[] = {"tau=10", "los_gate=off", NULL};

	params(&dhsm, kv_off);
	cr_assert_eq(run_sender(&dhsm, &set, NULL, &a), 0);
	replay_set_free(&set);
	trace_free(&t);
}

Test(dhsm, hsm_rule_uses_theta)
{
	/* select=hsm: SP when its error at the breach is under theta. With
	 * theta 0 it is never; with theta 1e6 the first breach after the
	 * turn already takes SP (DHSM's average would not). */
	const char *kv0[] = {"tau=10", "select=hsm", "theta=0", NULL};
	const char *kv1[] = {"tau=10", "select=hsm", "theta=1e6", NULL};
	struct predict_params p0, p1;
	struct trace t;
	struct replay_opts o;
	struct replay_set set;
	struct run a;

	params(&p0, kv0);
	params(&p1, kv1);
	pursuit_trace(&t);
	replay_opts_init(&o);
	cr_assert_eq(replay_set_build(&t, &o, &set), 0);
	cr_assert_eq(run_sender(&p0, &set, los_open, &a), 0);
	for (size_t i = 0; i < a.n; i++)
		cr_assert_eq(wire_of(&a.u[i]).model, HSM_DR);
	cr_assert_eq(run_sender(&p1, &set, los_open, &a), 0);
	cr_assert_eq(wire_of(&a.u[1]).model, HSM_SP);
	replay_set_free(&set);
	trace_free(&t);
}

Test(dhsm, heartbeat_and_determinism)
{
	/* a still entity with a still foe: the initial state and a
	 * heartbeat every 5 s (100 ticks), all DR */
	const char *kv[] = {"tau=10", NULL};
	struct predict_params par;
	struct trace t;
	struct replay_opts o;
	struct replay_set set;
	struct run a, b;

	params(&par, kv);
	trace_init(&t);
	t.tick_ns = TICK_NS;
	for (int k = 0; k < 12 * HZ; k++)
		for (uint32_t e = 0; e < 2; e++) {
			struct trace_sample s = {.t_ns = k * TICK_NS,
						 .entity = e,
						 .team = (uint8_t)(e + 1),
						 .alive = 1,
						 .x = 300.0 * e};

			cr_assert_eq(trace_append(&t, &s), 0);
		}
	replay_opts_init(&o);
	cr_assert_eq(replay_set_build(&t, &o, &set), 0);
	cr_assert_eq(run_sender(&par, &set, los_open, &a), 0);
	cr_assert_eq(a.n, 3);
	cr_assert_eq(a.u[1].t_ns, 5000000000LL);
	cr_assert_eq(a.u[2].reason, PREDICT_REASON_HEARTBEAT);
	replay_set_free(&set);
	trace_free(&t);

	/* the pursuit twice: the same update bytes */
	pursuit_trace(&t);
	cr_assert_eq(replay_set_build(&t, &o, &set), 0);
	cr_assert_eq(run_sender(&par, &set, los_open, &a), 0);
	cr_assert_eq(run_sender(&par, &set, los_open, &b), 0);
	cr_assert_eq(a.n, b.n);
	cr_assert_eq(memcmp(a.u, b.u, a.n * sizeof(a.u[0])), 0);
	replay_set_free(&set);
	trace_free(&t);
}

Test(dhsm, receiver_follows_last_model_and_counts_stale)
{
	/* Feed the pursuit's updates to a receiver, without the first one
	 * that switched to SP. Until the next update arrives the receiver
	 * shows the DR extrapolation of the update before the lost one;
	 * the next update shows the missed switch: stale_model 1. With
	 * every update delivered, stale_model stays 0. */
	const char *kv[] = {"tau=10", NULL};
	struct predict_params par;
	struct trace t;
	struct replay_opts o;
	struct replay_set set;
	struct run a;
	struct predict_ctx ctx;
	size_t lost = 0;

	params(&par, kv);
	pursuit_trace(&t);
	replay_opts_init(&o);
	cr_assert_eq(replay_set_build(&t, &o, &set), 0);
	cr_assert_eq(run_sender(&par, &set, los_open, &a), 0);
	for (size_t i = 1; i < a.n && !lost; i++)
		if (wire_of(&a.u[i]).flags & HSM_FLAG_SWITCHED)
			lost = i;
	cr_assert(lost > 0 && lost + 1 < a.n);
	predict_ctx_init(&ctx);
	for (int drop = 0; drop < 2; drop++) {
		struct predict_receiver *r;
		struct predict_receiver_stats st;

		cr_assert_eq(predict_receiver_new(&par, &r), 0);
		for (size_t i = 0; i < a.n; i++) {
			if (drop && i == lost) {
				/* between the lost update and the next: the
				 * old model from the old update */
				const struct predict_update *prev = &a.u[i - 1];

				for (int64_t tt = a.u[i].t_ns;
				     tt < a.u[i + 1].t_ns; tt += TICK_NS) {
					struct predict_display d;
					double p[3], v[3];

					cr_assert_eq(predict_receiver_display(
							     r, &ctx, tt, &d),
						     0);
					hsm_predict(HSM_DR, prev->pos,
						    prev->vel, NULL, NULL, 0,
						    (double)(tt - prev->t_ns) *
							    1e-9,
						    p, v);
					cr_assert_float_eq(d.pos[0], p[0],
							   1e-9);
					cr_assert_float_eq(d.pos[1], p[1],
							   1e-9);
				}
				continue;
			}
			cr_assert_eq(predict_receiver_update(r, &ctx, &a.u[i],
							     a.u[i].t_ns),
				     0);
		}
		predict_receiver_stats(r, &st);
		cr_assert_eq(st.stale_model, (uint64_t)drop);
		cr_assert_eq(st.applied, a.n - (size_t)drop);
		predict_receiver_free(r);
	}
	replay_set_free(&set);
	trace_free(&t);
}

/* ---- the observer role with a dropped switch datagram ---- */

struct dgrams {
	uint8_t buf[600][256];
	size_t len[600];
	struct predict_update u[600];
	size_t n;
};

static int collect(void *arg, const struct role_dgram *d)
{
	struct dgrams *q = arg;
	struct reckon_espdu pdu;
	uint8_t model;

	cr_assert_lt(q->n, 600);
	cr_assert_leq(d->len, sizeof(q->buf[0]));
	memcpy(q->buf[q->n], d->buf, d->len);
	q->len[q->n] = d->len;
	cr_assert_eq(reckon_espdu_decode(d->buf, d->len, &pdu),
		     RECKON_ESPDU_OK);
	cr_assert_eq(role_espdu_to_update(&pdu, &q->u[q->n], &model), 0);
	q->n++;
	return 0;
}

struct frames {
	int64_t t[400];
	double shown[400][3];
	size_t n;
};

static void on_frame(void *arg, const struct role_frame *f)
{
	struct frames *fr = arg;

	if (f->entity != 1)
		return;
	cr_assert_lt(fr->n, 400);
	fr->t[fr->n] = f->t_ns;
	v3_copy(fr->shown[fr->n], f->shown);
	fr->n++;
}

Test(dhsm, observer_stays_on_old_model_after_lost_switch)
{
	/* The player plays the pursuit with dhsm; the datagrams reach the
	 * observer at their send time (zero latency), except, in the second
	 * run, the first one of entity 1 that switches the model. From that
	 * update's time until entity 1's next datagram the observer shows
	 * the DR extrapolation of the datagram before the lost one, and its
	 * metrics count one stale_model update; with nothing lost, 0. */
	const char *kv[] = {"tau=10", NULL};
	static struct dgrams q;
	static struct frames fr;
	struct predict_params par;
	struct role_truth tr;
	struct trace t;
	size_t lost = 0, prev = 0, next = 0;

	params(&par, kv);
	pursuit_trace(&t);
	cr_assert_eq(role_truth_build(&t, NULL, &tr), 0);
	for (size_t i = 0; i < tr.set.n_paths; i++)
		tr.ctx[i].map.los = los_open;
	struct role_player_cfg pc = {
		.truth = &tr, .lanes = &par, .n_lanes = 1, .n_dest = 1};
	struct role_player *pl;

	memset(&q, 0, sizeof(q));
	cr_assert_eq(role_player_new(&pc, &pl), 0);
	cr_assert_eq(role_player_advance(pl, INT64_MAX, collect, &q), 0);
	role_player_free(pl);
	for (size_t i = 0; i < q.n && !next; i++) {
		if (q.u[i].entity != 1)
			continue;
		if (lost)
			next = i;
		else if (wire_of(&q.u[i]).flags & HSM_FLAG_SWITCHED)
			lost = i;
		else
			prev = i;
	}
	cr_assert(lost && next, "no switch datagram to drop");
	for (int drop = 0; drop < 2; drop++) {
		struct role_observer_cfg oc = {.truth = &tr,
					       .lanes = &par,
					       .n_lanes = 1,
					       .threshold = 10,
					       .on_frame = on_frame,
					       .frame_arg = &fr};
		struct role_observer *ob;
		struct role_metrics m;

		memset(&fr, 0, sizeof(fr));
		cr_assert_eq(role_observer_new(&oc, &ob), 0);
		for (size_t i = 0; i < q.n; i++)
			if (!(drop && i == lost))
				cr_assert_eq(
					role_observer_recv(ob, 0, q.u[i].t_ns,
							   q.buf[i], q.len[i]),
					0);
		cr_assert_eq(role_observer_frame(ob, INT64_MAX), 0);
		for (size_t r = 0; r < role_observer_rows(ob); r++) {
			cr_assert_eq(role_observer_metrics(ob, r, &m), 0);
			if (m.entity == 1)
				cr_assert_eq(m.stale_model, (uint64_t)drop);
			else
				cr_assert_eq(m.stale_model, 0);
		}
		role_observer_free(ob);
		if (!drop)
			continue;
		size_t checked = 0;

		for (size_t k = 0; k < fr.n; k++) {
			const struct predict_update *u = &q.u[prev];
			double p[3], v[3];

			if (fr.t[k] < q.u[lost].t_ns ||
			    fr.t[k] >= q.u[next].t_ns)
				continue;
			hsm_predict(HSM_DR, u->pos, u->vel, NULL, NULL, 0,
				    (double)(fr.t[k] - u->t_ns) * 1e-9, p, v);
			cr_assert_float_eq(fr.shown[k][0], p[0], 1e-6);
			cr_assert_float_eq(fr.shown[k][1], p[1], 1e-6);
			checked++;
		}
		cr_assert_gt(checked, 0);
	}
	role_truth_free(&tr);
	trace_free(&t);
}

Test(dhsm, dr_alone_is_dis_fpw_snap)
{
	/* models=dr is the paper's DR baseline: on the pursuit it sends at
	 * the same ticks as dis fpw with snap convergence and no orientation
	 * threshold, and its receiver shows the same errors */
	const char *kv[] = {"tau=10", "models=dr", NULL};
	struct predict_params a, b;
	struct trace t;
	struct replay_opts o;
	struct replay_set set;
	struct predict_ctx ctx;
	struct replay_result ra, rb;
	double *ea, *eb;

	params(&a, kv);
	cr_assert_eq(predict_params_init(&b, predict_find("dis")), 0);
	cr_assert_eq(predict_params_set_kv(&b, "algorithm=fpw"), 0);
	cr_assert_eq(predict_params_set_kv(&b, "convergence=snap"), 0);
	cr_assert_eq(predict_params_set_kv(&b, "orient_threshold=0"), 0);
	cr_assert_eq(predict_params_set_kv(&b, "pos_threshold=10"), 0);
	pursuit_trace(&t);
	replay_opts_init(&o);
	cr_assert_eq(replay_set_build(&t, &o, &set), 0);
	predict_ctx_init(&ctx);
	ea = malloc(set.path[1].n * sizeof(*ea));
	eb = malloc(set.path[1].n * sizeof(*eb));
	cr_assert(ea && eb);
	cr_assert_eq(replay_run_path(&a, &ctx, &set.path[1], TICK_NS, ea, &ra),
		     0);
	cr_assert_eq(replay_run_path(&b, &ctx, &set.path[1], TICK_NS, eb, &rb),
		     0);
	cr_assert_gt(ra.updates, 5);
	cr_assert_eq(ra.updates, rb.updates);
	for (size_t k = 0; k < set.path[1].n; k++)
		cr_assert_float_eq(ea[k], eb[k], 1e-9, "tick %zu", k);
	free(ea);
	free(eb);
	replay_set_free(&set);
	trace_free(&t);
}

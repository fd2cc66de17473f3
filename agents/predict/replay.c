/*
 * replay.c: the zero-latency replay loop of Steele's experiment (paper
 * 000 §VI-A, Algorithm 1): cut a trace into paths, build team trend maps
 * with leave-one-out, and for each path feed every tick's true state to a
 * sender, hand each update to a receiver in the same tick, and sample the
 * distance between the displayed and the true position. Pure.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "predict/replay.h"
#include "util.h"
#include "predict/vec3.h"
#include "world/geom.h"

void replay_opts_init(struct replay_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->jump = 100.0;
	o->min_duration = 5.0;
	o->trend_nx = 100;
	o->trend_ny = 100;
	o->team_filter = 1;
	o->leave_one_out = 1;
}

static int cmp_entity_time(const void *a, const void *b)
{
	const struct trace_sample *x = a, *y = b;

	if (x->entity != y->entity)
		return x->entity < y->entity ? -1 : 1;
	if (x->t_ns != y->t_ns)
		return x->t_ns < y->t_ns ? -1 : 1;
	return 0;
}

static int sample_ok(const struct trace_sample *s)
{
	return isfinite(s->x) && isfinite(s->y) && isfinite(s->z) &&
	       isfinite(s->vx) && isfinite(s->vy) && isfinite(s->vz) &&
	       isfinite(s->yaw);
}

static int cmp_time_idx(const void *a, const void *b, void *arg)
{
	const struct trace_sample *buf = arg;
	const struct trace_sample *x = &buf[*(const size_t *)a];
	const struct trace_sample *y = &buf[*(const size_t *)b];

	if (x->t_ns != y->t_ns)
		return x->t_ns < y->t_ns ? -1 : 1;
	return x->entity < y->entity ? -1 : x->entity > y->entity;
}

static int is_foe(const struct trace_sample *a, const struct trace_sample *b)
{
	return a->entity != b->entity && (a->team == 0 || a->team != b->team);
}

/* Goals of the samples idx[0..n) of one tick: nearest foe of each. */
static void goals_of_tick(const struct trace_sample *buf, const size_t *idx,
			  size_t n, uint32_t *goal)
{
	for (size_t i = 0; i < n; i++) {
		const struct trace_sample *a = &buf[idx[i]];
		double best = INFINITY;

		goal[idx[i]] = REPLAY_NO_GOAL;
		for (size_t j = 0; j < n; j++) {
			const struct trace_sample *b = &buf[idx[j]];
			double d = hypot(hypot(b->x - a->x, b->y - a->y),
					 b->z - a->z);

			if (is_foe(a, b) && d < best) {
				best = d;
				goal[idx[i]] = (uint32_t)idx[j];
			}
		}
	}
}

static int goals_build(const struct trace_sample *buf, size_t m, uint32_t *goal)
{
	size_t *idx = malloc((m ? m : 1) * sizeof(*idx));

	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < m; i++)
		idx[i] = i;
	qsort_r(idx, m, sizeof(*idx), cmp_time_idx, (void *)buf);
	for (size_t a = 0, b; a < m; a = b) {
		for (b = a + 1; b < m && buf[idx[b]].t_ns == buf[idx[a]].t_ns;)
			b++;
		goals_of_tick(buf, idx + a, b - a, goal);
	}
	free(idx);
	return 0;
}

int replay_path_goal(const struct replay_path *p, size_t k, double pos[3],
		     double vel[3])
{
	const struct trace_sample *g;

	if (!p->goal || k >= p->n || p->goal[k] == REPLAY_NO_GOAL)
		return 0;
	g = &p->base[p->goal[k]];
	v3_set(pos, g->x, g->y, g->z);
	v3_set(vel, g->vx, g->vy, g->vz);
	return 1;
}

int replay_set_build(const struct trace *t, const struct replay_opts *o,
		     struct replay_set *out)
{
	struct replay_set set;
	size_t start, cap = 16;

	if (!t || !o || !out || t->tick_ns <= 0 || o->jump <= 0)
		return -EINVAL;
	if (t->n >= REPLAY_NO_GOAL) /* goals are 32-bit sample indices */
		return -E2BIG;
	memset(&set, 0, sizeof(set));
	set.tick_ns = t->tick_ns;
	set.buf = malloc((t->n ? t->n : 1) * sizeof(*set.buf));
	set.path = malloc(cap * sizeof(*set.path));
	set.goal = malloc((t->n ? t->n : 1) * sizeof(*set.goal));
	if (!set.buf || !set.path || !set.goal) {
		replay_set_free(&set);
		return -ENOMEM;
	}
	/* keep the living, finite samples; order by entity, then time */
	size_t m = 0;

	for (size_t i = 0; i < t->n; i++) {
		if (!t->s[i].alive || !sample_ok(&t->s[i])) {
			set.dropped_dead++;
			continue;
		}
		set.buf[m++] = t->s[i];
	}
	qsort(set.buf, m, sizeof(*set.buf), cmp_entity_time);
	if (goals_build(set.buf, m, set.goal)) {
		replay_set_free(&set);
		return -ENOMEM;
	}
	set.lo[0] = set.lo[1] = INFINITY;
	set.hi[0] = set.hi[1] = -INFINITY;
	for (size_t i = 0; i < m; i++) {
		set.lo[0] = fmin(set.lo[0], set.buf[i].x);
		set.lo[1] = fmin(set.lo[1], set.buf[i].y);
		set.hi[0] = fmax(set.hi[0], set.buf[i].x);
		set.hi[1] = fmax(set.hi[1], set.buf[i].y);
	}
	for (start = 0; start < m;) {
		size_t end = start + 1;

		while (end < m) {
			const struct trace_sample *a = &set.buf[end - 1];
			const struct trace_sample *b = &set.buf[end];
			double d = hypot(hypot(b->x - a->x, b->y - a->y),
					 b->z - a->z);

			/* new entity, a missing tick, or a teleport */
			if (b->entity != a->entity ||
			    b->t_ns - a->t_ns > t->tick_ns + t->tick_ns / 2 ||
			    d > o->jump)
				break;
			end++;
		}
		if ((double)(end - start) * (double)t->tick_ns * 1e-9 <
		    o->min_duration) {
			set.dropped_short++;
		} else {
			if (set.n_paths == cap) {
				struct replay_path *np;

				cap *= 2;
				np = realloc(set.path, cap * sizeof(*np));
				if (!np) {
					replay_set_free(&set);
					return -ENOMEM;
				}
				set.path = np;
			}
			set.path[set.n_paths++] = (struct replay_path){
				.s = &set.buf[start],
				.n = end - start,
				.entity = set.buf[start].entity,
				.team = set.buf[start].team,
				.goal = set.goal + start,
				.base = set.buf,
			};
		}
		start = end;
	}
	*out = set;
	return 0;
}

void replay_set_free(struct replay_set *set)
{
	if (!set)
		return;
	free(set->buf);
	free(set->goal);
	free(set->path);
	memset(set, 0, sizeof(*set));
}

void replay_state_at(const struct replay_path *p, size_t k,
		     struct predict_state *out)
{
	const struct trace_sample *s = &p->s[k];
	struct predict_state x;

	memset(&x, 0, sizeof(x));
	x.t_ns = s->t_ns;
	x.entity = s->entity;
	x.team = s->team;
	v3_set(x.pos, s->x, s->y, s->z);
	v3_set(x.vel, s->vx, s->vy, s->vz);
	x.ori[0] = angle_wrap(s->yaw * M_PI / 180.0);
	x.health = s->health;
	x.armor = s->armor;
	x.ammo = s->ammo;
	if (k > 0) {
		const struct trace_sample *q = &p->s[k - 1];
		double dt = (double)(s->t_ns - q->t_ns) * 1e-9;

		if (dt > 0) {
			v3_set(x.acc, (s->vx - q->vx) / dt,
			       (s->vy - q->vy) / dt, (s->vz - q->vz) / dt);
			x.angvel[2] =
				angle_wrap((s->yaw - q->yaw) * M_PI / 180.0) /
				dt;
		}
	}
	*out = x;
}

int replay_trend_path(struct predict_trend *m, const struct replay_path *p,
		      int sign)
{
	int err;

	for (size_t k = 0; k < p->n; k++) {
		err = predict_trend_add(m, p->s[k].x, p->s[k].y, p->s[k].vx,
					p->s[k].vy, sign);
		if (err)
			return err;
	}
	return 0;
}

int replay_trend_build(const struct replay_set *set, int team,
		       const struct replay_opts *o, struct predict_trend *out)
{
	struct predict_trend m;
	double lo[2], hi[2];
	int err;

	if (!set || !o || !out)
		return -EINVAL;
	if (set->n_paths == 0)
		return -ENOENT;
	/* a degenerate box (all on one line) still needs an extent */
	for (int i = 0; i < 2; i++) {
		lo[i] = set->lo[i];
		hi[i] = set->hi[i] > set->lo[i] ? set->hi[i] : set->lo[i] + 1.0;
	}
	err = predict_trend_init(&m, lo[0], lo[1], hi[0], hi[1], o->trend_nx,
				 o->trend_ny);
	if (err)
		return err;
	for (size_t i = 0; i < set->n_paths; i++) {
		if (team >= 0 && set->path[i].team != team)
			continue;
		err = replay_trend_path(&m, &set->path[i], 1);
		if (err) {
			predict_trend_free(&m);
			return err;
		}
	}
	*out = m;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void replay_error_summary(double *v, size_t n, double *mean, double *p95,
			  double *max)
{
	double s = 0;
	size_t r;

	if (n == 0) {
		*mean = *p95 = *max = 0;
		return;
	}
	for (size_t i = 0; i < n; i++)
		s += v[i];
	qsort(v, n, sizeof(*v), cmp_double);
	r = (size_t)ceil(0.95 * (double)n);
	*mean = s / (double)n;
	*p95 = v[r > 0 ? r - 1 : 0];
	*max = v[n - 1];
}

int replay_run_path(const struct predict_params *par,
		    const struct predict_ctx *ctx, const struct replay_path *p,
		    int64_t tick_ns, double *err, struct replay_result *out)
{
	struct predict_sender *snd = NULL;
	struct predict_receiver *rcv = NULL;
	struct predict_ctx sctx;
	struct replay_result r;
	double *e = err, sum = 0, sum_xy = 0, gpos[3], gvel[3];
	int rc, prev = 0;

	if (!par || !ctx || !p || !out || p->n == 0 || tick_ns <= 0)
		return -EINVAL;
	sctx = *ctx; /* the sender's, with each tick's goal */
	if (!e) {
		e = malloc(p->n * sizeof(*e));
		if (!e)
			return -ENOMEM;
	}
	memset(&r, 0, sizeof(r));
	rc = predict_sender_new(par, &snd);
	if (!rc)
		rc = predict_receiver_new(par, &rcv);
	for (size_t k = 0; !rc && k < p->n; k++) {
		struct predict_state x;
		struct predict_update u;
		struct predict_display d;

		replay_state_at(p, k, &x);
		if (p->goal) {
			int have = replay_path_goal(p, k, gpos, gvel);

			sctx.goal = have ? gpos : NULL;
			sctx.goal_vel = have ? gvel : NULL;
		}
		rc = predict_sender_tick(snd, &sctx, &x, &u);
		if (rc < 0)
			break;
		int sent = rc == 1 && u.reason != PREDICT_REASON_INIT;

		if (rc == 1) {
			r.by_reason[u.reason]++;
			if (sent) {
				r.updates++;
				r.back_to_back += prev;
			}
			/* zero latency: it arrives in the tick it is sent */
			rc = predict_receiver_update(rcv, ctx, &u, x.t_ns);
			if (rc < 0)
				break;
		}
		prev = sent;
		rc = predict_receiver_display(rcv, ctx, x.t_ns, &d);
		if (rc < 0)
			break;
		e[k] = v3_dist(d.pos, x.pos);
		sum += e[k];
		sum_xy += hypot(d.pos[0] - x.pos[0], d.pos[1] - x.pos[1]);
		r.ticks++;
	}
	predict_sender_free(snd);
	predict_receiver_free(rcv);
	if (!rc) {
		double mean;

		r.duration = (double)p->n * (double)tick_ns * 1e-9;
		r.err_xy_mean = sum_xy / (double)p->n;
		if (err) {
			r.err_mean = sum / (double)p->n;
			/* summarize a copy: the caller keeps tick order */
			double *c = malloc(p->n * sizeof(*c));

			if (!c)
				return -ENOMEM;
			memcpy(c, e, p->n * sizeof(*c));
			replay_error_summary(c, p->n, &mean, &r.err_p95,
					     &r.err_max);
			free(c);
		} else {
			replay_error_summary(e, p->n, &r.err_mean, &r.err_p95,
					     &r.err_max);
		}
		*out = r;
	}
	if (!err)
		free(e);
	return rc;
}

/* Per-team trend maps of a set (team_filter) or one map of all teams. */
struct team_maps {
	struct predict_trend m[256];
	int have[256];
};

static int maps_build(struct team_maps *tm, const struct replay_set *set,
		      const struct replay_opts *o)
{
	int err;

	memset(tm, 0, sizeof(*tm));
	for (size_t i = 0; i < set->n_paths; i++) {
		int team = o->team_filter ? set->path[i].team : 0;

		if (tm->have[team])
			continue;
		err = replay_trend_build(set, o->team_filter ? team : -1, o,
					 &tm->m[team]);
		if (err)
			return err;
		tm->have[team] = 1;
	}
	return 0;
}

static void maps_free(struct team_maps *tm)
{
	for (int i = 0; i < 256; i++)
		if (tm->have[i])
			predict_trend_free(&tm->m[i]);
}

/* Run path i with its leave-one-out trend map. */
static int run_subject(struct team_maps *tm, const struct replay_set *set,
		       const struct replay_opts *o, size_t i,
		       const struct predict_params *par, double *errs,
		       struct replay_result *res)
{
	const struct replay_path *p = &set->path[i];
	struct predict_trend *m = &tm->m[o->team_filter ? p->team : 0];
	struct predict_ctx ctx;
	int err, rc;

	predict_ctx_init(&ctx);
	ctx.map.lo[0] = set->lo[0];
	ctx.map.lo[1] = set->lo[1];
	ctx.map.hi[0] = set->hi[0];
	ctx.map.hi[1] = set->hi[1];
	ctx.trend = m;
	ctx.map.world = o->world;
	ctx.map.los = o->world ? geom_los_view : NULL;
	if (o->leave_one_out) {
		err = replay_trend_path(m, p, -1);
		if (err)
			return err;
	}
	rc = replay_run_path(par, &ctx, p, set->tick_ns, errs, res);
	if (o->leave_one_out) {
		err = replay_trend_path(m, p, 1);
		if (err && !rc)
			rc = err;
	}
	return rc;
}

int replay_run_set(const struct replay_set *set, const struct replay_opts *o,
		   const struct predict_params *par, struct replay_result *res,
		   double *errs)
{
	struct team_maps *tm;
	size_t off = 0;
	int err;

	if (!set || !o || !par || !res)
		return -EINVAL;
	tm = malloc(sizeof(*tm));
	if (!tm)
		return -ENOMEM;
	err = maps_build(tm, set, o);
	for (size_t i = 0; !err && i < set->n_paths; i++) {
		err = run_subject(tm, set, o, i, par, errs ? errs + off : NULL,
				  &res[i]);
		off += set->path[i].n;
	}
	maps_free(tm);
	free(tm);
	return err;
}

void replay_experiment_free(struct replay_experiment *e)
{
	if (!e)
		return;
	free(e->subject);
	free(e->ups_a);
	free(e->ups_b);
	free(e->err_a);
	free(e->err_b);
	memset(e, 0, sizeof(*e));
}

int replay_experiment_run(const struct replay_set *set,
			  const struct replay_opts *o,
			  const struct predict_params *a,
			  const struct predict_params *b, uint64_t seed,
			  size_t subjects, struct replay_experiment *out)
{
	struct replay_experiment e;
	struct team_maps *tm = NULL;
	size_t *idx = NULL, n;
	uint64_t rng = seed;
	int err = 0;

	if (!set || !o || !a || !b || !out || subjects == 0)
		return -EINVAL;
	if (set->n_paths == 0)
		return -ENOENT;
	n = subjects < set->n_paths ? subjects : set->n_paths;
	memset(&e, 0, sizeof(e));
	e.n = n;
	e.subject = malloc(n * sizeof(*e.subject));
	e.ups_a = malloc(n * sizeof(double));
	e.ups_b = malloc(n * sizeof(double));
	e.err_a = malloc(n * sizeof(double));
	e.err_b = malloc(n * sizeof(double));
	idx = malloc(set->n_paths * sizeof(*idx));
	tm = malloc(sizeof(*tm));
	if (!e.subject || !e.ups_a || !e.ups_b || !e.err_a || !e.err_b ||
	    !idx || !tm) {
		err = -ENOMEM;
		goto out;
	}
	/* distinct subjects: a partial Fisher-Yates shuffle (A17) */
	for (size_t i = 0; i < set->n_paths; i++)
		idx[i] = i;
	for (size_t i = 0; i < n; i++) {
		size_t j = i + (size_t)(splitmix64(&rng) %
					(uint64_t)(set->n_paths - i));
		size_t t = idx[i];

		idx[i] = idx[j];
		idx[j] = t;
		e.subject[i] = idx[i];
	}
	err = maps_build(tm, set, o);
	for (size_t i = 0; !err && i < n; i++) {
		struct replay_result ra, rb;

		err = run_subject(tm, set, o, e.subject[i], a, NULL, &ra);
		if (!err)
			err = run_subject(tm, set, o, e.subject[i], b, NULL,
					  &rb);
		if (err)
			break;
		e.ups_a[i] = (double)ra.updates / ra.duration;
		e.ups_b[i] = (double)rb.updates / rb.duration;
		e.err_a[i] = ra.err_mean;
		e.err_b[i] = rb.err_mean;
	}
	if (tm)
		maps_free(tm);
out:
	free(tm);
	free(idx);
	if (err)
		replay_experiment_free(&e);
	else
		*out = e;
	return err;
}

/*
 * replay_lag.c: replay of a whole trace at a fixed network lag (see
 * replay.h), for paper 003's evaluation (§4.5-4.6: at every tick and for
 * every player, predict at a fixed lag from the last known state; AEE of
 * eq. 19, hits within a threshold) and for ours (threshold-triggered
 * updates delayed by the lag, the displayed error every frame, updates
 * and bytes per second). One global clock steps through the trace tick
 * by tick: senders send, messages whose arrival time has come are
 * delivered (in send order per entity) into the table of last received
 * states that every context's peers point at and into the entity's
 * receiver, and receivers are scored against the truth. Nothing but the
 * delivered messages reaches a predictor about another entity. Pure.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "predict/ekb.h"
#include "predict/replay.h"
#include "predict/vec3.h"

struct lag_msg {
	int64_t arrive;
	struct predict_update u;
	int16_t health, armor, ammo;
	uint8_t alive;
};

struct lag_lane {
	const struct replay_path *p;
	size_t ent;    /* index into the peer table */
	size_t cursor; /* next sample to play */
	struct predict_sender *snd;
	struct predict_receiver *rcv;
	int rcv_started, ended;
	struct lag_msg *q; /* FIFO ring */
	size_t cap, head, n;
};

struct lag_run {
	const struct replay_set *set;
	const struct replay_lag_opts *o;
	const struct predict_params *par;
	struct lag_lane *lane;
	struct predict_peer *peer;
	size_t n_ent;
	struct predict_ctx ctx;
	double *err;
	size_t n_err;
	struct replay_lag_result r;
};

void replay_lag_opts_init(struct replay_lag_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->lag_ns = 300000000;
	o->every_tick = 1;
	o->hit_threshold = 32;
	o->stride = 1;
	o->update_bytes = 160;
}

static int push(struct lag_lane *l, const struct lag_msg *m)
{
	if (l->n == l->cap) {
		size_t nc = l->cap ? 2 * l->cap : 64;
		struct lag_msg *q = malloc(nc * sizeof(*q));

		if (!q)
			return -ENOMEM;
		for (size_t i = 0; i < l->n; i++)
			q[i] = l->q[(l->head + i) % l->cap];
		free(l->q);
		l->q = q;
		l->cap = nc;
		l->head = 0;
	}
	l->q[(l->head + l->n) % l->cap] = *m;
	l->n++;
	return 0;
}

/* The lanes (one per path) and the peer table (one per entity). */
static int setup(struct lag_run *w)
{
	const struct replay_set *set = w->set;

	w->lane = calloc(set->n_paths + 1, sizeof(*w->lane));
	w->peer = calloc(set->n_paths + 1, sizeof(*w->peer));
	w->err = malloc(sizeof(*w->err)); /* grows at powers of two */
	if (!w->lane || !w->peer || !w->err)
		return -ENOMEM;
	for (size_t i = 0; i < set->n_paths; i++) {
		const struct replay_path *p = &set->path[i];

		if (w->n_ent == 0 || w->peer[w->n_ent - 1].entity != p->entity)
			w->peer[w->n_ent++].entity = p->entity;
		w->lane[i].p = p;
		w->lane[i].ent = w->n_ent - 1;
		w->r.duration += (double)p->n * (double)set->tick_ns * 1e-9;
	}
	predict_ctx_init(&w->ctx);
	w->ctx.map.lo[0] = set->lo[0];
	w->ctx.map.lo[1] = set->lo[1];
	w->ctx.map.hi[0] = set->hi[0];
	w->ctx.map.hi[1] = set->hi[1];
	w->ctx.map.world = w->o->world;
	w->ctx.peers = w->peer;
	w->ctx.n_peers = w->n_ent;
	return 0;
}

static void teardown(struct lag_run *w)
{
	for (size_t i = 0; w->lane && i < w->set->n_paths; i++) {
		predict_sender_free(w->lane[i].snd);
		predict_receiver_free(w->lane[i].rcv);
		free(w->lane[i].q);
	}
	free(w->lane);
	free(w->peer);
	free(w->err);
}

static int add_err(struct lag_run *w, double e)
{
	if ((w->n_err & (w->n_err - 1)) == 0 && w->n_err) {
		double *ne = realloc(w->err, 2 * w->n_err * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		w->err = ne;
	}
	w->err[w->n_err++] = e;
	w->r.n++;
	w->r.hits += e <= w->o->hit_threshold;
	return 0;
}

/* The paper's update: the whole state, every tick. */
static void full_update(const struct predict_state *x, int first,
			struct predict_update *u)
{
	memset(u, 0, sizeof(*u));
	u->t_ns = x->t_ns;
	u->entity = x->entity;
	u->team = x->team;
	u->drm = PREDICT_DRM_FPW;
	u->reason = first ? PREDICT_REASON_INIT : PREDICT_REASON_POSITION;
	v3_copy(u->pos, x->pos);
	v3_copy(u->vel, x->vel);
	v3_copy(u->acc, x->acc);
	v3_copy(u->ori, x->ori);
	v3_copy(u->angvel, x->angvel);
	ekb_blob_put(u, x->health, x->ammo);
}

/* Lane l plays sample l->cursor: send (maybe), queue for lag. */
static int send_step(struct lag_run *w, struct lag_lane *l)
{
	struct predict_state x;
	struct lag_msg m;
	int rc;

	replay_state_at(l->p, l->cursor, &x);
	memset(&m, 0, sizeof(m));
	if (w->o->every_tick) {
		full_update(&x, l->cursor == 0, &m.u);
		rc = 1;
	} else {
		if (!l->snd && (rc = predict_sender_new(w->par, &l->snd)))
			return rc;
		rc = predict_sender_tick(l->snd, &w->ctx, &x, &m.u);
		if (rc < 0)
			return rc;
	}
	if (rc == 0)
		return 0;
	if (m.u.reason != PREDICT_REASON_INIT)
		w->r.updates++;
	m.arrive = x.t_ns + w->o->lag_ns;
	m.health = x.health;
	m.armor = x.armor;
	m.ammo = x.ammo;
	m.alive = 1;
	return push(l, &m);
}

/* Deliver lane l's messages that have arrived by t. */
static int deliver(struct lag_run *w, struct lag_lane *l, int64_t t)
{
	while (l->n && l->q[l->head].arrive <= t) {
		const struct lag_msg *m = &l->q[l->head];
		struct predict_peer *q = &w->peer[l->ent];
		int rc;

		q->team = m->u.team;
		q->alive = m->alive;
		q->t_ns = m->u.t_ns;
		v3_copy(q->pos, m->u.pos);
		v3_copy(q->vel, m->u.vel);
		q->health = m->health;
		q->armor = m->armor;
		q->ammo = m->ammo;
		if (m->alive) {
			if (!l->rcv &&
			    (rc = predict_receiver_new(w->par, &l->rcv)))
				return rc;
			rc = predict_receiver_update(l->rcv, &w->ctx, &m->u, t);
			if (rc < 0 && rc != -ESTALE)
				return rc;
			l->rcv_started = 1;
		}
		l->head = (l->head + 1) % l->cap;
		l->n--;
	}
	return 0;
}

/* Score lane l's receiver at the sample just played (index k). */
static int score(struct lag_run *w, struct lag_lane *l, size_t k)
{
	const struct trace_sample *s = &l->p->s[k];
	struct predict_display d;
	int rc;

	if (w->o->every_tick) {
		if (s->t_ns - w->o->lag_ns < l->p->s[0].t_ns ||
		    !l->rcv_started) {
			w->r.skipped++;
			return 0;
		}
		if (k % w->o->stride)
			return 0;
	} else if (!l->rcv_started) {
		w->r.skipped++;
		return 0;
	}
	rc = predict_receiver_display(l->rcv, &w->ctx, s->t_ns, &d);
	if (rc)
		return rc;
	if (w->o->on_display)
		w->o->on_display(w->o->arg, l->p->entity, s->t_ns, d.pos);
	return add_err(w, hypot(d.pos[0] - s->x, d.pos[1] - s->y));
}

/* Path end: a tombstone tells the others the entity is gone. */
static int end_lane(struct lag_run *w, struct lag_lane *l)
{
	struct lag_msg m;

	memset(&m, 0, sizeof(m));
	m.u = (struct predict_update){.entity = l->p->entity,
				      .team = l->p->team};
	m.u.t_ns = l->p->s[l->p->n - 1].t_ns + w->set->tick_ns;
	m.arrive = m.u.t_ns + w->o->lag_ns;
	l->ended = 1;
	return push(l, &m);
}

static int tick(struct lag_run *w, int64_t t)
{
	int64_t half = w->set->tick_ns / 2;
	int rc = 0;

	for (size_t i = 0; !rc && i < w->set->n_paths; i++) {
		struct lag_lane *l = &w->lane[i];

		if (l->cursor < l->p->n && l->p->s[l->cursor].t_ns <= t + half)
			rc = send_step(w, l);
	}
	for (size_t i = 0; !rc && i < w->set->n_paths; i++)
		rc = deliver(w, &w->lane[i], t);
	for (size_t i = 0; !rc && i < w->set->n_paths; i++) {
		struct lag_lane *l = &w->lane[i];

		if (l->cursor < l->p->n &&
		    l->p->s[l->cursor].t_ns <= t + half) {
			rc = score(w, l, l->cursor);
			if (!rc && ++l->cursor == l->p->n)
				rc = end_lane(w, l);
		}
	}
	return rc;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void summarise(struct lag_run *w)
{
	struct replay_lag_result *r = &w->r;
	double sum = 0;
	size_t n = w->n_err;

	r->lag_ns = w->o->lag_ns;
	if (r->duration > 0) {
		r->updates_per_s = (double)r->updates / r->duration;
		r->bytes_per_s = r->updates_per_s * (double)w->o->update_bytes;
	}
	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++)
		sum += w->err[i];
	r->aee = sum / (double)n;
	qsort(w->err, n, sizeof(*w->err), cmp_double);
	r->median = n % 2 ? w->err[n / 2]
			  : 0.5 * (w->err[n / 2 - 1] + w->err[n / 2]);
	r->p95 = w->err[(size_t)ceil(0.95 * (double)n) - 1];
	r->max = w->err[n - 1];
}

int replay_lag_run(const struct replay_set *set,
		   const struct replay_lag_opts *o,
		   const struct predict_params *par,
		   struct replay_lag_result *out)
{
	struct lag_run w;
	int64_t t0 = INT64_MAX, t1 = INT64_MIN;
	int rc;

	if (!set || !o || !par || !par->p || !out || o->lag_ns < 0 ||
	    o->stride == 0 || set->tick_ns <= 0)
		return -EINVAL;
	memset(&w, 0, sizeof(w));
	w.set = set;
	w.o = o;
	w.par = par;
	rc = setup(&w);
	for (size_t i = 0; i < set->n_paths; i++) {
		const struct replay_path *p = &set->path[i];

		t0 = p->s[0].t_ns < t0 ? p->s[0].t_ns : t0;
		t1 = p->s[p->n - 1].t_ns > t1 ? p->s[p->n - 1].t_ns : t1;
	}
	for (int64_t t = t0; !rc && set->n_paths && t <= t1; t += set->tick_ns)
		rc = tick(&w, t);
	if (!rc) {
		summarise(&w);
		*out = w.r;
	}
	teardown(&w);
	return rc;
}

int replay_set_teams(const struct replay_set *set)
{
	uint8_t seen[256] = {0};
	int n = 0;

	for (size_t i = 0; set && i < set->n_paths; i++) {
		uint8_t t = set->path[i].team;

		if (t && !seen[t]) {
			seen[t] = 1;
			n++;
		}
	}
	return n;
}

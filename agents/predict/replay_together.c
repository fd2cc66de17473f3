/*
 * replay_together.c: the multi-entity replay (replay.h,
 * replay_run_together). All paths of a trace run at once on one clock so
 * that each sender and receiver sees, in ctx.peers, every other entity's
 * last applied update as received and, in ctx.items, the map's items as
 * last known (agents/predict/peers.h), never the other entities' truth.
 * Zero latency as in replay_run_path; an update can be muted (lost) to
 * show that nothing downstream of a lost update depends on the truth.
 * Pure.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "predict/peers.h"
#include "predict/replay.h"
#include "predict/vec3.h"

struct lane {
	struct predict_sender *snd;
	struct predict_receiver *rcv;
	size_t k;
	double *e;
	double sum, sum_xy;
	int prev, has_upd, started;
	int64_t newest;
	struct predict_state x; /* truth at the current sample */
	struct predict_update u;
	struct replay_result r;
};

struct together {
	const struct replay_set *set;
	const struct replay_world *w;
	const struct predict_params *par;
	struct predict_peerbook book;
	struct predict_ctx base;
	struct lane *l;
	size_t *order; /* paths by first sample time, then index */
	size_t pend;   /* next of order to start */
	size_t *act;   /* running paths, in start order */
	size_t n_act;
};

static int64_t first_t(const struct together *g, size_t i)
{
	return g->set->path[i].s[0].t_ns;
}

static int64_t next_time(const struct together *g)
{
	int64_t t = INT64_MAX;

	if (g->pend < g->set->n_paths)
		t = first_t(g, g->order[g->pend]);
	for (size_t a = 0; a < g->n_act; a++) {
		const struct lane *l = &g->l[g->act[a]];
		int64_t ti = g->set->path[g->act[a]].s[l->k].t_ns;

		if (ti < t)
			t = ti;
	}
	return t;
}

static int due(const struct together *g, size_t i, int64_t t)
{
	const struct replay_path *p = &g->set->path[i];

	return g->l[i].k < p->n && p->s[g->l[i].k].t_ns == t;
}

/* Start the paths whose first sample is at t. */
static void start_due(struct together *g, int64_t t)
{
	while (g->pend < g->set->n_paths && first_t(g, g->order[g->pend]) == t)
		g->act[g->n_act++] = g->order[g->pend++];
}

/* Drop finished paths, keeping the others' order. */
static void drop_done(struct together *g)
{
	size_t m = 0;

	for (size_t a = 0; a < g->n_act; a++)
		if (g->l[g->act[a]].k < g->set->path[g->act[a]].n)
			g->act[m++] = g->act[a];
	g->n_act = m;
}

struct start {
	int64_t t;
	size_t i;
};

static int cmp_start(const void *a, const void *b)
{
	const struct start *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* order: the paths by first sample time, then index. */
static int sort_starts(struct together *g)
{
	size_t n = g->set->n_paths;
	struct start *st = malloc((n ? n : 1) * sizeof(*st));

	if (!st)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		st[i] = (struct start){.t = first_t(g, i), .i = i};
	qsort(st, n, sizeof(*st), cmp_start);
	for (size_t i = 0; i < n; i++)
		g->order[i] = st[i].i;
	free(st);
	return 0;
}

static int lane_ctx(struct together *g, size_t i, struct predict_ctx *ctx)
{
	*ctx = g->base;
	predict_peerbook_ctx(&g->book, g->set->path[i].entity, ctx);
	return 0;
}

/* (1): the sender of path i at its sample k. */
static int send_phase(struct together *g, size_t i)
{
	struct lane *l = &g->l[i];
	struct predict_ctx ctx;
	int rc;

	if (!l->started) {
		rc = predict_sender_new(g->par, &l->snd);
		if (!rc)
			rc = predict_receiver_new(g->par, &l->rcv);
		if (rc)
			return rc;
		l->started = 1;
	}
	replay_state_at(&g->set->path[i], l->k, &l->x);
	lane_ctx(g, i, &ctx);
	rc = predict_sender_tick(l->snd, &ctx, &l->x, &l->u);
	if (rc < 0)
		return rc;
	l->has_upd = rc == 1;
	if (l->has_upd) {
		int sent = l->u.reason != PREDICT_REASON_INIT;

		l->r.by_reason[l->u.reason]++;
		if (sent) {
			l->r.updates++;
			l->r.back_to_back += l->prev;
		}
		l->prev = sent;
		if (g->w->mute && l->u.entity == g->w->mute_entity &&
		    l->u.t_ns > g->w->mute_after_ns)
			l->has_upd = 0; /* lost */
	} else {
		l->prev = 0;
	}
	return 0;
}

/* (3) and (4): receive, then sample the display. */
static int show_phase(struct together *g, size_t i, int64_t t)
{
	const struct replay_path *p = &g->set->path[i];
	struct lane *l = &g->l[i];
	const struct predict_state *x = &l->x;
	struct predict_display d;
	struct predict_ctx ctx;
	int rc;

	lane_ctx(g, i, &ctx);
	if (l->has_upd) {
		rc = predict_receiver_update(l->rcv, &ctx, &l->u, t);
		if (rc < 0)
			return rc;
		l->newest = l->u.t_ns;
	}
	rc = predict_receiver_display(l->rcv, &ctx, t, &d);
	if (rc == -EAGAIN) {
		l->e[l->k] = 0;
		l->r.blind++;
	} else if (rc < 0) {
		return rc;
	} else {
		l->e[l->k] = v3_dist(d.pos, x->pos);
		l->sum += l->e[l->k];
		l->sum_xy += hypot(d.pos[0] - x->pos[0], d.pos[1] - x->pos[1]);
		l->r.ticks++;
		if (g->w->on_tick) {
			struct replay_tick k = {
				.path = i,
				.entity = p->entity,
				.t_ns = t,
				.since_ns = t - l->newest,
			};

			v3_copy(k.shown, d.pos);
			v3_copy(k.truth, x->pos);
			g->w->on_tick(g->w->arg, &k);
		}
	}
	return 0;
}

static int step(struct together *g, int64_t t)
{
	int rc;

	start_due(g, t);
	predict_peerbook_items_at(&g->book, t);
	for (size_t a = 0; a < g->n_act; a++)
		if (due(g, g->act[a], t) && (rc = send_phase(g, g->act[a])))
			return rc;
	for (size_t a = 0; a < g->n_act; a++) {
		size_t i = g->act[a];

		if (!due(g, i, t) || !g->l[i].has_upd)
			continue;
		rc = predict_peerbook_apply(&g->book, &g->l[i].u);
		if (rc && rc != -ESTALE)
			return rc;
	}
	for (size_t a = 0; a < g->n_act; a++) {
		size_t i = g->act[a];

		if (!due(g, i, t))
			continue;
		rc = show_phase(g, i, t);
		if (rc)
			return rc;
		g->l[i].k++;
	}
	drop_done(g);
	return 0;
}

/* Path i's summary, as replay_run_path makes it. */
static int finish(struct together *g, size_t i, struct replay_result *out)
{
	const struct replay_path *p = &g->set->path[i];
	struct lane *l = &g->l[i];
	double mean, *c;

	l->r.duration = (double)p->n * (double)g->set->tick_ns * 1e-9;
	l->r.err_mean = l->r.ticks ? l->sum / (double)l->r.ticks : 0;
	l->r.err_xy_mean = l->r.ticks ? l->sum_xy / (double)l->r.ticks : 0;
	c = malloc(p->n * sizeof(*c));
	if (!c)
		return -ENOMEM;
	memcpy(c, l->e, p->n * sizeof(*c));
	replay_error_summary(c, p->n, &mean, &l->r.err_p95, &l->r.err_max);
	free(c);
	*out = l->r;
	return 0;
}

static void base_ctx(struct together *g)
{
	const struct replay_world *w = g->w;

	predict_ctx_init(&g->base);
	g->base.map = w->map;
	if (w->map.lo[0] == w->map.hi[0] && w->map.lo[1] == w->map.hi[1]) {
		g->base.map.lo[0] = g->set->lo[0];
		g->base.map.lo[1] = g->set->lo[1];
		g->base.map.hi[0] = g->set->hi[0];
		g->base.map.hi[1] = g->set->hi[1];
	}
}

int replay_run_together(const struct replay_set *set,
			const struct replay_world *w,
			const struct predict_params *par,
			struct replay_result *res, double *errs)
{
	struct together g;
	double *own = NULL;
	size_t total = 0;
	int64_t t;
	int rc;

	if (!set || !w || !par || !res)
		return -EINVAL;
	memset(&g, 0, sizeof(g));
	g.set = set;
	g.w = w;
	g.par = par;
	base_ctx(&g);
	for (size_t i = 0; i < set->n_paths; i++)
		total += set->path[i].n;
	if (!errs)
		errs = own = malloc((total ? total : 1) * sizeof(*errs));
	g.l = calloc(set->n_paths ? set->n_paths : 1, sizeof(*g.l));
	g.order = malloc((set->n_paths ? set->n_paths : 1) * sizeof(size_t));
	g.act = malloc((set->n_paths ? set->n_paths : 1) * sizeof(size_t));
	rc = errs && g.l && g.order && g.act ? 0 : -ENOMEM;
	if (!rc)
		rc = sort_starts(&g);
	if (!rc)
		rc = predict_peerbook_init(&g.book, w->items, w->respawn_s,
					   w->n_items, w->pickup_r);
	for (size_t i = 0, off = 0; !rc && i < set->n_paths; i++) {
		g.l[i].e = errs + off;
		off += set->path[i].n;
	}
	while (!rc && (t = next_time(&g)) != INT64_MAX)
		rc = step(&g, t);
	for (size_t i = 0; !rc && i < set->n_paths; i++)
		rc = finish(&g, i, &res[i]);
	for (size_t i = 0; g.l && i < set->n_paths; i++) {
		predict_sender_free(g.l[i].snd);
		predict_receiver_free(g.l[i].rcv);
	}
	predict_peerbook_free(&g.book);
	free(g.order);
	free(g.act);
	free(g.l);
	free(own);
	return rc;
}

/*
 * truth.c: the shared truth of a run (see truth.h). Paths come from
 * replay_set_build; each path's context copies what replay's run_subject
 * hands its predictor: the set's X-Y bounds and the trend map of the
 * path's team with the path itself taken out (leave-one-out, Steele's
 * paper 000 §VI-A), built once per path so that paths can run at the
 * same time. With the trace's map (role_truth_set_map) every context
 * has the map's bounds, line of sight and items instead of the set's
 * bounds, as replay's together mode gives them. The paths' samples are
 * rebased so that the trace's first sample is at 0: a trace keeps its
 * own time column (an imported one may start anywhere), while the roles
 * count time from the run's t0, so the senders' update times, the
 * observer's path lookup and the receivers' extrapolation all see the
 * same relative clock.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "predict/map_view.h"
#include "role/role.h"
#include "role/truth.h"

uint8_t role_model_id(const struct predictor *p)
{
	const struct predictor *all[255];
	size_t n = predict_list(all, 255);

	for (size_t i = 0; i < n && i < 255; i++)
		if (all[i] == p)
			return (uint8_t)(i + 1);
	return 0;
}

static int trend_copy(struct predict_trend *dst,
		      const struct predict_trend *src)
{
	size_t cells = (size_t)src->nx * (size_t)src->ny;
	int err = predict_trend_init(dst, src->x0, src->y0, src->x1, src->y1,
				     src->nx, src->ny);

	if (err)
		return err;
	memcpy(dst->sx, src->sx, cells * sizeof(*dst->sx));
	memcpy(dst->sy, src->sy, cells * sizeof(*dst->sy));
	memcpy(dst->n, src->n, cells * sizeof(*dst->n));
	dst->samples = src->samples;
	return 0;
}

/* Path i's trend: its team's map (or all teams'), from the training
 * session when there is one (other play: nothing to leave out), else from
 * this trace minus the path itself (Steele's leave-one-out). */
static int path_trend(struct role_truth *tr, const struct replay_set *train,
		      size_t i)
{
	const struct replay_path *p = &tr->set.path[i];
	struct predict_trend team;
	int err;

	err = replay_trend_build(train ? train : &tr->set,
				 tr->opts.team_filter ? p->team : -1,
				 &tr->opts, &team);
	if (err)
		return err;
	err = trend_copy(&tr->trend[i], &team);
	predict_trend_free(&team);
	if (err)
		return err;
	if (!train && tr->opts.leave_one_out)
		err = replay_trend_path(&tr->trend[i], p, -1);
	return err;
}

/* Shift every path's samples by -origin. The paths are disjoint ranges
 * of set->buf, which the set owns. */
static void rebase(struct replay_set *set, int64_t origin)
{
	for (size_t i = 0; origin && i < set->n_paths; i++) {
		struct trace_sample *s = set->buf + (set->path[i].s - set->buf);

		for (size_t k = 0; k < set->path[i].n; k++)
			s[k].t_ns -= origin;
	}
}

/* Every ctx back to the set's X-Y bounds, without map or items. */
static void bounds_of_set(struct role_truth *tr)
{
	for (size_t i = 0; i < tr->set.n_paths; i++) {
		struct predict_map_view *v = &tr->ctx[i].map;

		memset(v, 0, sizeof(*v));
		v->lo[0] = tr->set.lo[0];
		v->lo[1] = tr->set.lo[1];
		v->hi[0] = tr->set.hi[0];
		v->hi[1] = tr->set.hi[1];
		tr->ctx[i].items = NULL;
		tr->ctx[i].n_items = 0;
	}
}

/* Free the map and its items (the contexts still point at them). */
static void drop_map(struct role_truth *tr)
{
	if (tr->map) {
		map_free(tr->map);
		free(tr->map);
	}
	free(tr->items);
	free(tr->respawn_s);
	tr->map = NULL;
	tr->items = NULL;
	tr->respawn_s = NULL;
	tr->n_items = 0;
}

int role_truth_build(const struct trace *t, const struct replay_opts *o,
		     struct role_truth *out)
{
	return role_truth_build_trained(t, NULL, o, out);
}

int role_truth_build_trained(const struct trace *t, const struct trace *train,
			     const struct replay_opts *o,
			     struct role_truth *out)
{
	struct role_truth tr;
	struct replay_set tset;
	size_t built = 0;
	int err;

	if (!t || !out || t->n == 0 || t->tick_ns <= 0 ||
	    (train && (train->n == 0 || train->tick_ns <= 0)))
		return -EINVAL;
	memset(&tr, 0, sizeof(tr));
	memset(&tset, 0, sizeof(tset));
	if (o)
		tr.opts = *o;
	else
		replay_opts_init(&tr.opts);
	if (train && (err = replay_set_build(train, &tr.opts, &tset)))
		return err;
	err = replay_set_build(t, &tr.opts, &tr.set);
	if (err) {
		if (train)
			replay_set_free(&tset);
		return err;
	}
	tr.origin_ns = t->s[0].t_ns;
	tr.tick_ns = t->tick_ns;
	tr.end_ns = t->s[t->n - 1].t_ns - tr.origin_ns + t->tick_ns;
	rebase(&tr.set, tr.origin_ns);
	tr.trend = calloc(tr.set.n_paths + 1, sizeof(*tr.trend));
	tr.ctx = calloc(tr.set.n_paths + 1, sizeof(*tr.ctx));
	tr.entities = calloc(tr.set.n_paths + 1, sizeof(*tr.entities));
	if (!tr.trend || !tr.ctx || !tr.entities) {
		err = -ENOMEM;
		goto fail;
	}
	for (size_t i = 0; i < tr.set.n_paths; i++) {
		struct predict_ctx *c = &tr.ctx[i];

		err = path_trend(&tr, train ? &tset : NULL, i);
		if (err)
			goto fail;
		built++;
		predict_ctx_init(c);
		c->trend = &tr.trend[i];
		/* paths are ordered by entity, then time */
		if (tr.n_entities == 0 ||
		    tr.entities[tr.n_entities - 1] != tr.set.path[i].entity)
			tr.entities[tr.n_entities++] = tr.set.path[i].entity;
	}
	if (train)
		replay_set_free(&tset);
	*out = tr;
	bounds_of_set(out);
	return 0;
fail:
	if (train)
		replay_set_free(&tset);
	for (size_t i = 0; i < built; i++)
		predict_trend_free(&tr.trend[i]);
	free(tr.trend);
	free(tr.ctx);
	free(tr.entities);
	replay_set_free(&tr.set);
	return err;
}

void role_truth_free(struct role_truth *tr)
{
	if (!tr)
		return;
	for (size_t i = 0; tr->trend && i < tr->set.n_paths; i++)
		predict_trend_free(&tr->trend[i]);
	free(tr->trend);
	free(tr->ctx);
	free(tr->entities);
	replay_set_free(&tr->set);
	drop_map(tr);
	memset(tr, 0, sizeof(*tr));
}

int role_truth_set_map(struct role_truth *tr, struct map *m)
{
	size_t cap = m && m->nitems > 0 ? (size_t)m->nitems : 0;
	struct predict_item *items = cap ? calloc(cap, sizeof(*items)) : NULL;
	double *respawn = cap ? calloc(cap, sizeof(*respawn)) : NULL;

	if (tr->map == m)
		tr->map = NULL; /* given again: keep it */
	drop_map(tr);
	bounds_of_set(tr);
	if (m && cap && (!items || !respawn)) {
		free(items);
		free(respawn);
		map_free(m);
		free(m);
		return -ENOMEM;
	}
	if (!m)
		return 0;
	tr->map = m;
	tr->items = items;
	tr->respawn_s = respawn;
	tr->n_items = cap ? predict_map_items(m, items, respawn, cap) : 0;
	for (size_t i = 0; i < tr->set.n_paths; i++) {
		predict_map_view(m, &tr->ctx[i].map);
		tr->ctx[i].items = tr->n_items ? items : NULL;
		tr->ctx[i].n_items = tr->n_items;
	}
	return 0;
}

int64_t role_truth_time(const struct role_truth *tr, size_t path, size_t k)
{
	return tr->set.path[path].s[k].t_ns; /* rebased in the build */
}

long role_truth_entity_index(const struct role_truth *tr, uint32_t entity)
{
	size_t lo = 0, hi = tr->n_entities;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (tr->entities[mid] == entity)
			return (long)mid;
		if (tr->entities[mid] < entity)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

int role_truth_find_path(const struct role_truth *tr, uint32_t entity,
			 int64_t t, size_t *path)
{
	size_t lo = 0, hi = tr->set.n_paths;

	/* first path of an entity >= entity */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (tr->set.path[mid].entity < entity)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo;
	     i < tr->set.n_paths && tr->set.path[i].entity == entity; i++) {
		const struct replay_path *p = &tr->set.path[i];

		if (t >= role_truth_time(tr, i, 0) &&
		    t <= role_truth_time(tr, i, p->n - 1)) {
			*path = i;
			return 0;
		}
	}
	return -ENOENT;
}

/*
 * observer.c: the observer role's state machine (see observer.h). Each
 * update goes to the receiver of (path, lane) where the path is the one
 * of the entity that spans the update's send time: a new path (respawn,
 * teleport) starts a fresh receiver, as the offline replay does. A frame
 * at tick time t samples every path alive at t; a path whose receiver has
 * had no update yet counts a blind frame instead of an error sample.
 * Update send times, frame times and the receivers' clock are all
 * relative to t0, the trace's first sample (truth.c rebases the trace).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "predict/peers.h"
#include "predict/vec3.h"
#include "role/observer.h"
#include "role/update_espdu.h"

struct errbuf {
	double *v;
	size_t n, cap;
};

struct role_observer {
	const struct role_truth *tr;
	struct predict_params lanes[ROLE_MAX_LANES];
	uint8_t model[ROLE_MAX_LANES];
	size_t n_lanes;
	double threshold;
	struct reckon_geo geo;
	void (*on_frame)(void *arg, const struct role_frame *f);
	void *frame_arg;
	void (*on_arrival)(void *arg, const struct role_arrival *a);
	void *arrival_arg;
	struct predict_receiver **rcv; /* n_paths x n_lanes */
	size_t *k;		       /* next frame sample of each path */
	struct role_metrics *m;	       /* n_entities x n_lanes */
	struct errbuf *err;	       /* n_entities x n_lanes */
	struct reckon_espdu_counters verdicts[ROLE_MAX_LANES];
	uint64_t foreign[ROLE_MAX_LANES];
	struct predict_peerbook book[ROLE_MAX_LANES]; /* what arrived */
	int64_t next;
};

/* Path i's context on lane l: the truth's (bounds, trend) plus what
 * arrived on the lane. */
static void lane_ctx(struct role_observer *o, size_t l, size_t i,
		     struct predict_ctx *ctx)
{
	*ctx = o->tr->ctx[i];
	predict_peerbook_ctx(&o->book[l], o->tr->set.path[i].entity, ctx);
}

static int64_t compute_next(const struct role_observer *o)
{
	int64_t t = INT64_MAX;

	for (size_t i = 0; i < o->tr->set.n_paths; i++)
		if (o->k[i] < o->tr->set.path[i].n) {
			int64_t ti = role_truth_time(o->tr, i, o->k[i]);

			if (ti < t)
				t = ti;
		}
	return t;
}

int role_observer_new(const struct role_observer_cfg *c,
		      struct role_observer **out)
{
	struct role_observer *o;
	size_t np, ne;

	if (!c || !out || !c->truth || !c->lanes || c->n_lanes < 1 ||
	    c->n_lanes > ROLE_MAX_LANES || !(c->threshold >= 0) ||
	    !isfinite(c->threshold) || (c->geo && reckon_geo_check(c->geo)))
		return -EINVAL;
	o = calloc(1, sizeof(*o));
	if (!o)
		return -ENOMEM;
	o->tr = c->truth;
	o->n_lanes = c->n_lanes;
	o->threshold = c->threshold;
	if (c->geo)
		o->geo = *c->geo;
	o->on_frame = c->on_frame;
	o->frame_arg = c->frame_arg;
	for (size_t l = 0; l < c->n_lanes; l++) {
		int err;

		o->lanes[l] = c->lanes[l];
		o->model[l] = role_model_id(c->lanes[l].p);
		reckon_espdu_counters_init(&o->verdicts[l]);
		err = o->model[l]
			      ? predict_peerbook_init(&o->book[l], o->tr->items,
						      o->tr->respawn_s,
						      o->tr->n_items,
						      c->pickup_r)
			      : -EINVAL;
		if (err) {
			for (size_t j = 0; j < l; j++)
				predict_peerbook_free(&o->book[j]);
			free(o);
			return err;
		}
	}
	np = o->tr->set.n_paths ? o->tr->set.n_paths : 1;
	ne = o->tr->n_entities ? o->tr->n_entities : 1;
	o->rcv = calloc(np * o->n_lanes, sizeof(*o->rcv));
	o->k = calloc(np, sizeof(*o->k));
	o->m = calloc(ne * o->n_lanes, sizeof(*o->m));
	o->err = calloc(ne * o->n_lanes, sizeof(*o->err));
	if (!o->rcv || !o->k || !o->m || !o->err) {
		role_observer_free(o);
		return -ENOMEM;
	}
	for (size_t e = 0; e < o->tr->n_entities; e++)
		for (size_t l = 0; l < o->n_lanes; l++) {
			o->m[e * o->n_lanes + l].entity = o->tr->entities[e];
			o->m[e * o->n_lanes + l].lane = (uint16_t)l;
		}
	o->next = compute_next(o);
	*out = o;
	return 0;
}

void role_observer_free(struct role_observer *o)
{
	if (!o)
		return;
	for (size_t i = 0; o->rcv && i < o->tr->set.n_paths * o->n_lanes; i++)
		predict_receiver_free(o->rcv[i]);
	for (size_t i = 0; o->err && i < o->tr->n_entities * o->n_lanes; i++)
		free(o->err[i].v);
	for (size_t l = 0; l < o->n_lanes; l++)
		predict_peerbook_free(&o->book[l]);
	free(o->rcv);
	free(o->k);
	free(o->m);
	free(o->err);
	free(o);
}

void role_observer_watch(struct role_observer *o,
			 void (*on_frame)(void *, const struct role_frame *),
			 void *frame_arg,
			 void (*on_arrival)(void *, const struct role_arrival *),
			 void *arrival_arg)
{
	if (!o)
		return;
	o->on_frame = on_frame;
	o->frame_arg = frame_arg;
	o->on_arrival = on_arrival;
	o->arrival_arg = arrival_arg;
}

static int recv_one(struct role_observer *o, uint16_t lane, int64_t now_ns,
		    const void *buf, size_t len, struct role_arrival *a);

int role_observer_recv(struct role_observer *o, uint16_t lane, int64_t now_ns,
		       const void *buf, size_t len)
{
	struct role_arrival a = {
		.lane = lane, .entity = UINT32_MAX, .recv_ns = now_ns};
	int err = recv_one(o, lane, now_ns, buf, len, &a);

	/* every update of a known entity, whatever became of it */
	if (o && o->on_arrival && a.entity != UINT32_MAX && err != -EBADMSG &&
	    err != -EPROTO && err != -ENOMEM) {
		a.result = err;
		o->on_arrival(o->arrival_arg, &a);
	}
	return err;
}

/* role_observer_recv; a gets the update's entity, sequence number, send
 * time and position once it is known to be one (entity UINT32_MAX
 * before). */
static int recv_one(struct role_observer *o, uint16_t lane, int64_t now_ns,
		    const void *buf, size_t len, struct role_arrival *a)
{
	struct reckon_espdu pdu;
	struct predict_update u;
	struct predict_receiver **r;
	struct predict_receiver_stats st0, st1;
	struct role_metrics *m;
	struct predict_ctx ctx;
	uint8_t model;
	size_t path;
	long e;
	int err;

	if (!o || lane >= o->n_lanes)
		return -EINVAL;
	/* the frames due before this arrival must not see it */
	if (now_ns > INT64_MIN && (err = role_observer_frame(o, now_ns - 1)))
		return err;
	if (reckon_espdu_decode_counted(buf, len, &pdu, &o->verdicts[lane]) !=
	    RECKON_ESPDU_OK)
		return -EBADMSG;
	if (role_espdu_to_update_geo(&pdu, &o->geo, &u, &model) ||
	    model != o->model[lane] ||
	    (e = role_truth_entity_index(o->tr, u.entity)) < 0) {
		o->foreign[lane]++;
		return -EPROTO;
	}
	m = &o->m[(size_t)e * o->n_lanes + lane];
	m->received++;
	m->bytes_received += len;
	a->entity = u.entity;
	a->seq = pdu.seq;
	a->send_ns = u.t_ns;
	v3_copy(a->pos, u.pos);
	if (role_truth_find_path(o->tr, u.entity, u.t_ns, &path)) {
		m->unmatched++;
		return -ENOENT;
	}
	r = &o->rcv[path * o->n_lanes + lane];
	if (!*r) {
		err = predict_receiver_new(&o->lanes[lane], r);
		if (err)
			return err;
	}
	lane_ctx(o, lane, path, &ctx);
	predict_receiver_stats(*r, &st0);
	err = predict_receiver_update(*r, &ctx, &u, now_ns);
	if (err == -ESTALE) {
		m->stale++;
		return err;
	}
	if (err < 0) {
		m->rejected++;
		return -EINVAL;
	}
	m->applied++;
	predict_receiver_stats(*r, &st1);
	m->stale_model += st1.stale_model - st0.stale_model;
	err = predict_peerbook_apply(&o->book[lane], &u);
	return err == -ENOMEM ? err : 0;
}

int role_observer_peers(struct role_observer *o, uint16_t lane, uint32_t self,
			struct predict_ctx *out)
{
	if (!o || !out || lane >= o->n_lanes)
		return -EINVAL;
	predict_ctx_init(out);
	predict_peerbook_ctx(&o->book[lane], self, out);
	return 0;
}

int64_t role_observer_next(const struct role_observer *o)
{
	return o->next;
}

static int err_push(struct errbuf *b, double v)
{
	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 1024;
		double *nv = realloc(b->v, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		b->v = nv;
		b->cap = cap;
	}
	b->v[b->n++] = v;
	return 0;
}

/* Sample path i at its frame k on every lane. */
static int frame_path(struct role_observer *o, size_t i)
{
	const struct replay_path *rp = &o->tr->set.path[i];
	size_t e = (size_t)role_truth_entity_index(o->tr, rp->entity);
	const struct trace_sample *s = &rp->s[o->k[i]];
	double truth[3] = {s->x, s->y, s->z};
	int64_t t = role_truth_time(o->tr, i, o->k[i]);

	for (size_t l = 0; l < o->n_lanes; l++) {
		struct predict_receiver *r = o->rcv[i * o->n_lanes + l];
		struct role_metrics *m = &o->m[e * o->n_lanes + l];
		struct predict_display d;
		struct predict_ctx ctx;
		double err;

		predict_peerbook_items_at(&o->book[l], t);
		lane_ctx(o, l, i, &ctx);
		if (!r || predict_receiver_display(r, &ctx, t, &d)) {
			m->frames_blind++;
			continue;
		}
		err = v3_dist(d.pos, truth);
		if (err_push(&o->err[e * o->n_lanes + l], err))
			return -ENOMEM;
		if (o->on_frame) {
			struct role_frame f = {.lane = (uint16_t)l,
					       .entity = rp->entity,
					       .t_ns = t,
					       .err = err};

			v3_copy(f.shown, d.pos);
			v3_copy(f.truth, truth);
			o->on_frame(o->frame_arg, &f);
		}
		m->frames++;
		if (err > o->threshold)
			m->over_s += (double)o->tr->tick_ns * 1e-9;
	}
	o->k[i]++;
	return 0;
}

int role_observer_frame(struct role_observer *o, int64_t now_ns)
{
	int err;

	if (!o)
		return -EINVAL;
	while (o->next != INT64_MAX && o->next <= now_ns) {
		int64_t t = o->next;

		for (size_t i = 0; i < o->tr->set.n_paths; i++)
			if (o->k[i] < o->tr->set.path[i].n &&
			    role_truth_time(o->tr, i, o->k[i]) == t) {
				err = frame_path(o, i);
				if (err)
					return err;
			}
		o->next = compute_next(o);
	}
	return 0;
}

int role_observer_verdicts(const struct role_observer *o, uint16_t lane,
			   struct reckon_espdu_counters *out)
{
	if (!o || !out || lane >= o->n_lanes)
		return -EINVAL;
	*out = o->verdicts[lane];
	return 0;
}

uint64_t role_observer_foreign(const struct role_observer *o, uint16_t lane)
{
	return o && lane < o->n_lanes ? o->foreign[lane] : 0;
}

void role_observer_totals(const struct role_observer *o, uint64_t *received,
			  uint64_t *unmatched)
{
	uint64_t r = 0, u = 0;

	for (size_t i = 0; o && i < o->tr->n_entities * o->n_lanes; i++) {
		r += o->m[i].received;
		u += o->m[i].unmatched;
	}
	if (received)
		*received = r;
	if (unmatched)
		*unmatched = u;
}

size_t role_observer_rows(const struct role_observer *o)
{
	return o->tr->n_entities * o->n_lanes;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile q of n sorted values. */
static double rank(const double *v, size_t n, double q)
{
	size_t r = (size_t)ceil(q * (double)n);

	return v[r > 0 ? r - 1 : 0];
}

int role_observer_quantiles(const struct role_observer *o, uint16_t lane,
			    double *out, size_t nq, uint64_t *frames)
{
	size_t n = 0, e, ne;
	double *c;

	if (!o || !out || !frames || nq < 2 || lane >= o->n_lanes)
		return -EINVAL;
	ne = o->tr->n_entities;
	for (e = 0; e < ne; e++)
		n += o->err[e * o->n_lanes + lane].n;
	*frames = n;
	if (n == 0)
		return 0;
	c = malloc(n * sizeof(*c));
	if (!c)
		return -ENOMEM;
	n = 0;
	for (e = 0; e < ne; e++) {
		const struct errbuf *b = &o->err[e * o->n_lanes + lane];

		if (b->n == 0)
			continue; /* an entity never shown: b->v is NULL */
		memcpy(c + n, b->v, b->n * sizeof(*c));
		n += b->n;
	}
	qsort(c, n, sizeof(*c), cmp_double);
	for (size_t k = 0; k < nq; k++)
		out[k] = rank(c, n, (double)k / (double)(nq - 1));
	free(c);
	return 0;
}

int role_observer_metrics(const struct role_observer *o, size_t i,
			  struct role_metrics *out)
{
	struct role_metrics m;
	const struct errbuf *b;
	double *c, sum = 0;

	if (!o || !out || i >= role_observer_rows(o))
		return -EINVAL;
	m = o->m[i];
	b = &o->err[i];
	if (b->n) {
		c = malloc(b->n * sizeof(*c));
		if (!c)
			return -ENOMEM;
		memcpy(c, b->v, b->n * sizeof(*c));
		for (size_t j = 0; j < b->n; j++)
			sum += c[j];
		qsort(c, b->n, sizeof(*c), cmp_double);
		m.err_mean = sum / (double)b->n;
		m.err_p50 = rank(c, b->n, 0.50);
		m.err_p95 = rank(c, b->n, 0.95);
		m.err_max = c[b->n - 1];
		free(c);
	}
	*out = m;
	return 0;
}

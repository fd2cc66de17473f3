/*
 * trace_stats.c: one pass per entity over its samples (trace_filter_
 * entity), collecting values into growable arrays that are sorted for
 * percentiles at the end. Fighting time uses the events: an entity is
 * fighting at t if it fired, hit or was hit within fight_window_s before
 * t. A movement segment is a run of samples: its length is the distance
 * along them and its duration the time from its first to its last, and
 * every segment gives both, so the two distributions have the same count.
 */
#include "trace_stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void trace_stats_defaults(struct trace_stats_opts *o)
{
	o->move_speed = 10.0;
	o->seg_turn_deg = 45.0;
	o->jump_u = 100.0;
	o->min_path_s = 5.0;
	o->fight_window_s = 1.0;
}

struct vec {
	double *v;
	size_t n, cap;
};

static int push(struct vec *a, double x)
{
	if (a->n == a->cap) {
		size_t c = a->cap ? a->cap * 2 : 1024;
		double *p = realloc(a->v, c * sizeof(*p));

		if (!p)
			return -ENOMEM;
		a->v = p;
		a->cap = c;
	}
	a->v[a->n++] = x;
	return 0;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double pct(const struct vec *a, double q)
{
	size_t i = (size_t)floor(q * (double)(a->n - 1) + 0.5);

	return a->v[i];
}

static void summarise(struct vec *a, struct dist *d)
{
	double sum = 0;

	memset(d, 0, sizeof(*d));
	if (a->n == 0)
		return;
	qsort(a->v, a->n, sizeof(double), cmp_d);
	for (size_t i = 0; i < a->n; i++)
		sum += a->v[i];
	d->n = a->n;
	d->mean = sum / (double)a->n;
	d->p10 = pct(a, 0.10);
	d->p50 = pct(a, 0.50);
	d->p90 = pct(a, 0.90);
	d->p99 = pct(a, 0.99);
	d->max = a->v[a->n - 1];
}

static double angdiff(double a, double b)
{
	double d = fmod(b - a, 360.0);

	if (d > 180.0)
		d -= 360.0;
	else if (d <= -180.0)
		d += 360.0;
	return d;
}

/* a finished movement segment from t0 to t1 (its first and last sample) */
static int end_seg(struct vec *len, struct vec *dur, double l, int64_t t0,
		   int64_t t1)
{
	int rc = push(len, l);

	return rc ? rc : push(dur, (double)(t1 - t0) * 1e-9);
}

/* last time (ns) entity e fired, hit or was hit at or before t; uses a
 * per-entity sorted list of event times */
static int fighting(const int64_t *times, size_t n, size_t *cursor, int64_t t,
		    int64_t window)
{
	while (*cursor < n && times[*cursor] <= t)
		(*cursor)++;
	return *cursor > 0 && t - times[*cursor - 1] <= window;
}

int trace_stats(const struct trace *t, const struct trace_events *ev,
		const struct trace_stats_opts *o, struct trace_stats *out)
{
	struct trace_stats st;
	struct vec speed = {0}, turnv = {0}, turnh = {0}, paths = {0},
		   seglen = {0}, segs = {0};
	uint32_t *ids = NULL;
	int64_t *etimes = NULL;
	size_t nid, moving = 0, fight = 0, walk = 0, crouch = 0;
	size_t hist[TRACE_STATS_SPEED_BINS] = {0};
	int rc = 0;

	memset(&st, 0, sizeof(st));
	st.samples = t->n;
	if (t->n)
		st.duration_s =
			(double)(t->s[t->n - 1].t_ns - t->s[0].t_ns) * 1e-9;
	ids = malloc((t->n ? t->n : 1) * sizeof(*ids));
	etimes = malloc((ev && ev->n ? ev->n : 1) * sizeof(*etimes));
	if (!ids || !etimes) {
		rc = -ENOMEM;
		goto out;
	}
	nid = trace_entities(t, ids, t->n);
	st.entities = nid;
	st.have_events = ev != NULL;
	for (size_t k = 0; k < nid && !rc; k++) {
		struct trace e;
		size_t ne = 0, cur = 0;
		double path_start = -1, seg_len = 0, seg_h = 0;
		int64_t seg_t0 = 0;
		int in_seg = 0;

		rc = trace_filter_entity(t, ids[k], &e);
		if (rc)
			break;
		for (size_t i = 0; ev && i < ev->n; i++) {
			const struct trace_event *x = &ev->e[i];

			if ((x->kind == TRACE_EV_FIRE && x->entity == ids[k]) ||
			    (x->kind == TRACE_EV_HIT &&
			     (x->entity == ids[k] || x->target == ids[k])))
				etimes[ne++] = x->t_ns;
		}
		for (size_t i = 0; i < e.n; i++) {
			const struct trace_sample *s = &e.s[i];
			const struct trace_sample *p = i ? &e.s[i - 1] : NULL;
			double v = hypot(s->vx, s->vy), dt;
			int jump = 0, bin;

			if (!s->alive) {
				if (path_start >= 0 && p &&
				    (double)p->t_ns * 1e-9 - path_start >=
					    o->min_path_s)
					rc = rc ? rc
						: push(&paths,
						       (double)p->t_ns * 1e-9 -
							       path_start);
				path_start = -1;
				/* in_seg: p is the segment's last sample */
				if (in_seg)
					rc = rc ? rc
						: end_seg(&seglen, &segs,
							  seg_len, seg_t0,
							  p->t_ns);
				in_seg = 0;
				continue;
			}
			st.alive_samples++;
			rc = rc ? rc : push(&speed, v);
			/* compare as doubles: v may be huge in a user's file */
			bin = v >= 25.0 * (TRACE_STATS_SPEED_BINS - 1)
				      ? TRACE_STATS_SPEED_BINS - 1
				      : (int)(v / 25.0);
			hist[bin]++;
			moving += v >= o->move_speed;
			walk += s->stance == TRACE_WALK;
			crouch += s->stance == TRACE_CROUCH;
			if (ne)
				fight += (size_t)fighting(
					etimes, ne, &cur, s->t_ns,
					(int64_t)(o->fight_window_s * 1e9));
			dt = p ? (double)(s->t_ns - p->t_ns) * 1e-9 : 0;
			if (p && p->alive)
				jump = hypot(s->x - p->x, s->y - p->y) >
				       o->jump_u;
			if (p && p->alive && dt > 0 && !jump) {
				rc = rc ? rc
					: push(&turnv,
					       fabs(angdiff(p->yaw, s->yaw)) /
						       dt);
				if (v >= o->move_speed &&
				    hypot(p->vx, p->vy) >= o->move_speed)
					rc = rc ? rc
						: push(&turnh,
						       fabs(angdiff(atan2(p->vy,
									  p->vx),
								    atan2(s->vy,
									  s->vx)) *
							    180.0 / M_PI) /
							       dt);
			}
			/* paths: a life, split at jumps */
			if (path_start < 0 || jump) {
				if (jump && p &&
				    (double)p->t_ns * 1e-9 - path_start >=
					    o->min_path_s)
					rc = rc ? rc
						: push(&paths,
						       (double)p->t_ns * 1e-9 -
							       path_start);
				path_start = (double)s->t_ns * 1e-9;
			}
			/* movement segments */
			if (in_seg) {
				double h = atan2(s->vy, s->vx) * 180 / M_PI;

				if (v < o->move_speed || jump ||
				    fabs(angdiff(seg_h, h)) > o->seg_turn_deg) {
					/* s is not part of it: it ended at p */
					rc = rc ? rc
						: end_seg(&seglen, &segs,
							  seg_len, seg_t0,
							  p->t_ns);
					in_seg = 0;
				} else {
					seg_len +=
						hypot(s->x - p->x, s->y - p->y);
				}
			}
			if (!in_seg && v >= o->move_speed) {
				in_seg = 1;
				seg_len = 0;
				seg_t0 = s->t_ns;
				seg_h = atan2(s->vy, s->vx) * 180 / M_PI;
			}
		}
		if (in_seg)
			rc = rc ? rc
				: end_seg(&seglen, &segs, seg_len, seg_t0,
					  e.s[e.n - 1].t_ns);
		if (e.n && path_start >= 0 &&
		    (double)e.s[e.n - 1].t_ns * 1e-9 - path_start >=
			    o->min_path_s)
			rc = rc ? rc
				: push(&paths,
				       (double)e.s[e.n - 1].t_ns * 1e-9 -
					       path_start);
		trace_free(&e);
	}
	if (rc)
		goto out;
	summarise(&speed, &st.speed);
	summarise(&turnv, &st.turn_view);
	summarise(&turnh, &st.turn_heading);
	summarise(&paths, &st.path_s);
	summarise(&seglen, &st.seg_len);
	summarise(&segs, &st.seg_s);
	if (st.alive_samples) {
		double a = (double)st.alive_samples;

		st.frac_moving = (double)moving / a;
		st.frac_stopped = 1.0 - st.frac_moving;
		st.frac_fighting = (double)fight / a;
		st.frac_walk = (double)walk / a;
		st.frac_crouch = (double)crouch / a;
		for (int i = 0; i < TRACE_STATS_SPEED_BINS; i++)
			st.speed_hist[i] = (double)hist[i] / a;
	}
	*out = st;
out:
	free(ids);
	free(etimes);
	free(speed.v);
	free(turnv.v);
	free(turnh.v);
	free(paths.v);
	free(seglen.v);
	free(segs.v);
	return rc;
}

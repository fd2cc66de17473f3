/*
 * trace_check.c: the checks of trace_check.h in one pass over the
 * samples, keeping the previous sample of each entity in a small table
 * sorted by entity id.
 */
#include "trace_check.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "geom.h"

void trace_check_defaults(struct trace_check_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->max_speed = 250.0;
	o->tol = 0.01;
	o->pos_quantum = 1e-4;
}

struct ctx {
	struct trace_problem *p;
	size_t max, n;
	const uint32_t *lines;
};

static void report(struct ctx *c, size_t i, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void report(struct ctx *c, size_t i, const char *fmt, ...)
{
	va_list ap;

	if (c->n < c->max) {
		struct trace_problem *q = &c->p[c->n];

		q->line = c->lines ? c->lines[i] : (uint32_t)(i + 1);
		va_start(ap, fmt);
		vsnprintf(q->what, sizeof(q->what), fmt, ap);
		va_end(ap);
	}
	c->n++;
}

struct last {
	uint32_t entity;
	size_t idx;
};

static int cmp_last(const void *a, const void *b)
{
	uint32_t x = ((const struct last *)a)->entity;
	uint32_t y = ((const struct last *)b)->entity;

	return x < y ? -1 : x > y;
}

size_t trace_check(const struct trace *t, const uint32_t *lines,
		   const struct trace_check_opts *o, struct trace_problem *p,
		   size_t max)
{
	struct ctx c = {.p = p, .max = max, .lines = lines};
	double vmax = o->max_speed * (1.0 + o->tol);
	struct last *last = NULL;
	size_t nlast = 0, cap = 0;

	for (size_t i = 0; i < t->n; i++) {
		const struct trace_sample *s = &t->s[i];
		struct last key = {.entity = s->entity}, *l;
		double v = hypot(s->vx, s->vy);

		if (i > 0) {
			const struct trace_sample *q = &t->s[i - 1];

			if (s->t_ns < q->t_ns)
				report(&c, i, "time goes backwards");
			else if (s->t_ns == q->t_ns && s->entity <= q->entity)
				report(&c, i,
				       "entity %u repeated or out of order "
				       "within one time",
				       s->entity);
		}
		if (s->alive && v > vmax)
			report(&c, i, "entity %u speed %.1f u/s > %.1f",
			       s->entity, v, o->max_speed);
		if (s->alive && o->m) {
			if (map_point_blocked(o->m, s->x, s->y))
				report(&c, i,
				       "entity %u at (%.1f, %.1f) is inside a "
				       "wall",
				       s->entity, s->x, s->y);
			else if (o->radius > 0 &&
				 geom_circle_blocked(o->m, s->x, s->y,
						     o->radius -
							     o->pos_quantum))
				report(&c, i,
				       "entity %u at (%.1f, %.1f) overlaps a "
				       "wall (radius %.0f)",
				       s->entity, s->x, s->y, o->radius);
		}
		l = nlast ? bsearch(&key, last, nlast, sizeof(*last), cmp_last)
			  : NULL;
		if (l) {
			const struct trace_sample *q = &t->s[l->idx];
			double dt = (double)(s->t_ns - q->t_ns) * 1e-9;

			if (s->alive && q->alive && dt > 0) {
				double d = hypot(s->x - q->x, s->y - q->y);
				double lim = vmax * dt + 2 * o->pos_quantum;

				if (d > lim)
					report(&c, i,
					       "entity %u moved %.1f u in "
					       "%.4f s (%.0f u/s > %.1f)",
					       s->entity, d, dt, d / dt,
					       o->max_speed);
			}
			l->idx = i;
		} else {
			if (nlast == cap) {
				size_t nc = cap ? cap * 2 : 64;
				struct last *nl =
					realloc(last, nc * sizeof(*nl));

				if (!nl) {
					report(&c, i, "out of memory");
					break;
				}
				last = nl;
				cap = nc;
			}
			key.idx = i;
			last[nlast++] = key;
			qsort(last, nlast, sizeof(*last), cmp_last);
		}
	}
	free(last);
	return c.n;
}

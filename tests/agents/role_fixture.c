/*
 * role_fixture.c: the synthetic truth and datagram queue of the role
 * tests (see role_fixture.h).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "predict/predict.h"
#include "role_fixture.h"

void fix_trace(struct trace *t, int n_ent, double s)
{
	int ticks = (int)(s * 64);

	trace_init(t);
	t->tick_ns = FIX_TICK;
	for (int k = 0; k < ticks; k++) {
		double tt = k / 64.0;

		for (int e = 0; e < n_ent; e++) {
			struct trace_sample x;
			double w = 0.5 + 0.3 * e, r = 200 + 50 * e;
			int dead =
				e == 1 && k >= ticks / 2 && k < ticks / 2 + 20;
			double off = e == 1 && k >= ticks / 2 + 20 ? 800 : 0;

			memset(&x, 0, sizeof(x));
			x.t_ns = (int64_t)k * FIX_TICK;
			x.entity = (uint32_t)e;
			x.team = (uint8_t)(1 + e % 2);
			x.alive = !dead;
			x.x = off + r * cos(w * tt) + 100 * e;
			x.y = r * sin(w * tt);
			x.vx = -r * w * sin(w * tt);
			x.vy = r * w * cos(w * tt);
			x.yaw = fmod(atan2(x.vy, x.vx) * 180 / M_PI + 360, 360);
			x.health = 100;
			cr_assert_eq(trace_append(t, &x), 0);
		}
	}
}

void fix_shift(struct trace *t, int64_t by)
{
	for (size_t i = 0; i < t->n; i++)
		t->s[i].t_ns += by;
}

void fix_queue_init(struct fix_queue *q)
{
	memset(q, 0, sizeof(*q));
	q->fail_after = -1;
	q->refuse_dest = -1;
}

void fix_queue_free(struct fix_queue *q)
{
	free(q->d);
	memset(q, 0, sizeof(*q));
}

int fix_emit(void *arg, const struct role_dgram *d)
{
	struct fix_queue *q = arg;

	if (q->fail_after >= 0 && q->n >= (size_t)q->fail_after)
		return -EPIPE;
	if (q->refuse_dest >= 0 && d->dest == q->refuse_dest)
		return ROLE_EMIT_FAILED;
	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 64;
		q->d = realloc(q->d, q->cap * sizeof(*q->d));
		cr_assert(q->d);
	}
	cr_assert(d->len <= sizeof(q->d[0].buf));
	q->d[q->n].dest = d->dest;
	q->d[q->n].lane = d->lane;
	q->d[q->n].len = d->len;
	memcpy(q->d[q->n].buf, d->buf, d->len);
	q->n++;
	return 0;
}

void fix_params(struct predict_params *par, const char *name)
{
	const struct predictor *p = predict_find(name);

	cr_assert(p, "predictor %s", name);
	cr_assert_eq(predict_params_init(par, p), 0);
}

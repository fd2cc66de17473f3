/*
 * registry.c: the table of predictors by name, and the sender and
 * receiver objects that wrap a predictor's private state. The wrappers
 * check what every predictor would otherwise check (time going backwards,
 * malformed or stale updates, non-finite input) so that each predictor
 * file holds only its model. Pure: malloc, no I/O.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "predict/predict.h"
#include "predict/vec3.h"

static const struct predictor *const registry[] = {
	&predict_dis,
	&predict_led,
	&predict_dhsm,
	&predict_ekb,
	&predict_is,
	&predict_ant,
	&predict_dr2,
};

#define N_REGISTRY (sizeof(registry) / sizeof(registry[0]))

void predict_ctx_init(struct predict_ctx *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
}

const struct predictor *predict_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < N_REGISTRY; i++)
		if (strcmp(registry[i]->name, name) == 0)
			return registry[i];
	return NULL;
}

size_t predict_list(const struct predictor **out, size_t max)
{
	for (size_t i = 0; i < N_REGISTRY && i < max; i++)
		out[i] = registry[i];
	return N_REGISTRY;
}

struct predict_sender {
	const struct predictor *p;
	int64_t last_t;
	int started;
	void *priv;
};

struct predict_receiver {
	const struct predictor *p;
	int started;
	uint32_t entity;
	int64_t newest_t;
	struct predict_receiver_stats st;
	void *priv;
};

int predict_sender_new(const struct predict_params *par,
		       struct predict_sender **out)
{
	struct predict_sender *s;
	int err;

	if (!par || !par->p || !out)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->p = par->p;
	s->priv = calloc(1, par->p->sender_size ? par->p->sender_size : 1);
	if (!s->priv) {
		free(s);
		return -ENOMEM;
	}
	err = par->p->sender_init(s->priv, par);
	if (err) {
		if (par->p->fini)
			par->p->fini(s->priv);
		free(s->priv);
		free(s);
		return err;
	}
	*out = s;
	return 0;
}

static int state_ok(const struct predict_state *x)
{
	return v3_finite(x->pos) && v3_finite(x->vel) && v3_finite(x->acc) &&
	       v3_finite(x->ori) && v3_finite(x->angvel);
}

int predict_sender_tick(struct predict_sender *s, const struct predict_ctx *ctx,
			const struct predict_state *truth,
			struct predict_update *out)
{
	struct predict_update u;
	int r;

	if (!s || !ctx || !truth || !out || !state_ok(truth))
		return -EINVAL;
	if (s->started && truth->t_ns < s->last_t)
		return -EINVAL;
	memset(&u, 0, sizeof(u));
	r = s->p->sender_tick(s->priv, ctx, truth, &u);
	if (r < 0)
		return r;
	s->started = 1;
	s->last_t = truth->t_ns;
	if (r > 0) {
		u.t_ns = truth->t_ns;
		u.entity = truth->entity;
		u.team = truth->team;
		*out = u;
	}
	return r > 0;
}

int predict_sender_grid(const struct predict_sender *s,
			struct predict_grid *out)
{
	if (!s || !out)
		return -EINVAL;
	if (!s->p->sender_grid)
		return -ENOTSUP;
	return s->p->sender_grid(s->priv, out);
}

void predict_sender_free(struct predict_sender *s)
{
	if (!s)
		return;
	if (s->p->fini)
		s->p->fini(s->priv);
	free(s->priv);
	free(s);
}

int predict_receiver_new(const struct predict_params *par,
			 struct predict_receiver **out)
{
	struct predict_receiver *r;
	int err;

	if (!par || !par->p || !out)
		return -EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->p = par->p;
	r->priv = calloc(1, par->p->receiver_size ? par->p->receiver_size : 1);
	if (!r->priv) {
		free(r);
		return -ENOMEM;
	}
	err = par->p->receiver_init(r->priv, par);
	if (err) {
		if (par->p->fini)
			par->p->fini(r->priv);
		free(r->priv);
		free(r);
		return err;
	}
	*out = r;
	return 0;
}

static int update_ok(const struct predict_update *u)
{
	return v3_finite(u->pos) && v3_finite(u->vel) && v3_finite(u->acc) &&
	       v3_finite(u->ori) && v3_finite(u->angvel) &&
	       u->drm <= PREDICT_DRM_FVB && u->blob_len <= PREDICT_BLOB_MAX &&
	       u->reason < PREDICT_REASON_COUNT;
}

int predict_receiver_update(struct predict_receiver *r,
			    const struct predict_ctx *ctx,
			    const struct predict_update *u, int64_t now_ns)
{
	int err;

	if (!r || !ctx || !u)
		return -EINVAL;
	if (!update_ok(u) || (r->started && u->entity != r->entity)) {
		r->st.rejected++;
		return -EINVAL;
	}
	if (r->started && u->t_ns <= r->newest_t) {
		r->st.stale++;
		return -ESTALE;
	}
	err = r->p->receiver_update(r->priv, ctx, u, now_ns);
	if (err < 0) {
		r->st.rejected++;
		return err;
	}
	if (err > 0)
		r->st.stale_model++;
	r->started = 1;
	r->entity = u->entity;
	r->newest_t = u->t_ns;
	r->st.applied++;
	return 0;
}

int predict_receiver_display(struct predict_receiver *r,
			     const struct predict_ctx *ctx, int64_t t_ns,
			     struct predict_display *out)
{
	struct predict_display d;
	int err;

	if (!r || !ctx || !out)
		return -EINVAL;
	if (!r->started)
		return -EAGAIN;
	memset(&d, 0, sizeof(d));
	err = r->p->receiver_display(r->priv, ctx, t_ns, &d);
	if (err)
		return err;
	*out = d;
	return 0;
}

void predict_receiver_stats(const struct predict_receiver *r,
			    struct predict_receiver_stats *out)
{
	if (r && out)
		*out = r->st;
}

void predict_receiver_free(struct predict_receiver *r)
{
	if (!r)
		return;
	if (r->p->fini)
		r->p->fini(r->priv);
	free(r->priv);
	free(r);
}

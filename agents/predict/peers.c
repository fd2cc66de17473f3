/*
 * peers.c: the book of what a client has received about the others (see
 * peers.h): last applied update per entity, and items whose presence is
 * inferred from received positions and the map's respawn times. Pure.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "predict/peers.h"
#include "predict/vec3.h"

int predict_peerbook_init(struct predict_peerbook *b,
			  const struct predict_item *items,
			  const double *respawn_s, size_t n_items,
			  double pickup_r)
{
	struct predict_peerbook nb;

	if (!b || (n_items && (!items || !respawn_s)) || !(pickup_r >= 0))
		return -EINVAL;
	memset(&nb, 0, sizeof(nb));
	nb.pickup_r = pickup_r;
	nb.n_items = n_items;
	if (n_items) {
		nb.item = malloc(n_items * sizeof(*nb.item));
		nb.respawn_s = malloc(n_items * sizeof(*nb.respawn_s));
		nb.back_ns = calloc(n_items, sizeof(*nb.back_ns));
		if (!nb.item || !nb.respawn_s || !nb.back_ns) {
			predict_peerbook_free(&nb);
			return -ENOMEM;
		}
		memcpy(nb.item, items, n_items * sizeof(*nb.item));
		memcpy(nb.respawn_s, respawn_s, n_items * sizeof(double));
		for (size_t i = 0; i < n_items; i++)
			nb.item[i].present = 1;
	}
	*b = nb;
	return 0;
}

void predict_peerbook_free(struct predict_peerbook *b)
{
	if (!b)
		return;
	free(b->peer);
	free(b->view);
	free(b->item);
	free(b->respawn_s);
	free(b->back_ns);
	memset(b, 0, sizeof(*b));
}

/* Index of entity, or where it would be inserted. */
static size_t find(const struct predict_peerbook *b, uint32_t e)
{
	size_t lo = 0, hi = b->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (b->peer[mid].entity < e)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int grow(struct predict_peerbook *b)
{
	size_t cap = b->cap ? 2 * b->cap : 16;
	struct predict_peer *p = realloc(b->peer, cap * sizeof(*p));
	struct predict_peer *v;

	if (!p)
		return -ENOMEM;
	b->peer = p;
	v = realloc(b->view, cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	b->view = v;
	b->cap = cap;
	return 0;
}

static void infer_pickups(struct predict_peerbook *b,
			  const struct predict_update *u)
{
	for (size_t i = 0; i < b->n_items; i++) {
		struct predict_item *it = &b->item[i];

		if (!it->present || b->pickup_r <= 0 ||
		    hypot(u->pos[0] - it->pos[0], u->pos[1] - it->pos[1]) >
			    b->pickup_r)
			continue;
		it->present = 0;
		b->back_ns[i] =
			u->t_ns + (int64_t)llround(b->respawn_s[i] * 1e9);
	}
}

int predict_peerbook_apply(struct predict_peerbook *b,
			   const struct predict_update *u)
{
	size_t i;
	struct predict_peer *p;

	if (!b || !u)
		return -EINVAL;
	i = find(b, u->entity);
	if (i < b->n && b->peer[i].entity == u->entity) {
		if (u->t_ns <= b->peer[i].t_ns)
			return -ESTALE;
	} else {
		if (b->n == b->cap && grow(b))
			return -ENOMEM;
		memmove(&b->peer[i + 1], &b->peer[i],
			(b->n - i) * sizeof(*b->peer));
		b->n++;
		memset(&b->peer[i], 0, sizeof(b->peer[i]));
	}
	p = &b->peer[i];
	p->entity = u->entity;
	p->team = u->team;
	p->alive = 1;
	p->t_ns = u->t_ns;
	v3_copy(p->pos, u->pos);
	v3_copy(p->vel, u->vel);
	infer_pickups(b, u);
	return 0;
}

void predict_peerbook_items_at(struct predict_peerbook *b, int64_t t_ns)
{
	for (size_t i = 0; b && i < b->n_items; i++)
		if (!b->item[i].present && t_ns >= b->back_ns[i])
			b->item[i].present = 1;
}

void predict_peerbook_ctx(struct predict_peerbook *b, uint32_t self,
			  struct predict_ctx *ctx)
{
	size_t m = 0;

	for (size_t i = 0; i < b->n; i++)
		if (b->peer[i].entity != self)
			b->view[m++] = b->peer[i];
	ctx->peers = m ? b->view : NULL;
	ctx->n_peers = m;
	if (b->n_items) {
		ctx->items = b->item;
		ctx->n_items = b->n_items;
	}
}

/*
 * player.c: the player role's state machine (see player.h). Ticks are
 * played in time order; within a tick, paths in entity order and lanes
 * in lane order, so the datagram sequence is a function of the truth and
 * the lanes alone. The true state of a sample is replay_state_at's and
 * its goal replay_path_goal's, so the senders see exactly what the
 * offline replay shows them. Each lane keeps a peer book
 * (predict/peers.h) of the updates this player sent, decoded from the
 * very bytes that went out, so a sender's ctx.peers and ctx.items hold
 * what a receiver of every one of them knows: the sender of a predictor
 * that uses other entities (ekb, is, ant) then models the receiver's
 * prediction, as in replay_run_together, and its threshold bounds the
 * receiver's error on a perfect network. Entities of other players are
 * not in the book (players do not receive), so a scenario comparing
 * such predictors gives one player every bot.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "predict/peers.h"
#include "proto/espdu.h"
#include "role/player.h"
#include "role/update_espdu.h"

struct role_player {
	const struct role_truth *tr;
	struct predict_params lanes[ROLE_MAX_LANES];
	uint8_t model[ROLE_MAX_LANES];
	size_t n_lanes;
	uint16_t n_dest;
	uint8_t exercise;
	struct reckon_geo geo;
	size_t *paths; /* indices of played paths, ascending */
	size_t n_paths;
	size_t *k;		     /* next sample of each played path */
	struct predict_sender **snd; /* n_paths x n_lanes */
	uint32_t *ents;		     /* played entities, ascending */
	size_t n_ents;
	uint32_t *seq;		/* n_ents x n_lanes update numbers */
	struct role_metrics *m; /* n_ents x n_lanes */
	int64_t next;
	uint8_t buf[RECKON_ESPDU_MAX_LEN];
	/* per lane: the grid of the first played entity's sender, copied
	 * when one of its paths ends (its sender is then freed) */
	struct predict_grid keep[ROLE_MAX_LANES];
	double *keep_v[ROLE_MAX_LANES];
	struct predict_peerbook book[ROLE_MAX_LANES]; /* what was sent */
};

static int plays(const struct role_player_cfg *c, uint32_t entity)
{
	if (!c->entities)
		return 1;
	for (size_t i = 0; i < c->n_entities; i++)
		if (c->entities[i] == entity)
			return 1;
	return 0;
}

static size_t ent_index(const struct role_player *p, uint32_t entity)
{
	size_t i = 0;

	while (i < p->n_ents && p->ents[i] != entity)
		i++;
	return i;
}

static int64_t compute_next(const struct role_player *p)
{
	int64_t t = INT64_MAX;

	for (size_t i = 0; i < p->n_paths; i++) {
		const struct replay_path *rp = &p->tr->set.path[p->paths[i]];

		if (p->k[i] < rp->n) {
			int64_t ti =
				role_truth_time(p->tr, p->paths[i], p->k[i]);

			if (ti < t)
				t = ti;
		}
	}
	return t;
}

int role_player_new(const struct role_player_cfg *c, struct role_player **out)
{
	const struct role_truth *tr;
	struct role_player *p;

	if (!c || !out || !c->truth || !c->lanes || c->n_lanes < 1 ||
	    c->n_lanes > ROLE_MAX_LANES || c->n_dest < 1 ||
	    (c->geo && reckon_geo_check(c->geo)))
		return -EINVAL;
	tr = c->truth;
	for (size_t i = 0; c->entities && i < c->n_entities; i++)
		if (role_truth_entity_index(tr, c->entities[i]) < 0)
			return -EINVAL;
	for (size_t i = 0; i < tr->n_entities; i++)
		if (tr->entities[i] > ROLE_ENTITY_MAX)
			return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->tr = tr;
	p->n_lanes = c->n_lanes;
	p->n_dest = c->n_dest;
	p->exercise = c->exercise ? c->exercise : 1;
	if (c->geo)
		p->geo = *c->geo;
	for (size_t l = 0; l < c->n_lanes; l++) {
		p->lanes[l] = c->lanes[l];
		p->model[l] = role_model_id(c->lanes[l].p);
		if (!p->model[l] ||
		    predict_peerbook_init(&p->book[l], tr->items, tr->respawn_s,
					  tr->n_items, c->pickup_r)) {
			role_player_free(p);
			return -EINVAL;
		}
	}
	size_t np = tr->set.n_paths ? tr->set.n_paths : 1;
	size_t ne = tr->n_entities ? tr->n_entities : 1;

	p->paths = calloc(np, sizeof(*p->paths));
	p->k = calloc(np, sizeof(*p->k));
	p->snd = calloc(np * c->n_lanes, sizeof(*p->snd));
	p->ents = calloc(ne, sizeof(*p->ents));
	p->seq = calloc(ne * c->n_lanes, sizeof(*p->seq));
	p->m = calloc(ne * c->n_lanes, sizeof(*p->m));
	if (!p->paths || !p->k || !p->snd || !p->ents || !p->seq || !p->m) {
		role_player_free(p);
		return -ENOMEM;
	}
	for (size_t i = 0; i < tr->set.n_paths; i++)
		if (plays(c, tr->set.path[i].entity))
			p->paths[p->n_paths++] = i;
	for (size_t i = 0; i < tr->n_entities; i++)
		if (plays(c, tr->entities[i]))
			p->ents[p->n_ents++] = tr->entities[i];
	for (size_t e = 0; e < p->n_ents; e++)
		for (size_t l = 0; l < p->n_lanes; l++) {
			p->m[e * p->n_lanes + l].entity = p->ents[e];
			p->m[e * p->n_lanes + l].lane = (uint16_t)l;
		}
	p->next = compute_next(p);
	*out = p;
	return 0;
}

void role_player_free(struct role_player *p)
{
	if (!p)
		return;
	for (size_t i = 0; p->snd && i < p->n_paths * p->n_lanes; i++)
		predict_sender_free(p->snd[i]);
	for (size_t l = 0; l < ROLE_MAX_LANES; l++) {
		free(p->keep_v[l]);
		predict_peerbook_free(&p->book[l]);
	}
	free(p->paths);
	free(p->k);
	free(p->snd);
	free(p->ents);
	free(p->seq);
	free(p->m);
	free(p);
}

int64_t role_player_next(const struct role_player *p)
{
	return p->next;
}

/* The len bytes of p->buf just encoded for lane l, decoded as a
 * receiver decodes them, enter lane l's book. */
static int book_sent(struct role_player *p, size_t l, size_t len)
{
	struct reckon_espdu pdu;
	struct predict_update u;
	uint8_t model;
	int err;

	if (reckon_espdu_decode(p->buf, len, &pdu) != RECKON_ESPDU_OK ||
	    role_espdu_to_update_geo(&pdu, &p->geo, &u, &model))
		return -EPROTO;
	err = predict_peerbook_apply(&p->book[l], &u);
	return err == -ENOMEM ? err : 0;
}

/* Encode u for lane l and emit it to every destination. */
static int send_update(struct role_player *p, size_t e, size_t l,
		       const struct predict_update *u, role_emit_fn emit,
		       void *arg)
{
	struct role_metrics *m = &p->m[e * p->n_lanes + l];
	struct reckon_espdu pdu;
	size_t len;
	int err;

	err = role_update_to_espdu_geo(
		u, p->model[l], p->seq[e * p->n_lanes + l], &p->geo, &pdu);
	if (err)
		return err;
	pdu.exercise = p->exercise;
	err = reckon_espdu_encode(&pdu, p->buf, sizeof(p->buf), &len);
	if (err)
		return err;
	err = book_sent(p, l, len);
	if (err)
		return err;
	p->seq[e * p->n_lanes + l]++;
	m->sent++;
	m->update_bytes += len;
	if (u->reason == PREDICT_REASON_INIT)
		m->sent_init++;
	for (uint16_t d = 0; d < p->n_dest; d++) {
		struct role_dgram dg = {.dest = d,
					.lane = (uint16_t)l,
					.len = len,
					.buf = p->buf};

		err = emit(arg, &dg);
		if (err < 0)
			return err;
		if (err == ROLE_EMIT_FAILED) {
			m->send_errors++;
			continue;
		}
		m->datagrams++;
		m->bytes_sent += len;
	}
	return 0;
}

/* Copy the grid of sender s (if it keeps one) as lane l's kept grid. A
 * failed allocation leaves the previous copy. */
static void keep_grid(struct role_player *p, size_t l,
		      const struct predict_sender *s)
{
	struct predict_grid g;
	size_t n;
	double *v;

	if (!s || predict_sender_grid(s, &g) || g.nx <= 0 || g.ny <= 0)
		return;
	n = (size_t)g.nx * (size_t)g.ny;
	v = malloc(n * sizeof(*v));
	if (!v)
		return;
	memcpy(v, g.v, n * sizeof(*v));
	free(p->keep_v[l]);
	p->keep_v[l] = v;
	g.v = v;
	p->keep[l] = g;
}

/* Sample k of played path i: every lane's sender decides. */
static int play_sample(struct role_player *p, size_t i, role_emit_fn emit,
		       void *arg)
{
	size_t path = p->paths[i];
	const struct replay_path *rp = &p->tr->set.path[path];
	size_t e = ent_index(p, rp->entity);
	int64_t t = role_truth_time(p->tr, path, p->k[i]);
	struct predict_ctx ctx;
	double gpos[3], gvel[3];
	struct predict_state x;
	int has_goal, err;

	replay_state_at(rp, p->k[i], &x);
	has_goal = replay_path_goal(rp, p->k[i], gpos, gvel);
	for (size_t l = 0; l < p->n_lanes; l++) {
		struct predict_sender **s = &p->snd[i * p->n_lanes + l];
		struct predict_update u;

		ctx = p->tr->ctx[path];
		if (has_goal) {
			ctx.goal = gpos;
			ctx.goal_vel = gvel;
		}
		predict_peerbook_items_at(&p->book[l], t);
		predict_peerbook_ctx(&p->book[l], rp->entity, &ctx);

		if (!*s) {
			err = predict_sender_new(&p->lanes[l], s);
			if (err)
				return err;
		}
		err = predict_sender_tick(*s, &ctx, &x, &u);
		if (err < 0)
			return err;
		if (err == 1) {
			err = send_update(p, e, l, &u, emit, arg);
			if (err)
				return err;
		}
	}
	if (++p->k[i] == rp->n) {
		for (size_t l = 0; l < p->n_lanes; l++) {
			if (e == 0)
				keep_grid(p, l, p->snd[i * p->n_lanes + l]);
			predict_sender_free(p->snd[i * p->n_lanes + l]);
			p->snd[i * p->n_lanes + l] = NULL;
		}
	}
	return 0;
}

int role_player_advance(struct role_player *p, int64_t now_ns,
			role_emit_fn emit, void *arg)
{
	int err;

	if (!p || !emit)
		return -EINVAL;
	while (p->next != INT64_MAX && p->next <= now_ns) {
		int64_t t = p->next;

		for (size_t i = 0; i < p->n_paths; i++) {
			const struct replay_path *rp =
				&p->tr->set.path[p->paths[i]];

			if (p->k[i] < rp->n &&
			    role_truth_time(p->tr, p->paths[i], p->k[i]) == t) {
				err = play_sample(p, i, emit, arg);
				if (err)
					return err;
			}
		}
		p->next = compute_next(p);
	}
	return 0;
}

size_t role_player_rows(const struct role_player *p)
{
	return p->n_ents * p->n_lanes;
}

int role_player_metrics(const struct role_player *p, size_t i,
			struct role_metrics *out)
{
	if (!p || !out || i >= role_player_rows(p))
		return -EINVAL;
	*out = p->m[i];
	return 0;
}

int role_player_grid(const struct role_player *p, size_t lane,
		     struct predict_grid *out, uint32_t *entity)
{
	if (!p || !out || lane >= p->n_lanes || !p->n_ents)
		return -EINVAL;
	/* a path of the first entity still playing: its live sender */
	for (size_t i = p->n_paths; i-- > 0;) {
		const struct predict_sender *s = p->snd[i * p->n_lanes + lane];
		struct predict_grid g;

		if (!s || p->tr->set.path[p->paths[i]].entity != p->ents[0])
			continue;
		if (!predict_sender_grid(s, &g)) {
			*out = g;
			if (entity)
				*entity = p->ents[0];
			return 0;
		}
	}
	if (!p->keep_v[lane])
		return p->lanes[lane].p->sender_grid ? -EAGAIN : -ENOTSUP;
	*out = p->keep[lane];
	if (entity)
		*entity = p->ents[0];
	return 0;
}

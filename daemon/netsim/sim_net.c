/*
 * sim_net.c: the simulator's links and the datagrams in flight (see
 * netsim_int.h). A datagram's payload is copied into a pool slot whose
 * index is the netem cookie; a duplicated datagram's two copies share the
 * slot, which is released when its last copy leaves the link. So do the
 * datagrams a sender marks as the same octets (role_dgram.same: one
 * snapshot to every client) while the slot is still in flight. A link is
 * built with its scenario spec when it is first used (a datagram, a
 * schedule), not for every pair up front: a crowded match uses the
 * client-server pairs only, and a link's streams are seeded from its
 * hosts' names, so when it is built changes nothing it does.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "netsim_int.h"

struct slot {
	uint8_t *data;
	size_t len, cap;
	unsigned refs;
	uint16_t dport;
	uint32_t next_free;
	unsigned src;  /* the sender, and */
	uint64_t same; /* its role_dgram.same (0: not shared) */
};

/* A sender's recent shared payloads: same % SHARE_WAYS picks the entry,
 * the slot that last held one; the slot itself says whose and which. */
#define SHARE_WAYS 16

struct sim_net {
	unsigned n;
	uint64_t seed;
	const struct scenario *sc; /* the links' specs; outlives n */
	char (*names)[SC_NAME_MAX];
	struct netem_link **links; /* n * n */
	struct slot *slots;
	uint32_t nslots, cap, free_head; /* free list, UINT32_MAX: empty */
	uint32_t *share;		 /* n * SHARE_WAYS slots */
};

/* The link src -> dst, built on first use with the scenario's spec for
 * the pair (no impairment when it has none). NULL and *err on failure. */
static struct netem_link *link_get(struct sim_net *n, unsigned src,
				   unsigned dst, int *err)
{
	struct netem_link **l = &n->links[src * n->n + dst];
	const struct netem_spec *spec;
	struct netem_spec none;

	*err = 0;
	if (*l)
		return *l;
	spec = scenario_link_spec(n->sc, src, dst);
	if (spec == NULL) {
		netem_spec_init(&none);
		spec = &none;
	}
	*err = netem_link_new(spec, n->seed,
			      netem_link_id(n->names[src], n->names[dst]), l);
	return *err ? NULL : *l;
}

/* [link] schedule and trace keys, from virtual time 0 (the moment the
 * emulator starts the hosts, the origin of [schedule] times). */
static int set_schedules(struct sim_net *n, const struct scenario *sc)
{
	for (unsigned i = 0; i < sc->nlinks; i++) {
		const struct sc_link *l = &sc->links[i];
		struct netem_link *ab, *ba;
		struct netem_sched *s;
		char why[400];
		int err = scenario_link_schedule(l, &s, why, sizeof(why));

		if (err < 0)
			return err;
		if (s == NULL)
			continue; /* this link has no schedule; others may */
		if ((ab = link_get(n, l->a, l->b, &err)) != NULL &&
		    (ba = link_get(n, l->b, l->a, &err)) != NULL &&
		    (err = netem_link_set_schedule(ab, s, 0)) == 0)
			err = netem_link_set_schedule(ba, s, 0);
		netem_sched_free(s);
		if (err < 0)
			return err;
	}
	return 0;
}

int sim_net_new(const struct scenario *sc, uint64_t seed, struct sim_net **out)
{
	struct sim_net *n = calloc(1, sizeof(*n));
	int err = -ENOMEM;

	if (n == NULL)
		return -ENOMEM;
	n->n = sc->nhosts;
	n->seed = seed;
	n->free_head = UINT32_MAX;
	n->names = calloc(n->n ? n->n : 1, sizeof(*n->names));
	n->links = calloc((size_t)n->n * n->n + 1, sizeof(*n->links));
	n->share = calloc((size_t)(n->n ? n->n : 1) * SHARE_WAYS,
			  sizeof(*n->share));
	if (n->names == NULL || n->links == NULL || n->share == NULL)
		goto fail;
	for (unsigned i = 0; i < n->n; i++)
		memcpy(n->names[i], sc->hosts[i].name, SC_NAME_MAX);
	n->sc = sc;
	if ((err = set_schedules(n, sc)) < 0)
		goto fail;
	*out = n;
	return 0;
fail:
	sim_net_free(n);
	return err ? err : -ENOMEM;
}

void sim_net_free(struct sim_net *n)
{
	if (n == NULL)
		return;
	for (size_t i = 0; n->links && i < (size_t)n->n * n->n; i++)
		netem_link_free(n->links[i]);
	for (uint32_t i = 0; i < n->nslots; i++)
		free(n->slots[i].data);
	free(n->slots);
	free(n->share);
	free(n->links);
	free(n->names);
	free(n);
}

static int slot_get(struct sim_net *n, const uint8_t *data, size_t len,
		    uint32_t *out)
{
	struct slot *s;
	uint32_t i;

	if (n->free_head != UINT32_MAX) {
		i = n->free_head;
		n->free_head = n->slots[i].next_free;
	} else {
		if (n->nslots == n->cap) {
			uint32_t cap = n->cap ? n->cap * 2 : 64;
			struct slot *sl = realloc(n->slots, cap * sizeof(*sl));

			if (sl == NULL)
				return -ENOMEM;
			n->slots = sl;
			n->cap = cap;
		}
		i = n->nslots++;
		memset(&n->slots[i], 0, sizeof(n->slots[i]));
	}
	s = &n->slots[i];
	if (s->cap < len) {
		uint8_t *d = realloc(s->data, len < 256 ? 256 : len);

		if (d == NULL) {
			s->next_free = n->free_head;
			n->free_head = i;
			return -ENOMEM;
		}
		s->data = d;
		s->cap = len < 256 ? 256 : len;
	}
	memcpy(s->data, data, len);
	s->len = len;
	*out = i;
	return 0;
}

static void slot_put(struct sim_net *n, uint32_t i, unsigned refs)
{
	struct slot *s = &n->slots[i];

	if (s->refs > refs) {
		s->refs -= refs;
		return;
	}
	s->refs = 0;
	s->same = 0;
	s->next_free = n->free_head;
	n->free_head = i;
}

/* Whether slot i is in flight with src's len-octet payload marked same
 * for dport. */
static int shared(const struct sim_net *n, uint32_t i, unsigned src,
		  uint64_t same, uint16_t dport, size_t len)
{
	const struct slot *s = i < n->nslots ? &n->slots[i] : NULL;

	return same && s && s->refs && s->same == same && s->src == src &&
	       s->dport == dport && s->len == len;
}

/* The slot for a datagram: a shared one in flight (*fresh 0), else a new
 * copy of data (*fresh 1, no references yet). */
static int slot_for(struct sim_net *n, unsigned src, uint16_t dport,
		    const uint8_t *data, size_t len, uint64_t same,
		    uint32_t *cookie, int *fresh)
{
	uint32_t *e = &n->share[src * SHARE_WAYS + same % SHARE_WAYS];
	struct slot *s;
	int err;

	*fresh = !shared(n, *e, src, same, dport, len);
	if (!*fresh) {
		*cookie = *e;
		return 0;
	}
	if ((err = slot_get(n, data, len, cookie)) != 0)
		return err;
	s = &n->slots[*cookie];
	s->dport = dport;
	s->src = src;
	s->same = same;
	if (same)
		*e = *cookie;
	return 0;
}

int sim_net_offer(struct sim_net *n, unsigned src, unsigned dst, uint16_t dport,
		  const uint8_t *data, size_t len, uint64_t same, int64_t now,
		  int64_t *next)
{
	struct netem_verdict v;
	struct netem_link *l;
	uint32_t cookie;
	int err, fresh;

	if (src >= n->n || dst >= n->n || src == dst || len > 65535 - 28)
		return -EINVAL;
	l = link_get(n, src, dst, &err);
	if (l == NULL)
		return err;
	err = slot_for(n, src, dport, data, len, same, &cookie, &fresh);
	if (err)
		return err;
	err = netem_link_enqueue(l, now, (uint32_t)(len + SIM_FRAME_OVERHEAD),
				 cookie, &v);
	if (fresh && (err || v.copies == 0))
		slot_put(n, cookie, 1);
	if (err)
		return err;
	n->slots[cookie].refs += (unsigned)v.copies;
	*next = netem_link_next_time(l);
	return 0;
}

int sim_net_dequeue(struct sim_net *n, unsigned src, unsigned dst, int64_t now,
		    struct sim_dgram *out)
{
	struct netem_link *l = n->links[src * n->n + dst];
	struct netem_pkt p;
	struct slot *s;

	if (l == NULL || !netem_link_dequeue(l, now, &p))
		return 0;
	s = &n->slots[p.cookie];
	out->src = src;
	out->dst = dst;
	out->dport = s->dport;
	out->corrupted = p.corrupt_byte >= 0;
	out->corrupt_byte = p.corrupt_byte;
	out->data = s->data;
	out->len = s->len;
	out->time_ns = p.time_ns;
	out->cookie = (uint32_t)p.cookie;
	return 1;
}

void sim_net_release(struct sim_net *n, const struct sim_dgram *d)
{
	slot_put(n, d->cookie, 1);
}

int64_t sim_net_next(const struct sim_net *n, unsigned src, unsigned dst)
{
	const struct netem_link *l = n->links[src * n->n + dst];

	return l ? netem_link_next_time(l) : INT64_MAX;
}

int sim_net_set_spec(struct sim_net *n, unsigned src, unsigned dst,
		     const struct netem_spec *s, int64_t now)
{
	struct netem_link *l;
	int err;

	if (src >= n->n || dst >= n->n || src == dst)
		return -EINVAL;
	l = link_get(n, src, dst, &err);
	return l ? netem_link_set_spec(l, s, now) : err;
}

void sim_net_counters(const struct sim_net *n, unsigned src, unsigned dst,
		      struct netem_counters *c)
{
	const struct netem_link *l = n->links[src * n->n + dst];

	if (l)
		netem_link_counters(l, c);
	else
		memset(c, 0, sizeof(*c));
}

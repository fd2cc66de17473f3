/*
 * sim_net.c: the simulator's links and the datagrams in flight (see
 * netsim_int.h). A datagram's payload is copied into a pool slot whose
 * number is the netem cookie; a duplicated datagram's two copies share the
 * slot, which is released when its last copy leaves the link. So do the
 * datagrams a sender marks as the same octets (role_dgram.same: one
 * snapshot to every client) while the slot is still in flight. Each of
 * the simulator's two threads takes slots from a pool of its own, so both
 * can offer at once (sim_loop.c's batches). A link is built with its
 * scenario spec when it is first used (a datagram, a schedule), not for
 * every pair up front: a crowded match uses the client-server pairs only,
 * and a link's streams are seeded from its hosts' names, so when it is
 * built changes nothing it does.
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

/* The slots of one thread (sim_net_offer's part): a datagram's cookie is
 * its part in bit 31 and its index among that part's slots. A part's
 * slots are in chunks that never move, so one thread can read a slot in
 * flight (sim_net_dequeue) while the other takes new ones. */
#define PART_BIT    31
#define INDEX_MASK  ((UINT32_C(1) << PART_BIT) - 1)
#define CHUNK_BITS  10
#define CHUNK_SLOTS (1u << CHUNK_BITS)
#define MAX_CHUNKS  4096 /* 4 Mi slots in flight a part */

struct slots {
	struct slot *chunk[MAX_CHUNKS];
	uint32_t n, free_head; /* free list, UINT32_MAX: empty */
};

/* A sender's recent shared payloads: same % SHARE_WAYS picks the entry,
 * the cookie of the slot that last held one; the slot itself says whose
 * and which. */
#define SHARE_WAYS 16

struct sim_net {
	unsigned n;
	uint64_t seed;
	const struct scenario *sc; /* the links' specs; outlives n */
	char (*names)[SC_NAME_MAX];
	struct netem_link **links; /* n * n */
	uint8_t *later;		   /* n * n: sim_net_sends_later */
	struct slots part[2];
	uint32_t *share; /* n * SHARE_WAYS cookies */
};

static struct slot *part_slot(const struct slots *sl, uint32_t i)
{
	return &sl->chunk[i >> CHUNK_BITS][i % CHUNK_SLOTS];
}

/* A link's sim_net_sends_later, kept up to date with its spec and
 * schedule (a batch asks it of each delivery whose sender ran before). */
static void note_later(struct sim_net *n, size_t idx)
{
	n->later[idx] =
		n->links[idx] && netem_link_least_delay(n->links[idx]) > 0;
}

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
	if (*err)
		return NULL;
	note_later(n, src * n->n + dst);
	return *l;
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
		note_later(n, (size_t)l->a * n->n + l->b);
		note_later(n, (size_t)l->b * n->n + l->a);
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
	n->part[0].free_head = n->part[1].free_head = UINT32_MAX;
	n->names = calloc(n->n ? n->n : 1, sizeof(*n->names));
	n->links = calloc((size_t)n->n * n->n + 1, sizeof(*n->links));
	n->later = calloc((size_t)n->n * n->n + 1, 1);
	n->share = calloc((size_t)(n->n ? n->n : 1) * SHARE_WAYS,
			  sizeof(*n->share));
	if (n->names == NULL || n->links == NULL || n->later == NULL ||
	    n->share == NULL)
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
	for (int p = 0; p < 2; p++) {
		for (uint32_t i = 0; i < n->part[p].n; i++)
			free(part_slot(&n->part[p], i)->data);
		for (uint32_t c = 0; c < MAX_CHUNKS; c++)
			free(n->part[p].chunk[c]);
	}
	free(n->share);
	free(n->later);
	free(n->links);
	free(n->names);
	free(n);
}

static struct slot *slot_at(const struct sim_net *n, uint32_t cookie)
{
	return part_slot(&n->part[cookie >> PART_BIT], cookie & INDEX_MASK);
}

/* A free slot of part sl (its index in *i), grown to len octets. */
static int slot_take(struct slots *sl, size_t len, uint32_t *i)
{
	struct slot *s;

	if (sl->free_head != UINT32_MAX) {
		*i = sl->free_head;
		sl->free_head = part_slot(sl, *i)->next_free;
	} else {
		struct slot **c;

		if (sl->n >= MAX_CHUNKS * CHUNK_SLOTS)
			return -ENOMEM;
		c = &sl->chunk[sl->n >> CHUNK_BITS];
		if (*c == NULL &&
		    (*c = calloc(CHUNK_SLOTS, sizeof(**c))) == NULL)
			return -ENOMEM;
		*i = sl->n++;
	}
	s = part_slot(sl, *i);
	if (s->cap < len) {
		uint8_t *d = realloc(s->data, len < 256 ? 256 : len);

		if (d == NULL) {
			s->next_free = sl->free_head;
			sl->free_head = *i;
			return -ENOMEM;
		}
		s->data = d;
		s->cap = len < 256 ? 256 : len;
	}
	return 0;
}

static void slot_put(struct sim_net *n, uint32_t cookie, unsigned refs)
{
	struct slots *sl = &n->part[cookie >> PART_BIT];
	struct slot *s = part_slot(sl, cookie & INDEX_MASK);

	if (s->refs > refs) {
		s->refs -= refs;
		return;
	}
	s->refs = 0;
	s->same = 0;
	s->next_free = sl->free_head;
	sl->free_head = cookie & INDEX_MASK;
}

/* Whether the slot of cookie c belongs to part and is in flight with
 * src's len-octet payload marked same for dport. */
static int shared(const struct sim_net *n, unsigned part, uint32_t c,
		  unsigned src, uint64_t same, uint16_t dport, size_t len)
{
	const struct slot *s;

	if (!same || c >> PART_BIT != part ||
	    (c & INDEX_MASK) >= n->part[part].n)
		return 0;
	s = slot_at(n, c);
	return s->refs && s->same == same && s->src == src &&
	       s->dport == dport && s->len == len;
}

/* The slot for a datagram: a shared one in flight, else a new copy of
 * data in part's slots (no references yet). */
static int slot_for(struct sim_net *n, unsigned part, unsigned src,
		    uint16_t dport, const uint8_t *data, size_t len,
		    uint64_t same, uint32_t *cookie)
{
	uint32_t *e = &n->share[src * SHARE_WAYS + same % SHARE_WAYS];
	struct slot *s;
	uint32_t i;
	int err;

	if (shared(n, part, *e, src, same, dport, len)) {
		*cookie = *e;
		return 0;
	}
	if ((err = slot_take(&n->part[part], len, &i)) != 0)
		return err;
	*cookie = (uint32_t)part << PART_BIT | i;
	s = slot_at(n, *cookie);
	memcpy(s->data, data, len);
	s->len = len;
	s->dport = dport;
	s->src = src;
	s->same = same;
	if (same)
		*e = *cookie;
	return 0;
}

int sim_net_reserve(struct sim_net *n, unsigned part, unsigned src,
		    uint16_t dport, const uint8_t *data, size_t len,
		    uint64_t same, uint32_t *cookie)
{
	int err;

	if (part > 1 || src >= n->n || len > 65535 - 28)
		return -EINVAL;
	err = slot_for(n, part, src, dport, data, len, same, cookie);
	if (!err)
		slot_at(n, *cookie)->refs++;
	return err;
}

int sim_net_enqueue(struct sim_net *n, unsigned src, unsigned dst,
		    uint32_t cookie, size_t len, int64_t now, int *copies,
		    int64_t *next)
{
	struct netem_verdict v;
	struct netem_link *l;
	int err;

	if (src >= n->n || dst >= n->n || src == dst)
		return -EINVAL;
	l = link_get(n, src, dst, &err);
	if (l == NULL)
		return err;
	err = netem_link_enqueue(l, now, (uint32_t)(len + SIM_FRAME_OVERHEAD),
				 cookie, &v);
	if (err)
		return err;
	*copies = v.copies;
	*next = netem_link_next_time(l);
	return 0;
}

void sim_net_settle(struct sim_net *n, uint32_t cookie, int copies)
{
	if (copies > 1) /* one copy: the reservation is its reference */
		slot_at(n, cookie)->refs += (unsigned)copies - 1;
	else if (copies < 1)
		slot_put(n, cookie, 1);
}

int sim_net_offer(struct sim_net *n, unsigned part, unsigned src, unsigned dst,
		  uint16_t dport, const uint8_t *data, size_t len,
		  uint64_t same, int64_t now, int64_t *next)
{
	uint32_t cookie;
	int err, copies = 0;

	if (dst >= n->n || src == dst)
		return -EINVAL;
	err = sim_net_reserve(n, part, src, dport, data, len, same, &cookie);
	if (err)
		return err;
	err = sim_net_enqueue(n, src, dst, cookie, len, now, &copies, next);
	sim_net_settle(n, cookie, err ? 0 : copies);
	return err;
}

int sim_net_dequeue(struct sim_net *n, unsigned src, unsigned dst, int64_t now,
		    struct sim_dgram *out)
{
	struct netem_link *l = n->links[src * n->n + dst];
	struct netem_pkt p;
	struct slot *s;

	if (l == NULL || !netem_link_dequeue(l, now, &p))
		return 0;
	s = slot_at(n, (uint32_t)p.cookie);
	out->src = src;
	out->dst = dst;
	out->dport = s->dport;
	out->corrupted = p.corrupt_byte >= 0;
	out->corrupt_byte = p.corrupt_byte;
	out->data = s->data;
	out->len = s->len;
	out->time_ns = p.time_ns;
	out->cookie = (uint32_t)p.cookie;
	out->same = s->same;
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

int sim_net_sends_later(const struct sim_net *n, unsigned src, unsigned dst)
{
	return n->later[src * n->n + dst];
}

void sim_net_hold(struct sim_net *n, unsigned src, unsigned dst, uint32_t k)
{
	netem_link_hold(n->links[src * n->n + dst], k);
}

int sim_net_set_spec(struct sim_net *n, unsigned src, unsigned dst,
		     const struct netem_spec *s, int64_t now)
{
	struct netem_link *l;
	int err;

	if (src >= n->n || dst >= n->n || src == dst)
		return -EINVAL;
	l = link_get(n, src, dst, &err);
	if (l && (err = netem_link_set_spec(l, s, now)) == 0)
		note_later(n, (size_t)src * n->n + dst);
	return err;
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

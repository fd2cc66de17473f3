/*
 * sim_loop.c: the simulator's discrete-event loop (netsim_int.h), over
 * four kinds of events, all in one queue ordered by (virtual time, push
 * order): the end of the scenario's duration, [schedule] changes, host
 * wake-ups (player ticks, observer frames, the end of a linger or of a
 * relay) and link deliveries (one pending event per directed link, at
 * the link's earliest delivery time; a generation number retires events
 * that a later, earlier arming made stale). A datagram a role emits goes
 * to the host whose address its destination names, through the directed
 * link's netem engine, and arrives at the delivery time the netem engine
 * gives it; the receiving host takes it on the lane its port selects, as
 * its socket would. Hosts end as their agents would, or at the duration
 * like SIGTERM. The events of one instant for different fps hosts can run
 * on two threads ("batches" below), with the same result.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "netsim_int.h"

/* A datagram a host sent in a batch: offered at once; or, on a link
 * that delivers in the batch, kept to be offered at the replay; or, sent
 * by a heavy host, deferred: its link fed after the hosts have run. */
enum { OFFERED, KEPT, DEFERRED };

struct offered {
	int dst;      /* -1: no host has the address */
	int64_t next; /* offered: the link's earliest delivery after it */
	int how;
	uint16_t port;
	uint64_t same;
	size_t off; /* kept: its payload is part.buf[off, off + len);
		     * deferred: it is part.fd[off] */
	size_t len;
};

/* A deferred datagram: its reserved slot, and what feeding its link
 * gave (sim_net_enqueue). */
struct deferred {
	unsigned src, dst;
	uint32_t cookie;
	size_t len;
	int copies, err;
	int64_t next;
};

/* Datagrams taken off links, released after the batch: those for the
 * receiver, and those its kernel drops (corrupt_survives). */
struct dlist {
	struct sim_dgram *d;
	size_t n, cap;
};

struct taken {
	struct dlist in, gone;
};

/* One thread's side of a batch, on cache lines of its own. */
struct part {
	_Alignas(64) struct sim *s;
	unsigned no;  /* 0 or 1: sim_net_offer's part */
	unsigned cur; /* the host that runs */
	struct offered *d;
	size_t n, cap;
	uint8_t *buf; /* the kept datagrams' payloads */
	size_t nbuf, capbuf;
	struct deferred *fd; /* the deferred datagrams */
	size_t nfd, capfd;
	struct taken tk;  /* taken off links by this thread */
	struct taken pre; /* taken off a gathering host's links ahead */
};

#define NO_EV SIZE_MAX

/* One event of a batch, on cache lines of its own: the thread that runs
 * it writes it while the other writes the events beside it. */
struct bev {
	_Alignas(64) struct sim_event e;
	unsigned host, part; /* part: the thread that ran it */
	size_t next;	     /* the host's next event in the batch, or NO_EV */
	size_t d0, d1;	     /* its datagrams in its part.d */
	size_t g0, g1;	     /* a link's: its datagrams in tk.in, or in
			      * pre.in for a gathering host, of part tpart */
	unsigned tpart;
	uint32_t taken; /* a link's: datagrams taken off, dropped too */
	int held;	/* a link's: held at the replay (hold_for) */
	int err;
	int64_t due; /* a wake-up's: the host's next; a link's: its next
		      * delivery once taken, if nothing is sent on it first */
};

struct sim_batch {
	struct bev *ev;
	size_t n, cap, hosts; /* events, and the hosts they run on */
	uint32_t *delivers;   /* per link: its event in the batch + 1, or 0 */
	uint8_t *ran;	      /* per host: in the batch (1) or not (0) */
	unsigned long *load;  /* per host: its events' weight */
	size_t *first;	      /* per host: its first event in the batch */
	unsigned *order;      /* the batch's hosts, heavy ones first */
	size_t norder;
	uint8_t *heavy;	  /* per host of the batch: heavy in it */
	uint8_t *gathers; /* per host: gathering in this batch */
	uint8_t *where;	  /* per host: the thread it last ran on */
	size_t *pre;	  /* the gathering hosts' link events */
	size_t npre, cappre;
	/* what the threads share as they run, on a cache line of its own:
	 * order[lo, hi) not yet taken, as lo << 32 | hi; the heavy hosts
	 * not yet run and the halves of the gathering hosts' links not yet
	 * taken; which halves of those links and of the deferred datagrams
	 * a thread has taken on */
	struct {
		_Alignas(64) _Atomic uint64_t range;
		_Atomic unsigned heavy, pre;
		_Atomic uint8_t fed[2], took[2];
	} left;
	struct part part[2];
	/* for the second thread's idle work: the time of the batch at hand,
	 * and how many of its events the first thread has still to run one
	 * at a time (0: none, or a batch on two threads) */
	_Alignas(64) _Atomic int64_t now;
	_Atomic size_t alone;
};

static void batch_free(struct sim_batch *b)
{
	free(b->ev);
	free(b->delivers);
	free(b->ran);
	free(b->load);
	free(b->first);
	free(b->order);
	free(b->heavy);
	free(b->gathers);
	free(b->where);
	free(b->pre);
	for (int p = 0; p < 2; p++) {
		free(b->part[p].d);
		free(b->part[p].buf);
		free(b->part[p].fd);
		free(b->part[p].tk.in.d);
		free(b->part[p].tk.gone.d);
		free(b->part[p].pre.in.d);
		free(b->part[p].pre.gone.d);
	}
	memset(b, 0, sizeof(*b));
}

/* ---- the network side ---- */

static int arm_link(struct sim *s, unsigned idx, int64_t next, int force)
{
	if (next == INT64_MAX || (!force && next >= s->link_armed[idx]))
		return 0;
	/* a packet whose time_to_send has passed (a jitter draw below
	 * -delay) leaves now, as from the kernel's tfifo: never earlier
	 * than it was sent */
	if (next < s->now)
		next = s->now;
	s->link_gen[idx]++;
	s->link_armed[idx] = next;
	return sim_queue_push(&s->q, next, EV_LINK, idx, s->link_gen[idx]);
}

/* Where host src's datagram d goes: 0 with *dst (-1: no host has the
 * address) and *port, or the role's ROLE_EMIT_FAILED. Reads only src's
 * own state and the routes set up before the run. */
static int route(const struct sim *s, unsigned src, const struct role_dgram *d,
		 int *dst, uint16_t *port)
{
	const struct sim_host *h = &s->h[src];

	if (h->fps)
		return sim_fps_route(h, d, dst, port);
	*dst = s->dest_host[src * SHELL_MAX_DEST + d->dest];
	*port = (uint16_t)(ntohs(h->o.dest[d->dest].sin_port) + d->lane);
	return 0;
}

/* Whether host src's datagram to host dst (-1: none) goes on a link. */
static int carried(unsigned src, int dst)
{
	return dst >= 0 && (unsigned)dst != src;
}

/* Host src's datagram to dst has been offered, if carried, and its link
 * would next deliver at next: counted, and the link armed. */
static int sent(struct sim *s, unsigned src, int dst, int64_t next)
{
	if (dst < 0) {
		s->unroutable++; /* no host has that address: ARP fails */
		return 0;
	}
	if ((unsigned)dst == src) {
		s->to_self++; /* loopback: not modelled */
		return 0;
	}
	s->st.datagrams++;
	return arm_link(s, src * s->n + (unsigned)dst, next, 0);
}

/* Offer host src's datagram to the link to dst, now. */
static int send_to(struct sim *s, unsigned src, int dst, uint16_t port,
		   const uint8_t *buf, size_t len, uint64_t same)
{
	int64_t next = INT64_MAX;
	int err = carried(src, dst)
			  ? sim_net_offer(s->net, 0, src, (unsigned)dst, port,
					  buf, len, same, s->now, &next)
			  : 0;

	return err ? err : sent(s, src, dst, next);
}

/* role_emit_fn for every host: s->cur is the host that emits. */
static int emit(void *arg, const struct role_dgram *d)
{
	struct sim *s = arg;
	int dst;
	uint16_t port;
	int err = route(s, s->cur, d, &dst, &port);

	return err ? err
		   : send_to(s, s->cur, dst, port, d->buf, d->len, d->same);
}

/* A corrupted frame reaches the application only when the flipped bit is
 * in the Ethernet source address (octets 6..11): any other octet breaks
 * the destination address, the EtherType, the IPv4 header checksum or the
 * UDP checksum, and the receiving kernel drops the frame. */
static int corrupt_survives(const struct sim_dgram *d)
{
	return d->corrupt_byte >= 6 && d->corrupt_byte < 12;
}

static int deliver(struct sim *s, const struct sim_dgram *d)
{
	struct sim_host *h = &s->h[d->dst];
	int err = 0;

	if (d->corrupted && !corrupt_survives(d)) {
		s->corrupt_dropped++;
		return 0;
	}
	if (h->fps) {
		s->cur = d->dst;
		return sim_fps_recv(h, d, s->now, emit, s);
	}
	if (d->dport < h->o.port) {
		h->rx_dropped++;
		return 0;
	}
	s->cur = d->dst;
	err = sim_host_recv(h, (uint16_t)(d->dport - h->o.port), s->now,
			    d->data, d->len, emit, s);
	return err;
}

/* When a link's event is due again after its deliveries. */
static int64_t rearm_time(const struct sim *s, unsigned idx)
{
	int64_t next = sim_net_next(s->net, idx / s->n, idx % s->n);

	return next <= s->now ? s->now + 1 : next; /* a slot opens later */
}

static int on_link(struct sim *s, unsigned idx)
{
	unsigned src = idx / s->n, dst = idx % s->n;
	struct sim_dgram d;
	int err = 0;

	s->link_armed[idx] = INT64_MAX;
	while (!err && sim_net_dequeue(s->net, src, dst, s->now, &d)) {
		err = deliver(s, &d);
		sim_net_release(s->net, &d);
	}
	return err ? err : arm_link(s, idx, rearm_time(s, idx), 1);
}

/* ---- hosts ---- */

static void host_ended(struct sim *s, unsigned i)
{
	struct sim_host *h = &s->h[i];

	if (h->done && h->gen != UINT64_MAX) {
		h->gen = UINT64_MAX; /* retire its pending wake-up */
		s->live--;
	}
}

/* Host i has been woken: err and next are what its wake returned. */
static int woke(struct sim *s, unsigned i, int err, int64_t next)
{
	struct sim_host *h = &s->h[i];

	if (err) {
		log_warnx("simulator: host %s: %s", h->sh->name,
			  strerror(-err));
		host_ended(s, i);
		return 0; /* the host failed, the run goes on, as emulated */
	}
	if (h->done) {
		host_ended(s, i);
		return 0;
	}
	if (next == INT64_MAX)
		return 0;
	h->gen++;
	return sim_queue_push(&s->q, next, EV_WAKE, i, h->gen);
}

static int on_wake(struct sim *s, unsigned i)
{
	struct sim_host *h = &s->h[i];
	int64_t next;
	int err;

	s->cur = i;
	err = h->fps ? sim_fps_wake(h, s->now, emit, s, &next)
		     : sim_host_wake(h, s->now, emit, s, &next);
	return woke(s, i, err, next);
}

static void stop_all(struct sim *s)
{
	for (unsigned i = 0; i < s->n; i++) {
		if (s->h[i].done)
			continue;
		sim_host_finish(&s->h[i], s->now, 1);
		host_ended(s, i);
	}
}

static int on_sched(struct sim *s, unsigned k)
{
	const struct sc_change *c = &s->sc->changes[k];
	char text[512];
	int err;

	err = sim_net_set_spec(s->net, c->src, c->dst, &c->spec, s->now);
	netem_spec_print(&c->spec, text, sizeof(text));
	if (err) {
		log_warnx("schedule: %s>%s: %s", s->sc->hosts[c->src].name,
			  s->sc->hosts[c->dst].name, strerror(-err));
		return 0;
	}
	log_debug("t=%.3f s: %s>%s set to '%s' (schedule, simulated)",
		  (double)s->now / 1e9, s->sc->hosts[c->src].name,
		  s->sc->hosts[c->dst].name, text);
	if (s->changes)
		fprintf(s->changes, "%.6f,schedule,%s,%s,\"%s\"\n",
			(double)s->now / 1e9, s->sc->hosts[c->src].name,
			s->sc->hosts[c->dst].name, text);
	/* queued packets keep their times, but the link may be new */
	return arm_link(s, c->src * s->n + c->dst,
			sim_net_next(s->net, c->src, c->dst), 0);
}

/* ---- batches: one instant's events on two threads ----
 *
 * The events due at one instant for fps hosts are independent of each
 * other when no one of them can see another's effect: each host runs its
 * own machine, and a link src -> dst is touched by src's sends and by its
 * own delivery event only. So a batch gathers, in queue order, the wake-
 * ups of fps hosts and the deliveries to them, and stops before the first
 * event that is not such, or that is the delivery of a link whose sender
 * already has an event in the batch when that event's sends could be due
 * now (sim_net_sends_later; with a fixed delay they cannot). The batch
 * then runs in two steps. Every host's events run, in order, on
 * whichever thread takes the host: a delivery takes the link's due
 * datagrams off it (a gathering host's links are all taken before the
 * hosts run, on the threads their senders last ran on), and a send goes
 * to its link at once, its next delivery noted, unless the link
 * delivers in the batch (its receiver's thread may be taking datagrams
 * off it): then the datagram is kept; a heavy host's sends are deferred,
 * their links fed once it has run, on the threads their receivers last
 * ran on. A link is then mostly fed and emptied on one core.
 * Then, in queue order (one thread), each event's kept datagrams are
 * offered, with a link whose delivery comes later in the batch holding
 * the datagrams it gave up (still queued, one event at a time, so the
 * limit counts them); its datagrams are counted and their links armed
 * with the noted times; and its wake-up is queued, or its link armed
 * again at its next delivery after the sends before it. Every link,
 * queue push and counter sees what it sees when the events run one
 * after the other, so the run is the same byte for byte (sim_threads
 * test). A batch whose wake-ups could end the last live host runs one
 * event at a time, as does a batch too small to be worth the hand-over.
 */
#define BATCH_MIN 8

/* Datagram d kept in o to be offered at the replay: its payload copied
 * into part pt's buffer. */
static int keep(struct part *pt, const struct role_dgram *d, struct offered *o)
{
	if (sim_grow((void **)&pt->buf, &pt->capbuf, pt->nbuf + d->len, 1))
		return -ENOMEM;
	memcpy(pt->buf + pt->nbuf, d->buf, d->len);
	o->how = KEPT;
	o->same = d->same;
	o->off = pt->nbuf;
	o->len = d->len;
	pt->nbuf += d->len;
	return 0;
}

/* Datagram d deferred in o: its payload's slot reserved, its link to
 * be fed by feed_part. */
static int defer(struct part *pt, const struct role_dgram *d, struct offered *o)
{
	struct deferred *f;
	int err;

	if (sim_grow((void **)&pt->fd, &pt->capfd, pt->nfd + 1,
		     sizeof(*pt->fd)))
		return -ENOMEM;
	f = &pt->fd[pt->nfd];
	err = sim_net_reserve(pt->s->net, pt->no, pt->cur, o->port, d->buf,
			      d->len, d->same, &f->cookie);
	if (err)
		return err;
	f->src = pt->cur;
	f->dst = (unsigned)o->dst;
	f->len = d->len;
	f->copies = 0;
	f->err = 0;
	o->how = DEFERRED;
	o->off = pt->nfd++;
	return 0;
}

/* role_emit_fn in a batch: offered now; or kept for the replay when its
 * link delivers in the batch (the thread of its receiver takes datagrams
 * off it meanwhile); or, from a heavy host, deferred; its link armed at
 * the batch's end. Its record is filled in place (one built on the stack
 * and copied stalls on store forwarding). */
static int batch_emit(void *arg, const struct role_dgram *d)
{
	struct part *pt = arg;
	struct sim *s = pt->s;
	struct sim_batch *b = s->bt;
	struct offered *o;
	int err;

	if (sim_grow((void **)&pt->d, &pt->cap, pt->n + 1, sizeof(*pt->d)))
		return -ENOMEM;
	o = &pt->d[pt->n];
	o->next = INT64_MAX;
	o->how = OFFERED;
	err = route(s, pt->cur, d, &o->dst, &o->port);
	if (!err && carried(pt->cur, o->dst)) {
		if (b->delivers[pt->cur * s->n + (unsigned)o->dst])
			err = keep(pt, d, o);
		else if (b->heavy[pt->cur])
			err = defer(pt, d, o);
		else
			err = sim_net_offer(s->net, pt->no, pt->cur,
					    (unsigned)o->dst, o->port, d->buf,
					    d->len, d->same, s->now, &o->next);
	}
	pt->n += !err;
	return err;
}

/* The fps host event e runs on, or -1 when e cannot join the batch. */
static int batch_host(const struct sim *s, const struct sim_event *e)
{
	unsigned h = e->kind == EV_WAKE ? e->who : e->who % s->n;
	unsigned src = e->who / s->n;

	if (e->kind == EV_WAKE)
		return s->h[h].fps ? (int)h : -1;
	if (e->kind != EV_LINK || !s->h[h].fps ||
	    (s->bt->ran[src] && !sim_net_sends_later(s->net, src, h)))
		return -1;
	return (int)h;
}

static int retired(const struct sim *s, const struct sim_event *e)
{
	return (e->kind == EV_WAKE && e->gen != s->h[e->who].gen) ||
	       (e->kind == EV_LINK && e->gen != s->link_gen[e->who]);
}

static int batch_add(struct sim *s, const struct sim_event *e, int host)
{
	struct sim_batch *b = s->bt;
	struct bev *v;

	if (sim_grow_aligned((void **)&b->ev, &b->cap, b->n + 1, sizeof(*b->ev),
			     _Alignof(struct bev)))
		return -ENOMEM;
	/* the other fields are set as the batch runs */
	v = &b->ev[b->n++];
	v->e = *e;
	v->host = (unsigned)host;
	v->held = 0;
	v->err = 0;
	if (e->kind == EV_LINK)
		b->delivers[e->who] = (uint32_t)b->n;
	b->hosts += !b->ran[host];
	b->ran[host] = 1;
	return 0;
}

/* Gather the batch that starts with e, due now. */
static int gather(struct sim *s, const struct sim_event *e, int host)
{
	const struct sim_event *p;
	struct sim_event x;
	int err;

	s->bt->n = s->bt->hosts = 0;
	err = batch_add(s, e, host);
	while (!err && (p = sim_queue_peek(&s->q)) != NULL && p->t == s->now) {
		if (!retired(s, p) && (host = batch_host(s, p)) < 0)
			break;
		sim_queue_pop(&s->q, &x);
		if (!retired(s, &x))
			err = batch_add(s, &x, host);
	}
	return err;
}

/* Whether the batch is worth two threads, and runs as it would one event
 * at a time. A host ends only in its wake-up, so the run can end (the
 * last live host ended) only at the batch's last wake-up; a delivery
 * after that would then not happen, and must not run early. */
static int batch_parallel(const struct sim *s)
{
	const struct sim_batch *b = s->bt;
	size_t wakes = 0, last_wake = 0;

	for (size_t k = 0; k < b->n; k++)
		if (b->ev[k].e.kind == EV_WAKE) {
			wakes++;
			last_wake = k;
		}
	if (b->n < BATCH_MIN || b->hosts < 2)
		return 0;
	return s->live > wakes || !wakes || last_wake == b->n - 1;
}

/* The work an event brings, in rough units, to share a batch between the
 * threads: a server's wake-up sends every client its snapshot. */
static unsigned long weight(const struct sim *s, const struct bev *v)
{
	if (v->e.kind == EV_LINK)
		return 1;
	return sim_fps_is_server(&s->h[v->host]) ? 200 : 10;
}

/* Chain each host's events in queue order and list the batch's hosts
 * for the threads to take: the heavy ones (a server's wake-up) first,
 * then the others by host number, so that a host tends to run on the
 * same thread, with its state in that core's cache, batch after batch;
 * and list the link events of the gathering hosts (a server's intake),
 * whose links are taken before the hosts run. 0 or -ENOMEM. */
#define GATHER_MIN 8 /* link events that make a host gathering */

static int order_hosts(struct sim *s)
{
	struct sim_batch *b = s->bt;
	unsigned heavy_n = 0;

	for (size_t k = 0; k < b->n; k++) {
		b->load[b->ev[k].host] = 0;
		b->first[b->ev[k].host] = NO_EV;
		b->gathers[b->ev[k].host] = 0;
	}
	for (size_t k = b->n; k-- > 0;) {
		unsigned h = b->ev[k].host;

		b->load[h] += weight(s, &b->ev[k]);
		b->gathers[h] += b->ev[k].e.kind == EV_LINK;
		b->ev[k].next = b->first[h];
		b->first[h] = k;
	}
	b->norder = 0;
	for (int heavy = 1; heavy >= 0; heavy--)
		for (unsigned h = 0; h < s->n; h++)
			if (b->ran[h] && (b->load[h] >= 100) == heavy) {
				b->order[b->norder++] = h;
				b->heavy[h] = (uint8_t)heavy;
				heavy_n += (unsigned)heavy;
				b->gathers[h] = b->gathers[h] >= GATHER_MIN;
			}
	b->npre = 0;
	for (size_t k = 0; k < b->n; k++)
		if (b->gathers[b->ev[k].host] && b->ev[k].e.kind == EV_LINK) {
			if (sim_grow((void **)&b->pre, &b->cappre, b->npre + 1,
				     sizeof(*b->pre)))
				return -ENOMEM;
			b->pre[b->npre++] = k;
		}
	atomic_store_explicit(&b->left.heavy, heavy_n, memory_order_relaxed);
	atomic_store_explicit(&b->left.pre, b->npre ? 2 : 0,
			      memory_order_relaxed);
	atomic_store_explicit(&b->left.range, b->norder, memory_order_relaxed);
	for (int p = 0; p < 2; p++) {
		b->part[p].nfd = 0;
		atomic_store_explicit(&b->left.fed[p], 0, memory_order_relaxed);
		atomic_store_explicit(&b->left.took[p], !b->npre,
				      memory_order_relaxed);
	}
	return 0;
}

static int dlist_add(struct dlist *l, const struct sim_dgram *d)
{
	if (sim_grow((void **)&l->d, &l->cap, l->n + 1, sizeof(*l->d)))
		return -ENOMEM;
	l->d[l->n++] = *d;
	return 0;
}

/* Link idx's due datagrams onto t, each popped straight into its list
 * (a copy of one built on the stack stalls on store forwarding).
 * Releasing them waits for the batch's end: a thread may take datagrams
 * off a link while the other offers to links. (Out of memory, the
 * datagram at hand is not released: the run stops, and sim_net_free
 * frees every slot.) */
static int take_link(struct sim *s, unsigned idx, struct taken *t)
{
	for (;;) {
		struct sim_dgram *d;

		if (sim_grow((void **)&t->in.d, &t->in.cap, t->in.n + 1,
			     sizeof(*t->in.d)))
			return -ENOMEM;
		d = &t->in.d[t->in.n];
		if (!sim_net_dequeue(s->net, idx / s->n, idx % s->n, s->now, d))
			return 0;
		if (!d->corrupted || corrupt_survives(d))
			t->in.n++;
		else if (dlist_add(&t->gone, d))
			return -ENOMEM;
	}
}

static void release_list(struct sim *s, struct dlist *l)
{
	for (size_t g = 0; g < l->n; g++)
		sim_net_release(s->net, &l->d[g]);
	l->n = 0;
}

/* After the batch: every datagram taken off its links released, and
 * those the receivers dropped counted. */
static void release_taken(struct sim *s)
{
	struct sim_batch *b = s->bt;
	struct taken *t[4] = {&b->part[0].tk, &b->part[1].tk, &b->part[0].pre,
			      &b->part[1].pre};

	for (int i = 0; i < 4; i++) {
		s->corrupt_dropped += t[i]->gone.n;
		release_list(s, &t[i]->gone);
		release_list(s, &t[i]->in);
	}
}

/* Link event v's due datagrams taken onto t of part tpart. */
static void take_event(struct sim *s, struct bev *v, unsigned tpart,
		       struct taken *t)
{
	size_t gone = t->gone.n;

	v->tpart = tpart;
	v->g0 = t->in.n;
	v->err = take_link(s, v->e.who, t);
	v->g1 = t->in.n;
	v->taken = (uint32_t)(v->g1 - v->g0 + t->gone.n - gone);
	v->due = rearm_time(s, v->e.who);
}

/* The gathering hosts' link events whose senders last ran on thread k,
 * taken by thread part: each link on the thread that most likely fed
 * it. */
static void take_ahead(struct sim *s, unsigned part, unsigned k)
{
	struct sim_batch *b = s->bt;

	for (size_t i = 0; i < b->npre; i++) {
		struct bev *v = &b->ev[b->pre[i]];

		if (b->where[v->e.who / s->n] == k)
			take_event(s, v, part, &b->part[part].pre);
	}
}

/* Step 1's start, on thread part: the gathering hosts' links taken, its
 * own half first and then the other if the other thread has not begun
 * it. */
static void take_part(struct sim *s, unsigned part)
{
	struct sim_batch *b = s->bt;

	for (unsigned i = 0; i < 2; i++) {
		unsigned k = part ^ i;

		if (atomic_exchange_explicit(&b->left.took[k], 1,
					     memory_order_relaxed))
			continue;
		take_ahead(s, part, k);
		atomic_fetch_sub_explicit(&b->left.pre, 1,
					  memory_order_release);
	}
}

/* Host host's events, in order, on thread part; a gathering host's once
 * every link it gathers from has been taken. */
static void run_host(struct sim *s, unsigned part, unsigned host)
{
	struct sim_batch *b = s->bt;
	struct part *pt = &b->part[part];
	struct sim_host *h = &s->h[host];

	if (b->gathers[host])
		while (atomic_load_explicit(&b->left.pre, memory_order_acquire))
			sim_pool_relax();
	sim_fps_on_thread(h, part);
	pt->cur = host;
	for (size_t k = b->first[host]; k != NO_EV; k = b->ev[k].next) {
		struct bev *v = &b->ev[k];
		const struct dlist *in;

		v->part = part;
		v->d0 = pt->n;
		if (v->e.kind == EV_WAKE) {
			v->tpart = part;
			v->g0 = v->g1 = 0;
			v->err = sim_fps_wake(h, s->now, batch_emit, pt,
					      &v->due);
		} else if (!b->gathers[host]) {
			take_event(s, v, part, &pt->tk);
		}
		in = b->gathers[host] ? &b->part[v->tpart].pre.in : &pt->tk.in;
		for (size_t g = v->g0; g < v->g1 && !v->err; g++)
			v->err = sim_fps_recv(h, &in->d[g], s->now, batch_emit,
					      pt);
		v->d1 = pt->n;
	}
	if (b->heavy[host]) /* its deferred datagrams are all listed */
		atomic_fetch_sub_explicit(&b->left.heavy, 1,
					  memory_order_release);
}

/* Feed the links of the deferred datagrams whose receivers last ran on
 * thread k, so a link is fed on the thread that most likely takes its
 * datagrams off, in the order they were sent (a link has one sender,
 * whose datagrams are all in one part's list). */
static void feed(struct sim *s, unsigned k)
{
	struct sim_batch *b = s->bt;

	for (int q = 0; q < 2; q++)
		for (size_t j = 0; j < b->part[q].nfd; j++) {
			struct deferred *f = &b->part[q].fd[j];

			if (b->where[f->dst] == k)
				f->err = sim_net_enqueue(
					s->net, f->src, f->dst, f->cookie,
					f->len, s->now, &f->copies, &f->next);
		}
}

/* Step 1's end, on thread part, with no host left to take: once every
 * heavy host has run, the deferred datagrams' links fed, its own half
 * first and then the other if the other thread has not taken it. */
static void feed_part(struct sim *s, unsigned part)
{
	struct sim_batch *b = s->bt;

	while (atomic_load_explicit(&b->left.heavy, memory_order_acquire))
		sim_pool_relax();
	for (unsigned i = 0; i < 2; i++) {
		unsigned k = part ^ i;

		if (!atomic_exchange_explicit(&b->left.fed[k], 1,
					      memory_order_relaxed))
			feed(s, k);
	}
}

/* Hosts for thread part to run: order[*at, *at + *n), taken off the
 * front for thread 0 and off the back for thread 1, a quarter of those
 * left at a time (so a thread that starts late finds its share taken by
 * the other, and a claim, an atomic operation that waits for the
 * thread's stores to drain, comes every few hosts), a heavy host alone.
 * 0 when none is left. */
#define CLAIM_DIV 4

static int claim(struct sim_batch *b, unsigned part, uint32_t *at, uint32_t *n)
{
	uint64_t v = atomic_load_explicit(&b->left.range, memory_order_relaxed);
	uint64_t w;

	do {
		uint32_t lo = (uint32_t)(v >> 32), hi = (uint32_t)v, c;

		if (lo >= hi)
			return 0;
		c = (hi - lo) / CLAIM_DIV ? (hi - lo) / CLAIM_DIV : 1;
		if (part == 0) {
			for (uint32_t i = 0; i < c; i++)
				if (b->heavy[b->order[lo + i]]) {
					c = i ? i : 1; /* heavy ones alone */
					break;
				}
			*at = lo;
			w = (uint64_t)(lo + c) << 32 | hi;
		} else {
			while (c > 1 && b->heavy[b->order[hi - c]])
				c--;
			*at = hi - c;
			w = (uint64_t)lo << 32 | (hi - c);
		}
		*n = c;
	} while (!atomic_compare_exchange_weak_explicit(&b->left.range, &v, w,
							memory_order_relaxed,
							memory_order_relaxed));
	return 1;
}

/* Step 1, on thread part: the gathering hosts' links, then the hosts
 * it claims, until none is left, thread 1's from the back, then the
 * deferred datagrams' links. Which thread does what changes nothing but
 * the speed. */
static void run_part(void *arg, unsigned part)
{
	struct sim *s = arg;
	struct sim_batch *b = s->bt;
	struct part *pt = &b->part[part];
	uint32_t at, n;

	pt->n = 0;
	pt->nbuf = 0;
	take_part(s, part);
	while (claim(b, part, &at, &n))
		for (uint32_t i = 0; i < n; i++)
			run_host(s, part,
				 b->order[part ? at + n - 1 - i : at + i]);
	feed_part(s, part);
}

/* Before event k's host src offers a datagram it kept for dst: when
 * that link's delivery comes later in the batch, the datagrams the
 * receiver took off it meanwhile are held (still queued, for the
 * limit), as they are for this offer one event at a time. */
static void hold_for(struct sim *s, size_t k, unsigned src, unsigned dst)
{
	struct sim_batch *b = s->bt;
	struct bev *dv = &b->ev[b->delivers[src * s->n + dst] - 1];

	if (dv > &b->ev[k] && !dv->held) {
		sim_net_hold(s->net, src, dst, dv->taken);
		dv->held = 1;
	}
}

/* Link event v's link no longer held. */
static void unhold(struct sim *s, struct bev *v)
{
	if (v->held)
		sim_net_hold(s->net, v->e.who / s->n, v->e.who % s->n, 0);
	v->held = 0;
}

/* A deferred datagram's slot reservation turned into its copies'
 * references; it is counted and its link armed. */
static int settle(struct sim *s, const struct deferred *f)
{
	sim_net_settle(s->net, f->cookie, f->err ? 0 : f->copies);
	return f->err ? f->err : sent(s, f->src, (int)f->dst, f->next);
}

/* Step 2: in queue order, each event's kept datagrams offered, its
 * datagrams counted and their links armed, then its wake-up queued or
 * its own link armed again: at the time noted when it was taken, or,
 * when kept datagrams went onto it before (it was held), at its next
 * delivery now. */
static int replay(struct sim *s)
{
	struct sim_batch *b = s->bt;
	int err = 0;

	for (size_t k = 0; k < b->n && !err && s->live > 0; k++) {
		struct bev *v = &b->ev[k];
		struct part *pt = &b->part[v->part];

		for (size_t j = v->d0; j < v->d1 && !err; j++) {
			const struct offered *o = &pt->d[j];

			if (o->how == DEFERRED) {
				err = settle(s, &pt->fd[o->off]);
				continue;
			}
			if (o->how == OFFERED) {
				err = sent(s, v->host, o->dst, o->next);
				continue;
			}
			hold_for(s, k, v->host, (unsigned)o->dst);
			err = send_to(s, v->host, o->dst, o->port,
				      pt->buf + o->off, o->len, o->same);
		}
		s->st.events++;
		if (err)
			break;
		if (v->e.kind == EV_WAKE) {
			err = woke(s, v->host, v->err, v->due);
		} else {
			int64_t due =
				v->held ? rearm_time(s, v->e.who) : v->due;

			unhold(s, v);
			s->link_armed[v->e.who] = INT64_MAX;
			err = v->err ? v->err : arm_link(s, v->e.who, due, 1);
		}
	}
	return err;
}

static int on_event(struct sim *s, const struct sim_event *e);

static int run_batch(struct sim *s)
{
	struct sim_batch *b = s->bt;
	int parallel = batch_parallel(s), err = 0;

	atomic_store_explicit(&b->now, s->now, memory_order_relaxed);
	if (!parallel) {
		for (size_t k = 0; k < b->n && !err && s->live > 0; k++) {
			atomic_store_explicit(&b->alone, b->n - k,
					      memory_order_relaxed);
			err = on_event(s, &b->ev[k].e);
		}
		atomic_store_explicit(&b->alone, 0, memory_order_relaxed);
	} else if ((err = order_hosts(s)) == 0) {
		sim_pool_run(s->pool, run_part, s);
		err = replay(s);
		s->st.parallel_events += b->n;
		release_taken(s);
	}
	for (size_t k = 0; k < b->n; k++) {
		struct bev *v = &b->ev[k];

		b->ran[v->host] = 0;
		if (parallel)
			b->where[v->host] = (uint8_t)v->part;
		if (v->e.kind == EV_LINK) {
			unhold(s, v); /* a replay cut short */
			b->delivers[v->e.who] = 0;
		}
	}
	return err;
}

static unsigned sim_threads; /* sim_set_threads; 0: not set */

void sim_set_threads(unsigned n)
{
	sim_threads = n;
}

/* Threads for a run: sim_set_threads's, else RECKON_SIM_THREADS (1 or
 * 2), else 2 on a machine with two CPUs or more. 0 for a bad value. */
unsigned sim_loop_threads(void)
{
	const char *v = getenv("RECKON_SIM_THREADS");
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (sim_threads)
		return sim_threads;
	if (v && *v)
		return !strcmp(v, "1") ? 1 : !strcmp(v, "2") ? 2 : 0;
	return cpus >= 2 ? 2 : 1;
}

/* How far ahead of the run the second thread keeps the bot games, and
 * how many events a batch run one at a time must still have for the
 * second thread to begin a step of the games beside it. A step of 64
 * bots takes longer than the first thread needs to run such a batch and
 * post the next, so a step begun early in one overlaps the most of the
 * first thread's work alone. */
#define GAME_AHEAD_NS 100000000LL
#define ALONE_MIN     32

/* The second thread's work between batches: a step of the bot games
 * while the first thread has a long way to go in a batch it runs alone,
 * or when the games are less than GAME_AHEAD_NS ahead of the run. A step
 * still under way when a batch comes makes that batch wait for it.
 * sim_pool's idle: 1, 0 or -1. */
static int games_idle(void *arg)
{
	struct sim *s = arg;
	int64_t now = atomic_load_explicit(&s->bt->now, memory_order_relaxed);

	if (atomic_load_explicit(&s->bt->alone, memory_order_relaxed) <
		    ALONE_MIN &&
	    sim_fps_games_ready(s->games, now + GAME_AHEAD_NS))
		return 0;
	return sim_fps_games_play(s->games) ? 1 : -1;
}

/* The second thread, for a scenario with enough fps hosts to batch. */
int sim_loop_start(struct sim *s)
{
	unsigned fps = 0, t = sim_loop_threads();
	int err;

	if (t == 0) {
		log_warnx("RECKON_SIM_THREADS='%s': use 1 or 2",
			  getenv("RECKON_SIM_THREADS"));
		return -EINVAL;
	}
	for (unsigned i = 0; i < s->n; i++)
		fps += s->h[i].fps != NULL;
	if (t < 2 || fps < BATCH_MIN)
		return 0;
	s->bt = aligned_alloc(_Alignof(struct sim_batch), sizeof(*s->bt));
	if (!s->bt)
		return -ENOMEM;
	memset(s->bt, 0, sizeof(*s->bt));
	s->bt->ran = calloc(s->n, 1);
	s->bt->load = calloc(s->n, sizeof(*s->bt->load));
	s->bt->first = calloc(s->n, sizeof(*s->bt->first));
	s->bt->delivers = calloc((size_t)s->n * s->n, sizeof(*s->bt->delivers));
	s->bt->order = calloc(s->n, sizeof(*s->bt->order));
	s->bt->heavy = calloc(s->n, 1);
	s->bt->where = calloc(s->n, 1);
	s->bt->gathers = calloc(s->n, 1);
	if (!s->bt->ran || !s->bt->load || !s->bt->first || !s->bt->delivers ||
	    !s->bt->order || !s->bt->heavy || !s->bt->where || !s->bt->gathers)
		return -ENOMEM;
	for (unsigned h = 0; h < s->n; h++) /* as the order shares them out */
		s->bt->where[h] = h >= s->n / 2;
	s->bt->part[0].s = s->bt->part[1].s = s;
	s->bt->part[1].no = 1;
	err = sim_pool_new(games_idle, s, &s->pool);
	if (err)
		log_warnx("simulator: no second thread (%s), running on one",
			  strerror(-err));
	return 0;
}

/* One event, live: what the loop does with it. */
static int on_event(struct sim *s, const struct sim_event *e)
{
	s->st.events++;
	switch (e->kind) {
	case EV_END:
		stop_all(s);
		return 0;
	case EV_SCHED:
		return on_sched(s, e->who);
	case EV_WAKE:
		return on_wake(s, e->who);
	default:
		return on_link(s, e->who);
	}
}

int sim_loop_run(struct sim *s)
{
	struct sim_event e;
	int err = 0, host;

	while (!err && s->live > 0 && sim_queue_pop(&s->q, &e)) {
		s->now = e.t;
		err = sim_fps_games_wait(s->games, e.t);
		if (err) {
			log_warnx("simulator: the bot game: %s",
				  strerror(-err));
			break;
		}
		if ((e.kind == EV_WAKE || e.kind == EV_LINK) && retired(s, &e))
			continue;
		if (s->pool && (host = batch_host(s, &e)) >= 0) {
			err = gather(s, &e, host);
			if (!err)
				err = run_batch(s);
			continue;
		}
		err = on_event(s, &e);
	}
	/* nothing left to happen (relays without --stop-after) */
	if (!err && s->live > 0)
		stop_all(s);
	return err;
}

void sim_loop_free(struct sim *s)
{
	sim_pool_free(s->pool);
	if (s->bt)
		batch_free(s->bt);
	free(s->bt);
	s->pool = NULL;
	s->bt = NULL;
}

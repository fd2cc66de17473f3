/*
 * link.c: one directed netem link. netem_link_enqueue follows the kernel's
 * netem_enqueue() (net/sched/sch_netem.c, Linux 6.12) step by step:
 * duplicate decision, loss model (or CE mark, which the duplicate cloned
 * after it inherits), corruption, queue limit, enqueue of the duplicate as
 * a fresh packet that cannot duplicate again, then either the
 * reorder-to-head path or the delayed path (tabledist jitter, then rate:
 * tts = max(last tts, now + delay) + packet time). netem_link_dequeue
 * follows netem_dequeue(): reordered packets first, then the earliest due
 * packet when the current slot is open. Every random draw comes from a
 * per-purpose stream seeded from (seed, link id, purpose); the loss models
 * are loss_4state() and loss_gilb_ell() (Salsano et al., "Definition of a
 * general and intuitive loss model for packet networks and its
 * implementation in the Netem module", NetemCLG tech. report v3.1).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "netem.h"
#include "queue.h"
#include "rng.h"

enum { ST_TX_GAP = 1, ST_TX_BURST = 2, ST_LOST_BURST = 3, ST_LOST_GAP = 4 };
enum { GE_GOOD = 0, GE_BAD = 1 };

struct netem_link {
	struct netem_spec spec; /* in force now (base + schedule) */
	struct netem_spec base; /* as set by new/set_spec */
	uint64_t seed, id;
	const struct netem_dist_registry *reg;

	struct netem_rng r_dup, r_loss, r_corrupt, r_cpos, r_delay, r_reorder,
		r_slot, r_init;
	struct netem_crnd c_dup, c_loss, c_corrupt, c_delay, c_reorder;

	int16_t *delay_tab;
	uint32_t delay_n;
	int16_t *slot_tab;
	uint32_t slot_n;

	int clg_state;
	uint32_t counter; /* packets since the last reorder */

	struct netem_queue q;
	uint64_t seq;
	int64_t fifo_last;
	int fifo_have;

	int slot_on;
	int64_t slot_next;
	int64_t packets_left, bytes_left;

	struct netem_sched *sched;
	int64_t sched_origin, sched_next;

	struct netem_counters ctr;
	uint32_t held; /* netem_link_hold */
};

/* Load the table a distribution needs into *tab (allocated). */
static int load_table(enum netem_dist d, const char *name,
		      const struct netem_dist_registry *reg, int16_t **tab,
		      uint32_t *n)
{
	const struct netem_dist_table *t;
	int16_t *v;

	*tab = NULL;
	*n = 0;
	if (d == NETEM_DIST_UNIFORM)
		return 0;
	if (d == NETEM_DIST_CUSTOM) {
		t = netem_dist_lookup(reg, name);
		if (!t)
			return -ENOENT;
		if (t->n == 0 || t->n > NETEM_DIST_TABLE_MAX || !t->v)
			return -EINVAL;
		v = malloc(t->n * sizeof(*v));
		if (!v)
			return -ENOMEM;
		memcpy(v, t->v, t->n * sizeof(*v));
		*tab = v;
		*n = t->n;
		return 0;
	}
	v = malloc(NETEM_DIST_BUILTIN_SIZE * sizeof(*v));
	if (!v)
		return -ENOMEM;
	if (netem_dist_builtin(d, v) < 0) {
		free(v);
		return -EINVAL;
	}
	*tab = v;
	*n = NETEM_DIST_BUILTIN_SIZE;
	return 0;
}

static int spec_valid(const struct netem_spec *s)
{
	if (s->latency_ns < 0 || s->jitter_ns < 0 || s->jitter_ns > INT32_MAX)
		return 0;
	if (s->slot &&
	    (s->slot_min_ns < 0 || s->slot_max_ns < s->slot_min_ns ||
	     s->slot_dist_delay_ns < 0 || s->slot_dist_jitter_ns < 0 ||
	     s->slot_dist_jitter_ns > INT32_MAX))
		return 0;
	if (s->loss_model == NETEM_LOSS_STATE &&
	    ((uint64_t)s->p13 + s->p14 > UINT32_MAX ||
	     (uint64_t)s->p31 + s->p32 > UINT32_MAX))
		return 0;
	return 1;
}

/* Numeric parameters only (used by schedules): no state reset. The
 * loss-model state restarts only when the model itself changes; the
 * reorder counter, correlation memory and slot phase go on. */
static void apply_numbers(struct netem_link *l, const struct netem_spec *s)
{
	if (s->loss_model != l->spec.loss_model)
		l->clg_state =
			s->loss_model == NETEM_LOSS_STATE ? ST_TX_GAP : GE_GOOD;
	l->spec = *s;
	if (l->spec.jitter_ns > INT32_MAX)
		l->spec.jitter_ns = INT32_MAX;
	if (l->spec.latency_ns < 0)
		l->spec.latency_ns = 0;
	l->c_delay.rho = s->delay_corr;
	l->c_loss.rho = s->loss_corr;
	l->c_dup.rho = s->duplicate_corr;
	l->c_corrupt.rho = s->corrupt_corr;
	l->c_reorder.rho = s->reorder_corr;
	/* get_slot(): a slot with no delay at all is off. A schedule that
	 * turns one on keeps slot_next and the budgets, so the first
	 * dequeue with a packet waiting starts a slot */
	l->slot_on = s->slot && (s->slot_min_ns || s->slot_max_ns ||
				 s->slot_dist_jitter_ns);
}

/* Full replacement, as netem_change() does with every attribute given:
 * tables reloaded, the reorder counter zeroed, loss-model state and
 * correlation memory reset, slot budgets refilled and the slot restarted
 * at now (get_slot()). The random streams and queued packets are kept. */
static int apply_spec(struct netem_link *l, const struct netem_spec *s,
		      int64_t now_ns)
{
	int16_t *dt, *st;
	uint32_t dn, sn;
	int rc;

	if (!spec_valid(s))
		return -EINVAL;
	rc = load_table(s->dist, s->dist_name, l->reg, &dt, &dn);
	if (rc < 0)
		return rc;
	if (s->slot && s->slot_use_dist) {
		rc = load_table(s->slot_dist, s->slot_dist_name, l->reg, &st,
				&sn);
		if (rc < 0) {
			free(dt);
			return rc;
		}
	} else {
		st = NULL;
		sn = 0;
	}
	free(l->delay_tab);
	free(l->slot_tab);
	l->delay_tab = dt;
	l->delay_n = dn;
	l->slot_tab = st;
	l->slot_n = sn;
	l->base = *s;
	apply_numbers(l, s);
	l->clg_state = s->loss_model == NETEM_LOSS_STATE ? ST_TX_GAP : GE_GOOD;
	/* init_crandom(): the kernel draws "last" from its unseeded RNG;
	 * ours comes from the link's own seeded stream */
	l->c_delay.last = netem_rng_u32(&l->r_init);
	l->c_loss.last = netem_rng_u32(&l->r_init);
	l->c_dup.last = netem_rng_u32(&l->r_init);
	l->c_corrupt.last = netem_rng_u32(&l->r_init);
	l->c_reorder.last = netem_rng_u32(&l->r_init);
	l->counter = 0;
	l->slot_next = now_ns;
	l->packets_left = s->slot_packets ? s->slot_packets : INT32_MAX;
	l->bytes_left = s->slot_bytes ? s->slot_bytes : INT32_MAX;
	return 0;
}

int netem_link_new_reg(const struct netem_spec *s, uint64_t seed,
		       uint64_t link_id, const struct netem_dist_registry *reg,
		       struct netem_link **out)
{
	struct netem_link *l;
	size_t cap;
	int rc;

	if (!s || !out)
		return -EINVAL;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->seed = seed;
	l->id = link_id;
	l->reg = reg;
	netem_rng_seed(&l->r_dup, seed, link_id, NETEM_RNG_DUPLICATE);
	netem_rng_seed(&l->r_loss, seed, link_id, NETEM_RNG_LOSS);
	netem_rng_seed(&l->r_corrupt, seed, link_id, NETEM_RNG_CORRUPT);
	netem_rng_seed(&l->r_cpos, seed, link_id, NETEM_RNG_CORRUPT_POS);
	netem_rng_seed(&l->r_delay, seed, link_id, NETEM_RNG_DELAY);
	netem_rng_seed(&l->r_reorder, seed, link_id, NETEM_RNG_REORDER);
	netem_rng_seed(&l->r_slot, seed, link_id, NETEM_RNG_SLOT);
	netem_rng_seed(&l->r_init, seed, link_id, NETEM_RNG_CORR_INIT);
	/* a game flow queues tens of packets; the queue doubles when a
	 * backlog outgrows this, so links stay small (about 32 KB) */
	cap = s->limit < 256 ? 64 : 256;
	rc = netem_queue_init(&l->q, cap);
	if (rc == 0)
		rc = apply_spec(l, s, INT64_MIN / 4);
	if (rc < 0) {
		netem_link_free(l);
		return rc;
	}
	*out = l;
	return 0;
}

int netem_link_new(const struct netem_spec *s, uint64_t seed, uint64_t link_id,
		   struct netem_link **out)
{
	return netem_link_new_reg(s, seed, link_id, NULL, out);
}

void netem_link_free(struct netem_link *l)
{
	if (!l)
		return;
	netem_queue_free(&l->q);
	free(l->delay_tab);
	free(l->slot_tab);
	netem_sched_free(l->sched);
	free(l);
}

int netem_link_set_spec(struct netem_link *l, const struct netem_spec *s,
			int64_t now_ns)
{
	struct netem_spec eff;
	int rc = apply_spec(l, s, now_ns);

	if (rc < 0 || !l->sched)
		return rc;
	netem_sched_eval(l->sched, &l->base, now_ns - l->sched_origin, &eff,
			 &l->sched_next);
	if (l->sched_next != INT64_MAX)
		l->sched_next += l->sched_origin;
	apply_numbers(l, &eff);
	return 0;
}

const struct netem_spec *netem_link_spec(const struct netem_link *l)
{
	return &l->spec;
}

int netem_link_set_schedule(struct netem_link *l, const struct netem_sched *s,
			    int64_t origin_ns)
{
	struct netem_sched *copy = NULL;
	int rc;

	if (s) {
		rc = netem_sched_dup(s, &copy);
		if (rc < 0)
			return rc;
	}
	netem_sched_free(l->sched);
	l->sched = copy;
	l->sched_origin = origin_ns;
	l->sched_next = copy ? INT64_MIN : INT64_MAX;
	if (!copy)
		apply_numbers(l, &l->base);
	return 0;
}

/* Bring scheduled parameters up to date at now_ns (the slow part). */
static void sched_eval_now(struct netem_link *l, int64_t now_ns)
{
	struct netem_spec eff;
	int64_t next;

	netem_sched_eval(l->sched, &l->base, now_ns - l->sched_origin, &eff,
			 &next);
	l->sched_next = next == INT64_MAX ? INT64_MAX : next + l->sched_origin;
	apply_numbers(l, &eff);
}

static inline void sched_update(struct netem_link *l, int64_t now_ns)
{
	if (l->sched && now_ns >= l->sched_next)
		sched_eval_now(l, now_ns);
}

/* loss_4state(): the packet's fate is the state the chain moves to. */
static int loss_4state(struct netem_link *l)
{
	const struct netem_spec *s = &l->spec;
	uint32_t rnd = netem_rng_u32(&l->r_loss);

	switch (l->clg_state) {
	case ST_TX_GAP:
		if (rnd < s->p14) {
			l->clg_state = ST_LOST_GAP;
			return 1;
		}
		if (rnd < s->p13 + s->p14) {
			l->clg_state = ST_LOST_BURST;
			return 1;
		}
		return 0;
	case ST_TX_BURST:
		if (rnd < s->p23) {
			l->clg_state = ST_LOST_BURST;
			return 1;
		}
		return 0;
	case ST_LOST_BURST:
		if (rnd < s->p32)
			l->clg_state = ST_TX_BURST;
		else if (rnd < s->p31 + s->p32)
			l->clg_state = ST_TX_GAP;
		else
			return 1;
		return 0;
	default: /* ST_LOST_GAP */
		l->clg_state = ST_TX_GAP;
		return 0;
	}
}

/* loss_gilb_ell(): two draws; the loss uses the state the packet found.
 * The kernel receives h = 1 - (1-h) and compares "rnd > h". */
static int loss_gilb_ell(struct netem_link *l)
{
	const struct netem_spec *s = &l->spec;

	if (l->clg_state == GE_GOOD) {
		if (netem_rng_u32(&l->r_loss) < s->ge_p)
			l->clg_state = GE_BAD;
		return netem_rng_u32(&l->r_loss) < s->ge_1k;
	}
	if (netem_rng_u32(&l->r_loss) < s->ge_r)
		l->clg_state = GE_GOOD;
	return netem_rng_u32(&l->r_loss) > UINT32_MAX - s->ge_1h;
}

static int loss_event(struct netem_link *l)
{
	switch (l->spec.loss_model) {
	case NETEM_LOSS_RANDOM:
		return l->spec.loss &&
		       l->spec.loss >= netem_crandom(&l->c_loss, &l->r_loss);
	case NETEM_LOSS_STATE:
		return loss_4state(l);
	case NETEM_LOSS_GEMODEL:
		return loss_gilb_ell(l);
	default:
		return 0;
	}
}

/* packet_time_ns(): serialisation time with overhead and cells. */
static int64_t packet_time_ns(const struct netem_spec *s, uint32_t len)
{
	int64_t l = (int64_t)len + s->packet_overhead;
	uint64_t bytes;

	if (l < 0)
		l = 0;
	if (s->cell_size) {
		uint64_t cells =
			((uint64_t)l + s->cell_size - 1) / s->cell_size;
		int64_t per = (int64_t)s->cell_size + s->cell_overhead;

		l = (int64_t)cells * (per < 0 ? 0 : per);
	}
	bytes = (uint64_t)l;
	/* len * 1e9 / rate without overflowing for any u32 length */
	return (int64_t)(bytes / s->rate * 1000000000ULL +
			 (bytes % s->rate) * 1000000000ULL / s->rate);
}

/* The largest time_to_send queued (rate's "last"): reorder queue tail
 * (its oldest entry) or the time queue's maximum. */
static int last_tts(const struct netem_link *l, int64_t *t)
{
	int64_t m;
	int have = 0;

	if (l->q.sn) {
		*t = l->q.stack[0].tts;
		have = 1;
	}
	if (netem_queue_max_tts(&l->q, &m) && (!have || m > *t)) {
		*t = m;
		have = 1;
	}
	return have;
}

struct copy_res {
	int queued;
	enum netem_drop drop;
	int64_t tts;
	int corrupted, reordered, ecn;
};

/* ect: the packet is ECN-capable; ce: it is CE-marked already (a clone of
 * a marked original). */
static int enqueue_one(struct netem_link *l, int64_t now, uint32_t len,
		       uint64_t cookie, int depth, int ect, int ce,
		       struct copy_res *orig, struct copy_res *dup)
{
	const struct netem_spec *s = &l->spec;
	struct netem_qent *d;
	int count = 1, rc;
	/* the packet's fields stay in registers until its queue slot is
	 * known, then go straight there (no struct copied through the stack) */
	int32_t cbyte = -1;
	uint8_t cbit = 0,
		flags = (depth ? NETEM_PKT_DUP : 0) | (ce ? NETEM_PKT_CE : 0);
	uint64_t seq;

	memset(orig, 0, sizeof(*orig));

	/* 1. duplicate */
	if (s->duplicate && depth == 0 &&
	    s->duplicate >= netem_crandom(&l->c_dup, &l->r_dup)) {
		count++;
		l->ctr.duplicated++;
	}
	/* 2. loss (or CE mark) */
	if (loss_event(l)) {
		if (s->ecn && ect) {
			orig->ecn = 1;
			flags |= NETEM_PKT_CE;
			l->ctr.ecn_marked++;
		} else {
			count--;
			l->ctr.drop_loss++;
		}
	}
	if (count == 0) {
		orig->drop = NETEM_DROP_LOSS;
		return 0;
	}
	/* 3. corruption of this copy (the duplicate was cloned before) */
	if (s->corrupt &&
	    s->corrupt >= netem_crandom(&l->c_corrupt, &l->r_corrupt)) {
		l->ctr.corrupted++;
		orig->corrupted = 1;
		if (len) {
			cbyte = (int32_t)netem_rng_below(&l->r_cpos, len);
			cbit = (uint8_t)netem_rng_below(&l->r_cpos, 8);
		}
	}
	/* 4. limit: this packet and its pending duplicate */
	if (netem_queue_len(&l->q) + l->held >= s->limit) {
		l->ctr.drop_limit += (uint64_t)count;
		orig->drop = NETEM_DROP_LIMIT;
		return 0;
	}
	/* 5. the duplicate goes through the whole pipeline first; it was
	 * cloned after the loss step, so it carries the original's CE mark */
	if (count > 1) {
		struct copy_res unused;

		rc = enqueue_one(l, now, len, cookie, 1, ect, orig->ecn, dup,
				 &unused);
		if (rc < 0)
			return rc;
	}
	/* 6. reorder to the head, or delay */
	seq = l->seq++;
	if (s->gap == 0 || l->counter < s->gap - 1 ||
	    s->reorder < netem_crandom(&l->c_reorder, &l->r_reorder)) {
		int64_t delay = s->latency_ns, t0 = now, last, tts;

		if (s->jitter_ns)
			delay = netem_tabledist(
				s->latency_ns, (int32_t)s->jitter_ns,
				netem_crandom(&l->c_delay, &l->r_delay),
				l->delay_tab, l->delay_n);
		if (s->rate) {
			if (last_tts(l, &last)) {
				delay -= last - now;
				if (delay < 0)
					delay = 0;
				t0 = last;
			}
			delay += packet_time_ns(s, len);
		}
		tts = t0 + delay;
		if (s->jitter_mode == NETEM_JITTER_FIFO) {
			if (l->fifo_have && tts < l->fifo_last)
				tts = l->fifo_last;
			l->fifo_last = tts;
			l->fifo_have = 1;
		}
		l->counter++;
		d = netem_queue_push_slot(&l->q, tts, seq);
		if (!d)
			return -ENOMEM;
		/* a negative sampled delay is due at once; the raw time
		 * still orders the queue, as in tfifo */
		d->pkt.time_ns = tts < now ? now : tts;
	} else {
		struct netem_qent e;

		memset(&e, 0, sizeof(e));
		e.tts = now;
		e.seq = seq;
		e.pkt.time_ns = now;
		flags |= NETEM_PKT_REORDERED;
		l->counter = 0;
		orig->reordered = 1;
		l->ctr.reordered++;
		rc = netem_queue_stack_push(&l->q, &e);
		if (rc < 0)
			return rc;
		d = &l->q.stack[l->q.sn - 1];
	}
	d->pkt.cookie = cookie;
	d->pkt.len = len;
	d->pkt.corrupt_byte = cbyte;
	d->pkt.corrupt_bit = cbit;
	d->pkt.flags = flags;
	orig->queued = 1;
	orig->tts = d->pkt.time_ns;
	return 0;
}

static void get_slot_next(struct netem_link *l, int64_t now)
{
	const struct netem_spec *s = &l->spec;
	int64_t d;

	if (!s->slot_use_dist) {
		uint64_t span = (uint64_t)(s->slot_max_ns - s->slot_min_ns);
		uint32_t r = netem_rng_u32(&l->r_slot);

		/* mul_u64_u32_shr(span, r, 32) */
		d = s->slot_min_ns +
		    (int64_t)((span >> 32) * r +
			      (((span & 0xffffffffULL) * r) >> 32));
	} else {
		d = s->slot_dist_jitter_ns
			    ? netem_tabledist(s->slot_dist_delay_ns,
					      (int32_t)s->slot_dist_jitter_ns,
					      netem_rng_u32(&l->r_slot),
					      l->slot_tab, l->slot_n)
			    : s->slot_dist_delay_ns;
	}
	l->slot_next = now + d;
	l->packets_left = s->slot_packets ? s->slot_packets : INT32_MAX;
	l->bytes_left = s->slot_bytes ? s->slot_bytes : INT32_MAX;
}

/* The slot check netem_dequeue() makes on every run, including the one
 * right after an enqueue: an idle slot does not bank opportunities. */
static void slot_check(struct netem_link *l, int64_t now)
{
	int64_t t;

	if (l->slot_on && netem_queue_min(&l->q, &t) && l->slot_next < t)
		get_slot_next(l, now);
}

int netem_link_enqueue_ecn(struct netem_link *l, int64_t now_ns, uint32_t len,
			   uint64_t cookie, int ect, struct netem_verdict *v)
{
	struct copy_res o, d;
	int rc, copies = 0;

	if (!l || !v)
		return -EINVAL;
	sched_update(l, now_ns);
	memset(&d, 0, sizeof(d));
	rc = enqueue_one(l, now_ns, len, cookie, 0, ect, 0, &o, &d);
	if (rc < 0)
		return rc;
	l->ctr.in++;
	l->ctr.bytes_in += len;
	slot_check(l, now_ns);
	/* field by field: a verdict assembled on the stack and copied out
	 * whole stalls on store forwarding */
	v->time_ns[0] = v->time_ns[1] = 0;
	if (o.queued)
		v->time_ns[copies++] = o.tts;
	if (d.queued)
		v->time_ns[copies++] = d.tts;
	v->copies = copies;
	v->drop = copies ? NETEM_PASS : o.drop;
	v->corrupted = o.corrupted || d.corrupted;
	v->reordered = o.reordered || d.reordered;
	v->ecn_marked = o.ecn || d.ecn;
	return 0;
}

int netem_link_enqueue(struct netem_link *l, int64_t now_ns, uint32_t len,
		       uint64_t cookie, struct netem_verdict *v)
{
	return netem_link_enqueue_ecn(l, now_ns, len, cookie, 0, v);
}

int64_t netem_link_next_time(const struct netem_link *l)
{
	int64_t t;

	if (l->q.sn)
		return l->q.stack[l->q.sn - 1].tts;
	if (!netem_queue_min(&l->q, &t))
		return INT64_MAX;
	if (!l->slot_on || l->slot_next < t)
		return t;
	return l->slot_next > t ? l->slot_next : t;
}

int netem_link_dequeue(struct netem_link *l, int64_t now_ns,
		       struct netem_pkt *out)
{
	struct netem_qent e;
	int64_t t;

	if (!l || !out)
		return -EINVAL;
	sched_update(l, now_ns);
	if (l->q.sn && l->q.stack[l->q.sn - 1].tts <= now_ns) {
		e = l->q.stack[--l->q.sn];
		goto deliver;
	}
	if (!netem_queue_min(&l->q, &t))
		return 0;
	slot_check(l, now_ns);
	if (t > now_ns || (l->slot_on && l->slot_next > now_ns))
		return 0;
	netem_queue_pop(&l->q, &e);
	if (l->slot_on) {
		l->packets_left--;
		l->bytes_left -= e.pkt.len;
		if (l->packets_left <= 0 || l->bytes_left <= 0)
			get_slot_next(l, now_ns);
	}
deliver:
	l->ctr.delivered++;
	l->ctr.bytes_delivered += e.pkt.len;
	*out = e.pkt;
	return 1;
}

uint32_t netem_link_queued(const struct netem_link *l)
{
	return (uint32_t)netem_queue_len(&l->q) + l->held;
}

int64_t netem_link_least_delay(const struct netem_link *l)
{
	const struct netem_spec *s = &l->spec;

	if (s->jitter_ns || s->gap || l->slot_on || l->sched ||
	    s->latency_ns < 0)
		return 0;
	return s->latency_ns;
}

void netem_link_hold(struct netem_link *l, uint32_t n)
{
	l->held = n;
}

void netem_link_counters(const struct netem_link *l, struct netem_counters *c)
{
	*c = l->ctr;
}

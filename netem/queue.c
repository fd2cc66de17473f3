/*
 * queue.c: the ring, radix heap, fallback heap and reorder stack behind a
 * netem link (see queue.h). Entries compare by time_to_send, then by
 * arrival sequence, which reproduces tfifo's rule that a packet with an
 * equal time goes after the ones already queued.
 *
 * Radix heap (Ahuja et al. 1990, section 3). Times map to unsigned keys
 * that keep their order; "last" is the key of the last entry the radix
 * heap popped. Bucket b holds the keys whose highest bit differing from
 * last is bit b-1 (bucket 0: keys equal to last). Popping the minimum m
 * from bucket b > 0 sets last = m and spreads the rest of bucket b over
 * the (empty) buckets below b; buckets above b stay right because m agrees
 * with the old last on every bit above b-1. Each bucket is a FIFO list,
 * pushes append and the spreading walks a list in order, so two entries
 * with the same key always share a bucket and keep their arrival order:
 * the first minimum in a list is the one that arrived first, which is the
 * (tts, seq) rule without storing seq in the key. Each bucket keeps its
 * first smallest key as entries are appended, so finding the next minimum
 * reads one bucket instead of walking its list.
 *
 * Why keys are not below last: link.c pops an entry only when its time is
 * at or before the dequeue time, so last <= the latest dequeue time; a
 * delayed packet is queued at now + delay with delay >= 0 (rate: at
 * max(last tts, now + delay) + packet time; jitter fifo: never earlier than
 * its own now + delay), so with calls in time order its key is >= last.
 * Reordered packets go to the stack, not here; slots only hold packets
 * back. Two things break it: a sampled delay below zero (jitter larger
 * than the delay, e.g. "delay 2ms 4ms distribution normal") and a caller
 * whose time goes backwards. Such keys go to a 4-ary min-heap of
 * (tts, seq) keys instead; they are all below last, hence below every
 * radix key, so that heap's top, when there is one, is the pool minimum.
 *
 * netem_queue_max_tts (queue.h) is the ring's tail: the ring is empty only
 * when the pool is, and its tail is the largest time queued. A pool entry
 * is below the ring's tail when it arrives, the tail only grows while the
 * ring holds anything, and the ring empties only by popping its tail,
 * which leaves first only if nothing in the pool is earlier, i.e.
 * (everything there being earlier) when the pool is empty.
 */
#include <errno.h>
#include <stdlib.h>

#include "queue.h"

#define NIL UINT32_MAX

/* Written with & and | so the compiler can use conditional moves: the
 * heap's comparisons are unpredictable and branches cost more here. */
static inline int kbefore(const struct netem_hkey *a,
			  const struct netem_hkey *b)
{
	return (a->tts < b->tts) | ((a->tts == b->tts) & (a->seq < b->seq));
}

/* Order-preserving map of a signed time to an unsigned key. */
static inline uint64_t tkey(int64_t tts)
{
	return (uint64_t)tts ^ (1ULL << 63);
}

/* Number of significant bits of x (0 for 0). */
static inline int bitlen(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
	return x ? 64 - __builtin_clzll(x) : 0;
#else
	int n = 0;

	while (x) {
		x >>= 1;
		n++;
	}
	return n;
#endif
}

/* Index of the lowest set bit of x != 0. */
static inline int lowbit(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
	return __builtin_ctzll(x);
#else
	int n = 0;

	while (!(x & 1)) {
		x >>= 1;
		n++;
	}
	return n;
#endif
}

/* Ask for the cache line of a packet that will soon leave (a hint; no
 * effect on behaviour). */
static inline void prefetch(const void *p)
{
#if defined(__GNUC__) || defined(__clang__)
	__builtin_prefetch(p);
#else
	(void)p;
#endif
}

static int grow(struct netem_qent **v, size_t *cap)
{
	size_t ncap = *cap ? *cap * 2 : 64;
	struct netem_qent *nv;

	if (ncap > SIZE_MAX / sizeof(**v))
		return -ENOMEM;
	nv = realloc(*v, ncap * sizeof(**v));
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = ncap;
	return 0;
}

/* Double pool, radix nodes, fallback heap and free list together. Each
 * array is replaced only once its copy exists, so a failure leaves the
 * queue as it was (cap unchanged). */
static int pool_grow(struct netem_queue *q)
{
	size_t ncap = q->cap * 2, i;
	struct netem_hkey *h;
	struct netem_qent *p;
	struct netem_xnode *x;
	uint32_t *f;

	if (ncap > NIL || ncap > SIZE_MAX / sizeof(*p))
		return -ENOMEM;
	h = realloc(q->heap, ncap * sizeof(*h));
	if (!h)
		return -ENOMEM;
	q->heap = h;
	p = realloc(q->pool, ncap * sizeof(*p));
	if (!p)
		return -ENOMEM;
	q->pool = p;
	x = realloc(q->xnode, ncap * sizeof(*x));
	if (!x)
		return -ENOMEM;
	q->xnode = x;
	f = realloc(q->free_idx, ncap * sizeof(*f));
	if (!f)
		return -ENOMEM;
	q->free_idx = f;
	/* the pool is full: every old slot is taken, the new ones are free */
	for (i = 0; i < ncap - q->cap; i++)
		f[i] = (uint32_t)(ncap - 1 - i);
	q->cap = ncap;
	return 0;
}

int netem_queue_init(struct netem_queue *q, size_t cap)
{
	size_t rcap = 64, i;

	while (rcap < cap)
		rcap *= 2;
	q->n = q->sn = q->rn = q->rhead = q->xn = q->hn = 0;
	q->cap = rcap;
	q->rcap = rcap; /* pool and ring start equal */
	q->scap = 16;
	for (i = 0; i < NETEM_XPOS; i++)
		q->xmask[i] = 0;
	q->xpos = 0;
	q->xlast = 0;
	q->xmin = NIL;
	q->xminb = 0;
	q->xminkey = 0;
	/* the bucket heads live apart so that the link's hot fields stay
	 * close together */
	q->xb = malloc(NETEM_XBUCKETS * sizeof(*q->xb));
	q->ring = malloc(q->rcap * sizeof(*q->ring));
	q->heap = malloc(q->cap * sizeof(*q->heap));
	q->pool = malloc(q->cap * sizeof(*q->pool));
	q->xnode = malloc(q->cap * sizeof(*q->xnode));
	q->free_idx = malloc(q->cap * sizeof(*q->free_idx));
	q->stack = malloc(q->scap * sizeof(*q->stack));
	if (!q->xb || !q->ring || !q->heap || !q->pool || !q->xnode ||
	    !q->free_idx || !q->stack) {
		netem_queue_free(q);
		return -ENOMEM;
	}
	for (i = 0; i < NETEM_XBUCKETS; i++)
		q->xb[i].head = q->xb[i].tail = NIL;
	for (i = 0; i < q->cap; i++)
		q->free_idx[i] = (uint32_t)(q->cap - 1 - i);
	return 0;
}

void netem_queue_free(struct netem_queue *q)
{
	free(q->ring);
	free(q->heap);
	free(q->pool);
	free(q->xnode);
	free(q->xb);
	free(q->free_idx);
	free(q->stack);
	q->ring = q->stack = q->pool = NULL;
	q->heap = NULL;
	q->xnode = NULL;
	q->xb = NULL;
	q->free_idx = NULL;
	q->n = q->sn = q->rn = q->cap = q->scap = q->rcap = 0;
	q->xn = q->hn = 0;
}

/* Double the ring, unwrapping it. */
static int ring_grow(struct netem_queue *q)
{
	size_t ncap = q->rcap * 2, i;
	struct netem_qent *nv;

	if (ncap > SIZE_MAX / sizeof(*nv))
		return -ENOMEM;
	nv = malloc(ncap * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	for (i = 0; i < q->rn; i++)
		nv[i] = q->ring[(q->rhead + i) & (q->rcap - 1)];
	free(q->ring);
	q->ring = nv;
	q->rhead = 0;
	q->rcap = ncap;
	return 0;
}

/* ---- radix heap ---- */

/* Bucket of key >= last: 0 when equal, else 1 + 64 p + d with p the
 * position of the highest differing 6-bit digit and d key's digit there. */
static inline uint32_t x_bucket(uint64_t key, uint64_t last)
{
	uint64_t x = key ^ last;
	uint32_t p;

	if (!x)
		return 0;
	/* (h * 43) >> 8 == h / 6 for every bit index h in 0..63 */
	p = ((uint32_t)(bitlen(x) - 1) * 43) >> 8;
	return 1 + p * 64 + (uint32_t)((key >> (NETEM_XDIGIT * p)) & 63);
}

/* Append node s of key to bucket b, keeping the bucket's first smallest
 * key up to date so that finding the minimum never walks a list. */
static inline void x_append(struct netem_queue *q, uint32_t b, uint32_t s,
			    uint64_t key)
{
	struct netem_xbucket *k = &q->xb[b];

	q->xnode[s].next = NIL;
	if (k->head == NIL) {
		k->head = s;
		k->min = s;
		k->mink = key;
		if (b) {
			uint32_t p = (b - 1) >> 6;

			q->xmask[p] |= 1ULL << ((b - 1) & 63);
			q->xpos |= 1U << p;
		}
	} else {
		q->xnode[k->tail].next = s;
		if (key < k->mink) {
			k->min = s;
			k->mink = key;
		}
	}
	k->tail = s;
}

/* Point xmin at the minimum (xn > 0): the head of bucket 0 if any (keys
 * equal to last, oldest first), else the first smallest key of the lowest
 * non-empty bucket (buckets order as their keys: by position, then
 * digit), which that bucket keeps. */
static void x_find_min(struct netem_queue *q)
{
	uint32_t b, p;

	if (q->xb[0].head != NIL) {
		q->xmin = q->xb[0].head;
		q->xminb = 0;
		q->xminkey = q->xlast;
		return;
	}
	p = (uint32_t)lowbit(q->xpos);
	b = 1 + p * 64 + (uint32_t)lowbit(q->xmask[p]);
	q->xmin = q->xb[b].min;
	q->xminb = b;
	q->xminkey = q->xb[b].mink;
	/* the next pop copies it out: start loading it now */
	prefetch(&q->pool[q->xmin]);
}

/* key >= xlast. An equal key does not displace the minimum: it came later. */
static void x_push(struct netem_queue *q, uint32_t s, uint64_t key)
{
	uint32_t b = x_bucket(key, q->xlast);

	q->xnode[s].key = key;
	x_append(q, b, s, key);
	if (q->xn == 0 || key < q->xminkey) {
		q->xmin = s;
		q->xminb = b;
		q->xminkey = key;
	}
	q->xn++;
}

static uint32_t x_pop(struct netem_queue *q)
{
	uint32_t s = q->xmin, b = q->xminb, c, nx, p;

	if (b == 0) {
		/* keys equal to last: s is the head */
		q->xb[0].head = q->xnode[s].next;
	} else {
		/* every bucket below b is empty: spread b over them */
		c = q->xb[b].head;
		q->xlast = q->xminkey;
		q->xb[b].head = NIL;
		p = (b - 1) >> 6;
		q->xmask[p] &= ~(1ULL << ((b - 1) & 63));
		if (!q->xmask[p])
			q->xpos &= ~(1U << p);
		for (; c != NIL; c = nx) {
			nx = q->xnode[c].next;
			if (c != s) {
				uint64_t k = q->xnode[c].key;

				x_append(q, x_bucket(k, q->xlast), c, k);
			}
		}
	}
	if (--q->xn)
		x_find_min(q);
	return s;
}

/* ---- fallback 4-ary heap (keys below xlast) ---- */

static void h_push(struct netem_queue *q, const struct netem_hkey *k)
{
	size_t i = q->hn++;

	while (i > 0) {
		size_t parent = (i - 1) / 4;

		if (!kbefore(k, &q->heap[parent]))
			break;
		q->heap[i] = q->heap[parent];
		i = parent;
	}
	q->heap[i] = *k;
}

static uint32_t h_pop(struct netem_queue *q)
{
	uint32_t top = q->heap[0].idx;
	struct netem_hkey last;
	size_t i = 0, n = --q->hn;

	if (n == 0)
		return top;
	last = q->heap[n];
	/* Floyd's bottom-up deletion: walk the hole down along the smallest
	 * children to a leaf, then sift "last" up from there. */
	for (;;) {
		size_t c = 4 * i + 1, m = c, j, end = c + 4;

		if (c >= n)
			break;
		if (end > n)
			end = n;
		for (j = c + 1; j < end; j++)
			m = kbefore(&q->heap[j], &q->heap[m]) ? j : m;
		q->heap[i] = q->heap[m];
		i = m;
	}
	while (i > 0) {
		size_t parent = (i - 1) / 4;

		if (!kbefore(&last, &q->heap[parent]))
			break;
		q->heap[i] = q->heap[parent];
		i = parent;
	}
	q->heap[i] = last;
	return top;
}

/* ---- the queue ---- */

struct netem_qent *netem_queue_push_slot(struct netem_queue *q, int64_t tts,
					 uint64_t seq)
{
	uint64_t key = tkey(tts);
	struct netem_qent *d;
	uint32_t idx;

	/* tfifo_enqueue: not before the linear tail -> append */
	if (q->rn == 0 || tts >= netem_queue_ring_tail(q)->tts) {
		if (q->rn == q->rcap && ring_grow(q) < 0)
			return NULL;
		d = &q->ring[(q->rhead + q->rn) & (q->rcap - 1)];
		q->rn++;
	} else {
		if (q->n == q->cap && pool_grow(q) < 0)
			return NULL;
		idx = q->free_idx[q->cap - q->n - 1];
		d = &q->pool[idx];
		if (key >= q->xlast) {
			x_push(q, idx, key);
		} else {
			struct netem_hkey k = {tts, seq, idx};

			h_push(q, &k);
		}
		q->n++;
	}
	d->tts = tts;
	d->seq = seq;
	return d;
}

int netem_queue_push(struct netem_queue *q, const struct netem_qent *e)
{
	struct netem_qent *d = netem_queue_push_slot(q, e->tts, e->seq);

	if (!d)
		return -ENOMEM;
	d->pkt = e->pkt;
	return 0;
}

/* Remove the next entry. */
void netem_queue_pop(struct netem_queue *q, struct netem_qent *out)
{
	uint32_t idx;

	if (netem_queue_ring_first(q)) {
		*out = q->ring[q->rhead];
		q->rhead = (q->rhead + 1) & (q->rcap - 1);
		q->rn--;
		return;
	}
	if (!q->n)
		return;
	idx = q->hn ? h_pop(q) : x_pop(q);
	*out = q->pool[idx];
	q->n--;
	q->free_idx[q->cap - q->n - 1] = idx;
}

int netem_queue_stack_push(struct netem_queue *q, const struct netem_qent *e)
{
	if (q->sn == q->scap && grow(&q->stack, &q->scap) < 0)
		return -ENOMEM;
	q->stack[q->sn++] = *e;
	return 0;
}

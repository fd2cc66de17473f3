/*
 * bridge.c: the userspace impairment bridge (reckon's default backend, see
 * bridge.h and docs/bridge.md). One AF_PACKET socket per hub-side veth
 * reads what a host sends; IPv4 unicast frames go through the directed
 * link's netem engine and wait in a preallocated frame pool; a single
 * absolute CLOCK_MONOTONIC timerfd, registered with libevent and armed at
 * the earliest due time of a min-heap of links, wakes the bridge to inject
 * every due copy on the destination's socket. Everything else (ARP, IPv6,
 * broadcast, multicast) is forwarded at once, unimpaired. Optional pcap
 * dumps record each directed link before and after the impairment.
 */
#include <errno.h>
#include <endian.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/virtio_net.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/timerfd.h>

#include "bridge.h"
#include "capture.h"
#include "frame.h"

#define RX_BATCH   32 /* frames per recvmmsg */
#define RX_ROUNDS  8  /* recvmmsg calls per wake-up, for fairness */
#define POOL_SMALL 16384
#define POOL_LARGE 64
#define SOCK_BUF   (8 << 20)

struct bridge;

struct bport {
	struct bridge *b;
	unsigned idx;
	int fd;
	struct event *ev;
	unsigned char mac[6];
};

struct blink {
	struct netem_link *nl;
	unsigned src, dst;
	int64_t next;	 /* netem_link_next_time, the heap key */
	int64_t last_in; /* enqueue times never go backwards on a link */
	int hpos;	 /* index in the heap, -1 when absent */
	struct capture *before, *after;
};

struct bridge {
	struct event_base *base;
	unsigned n;
	struct bport *ports;
	struct blink **links; /* n * n, [src * n + dst], lazily created */
	char (*names)[SC_NAME_MAX];
	uint64_t seed;
	struct frame_pool *pool;

	int tfd; /* CLOCK_MONOTONIC timerfd, absolute */
	struct event *tev;
	int64_t armed; /* INT64_MAX when disarmed */
	struct blink **heap;
	unsigned heap_n;

	char *pcap_dir;
	int cap_before, cap_after;
	uint32_t snaplen;
	uint64_t max_bytes;
	int64_t rt_off; /* CLOCK_REALTIME - CLOCK_MONOTONIC, ns */

	struct bridge_stats st;
	uint64_t *kdrops; /* per port, summed PACKET_STATISTICS drops */

	uint8_t *scratch; /* RX_BATCH * FRAME_LARGE_CAP */
	struct mmsghdr msg[RX_BATCH];
	struct iovec iov[RX_BATCH][2];
	struct virtio_net_hdr vh[RX_BATCH];
	struct sockaddr_ll sll[RX_BATCH];
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(struct timespec))];
	} cmsg[RX_BATCH];
};

static int64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

/* ---- the heap of links, keyed by their next due time ---- */

static void heap_swap(struct bridge *b, unsigned i, unsigned j)
{
	struct blink *t = b->heap[i];

	b->heap[i] = b->heap[j];
	b->heap[j] = t;
	b->heap[i]->hpos = (int)i;
	b->heap[j]->hpos = (int)j;
}

static void heap_up(struct bridge *b, unsigned i)
{
	while (i > 0 && b->heap[(i - 1) / 2]->next > b->heap[i]->next) {
		heap_swap(b, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static void heap_down(struct bridge *b, unsigned i)
{
	for (;;) {
		unsigned l = 2 * i + 1, r = l + 1, m = i;

		if (l < b->heap_n && b->heap[l]->next < b->heap[m]->next)
			m = l;
		if (r < b->heap_n && b->heap[r]->next < b->heap[m]->next)
			m = r;
		if (m == i)
			return;
		heap_swap(b, i, m);
		i = m;
	}
}

/* Re-read the link's next due time and put it where it belongs. */
static void heap_update(struct bridge *b, struct blink *l)
{
	l->next = netem_link_next_time(l->nl);
	if (l->hpos < 0) {
		if (l->next == INT64_MAX)
			return;
		l->hpos = (int)b->heap_n;
		b->heap[b->heap_n++] = l;
		heap_up(b, (unsigned)l->hpos);
		return;
	}
	if (l->next == INT64_MAX) {
		unsigned i = (unsigned)l->hpos, last = b->heap_n - 1;

		if (i != last)
			heap_swap(b, i, last);
		b->heap_n--;
		l->hpos = -1;
		if (i < b->heap_n) {
			heap_up(b, i);
			heap_down(b, i);
		}
		return;
	}
	heap_up(b, (unsigned)l->hpos);
	heap_down(b, (unsigned)l->hpos);
}

static void timer_arm_at(struct bridge *b, int64_t t)
{
	struct itimerspec its;

	if (t == b->armed)
		return;
	memset(&its, 0, sizeof(its));
	if (t != INT64_MAX) {
		if (t <= 0)
			t = 1; /* it_value 0 would disarm */
		its.it_value.tv_sec = t / 1000000000;
		its.it_value.tv_nsec = t % 1000000000;
	}
	if (timerfd_settime(b->tfd, TFD_TIMER_ABSTIME, &its, NULL) == 0)
		b->armed = t;
}

static void timer_arm(struct bridge *b)
{
	timer_arm_at(b, b->heap_n ? b->heap[0]->next : INT64_MAX);
}

/* ---- links ---- */

static struct blink *link_make(struct bridge *b, unsigned src, unsigned dst,
			       const struct netem_spec *spec)
{
	struct netem_spec none;
	struct blink *l;
	char path[PATH_MAX];
	uint64_t id;

	if (spec == NULL) {
		netem_spec_init(&none);
		spec = &none;
	}
	l = calloc(1, sizeof(*l));
	if (l == NULL)
		return NULL;
	id = netem_link_id(b->names[src], b->names[dst]);
	if (netem_link_new(spec, b->seed, id, &l->nl) < 0) {
		free(l);
		return NULL;
	}
	l->src = src;
	l->dst = dst;
	l->hpos = -1;
	l->next = INT64_MAX;
	if (b->pcap_dir != NULL && b->cap_before) {
		snprintf(path, sizeof(path), "%s/%s-%s.before.pcap",
			 b->pcap_dir, b->names[src], b->names[dst]);
		if (capture_open(path, b->snaplen, b->max_bytes, &l->before) <
		    0)
			b->st.capture_errors++;
	}
	if (b->pcap_dir != NULL && b->cap_after) {
		snprintf(path, sizeof(path), "%s/%s-%s.after.pcap", b->pcap_dir,
			 b->names[src], b->names[dst]);
		if (capture_open(path, b->snaplen, b->max_bytes, &l->after) < 0)
			b->st.capture_errors++;
	}
	b->links[src * b->n + dst] = l;
	return l;
}

static void link_free(struct blink *l)
{
	if (l == NULL)
		return;
	netem_link_free(l->nl);
	capture_close(l->before);
	capture_close(l->after);
	free(l);
}

/* ---- injection ---- */

static int port_send(struct bridge *b, unsigned dst, const void *vh,
		     const uint8_t *buf, uint32_t len)
{
	struct iovec iov[2] = {
		{.iov_base = (void *)vh,
		 .iov_len = sizeof(struct virtio_net_hdr)},
		{.iov_base = (void *)buf, .iov_len = len},
	};
	struct msghdr m = {.msg_iov = iov, .msg_iovlen = 2};

	if (sendmsg(b->ports[dst].fd, &m, MSG_DONTWAIT) < 0) {
		b->st.send_errors++;
		return -errno;
	}
	return 0;
}

static void capture_rec(struct bridge *b, struct capture *c, int64_t mono,
			const uint8_t *buf, uint32_t len)
{
	if (c != NULL && capture_write(c, mono + b->rt_off, buf, len) == 1)
		b->st.capture_skipped++;
}

/* Set CE in the IPv4 header of a copy the engine marked instead of
 * dropping (RFC 3168 section 5; spec "ecn"), fixing the header checksum.
 * Saves the three bytes it changes so the caller can restore the frame a
 * duplicate shares. Returns 1 when it marked. */
static int mark_ce(uint8_t *buf, uint32_t len, uint8_t save[3], unsigned *off)
{
	struct frame_info fi;
	uint8_t *ip;
	unsigned ihl;
	uint16_t c;

	if (frame_parse(buf, len, &fi) < 0 || !fi.is_ipv4)
		return 0;
	ip = buf + fi.l3_off;
	*off = fi.l3_off;
	save[0] = ip[1];
	save[1] = ip[10];
	save[2] = ip[11];
	ip[1] |= 0x03;
	ihl = (ip[0] & 0x0f) * 4u;
	ip[10] = ip[11] = 0;
	c = frame_csum_fold(frame_csum_add(0, ip, ihl));
	ip[10] = (uint8_t)(c >> 8);
	ip[11] = (uint8_t)c;
	return 1;
}

static void deliver(struct bridge *b, struct blink *l,
		    const struct netem_pkt *p)
{
	struct frame_buf *fb = frame_pool_lookup(b->pool, p->cookie);
	uint8_t save[3];
	unsigned l3 = 0;
	int flipped, marked;

	if (fb == NULL)
		return; /* cannot happen: every cookie is ours */
	/* The bytes are shared by a duplicate's two copies: flip the bit
	 * for this copy only and flip it back after sending. */
	marked = (p->flags & NETEM_PKT_CE) &&
		 mark_ce(fb->data, fb->len, save, &l3);
	flipped = p->corrupt_byte >= 0 &&
		  frame_flip_bit(fb->data, fb->len, p->corrupt_byte,
				 p->corrupt_bit) == 0;
	port_send(b, l->dst, fb->meta, fb->data, fb->len);
	capture_rec(b, l->after, mono_ns(), fb->data, fb->len);
	if (flipped)
		frame_flip_bit(fb->data, fb->len, p->corrupt_byte,
			       p->corrupt_bit);
	if (marked) {
		fb->data[l3 + 1] = save[0];
		fb->data[l3 + 10] = save[1];
		fb->data[l3 + 11] = save[2];
	}
	frame_pool_put(b->pool, p->cookie);
}

/* Send every copy that is due, re-reading the clock until nothing is,
 * then arm the timer for the next one. */
static void run_due(struct bridge *b)
{
	struct netem_pkt p;
	int64_t now = mono_ns();

	while (b->heap_n && b->heap[0]->next <= now) {
		struct blink *l = b->heap[0];
		unsigned got = 0;

		while (netem_link_dequeue(l->nl, now, &p) == 1) {
			deliver(b, l, &p);
			got++;
		}
		heap_update(b, l);
		if (got == 0 && l->next <= now) {
			/* The engine says "due" but hands nothing out (a
			 * slot boundary it has not moved yet): retry in 1 us
			 * rather than spin. */
			timer_arm_at(b, now + 1000);
			return;
		}
		if (!b->heap_n || b->heap[0]->next > now)
			now = mono_ns();
	}
	timer_arm(b);
}

static void on_timer(evutil_socket_t fd, short what, void *arg)
{
	uint64_t ticks;

	(void)what;
	if (read(fd, &ticks, sizeof(ticks)) < 0 && errno != EAGAIN)
		return;
	run_due(arg);
}

/* ---- reception ---- */

static int port_by_mac(const struct bridge *b, const uint8_t *mac)
{
	for (unsigned i = 0; i < b->n; i++)
		if (memcmp(b->ports[i].mac, mac, 6) == 0)
			return (int)i;
	return -1;
}

static void impair(struct bridge *b, unsigned src, unsigned dst,
		   const struct virtio_net_hdr *vh, const uint8_t *buf,
		   uint32_t len, int ect, int64_t now)
{
	struct blink *l = b->links[src * b->n + dst];
	struct netem_verdict v;
	struct frame_buf *fb;
	uint64_t cookie;
	int rc;

	if (l == NULL && (l = link_make(b, src, dst, NULL)) == NULL) {
		b->st.link_errors++;
		return;
	}
	rc = frame_pool_get(b->pool, len, &cookie, &fb);
	if (rc < 0) {
		if (rc == -EMSGSIZE)
			b->st.oversize++;
		else
			b->st.pool_full++;
		return;
	}
	if (now < l->last_in)
		now = l->last_in;
	l->last_in = now;
	memcpy(fb->data, buf, len);
	memcpy(fb->meta, vh, sizeof(*vh));
	fb->meta_len = sizeof(*vh);
	capture_rec(b, l->before, now, buf, len);
	if (netem_link_enqueue_ecn(l->nl, now, len, cookie, ect, &v) < 0) {
		frame_pool_set_refs(b->pool, cookie, 0);
		b->st.link_errors++;
		return;
	}
	frame_pool_set_refs(b->pool, cookie, (uint32_t)v.copies);
	heap_update(b, l);
}

/* The frame's arrival time: the kernel's receive stamp (CLOCK_REALTIME,
 * SO_TIMESTAMPNS) mapped to CLOCK_MONOTONIC, which is when Linux netem
 * would have seen it at enqueue; the time it was read (now) if the stamp is
 * missing or implausible (a clock step, or more than 1 s old). */
static int64_t arrival(const struct bridge *b, unsigned k, int64_t now)
{
	const struct msghdr *m = &b->msg[k].msg_hdr;
	struct cmsghdr *c;

	for (c = CMSG_FIRSTHDR(m); c; c = CMSG_NXTHDR((struct msghdr *)m, c)) {
		struct timespec ts;
		int64_t t;

		if (c->cmsg_level != SOL_SOCKET ||
		    c->cmsg_type != SCM_TIMESTAMPNS)
			continue;
		memcpy(&ts, CMSG_DATA(c), sizeof(ts));
		t = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec - b->rt_off;
		if (t <= now && t > now - 1000000000)
			return t;
	}
	return now;
}

static void handle_frame(struct bridge *b, unsigned src, unsigned k,
			 uint32_t len, int64_t now)
{
	struct virtio_net_hdr *vh = &b->vh[k];
	uint8_t *buf = b->scratch + (size_t)k * FRAME_LARGE_CAP;
	struct frame_info fi;
	int dst;

	if (b->sll[k].sll_pkttype == PACKET_OUTGOING)
		return; /* our own injection (no PACKET_IGNORE_OUTGOING) */
	if ((b->msg[k].msg_hdr.msg_flags & MSG_TRUNC) ||
	    len > FRAME_LARGE_CAP) {
		b->st.oversize++;
		return;
	}
	if (frame_parse(buf, len, &fi) < 0) {
		b->st.malformed++;
		return;
	}
	if (vh->gso_type == VIRTIO_NET_HDR_GSO_NONE) {
		/* Finish an offloaded checksum now, as netem's corrupt
		 * path does, so the frame is valid on the wire, in the
		 * pcap and after a bit flip. */
		if (vh->flags & VIRTIO_NET_HDR_F_NEEDS_CSUM) {
			if (frame_csum_complete(buf, len,
						le16toh(vh->csum_start),
						le16toh(vh->csum_offset)) < 0) {
				b->st.malformed++;
				return;
			}
			b->st.csum_completed++;
		}
		memset(vh, 0, sizeof(*vh));
	}
	if (fi.dst_class != FRAME_DST_UNICAST) {
		b->st.passthrough++;
		for (unsigned j = 0; j < b->n; j++)
			if (j != src)
				port_send(b, j, vh, buf, len);
		return;
	}
	dst = port_by_mac(b, buf);
	if (dst < 0 || (unsigned)dst == src) {
		b->st.unknown_dst++;
		return;
	}
	if (!fi.is_ipv4) {
		b->st.passthrough++;
		port_send(b, (unsigned)dst, vh, buf, len);
		return;
	}
	/* ECN field of the TOS byte: ECT(0), ECT(1) or CE may be marked. */
	impair(b, src, (unsigned)dst, vh, buf, len,
	       (buf[fi.l3_off + 1] & 0x03) != 0, arrival(b, k, now));
}

static void on_rx(evutil_socket_t fd, short what, void *arg)
{
	struct bport *pt = arg;
	struct bridge *b = pt->b;

	(void)what;
	for (int round = 0; round < RX_ROUNDS; round++) {
		int n, k;
		int64_t now;

		for (k = 0; k < RX_BATCH; k++) {
			b->msg[k].msg_hdr.msg_namelen = sizeof(b->sll[k]);
			b->msg[k].msg_hdr.msg_controllen = sizeof(b->cmsg[k]);
			b->msg[k].msg_hdr.msg_flags = 0;
		}
		n = recvmmsg(fd, b->msg, RX_BATCH, MSG_DONTWAIT, NULL);
		if (n < 0) {
			if (errno != EAGAIN && errno != EINTR)
				b->st.rx_errors++;
			break;
		}
		now = mono_ns();
		for (k = 0; k < n; k++) {
			uint32_t got = b->msg[k].msg_len;

			if (got < sizeof(struct virtio_net_hdr)) {
				b->st.malformed++;
				continue;
			}
			handle_frame(
				b, pt->idx, (unsigned)k,
				got - (uint32_t)sizeof(struct virtio_net_hdr),
				now);
		}
		if (n < RX_BATCH)
			break;
	}
	run_due(b);
}

static int port_open(struct bridge *b, unsigned i, const struct bridge_port *p)
{
	struct sockaddr_ll sll;
	struct packet_mreq mr;
	int fd, err, one = 1, sz = SOCK_BUF;

	fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_PACKET, PACKET_VNET_HDR, &one, sizeof(one)) < 0)
		goto fail;
	/* Best effort: older kernels lack it and handle_frame checks the
	 * packet type anyway. */
	(void)setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one,
			 sizeof(one));
	if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one)) < 0)
		goto fail;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz)) < 0)
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &sz, sizeof(sz)) < 0)
		(void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = p->ifindex;
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0)
		goto fail;
	memset(&mr, 0, sizeof(mr));
	mr.mr_ifindex = p->ifindex;
	mr.mr_type = PACKET_MR_PROMISC;
	if (setsockopt(fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr, sizeof(mr)) <
	    0)
		goto fail;
	b->ports[i].b = b;
	b->ports[i].idx = i;
	b->ports[i].fd = fd;
	memcpy(b->ports[i].mac, p->mac, 6);
	b->ports[i].ev = event_new(b->base, fd, EV_READ | EV_PERSIST, on_rx,
				   &b->ports[i]);
	if (b->ports[i].ev == NULL || event_add(b->ports[i].ev, NULL) < 0)
		return -ENOMEM; /* fd is closed by bridge_free */
	return 0;
fail:
	err = errno;
	close(fd);
	return -err;
}

/* ---- the contract ---- */

static int64_t realtime_offset(void)
{
	int64_t m0 = mono_ns(), r = clock_ns(CLOCK_REALTIME), m1 = mono_ns();

	return r - (m0 + (m1 - m0) / 2);
}

int bridge_new(struct event_base *base, const struct scenario *sc,
	       uint64_t seed, const struct bridge_port *ports, unsigned nports,
	       const char *pcap_dir, struct bridge **out)
{
	struct bridge *b;
	unsigned i, j, k;
	int rc = -ENOMEM;

	if (base == NULL || sc == NULL || ports == NULL || out == NULL ||
	    nports == 0 || nports != sc->nhosts || nports > SC_MAX_HOSTS)
		return -EINVAL;
	for (i = 0; i < nports; i++)
		for (j = i + 1; j < nports; j++)
			if (ports[i].ifindex == ports[j].ifindex ||
			    memcmp(ports[i].mac, ports[j].mac, 6) == 0)
				return -EINVAL;
	/* Timers fire at their deadline, not up to 50 us after it. */
	(void)prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);

	b = calloc(1, sizeof(*b));
	if (b == NULL)
		return -ENOMEM;
	b->base = base;
	b->n = nports;
	b->seed = seed;
	b->tfd = -1;
	b->armed = INT64_MAX;
	b->rt_off = realtime_offset();
	b->ports = calloc(nports, sizeof(*b->ports));
	b->links = calloc((size_t)nports * nports, sizeof(*b->links));
	b->heap = calloc((size_t)nports * nports, sizeof(*b->heap));
	b->names = calloc(nports, sizeof(*b->names));
	b->kdrops = calloc(nports, sizeof(*b->kdrops));
	b->scratch = malloc((size_t)RX_BATCH * FRAME_LARGE_CAP);
	if (!b->ports || !b->links || !b->heap || !b->names || !b->kdrops ||
	    !b->scratch)
		goto fail;
	for (i = 0; i < nports; i++) {
		b->ports[i].fd = -1;
		memcpy(b->names[i], sc->hosts[i].name, SC_NAME_MAX);
		b->names[i][SC_NAME_MAX - 1] = '\0';
	}
	for (k = 0; k < RX_BATCH; k++) {
		b->iov[k][0].iov_base = &b->vh[k];
		b->iov[k][0].iov_len = sizeof(b->vh[k]);
		b->iov[k][1].iov_base =
			b->scratch + (size_t)k * FRAME_LARGE_CAP;
		b->iov[k][1].iov_len = FRAME_LARGE_CAP;
		b->msg[k].msg_hdr.msg_iov = b->iov[k];
		b->msg[k].msg_hdr.msg_iovlen = 2;
		b->msg[k].msg_hdr.msg_name = &b->sll[k];
		b->msg[k].msg_hdr.msg_control = &b->cmsg[k];
	}
	if ((rc = frame_pool_new(POOL_SMALL, POOL_LARGE, &b->pool)) < 0)
		goto fail;
	if (pcap_dir != NULL && sc->capture.enabled &&
	    (sc->capture.before || sc->capture.after)) {
		b->pcap_dir = strdup(pcap_dir);
		if (b->pcap_dir == NULL) {
			rc = -ENOMEM;
			goto fail;
		}
		b->cap_before = sc->capture.before;
		b->cap_after = sc->capture.after;
		b->snaplen = sc->capture.snaplen;
		b->max_bytes = sc->capture.max_bytes;
	}
	/* Links with a [link] section exist from the start, so sc is not
	 * needed after this call; unimpaired pairs are made on first use. */
	for (i = 0; i < nports; i++)
		for (j = 0; j < nports; j++) {
			const struct netem_spec *s;

			if (i == j ||
			    (s = scenario_link_spec(sc, i, j)) == NULL)
				continue;
			if (link_make(b, i, j, s) == NULL) {
				rc = -ENOMEM;
				goto fail;
			}
		}
	b->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (b->tfd < 0) {
		rc = -errno;
		goto fail;
	}
	b->tev = event_new(base, b->tfd, EV_READ | EV_PERSIST, on_timer, b);
	if (b->tev == NULL || event_add(b->tev, NULL) < 0) {
		rc = -ENOMEM;
		goto fail;
	}
	for (i = 0; i < nports; i++)
		if ((rc = port_open(b, i, &ports[i])) < 0)
			goto fail;
	*out = b;
	return 0;
fail:
	bridge_free(b);
	return rc;
}

int bridge_set_spec(struct bridge *b, unsigned src, unsigned dst,
		    const struct netem_spec *s)
{
	struct blink *l;
	int rc;

	if (b == NULL || s == NULL || src >= b->n || dst >= b->n || src == dst)
		return -EINVAL;
	l = b->links[src * b->n + dst];
	if (l == NULL)
		return link_make(b, src, dst, s) ? 0 : -ENOMEM;
	rc = netem_link_set_spec(l->nl, s, mono_ns());
	if (rc < 0)
		return rc;
	heap_update(b, l);
	timer_arm(b);
	return 0;
}

int bridge_set_schedule(struct bridge *b, unsigned src, unsigned dst,
			const struct netem_sched *s, int64_t origin_ns)
{
	struct blink *l;
	int rc;

	if (b == NULL || src >= b->n || dst >= b->n || src == dst)
		return -EINVAL;
	l = b->links[src * b->n + dst];
	if (l == NULL && (l = link_make(b, src, dst, NULL)) == NULL)
		return -ENOMEM;
	rc = netem_link_set_schedule(l->nl, s, origin_ns);
	if (rc < 0)
		return rc;
	heap_update(b, l);
	timer_arm(b);
	return 0;
}

int bridge_counters(const struct bridge *b, unsigned src, unsigned dst,
		    struct netem_counters *c)
{
	const struct blink *l;

	if (b == NULL || c == NULL || src >= b->n || dst >= b->n || src == dst)
		return -EINVAL;
	l = b->links[src * b->n + dst];
	if (l == NULL)
		memset(c, 0, sizeof(*c));
	else
		netem_link_counters(l->nl, c);
	return 0;
}

void bridge_passthrough(const struct bridge *b, uint64_t *frames)
{
	if (b != NULL && frames != NULL)
		*frames = b->st.passthrough;
}

int bridge_stats(const struct bridge *b, struct bridge_stats *out)
{
	struct bridge_stats st;

	if (b == NULL || out == NULL)
		return -EINVAL;
	st = b->st;
	st.rx_dropped = 0;
	for (unsigned i = 0; i < b->n; i++) {
		struct tpacket_stats ps;
		socklen_t len = sizeof(ps);

		/* The kernel resets these on every read: keep the sum. */
		if (getsockopt(b->ports[i].fd, SOL_PACKET, PACKET_STATISTICS,
			       &ps, &len) == 0)
			b->kdrops[i] += ps.tp_drops;
		st.rx_dropped += b->kdrops[i];
	}
	*out = st;
	return 0;
}

int bridge_flush(struct bridge *b)
{
	int rc = 0;

	if (b == NULL)
		return -EINVAL;
	for (size_t i = 0; i < (size_t)b->n * b->n; i++) {
		struct blink *l = b->links[i];

		if (l == NULL)
			continue;
		if (l->before && capture_flush(l->before) < 0)
			rc = -EIO;
		if (l->after && capture_flush(l->after) < 0)
			rc = -EIO;
	}
	return rc;
}

void bridge_free(struct bridge *b)
{
	if (b == NULL)
		return;
	for (unsigned i = 0; b->ports && i < b->n; i++) {
		if (b->ports[i].ev)
			event_free(b->ports[i].ev);
		if (b->ports[i].fd >= 0)
			close(b->ports[i].fd);
	}
	if (b->tev)
		event_free(b->tev);
	if (b->tfd >= 0)
		close(b->tfd);
	for (size_t i = 0; b->links && i < (size_t)b->n * b->n; i++)
		link_free(b->links[i]);
	frame_pool_free(b->pool);
	free(b->ports);
	free(b->links);
	free(b->heap);
	free(b->names);
	free(b->kdrops);
	free(b->scratch);
	free(b->pcap_dir);
	free(b);
}

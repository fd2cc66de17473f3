/*
 * bridge_rx.c: how the userspace bridge reads frames with the `ring`
 * backend, and what it does with a frame whichever backend read it
 * (br_rx_frame; bridge_pcap.c is the `pcap` backend). Each port is an
 * AF_PACKET socket bound to the hub-side veth with a TPACKET_V3 receive
 * ring (PACKET_RX_RING, mmap'd) and a virtio-net header in front of each
 * frame (PACKET_VNET_HDR, which tpacket_rcv writes for every ring
 * version). libevent watches the socket; on wake-up the bridge walks the
 * blocks the kernel has closed, classifies each frame, forwards non-IPv4,
 * broadcast and multicast frames at once, copies IPv4 unicast frames into
 * the frame pool and offers them to the directed link's netem engine at
 * the frame's ring timestamp, and hands each block back to the kernel
 * (TP_STATUS_KERNEL) once its passthrough frames have been sent.
 */
#include <errno.h>
#include <endian.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "bridge_int.h"

#define RING_BLOCK	   (1u << 17) /* holds a 64 KiB GSO frame and headers */
#define RING_FRAME	   2048u      /* nominal; V3 packs frames by size */
#define RING_BUDGET	   512u	      /* blocks over all ports (64 MiB) */
#define RING_BLOCKS_MAX	   32u	      /* 4 MiB per port */
#define RING_BLOCKS_MIN	   8u
#define RING_TOV_MS	   1u /* a part-filled block is closed after 1 ms */
#define RX_BLOCKS_PER_WAKE 8u /* then let the other ports and timers run */
#define SOCK_BUF	   (8 << 20)

static unsigned ring_blocks(const struct bridge *b)
{
	unsigned n = RING_BUDGET / b->n;

	return n > RING_BLOCKS_MAX   ? RING_BLOCKS_MAX
	       : n < RING_BLOCKS_MIN ? RING_BLOCKS_MIN
				     : n;
}

static int port_by_mac(const struct bridge *b, const uint8_t *mac)
{
	for (unsigned i = 0; i < b->n; i++)
		if (memcmp(b->ports[i].mac, mac, 6) == 0)
			return (int)i;
	return -1;
}

static void impair(struct bridge *b, unsigned src, unsigned dst,
		   const struct virtio_net_hdr *vh, const uint8_t *buf,
		   uint32_t len, int ect, int64_t t)
{
	struct blink *l = b->links[src * b->n + dst];
	struct netem_verdict v;
	struct frame_buf *fb;
	uint64_t cookie;
	int rc;

	if (l == NULL && (l = br_link_make(b, src, dst, NULL)) == NULL) {
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
	if (t < l->last_in)
		t = l->last_in;
	l->last_in = t;
	memcpy(fb->data, buf, len);
	memcpy(fb->meta, vh, sizeof(*vh));
	fb->meta_len = sizeof(*vh);
	br_capture(b, l->before, t, buf, len);
	if (netem_link_enqueue_ecn(l->nl, t, len, cookie, ect, &v) < 0) {
		frame_pool_set_refs(b->pool, cookie, 0);
		b->st.link_errors++;
		return;
	}
	frame_pool_set_refs(b->pool, cookie, (uint32_t)v.copies);
	br_heap_update(b, l);
}

/* Whether port j can inject a frame of len bytes: a frame with a GSO
 * header is segmented by the kernel; any other must fit the port's MTU. */
static int fits(const struct bridge *b, unsigned j,
		const struct virtio_net_hdr *vh, uint32_t len)
{
	return vh->gso_type != VIRTIO_NET_HDR_GSO_NONE ||
	       len <= b->ports[j].maxlen;
}

/* Classify one frame and send it on its way: vh is its virtio-net
 * header, t its arrival time (CLOCK_MONOTONIC). A frame too long for
 * the destination's MTU (a GSO super-frame read without its header)
 * counts oversize: the kernel would refuse it. */
void br_rx_frame(struct bridge *b, unsigned src, struct virtio_net_hdr *vh,
		 uint8_t *buf, uint32_t len, int64_t t)
{
	struct frame_info fi;
	int dst;

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
		int big = 0;

		b->st.passthrough++;
		for (unsigned j = 0; j < b->n; j++) {
			if (j == src)
				continue;
			if (!fits(b, j, vh, len))
				big = 1;
			else
				br_tx_queue(b, j, NULL, vh, buf, len, 0);
		}
		b->st.oversize += (uint64_t)big;
		return;
	}
	dst = port_by_mac(b, buf);
	if (dst < 0 || (unsigned)dst == src) {
		b->st.unknown_dst++;
		return;
	}
	if (!fits(b, (unsigned)dst, vh, len)) {
		b->st.oversize++;
		return;
	}
	if (!fi.is_ipv4) {
		b->st.passthrough++;
		br_tx_queue(b, (unsigned)dst, NULL, vh, buf, len, 0);
		return;
	}
	/* ECN field of the TOS byte: ECT(0), ECT(1) or CE may be marked. */
	impair(b, src, (unsigned)dst, vh, buf, len,
	       (buf[fi.l3_off + 1] & 0x03) != 0, t);
}

/* One frame of a block: h is its tpacket3_hdr, end the block's end. The
 * arrival time is the ring's stamp (CLOCK_REALTIME, taken by the kernel
 * when the frame reached the socket) mapped to CLOCK_MONOTONIC with the
 * offset rt read along with now, so a slewed wall clock does not drift
 * it: when Linux netem would have enqueued the frame. A stamp that is
 * implausible (a clock step, older than 1 s) falls back to now. */
static void rx_frame(struct bridge *b, struct bport *pt, struct tpacket3_hdr *h,
		     const uint8_t *end, int64_t now, int64_t rt)
{
	const struct sockaddr_ll *sll =
		(const void *)((uint8_t *)h + TPACKET_ALIGN(sizeof(*h)));
	uint8_t *buf = (uint8_t *)h + h->tp_mac;
	int64_t t;

	if (h->tp_mac < TPACKET_ALIGN(sizeof(*h)) + sizeof(*sll) +
				sizeof(struct virtio_net_hdr) ||
	    (size_t)(end - buf) < h->tp_snaplen) {
		b->st.rx_errors++; /* not a layout the kernel writes */
		return;
	}
	if (sll->sll_pkttype == PACKET_OUTGOING)
		return; /* our own injection (no PACKET_IGNORE_OUTGOING) */
	b->st.ring_frames++;
	if (h->tp_snaplen < h->tp_len || h->tp_len > FRAME_LARGE_CAP) {
		b->st.oversize++; /* cut by the ring, or over a pool slot */
		return;
	}
	t = (int64_t)h->tp_sec * 1000000000 + h->tp_nsec - rt;
	if (t > now || t <= now - 1000000000)
		t = now;
	br_rx_frame(b, pt->idx, (struct virtio_net_hdr *)buf - 1, buf,
		    h->tp_snaplen, t);
}

/* Walk the blocks the kernel has closed, in ring order. */
static void on_rx(evutil_socket_t fd, short what, void *arg)
{
	struct bport *pt = arg;
	struct bridge *b = pt->b;
	unsigned nblk = (unsigned)(pt->ring_len / RING_BLOCK);

	(void)fd;
	(void)what;
	for (unsigned k = 0; k < RX_BLOCKS_PER_WAKE; k++) {
		uint8_t *blk = pt->ring + (size_t)pt->blk * RING_BLOCK;
		struct tpacket_block_desc *bd = (void *)blk;
		struct tpacket_hdr_v1 *bh = &bd->hdr.bh1;
		uint32_t off = bh->offset_to_first_pkt;
		int64_t now, rt;

		if (!(__atomic_load_n(&bh->block_status, __ATOMIC_ACQUIRE) &
		      TP_STATUS_USER))
			break;
		rt = br_rt_offset();
		now = br_mono_ns();
		for (uint32_t i = 0; i < bh->num_pkts; i++) {
			struct tpacket3_hdr *h = (void *)(blk + off);

			if (off < sizeof(*bd) ||
			    off > RING_BLOCK - sizeof(*h)) {
				b->st.rx_errors++;
				break;
			}
			rx_frame(b, pt, h, blk + RING_BLOCK, now, rt);
			if (h->tp_next_offset == 0)
				break;
			off += h->tp_next_offset;
		}
		b->st.ring_blocks++;
		/* Passthrough frames still point into this block. */
		br_tx_flush_all(b);
		__atomic_store_n(&bh->block_status, TP_STATUS_KERNEL,
				 __ATOMIC_RELEASE);
		pt->blk = (pt->blk + 1) % nblk;
	}
	br_run_due(b);
}

static int sockopt(int fd, int level, int name, const void *v, socklen_t len)
{
	return setsockopt(fd, level, name, v, len) < 0 ? -errno : 0;
}

/* The longest frame port p can inject without a GSO header: its MTU
 * plus an Ethernet header and a VLAN tag, as packet_snd allows. */
static int port_maxlen(int fd, const struct bridge_port *p, uint32_t *out)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	if (if_indextoname((unsigned)p->ifindex, ifr.ifr_name) == NULL)
		return -errno;
	if (ioctl(fd, SIOCGIFMTU, &ifr) < 0)
		return -errno;
	*out = (uint32_t)ifr.ifr_mtu + ETH_HLEN + 4;
	return 0;
}

int br_tx_socket(struct bridge *b, unsigned i, const struct bridge_port *p)
{
	struct bport *pt = &b->ports[i];
	struct sockaddr_ll sll;
	int one = 1, sz = SOCK_BUF, rc;

	pt->b = b;
	pt->idx = i;
	memcpy(pt->mac, p->mac, 6);
	/* Protocol 0: the socket is for sending and receives nothing. */
	pt->fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (pt->fd < 0)
		return -errno;
	if ((rc = sockopt(pt->fd, SOL_PACKET, PACKET_VNET_HDR, &one,
			  sizeof(one))) < 0)
		return rc;
	if (sockopt(pt->fd, SOL_SOCKET, SO_SNDBUFFORCE, &sz, sizeof(sz)) < 0)
		(void)sockopt(pt->fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = 0;
	sll.sll_ifindex = p->ifindex;
	if (bind(pt->fd, (struct sockaddr *)&sll, sizeof(sll)) < 0)
		return -errno;
	return port_maxlen(pt->fd, p, &pt->maxlen);
}

int br_rx_open(struct bridge *b, unsigned i, const struct bridge_port *p)
{
	struct bport *pt = &b->ports[i];
	struct tpacket_req3 req;
	struct sockaddr_ll sll;
	struct packet_mreq mr;
	int one = 1, ver = TPACKET_V3, sz = SOCK_BUF, rc;
	void *ring;

	pt->b = b;
	pt->idx = i;
	memcpy(pt->mac, p->mac, 6);
	pt->fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (pt->fd < 0)
		return -errno;
	/* The vnet header and the version must precede the ring. */
	if ((rc = sockopt(pt->fd, SOL_PACKET, PACKET_VNET_HDR, &one,
			  sizeof(one))) < 0 ||
	    (rc = sockopt(pt->fd, SOL_PACKET, PACKET_VERSION, &ver,
			  sizeof(ver))) < 0)
		return rc;
	/* Best effort: older kernels lack it and rx_frame checks the
	 * packet type anyway. */
	(void)sockopt(pt->fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one,
		      sizeof(one));
	if (sockopt(pt->fd, SOL_SOCKET, SO_SNDBUFFORCE, &sz, sizeof(sz)) < 0)
		(void)sockopt(pt->fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	memset(&req, 0, sizeof(req));
	req.tp_block_size = RING_BLOCK;
	req.tp_block_nr = ring_blocks(b);
	req.tp_frame_size = RING_FRAME;
	req.tp_frame_nr = req.tp_block_nr * (RING_BLOCK / RING_FRAME);
	req.tp_retire_blk_tov = RING_TOV_MS;
	if ((rc = sockopt(pt->fd, SOL_PACKET, PACKET_RX_RING, &req,
			  sizeof(req))) < 0)
		return rc;
	ring = mmap(NULL, (size_t)req.tp_block_nr * RING_BLOCK,
		    PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, pt->fd,
		    0);
	if (ring == MAP_FAILED)
		return -errno;
	pt->ring = ring;
	pt->ring_len = (size_t)req.tp_block_nr * RING_BLOCK;
	/* Bind only now, so every frame goes to the ring. */
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = p->ifindex;
	if (bind(pt->fd, (struct sockaddr *)&sll, sizeof(sll)) < 0)
		return -errno;
	if ((rc = port_maxlen(pt->fd, p, &pt->maxlen)) < 0)
		return rc;
	memset(&mr, 0, sizeof(mr));
	mr.mr_ifindex = p->ifindex;
	mr.mr_type = PACKET_MR_PROMISC;
	if ((rc = sockopt(pt->fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr,
			  sizeof(mr))) < 0)
		return rc;
	pt->ev = event_new(b->base, pt->fd, EV_READ | EV_PERSIST, on_rx, pt);
	if (pt->ev == NULL || event_add(pt->ev, NULL) < 0)
		return -ENOMEM;
	return 0;
}

void br_rx_close(struct bport *pt)
{
	if (pt->ev)
		event_free(pt->ev);
	pt->ev = NULL;
	if (pt->pc)
		pcap_close(pt->pc);
	pt->pc = NULL;
	if (pt->ring_len)
		munmap(pt->ring, pt->ring_len);
	pt->ring_len = 0;
	if (pt->fd >= 0)
		close(pt->fd);
	pt->fd = -1;
}

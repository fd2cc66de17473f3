/*
 * bridge_tx.c: how the userspace bridge injects frames. Frames for a
 * destination port (copies the netem engine delivers, and passthrough
 * frames straight from a receive ring block) are queued per port and
 * leave in one sendmmsg per batch, each with its virtio-net header, on
 * the port's AF_PACKET socket. After a batch the after-pcap records are
 * written, stamped with the time the kernel took the batch, and the pool
 * slots released. A copy the engine corrupted or CE-marked changes bytes
 * that a duplicate may share, so it is sent on its own between restoring
 * flips: the queue before it is flushed first, keeping the link's order.
 */
#include <errno.h>
#include <string.h>

#include "bridge_int.h"

/* Hand the port's whole queue to the kernel; a frame it refuses is
 * counted and skipped, the rest still go. */
static void tx_send(struct bridge *b, struct bport *pt)
{
	struct btxq *q = &pt->tx;
	unsigned off = 0;

	while (off < q->n) {
		int r = sendmmsg(pt->fd, q->msg + off, q->n - off,
				 MSG_DONTWAIT);

		if (r < 0 && errno == EINTR)
			continue;
		b->st.tx_batches++;
		if (r <= 0) {
			if (r < 0 && errno == EMSGSIZE)
				b->st.tx_too_big++;
			b->st.send_errors++;
			off++;
		} else {
			off += (unsigned)r;
		}
	}
}

void br_tx_queue(struct bridge *b, unsigned dst, struct blink *l, void *vh,
		 uint8_t *buf, uint32_t len, uint64_t cookie)
{
	struct btxq *q = &b->ports[dst].tx;
	unsigned k;

	if (q->n == BR_TX_BATCH)
		br_tx_flush(b, dst);
	k = q->n++;
	q->iov[k][0].iov_base = vh;
	q->iov[k][0].iov_len = sizeof(struct virtio_net_hdr);
	q->iov[k][1].iov_base = buf;
	q->iov[k][1].iov_len = len;
	q->msg[k].msg_hdr.msg_iov = q->iov[k];
	q->msg[k].msg_hdr.msg_iovlen = 2;
	q->link[k] = l;
	q->cookie[k] = cookie;
}

void br_tx_flush(struct bridge *b, unsigned port)
{
	struct bport *pt = &b->ports[port];
	struct btxq *q = &pt->tx;
	int64_t now;

	if (q->n == 0)
		return;
	tx_send(b, pt);
	now = br_mono_ns();
	for (unsigned k = 0; k < q->n; k++) {
		if (q->link[k] == NULL)
			continue;
		br_capture(b, q->link[k]->after, now, q->iov[k][1].iov_base,
			   (uint32_t)q->iov[k][1].iov_len);
		frame_pool_put(b->pool, q->cookie[k]);
	}
	q->n = 0;
}

void br_tx_flush_all(struct bridge *b)
{
	for (unsigned i = 0; i < b->n; i++)
		br_tx_flush(b, i);
}

/* Set CE in the IPv4 header of a copy the engine marked instead of
 * dropping (RFC 3168 section 5; spec "ecn"), fixing the header checksum.
 * Saves the three bytes it changes so the caller can restore the frame a
 * duplicate shares. Returns 1 when it marked. */
static int mark_ce(uint8_t *buf, uint32_t len, uint8_t save[3], unsigned *off)
{
	struct frame_info fi;
	uint8_t *ip;
	uint16_t c;

	if (frame_parse(buf, len, &fi) < 0 || !fi.is_ipv4)
		return 0;
	ip = buf + fi.l3_off;
	*off = fi.l3_off;
	save[0] = ip[1];
	save[1] = ip[10];
	save[2] = ip[11];
	ip[1] |= 0x03;
	ip[10] = ip[11] = 0;
	c = frame_csum_fold(frame_csum_add(0, ip, (ip[0] & 0x0f) * 4u));
	ip[10] = (uint8_t)(c >> 8);
	ip[11] = (uint8_t)c;
	return 1;
}

void br_tx_deliver(struct bridge *b, struct blink *l, const struct netem_pkt *p)
{
	struct frame_buf *fb = frame_pool_lookup(b->pool, p->cookie);
	struct bport *pt = &b->ports[l->dst];
	uint8_t save[3];
	unsigned l3 = 0;
	int flipped, marked;

	if (fb == NULL)
		return; /* cannot happen: every cookie is ours */
	if (!(p->flags & NETEM_PKT_CE) && p->corrupt_byte < 0) {
		br_tx_queue(b, l->dst, l, fb->meta, fb->data, fb->len,
			    p->cookie);
		return;
	}
	/* The bytes are shared by a duplicate's two copies: change them
	 * for this copy only, send and record it, and change them back. */
	br_tx_flush(b, l->dst);
	marked = (p->flags & NETEM_PKT_CE) &&
		 mark_ce(fb->data, fb->len, save, &l3);
	flipped = p->corrupt_byte >= 0 &&
		  frame_flip_bit(fb->data, fb->len, p->corrupt_byte,
				 p->corrupt_bit) == 0;
	br_tx_queue(b, l->dst, l, fb->meta, fb->data, fb->len, p->cookie);
	tx_send(b, pt);
	pt->tx.n = 0;
	br_capture(b, l->after, br_mono_ns(), fb->data, fb->len);
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

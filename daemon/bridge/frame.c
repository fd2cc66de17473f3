/*
 * frame.c: Ethernet/IPv4 frame classification, Internet checksum
 * completion (RFC 1071 one's complement sum, finished the way the kernel's
 * skb_checksum_help finishes a CHECKSUM_PARTIAL packet) and the bridge's
 * preallocated, reference-counted frame pool. Pure: no I/O, no clock.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bridge_int.h"

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)((p[0] << 8) | p[1]);
}

int frame_parse(const uint8_t *buf, size_t len, struct frame_info *out)
{
	struct frame_info fi;
	static const uint8_t bcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

	if (buf == NULL || out == NULL || len < FRAME_ETH_HLEN)
		return -EINVAL;
	memset(&fi, 0, sizeof(fi));
	if (memcmp(buf, bcast, 6) == 0)
		fi.dst_class = FRAME_DST_BROADCAST;
	else if (buf[0] & 0x01)
		fi.dst_class = FRAME_DST_MULTICAST;
	else
		fi.dst_class = FRAME_DST_UNICAST;
	fi.ethertype = get16(buf + 12);
	fi.l3_off = FRAME_ETH_HLEN;
	if (fi.ethertype == FRAME_ETH_P_8021Q) {
		if (len < FRAME_ETH_HLEN + 4)
			return -EINVAL;
		fi.ethertype = get16(buf + 16);
		fi.l3_off = FRAME_ETH_HLEN + 4;
	}
	if (fi.ethertype == FRAME_ETH_P_IP) {
		const uint8_t *ip = buf + fi.l3_off;
		size_t room = len - fi.l3_off;
		unsigned ihl;

		if (room < 20 || (ip[0] >> 4) != 4)
			return -EINVAL;
		ihl = (ip[0] & 0x0f) * 4u;
		fi.ip_len = get16(ip + 2);
		/* Ethernet pads short frames, so the frame may be longer
		 * than the IP datagram, never shorter. */
		if (ihl < 20 || ihl > room || fi.ip_len < ihl ||
		    fi.ip_len > room)
			return -EINVAL;
		fi.is_ipv4 = 1;
		fi.ip_proto = ip[9];
		memcpy(&fi.ip_src, ip + 12, 4);
		memcpy(&fi.ip_dst, ip + 16, 4);
		fi.l4_off = (uint16_t)(fi.l3_off + ihl);
	}
	*out = fi;
	return 0;
}

uint32_t frame_csum_add(uint32_t sum, const uint8_t *buf, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2) {
		sum += get16(buf + i);
		if (sum & 0x80000000u)
			sum = (sum & 0xffff) + (sum >> 16);
	}
	if (len & 1)
		sum += (uint32_t)buf[len - 1] << 8;
	return sum;
}

uint16_t frame_csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

int frame_csum_complete(uint8_t *buf, size_t len, size_t start, size_t off)
{
	uint16_t c;

	if (buf == NULL || start > len || off + 2 > len - start)
		return -EINVAL;
	c = frame_csum_fold(frame_csum_add(0, buf + start, len - start));
	if (c == 0)
		c = 0xffff; /* CSUM_MANGLED_0: 0 means "no checksum" */
	buf[start + off] = (uint8_t)(c >> 8);
	buf[start + off + 1] = (uint8_t)c;
	return 0;
}

int frame_flip_bit(uint8_t *buf, size_t len, int32_t byte, uint8_t bit)
{
	if (buf == NULL || byte < 0 || (size_t)byte >= len || bit > 7)
		return -EINVAL;
	buf[byte] ^= (uint8_t)(1u << bit);
	return 0;
}

/* Slots 0..nsmall-1 are small, nsmall..n-1 large. A cookie is the slot's
 * generation in the high 32 bits and its index in the low 32: a cookie
 * that outlived its slot no longer matches. */
#define NO_SLOT UINT32_MAX

struct frame_pool {
	struct frame_buf *slot;
	unsigned nsmall, nlarge, used;
	uint32_t free_small, free_large;
	uint8_t *mem;
};

int frame_pool_new(unsigned nsmall, unsigned nlarge, struct frame_pool **out)
{
	struct frame_pool *p;
	unsigned i, n = nsmall + nlarge;
	size_t bytes;

	if (out == NULL || n == 0 || n < nsmall)
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return -ENOMEM;
	bytes = (size_t)nsmall * FRAME_SMALL_CAP +
		(size_t)nlarge * FRAME_LARGE_CAP;
	p->slot = calloc(n, sizeof(*p->slot));
	p->mem = malloc(bytes);
	if (p->slot == NULL || p->mem == NULL) {
		free(p->slot);
		free(p->mem);
		free(p);
		return -ENOMEM;
	}
	p->nsmall = nsmall;
	p->nlarge = nlarge;
	for (i = 0; i < n; i++) {
		struct frame_buf *s = &p->slot[i];

		if (i < nsmall) {
			s->data = p->mem + (size_t)i * FRAME_SMALL_CAP;
			s->cap = FRAME_SMALL_CAP;
		} else {
			s->data = p->mem + (size_t)nsmall * FRAME_SMALL_CAP +
				  (size_t)(i - nsmall) * FRAME_LARGE_CAP;
			s->cap = FRAME_LARGE_CAP;
		}
		s->next_free =
			(i + 1 == nsmall || i + 1 == n) ? NO_SLOT : i + 1;
	}
	p->free_small = nsmall ? 0 : NO_SLOT;
	p->free_large = nlarge ? nsmall : NO_SLOT;
	*out = p;
	return 0;
}

void frame_pool_free(struct frame_pool *p)
{
	if (p == NULL)
		return;
	free(p->slot);
	free(p->mem);
	free(p);
}

int frame_pool_get(struct frame_pool *p, uint32_t len, uint64_t *cookie,
		   struct frame_buf **out)
{
	uint32_t *head;
	uint32_t i;
	struct frame_buf *s;

	if (p == NULL || cookie == NULL || out == NULL)
		return -EINVAL;
	if (len <= FRAME_SMALL_CAP && p->nsmall > 0)
		head = &p->free_small;
	else if (len <= FRAME_LARGE_CAP && p->nlarge > 0)
		head = &p->free_large;
	else
		return -EMSGSIZE;
	i = *head;
	if (i == NO_SLOT)
		return -ENOBUFS;
	s = &p->slot[i];
	*head = s->next_free;
	s->next_free = NO_SLOT;
	s->refs = 1;
	s->len = len;
	s->meta_len = 0;
	p->used++;
	*cookie = ((uint64_t)s->gen << 32) | i;
	*out = s;
	return 0;
}

struct frame_buf *frame_pool_lookup(struct frame_pool *p, uint64_t cookie)
{
	uint32_t i = (uint32_t)cookie;
	struct frame_buf *s;

	if (p == NULL || i >= p->nsmall + p->nlarge)
		return NULL;
	s = &p->slot[i];
	if (s->refs == 0 || s->gen != (uint32_t)(cookie >> 32))
		return NULL;
	return s;
}

static void release(struct frame_pool *p, uint32_t i)
{
	struct frame_buf *s = &p->slot[i];
	uint32_t *head = i < p->nsmall ? &p->free_small : &p->free_large;

	s->refs = 0;
	s->gen++;
	s->next_free = *head;
	*head = i;
	p->used--;
}

int frame_pool_set_refs(struct frame_pool *p, uint64_t cookie, uint32_t refs)
{
	struct frame_buf *s = frame_pool_lookup(p, cookie);

	if (s == NULL)
		return -ENOENT;
	if (refs == 0)
		release(p, (uint32_t)cookie);
	else
		s->refs = refs;
	return 0;
}

int frame_pool_put(struct frame_pool *p, uint64_t cookie)
{
	struct frame_buf *s = frame_pool_lookup(p, cookie);

	if (s == NULL)
		return -ENOENT;
	if (--s->refs == 0)
		release(p, (uint32_t)cookie);
	return 0;
}

unsigned frame_pool_used(const struct frame_pool *p)
{
	return p ? p->used : 0;
}

/*
 * frame.h: helpers the userspace bridge uses on raw Ethernet frames. A
 * streaming-free parser that classifies a frame (destination MAC class,
 * IPv4 header fields, offsets) and rejects malformed ones; the Internet
 * checksum completion a frame read with a partial (offloaded) checksum
 * needs; and a preallocated pool that holds frame bytes while the netem
 * engine delays them, addressed by a cookie and reference counted so a
 * duplicated frame is stored once. Nothing here does I/O, logs or reads a
 * clock; functions return 0 or -errno and write outputs only on success.
 */
#ifndef RECKON_FRAME_H
#define RECKON_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define FRAME_ETH_HLEN	  14
#define FRAME_ETH_P_IP	  0x0800
#define FRAME_ETH_P_ARP	  0x0806
#define FRAME_ETH_P_8021Q 0x8100

enum frame_dst {
	FRAME_DST_UNICAST,
	FRAME_DST_MULTICAST, /* group bit set, not all-ones */
	FRAME_DST_BROADCAST, /* ff:ff:ff:ff:ff:ff */
};

struct frame_info {
	enum frame_dst dst_class;
	uint16_t ethertype; /* after at most one 802.1Q tag */
	uint16_t l3_off;    /* offset of the network header */
	int is_ipv4;	    /* a well-formed IPv4 header follows */
	/* IPv4 only (network byte order for addresses): */
	uint32_t ip_src, ip_dst;
	uint8_t ip_proto;
	uint16_t l4_off; /* offset of the transport header */
	uint16_t ip_len; /* IPv4 total length */
};

/* Classify the frame buf[0..len). Returns 0, or -EINVAL when the frame is
 * shorter than an Ethernet header (or a truncated VLAN tag), or when the
 * ethertype says IPv4 and the header is not a valid IPv4 header (version,
 * IHL, total length beyond the frame). */
int frame_parse(const uint8_t *buf, size_t len, struct frame_info *out);

/* Finish a partial checksum as the kernel's skb_checksum_help does: the
 * 16-bit field at start+off already holds the pseudo-header sum; fold the
 * one's complement sum of buf[start..len) into it (0 becomes 0xffff).
 * Returns -EINVAL when start/off do not fit in the frame. */
int frame_csum_complete(uint8_t *buf, size_t len, size_t start, size_t off);

/* One's complement sum of buf[0..len) added to sum (not folded). */
uint32_t frame_csum_add(uint32_t sum, const uint8_t *buf, size_t len);
/* Fold a 32-bit sum to 16 bits and complement it (host byte order). */
uint16_t frame_csum_fold(uint32_t sum);

/* Flip bit `bit` (0..7) of byte `byte` of the frame; -EINVAL when out of
 * range. Flipping twice restores the frame. */
int frame_flip_bit(uint8_t *buf, size_t len, int32_t byte, uint8_t bit);

/* The frame pool. Two size classes: small slots for frames up to the MTU
 * and a few large slots for GSO super-frames (up to 64 KiB). */
#define FRAME_SMALL_CAP 2048u
#define FRAME_LARGE_CAP 65536u
#define FRAME_META_MAX	16u

struct frame_buf {
	uint8_t *data;
	uint32_t cap, len;
	uint32_t refs;
	uint32_t gen;		      /* bumped on every release */
	uint8_t meta[FRAME_META_MAX]; /* caller's per-frame metadata */
	uint32_t meta_len;
	uint32_t next_free; /* internal free-list link */
};

struct frame_pool;

/* Allocate every slot up front. -EINVAL when both counts are 0. */
int frame_pool_new(unsigned nsmall, unsigned nlarge, struct frame_pool **out);
void frame_pool_free(struct frame_pool *p);

/* Take a free slot that holds len bytes, with one reference. Writes its
 * cookie and the slot. -EMSGSIZE when len is over FRAME_LARGE_CAP (or over
 * FRAME_SMALL_CAP with no large slots), -ENOBUFS when the class is
 * exhausted. */
int frame_pool_get(struct frame_pool *p, uint32_t len, uint64_t *cookie,
		   struct frame_buf **out);

/* The slot a live cookie names, or NULL for a stale/foreign cookie. */
struct frame_buf *frame_pool_lookup(struct frame_pool *p, uint64_t cookie);

/* Set the reference count of a live slot (the number of copies the netem
 * engine will hand back); 0 releases it. -ENOENT for a stale cookie. */
int frame_pool_set_refs(struct frame_pool *p, uint64_t cookie, uint32_t refs);

/* Drop one reference; the slot is free again at zero. -ENOENT for a stale
 * cookie (a double put is caught, not silently corrupting the pool). */
int frame_pool_put(struct frame_pool *p, uint64_t cookie);

/* Slots in use. */
unsigned frame_pool_used(const struct frame_pool *p);

#endif

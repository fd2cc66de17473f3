/*
 * bridge_int.h: what the files of the userspace bridge share: the frame
 * helpers and pool (frame.c), the pcap writer (capture.c) and the bridge's
 * own state and helpers (bridge_*.c). The public interface is bridge.h.
 */
#ifndef RECKON_BRIDGE_INT_H
#define RECKON_BRIDGE_INT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <linux/virtio_net.h>
#include <pcap/pcap.h>

#include "bridge.h"

/*
 * frame.c: helpers the userspace bridge uses on raw Ethernet frames. A
 * streaming-free parser that classifies a frame (destination MAC class,
 * IPv4 header fields, offsets) and rejects malformed ones; the Internet
 * checksum completion a frame read with a partial (offloaded) checksum
 * needs; and a preallocated pool that holds frame bytes while the netem
 * engine delays them, addressed by a cookie and reference counted so a
 * duplicated frame is stored once. Nothing here does I/O, logs or reads a
 * clock; functions return 0 or -errno and write outputs only on success.
 */

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

/*
 * capture.c: one libpcap dump file written by the bridge, with
 * nanosecond timestamps (pcap_open_dead_with_tstamp_precision, NANO), the
 * configured snap length and a size cap: once the next record would take
 * the file over max_bytes nothing more is written and the skipped records
 * are counted instead. The files open in Wireshark and tshark.
 */

struct capture;

struct capture_counts {
	uint64_t written; /* records in the file */
	uint64_t skipped; /* records not written: size cap or I/O error */
	uint64_t bytes;	  /* file size so far (header included) */
};

/* Create (truncate) path as an Ethernet pcap. snaplen 0 means 65535.
 * max_bytes 0 means unlimited. Returns 0 or -errno (-EIO when libpcap
 * cannot open the file; errno is kept where libpcap left it). */
int capture_open(const char *path, uint32_t snaplen, uint64_t max_bytes,
		 struct capture **out);

/* Append one frame with a CLOCK_REALTIME timestamp in ns. Returns 0 when
 * written, 1 when skipped because of the size cap, -EINVAL on bad input. */
int capture_write(struct capture *c, int64_t realtime_ns, const uint8_t *buf,
		  uint32_t len);

void capture_get_counts(const struct capture *c, struct capture_counts *out);

/* Flush buffered records to the file (the file stays open). */
int capture_flush(struct capture *c);

/* Flush and close; NULL is a no-op. */
void capture_close(struct capture *c);

/*
 * bridge_*.c: the userspace bridge's private state, shared by its
 * files and by nothing else: bridge.c (the API in bridge.h),
 * bridge_link.c (the clocks, a link and its pcaps), bridge_rx.c (frame classification and the TPACKET_V3
 * receive ring of each port), bridge_pcap.c (the libpcap receive path),
 * bridge_tx.c (injection, batched per port with sendmmsg) and bridge_due.c
 * (the heap of links by due time and the timerfd that wakes the bridge).
 */

#define BR_TX_BATCH 64 /* frames per sendmmsg */

struct bridge;

/* One directed link i->j: its netem engine and its pcaps. */
struct blink {
	struct netem_link *nl;
	unsigned src, dst;
	int64_t next;	 /* netem_link_next_time, the heap key */
	int64_t last_in; /* enqueue times never go backwards on a link */
	int hpos;	 /* index in the heap, -1 when absent */
	struct capture *before, *after;
};

/* Frames handed to one port's socket by the next sendmmsg. An entry with
 * a link is a pool slot (cookie) the engine delivered; one without is a
 * passthrough frame that still lives in a receive ring block. */
struct btxq {
	unsigned n;
	struct mmsghdr msg[BR_TX_BATCH];
	struct iovec iov[BR_TX_BATCH][2];
	struct blink *link[BR_TX_BATCH];
	uint64_t cookie[BR_TX_BATCH];
};

struct bport {
	struct bridge *b;
	unsigned idx;
	int fd;
	struct event *ev;
	unsigned char mac[6];
	uint8_t *ring;	 /* mmap'd TPACKET_V3 receive ring */
	size_t ring_len; /* 0 when not mapped */
	unsigned blk;	 /* next block to look at */
	uint64_t kdrops; /* summed PACKET_STATISTICS drops */
	pcap_t *pc;	 /* rx pcap: the libpcap handle (NULL otherwise) */
	uint32_t maxlen; /* longest frame the port can inject without GSO:
			  * its MTU at open + Ethernet and VLAN headers */
	struct btxq tx;
};

struct bridge {
	struct event_base *base;
	enum bridge_rx rx;
	int nice_was; /* the thread's niceness before bridge_new */
	unsigned n;
	struct bport *ports;
	struct blink **links; /* n * n, [src * n + dst], lazily created */
	char (*names)[BRIDGE_NAME_MAX];
	uint64_t seed;
	struct frame_pool *pool;

	int tfd; /* CLOCK_MONOTONIC timerfd, absolute */
	struct event *tev;
	int64_t armed; /* INT64_MAX when disarmed */
	int64_t spin_ns; /* wake this early and spin to the due time; 0: off */
	struct blink **heap;
	unsigned heap_n;

	char *pcap_dir;
	int cap_before, cap_after;
	uint32_t snaplen;
	uint64_t max_bytes;
	int64_t rt_off; /* CLOCK_REALTIME - CLOCK_MONOTONIC at start, ns:
			 * the pcaps' one time base */

	struct bridge_stats st;
};

/* bridge_link.c; br_rt_offset is CLOCK_REALTIME - CLOCK_MONOTONIC now, ns */
int64_t br_mono_ns(void);
int64_t br_rt_offset(void);
struct blink *br_link_make(struct bridge *b, unsigned src, unsigned dst,
			   const struct netem_spec *spec);
void br_capture(struct bridge *b, struct capture *c, int64_t mono,
		const uint8_t *buf, uint32_t len);

/* bridge_rx.c: open port i (socket, ring, libevent read event); close
 * releases what open got, also after a partial open. */
int br_rx_open(struct bridge *b, unsigned i, const struct bridge_port *p);
void br_rx_close(struct bport *pt);
/* bridge_rx.c: classify one received frame and send it on its way (vh:
 * its virtio-net header, t: arrival, CLOCK_MONOTONIC). Passthrough frames
 * are queued pointing at buf: flush before buf goes away. */
void br_rx_frame(struct bridge *b, unsigned src, struct virtio_net_hdr *vh,
		 uint8_t *buf, uint32_t len, int64_t t);
/* bridge_rx.c: the injection socket of port i (AF_PACKET, virtio-net
 * header, large send buffer) and its maxlen; proto 0 binds it for
 * sending only. */
int br_tx_socket(struct bridge *b, unsigned i, const struct bridge_port *p);

/* bridge_pcap.c: open port i with a libpcap receive handle (and the
 * injection socket); br_rx_close releases it. br_pcap_drops is the
 * kernel's cumulative drop count of the handle. */
int br_pcap_open(struct bridge *b, unsigned i, const struct bridge_port *p);
uint64_t br_pcap_drops(struct bport *pt);

/* bridge_tx.c: queue a frame for port dst (vh: its virtio-net header);
 * l and cookie name the pool slot of a delivery, l NULL a passthrough
 * frame. Flushing sends what is queued and releases the slots. */
void br_tx_queue(struct bridge *b, unsigned dst, struct blink *l, void *vh,
		 uint8_t *buf, uint32_t len, uint64_t cookie);
void br_tx_flush(struct bridge *b, unsigned port);
void br_tx_flush_all(struct bridge *b);
void br_tx_deliver(struct bridge *b, struct blink *l,
		   const struct netem_pkt *p);

/* bridge_due.c */
void br_heap_update(struct bridge *b, struct blink *l);
void br_timer_arm(struct bridge *b);
void br_run_due(struct bridge *b);
void br_on_timer(evutil_socket_t fd, short what, void *arg);

#endif

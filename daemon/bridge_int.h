/*
 * bridge_int.h: the userspace bridge's private state, shared by its five
 * files and by nothing else: bridge.c (the API in bridge.h, links and
 * their pcaps), bridge_rx.c (frame classification and the TPACKET_V3
 * receive ring of each port), bridge_pcap.c (the libpcap receive path),
 * bridge_tx.c (injection, batched per port with sendmmsg) and bridge_due.c
 * (the heap of links by due time and the timerfd that wakes the bridge).
 */
#ifndef RECKON_BRIDGE_INT_H
#define RECKON_BRIDGE_INT_H

#include <stdint.h>
#include <sys/socket.h>
#include <linux/virtio_net.h>
#include <pcap/pcap.h>

#include "bridge.h"
#include "capture.h"
#include "frame.h"

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
	unsigned n;
	struct bport *ports;
	struct blink **links; /* n * n, [src * n + dst], lazily created */
	char (*names)[SC_NAME_MAX];
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

/* bridge.c; br_rt_offset is CLOCK_REALTIME - CLOCK_MONOTONIC now, ns */
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

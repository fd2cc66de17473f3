/*
 * bridge.h: the userspace impairment bridge, reckon's default backend. It
 * reads every frame that a host sends out of its veth (on the hub-side
 * peer, through libpcap in immediate mode or an AF_PACKET TPACKET_V3
 * ring), asks the directed link's
 * netem engine for the frame's fate, and injects the surviving copies on
 * the destination's hub-side veth at their delivery times, from libevent
 * timers, in sendmmsg batches. ARP and other non-IP frames pass
 * unimpaired (broadcasts go to every other host). Optional libpcap dumps
 * record each directed link before and after the impairment.
 */
#ifndef RECKON_BRIDGE_H
#define RECKON_BRIDGE_H

#include <event2/event.h>

#include "netem.h"

struct bridge;

/* What the bridge is built for: its hosts (one port each; a host's name
 * names its links' pcap files and, through netem_link_id, seeds their
 * streams), the capture and the links that start impaired. */
#define BRIDGE_MAX_PORTS 65
#define BRIDGE_NAME_MAX	 32

struct bridge_host {
	char name[BRIDGE_NAME_MAX];
};

struct bridge_capture {
	int enabled;
	int before, after; /* dump each link before / after impairment */
	uint32_t snaplen;
	uint64_t max_bytes; /* per file; 0 = unlimited */
};

/* The spec of the directed link src->dst at the start, or NULL for a
 * pair that starts unimpaired (made on first use). */
typedef const struct netem_spec *(*bridge_link_spec_fn)(const void *arg,
							 unsigned src,
							 unsigned dst);

struct bridge_conf {
	unsigned nhosts;
	struct bridge_host hosts[BRIDGE_MAX_PORTS];
	struct bridge_capture capture;
	bridge_link_spec_fn link_spec; /* NULL: every pair unimpaired */
	const void *link_arg;
};

/* One port per host: the hub-side veth (already up, in the namespace the
 * calling thread is in) and the host's MAC and IPv4 address, used to find
 * the destination of a frame. */
struct bridge_port {
	int ifindex;
	unsigned char mac[6];
	uint32_t ip;	/* network byte order */
};

/* Build the bridge for conf with nports == conf->nhosts ports. When
 * pcap_dir is not NULL and conf->capture.enabled, per-link pcap files go
 * there. Link streams are seeded from seed (the repetition's seed). The
 * bridge keeps nothing of conf after the call. */
int bridge_new(struct event_base *base, const struct bridge_conf *conf,
	       uint64_t seed, const struct bridge_port *ports, unsigned nports,
	       const char *pcap_dir, struct bridge **out);

/* Live change of the directed link src->dst (a full replacement). */
int bridge_set_spec(struct bridge *b, unsigned src, unsigned dst,
		    const struct netem_spec *s);

/* Counters of the directed link src->dst; zeros when the pair has never
 * carried a frame. Unimpaired (non-IP) frames are counted separately. */
int bridge_counters(const struct bridge *b, unsigned src, unsigned dst,
		    struct netem_counters *c);
void bridge_passthrough(const struct bridge *b, uint64_t *frames);

/* Bridge-wide counters of frames that never reach a link's netem
 * engine. */
struct bridge_stats {
	uint64_t passthrough;	  /* non-IPv4, broadcast or multicast frames */
	uint64_t malformed;	  /* rejected by frame_parse (runt, bad IPv4) */
	uint64_t unknown_dst;	  /* unicast to no other port's MAC: dropped */
	uint64_t oversize;	  /* cut by the receive ring or larger than a
				   * 64 KiB pool slot: dropped */
	uint64_t pool_full;	  /* no free pool slot: dropped before netem */
	uint64_t link_errors;	  /* link could not be created: dropped */
	uint64_t rx_errors;	  /* ring entries with an impossible layout */
	uint64_t rx_dropped;	  /* dropped by the kernel before we read them
				   * (socket buffer full; PACKET_STATISTICS) */
	uint64_t send_errors;	  /* injections the kernel refused */
	uint64_t csum_completed;  /* partial (offloaded) checksums finished */
	uint64_t capture_skipped; /* pcap records over max_bytes */
	uint64_t capture_errors;  /* pcap files that could not be opened */
	uint64_t ring_blocks;	  /* TPACKET_V3 blocks walked and returned */
	uint64_t ring_frames;	  /* frames read from them, not counting
				   * our own injections */
	uint64_t tx_batches;	  /* sendmmsg calls (frames leave in batches) */
	uint64_t pcap_frames;	  /* frames read through libpcap (rx pcap) */
	uint64_t pcap_reads;	  /* pcap_dispatch calls that returned frames */
	uint64_t tx_too_big;	  /* injections refused as too long
				   * (EMSGSIZE; also in send_errors) */
};
int bridge_stats(const struct bridge *b, struct bridge_stats *out);

/* Let the directed link src->dst follow a schedule or trace from
 * origin_ns (CLOCK_MONOTONIC) on, over its current spec
 * (netem_link_set_schedule); NULL removes it. */
int bridge_set_schedule(struct bridge *b, unsigned src, unsigned dst,
			const struct netem_sched *s, int64_t origin_ns);

/* Write buffered pcap records to disk now (bridge_free also does). */
int bridge_flush(struct bridge *b);

/* Flush pcap files and release everything. Frames still queued are
 * dropped and counted nowhere. */
void bridge_free(struct bridge *b);

/* How the bridge reads frames (docs/bridge.md, "Receive backends"):
 * BRIDGE_RX_PCAP, the default, through libpcap in immediate mode (one
 * wake-up per frame, for sub-millisecond clean links); BRIDGE_RX_RING
 * through a TPACKET_V3 ring (blocks of frames, retired after 1 ms). */
enum bridge_rx {
	BRIDGE_RX_PCAP = 0,
	BRIDGE_RX_RING = 1,
};

/* "pcap" or "ring" to the enum; -EINVAL for anything else. */
int bridge_rx_parse(const char *s, enum bridge_rx *out);
const char *bridge_rx_name(enum bridge_rx rx);

/* Choose the backend of bridges built from now on in this process. Until
 * it is called, bridge_new uses the environment variable RECKON_BRIDGE_RX
 * (pcap|ring) when set, else pcap. -EINVAL for an unknown value. */
int bridge_set_default_rx(enum bridge_rx rx);

/* The backend bridge_new would use now; -EINVAL (and *out untouched) when
 * RECKON_BRIDGE_RX holds something other than pcap or ring. */
int bridge_default_rx(enum bridge_rx *out);

/* RECKON_BRIDGE_SPIN_US (0..1000; unset or empty: the default, 100): the
 * bridge arms its timer that many microseconds before a frame is due and
 * spins on the clock for the rest, trading CPU time for delivery closer
 * to the due time than the platform's timer wake-up allows
 * (docs/bridge.md); 0 turns it off. -EINVAL for anything else. */
#define BRIDGE_SPIN_DEFAULT_US 100
int bridge_spin_from_env(int64_t *ns);

/* RECKON_BRIDGE_NICE (-20..19; unset or empty: the default, -10): the
 * scheduling niceness of the thread that runs a bridge, set by bridge_new
 * and put back by bridge_free. The kernel's netem forwards in softirq
 * context, ahead of every process; a bridge that waits behind a crowd of
 * agents loses frames from its capture rings and delivers late
 * (docs/bridge.md). Lowering niceness needs CAP_SYS_NICE: without it the
 * bridge keeps the niceness it has. -EINVAL for anything else. */
#define BRIDGE_NICE_DEFAULT (-10)
int bridge_nice_from_env(int *nice);

/* The backend bridge b reads with. */
enum bridge_rx bridge_rx_of(const struct bridge *b);

#endif

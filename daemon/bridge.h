/*
 * bridge.h: the userspace impairment bridge, reckon's default backend. It
 * reads every frame that a host sends out of its veth (on the hub-side
 * peer, through AF_PACKET), asks the directed link's netem engine for the
 * frame's fate, and injects the surviving copies on the destination's
 * hub-side veth at their delivery times, from libevent timers. ARP and other
 * non-IP frames pass unimpaired (broadcasts go to every other host).
 * Optional libpcap dumps record each directed link before and after the
 * impairment.
 */
#ifndef RECKON_BRIDGE_H
#define RECKON_BRIDGE_H

#include <event2/event.h>

#include "netem.h"
#include "scenario.h"

struct bridge;

/* One port per host: the hub-side veth (already up, in the namespace the
 * calling thread is in) and the host's MAC and IPv4 address, used to find
 * the destination of a frame. */
struct bridge_port {
	int ifindex;
	unsigned char mac[6];
	uint32_t ip;	/* network byte order */
};

/* Build the bridge for sc with nports == sc->nhosts ports. When pcap_dir is
 * not NULL and sc->capture.enabled, per-link pcap files go there. Link
 * streams are seeded from seed (the repetition's seed). */
int bridge_new(struct event_base *base, const struct scenario *sc,
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

/* Flush pcap files and release everything. Frames still queued are
 * dropped and counted nowhere. */
void bridge_free(struct bridge *b);

#endif

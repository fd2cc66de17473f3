/*
 * sim_net.h: the simulator's network. Every directed pair of hosts is one
 * netem_link, seeded exactly as the userspace bridge seeds it (the
 * repetition's seed and netem_link_id(src name, dst name)); pairs with a
 * [link] section or a [defaults] link exist from the start, the others
 * are made unimpaired on first use, as in bridge.c. A datagram is offered
 * with the length of the Ethernet frame that would carry it (UDP payload
 * + 8 UDP + 20 IPv4 + 14 Ethernet octets), so rate, overhead and slot
 * byte limits count what they count on the bridge. Pure of clocks: the
 * caller passes virtual time.
 */
#ifndef RECKON_SIM_NET_H
#define RECKON_SIM_NET_H

#include <stddef.h>
#include <stdint.h>

#include "netem.h"
#include "scenario.h"

#define SIM_FRAME_OVERHEAD (14 + 20 + 8) /* Ethernet + IPv4 + UDP */

struct sim_net;

/* One datagram handed back by sim_net_dequeue; data is valid until
 * sim_net_release. */
struct sim_dgram {
	unsigned src, dst;
	uint16_t dport;	      /* UDP destination port */
	int corrupted;	      /* a bit of the frame was flipped */
	int32_t corrupt_byte; /* offset in the Ethernet frame, -1 if not */
	const uint8_t *data;
	size_t len; /* UDP payload */
	int64_t time_ns;
	uint32_t cookie;
};

int sim_net_new(const struct scenario *sc, uint64_t seed, struct sim_net **out);
void sim_net_free(struct sim_net *n);

/* Offer a datagram on src->dst at now. *next gets the link's earliest
 * delivery time afterwards (INT64_MAX: nothing queued). 0 or -errno. */
int sim_net_offer(struct sim_net *n, unsigned src, unsigned dst, uint16_t dport,
		  const uint8_t *data, size_t len, int64_t now, int64_t *next);

/* Pop the next copy due on src->dst at or before now: 1 and *out, or 0. */
int sim_net_dequeue(struct sim_net *n, unsigned src, unsigned dst, int64_t now,
		    struct sim_dgram *out);

/* Done with a dequeued copy (its bytes may be reused after this). */
void sim_net_release(struct sim_net *n, const struct sim_dgram *d);

/* Earliest delivery time on src->dst, INT64_MAX when empty. */
int64_t sim_net_next(const struct sim_net *n, unsigned src, unsigned dst);

/* Replace the spec of src->dst at now ([schedule]); creates the link. */
int sim_net_set_spec(struct sim_net *n, unsigned src, unsigned dst,
		     const struct netem_spec *s, int64_t now);

/* Counters of src->dst (zeros for a pair that never carried anything). */
void sim_net_counters(const struct sim_net *n, unsigned src, unsigned dst,
		      struct netem_counters *c);

#endif

/*
 * netem.h: the public interface of reckon's pure impairment engine. A
 * struct netem_spec is what a tc-netem command line says; a struct
 * netem_link is one direction between two hosts that decides, with Linux
 * netem's semantics and its own seeded random streams, the fate of every
 * packet offered to it and hands the survivors back in delivery order.
 * Nothing here reads a clock, allocates behind the caller's back in the
 * per-packet path, logs or exits: the caller passes the time in ns.
 * Functions return 0 or -errno; output parameters are written only on
 * success.
 */
#ifndef RECKON_NETEM_H
#define RECKON_NETEM_H

#include <stddef.h>
#include <stdint.h>

#include "netem_spec.h" /* struct netem_spec and its enums */

/* Parse a tc-netem style spec ("delay 100ms 10ms 25% loss 1%"). On error
 * returns -EINVAL and writes a message naming the token and the reason
 * ("loss: 120% is over 100%") into err. */
int netem_spec_parse(const char *text, struct netem_spec *out, char *err,
		     size_t errlen);

/* Canonical text form; parse(print(s)) == s. Returns the length that the
 * full text needs (snprintf semantics). */
int netem_spec_print(const struct netem_spec *s, char *buf, size_t len);

/* The options as iproute2 6.1's "tc qdisc show" prints a netem qdisc set
 * from this spec (after "qdisc netem HANDLE: root refcnt N "): tc's order,
 * its time, rate and percentage formats, delays through 64 ns ticks.
 * snprintf semantics, like netem_spec_print. */
int netem_spec_print_tc(const struct netem_spec *s, char *buf, size_t len);

/* A fresh spec: no impairment, limit 1000 (tc's default). */
void netem_spec_init(struct netem_spec *s);

/* Seeds. Every random stream is derived from (scenario seed, link id,
 * purpose), so the same seed gives the same decisions bit for bit and adding
 * a link never shifts another link's stream. */
uint64_t netem_link_id(const char *src, const char *dst);

/* One packet handed back by a link. cookie is the caller's handle for the
 * frame; when a frame is duplicated the same cookie comes back twice. */
struct netem_pkt {
	uint64_t cookie;
	int64_t time_ns;      /* delivery time */
	uint32_t len;	      /* bytes, as offered */
	int32_t corrupt_byte; /* -1: not corrupted */
	uint8_t corrupt_bit;  /* 0..7, bit to flip in corrupt_byte */
	uint8_t flags;	      /* NETEM_PKT_* */
};
#define NETEM_PKT_DUP	    0x01 /* this copy is the duplicate */
#define NETEM_PKT_REORDERED 0x02 /* sent ahead of the queue (reorder) */

/* Why a packet did not get through. */
enum netem_drop {
	NETEM_PASS = 0,
	NETEM_DROP_LOSS,  /* the loss model dropped it */
	NETEM_DROP_LIMIT, /* queue limit reached (tail drop) */
};

/* What happened to one offered packet. */
struct netem_verdict {
	enum netem_drop drop;
	int copies;	    /* 0 (dropped), 1, or 2 (duplicated) */
	int64_t time_ns[2]; /* delivery time of each copy */
	int corrupted;	    /* a copy was corrupted */
	int reordered;	    /* sent to the head of the queue */
	int ecn_marked;	    /* loss turned into a CE mark (spec ecn) */
};

/* Per-link counters, as the control socket reports them. */
struct netem_counters {
	uint64_t in, delivered;
	uint64_t drop_loss, drop_limit;
	uint64_t duplicated, corrupted, reordered, ecn_marked;
	uint64_t bytes_in, bytes_delivered;
};

struct netem_link;

/* Create a link for one directed pair. seed is the scenario seed. */
int netem_link_new(const struct netem_spec *s, uint64_t seed, uint64_t link_id,
		   struct netem_link **out);
void netem_link_free(struct netem_link *l);

/* Replace the spec at time now_ns. Unlike tc's sticky attributes this is a
 * full replacement, with netem_change()'s resets: the reorder counter,
 * loss-model state, correlation memory and slot start over. Queued packets
 * keep their delivery times; the random streams go on. */
int netem_link_set_spec(struct netem_link *l, const struct netem_spec *s,
			int64_t now_ns);
const struct netem_spec *netem_link_spec(const struct netem_link *l);

/* Offer a packet of len bytes at now_ns. The verdict says what happened;
 * surviving copies wait in the link's queue until netem_link_dequeue. */
int netem_link_enqueue(struct netem_link *l, int64_t now_ns, uint32_t len,
		       uint64_t cookie, struct netem_verdict *v);

/* Earliest time at which netem_link_dequeue can return a packet, or
 * INT64_MAX when nothing is queued. */
int64_t netem_link_next_time(const struct netem_link *l);

/* Pop the next packet due at or before now_ns. Returns 1 and fills out, or
 * 0 when none is due. Packets come out in delivery-time order (slots
 * permitting). */
int netem_link_dequeue(struct netem_link *l, int64_t now_ns,
		       struct netem_pkt *out);

/* Packets currently queued (what the limit counts, with the held ones
 * below). */
uint32_t netem_link_queued(const struct netem_link *l);

/* The least delay the link can give a packet offered now: its latency, or
 * 0 when jitter, reordering, slots or a schedule can make it anything.
 * Above 0, the link never delivers a packet at the instant it was sent,
 * so a caller may dequeue the packets due at that instant before it
 * offers the instant's own. */
int64_t netem_link_least_delay(const struct netem_link *l);

/* Count n packets the caller dequeued ahead of time as still queued, for
 * the limit that later offers meet, until held again with 0: a caller
 * that takes an instant's due packets before offers that, in its order
 * of events, come first. */
void netem_link_hold(struct netem_link *l, uint32_t n);

void netem_link_counters(const struct netem_link *l, struct netem_counters *c);

/* ---- ECN marks, distributions and schedules ---- */

#include "netem_dist.h"	 /* distribution tables and registry */
#include "netem_sched.h" /* schedules and traces */

#define NETEM_PKT_CE 0x04 /* loss turned into a CE mark (spec ecn) */

/* netem_link_new with a registry of custom distribution tables (for
 * "distribution NAME" that is not built in). The link copies the tables it
 * uses; reg must stay valid for later netem_link_set_spec calls.
 * -ENOENT when a named table is not in reg. */
int netem_link_new_reg(const struct netem_spec *s, uint64_t seed,
		       uint64_t link_id, const struct netem_dist_registry *reg,
		       struct netem_link **out);

/* netem_link_enqueue for a packet whose ECN field is ECT(0)/ECT(1): with
 * spec "ecn" a loss marks it CE (NETEM_PKT_CE) instead of dropping it.
 * netem_link_enqueue treats packets as not ECN-capable (dropped). */
int netem_link_enqueue_ecn(struct netem_link *l, int64_t now_ns, uint32_t len,
			   uint64_t cookie, int ect, struct netem_verdict *v);

/* Follow a schedule or trace from origin_ns on, over the link's current
 * spec as the base (netem_link_set_spec replaces the base and keeps the
 * schedule). The link copies sched; NULL removes it. Scheduled changes
 * reset nothing: the loss-model state (unless the model changes), the
 * correlation memory, the reorder counter and the slot go on. */
int netem_link_set_schedule(struct netem_link *l, const struct netem_sched *s,
			    int64_t origin_ns);

#endif

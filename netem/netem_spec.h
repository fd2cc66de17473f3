/*
 * netem_spec.h: struct netem_spec, the parsed form of a tc-netem command
 * line ("delay 100ms 10ms 25% distribution normal loss gemodel ..."), and
 * the enums it uses. Units follow the kernel: times in ns, rate in bytes/s,
 * probabilities and correlations as u32 fractions of UINT32_MAX (100% ==
 * UINT32_MAX, set as rint(p * UINT32_MAX) like iproute2). netem_spec_init()
 * zeroes the whole struct (padding included) so two specs compare with
 * memcmp; netem_spec_equal() is the comparison to use.
 */
#ifndef RECKON_NETEM_SPEC_H
#define RECKON_NETEM_SPEC_H

#include <stdint.h>

#define NETEM_P100	     UINT32_MAX /* probability 100% */
#define NETEM_DIST_NAME_MAX  32		/* incl. NUL */
#define NETEM_DIST_TABLE_MAX 16384	/* kernel NETEM_DIST_MAX */
#define NETEM_DIST_SCALE     8192	/* table value 8192 == one sigma */

/* Delay (and slot) distribution: uniform +-J, or a table of NETEM_DIST_SCALE
 * scaled deviates (mean 0, sd 1). CUSTOM names a table in dist_name that the
 * caller supplies through a struct netem_dist_registry. */
enum netem_dist {
	NETEM_DIST_UNIFORM = 0,
	NETEM_DIST_NORMAL,
	NETEM_DIST_PARETO,
	NETEM_DIST_PARETONORMAL,
	NETEM_DIST_CUSTOM,
};

enum netem_loss_model {
	NETEM_LOSS_NONE = 0,
	NETEM_LOSS_RANDOM,  /* loss [random] P [CORR] */
	NETEM_LOSS_STATE,   /* loss state p13 p31 p32 p23 p14 */
	NETEM_LOSS_GEMODEL, /* loss gemodel p r 1-h 1-k */
};

/* How jitter may order packets. NETEM: like the kernel, a time-sorted queue,
 * so jitter larger than the packet spacing reorders. FIFO (beyond netem,
 * keyword "jitter fifo"): a packet never leaves before the one offered
 * before it: tts = max(previous tts, now + delay). */
enum netem_jitter_mode {
	NETEM_JITTER_NETEM = 0,
	NETEM_JITTER_FIFO,
};

struct netem_spec {
	/* delay TIME [JITTER [CORR]] [distribution NAME] */
	int64_t latency_ns;
	int64_t jitter_ns;
	uint32_t delay_corr;
	enum netem_dist dist;
	char dist_name[NETEM_DIST_NAME_MAX]; /* for NETEM_DIST_CUSTOM */
	enum netem_jitter_mode jitter_mode;

	/* loss */
	enum netem_loss_model loss_model;
	uint32_t loss;			   /* random: P */
	uint32_t loss_corr;		   /* random: CORR */
	uint32_t p13, p31, p32, p23, p14;  /* state */
	uint32_t ge_p, ge_r, ge_1h, ge_1k; /* gemodel, as typed (1-h, 1-k) */
	int ecn;			   /* mark CE instead of dropping */

	uint32_t duplicate, duplicate_corr;
	uint32_t corrupt, corrupt_corr;
	uint32_t reorder, reorder_corr;
	uint32_t gap;

	/* rate RATE [PACKETOVERHEAD [CELLSIZE [CELLOVERHEAD]]] */
	uint64_t rate; /* bytes/s; 0 = unlimited */
	int32_t packet_overhead;
	uint32_t cell_size;
	int32_t cell_overhead;

	uint32_t limit; /* packets */

	/* slot MIN [MAX] [packets N] [bytes N] or
	 * slot distribution NAME DELAY JITTER [packets N] [bytes N] */
	int slot;	     /* slot configured */
	int slot_use_dist;   /* distribution form */
	int64_t slot_min_ns; /* uniform form */
	int64_t slot_max_ns;
	enum netem_dist slot_dist; /* distribution form */
	char slot_dist_name[NETEM_DIST_NAME_MAX];
	int64_t slot_dist_delay_ns;
	int64_t slot_dist_jitter_ns;
	uint32_t slot_packets; /* 0 = unlimited */
	uint32_t slot_bytes;   /* 0 = unlimited */
};

/* 1 when a and b describe the same impairment (field by field). */
int netem_spec_equal(const struct netem_spec *a, const struct netem_spec *b);

/* Probability helpers: p in [0,1] -> u32 as iproute2's set_percent(), and
 * back. */
uint32_t netem_prob_from_double(double p);
double netem_prob_to_double(uint32_t p);

#endif

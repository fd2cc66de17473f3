/*
 * role_fixture.h: synthetic truth for the role tests. Entities walk
 * curves that make the DIS and led senders send now and then, one of
 * them dies and respawns elsewhere (two paths), and a datagram queue lets
 * a test wire a player to an observer in process, with whatever latency
 * and loss it wants.
 */
#ifndef RECKON_TEST_ROLE_FIXTURE_H
#define RECKON_TEST_ROLE_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "role/role.h"
#include "world/trace.h"

#define FIX_TICK 15625000LL /* 64 Hz */

/* n_ent entities (ids 0..n_ent-1), seconds s; entity 1 dead for 20
 * ticks at the middle and respawned 800 u away. */
void fix_trace(struct trace *t, int n_ent, double s);

/* Add by to every sample's time (an imported trace keeps its own time
 * column, which need not start at 0). */
void fix_shift(struct trace *t, int64_t by);

/* Captured datagrams. */
struct fix_dgram {
	uint16_t dest, lane;
	size_t len;
	uint8_t buf[256];
};

struct fix_queue {
	struct fix_dgram *d;
	size_t n, cap;
	int fail_after;	 /* emit returns -EPIPE after this many; < 0 never */
	int refuse_dest; /* emit to this dest returns ROLE_EMIT_FAILED and
			  * stores nothing; < 0 never */
};

void fix_queue_init(struct fix_queue *q);
void fix_queue_free(struct fix_queue *q);
int fix_emit(void *arg, const struct role_dgram *d);

struct predict_params;
/* "dis" with its defaults, or "led" with its defaults. */
void fix_params(struct predict_params *par, const char *name);

#endif

/*
 * trace_check.h: verify that a trace could come from a player under our
 * physics: time never goes backwards and (time, entity) pairs are
 * unique, no speed (reported or implied by consecutive positions of a
 * living entity) exceeds the bound, and no living entity stands inside a
 * wall of the map. A respawn must be preceded by a sample with alive=0,
 * so a jump while alive counts as a speed problem.
 */
#ifndef RECKON_WORLD_TRACE_CHECK_H
#define RECKON_WORLD_TRACE_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "map.h"
#include "trace.h"

struct trace_check_opts {
	double max_speed;    /* u/s, default 250 */
	double tol;	     /* relative slack, default 0.01 */
	double pos_quantum;  /* position rounding in the file, default 1e-4 */
	const struct map *m; /* NULL: no wall check */
	double radius;	     /* > 0: a body of this radius must not overlap
			      * a wall (0: the centre point only) */
};

struct trace_problem {
	uint32_t line; /* source line, or sample index + 1 without lines */
	char what[120];
};

void trace_check_defaults(struct trace_check_opts *o);

/* Checks t; lines (may be NULL) gives each sample's source line. Writes
 * at most max problems to p and returns the total number found. */
size_t trace_check(const struct trace *t, const uint32_t *lines,
		   const struct trace_check_opts *o, struct trace_problem *p,
		   size_t max);

#endif

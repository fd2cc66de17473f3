/*
 * netem_sched.h: time-varying impairments (beyond tc netem). A schedule is
 * a list of steps ("at 10s delay 100ms loss 1%") and linear ramps ("ramp
 * 20s 30s loss 0% 5%") of numeric spec parameters; a trace is a CSV of
 * time, delay, loss, rate ... rows applied piecewise-constant, parsed into
 * the same step list. Evaluating a schedule at a time gives the spec in
 * force then. Parsers read buffers (no I/O) and report the line and token
 * on error.
 */
#ifndef RECKON_NETEM_SCHED_H
#define RECKON_NETEM_SCHED_H

#include <stddef.h>
#include <stdint.h>

#include "netem_spec.h"

/* Parameters a schedule can move: every numeric field of the spec. The
 * first ten keep their old values. Times are ns, probabilities u32
 * fractions, rate bytes/s; the others are integers (rounded to the nearest
 * when a ramp passes between them). */
enum netem_param {
	NETEM_PARAM_DELAY = 0, /* ns */
	NETEM_PARAM_JITTER,    /* ns */
	NETEM_PARAM_DELAY_CORR,
	NETEM_PARAM_LOSS, /* random loss; switches the model to random */
	NETEM_PARAM_LOSS_CORR,
	NETEM_PARAM_DUPLICATE,
	NETEM_PARAM_CORRUPT,
	NETEM_PARAM_REORDER,
	NETEM_PARAM_RATE,  /* bytes/s; 0 = unlimited */
	NETEM_PARAM_LIMIT, /* packets */
	NETEM_PARAM_DUPLICATE_CORR,
	NETEM_PARAM_CORRUPT_CORR,
	NETEM_PARAM_REORDER_CORR,
	NETEM_PARAM_GAP, /* packets */
	/* 4-state model; each switches the model to "state" */
	NETEM_PARAM_P13,
	NETEM_PARAM_P31,
	NETEM_PARAM_P32,
	NETEM_PARAM_P23,
	NETEM_PARAM_P14,
	/* Gilbert-Elliott, as typed; each switches the model to "gemodel" */
	NETEM_PARAM_GE_P,
	NETEM_PARAM_GE_R,
	NETEM_PARAM_GE_1H,
	NETEM_PARAM_GE_1K,
	NETEM_PARAM_OVERHEAD,	   /* bytes, may be negative */
	NETEM_PARAM_CELL_SIZE,	   /* bytes */
	NETEM_PARAM_CELL_OVERHEAD, /* bytes, may be negative */
	NETEM_PARAM_SLOT_MIN,	   /* ns; uniform slot form */
	NETEM_PARAM_SLOT_MAX,	   /* ns; uniform slot form */
	NETEM_PARAM_SLOT_DELAY,	   /* ns; distribution slot form */
	NETEM_PARAM_SLOT_JITTER,   /* ns; distribution slot form */
	NETEM_PARAM_SLOT_PACKETS,  /* 0 = unlimited */
	NETEM_PARAM_SLOT_BYTES,	   /* 0 = unlimited */
	NETEM_PARAM_N,
};

struct netem_sched_ev {
	int64_t t0, t1; /* step: t0 == t1 */
	enum netem_param param;
	double v0, v1; /* native units: ns, u32 fraction, bytes/s, packets */
};

struct netem_sched {
	struct netem_sched_ev *ev; /* sorted by t0, stable */
	size_t n, cap;
};

/* "at 10s delay 100ms; ramp 20s 30s loss 0% 5%" (';' or newline between
 * statements, '#' comments). */
int netem_sched_parse(const char *text, struct netem_sched **out, char *err,
		      size_t errlen);

/* CSV trace: a header naming the columns, "time" first (e.g.
 * "time,delay,loss,rate" or with units "time_ms,delay_ms,loss_pct,
 * rate_kbit"), then one row per change; cells carry units unless the
 * header gives one; an empty cell keeps the value in force. Times must
 * not decrease. */
int netem_trace_parse_csv(const char *buf, size_t len, struct netem_sched **out,
			  char *err, size_t errlen);

int netem_sched_dup(const struct netem_sched *s, struct netem_sched **out);
void netem_sched_free(struct netem_sched *s);

/* The spec in force t_ns after the schedule's origin: base with every event
 * started by then applied in order (a ramp interpolates between t0 and t1).
 * *next_ns (may be NULL) gets the earliest time after t_ns at which the
 * result can change (t_ns + 1 inside a ramp, INT64_MAX when never). The
 * result is always a valid spec: a slot maximum below the minimum is
 * raised to it, and 4-state sums over 100% are cut (p14, then p31, gives
 * way). */
int netem_sched_eval(const struct netem_sched *s, const struct netem_spec *base,
		     int64_t t_ns, struct netem_spec *out, int64_t *next_ns);

const char *netem_param_name(enum netem_param p);

/* The parameter a schedule or trace column name means; -EINVAL if none. */
int netem_param_lookup(const char *name, enum netem_param *p);

#endif

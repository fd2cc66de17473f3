/*
 * trace.h: movement traces, the common currency between the world (bots
 * write them), the predictors (replay reads them) and the agents (players
 * replay them over the network). A trace is a time-ordered array of
 * per-entity samples taken at a fixed tick; the CSV form is documented in
 * docs/trace-format.md. Pure: parsing and printing work on caller buffers
 * and FILE streams the caller opened.
 */
#ifndef RECKON_WORLD_TRACE_H
#define RECKON_WORLD_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One entity at one instant. Positions in game units, velocities in
 * units/s, yaw in degrees [0,360). */
struct trace_sample {
	int64_t t_ns;
	uint32_t entity;
	uint8_t team;
	uint8_t alive;
	double x, y, z;
	double vx, vy, vz;
	double yaw;
	int16_t health, armor, ammo;
	uint8_t stance;	/* added by world: TRACE_STAND, TRACE_WALK, TRACE_CROUCH */
};

enum trace_stance {
	TRACE_STAND = 0,
	TRACE_WALK = 1,
	TRACE_CROUCH = 2,
};

/* Samples ordered by (t_ns, entity). Every entity has one sample per tick
 * while it exists. */
struct trace {
	struct trace_sample *s;
	size_t n, cap;
	int64_t tick_ns;   /* sampling period, e.g. 15625000 for 64 Hz */
	char map[64];	   /* map name the trace was made on, "" if unknown */
	uint64_t seed;	   /* generator seed, 0 if imported */
};

enum trace_event_kind {
	TRACE_EV_FIRE,
	TRACE_EV_HIT,
	TRACE_EV_PICKUP,
	TRACE_EV_DEATH,
	TRACE_EV_SPAWN,
};

#define TRACE_NONE UINT32_MAX /* added by world: "no target" in an event */

struct trace_event {
	int64_t t_ns;
	enum trace_event_kind kind;
	uint32_t entity;
	uint32_t target; /* victim of fire/hit, item index of pickup */
	double x, y, z;
	int32_t value;	 /* damage, amount picked up */
};

struct trace_events {
	struct trace_event *e;
	size_t n, cap;
};

void trace_init(struct trace *t);
void trace_free(struct trace *t);
int trace_append(struct trace *t, const struct trace_sample *s);

/* CSV I/O. On a parse error returns -EINVAL and writes "line N: why" into
 * err. */
int trace_read_csv(FILE *f, struct trace *out, char *err, size_t errlen);
int trace_write_csv(FILE *f, const struct trace *t);

void trace_events_init(struct trace_events *ev);
void trace_events_free(struct trace_events *ev);
int trace_events_read_csv(FILE *f, struct trace_events *out, char *err,
			  size_t errlen);
int trace_events_write_csv(FILE *f, const struct trace_events *ev);

/* Distinct entity ids in the trace, ascending; returns the count written
 * (at most max). */
size_t trace_entities(const struct trace *t, uint32_t *ids, size_t max);

/* The samples of one entity, in time order, copied into out (which the
 * caller frees with trace_free). */
int trace_filter_entity(const struct trace *t, uint32_t entity,
			struct trace *out);

/* Added by world (trace.c). Like trace_read_csv, but also returns the
 * source line of each sample in *lines (caller frees) and, with
 * TRACE_READ_LAX, accepts samples out of (t_ns, entity) order so that a
 * checker can report them. */
#define TRACE_READ_LAX 1u
int trace_read_csv_lines(FILE *f, struct trace *out, uint32_t **lines,
			 unsigned flags, char *err, size_t errlen);

/* Name of an event kind ("fire", "hit", ...) and back; -EINVAL if unknown. */
const char *trace_event_kind_name(enum trace_event_kind k);
int trace_event_kind_parse(const char *name, enum trace_event_kind *out);
int trace_events_append(struct trace_events *ev, const struct trace_event *e);

#endif

/*
 * engine.h: one repetition of a scenario on a libevent loop. engine_start
 * builds the hub and host namespaces, the veths and the impairment backend
 * (the userspace bridge, or kernel netem), starts every host, applies the
 * [schedule] at its times and stops the hosts when the duration is over, a
 * host fails, or engine_stop is called; then it writes the repetition's
 * counters and host statuses and calls the done callback. While it runs,
 * engine_set changes a link live and engine_status describes it.
 */
#ifndef RECKON_ENGINE_H
#define RECKON_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include <event2/event.h>

#include "control.h"
#include "netem.h"
#include "scenario.h"

struct engine;

struct engine_params {
	const struct scenario *sc;
	uint64_t seed;	   /* this repetition's seed */
	unsigned rep;	   /* 1-based */
	const char *dir;   /* this repetition's results directory */
	const char *agent; /* reckon-agent path */
	int64_t grace_ns;  /* SIGTERM -> SIGKILL */
};

typedef void (*engine_done_fn)(struct engine *e, void *arg);

/* Set everything up and start the hosts. On failure returns -errno with
 * the reason already logged and nothing left behind. */
int engine_start(struct event_base *base, const struct engine_params *p,
		 engine_done_fn done, void *arg, struct engine **out);

/* Begin an orderly stop (SIGTERM, then SIGKILL after the grace time). */
void engine_stop(struct engine *e, const char *why);

/* Live change of the directed link src->dst; origin ("ctl", "schedule")
 * goes into changes.csv and the log. */
int engine_set(struct engine *e, unsigned src, unsigned dst,
	       const struct netem_spec *s, const char *origin);

/* Hosts, links and counters, as text or JSON (one object). */
void engine_status(const struct engine *e, struct ctl_reply *r, int json);

/* One progress line: elapsed/duration and per-link delivered/dropped. */
void engine_progress(const struct engine *e, char *buf, size_t len);

/* 0 when every host succeeded, else the exit status of the first host
 * that failed (1 when that status was 0 but the run still failed). */
int engine_result(const struct engine *e);

void engine_free(struct engine *e);

#endif

/*
 * runner.h: one scenario from start to results, asynchronously on a
 * libevent loop: the results directory, reckond.log, then every repetition
 * (an engine each, seeds derived from the scenario seed), then the done
 * callback. The foreground `reckond run` and the service both drive it,
 * and its control commands (status, set, stop) are the same in both.
 */
#ifndef RECKON_RUNNER_H
#define RECKON_RUNNER_H

#include <stddef.h>
#include <stdint.h>

#include <event2/event.h>

#include "control.h"
#include "scenario.h"

struct runner;

typedef void (*runner_done_fn)(struct runner *r, void *arg);

/* The seed of repetition rep (1-based): the scenario seed itself for the
 * first, then splitmix64(seed + (rep - 1) * 0x9e3779b97f4a7c15). */
uint64_t runner_rep_seed(uint64_t seed, unsigned rep);

/* Start sc (borrowed until runner_free). A relative results_dir is taken
 * relative to cwd when cwd is not NULL. */
int runner_start(struct event_base *base, const struct scenario *sc,
		 const char *cwd, runner_done_fn done, void *arg,
		 struct runner **out);

void runner_stop(struct runner *r, const char *why);

/* Control requests for the running scenario: "status [-j]", "set LINK
 * SPEC", "stop". Returns 0 or -errno; -ENOTSUP for other requests. */
int runner_control(struct runner *r, char *line, struct ctl_reply *reply);

void runner_progress(const struct runner *r, char *buf, size_t len);
const char *runner_dir(const struct runner *r);
const char *runner_name(const struct runner *r);

/* Exit status: 0, a failing host's status, or 1 when set-up failed. */
int runner_result(const struct runner *r);

void runner_free(struct runner *r);

#endif

/*
 * reckond.h: reckond proper: the subcommands (foreground.c, service.c,
 * cleanup.c), a scenario's repetitions (repetitions.c) and one emulated
 * repetition (emulation.c).
 */
#ifndef RECKON_RECKOND_H
#define RECKON_RECKOND_H

#include <stddef.h>
#include <stdint.h>
#include <event2/event.h>

#include "results.h"
#include "scenario.h"
#include "ctl.h"
#include "netem.h"

/*
 * foreground.c, cleanup.c, service.c: running scenarios. run_scenario builds the namespaces, links and
 * agents of one scenario, runs it to the end (or to SIGINT/SIGTERM or a
 * control-socket stop), tears everything down and writes the results
 * directory. service_main is reckond without a subcommand: it serves the
 * control socket and runs queued scenarios one at a time.
 */

/* Returns 0 when the run and every agent succeeded, a positive exit status
 * when an agent failed, or -errno when the run could not be set up. The
 * results directory is written to rundir (if not NULL). */
int run_scenario(const struct scenario *sc, const struct run_opts *o,
		 char *rundir, size_t rundir_len);

/* Remove namespaces, veths and processes left by a reckond that died.
 * Returns the number of objects removed or -errno. */
int run_cleanup(int verbose);

/* The service: control socket, queue of scenarios. Returns an exit status. */
int service_main(const struct run_opts *o);

/*
 * repetitions.c: one scenario from start to results, asynchronously on a
 * libevent loop: the results directory, reckond.log, then every repetition
 * (an engine each, seeds derived from the scenario seed), then the done
 * callback. The foreground `reckond run` and the service both drive it,
 * and its control commands (status, set, stop) are the same in both.
 */

struct runner;

typedef void (*runner_done_fn)(struct runner *r, void *arg);


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

/*
 * emulation.c: one repetition of a scenario on a libevent loop. engine_start
 * builds the hub and host namespaces, the veths and the impairment backend
 * (the userspace bridge, or kernel netem), starts every host, applies the
 * [schedule] at its times and stops the hosts when the duration is over, a
 * host fails, or engine_stop is called; then it writes the repetition's
 * counters and host statuses and calls the done callback. While it runs,
 * engine_set changes a link live and engine_status describes it.
 */

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

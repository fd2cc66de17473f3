/*
 * reckond.h: reckond proper: the subcommands (foreground.c, service.c,
 * cleanup.c), a scenario's repetitions (repetitions.c) and one emulated
 * repetition (emulation.c).
 */
#ifndef RECKON_RECKOND_H
#define RECKON_RECKOND_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <event2/event.h>

#include "results.h"
#include "scenario.h"
#include "ctl.h"
#include "netem.h"

/*
 * foreground.c, service.c, cleanup.c: reckond's subcommands. run_scenario
 * builds the namespaces, links and agents of one scenario, runs it to the end
 * (or to SIGINT/SIGTERM or a control-socket stop), tears everything down and
 * writes the results directory. service_main is reckond without a subcommand:
 * it serves the control socket and runs queued scenarios one at a time.
 */

/* foreground.c: `reckond run`. Returns 0 when the run and every agent
 * succeeded, a positive exit status when an agent failed, or -errno when the
 * run could not be set up. The results directory is written to rundir (if not
 * NULL). */
int run_scenario(const struct scenario *sc, const struct run_opts *o,
		 char *rundir, size_t rundir_len);

/* cleanup.c: remove namespaces, veths and processes left by a reckond that
 * died. Returns the number of objects removed or -errno. */
int run_cleanup(int verbose);

/* service.c: the service: control socket, queue of scenarios. Returns an exit
 * status. */
int service_main(const struct run_opts *o);

/*
 * repetitions.c: one scenario from start to results, asynchronously on a
 * libevent loop: the results directory, reckond.log, then every repetition
 * (an emulation each, seeds derived from the scenario seed), then the done
 * callback. The foreground `reckond run` and the service both drive it,
 * and its control commands (status, set, stop) are the same in both.
 */

struct repetitions;

typedef void (*repetitions_done_fn)(struct repetitions *r, void *arg);

/* Start sc (borrowed until repetitions_free). A relative results_dir is taken
 * relative to cwd when cwd is not NULL. */
int repetitions_start(struct event_base *base, const struct scenario *sc,
		      const char *cwd, repetitions_done_fn done, void *arg,
		      struct repetitions **out);

void repetitions_stop(struct repetitions *r, const char *why);

/* Control requests for the running scenario: "status [-j]", "set LINK
 * SPEC", "stop". Returns 0 or -errno; -ENOTSUP for other requests. */
int repetitions_control(struct repetitions *r, char *line,
			struct ctl_reply *reply);

void repetitions_progress(const struct repetitions *r, char *buf, size_t len);
const char *repetitions_dir(const struct repetitions *r);
const char *repetitions_name(const struct repetitions *r);

/* Exit status: 0, a failing host's status, or 1 when set-up failed. */
int repetitions_result(const struct repetitions *r);

/* Why the run is partial (stopped, interrupted, cut short), "" when it
 * is complete. */
const char *repetitions_partial(const struct repetitions *r);

void repetitions_free(struct repetitions *r);

/*
 * emulation.c: one repetition of a scenario on a libevent loop. emulation_start
 * builds the hub and host namespaces, the veths and the impairment backend
 * (the userspace bridge, or kernel netem), starts every host, applies the
 * [schedule] at its times and stops the hosts when the duration is over, a
 * host fails, or emulation_stop is called; then it writes the repetition's
 * counters and host statuses and calls the done callback. While it runs,
 * emulation_set changes a link live and emulation_status describes it.
 */

struct emulation;

struct emulation_params {
	const struct scenario *sc;
	uint64_t seed;	   /* this repetition's seed */
	unsigned rep;	   /* 1-based */
	const char *dir;   /* this repetition's results directory */
	const char *agent; /* reckon-agent path */
	int64_t grace_ns;  /* SIGTERM -> SIGKILL */
};

typedef void (*emulation_done_fn)(struct emulation *e, void *arg);

/* Set everything up and start the hosts. On failure returns -errno with
 * the reason already logged and nothing left behind. */
int emulation_start(struct event_base *base, const struct emulation_params *p,
		    emulation_done_fn done, void *arg, struct emulation **out);

/* Begin an orderly stop (SIGTERM, then SIGKILL after the grace time). */
void emulation_stop(struct emulation *e, const char *why);

/* Live change of the directed link src->dst; origin ("ctl", "schedule")
 * goes into changes.csv and the log. */
int emulation_set(struct emulation *e, unsigned src, unsigned dst,
		  const struct netem_spec *s, const char *origin);

/* Hosts, links and counters into f, as text or JSON (the members of one
 * object). */
void emulation_status(const struct emulation *e, FILE *f, int json);

/* One progress line: elapsed/duration and per-link delivered/dropped. */
void emulation_progress(const struct emulation *e, char *buf, size_t len);

/* Frames the userspace bridge lost on its own (kernel drops before it
 * read them, no pool slot, too big, injections refused), counted when the
 * repetition ended; 0 with the kernel backend. */
uint64_t emulation_lost(const struct emulation *e);

/* 0 when every host succeeded, else the exit status of the first host
 * that failed (1 when that status was 0 but the run still failed). */
int emulation_result(const struct emulation *e);

void emulation_free(struct emulation *e);

/* The bridge's configuration for sc: its hosts' names, its capture and
 * its [link] specs (read from sc while bridge_new runs). */
struct bridge_conf;
void emulation_bridge_conf(const struct scenario *sc, struct bridge_conf *c);

/*
 * emulation_fps.c: the bot games of a repetition's fps-clients, each
 * distinct game (map, bots, seed, duration, tick rate, read from the
 * client's args as the agent and the simulator read them) generated once
 * and written to a game file in the repetition's directory, so that the
 * clients load their tracks (RECKON_FPS_GAME) instead of each running
 * the whole world. A game that cannot be made is left to its clients,
 * which then generate it themselves (a warning says so).
 */
struct emu_games {
	unsigned n;   /* files written */
	char **file;  /* their paths */
	int *of;      /* per host: the index of its game's file, or -1 */
	unsigned nhosts;
};

/* Write the games of sc's fps-clients for seed and rep into dir. 0 or
 * -ENOMEM (the one failure that stops the repetition). */
int emu_games_write(struct emu_games *g, const struct scenario *sc,
		    const char *dir, uint64_t seed, unsigned rep);
/* Host i's game file, or NULL. */
const char *emu_games_file(const struct emu_games *g, unsigned i);
/* Remove the files and free g (a zeroed g is fine). */
void emu_games_remove(struct emu_games *g);

#endif

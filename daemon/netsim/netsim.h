/*
 * netsim.h: the simulator host. It runs the same pure state machines as the
 * emulator (agents/role player, observer, relay, fps-server, fps-client;
 * the netem engine for every directed link) in virtual time, in one
 * process, with a discrete-event queue and no sockets. The same scenario file works in both modes; a
 * simulated repetition writes the same metrics files into its run
 * directory that the emulated agents write, so summary_write() aggregates
 * either.
 */
#ifndef RECKON_SIM_H
#define RECKON_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "results.h"
#include "scenario.h"

struct sim_stats {
	uint64_t events;    /* discrete events processed */
	uint64_t datagrams; /* datagrams offered to links */
	uint64_t parallel_events; /* of events, run in two-thread batches */
	int64_t virtual_ns; /* simulated time */
};

/* One repetition (rep is 1-based; its seed is scenario_rep_seed(sc->seed,
 * rep), as in the emulator) into run_dir, which exists. The first call
 * tells glibc's malloc to keep freed memory for the next repetition
 * (mallopt; see sim.c): it changes no result, only the time. */
int sim_run_rep(const struct scenario *sc, unsigned rep, const char *run_dir,
		struct sim_stats *st);

/* Threads a repetition may use: 1, or 2 to run the events of one instant
 * for different fps hosts side by side (same results byte for byte).
 * Unset (0), RECKON_SIM_THREADS (1 or 2) decides, else the CPU count (2
 * from two CPUs). A sweep that runs points at once sets 1. */
void sim_set_threads(unsigned n);

/* The whole scenario in virtual time: results directory, every
 * repetition, summary and table, as `reckond run` does for the emulator.
 * Returns 0 or a positive exit status, or -errno. */
int sim_scenario(const struct scenario *sc, const struct run_opts *o,
		 char *rundir, size_t rundir_len);

/* Whether every host of sc can be simulated (a reckon-agent role among
 * player, observer, relay, fps-server and fps-client, args the agent
 * accepts): 0, or -ENOTSUP /
 * -EINVAL with "host NAME: reason" in err. Reads no trace. */
int sim_check(const struct scenario *sc, char *err, size_t errlen);

#endif

/*
 * netsim_scenario.c: `reckond sim FILE` (and `reckond run FILE` when the
 * scenario says mode = simulate): the simulator's twin of foreground.c and
 * repetitions.c. It opens and closes the run directory as the emulator
 * does (results_run_open/_rep/_close: canonical scenario.ini, reckond.log,
 * rep-N/ when there are several repetitions, the summary and its table),
 * runs every repetition with sim_run_rep under the same repetition seeds
 * and prints a progress line per repetition with the speed over real
 * time.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "results.h"
#include "netsim.h"
#include "netsim_int.h"

int sim_check(const struct scenario *sc, char *err, size_t errlen)
{
	char why[512];

	for (unsigned i = 0; i < sc->nhosts; i++) {
		struct sim_host h;
		int rc = sim_host_init(&h, sc, i, sc->seed, 1, ".", why,
				       sizeof(why));

		if (rc) {
			snprintf(err, errlen, "host %s: %s", sc->hosts[i].name,
				 why);
			return rc;
		}
		sim_host_free(&h);
	}
	return 0;
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ", N on two threads" when the repetition ran events side by side. */
static const char *two_threads(const struct sim_stats *st, char *buf,
			       size_t len)
{
	if (!st->parallel_events)
		return "";
	snprintf(buf, len, ", %" PRIu64 " on two threads",
		 st->parallel_events);
	return buf;
}

static int run_reps(const struct scenario *sc, const struct run_opts *o,
		    const struct results_run *run)
{
	char repdir[PATH_MAX];
	int result = 0;

	for (unsigned rep = 1; rep <= sc->repetitions && result == 0; rep++) {
		struct sim_stats st = {0};
		char buf[64];
		double t0, wall;
		int rc;

		if (results_run_rep(run, rep, sc->repetitions, repdir,
				    sizeof(repdir)) < 0)
			return 1;
		log_debug("%s: repetition %u/%u, seed %" PRIu64 " (simulated)",
			  sc->name, rep, sc->repetitions,
			  scenario_rep_seed(sc->seed, rep));
		t0 = mono_s();
		rc = sim_run_rep(sc, rep, repdir, &st);
		wall = mono_s() - t0;
		if (rc < 0)
			return 1;
		result = rc;
		/* the progress line, one per repetition (they are short);
		 * -q keeps it out of the terminal */
		(o->quiet ? log_debug : log_info)(
			"%s: rep %u/%u: %.1f s simulated in %.3f s (%.0fx real "
			"time), %" PRIu64 " events, %" PRIu64 " datagrams%s",
			sc->name, rep, sc->repetitions,
			(double)st.virtual_ns / 1e9, wall,
			wall > 0 ? (double)st.virtual_ns / 1e9 / wall : 0,
			st.events, st.datagrams, two_threads(&st, buf,
							     sizeof(buf)));
	}
	return result;
}

int sim_scenario(const struct scenario *sc, const struct run_opts *o,
		 char *rundir, size_t rundir_len)
{
	struct results_run run;
	char why[600];
	int err, result;

	err = sim_check(sc, why, sizeof(why));
	if (err) {
		log_warnx("%s: cannot simulate: %s", sc->name, why);
		return err;
	}
	err = results_run_open(&run, sc, NULL);
	if (err < 0)
		return err;
	snprintf(run.info.mode, sizeof(run.info.mode), "simulation");
	log_info("%s: simulating %s (%u host(s), %u repetition(s)), results "
		 "in %s",
		 sc->name, sc->path, sc->nhosts, sc->repetitions, run.dir);
	if (sc->capture.enabled)
		log_info("capture: the simulator carries no frames, so it "
			 "writes no pcap files");
	if (sc->backend == SC_BACKEND_KERNEL)
		log_info("backend = kernel: the simulator always uses reckon's "
			 "netem engine");
	result = run_reps(sc, o, &run);
	result = results_run_close(&run, sc, result);
	printf("results: %s\n", run.dir);
	fflush(stdout);
	if (rundir != NULL && rundir_len > 0)
		snprintf(rundir, rundir_len, "%s", run.dir);
	return result;
}

/*
 * sim_scenario.c: `reckond sim FILE` (and `reckond run FILE` when the
 * scenario says mode = simulate): the simulator's twin of foreground.c and
 * repetitions.c. It makes the same results directory (canonical scenario.ini,
 * reckond.log, rep-N/ when there are several repetitions, with the same
 * repetition seeds), runs every repetition with sim_run_rep, prints a
 * progress line per repetition with the speed over real time, then
 * writes summary.csv/json through summary_write and prints its table.
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

static int make_dir(const struct scenario *sc, char *dir, size_t len)
{
	char parent[PATH_MAX], path[PATH_MAX];
	int err;

	err = results_path(parent, sizeof(parent), "%s",
			   sc->results_dir[0] ? sc->results_dir : "results");
	if (err == 0)
		err = results_mkdir_run(parent, sc->name, dir, len);
	if (err < 0) {
		log_warnx("results directory under %s: %s", parent,
			  strerror(-err));
		return err;
	}
	if (realpath(dir, path) != NULL)
		snprintf(dir, len, "%s", path);
	return 0;
}

static int run_reps(const struct scenario *sc, const struct run_opts *o,
		    const char *dir)
{
	char repdir[PATH_MAX];
	int result = 0;

	for (unsigned rep = 1; rep <= sc->repetitions && result == 0; rep++) {
		struct sim_stats st = {0};
		double t0, wall;
		int rc;

		if (sc->repetitions > 1) {
			rc = results_path(repdir, sizeof(repdir), "%s/rep-%u",
					  dir, rep);
			if (rc == 0)
				rc = results_mkdirs(repdir);
			if (rc < 0) {
				log_warnx("%s: %s", repdir, strerror(-rc));
				return 1;
			}
		} else {
			snprintf(repdir, sizeof(repdir), "%s", dir);
		}
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
			"time), %" PRIu64 " events, %" PRIu64 " datagrams",
			sc->name, rep, sc->repetitions,
			(double)st.virtual_ns / 1e9, wall,
			wall > 0 ? (double)st.virtual_ns / 1e9 / wall : 0,
			st.events, st.datagrams);
	}
	return result;
}

int sim_scenario(const struct scenario *sc, const struct run_opts *o,
		 char *rundir, size_t rundir_len)
{
	char dir[PATH_MAX], path[PATH_MAX], why[600];
	int err, log_fd = -1, result;

	err = sim_check(sc, why, sizeof(why));
	if (err) {
		log_warnx("%s: cannot simulate: %s", sc->name, why);
		return err;
	}
	err = make_dir(sc, dir, sizeof(dir));
	if (err < 0)
		return err;
	err = results_scenario(dir, sc);
	if (err < 0)
		log_warnx("%s/scenario.ini: %s", dir, strerror(-err));
	if (results_path(path, sizeof(path), "%s/reckond.log", dir) == 0)
		log_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
			      0644);
	if (log_fd >= 0)
		log_set_file(log_fd);
	log_info("%s: simulating %s (%u host(s), %u repetition(s)), results "
		 "in %s",
		 sc->name, sc->path, sc->nhosts, sc->repetitions, dir);
	if (sc->capture.enabled)
		log_info("capture: the simulator carries no frames, so it "
			 "writes no pcap files");
	if (sc->backend == SC_BACKEND_KERNEL)
		log_info("backend = kernel: the simulator always uses reckon's "
			 "netem engine");
	result = run_reps(sc, o, dir);
	err = summary_write(dir, sc->repetitions, stdout);
	if (err < 0) {
		log_warnx("%s/summary.csv: %s", dir, strerror(-err));
		if (result == 0)
			result = 1;
	} else if ((err = plot_run(dir, sc->repetitions)) < 0) {
		log_warnx("%s: plots: %s", dir, strerror(-err));
	}
	log_info("%s: %s; results in %s", sc->name,
		 result == 0 ? "finished" : "FAILED", dir);
	log_set_file(-1);
	if (log_fd >= 0)
		close(log_fd);
	printf("results: %s\n", dir);
	fflush(stdout);
	if (rundir != NULL && rundir_len > 0)
		snprintf(rundir, rundir_len, "%s", dir);
	return result;
}

/*
 * rundir.c: a run directory from its opening to its close, the same for
 * the emulator and the simulator. Opening makes
 * <results_dir>/<name>-<timestamp>/ (relative to the caller's cwd when one
 * is given), names it absolutely, writes the canonical scenario.ini and
 * copies every log line into reckond.log there; each repetition gets
 * rep-N/ when there are several. Closing a run writes run.json (complete
 * or partial, timer accuracy: runinfo.c) and, when it succeeded,
 * summary.csv/json, the table and the plots. One rule for a missing
 * summary: no metrics at all (a scenario of exec hosts) is no summary and
 * no failure; metrics that cannot be summarised fail the run.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "results.h"

int results_run_open(struct results_run *run, const struct scenario *sc,
		     const char *cwd)
{
	const char *rd = sc->results_dir[0] ? sc->results_dir : "results";
	char parent[PATH_MAX], path[PATH_MAX];
	int err;

	run->log_fd = -1;
	run_info_init(&run->info, sc, "emulation");
	if (rd[0] != '/' && cwd != NULL)
		err = results_path(parent, sizeof(parent), "%s/%s", cwd, rd);
	else
		err = results_path(parent, sizeof(parent), "%s", rd);
	if (err == 0)
		err = results_mkdir_run(parent, sc->name, run->dir,
					sizeof(run->dir));
	if (err < 0) {
		log_warnx("results directory under %s: %s", parent,
			  strerror(-err));
		return err;
	}
	/* Reported absolutely: the service's cwd is not the client's. */
	if (realpath(run->dir, path) != NULL)
		snprintf(run->dir, sizeof(run->dir), "%s", path);
	err = results_scenario(run->dir, sc);
	if (err < 0)
		log_warnx("%s/scenario.ini: %s", run->dir, strerror(-err));
	if (results_path(path, sizeof(path), "%s/reckond.log", run->dir) == 0)
		run->log_fd = open(
			path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (run->log_fd >= 0)
		log_set_file(run->log_fd);
	return 0;
}

int results_run_rep(const struct results_run *run, unsigned rep, unsigned nreps,
		    char *buf, size_t len)
{
	int err;

	if (nreps <= 1) {
		snprintf(buf, len, "%s", run->dir);
		return 0;
	}
	err = results_path(buf, len, "%s/rep-%u", run->dir, rep);
	if (err == 0)
		err = results_mkdirs(buf);
	if (err < 0)
		log_warnx("%s: %s", buf, strerror(-err));
	return err;
}

int results_run_close(struct results_run *run, const struct scenario *sc,
		      int result)
{
	struct run_info *ri = &run->info;
	char acc[300];
	int err;

	run_info_timing(ri, run->dir, sc->repetitions);
	if ((err = run_info_write(run->dir, ri)) < 0)
		log_warnx("%s/run.json: %s", run->dir, strerror(-err));
	if (ri->degraded) {
		run_info_accuracy(ri, acc, sizeof(acc));
		log_warnx("%s: %s", sc->name, acc);
	}
	if (result == 0) {
		err = summary_write_info(run->dir, sc->repetitions, ri, stdout);
		if (err < 0 && err != -ENOENT) {
			log_warnx("%s: summary: %s", run->dir, strerror(-err));
			result = 1;
		}
		if (err == 0 &&
		    (err = plot_run_info(run->dir, sc->repetitions, ri)) < 0)
			log_warnx("%s: plots: %s", run->dir, strerror(-err));
	}
	if (result != 0)
		log_info("%s: FAILED; results in %s", sc->name, run->dir);
	else if (ri->partial[0])
		log_warnx("%s: PARTIAL (%s); results in %s", sc->name,
			  ri->partial, run->dir);
	else
		log_info("%s: finished; results in %s", sc->name, run->dir);
	results_run_release(run);
	return result;
}

void results_run_release(struct results_run *run)
{
	if (run->log_fd >= 0) {
		log_set_file(-1);
		close(run->log_fd);
	}
	run->log_fd = -1;
}

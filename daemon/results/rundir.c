/*
 * rundir.c: a run directory from its opening to its close, the same for
 * the emulator and the simulator. Opening makes
 * <results_dir>/<name>-<timestamp>/ (relative to the caller's cwd when one
 * is given), names it absolutely, writes the canonical scenario.ini and
 * copies every log line into reckond.log there; each repetition gets
 * rep-N/ when there are several. Closing a run that succeeded writes
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
	if (result == 0) {
		int err = summary_write(run->dir, sc->repetitions, stdout);

		if (err < 0 && err != -ENOENT) {
			log_warnx("%s: summary: %s", run->dir, strerror(-err));
			result = 1;
		}
		if (err == 0 && (err = plot_run(run->dir, sc->repetitions)) < 0)
			log_warnx("%s: plots: %s", run->dir, strerror(-err));
	}
	log_info("%s: %s; results in %s", sc->name,
		 result == 0 ? "finished" : "FAILED", run->dir);
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

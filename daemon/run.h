/*
 * run.h: running scenarios. run_scenario builds the namespaces, links and
 * agents of one scenario, runs it to the end (or to SIGINT/SIGTERM or a
 * control-socket stop), tears everything down and writes the results
 * directory. service_main is reckond without a subcommand: it serves the
 * control socket and runs queued scenarios one at a time.
 */
#ifndef RECKON_RUN_H
#define RECKON_RUN_H

#include <stddef.h>

#include "scenario.h"

struct run_opts {
	int verbose;
	int quiet;		 /* no progress line */
	const char *ctl_path;	 /* control socket; NULL = default */
};

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

#endif

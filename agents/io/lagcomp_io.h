/*
 * lagcomp_io.h: the files an fps-server leaves in the run directory:
 * lagcomp-HOST.csv (one row of the run's lag-compensation metrics,
 * columns in docs/lagcomp.md) and shots-HOST.csv (every shot's verdict).
 * Written to a temporary name and renamed, like metrics-HOST.csv.
 */
#ifndef RECKON_AGENT_LAGCOMP_IO_H
#define RECKON_AGENT_LAGCOMP_IO_H

#include "agent_io.h"
#include "lagcomp/lagcomp.h"

/* 0 or -errno. duration_s is the game time the run covered. */
int lagcomp_metrics_write(const struct shell_opts *o, const struct lc_server *s,
			  double duration_s);
int lagcomp_shots_write(const struct shell_opts *o, const struct lc_server *s);
/* events-HOST.csv: every shot as a ray for `reckonctl view`
 * (docs/viewer.md; view_events.c). */
int lagcomp_events_write(const struct shell_opts *o, const struct lc_server *s);

#endif

/* PLACEHOLDER-NOT-BUILT-YET: replaced by the simulator's owner. */
#include <errno.h>
#include "sim.h"
int sim_run_rep(const struct scenario *sc, unsigned rep, const char *run_dir, struct sim_stats *st)
{ (void)sc; (void)rep; (void)run_dir; (void)st; return -ENOSYS; }
int sim_scenario(const struct scenario *sc, const struct run_opts *o, char *rundir, size_t len)
{ (void)sc; (void)o; (void)rundir; (void)len; return -ENOSYS; }

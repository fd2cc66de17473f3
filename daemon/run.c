/* PLACEHOLDER-NOT-BUILT-YET: replaced by the runtime's owner. */
#include <errno.h>
#include "run.h"
int run_scenario(const struct scenario *sc, const struct run_opts *o, char *rundir, size_t len)
{ (void)sc; (void)o; (void)rundir; (void)len; return -ENOSYS; }
int run_cleanup(int verbose) { (void)verbose; return -ENOSYS; }
int service_main(const struct run_opts *o) { (void)o; return 1; }

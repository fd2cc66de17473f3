/* PLACEHOLDER-NOT-BUILT-YET: replaced by the sweep's owner. */
#include <stdio.h>
#include "sweep.h"
int sweep_main(int argc, char *argv[], const struct run_opts *o)
{ (void)argc; (void)argv; (void)o; fprintf(stderr, "sweep: not built yet\n"); return 1; }

/*
 * sweep.h: sweeps over network conditions and predictor parameters. The
 * [sweep] section of a scenario names axes (any link parameter or any
 * predictor parameter, as lists or ranges); the grid is their product,
 * each point runs its repetitions with derived seeds in the simulator (or
 * the emulator), on parallel workers, and one summary covers the grid.
 * --shard I/N runs a deterministic slice; `reckonctl merge` joins shards
 * into a result equal, bit for bit, to the unsharded one.
 */
#ifndef RECKON_SWEEP_H
#define RECKON_SWEEP_H

#include "results.h"

/* `reckond sweep [-j N] [--shard I/N] FILE`: argv[0] is "sweep". Returns an
 * exit status. */
int sweep_main(int argc, char *argv[], const struct run_opts *o);

/* `reckonctl merge [--no-plots] OUT SHARD_DIR...` (merge.c): argv
 * holds the arguments after "merge". Returns an exit status. */
int sweep_merge(int argc, char *argv[]);

#endif

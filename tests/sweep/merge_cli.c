/*
 * merge_cli.c: `sweep_merge_cli OUT SHARD_DIR...` runs ctl_merge, the
 * body of `reckonctl merge`, for tests/sweep/merge.sh while reckonctl's
 * command table does not list merge yet.
 */
#include "sweep.h"

int main(int argc, char *argv[])
{
	return ctl_merge(argc - 1, argv + 1);
}

/*
 * reckonctl: the command-line client of reckon. `reckonctl spec SPEC`
 * explains a netem spec without running anything; the other subcommands
 * talk to a running reckond over its control socket (-s PATH or
 * $RECKON_SOCK, else the default path in docs/reckond.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl_int.h"
#include "sweep.h"
#include "view.h"

/* clang-format off */
static const struct {
	const char *name;
	int (*fn)(int, char *[]);
	const char *help;
} cmds[] = {
	{ "spec", ctl_spec, "spec 'SPEC'            canonical form and implied statistics" },
	{ "status", ctl_status, "status [-j]            hosts, links and counters (-j: JSON)" },
	{ "set", ctl_set, "set A>B 'SPEC'         change link A->B now (A<>B: both ways)" },
	{ "stop", ctl_stop, "stop                   stop the running scenario" },
	{ "run", ctl_run, "run FILE               queue a scenario on the service" },
	{ "shutdown", ctl_shutdown, "shutdown               stop the service" },
	{ "view", ctl_view, "view [-o FILE] [--host H] [--map M] [--points N] RUN_DIR   one HTML page replaying a run (docs/viewer.md)" },
	{ "merge", sweep_merge, "merge [--no-plots] OUT SHARD_DIR...   join sweep shards (docs/sweeps.md)" },
};
/* clang-format on */

static int usage(void)
{
	fprintf(stderr, "usage: reckonctl [-s SOCKET] COMMAND [ARGS]\n");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(stderr, "       reckonctl %s\n", cmds[i].help);
	return 2;
}

int main(int argc, char *argv[])
{
	int a = 1;

	if (argc > 2 && strcmp(argv[1], "-s") == 0) {
		setenv("RECKON_SOCK", argv[2], 1);
		a = 3;
	}
	if (argc <= a)
		return usage();
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (strcmp(argv[a], cmds[i].name) == 0)
			return cmds[i].fn(argc - a - 1, argv + a + 1);
	fprintf(stderr, "reckonctl: unknown command '%s'\n", argv[a]);
	return usage();
}

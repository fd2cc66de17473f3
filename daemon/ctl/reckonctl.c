/*
 * reckonctl: the command-line client of reckon. `reckonctl spec SPEC`
 * explains a netem spec without running anything; the other subcommands
 * talk to a running reckond over its control socket (-s PATH or
 * $RECKON_SOCK, else the default path in docs/reckond.md). `--help`
 * and `COMMAND --help` print the usage on stdout and exit 0; an option a
 * command does not take is named on one line, exit status 2.
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
	const char *const opts[5]; /* the options it takes */
} cmds[] = {
	{ "spec", ctl_spec, "spec [--packets N] [--size BYTES] [--interval TIME] [--seed N] 'SPEC'\n"
	  "                         canonical form and implied statistics",
	  { "--packets", "--size", "--interval", "--seed" } },
	{ "status", ctl_status, "status [-j]            hosts, links and counters (-j: JSON)", { "-j" } },
	{ "set", ctl_set, "set A>B 'SPEC'         change link A->B now (A<>B: both ways)", { NULL } },
	{ "stop", ctl_stop, "stop                   stop the running scenario", { NULL } },
	{ "run", ctl_run, "run FILE               queue a scenario on the service", { NULL } },
	{ "shutdown", ctl_shutdown, "shutdown               stop the service", { NULL } },
	{ "view", ctl_view, "view [-o FILE] [--host H] [--map M] [--points N] RUN_DIR\n"
	  "                         one HTML page replaying a run (docs/viewer.md)",
	  { "-o", "--host", "--map", "--points" } },
	{ "merge", sweep_merge, "merge [--no-plots] OUT SHARD_DIR...   join sweep shards (docs/sweeps.md)", { "--no-plots" } },
};
/* clang-format on */

#define NCMDS (sizeof(cmds) / sizeof(cmds[0]))

static void usage(FILE *f)
{
	fprintf(f, "usage: reckonctl [-s SOCKET] COMMAND [ARGS]\n");
	for (size_t i = 0; i < NCMDS; i++)
		fprintf(f, "       reckonctl %s\n", cmds[i].help);
	fprintf(f, "       reckonctl [COMMAND] --help   usage (of COMMAND)\n");
}

static int is_help(const char *a)
{
	return !strcmp(a, "--help") || !strcmp(a, "-h");
}

/* A usage error: one line and a pointer to --help, status 2. */
static int bad(const char *cmd, const char *what, const char *arg)
{
	fprintf(stderr, "reckonctl%s%s: %s '%s'\nsee 'reckonctl%s%s --help'\n",
		cmd ? " " : "", cmd ? cmd : "", what, arg, cmd ? " " : "",
		cmd ? cmd : "");
	return 2;
}

/* --help, or an option command i does not take (a word starting with
 * '-' that is not a number): 0 for help, 2 for the error, -1 for
 * neither. */
static int check_opts(size_t i, int argc, char *argv[])
{
	for (int k = 0; k < argc; k++) {
		const char *a = argv[k];
		int known = 0;

		if (is_help(a)) {
			printf("usage: reckonctl %s\n", cmds[i].help);
			return 0;
		}
		if (a[0] != '-' || a[1] == '\0' ||
		    (a[1] >= '0' && a[1] <= '9'))
			continue;
		for (size_t o = 0; o < 5 && cmds[i].opts[o]; o++)
			known |= !strcmp(a, cmds[i].opts[o]);
		if (!known)
			return bad(cmds[i].name, "unknown option", a);
		if (cmds[i].opts[0][1] == '-' && strcmp(a, "--no-plots"))
			k++; /* spec's options take a value */
	}
	return -1;
}

int main(int argc, char *argv[])
{
	int a = 1, rc;

	if (argc > 1 && is_help(argv[1])) {
		usage(stdout);
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "-s") == 0)
		return bad(NULL, "a socket path must follow", argv[1]);
	if (argc > 2 && strcmp(argv[1], "-s") == 0) {
		setenv("RECKON_SOCK", argv[2], 1);
		a = 3;
	}
	if (argc <= a) {
		usage(stderr);
		return 2;
	}
	if (argv[a][0] == '-')
		return bad(NULL, "unknown option", argv[a]);
	for (size_t i = 0; i < NCMDS; i++) {
		if (strcmp(argv[a], cmds[i].name) != 0)
			continue;
		rc = check_opts(i, argc - a - 1, argv + a + 1);
		if (rc >= 0)
			return rc;
		return cmds[i].fn(argc - a - 1, argv + a + 1);
	}
	return bad(NULL, "unknown command", argv[a]);
}

/*
 * reckonctl: the command-line client of reckon. `reckonctl spec SPEC`
 * explains a netem spec without running anything; the other subcommands
 * talk to a running reckond over its control socket.
 */
#include <stdio.h>
#include <string.h>

#include "reckonctl.h"

static const struct {
	const char *name;
	int (*fn)(int, char *[]);
	const char *help;
} cmds[] = {
	{ "spec", ctl_spec, "spec 'SPEC'            canonical form and implied statistics" },
};

static int usage(void)
{
	fprintf(stderr, "usage: reckonctl COMMAND [ARGS]\n");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(stderr, "       reckonctl %s\n", cmds[i].help);
	return 2;
}

int main(int argc, char *argv[])
{
	if (argc < 2)
		return usage();
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (strcmp(argv[1], cmds[i].name) == 0)
			return cmds[i].fn(argc - 2, argv + 2);
	fprintf(stderr, "reckonctl: unknown command '%s'\n", argv[1]);
	return usage();
}

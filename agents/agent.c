/*
 * reckon-agent: what runs inside a host's namespace, and the offline tools
 * that share its code. Each subcommand lives in its own cmd_*.c file; this
 * file dispatches to them; cmd_usage.c holds the one way they all report
 * usage errors.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

static const struct {
	const char *name;
	int (*fn)(int, char *[]);
	const char *help;
} cmds[] = {
	{"trace", cmd_trace,
	 "trace gen|check|stats|import|map-svg|map-check ...   movement "
	 "traces"},
	{"replay", cmd_replay,
	 "replay --trace FILE --predictor NAME [--param k=v] [--json]"},
	{"player", cmd_player,
	 "player --trace FILE|--map M ... --predictor SPEC --to ADDR ..."},
	{"observer", cmd_observer,
	 "observer --trace FILE|--map M ... --predictor SPEC ..."},
	{"relay", cmd_relay,
	 "relay --predictor SPEC --to ADDR ... [--stop-after S]"},
	{"now", cmd_now, "now   (CLOCK_MONOTONIC in ns, for --start-ns)"},
	{"fps-server", cmd_fps_server,
	 "fps-server --mode none|tlc|clc|alc [--port P] ...   lag comp."},
	{"fps-client", cmd_fps_client,
	 "fps-client --entity E --server ADDR[:PORT] [--map M --bots N]"},
};

static void usage(FILE *f)
{
	fprintf(f, "usage: reckon-agent COMMAND [ARGS]\n");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "       reckon-agent %s\n", cmds[i].help);
	fprintf(f,
		"       reckon-agent [COMMAND] --help   usage (of COMMAND)\n");
}

int main(int argc, char *argv[])
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (strcmp(argv[1], cmds[i].name) == 0)
			return cmds[i].fn(argc - 2, argv + 2);
	fprintf(stderr,
		"reckon-agent: unknown %s '%s'\nsee 'reckon-agent --help'\n",
		argv[1][0] == '-' ? "option" : "command", argv[1]);
	return 2;
}

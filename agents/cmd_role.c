/*
 * cmd_role.c: `reckon-agent player|observer|relay` and `reckon-agent now`.
 * Reads the run context the daemon puts in the environment
 * (RECKON_RUN_DIR, RECKON_HOST, RECKON_START_NS, RECKON_SEED, RECKON_REP)
 * and the role's options, which override it, through the parser the
 * simulator shares (io/agent_opts.c), builds the shared truth and hands
 * over to the socket shell. Usage errors exit 2 with one line naming
 * the problem (the first line of the host's log), run errors 1.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "role_shell.h"

static void usage(FILE *f, const char *role)
{
	fprintf(f, "usage: reckon-agent %s [options]\n%s", role,
		agent_opts_usage());
}

static int run_role(enum shell_role role, const char *name, int argc,
		    char *argv[])
{
	static struct shell_opts o;
	int64_t entry = shell_now_ns();
	char err[512], warn[256];
	int fd[ROLE_MAX_LANES];
	struct role_truth tr;
	int rc;

	if (cmd_help_asked(argc, argv)) {
		usage(stdout, name);
		return 0;
	}
	agent_opts_init(&o, role, name);
	if (agent_opts_env(&o, entry, err, sizeof(err))) {
		fprintf(stderr, "reckon-agent: %s\n", err);
		return 2;
	}
	/* argv[-1] is the command name, which the parser skips */
	if (agent_opts_parse(&o, argc + 1, argv - 1, entry, err, sizeof(err)))
		return cmd_usage_error(name, "%s", err);
	/* no common start given: one second after this process started,
	 * before the trace is built, so agents started together agree */
	if (!o.start_set) {
		o.start_ns = entry + 1000000000;
		o.start_set = 1;
	}
	/* bound before the truth is built: what arrives meanwhile waits */
	if (shell_bind(&o, fd))
		return 1;
	if (role == SHELL_RELAY)
		return shell_run(&o, NULL, fd);
	if (agent_truth_load(&o, &tr, err, sizeof(err))) {
		fprintf(stderr, "reckon-agent: %s\n", err);
		shell_close(fd);
		return 1;
	}
	rc = agent_truth_bind(&o, &tr, err, sizeof(err), warn, sizeof(warn));
	if (rc) {
		fprintf(stderr, "reckon-agent: %s\n", err);
		role_truth_free(&tr);
		shell_close(fd);
		return rc == -ENOENT ? 2 : 1;
	}
	if (warn[0])
		fprintf(stderr, "reckon-agent %s: warning: %s\n", o.host, warn);
	rc = shell_run(&o, &tr, fd);
	role_truth_free(&tr);
	return rc;
}

int cmd_player(int argc, char *argv[])
{
	return run_role(SHELL_PLAYER, "player", argc, argv);
}

int cmd_observer(int argc, char *argv[])
{
	return run_role(SHELL_OBSERVER, "observer", argc, argv);
}

int cmd_relay(int argc, char *argv[])
{
	return run_role(SHELL_RELAY, "relay", argc, argv);
}

int cmd_now(int argc, char *argv[])
{
	if (cmd_help_asked(argc, argv)) {
		printf("usage: reckon-agent now   (CLOCK_MONOTONIC in ns, for "
		       "--start-ns)\n");
		return 0;
	}
	if (argc != 0)
		return cmd_usage_error(
			"now", "unexpected %s '%s'",
			argv[0][0] == '-' ? "option" : "argument", argv[0]);
	printf("%" PRId64 "\n", shell_now_ns());
	return 0;
}

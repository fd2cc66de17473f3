/*
 * reckond: the reckon daemon. `reckond run FILE` runs one scenario in the
 * foreground; `reckond -n FILE` checks a scenario (-nv prints it in
 * canonical form); `reckond cleanup` removes what a killed daemon left;
 * `reckond sim FILE` runs it in virtual time and `reckond sweep FILE` runs
 * a [sweep] grid; with no subcommand it runs as a service fed by
 * `reckonctl run`.
 * `reckond --help` and `reckond COMMAND --help` print the usage and
 * exit 0 (`reckond sweep --help` the sweep's options).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "reckond.h"
#include "scenario.h"
#include "netsim.h"
#include "sweep.h"

/* The usage text: on stdout with status 0 for --help, else on stderr
 * with status 2. */
static void __attribute__((noreturn)) usage_exit(int status)
{
	/* clang-format off */
	fprintf(status ? stderr : stdout,
		"usage: reckond [-dqv] [-s socket]            run as a service\n"
		"       reckond [-qv] [-s socket] run FILE    run one scenario\n"
		"       reckond [-qv] sim FILE                run it in virtual time (simulator)\n"
		"       reckond [-qv] sweep [-j N] [--shard I/N] [-o DIR] [--no-plots]\n"
		"                     [--list | --point K] FILE      run a [sweep] grid\n"
		"       reckond -n [-v] FILE                  check FILE (-v: print it)\n"
		"       reckond cleanup                       remove leftovers of a killed daemon\n"
		"       reckond [COMMAND] --help              this text (sweep: its options)\n");
	/* clang-format on */
	exit(status);
}

static void __attribute__((noreturn)) usage(void)
{
	usage_exit(2);
}

static int is_help(const char *arg)
{
	return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

int main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct run_opts o = { .emulate = run_scenario };
	int ch, check = 0, debug = 0;

	while ((ch = getopt_long(argc, argv, "+dhnqs:v", longopts, NULL)) !=
	       -1) {
		switch (ch) {
		case 'h': usage_exit(0);
		case 'd': debug = 1; break;
		case 'n': check = 1; break;
		case 'q': o.quiet = 1; break;
		case 's': o.ctl_path = optarg; break;
		case 'v': o.verbose++; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	log_init(debug || argc > 0 ? LOG_TO_STDERR : LOG_TO_SYSLOG, o.verbose);

	if (check) {
		if (argc != 1)
			usage();
		struct scenario *sc = scenario_load_report(argv[0], "reckond");
		if (sc == NULL)
			return 1;
		if (o.verbose)
			scenario_print(stdout, sc);
		else
			fprintf(stderr, "%s: OK\n", argv[0]);
		scenario_free(sc);
		return 0;
	}
	if (argc == 0)
		return service_main(&o);
	if (argc == 2 && is_help(argv[1]) && strcmp(argv[0], "sweep"))
		usage_exit(0);
	if (strcmp(argv[0], "run") == 0) {
		if (argc != 2)
			usage();
		struct scenario *sc = scenario_load_report(argv[1], "reckond");
		if (sc == NULL)
			return 1;
		int rc = sc->mode == SC_MODE_SIMULATE ?
				 sim_scenario(sc, &o, NULL, 0) :
				 run_scenario(sc, &o, NULL, 0);
		scenario_free(sc);
		return rc < 0 ? 1 : rc;
	}
	if (strcmp(argv[0], "sim") == 0) {
		if (argc != 2)
			usage();
		struct scenario *sc = scenario_load_report(argv[1], "reckond");
		if (sc == NULL)
			return 1;
		int rc = sim_scenario(sc, &o, NULL, 0);
		scenario_free(sc);
		return rc < 0 ? 1 : rc;
	}
	if (strcmp(argv[0], "sweep") == 0)
		return sweep_main(argc, argv, &o);
	if (strcmp(argv[0], "cleanup") == 0) {
		int n = run_cleanup(o.verbose);
		if (n < 0) {
			fprintf(stderr, "reckond: cleanup: %s\n", strerror(-n));
			return 1;
		}
		fprintf(stderr, "reckond: cleanup: removed %d object(s)\n", n);
		return 0;
	}
	usage();
}

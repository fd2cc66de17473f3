/*
 * reckond: the reckon daemon. `reckond run FILE` runs one scenario in the
 * foreground; `reckond -n FILE` checks a scenario (-nv prints it in
 * canonical form); `reckond cleanup` removes what a killed daemon left;
 * `reckond sim FILE` runs it in virtual time and `reckond sweep FILE` runs
 * a [sweep] grid; with no subcommand it runs as a service fed by
 * `reckonctl run`.
 * `reckond --help` and `reckond COMMAND --help` print the usage and
 * exit 0 (`reckond sweep --help` the sweep's options); a usage error
 * prints one line naming it and exits 2. The service says on stderr
 * which socket it serves.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
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

/* A usage error: one line naming it and a pointer to --help, status 2. */
static void __attribute__((noreturn, format(printf, 1, 2)))
bad(const char *fmt, ...)
{
	va_list ap;

	fputs("reckond: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nsee 'reckond --help'\n", stderr);
	exit(2);
}

/* COMMAND FILE: exactly one argument after the command. */
static void need_file(int argc, char *argv[])
{
	if (argc == 2 && argv[1][0] == '-' && argv[1][1])
		bad("%s: unknown option '%s'", argv[0], argv[1]);
	if (argc != 2)
		bad("%s: give one scenario FILE", argv[0]);
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

	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+:dhnqs:v", longopts, NULL)) !=
	       -1) {
		switch (ch) {
		case 'h': usage_exit(0);
		case 'd': debug = 1; break;
		case 'n': check = 1; break;
		case 'q': o.quiet = 1; break;
		case 's': o.ctl_path = optarg; break;
		case 'v': o.verbose++; break;
		case ':': bad("option '%s' needs a value", argv[optind - 1]);
		default:
			if (optopt > 0 && optopt < 128)
				bad("unknown option '-%c'", optopt);
			bad("unknown option '%s'", argv[optind - 1]);
		}
	}
	argc -= optind;
	argv += optind;
	/* the service logs to syslog unless -d or a terminal watches it */
	log_init(debug || argc > 0 || isatty(STDERR_FILENO) ? LOG_TO_STDERR
							     : LOG_TO_SYSLOG,
		 o.verbose);

	if (check) {
		if (argc == 1 && is_help(argv[0]))
			usage_exit(0);
		if (argc != 1)
			bad("-n: give one scenario FILE");
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
		need_file(argc, argv);
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
		need_file(argc, argv);
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
		if (argc != 1)
			bad("cleanup: unexpected argument '%s'", argv[1]);
		int n = run_cleanup(o.verbose);
		if (n < 0) {
			fprintf(stderr, "reckond: cleanup: %s\n", strerror(-n));
			return 1;
		}
		fprintf(stderr, "reckond: cleanup: removed %d object(s)\n", n);
		return 0;
	}
	bad("unknown command '%s'", argv[0]);
}

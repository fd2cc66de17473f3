/*
 * sweep.c: `reckond sweep [-j N] [--shard I/N] [-o DIR] FILE`. It loads a
 * scenario with a [sweep] section, writes the sweep directory's head
 * (scenario.ini, grid.csv, shard.txt), runs every grid point of its shard
 * (point % N == I) on parallel workers, each point's repetitions in the
 * simulator (or the emulator, one point at a time), then summarizes each
 * point and, when the whole grid is there, writes sweep.csv, sweep.json,
 * the plots and index.html. `--list` prints the grid and `--point K` the
 * scenario of one point. Layout and seeds: docs/sweeps.md.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "results.h"
#include "scenario.h"
#include "netsim.h"
#include "sweep.h"
#include "sweep_int.h"
#include "util.h"

struct sweep_ctx {
	const struct scenario *sc;
	const struct run_opts *o;
	const char *dir;
	int plots;
};

/* After getopt_long returned c ('?' or ':'): one line naming the option
 * and a pointer to --help; status 2. */
static int bad_option(int c, char *argv[])
{
	if (c == ':')
		fprintf(stderr, "reckond sweep: option '%s' needs a value\n",
			argv[optind - 1]);
	else if (optopt > 0 && optopt < 128)
		fprintf(stderr, "reckond sweep: unknown option '-%c'\n",
			optopt);
	else
		fprintf(stderr, "reckond sweep: unknown option '%s'\n",
			argv[optind - 1]);
	fputs("see 'reckond sweep --help'\n", stderr);
	return 2;
}

/* The usage text: on stdout with status 0 for --help, else on stderr
 * with status 2. */
static int usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: reckond [-qv] sweep [-j N] [--shard I/N] [-o DIR] "
		"[--no-plots] FILE\n"
		"       reckond sweep --list FILE       print the grid\n"
		"       reckond sweep --point K FILE    print point K's "
		"scenario\n"
		"  -j, --jobs N     points run at once (default: one per "
		"CPU)\n"
		"  --shard I/N      run the points k with k %% N == I\n"
		"  -o, --out DIR    the sweep directory (default: "
		"RESULTS/NAME-sweep-TIME)\n"
		"  --no-plots       no figures (index.html has the tables)\n"
		"docs/sweeps.md describes the [sweep] section and the "
		"output.\n");
	return status;
}

static struct scenario *load(const char *path)
{
	struct scenario *sc = scenario_load_report(path, "reckond sweep");

	if (sc == NULL)
		return NULL;
	if (sc->sweep == NULL) {
		log_warnx("sweep: %s has no [sweep] section (docs/sweeps.md)",
			  path);
		scenario_free(sc);
		return NULL;
	}
	return sc;
}

/* In the worker child: every repetition of one point, its summary and
 * rows.csv. Returns an exit status. */
static int run_point(uint64_t point, void *arg)
{
	const struct sweep_ctx *c = arg;
	char pdir[PATH_MAX], rdir[PATH_MAX], run_dir[PATH_MAX];
	struct scenario *psc = NULL;
	int rc;

	if ((rc = scenario_sweep_apply(c->sc, point, &psc)) < 0) {
		log_warnx("sweep: point %" PRIu64 ": %s", point, strerror(-rc));
		return 1;
	}
	if ((rc = sweep_point_dir(c->dir, point, pdir, sizeof(pdir))) < 0 ||
	    (rc = results_mkdirs(pdir)) < 0 ||
	    (rc = results_scenario(pdir, psc)) < 0)
		goto fail;
	if (psc->mode == SC_MODE_SIMULATE) {
		for (unsigned r = 1; r <= psc->repetitions; r++) {
			struct sim_stats st;

			if (psc->repetitions > 1)
				rc = results_path(rdir, sizeof(rdir),
						  "%s/rep-%u", pdir, r);
			else
				rc = results_path(rdir, sizeof(rdir), "%s",
						  pdir);
			if (rc < 0 || (rc = results_mkdirs(rdir)) < 0)
				goto fail;
			rc = sim_run_rep(psc, r, rdir, &st);
			if (rc < 0) {
				log_warnx("sweep: point %" PRIu64
					  " repetition %u: simulator: %s",
					  point, r, strerror(-rc));
				scenario_free(psc);
				return 1;
			}
		}
		snprintf(run_dir, sizeof(run_dir), "%s", pdir);
	} else {
		struct run_opts o = *c->o;

		o.quiet = 1;
		snprintf(psc->results_dir, sizeof(psc->results_dir), "%s",
			 pdir);
		rc = o.emulate != NULL
			     ? o.emulate(psc, &o, run_dir, sizeof(run_dir))
			     : -ENOTSUP;
		if (rc != 0) {
			log_warnx("sweep: point %" PRIu64 ": run failed (%d)",
				  point, rc);
			scenario_free(psc);
			return 1;
		}
	}
	if ((rc = summary_write(run_dir, psc->repetitions, NULL)) < 0) {
		log_warnx("sweep: point %" PRIu64 ": summary of %s: %s", point,
			  run_dir, strerror(-rc));
		scenario_free(psc);
		return 1;
	}
	if ((rc = sweep_point_rows(pdir, run_dir, c->sc, point)) < 0)
		goto fail;
	if (c->plots)
		plot_run(run_dir, psc->repetitions);
	scenario_free(psc);
	return 0;
fail:
	log_warnx("sweep: point %" PRIu64 ": %s: %s", point, pdir,
		  strerror(-rc));
	scenario_free(psc);
	return 1;
}

static int list_grid(const struct scenario *sc)
{
	const struct sc_sweep *sw = sc->sweep;
	unsigned idx[SC_SWEEP_MAX_AXES];
	uint64_t np = scenario_sweep_points(sw);

	printf("point");
	for (unsigned a = 0; a < sw->naxes; a++)
		printf(",%s", sw->axes[a].key);
	putchar('\n');
	for (uint64_t p = 0; p < np; p++) {
		scenario_sweep_coords(sw, p, idx);
		printf("%" PRIu64, p);
		for (unsigned a = 0; a < sw->naxes; a++)
			printf(",%s", sw->axes[a].values[idx[a]]);
		putchar('\n');
	}
	return ferror(stdout) ? 1 : 0;
}

static int print_point(const struct scenario *sc, const char *arg)
{
	struct scenario *psc;
	uint64_t k;
	int rc;

	if (num_parse_u64(arg, &k) < 0) {
		log_warnx("sweep: --point %s: not a point number", arg);
		return 2;
	}
	rc = scenario_sweep_apply(sc, k, &psc);
	if (rc == -ERANGE) {
		log_warnx(
			"sweep: no point %s: the grid has points 0 to %" PRIu64,
			arg, scenario_sweep_points(sc->sweep) - 1);
		return 1;
	}
	if (rc < 0) {
		log_warnx("sweep: point %s: %s (the grid has %" PRIu64
			  " points)",
			  arg, strerror(-rc), scenario_sweep_points(sc->sweep));
		return 1;
	}
	rc = scenario_print(stdout, psc);
	scenario_free(psc);
	return rc < 0 ? 1 : 0;
}

static int make_dir(const struct scenario *sc, const char *out, unsigned si,
		    unsigned sn, char *dir, size_t len)
{
	char name[SC_NAME_MAX + 48];

	if (out) {
		if (results_path(dir, len, "%s", out) < 0)
			return -ENAMETOOLONG;
		return results_mkdirs(dir);
	}
	if (sn > 1)
		snprintf(name, sizeof(name), "%s-sweep-shard%uof%u", sc->name,
			 si, sn);
	else
		snprintf(name, sizeof(name), "%s-sweep", sc->name);
	return results_mkdir_run(sc->results_dir, name, dir, len);
}

int sweep_main(int argc, char *argv[], const struct run_opts *o)
{
	static const struct option longopts[] = {
		{"jobs", required_argument, NULL, 'j'},
		{"shard", required_argument, NULL, 's'},
		{"out", required_argument, NULL, 'o'},
		{"list", no_argument, NULL, 'l'},
		{"point", required_argument, NULL, 'p'},
		{"no-plots", no_argument, NULL, 'P'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *out = NULL, *point = NULL;
	unsigned jobs = 0, si = 0, sn = 1;
	int ch, list = 0, plots = 1, rc;
	char dir[PATH_MAX];
	struct scenario *sc;
	struct sweep_pool_result res;
	uint64_t np, *pts;
	size_t n = 0;

	optind = 1;
	opterr = 0; /* the error lines are ours: bad_option */
	while ((ch = getopt_long(argc, argv, "+:hj:o:", longopts, NULL)) !=
	       -1) {
		uint64_t u;

		switch (ch) {
		case 'j':
			if (num_parse_u64(optarg, &u) < 0 || u == 0 ||
			    u > 1024) {
				log_warnx("sweep: -j %s: 1 to 1024 workers",
					  optarg);
				return 2;
			}
			jobs = (unsigned)u;
			break;
		case 's':
			if (sweep_shard_parse(optarg, &si, &sn) < 0) {
				log_warnx(
					"sweep: --shard %s: expected I/N with "
					"0 <= I < N",
					optarg);
				return 2;
			}
			break;
		case 'o':
			out = optarg;
			break;
		case 'l':
			list = 1;
			break;
		case 'p':
			point = optarg;
			break;
		case 'P':
			plots = 0;
			break;
		case 'h':
			return usage(0);
		default:
			return bad_option(ch, argv);
		}
	}
	if (optind != argc - 1)
		return usage(2);
	if ((sc = load(argv[optind])) == NULL)
		return 1;
	if (list || point) {
		rc = list ? list_grid(sc) : print_point(sc, point);
		scenario_free(sc);
		return rc;
	}
	np = scenario_sweep_points(sc->sweep);
	if (jobs == 0) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);
		jobs = c > 0 ? (unsigned)c : 1;
	}
	if (sc->sweep->mode == SC_MODE_EMULATE && jobs > 1) {
		log_warnx("sweep: mode emulate runs one point at a time "
			  "(namespaces and addresses are per run)");
		jobs = 1;
	}
	pts = calloc(np ? np : 1, sizeof(*pts));
	if (pts == NULL) {
		scenario_free(sc);
		return 1;
	}
	for (uint64_t p = 0; p < np; p++)
		if (sweep_in_shard(p, si, sn))
			pts[n++] = p;
	if ((rc = make_dir(sc, out, si, sn, dir, sizeof(dir))) < 0 ||
	    (rc = sweep_write_head(dir, sc, si, sn)) < 0) {
		log_warnx("sweep: %s: %s", out ? out : sc->results_dir,
			  strerror(-rc));
		free(pts);
		scenario_free(sc);
		return 1;
	}
	if (!o->quiet)
		log_info("sweep: %s: %" PRIu64 " points x %u repetitions "
			 "(%s), shard %u/%u runs %zu, %u workers, into %s",
			 sc->name, np, sc->repetitions,
			 sc->sweep->mode == SC_MODE_SIMULATE ? "simulated"
							     : "emulated",
			 si, sn, n, jobs, dir);
	struct sweep_ctx c = {.sc = sc, .o = o, .dir = dir, .plots = plots};
	if (jobs > 1)
		sim_set_threads(1); /* the points share the CPUs */
	rc = sweep_pool_run(pts, n, jobs, o->quiet, run_point, &c, &res);
	free(pts);
	if (rc < 0) {
		log_warnx("sweep: workers: %s", strerror(-rc));
		scenario_free(sc);
		return 1;
	}
	if (res.interrupted) {
		log_warnx("sweep: interrupted after %" PRIu64 " points",
			  res.done);
		scenario_free(sc);
		return 130;
	}
	if (res.failed) {
		char pd[PATH_MAX];

		sweep_point_dir(dir, res.first_failed, pd, sizeof(pd));
		log_warnx("sweep: %" PRIu64 " of %zu points failed (first: "
			  "point %" PRIu64 ", %s)",
			  res.failed, n, res.first_failed, pd);
		scenario_free(sc);
		return 1;
	}
	if (sn > 1) {
		fprintf(stderr,
			"sweep: shard %u/%u done: %zu points in %s\n"
			"sweep: combine the shards with: reckonctl merge OUT "
			"SHARD_DIR...\n",
			si, sn, n, dir);
		scenario_free(sc);
		return 0;
	}
	uint64_t missing = 0;
	if ((rc = sweep_assemble(dir, np, &missing)) < 0) {
		log_warnx("sweep: %s/sweep.csv not written: point %" PRIu64
			  ": rows.csv %s",
			  dir, missing,
			  rc == -EINVAL ? "is malformed" : strerror(-rc));
		scenario_free(sc);
		return 1;
	}
	if (plots)
		plot_sweep(dir);
	if ((rc = sweep_table(stdout, dir, SWEEP_TABLE_ROWS)) < 0)
		log_warnx("sweep: the table of %s/sweep.csv: %s", dir,
			  strerror(-rc));
	fflush(stdout);
	fprintf(stderr,
		"sweep: %" PRIu64 " points: %s/sweep.csv, sweep.json%s\n", np,
		dir, plots ? ", index.html" : "");
	scenario_free(sc);
	return 0;
}

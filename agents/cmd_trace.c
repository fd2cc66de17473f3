/*
 * cmd_trace.c: `reckon-agent trace ...`, the command-line face of the
 * world library: gen (run bots on a map, write the trace and its events),
 * check (verify a trace: time order, speed bound, no position inside a
 * wall), stats (speed, turn rate, moving/stopped/fighting time, path
 * segments), import (a user's CSV through a column mapping), map-svg (draw
 * a map) and map-check (load a map and print what it holds). This file
 * may print and return exit codes; the library under world/ does not.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "world/map.h"
#include "world/map_svg.h"
#include "world/sim.h"
#include "world/trace.h"
#include "world/trace_check.h"
#include "world/trace_import.h"
#include "world/trace_stats.h"
#include "util.h"

static void usage(FILE *out)
{
	static const char *const lines[] = {
		"usage: reckon-agent trace gen --map M [--bots N] "
		"[--duration S] [--seed S]",
		"           [--tick-hz H] -o FILE [--events FILE]",
		"       reckon-agent trace check FILE [--map M] "
		"[--max-speed U] [--radius R]",
		"       reckon-agent trace stats FILE [--events FILE | "
		"--no-events] [--json]",
		"       reckon-agent trace import --map-columns "
		"FIELD=COLUMN,... [--time-unit s|ms|us|ns]",
		"           [--tick-ms P] [--scale K] [--map NAME] IN -o OUT",
		"       reckon-agent trace map-svg MAP -o FILE.svg "
		"[--trace FILE --entities N --seconds S]",
		"       reckon-agent trace map-check MAP",
		"M is a map name from scenarios/maps (or $RECKON_MAP_DIR) or a "
		"path to a .map file;",
		"FIELD is one of t entity team alive x y z vx vy vz yaw health "
		"armor ammo.",
	};

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		fprintf(out, "%s\n", lines[i]);
}

/* Resolve a map name or path; fills path (for messages). */
static int open_map(const char *name, struct map *m)
{
	char path[PATH_MAX + 64], exe[PATH_MAX], err[256];
	const char *dirs[6];
	int nd = 0;
	FILE *f = NULL;
	int rc;

	if (strchr(name, '/') || strstr(name, ".map")) {
		snprintf(path, sizeof(path), "%s", name);
		f = fopen(path, "r");
	} else {
		char d1[PATH_MAX + 32], d2[PATH_MAX + 32], d3[PATH_MAX + 32];
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

		if (getenv("RECKON_MAP_DIR"))
			dirs[nd++] = getenv("RECKON_MAP_DIR");
		dirs[nd++] = "scenarios/maps";
		if (n > 0) {
			char *slash;

			exe[n] = '\0';
			slash = strrchr(exe, '/');
			if (slash)
				*slash = '\0';
			snprintf(d1, sizeof(d1), "%s/../scenarios/maps", exe);
			snprintf(d2, sizeof(d2), "%s/../../scenarios/maps",
				 exe);
			snprintf(d3, sizeof(d3), "%s/../share/reckon/maps",
				 exe);
			dirs[nd++] = d1;
			dirs[nd++] = d2;
			dirs[nd++] = d3;
		}
		for (int i = 0; i < nd && !f; i++) {
			snprintf(path, sizeof(path), "%s/%s.map", dirs[i],
				 name);
			f = fopen(path, "r");
		}
		if (!f)
			snprintf(path, sizeof(path), "%s", name);
	}
	if (!f) {
		fprintf(stderr,
			"reckon-agent: map '%s' not found (looked in "
			"$RECKON_MAP_DIR and scenarios/maps): %s\n",
			name, strerror(errno));
		return -ENOENT;
	}
	rc = map_read(f, m, err, sizeof(err));
	fclose(f);
	if (rc) {
		fprintf(stderr, "reckon-agent: %s: %s\n", path,
			rc == -EINVAL ? err : strerror(-rc));
		return rc;
	}
	return 0;
}

static int parse_pos_double(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || !(v > 0))
		return -EINVAL;
	*out = v;
	return 0;
}

/* A duration over 0 in seconds: "600", "600s" and "10m" alike
 * (num_parse_duration, bare numbers in seconds). */
static int parse_seconds(const char *s, double *out)
{
	char err[96];
	int64_t ns;

	if (num_parse_duration(s, NS_PER_S, &ns, err, sizeof(err)) < 0 ||
	    ns <= 0)
		return -EINVAL;
	*out = (double)ns / 1e9;
	return 0;
}

/* FILE.csv -> FILE.events.csv; other names get ".events.csv" added. */
static void events_name(const char *out, char *buf, size_t len)
{
	size_t n = strlen(out);

	if (n > 4 && strcmp(out + n - 4, ".csv") == 0)
		snprintf(buf, len, "%.*s.events.csv", (int)(n - 4), out);
	else
		snprintf(buf, len, "%s.events.csv", out);
}

static int cmd_gen(int argc, char *argv[])
{
	static const struct option opts[] = {
		{"map", required_argument, NULL, 'm'},
		{"bots", required_argument, NULL, 'n'},
		{"duration", required_argument, NULL, 'd'},
		{"seed", required_argument, NULL, 's'},
		{"tick-hz", required_argument, NULL, 'h'},
		{"output", required_argument, NULL, 'o'},
		{"events", required_argument, NULL, 'e'},
		{NULL, 0, NULL, 0},
	};
	struct sim_config c;
	const char *mapname = NULL, *out = NULL, *evout = NULL;
	char evbuf[PATH_MAX];
	struct map m;
	struct trace t;
	struct trace_events ev;
	uint64_t v;
	double d;
	int opt, rc;
	FILE *f;

	sim_config_defaults(&c);
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":m:n:d:s:o:e:", opts, NULL)) !=
	       -1) {
		switch (opt) {
		case 'm':
			mapname = optarg;
			break;
		case 'n':
			if (num_parse_u64(optarg, &v) || v < 1 ||
			    v > SIM_MAX_BOTS) {
				fprintf(stderr,
					"trace gen: --bots must be "
					"1..%d\n",
					SIM_MAX_BOTS);
				return 2;
			}
			c.nbots = (int)v;
			break;
		case 'd':
			if (parse_seconds(optarg, &d) || d > 86400) {
				fprintf(stderr, "trace gen: --duration must be "
						"seconds in (0, 86400]\n");
				return 2;
			}
			c.duration_s = d;
			break;
		case 's':
			if (num_parse_u64(optarg, &v)) {
				fprintf(stderr, "trace gen: bad --seed\n");
				return 2;
			}
			c.seed = v;
			break;
		case 'h':
			if (num_parse_u64(optarg, &v) || v < 1 || v > 1000) {
				fprintf(stderr, "trace gen: --tick-hz must be "
						"1..1000\n");
				return 2;
			}
			c.tick_hz = (int)v;
			break;
		case 'o':
			out = optarg;
			break;
		case 'e':
			evout = optarg;
			break;
		default:
			return cmd_option_error("trace gen", opt, argv);
		}
	}
	if (!mapname || !out || optind != argc)
		return cmd_usage_error(
			"trace gen",
			"give --map M and -o FILE, and no other arguments");
	if (open_map(mapname, &m))
		return 1;
	trace_init(&t);
	trace_events_init(&ev);
	rc = sim_run(&m, &c, &t, &ev);
	if (rc) {
		fprintf(stderr, "trace gen: %s\n", strerror(-rc));
		goto fail;
	}
	f = strcmp(out, "-") == 0 ? stdout : fopen(out, "w");
	if (!f) {
		fprintf(stderr, "trace gen: %s: %s\n", out, strerror(errno));
		goto fail;
	}
	rc = trace_write_csv(f, &t);
	if (f != stdout && fclose(f))
		rc = -EIO;
	if (rc) {
		fprintf(stderr, "trace gen: writing %s failed\n", out);
		goto fail;
	}
	if (!evout && strcmp(out, "-")) {
		events_name(out, evbuf, sizeof(evbuf));
		evout = evbuf;
	}
	if (evout) {
		f = fopen(evout, "w");
		if (!f) {
			fprintf(stderr, "trace gen: %s: %s\n", evout,
				strerror(errno));
			goto fail;
		}
		rc = trace_events_write_csv(f, &ev);
		if (fclose(f) || rc) {
			fprintf(stderr, "trace gen: writing %s failed\n",
				evout);
			goto fail;
		}
	}
	fprintf(stderr,
		"trace gen: %s: %zu samples, %zu events (%s, %d bots, "
		"%.0f s, seed %" PRIu64 ")\n",
		out, t.n, ev.n, m.name, c.nbots, c.duration_s, c.seed);
	trace_free(&t);
	trace_events_free(&ev);
	map_free(&m);
	return 0;
fail:
	trace_free(&t);
	trace_events_free(&ev);
	map_free(&m);
	return 1;
}

static int read_trace_file(const char *path, struct trace *t, uint32_t **lines,
			   unsigned flags)
{
	char err[256];
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	int rc;

	if (!f) {
		fprintf(stderr, "reckon-agent: %s: %s\n", path,
			strerror(errno));
		return -errno;
	}
	rc = trace_read_csv_lines(f, t, lines, flags, err, sizeof(err));
	if (f != stdin)
		fclose(f);
	if (rc)
		fprintf(stderr, "reckon-agent: %s: %s\n", path,
			rc == -EINVAL ? err : strerror(-rc));
	return rc;
}

static int cmd_map_svg(int argc, char *argv[])
{
	static const struct option opts[] = {
		{"output", required_argument, NULL, 'o'},
		{"trace", required_argument, NULL, 't'},
		{"entities", required_argument, NULL, 'n'},
		{"seconds", required_argument, NULL, 's'},
		{"width", required_argument, NULL, 'w'},
		{NULL, 0, NULL, 0},
	};
	struct map_svg_opts o = {
		.width_px = 900, .max_entities = 4, .seconds = 60};
	const char *out = NULL, *tpath = NULL;
	struct trace t;
	struct map m;
	uint64_t v;
	int opt, rc;
	FILE *f;

	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:t:n:s:w:", opts, NULL)) !=
	       -1) {
		switch (opt) {
		case 'o':
			out = optarg;
			break;
		case 't':
			tpath = optarg;
			break;
		case 'n':
			if (num_parse_u64(optarg, &v) || v > 16)
				return cmd_usage_error(
					"trace map-svg",
					"--entities must be 0..16");
			o.max_entities = (int)v;
			break;
		case 's':
			if (parse_pos_double(optarg, &o.seconds))
				return cmd_usage_error("trace map-svg",
						       "bad --seconds '%s'",
						       optarg);
			break;
		case 'w':
			if (parse_pos_double(optarg, &o.width_px))
				return cmd_usage_error("trace map-svg",
						       "bad --width '%s'",
						       optarg);
			break;
		default:
			return cmd_option_error("trace map-svg", opt, argv);
		}
	}
	if (!out || optind != argc - 1)
		return cmd_usage_error("trace map-svg",
				       "give one MAP and -o FILE.svg");
	if (open_map(argv[optind], &m))
		return 1;
	trace_init(&t);
	if (tpath) {
		if (read_trace_file(tpath, &t, NULL, 0)) {
			map_free(&m);
			return 1;
		}
		o.t = &t;
	}
	f = fopen(out, "w");
	if (!f) {
		fprintf(stderr, "trace map-svg: %s: %s\n", out,
			strerror(errno));
		rc = -errno;
	} else {
		rc = map_svg_write(f, &m, &o);
		if (fclose(f))
			rc = -EIO;
		if (rc)
			fprintf(stderr, "trace map-svg: writing %s failed\n",
				out);
	}
	trace_free(&t);
	map_free(&m);
	return rc ? 1 : 0;
}

static int cmd_map_check(int argc, char *argv[])
{
	struct map m;
	int floor = 0;

	if (argc == 2 && argv[1][0] == '-')
		return cmd_usage_error("trace map-check", "unknown option '%s'",
				       argv[1]);
	if (argc != 2)
		return cmd_usage_error("trace map-check", "give one MAP");
	if (open_map(argv[1], &m))
		return 1;
	for (int i = 0; i < m.w * m.h; i++)
		floor += m.cells[i] != MAP_WALL;
	printf("map %s: mode %s, %dx%d cells of %.0f u (%.0fx%.0f u), "
	       "%d floor cells\n",
	       m.name, map_mode_name(m.mode), m.w, m.h, m.cell, m.w * m.cell,
	       m.h * m.cell, floor);
	printf("teams %d, spawns %d, objectives %d, items %d, waypoints %d, "
	       "routes %d\n",
	       m.nteams, m.nspawns, m.nobj, m.nitems, m.nwaypoints, m.nroutes);
	map_free(&m);
	return 0;
}

static int cmd_check(int argc, char *argv[])
{
	static const struct option opts[] = {
		{"map", required_argument, NULL, 'm'},
		{"max-speed", required_argument, NULL, 'v'},
		{"radius", required_argument, NULL, 'r'},
		{NULL, 0, NULL, 0},
	};
	struct trace_check_opts o;
	struct trace_problem probs[20];
	const char *mapname = NULL;
	struct map m;
	struct trace t;
	uint32_t *lines = NULL;
	size_t n;
	int opt;

	trace_check_defaults(&o);
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":m:v:r:", opts, NULL)) != -1) {
		switch (opt) {
		case 'm':
			mapname = optarg;
			break;
		case 'v':
			if (parse_pos_double(optarg, &o.max_speed))
				return cmd_usage_error("trace check",
						       "bad --max-speed '%s'",
						       optarg);
			break;
		case 'r':
			if (parse_pos_double(optarg, &o.radius))
				return cmd_usage_error("trace check",
						       "bad --radius '%s'",
						       optarg);
			break;
		default:
			return cmd_option_error("trace check", opt, argv);
		}
	}
	if (optind != argc - 1)
		return cmd_usage_error("trace check", "give one trace FILE");
	if (mapname) {
		if (open_map(mapname, &m))
			return 1;
		o.m = &m;
	}
	trace_init(&t);
	if (read_trace_file(argv[optind], &t, &lines, TRACE_READ_LAX)) {
		if (mapname)
			map_free(&m);
		return 1;
	}
	n = trace_check(&t, lines, &o, probs, 20);
	for (size_t i = 0; i < n && i < 20; i++)
		fprintf(stderr, "%s:%u: %s\n", argv[optind], probs[i].line,
			probs[i].what);
	if (n > 20)
		fprintf(stderr, "%s: ... and %zu more problems\n", argv[optind],
			n - 20);
	printf("%s: %zu samples, %zu problems%s\n", argv[optind], t.n, n,
	       mapname ? "" : " (no --map: wall check skipped)");
	free(lines);
	trace_free(&t);
	if (mapname)
		map_free(&m);
	return n ? 1 : 0;
}

static void print_dist(const char *name, const char *unit, const struct dist *d,
		       int json, int last)
{
	if (json)
		printf("  \"%s\": {\"n\": %zu, \"mean\": %.3f, \"p10\": %.3f, "
		       "\"p50\": %.3f, \"p90\": %.3f, \"p99\": %.3f, "
		       "\"max\": %.3f}%s\n",
		       name, d->n, d->mean, d->p10, d->p50, d->p90, d->p99,
		       d->max, last ? "" : ",");
	else
		printf("%-22s n=%-8zu mean %8.2f  p10 %8.2f  p50 %8.2f  "
		       "p90 %8.2f  p99 %8.2f  max %8.2f %s\n",
		       name, d->n, d->mean, d->p10, d->p50, d->p90, d->p99,
		       d->max, unit);
}

static int cmd_stats(int argc, char *argv[])
{
	static const struct option opts[] = {
		{"events", required_argument, NULL, 'e'},
		{"json", no_argument, NULL, 'j'},
		{"no-events", no_argument, NULL, 'N'},
		{NULL, 0, NULL, 0},
	};
	struct trace_stats_opts o;
	struct trace_stats st;
	struct trace t;
	struct trace_events ev;
	const char *evpath = NULL;
	char evbuf[PATH_MAX], err[256];
	int opt, json = 0, noev = 0, have_ev = 0, rc;
	FILE *f;

	trace_stats_defaults(&o);
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":e:jN", opts, NULL)) != -1) {
		switch (opt) {
		case 'e':
			evpath = optarg;
			break;
		case 'j':
			json = 1;
			break;
		case 'N':
			noev = 1;
			break;
		default:
			return cmd_option_error("trace stats", opt, argv);
		}
	}
	if (optind != argc - 1)
		return cmd_usage_error("trace stats", "give one trace FILE");
	trace_init(&t);
	trace_events_init(&ev);
	if (read_trace_file(argv[optind], &t, NULL, 0))
		return 1;
	if (!evpath && !noev) {
		events_name(argv[optind], evbuf, sizeof(evbuf));
		if (access(evbuf, R_OK) == 0)
			evpath = evbuf;
	}
	if (evpath && !noev) {
		f = fopen(evpath, "r");
		if (!f) {
			fprintf(stderr, "trace stats: %s: %s\n", evpath,
				strerror(errno));
			trace_free(&t);
			return 1;
		}
		rc = trace_events_read_csv(f, &ev, err, sizeof(err));
		fclose(f);
		if (rc) {
			fprintf(stderr, "trace stats: %s: %s\n", evpath,
				rc == -EINVAL ? err : strerror(-rc));
			trace_free(&t);
			return 1;
		}
		have_ev = 1;
	}
	rc = trace_stats(&t, have_ev ? &ev : NULL, &o, &st);
	if (rc) {
		fprintf(stderr, "trace stats: %s\n", strerror(-rc));
		goto out;
	}
	if (json) {
		char fight[32];

		printf("{\n  \"trace\": ");
		json_fputs_str(stdout, argv[optind]);
		printf(", \"map\": ");
		json_fputs_str(stdout, t.map);
		printf(", \"seed\": %" PRIu64 ", \"entities\": %zu, "
		       "\"samples\": %zu, \"duration_s\": %.3f,\n",
		       t.seed, st.entities, st.samples, st.duration_s);
		if (have_ev)
			snprintf(fight, sizeof(fight), "%.4f",
				 st.frac_fighting);
		else
			snprintf(fight, sizeof(fight), "null");
		printf("  \"frac_moving\": %.4f, \"frac_stopped\": %.4f, "
		       "\"frac_fighting\": %s, \"frac_walk\": %.4f, "
		       "\"frac_crouch\": %.4f,\n",
		       st.frac_moving, st.frac_stopped, fight, st.frac_walk,
		       st.frac_crouch);
		printf("  \"speed_hist_25\": [");
		for (int i = 0; i < TRACE_STATS_SPEED_BINS; i++)
			printf("%s%.4f", i ? ", " : "", st.speed_hist[i]);
		printf("],\n");
		print_dist("speed", "", &st.speed, 1, 0);
		print_dist("turn_view", "", &st.turn_view, 1, 0);
		print_dist("turn_heading", "", &st.turn_heading, 1, 0);
		print_dist("path_s", "", &st.path_s, 1, 0);
		print_dist("segment_len", "", &st.seg_len, 1, 0);
		print_dist("segment_s", "", &st.seg_s, 1, 1);
		printf("}\n");
	} else {
		printf("trace %s: map %s, seed %" PRIu64 ", %zu entities, "
		       "%zu samples, %.1f s\n",
		       argv[optind], t.map[0] ? t.map : "?", t.seed,
		       st.entities, st.samples, st.duration_s);
		printf("time alive: moving %.1f%%, stopped %.1f%%, walking "
		       "%.1f%%, crouched %.1f%%, ",
		       100 * st.frac_moving, 100 * st.frac_stopped,
		       100 * st.frac_walk, 100 * st.frac_crouch);
		if (have_ev)
			printf("fighting %.1f%%\n", 100 * st.frac_fighting);
		else
			printf("fighting n/a (no events file)\n");
		print_dist("speed", "u/s", &st.speed, 0, 0);
		printf("speed histogram (25 u/s bins, %% of time alive):");
		for (int i = 0; i < TRACE_STATS_SPEED_BINS; i++)
			printf(" %.1f", 100 * st.speed_hist[i]);
		printf("\n");
		print_dist("turn rate (view)", "deg/s", &st.turn_view, 0, 0);
		print_dist("turn rate (heading)", "deg/s", &st.turn_heading, 0,
			   0);
		print_dist("path duration", "s", &st.path_s, 0, 0);
		print_dist("segment length", "u", &st.seg_len, 0, 0);
		print_dist("segment duration", "s", &st.seg_s, 0, 0);
	}
out:
	trace_free(&t);
	trace_events_free(&ev);
	return rc ? 1 : 0;
}

static int cmd_import(int argc, char *argv[])
{
	static const struct option opts[] = {
		{"map-columns", required_argument, NULL, 'c'},
		{"time-unit", required_argument, NULL, 'u'},
		{"scale", required_argument, NULL, 'k'},
		{"tick-ms", required_argument, NULL, 'p'},
		{"map", required_argument, NULL, 'm'},
		{"output", required_argument, NULL, 'o'},
		{NULL, 0, NULL, 0},
	};
	struct trace_import_opts o;
	struct trace_import_report rep;
	struct trace t;
	const char *spec = NULL, *out = NULL;
	char err[256];
	double d;
	int opt, rc;
	FILE *in, *f;

	trace_import_defaults(&o);
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":c:u:k:p:m:o:", opts, NULL)) !=
	       -1) {
		switch (opt) {
		case 'c':
			spec = optarg;
			break;
		case 'u':
			if (strcmp(optarg, "s") == 0)
				o.time_scale = 1;
			else if (strcmp(optarg, "ms") == 0)
				o.time_scale = 1e-3;
			else if (strcmp(optarg, "us") == 0)
				o.time_scale = 1e-6;
			else if (strcmp(optarg, "ns") == 0)
				o.time_scale = 1e-9;
			else
				return cmd_usage_error(
					"trace import",
					"--time-unit must be s, ms, us or ns");
			break;
		case 'k':
			if (parse_pos_double(optarg, &o.pos_scale))
				return cmd_usage_error("trace import",
						       "bad --scale '%s'",
						       optarg);
			break;
		case 'p':
			if (parse_pos_double(optarg, &d))
				return cmd_usage_error("trace import",
						       "bad --tick-ms '%s'",
						       optarg);
			o.tick_ns = (int64_t)llround(d * 1e6);
			break;
		case 'm':
			snprintf(o.map, sizeof(o.map), "%s", optarg);
			break;
		case 'o':
			out = optarg;
			break;
		default:
			return cmd_option_error("trace import", opt, argv);
		}
	}
	if (!spec || !out || optind != argc - 1)
		return cmd_usage_error(
			"trace import",
			"give --map-columns SPEC, -o OUT and one input file");
	if (trace_import_mapping(spec, &o, err, sizeof(err))) {
		fprintf(stderr, "trace import: --map-columns: %s\n", err);
		return 2;
	}
	in = fopen(argv[optind], "r");
	if (!in) {
		fprintf(stderr, "trace import: %s: %s\n", argv[optind],
			strerror(errno));
		return 1;
	}
	rc = trace_import_csv(in, &o, &t, &rep, err, sizeof(err));
	fclose(in);
	if (rc) {
		fprintf(stderr, "trace import: %s: %s\n", argv[optind],
			rc == -EINVAL ? err : strerror(-rc));
		return 1;
	}
	for (size_t i = 0; i < rep.nbad; i++)
		fprintf(stderr, "%s:%u: rejected: %s\n", argv[optind],
			rep.first_bad_line[i], rep.first_bad_why[i]);
	f = fopen(out, "w");
	if (!f) {
		fprintf(stderr, "trace import: %s: %s\n", out, strerror(errno));
		trace_free(&t);
		return 1;
	}
	rc = trace_write_csv(f, &t);
	if (fclose(f) || rc) {
		fprintf(stderr, "trace import: writing %s failed\n", out);
		trace_free(&t);
		return 1;
	}
	fprintf(stderr,
		"trace import: %zu rows, %zu samples written, %zu rejected, "
		"%zu duplicate (time, entity) dropped\n",
		rep.rows, t.n, rep.rejected, rep.duplicates);
	trace_free(&t);
	return 0;
}

int cmd_trace(int argc, char *argv[])
{
	static const struct {
		const char *name;
		int (*fn)(int, char *[]);
	} subs[] = {
		{"gen", cmd_gen},	  {"import", cmd_import},
		{"stats", cmd_stats},	  {"check", cmd_check},
		{"map-svg", cmd_map_svg}, {"map-check", cmd_map_check},
	};

	if (cmd_help_asked(argc, argv)) {
		usage(stdout);
		return 0;
	}
	if (argc < 1)
		return cmd_usage_error("trace",
				       "give a subcommand (gen, check, "
				       "stats, import, map-svg, "
				       "map-check)");
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
		if (strcmp(argv[0], subs[i].name) == 0)
			return subs[i].fn(argc, argv);
	return cmd_usage_error("trace", "unknown %s '%s'",
			       argv[0][0] == '-' ? "option" : "subcommand",
			       argv[0]);
}

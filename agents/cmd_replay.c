/*
 * cmd_replay.c: `reckon-agent replay`, the offline predictor replay. It
 * reads a movement trace, runs a predictor on every path at zero latency
 * (the loop is agents/predict/replay.c) and prints updates/s and the mean
 * and p95 position error per entity and overall, as a table or as JSON.
 * `--experiment led` repeats Steele's experiment (paper 000 §VI): DR at a
 * fixed threshold against led reckoning on seeded random subject paths,
 * with Welch's t and Cohen's d. `--list` prints the predictors and their
 * parameter tables (the source of docs/predictors.md). `--lag MS[,MS..]`
 * replays every entity at once at each fixed lag (replay_lag.c): paper
 * 003's AEE, median and hits with the full state sent every tick, and
 * ours (the predictor's own sender: error every frame, updates/s,
 * bytes/s). Only I/O is here.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_replay_ant.h"
#include "predict/predict.h"
#include "predict/replay.h"
#include "predict/stats.h"
#include "predict/hsm.h"
#include "predict/map_view.h"
#include "proto/espdu.h"
#include "world/map.h"
#include "world/trace.h"
#include "io/agent_io.h"
#include "util.h"

#define MAX_KV	 64
#define MAX_LAGS 32

static void usage(FILE *f)
{
	fprintf(f,
		"usage: reckon-agent replay --trace FILE --predictor NAME "
		"[--param k=v ...] [--map NAME] [--json]\n"
		"       reckon-agent replay --trace FILE --experiment led "
		"[--subjects N] [--seed S] [--dr-eta U] [--param k=v ...] "
		"[--json]\n"
		"       reckon-agent replay --trace FILE --predictor NAME "
		"--together [--map NAME] [--pickup-r U] ...\n"
		"       reckon-agent replay --trace FILE --predictor NAME "
		"--lag MS[,MS...] [--stride N] [--hit U] [--map NAME] "
		"[--param k=v ...] [--displays FILE] [--json]\n"
		"       reckon-agent replay --trace FILE --experiment ant "
		"[--map NAME] [--ant-params k=v,...]\n"
		"       reckon-agent replay --list\n"
		"path options: --jump U (100) --min-duration S (5) --grid N "
		"(100) --all-teams --no-leave-one-out\n");
}

static int list_predictors(void)
{
	const struct predictor *p[16];
	size_t n = predict_list(p, 16);
	static char buf[16384];

	for (size_t i = 0; i < n && i < 16; i++) {
		int err = predict_params_doc(p[i], buf, sizeof(buf));

		if (err) {
			fprintf(stderr, "replay: %s: %s\n", p[i]->name,
				strerror(-err));
			return 1;
		}
		printf("### `%s`: %s\n\nImplements: %s.\n\n%s\n", p[i]->name,
		       p[i]->summary, p[i]->cite, buf);
	}
	return 0;
}

static int apply_params(struct predict_params *par, char **kv, int n)
{
	for (int i = 0; i < n; i++) {
		int err = predict_params_set_kv(par, kv[i]);

		if (err) {
			fprintf(stderr, "replay: --param %s: %s\n", kv[i],
				err == -ENOENT	 ? "unknown parameter"
				: err == -ERANGE ? "out of range"
						 : "malformed value");
			return -1;
		}
	}
	return 0;
}

/* The map of the trace: --map NAME, else the trace's "# map=". 0 with
 * *have set; -1 after a message when --map names a map that cannot be
 * loaded or the trace's map is found but cannot be read. A trace's map
 * that is not found leaves *have = 0 (map_needed says who minds). */
static int load_map(const char *given, const char *from_trace, struct map *m,
		    int *have)
{
	const char *name = given ? given : from_trace;
	char why[4400] = "";
	int rc;

	*have = 0;
	if (!name || !name[0])
		return 0;
	rc = agent_map_load(name, m, why, sizeof(why));
	if (rc == -ENOENT && !given)
		return 0;
	if (rc) {
		fprintf(stderr, "replay: %s\n", why);
		return -1;
	}
	*have = 1;
	return 0;
}

/* 1, after a message, when the run cannot go on without the map it did
 * not find: dhsm's line-of-sight gate, EKB's obstacle avoidance (--lag),
 * the together mode of a trace that names its map. */
static int map_needed(const struct predict_params *par, int lag, int together,
		      const char *trace_map)
{
	double v;

	if (hsm_needs_los(par)) {
		fprintf(stderr,
			"replay: dhsm's los_gate needs the trace's map: "
			"--map NAME (trace map '%s' not found), or "
			"--param los_gate=off\n",
			trace_map);
		return 1;
	}
	if (lag && predict_params_get(par, "avoid", &v) == 0 && v) {
		fprintf(stderr,
			"replay: avoid=1 needs the map: the trace's "
			"('%s') is not found, give --map NAME\n",
			trace_map);
		return 1;
	}
	if (together && trace_map[0]) {
		fprintf(stderr,
			"replay: map '%s' of the trace not found "
			"(looked in $RECKON_MAP_DIR, scenarios/maps and "
			"next to the program); give --map NAME\n",
			trace_map);
		return 1;
	}
	return 0;
}

static int load_trace(const char *path, struct trace *t)
{
	char err[256] = "";
	FILE *f = fopen(path, "r");
	int rc;

	if (!f) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	trace_init(t);
	rc = trace_read_csv(f, t, err, sizeof(err));
	fclose(f);
	if (rc) {
		fprintf(stderr, "replay: %s: %s\n", path,
			err[0] ? err : strerror(-rc));
		trace_free(t);
		return -1;
	}
	return 0;
}

/* Pooled summary over paths [a, b) whose errors start at errs. */
struct agg {
	uint64_t updates, ticks, paths, b2b;
	double duration, mean, p95, max;
};

static int aggregate(const struct replay_set *set,
		     const struct replay_result *res, const double *errs,
		     size_t a, size_t b, struct agg *out)
{
	size_t n = 0, off = 0;
	double *v;

	memset(out, 0, sizeof(*out));
	for (size_t i = a; i < b; i++)
		n += set->path[i].n;
	v = malloc((n ? n : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = a; i < b; i++) {
		memcpy(v + off, errs, set->path[i].n * sizeof(*v));
		errs += set->path[i].n;
		off += set->path[i].n;
		out->updates += res[i].updates;
		out->b2b += res[i].back_to_back;
		out->ticks += res[i].ticks;
		out->duration += res[i].duration;
		out->paths++;
	}
	replay_error_summary(v, n, &out->mean, &out->p95, &out->max);
	free(v);
	return 0;
}

static void print_row(int json, int first, const char *label, long entity,
		      int team, const struct agg *g)
{
	double ups = g->duration > 0 ? (double)g->updates / g->duration : 0;
	double b2b =
		g->updates ? 100.0 * (double)g->b2b / (double)g->updates : 0;

	if (json) {
		printf("%s\n    {\"%s\": ", first ? "" : ",", label);
		if (entity >= 0)
			printf("%ld, \"team\": %d, ", entity, team);
		else
			printf("\"all\", ");
		printf("\"paths\": %" PRIu64 ", \"ticks\": %" PRIu64
		       ", \"duration_s\": %.3f, \"updates\": %" PRIu64
		       ", \"updates_per_s\": %.4f, \"back_to_back_pct\": %.2f, "
		       "\"err_mean\": %.4f, \"err_p95\": %.4f, "
		       "\"err_max\": %.4f}",
		       g->paths, g->ticks, g->duration, g->updates, ups, b2b,
		       g->mean, g->p95, g->max);
		return;
	}
	if (entity >= 0)
		printf("%-8ld %4d", entity, team);
	else
		printf("%-8s %4s", "all", "");
	printf(" %6" PRIu64 " %10.1f %9.3f %7.1f %10.3f %10.3f %10.3f\n",
	       g->paths, g->duration, ups, b2b, g->mean, g->p95, g->max);
}

static int run_replay(const struct replay_set *set, const struct replay_opts *o,
		      const struct replay_world *w,
		      const struct predict_params *par, const char *trace,
		      int json)
{
	struct replay_result *res;
	double *errs;
	size_t total = 0;
	struct agg g;
	char pstr[1024];
	int err, first = 1;

	for (size_t i = 0; i < set->n_paths; i++)
		total += set->path[i].n;
	res = calloc(set->n_paths ? set->n_paths : 1, sizeof(*res));
	errs = malloc((total ? total : 1) * sizeof(*errs));
	if (!res || !errs) {
		free(res);
		free(errs);
		fprintf(stderr, "replay: out of memory\n");
		return 1;
	}
	err = w ? replay_run_together(set, w, par, res, errs)
		: replay_run_set(set, o, par, res, errs);
	if (err) {
		fprintf(stderr, "replay: %s: %s\n", par->p->name,
			strerror(-err));
		free(res);
		free(errs);
		return 1;
	}
	predict_params_format(par, pstr, sizeof(pstr));
	if (json) {
		printf("{\n  \"trace\": ");
		json_fputs_str(stdout, trace);
		printf(",\n  \"predictor\": \"%s\",\n"
		       "  \"params\": \"%s\",\n  \"latency_ns\": 0,\n"
		       "  \"together\": %s,\n  \"entities\": [",
		       par->p->name, pstr, w ? "true" : "false");
	} else {
		printf("# %s on %s, zero latency%s (%zu paths; %" PRIu64
		       " short, %" PRIu64 " dead samples dropped)\n# %s\n"
		       "%-8s %4s %6s %10s %9s %7s %10s %10s %10s\n",
		       par->p->name, trace, w ? ", together" : "", set->n_paths,
		       set->dropped_short, set->dropped_dead, pstr, "entity",
		       "team", "paths", "seconds", "upd/s", "b2b%", "err_mean",
		       "err_p95", "err_max");
	}
	const double *e = errs;

	for (size_t a = 0; a < set->n_paths;) {
		size_t b = a, n = 0;

		while (b < set->n_paths &&
		       set->path[b].entity == set->path[a].entity)
			n += set->path[b++].n;
		if (aggregate(set, res, e, a, b, &g) == 0) {
			print_row(json, first, "entity", set->path[a].entity,
				  set->path[a].team, &g);
			first = 0;
		}
		e += n;
		a = b;
	}
	if (json)
		printf("\n  ],\n  \"overall\": [");
	if (aggregate(set, res, errs, 0, set->n_paths, &g) == 0)
		print_row(json, 1, "entity", -1, 0, &g);
	if (json)
		printf("\n  ]\n}\n");
	free(res);
	free(errs);
	return 0;
}

static void print_welch(int json, const char *what, const double *a,
			const double *b, size_t n, int last)
{
	struct predict_welch w;

	int err = predict_welch(a, n, b, n, &w);

	if (err == -EDOM) {
		/* both samples constant (and equal SD 0): no t test */
		if (json)
			printf("    \"%s\": {\"dr_mean\": %.5f, \"dr_sd\": 0, "
			       "\"led_mean\": %.5f, \"led_sd\": 0, \"t\": "
			       "null, "
			       "\"df\": null, \"p\": null, \"cohen_d\": "
			       "null}%s\n",
			       what, a[0], b[0], last ? "" : ",");
		else
			printf("%-12s %9.4f ± %-8.4f %9.4f ± %-8.4f %8s %8s "
			       "%10s %7s\n",
			       what, a[0], 0.0, b[0], 0.0, "-", "-", "-", "-");
		return;
	}
	if (err) {
		fprintf(stderr, "replay: %s: too few subjects for a t test\n",
			what);
		return;
	}
	if (json)
		printf("    \"%s\": {\"dr_mean\": %.5f, \"dr_sd\": %.5f, "
		       "\"led_mean\": %.5f, \"led_sd\": %.5f, \"t\": %.4f, "
		       "\"df\": %.2f, \"p\": %.4g, \"cohen_d\": %.4f}%s\n",
		       what, w.mean_a, w.sd_a, w.mean_b, w.sd_b, w.t, w.df, w.p,
		       w.d, last ? "" : ",");
	else
		printf("%-12s %9.4f ± %-8.4f %9.4f ± %-8.4f %8.3f %8.1f "
		       "%10.3g %7.3f\n",
		       what, w.mean_a, w.sd_a, w.mean_b, w.sd_b, w.t, w.df, w.p,
		       w.d);
}

static int run_experiment(const struct replay_set *set,
			  const struct replay_opts *o,
			  const struct predict_params *led, double dr_eta,
			  uint64_t seed, size_t subjects, const char *trace,
			  int json)
{
	struct predict_params dr = *led;
	struct replay_experiment e;
	char a[1024], b[1024], v[64];
	int err;

	snprintf(v, sizeof(v), "%.10g", dr_eta);
	if (predict_params_set(&dr, "eta_min", v) ||
	    predict_params_set(&dr, "eta_max", v)) {
		fprintf(stderr, "replay: bad --dr-eta %s\n", v);
		return 2;
	}
	err = replay_experiment_run(set, o, &dr, led, seed, subjects, &e);
	if (err) {
		fprintf(stderr, "replay: experiment: %s\n", strerror(-err));
		return 1;
	}
	predict_params_format(&dr, a, sizeof(a));
	predict_params_format(led, b, sizeof(b));
	if (json) {
		printf("{\n  \"trace\": ");
		json_fputs_str(stdout, trace);
		printf(",\n  \"experiment\": \"led\",\n"
		       "  \"seed\": %" PRIu64 ",\n  \"subjects\": %zu,\n"
		       "  \"paths\": %zu,\n  \"dr_params\": \"%s\",\n"
		       "  \"led_params\": \"%s\",\n  \"results\": {\n",
		       seed, e.n, set->n_paths, a, b);
	} else {
		printf("# led reckoning experiment (Steele, paper 000 §VI) on "
		       "%s: %zu of %zu paths, seed %" PRIu64
		       ", zero latency\n# DR : led %s\n# led: led %s\n"
		       "%-12s %20s %20s %8s %8s %10s %7s\n",
		       trace, e.n, set->n_paths, seed, a, b, "metric",
		       "DR mean ± SD", "led mean ± SD", "t", "df", "p", "d");
	}
	print_welch(json, "updates_per_s", e.ups_a, e.ups_b, e.n, 0);
	print_welch(json, "err_mean", e.err_a, e.err_b, e.n, 1);
	if (json)
		printf("  }\n}\n");
	replay_experiment_free(&e);
	return 0;
}

struct lag_args {
	int64_t lag_ns[MAX_LAGS];
	int n;
	size_t stride;
	double hit;
	const struct map *world;
	FILE *displays; /* --displays: every scored display, or NULL */
};

/* One --displays row: which measure, the lag, the entity, the time and
 * the position shown. */
struct display_out {
	FILE *f;
	const char *mode;
	int64_t lag_ns;
};

static void put_display(void *arg, uint32_t entity, int64_t t_ns,
			const double pos[3])
{
	const struct display_out *d = arg;

	fprintf(d->f, "%s,%.0f,%u,%" PRId64 ",%.3f,%.3f\n", d->mode,
		(double)d->lag_ns * 1e-6, entity, t_ns, pos[0], pos[1]);
}

static void print_lag(int json, int first, const struct replay_lag_result *a,
		      const struct replay_lag_result *b)
{
	double hp = a->n ? 100.0 * (double)a->hits / (double)a->n : 0;

	if (json) {
		printf("%s\n    {\"lag_ms\": %.0f, \"paper\": "
		       "{\"predictions\": "
		       "%" PRIu64 ", \"skipped\": %" PRIu64 ", \"aee\": %.4f, "
		       "\"median\": %.4f, \"p95\": %.4f, \"hits\": %" PRIu64
		       ", \"hit_pct\": %.3f}, \"ours\": {\"frames\": %" PRIu64
		       ", \"err_mean\": %.4f, \"err_median\": %.4f, "
		       "\"err_p95\": %.4f, \"updates\": %" PRIu64
		       ", \"updates_per_s\": %.4f, \"bytes_per_s\": %.2f}}",
		       first ? "" : ",", (double)a->lag_ns * 1e-6, a->n,
		       a->skipped, a->aee, a->median, a->p95, a->hits, hp, b->n,
		       b->aee, b->median, b->p95, b->updates, b->updates_per_s,
		       b->bytes_per_s);
		return;
	}
	printf("%6.0f %9" PRIu64 " %9.2f %9.2f %7.2f | %9" PRIu64
	       " %9.2f %9.2f %9.3f %10.1f\n",
	       (double)a->lag_ns * 1e-6, a->n, a->aee, a->median, hp, b->n,
	       b->aee, b->p95, b->updates_per_s, b->bytes_per_s);
}

static int run_lag(const struct replay_set *set, const struct lag_args *la,
		   const struct predict_params *par, const char *trace,
		   int json)
{
	struct replay_lag_opts o;
	char pstr[1024];
	double hsum = 0;

	predict_params_format(par, pstr, sizeof(pstr));
	if (json) {
		printf("{\n  \"trace\": ");
		json_fputs_str(stdout, trace);
		printf(",\n  \"predictor\": \"%s\",\n  \"params\": \"%s\",\n"
		       "  \"hit_threshold\": %g,\n  \"stride\": %zu,\n"
		       "  \"lags\": [",
		       par->p->name, pstr, la->hit, la->stride);
	} else {
		printf("# %s on %s, fixed lag, all entities together (%zu "
		       "paths)\n# %s\n# paper: full state every tick, "
		       "prediction from LKPT = t - lag, every %zu. tick; "
		       "hit <= %g u\n# ours: the predictor's sender, updates "
		       "delayed by the lag, error every frame\n"
		       "%6s %9s %9s %9s %7s | %9s %9s %9s %9s %10s\n",
		       par->p->name, trace, set->n_paths, pstr, la->stride,
		       la->hit, "lag_ms", "n_pred", "aee", "median", "hits%",
		       "frames", "err_mean", "err_p95", "upd/s", "bytes/s");
	}
	if (la->displays)
		fprintf(la->displays, "mode,lag_ms,entity,t_ns,x,y\n");
	for (int i = 0; i < la->n; i++) {
		struct replay_lag_result a, b;
		struct display_out d = {la->displays, "paper", la->lag_ns[i]};
		int err;

		replay_lag_opts_init(&o);
		o.lag_ns = la->lag_ns[i];
		o.hit_threshold = la->hit;
		o.stride = la->stride;
		o.world = la->world;
		o.update_bytes = RECKON_ESPDU_MIN_LEN;
		if (la->displays) {
			o.on_display = put_display;
			o.arg = &d;
		}
		err = replay_lag_run(set, &o, par, &a);
		if (!err) {
			d.mode = "ours";
			o.every_tick = 0;
			o.stride = 1;
			err = replay_lag_run(set, &o, par, &b);
		}
		if (err) {
			fprintf(stderr, "replay: %s at lag %.0f ms: %s\n",
				par->p->name, (double)o.lag_ns * 1e-6,
				strerror(-err));
			return 1;
		}
		hsum += a.n ? 100.0 * (double)a.hits / (double)a.n : 0;
		print_lag(json, i == 0, &a, &b);
	}
	if (json)
		printf("\n  ],\n  \"total_hit_pct\": %.3f\n}\n", hsum / la->n);
	else
		printf("# total hit%% (mean over lags, paper 003 Fig. 8): "
		       "%.2f\n",
		       hsum / la->n);
	return 0;
}

static int parse_lags(const char *s, struct lag_args *la)
{
	char buf[512], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", s);
	for (char *t = strtok_r(buf, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		char *end;
		double ms;

		errno = 0;
		ms = strtod(t, &end);
		if (errno || end == t || *end || !(ms >= 0 && ms <= 600000) ||
		    la->n == MAX_LAGS)
			return -1;
		la->lag_ns[la->n++] = (int64_t)llround(ms * 1e6);
	}
	return la->n ? 0 : -1;
}

static int parse_num(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= lo && v <= hi))
		return -1;
	*out = v;
	return 0;
}

/* The options of replay that take a value. */
static int is_valued(const char *a)
{
	static const char *const valued[] = {
		"--trace",	  "--predictor", "--experiment", "--param",
		"--subjects",	  "--seed",	 "--dr-eta",	 "--jump",
		"--min-duration", "--grid",	 "--lag",	 "--stride",
		"--hit",	  "--ant-params", "--map",	 "--pickup-r",
		"--displays",
	};

	for (size_t i = 0; i < sizeof(valued) / sizeof(valued[0]); i++)
		if (!strcmp(a, valued[i]))
			return 1;
	return 0;
}

int cmd_replay(int argc, char *argv[])
{
	const char *trace_path = NULL, *name = NULL, *experiment = NULL;
	struct lag_args la = {.stride = 1, .hit = 32};
	struct map map;
	int have_map = 0;
	char *kv[MAX_KV];
	int nkv = 0, json = 0, rc;
	double subjects = 500, dr_eta = 20, num;
	uint64_t seed = 1;
	struct replay_opts o;
	struct predict_params par;
	const struct predictor *p;
	struct replay_set set;
	struct trace t;
	struct replay_world world;
	struct predict_item items[MAP_MAX_ITEMS];
	double respawn[MAP_MAX_ITEMS], pickup_r = AGENT_PICKUP_R;
	const char *map_name = NULL, *ant_extra = NULL, *displays = NULL;
	int together = 0;

	replay_opts_init(&o);
	if (cmd_help_asked(argc, argv)) {
		usage(stdout);
		return 0;
	}
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		int bad = 0;

		if (!strcmp(a, "--list"))
			return list_predictors();
		if (!strcmp(a, "--json")) {
			json = 1;
			continue;
		} else if (!strcmp(a, "--together")) {
			together = 1;
			continue;
		} else if (!strcmp(a, "--all-teams")) {
			o.team_filter = 0;
			continue;
		} else if (!strcmp(a, "--no-leave-one-out")) {
			o.leave_one_out = 0;
			continue;
		} else if (!is_valued(a)) {
			return cmd_usage_error("replay", "unknown option '%s'",
					       a);
		} else if (!v) {
			return cmd_usage_error("replay",
					       "option '%s' needs a value", a);
		}
		i++;
		if (!strcmp(a, "--trace"))
			trace_path = v;
		else if (!strcmp(a, "--predictor"))
			name = v;
		else if (!strcmp(a, "--experiment"))
			experiment = v;
		else if (!strcmp(a, "--param") && nkv < MAX_KV)
			kv[nkv++] = argv[i];
		else if (!strcmp(a, "--param"))
			return cmd_usage_error("replay", "more than %d --param",
					       MAX_KV);
		else if (!strcmp(a, "--subjects"))
			bad = parse_num(v, 2, 1e7, &subjects);
		else if (!strcmp(a, "--seed"))
			bad = num_parse_u64(v, &seed) != 0;
		else if (!strcmp(a, "--dr-eta"))
			bad = parse_num(v, 0.001, 1e6, &dr_eta);
		else if (!strcmp(a, "--jump"))
			bad = parse_num(v, 1e-6, 1e12, &o.jump);
		else if (!strcmp(a, "--min-duration"))
			bad = parse_num(v, 0, 1e9, &o.min_duration);
		else if (!strcmp(a, "--grid") &&
			 !(bad = parse_num(v, 1, 10000, &num)))
			o.trend_nx = o.trend_ny = (int)num;
		else if (!strcmp(a, "--lag") && parse_lags(v, &la))
			return cmd_usage_error("replay",
					       "--lag wants MS[,MS...] "
					       "(0..600000, at most %d), not "
					       "'%s'",
					       MAX_LAGS, v);
		else if (!strcmp(a, "--stride") &&
			 !(bad = parse_num(v, 1, 1e6, &num)))
			la.stride = (size_t)num;
		else if (!strcmp(a, "--hit"))
			bad = parse_num(v, 0, 1e9, &la.hit);
		else if (!strcmp(a, "--ant-params"))
			ant_extra = v;
		else if (!strcmp(a, "--map"))
			map_name = v;
		else if (!strcmp(a, "--pickup-r"))
			bad = parse_num(v, 0, 1e9, &pickup_r);
		else if (!strcmp(a, "--displays"))
			displays = v;
		if (bad)
			return cmd_usage_error("replay", "bad %s '%s'", a, v);
	}
	if (!trace_path)
		return cmd_usage_error("replay", "give --trace FILE");
	if (displays && !la.n)
		return cmd_usage_error("replay", "--displays goes with --lag");
	if (experiment && strcmp(experiment, "led") != 0 &&
	    strcmp(experiment, "ant") != 0) {
		fprintf(stderr, "replay: unknown experiment '%s' (led, ant)\n",
			experiment);
		return 2;
	}
	if (experiment && !strcmp(experiment, "ant")) {
		together = 1;
		name = "ant";
	} else if (experiment) {
		name = "led";
	}
	if (!name)
		return cmd_usage_error("replay", "give --predictor NAME (see "
						 "--list) or --experiment led");
	p = predict_find(name);
	if (!p) {
		fprintf(stderr, "replay: unknown predictor '%s' (see --list)\n",
			name);
		return 2;
	}
	predict_params_init(&par, p);
	if (apply_params(&par, kv, nkv))
		return 2;
	if (load_trace(trace_path, &t))
		return 1;
	if (load_map(map_name, t.map, &map, &have_map)) {
		trace_free(&t);
		return 1;
	}
	if (!have_map && map_needed(&par, la.n, together, t.map)) {
		trace_free(&t);
		return 2;
	}
	if (have_map)
		o.world = &map;
	rc = replay_set_build(&t, &o, &set);
	trace_free(&t);
	if (rc) {
		fprintf(stderr, "replay: %s: %s\n", trace_path, strerror(-rc));
		return 1;
	}
	if (set.n_paths == 0) {
		fprintf(stderr, "replay: %s: no path of at least %g s\n",
			trace_path, o.min_duration);
		replay_set_free(&set);
		return 1;
	}
	if (!strcmp(p->name, "ekb") && replay_set_teams(&set) == 0)
		fprintf(stderr,
			"replay: ekb: %s has no teams (deathmatch): EKB has "
			"no teammates or enemies and falls back to first-order "
			"dead reckoning (TDM) for every entity\n",
			trace_path);
	if (!strcmp(p->name, "ekb") && !la.n && !together && !experiment)
		fprintf(stderr,
			"replay: ekb: each path alone sees no other entity; "
			"use --together or --lag to give EKB its teammates "
			"and enemies\n");
	memset(&world, 0, sizeof(world));
	if (have_map) {
		la.world = &map;
		predict_map_view(&map, &world.map);
		world.n_items =
			predict_map_items(&map, items, respawn, MAP_MAX_ITEMS);
		world.items = items;
		world.respawn_s = respawn;
		world.pickup_r = pickup_r;
	}
	if (la.n && displays && !(la.displays = fopen(displays, "we"))) {
		fprintf(stderr, "replay: %s: %s\n", displays, strerror(errno));
		rc = 1;
	} else if (la.n) {
		rc = run_lag(&set, &la, &par, trace_path, json);
		if (la.displays && fclose(la.displays) && !rc) {
			fprintf(stderr, "replay: %s: %s\n", displays,
				strerror(errno));
			rc = 1;
		}
	} else if (experiment && together)
		rc = replay_ant_experiment(&set, &world, trace_path, ant_extra);
	else if (experiment)
		rc = run_experiment(&set, &o, &par, dr_eta, (uint64_t)seed,
				    (size_t)subjects, trace_path, json);
	else
		rc = run_replay(&set, &o, together ? &world : NULL, &par,
				trace_path, json);
	replay_set_free(&set);
	if (have_map)
		map_free(&map);
	return rc;
}

/*
 * truth_load.c: where a role's truth comes from. Either a trace file
 * (--trace FILE, the CSV of docs/trace-format.md) or the world library's
 * bot simulation run in process (--map NAME --bots N --seed S --duration
 * D), which is deterministic, so every agent of a run (and the simulator)
 * computes the same trace. Maps are looked up by name in $RECKON_MAP_DIR,
 * ./scenarios/maps and next to the executable, like `reckon-agent trace
 * gen` does. agent_truth_bind then checks the player's entities against
 * the paths of the truth and spreads --player-index/--players.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent_io.h"
#include "role/update_espdu.h"
#include "world/map.h"
#include "world/sim.h"

static int say(char *err, size_t len, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int say(char *err, size_t len, int rc, const char *fmt, ...)
{
	va_list ap;

	if (err && len) {
		va_start(ap, fmt);
		vsnprintf(err, len, fmt, ap);
		va_end(ap);
	}
	return rc;
}

FILE *agent_map_open(const char *name, char *path, size_t plen)
{
	char exe[PATH_MAX];
	const char *rel[] = {"/../scenarios/maps", "/../../scenarios/maps",
			     "/../share/reckon/maps"};
	ssize_t n;
	FILE *f;

	if (strchr(name, '/') || strstr(name, ".map")) {
		snprintf(path, plen, "%s", name);
		return fopen(path, "r");
	}
	if (getenv("RECKON_MAP_DIR")) {
		snprintf(path, plen, "%s/%s.map", getenv("RECKON_MAP_DIR"),
			 name);
		if ((f = fopen(path, "r")))
			return f;
	}
	snprintf(path, plen, "scenarios/maps/%s.map", name);
	if ((f = fopen(path, "r")))
		return f;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	if (strrchr(exe, '/'))
		*strrchr(exe, '/') = '\0';
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		snprintf(path, plen, "%s%s/%s.map", exe, rel[i], name);
		if ((f = fopen(path, "r")))
			return f;
	}
	return NULL;
}

static int generate(const struct shell_opts *o, struct trace *out, char *err,
		    size_t errlen)
{
	char path[PATH_MAX + 64], why[256] = "";
	struct trace_events ev;
	struct sim_config c;
	struct map m;
	FILE *f;
	int rc;

	f = agent_map_open(o->map, path, sizeof(path));
	if (!f)
		return say(err, errlen, -ENOENT,
			   "map '%s' not found (looked in $RECKON_MAP_DIR, "
			   "scenarios/maps and next to the program)",
			   o->map);
	rc = map_read(f, &m, why, sizeof(why));
	fclose(f);
	if (rc)
		return say(err, errlen, rc, "%s: %s", path,
			   rc == -EINVAL ? why : strerror(-rc));
	sim_config_defaults(&c);
	c.seed = o->seed;
	if (o->bots)
		c.nbots = o->bots;
	if (o->duration_s > 0)
		c.duration_s = o->duration_s;
	if (o->tick_hz)
		c.tick_hz = o->tick_hz;
	trace_init(out);
	trace_events_init(&ev);
	rc = sim_run(&m, &c, out, &ev);
	trace_events_free(&ev);
	map_free(&m);
	if (rc) {
		trace_free(out);
		return say(err, errlen, rc, "generating the trace: %s",
			   strerror(-rc));
	}
	return 0;
}

int agent_trace_load(const struct shell_opts *o, struct trace *out, char *err,
		     size_t errlen)
{
	char why[256] = "";
	FILE *f;
	int rc;

	if (!o->trace_path)
		return generate(o, out, err, errlen);
	f = fopen(o->trace_path, "r");
	if (!f) {
		rc = -errno;
		return say(err, errlen, rc, "%s: %s", o->trace_path,
			   strerror(-rc));
	}
	trace_init(out);
	rc = trace_read_csv(f, out, why, sizeof(why));
	fclose(f);
	if (rc) {
		trace_free(out);
		return say(err, errlen, rc, "%s: %s", o->trace_path,
			   why[0] ? why : strerror(-rc));
	}
	return 0;
}

/* The training session for --trend-train: another game on the same map,
 * seeded from the run's seed with a fixed salt ("trend"), so every agent
 * of a run (and the simulator) trains on the same play. */
#define TRAIN_SEED_SALT 0x7472656e64ULL

int agent_truth_load(const struct shell_opts *o, struct role_truth *out,
		     char *err, size_t errlen)
{
	struct trace t, train;
	int have_train = 0, rc;

	rc = agent_trace_load(o, &t, err, errlen);
	if (rc)
		return rc;
	if (o->train_path || o->train_s > 0) {
		struct shell_opts to = *o;

		if (o->train_path) {
			to.trace_path = o->train_path;
		} else if (!o->map) {
			trace_free(&t);
			return say(err, errlen, -EINVAL,
				   "--trend-train generates play on --map; "
				   "with --trace use --trend-trace FILE");
		} else {
			to.trace_path = NULL;
			to.duration_s = o->train_s;
			to.seed = o->seed ^ TRAIN_SEED_SALT;
		}
		rc = agent_trace_load(&to, &train, err, errlen);
		if (rc) {
			trace_free(&t);
			return rc;
		}
		have_train = 1;
	}
	rc = role_truth_build_trained(&t, have_train ? &train : NULL, NULL,
				      out);
	trace_free(&t);
	if (have_train)
		trace_free(&train);
	if (rc)
		return say(err, errlen, rc, "the trace has no usable paths: %s",
			   strerror(-rc));
	return 0;
}

int agent_truth_bind(struct shell_opts *o, const struct role_truth *tr,
		     char *err, size_t errlen, char *warn, size_t warnlen)
{
	if (warn && warnlen)
		warn[0] = '\0';
	if (tr->n_entities &&
	    tr->entities[tr->n_entities - 1] > ROLE_ENTITY_MAX)
		return say(err, errlen, -ERANGE,
			   "entity %u of the trace does not fit a DIS entity "
			   "number (trace ids 0..%u)",
			   tr->entities[tr->n_entities - 1], ROLE_ENTITY_MAX);
	for (size_t i = 0; i < o->n_entities; i++)
		if (role_truth_entity_index(tr, o->entities[i]) < 0)
			return say(err, errlen, -ENOENT,
				   "--entities: %u has no path in the trace",
				   o->entities[i]);
	if (tr->set.n_paths == 0)
		say(warn, warnlen, 0,
		    "no path of the trace lasts %.0f s; nothing to play or "
		    "measure",
		    tr->opts.min_duration);
	/* --player-index I --players N: every N-th entity of the truth */
	if (o->players && !o->n_entities) {
		for (size_t i = 0;
		     i < tr->n_entities && o->n_entities < SHELL_MAX_ENTITIES;
		     i++)
			if ((int)(i % (size_t)o->players) == o->player_index)
				o->entities[o->n_entities++] = tr->entities[i];
		if (!o->n_entities)
			say(warn, warnlen, 0, "no entity for player %d of %d",
			    o->player_index, o->players);
	}
	return 0;
}

/*
 * truth_load.c: where a role's truth comes from. Either a trace file
 * (--trace FILE, the CSV of docs/trace-format.md) or the world library's
 * bot simulation run in process (--map NAME --bots N --seed S --duration
 * D), which is deterministic, so every agent of a run computes the same
 * trace. Maps are looked up by name in $RECKON_MAP_DIR, ./scenarios/maps
 * and next to the executable, like `reckon-agent trace gen` does.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "role_shell.h"
#include "world/map.h"
#include "world/sim.h"

static FILE *find_map(const char *name, char *path, size_t plen)
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

static int generate(const struct shell_opts *o, struct trace *out)
{
	char path[PATH_MAX + 64], err[256] = "";
	struct trace_events ev;
	struct sim_config c;
	struct map m;
	FILE *f;
	int rc;

	f = find_map(o->map, path, sizeof(path));
	if (!f) {
		fprintf(stderr,
			"reckon-agent: map '%s' not found (looked in "
			"$RECKON_MAP_DIR, scenarios/maps and next to the "
			"program)\n",
			o->map);
		return 1;
	}
	rc = map_read(f, &m, err, sizeof(err));
	fclose(f);
	if (rc) {
		fprintf(stderr, "reckon-agent: %s: %s\n", path,
			rc == -EINVAL ? err : strerror(-rc));
		return 1;
	}
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
		fprintf(stderr, "reckon-agent: generating the trace: %s\n",
			strerror(-rc));
		trace_free(out);
		return 1;
	}
	return 0;
}

int shell_load_trace(const struct shell_opts *o, struct trace *out)
{
	char err[256] = "";
	FILE *f;
	int rc;

	if (!o->trace_path)
		return generate(o, out);
	f = fopen(o->trace_path, "r");
	if (!f) {
		fprintf(stderr, "reckon-agent: %s: %s\n", o->trace_path,
			strerror(errno));
		return 1;
	}
	trace_init(out);
	rc = trace_read_csv(f, out, err, sizeof(err));
	fclose(f);
	if (rc) {
		fprintf(stderr, "reckon-agent: %s: %s\n", o->trace_path,
			err[0] ? err : strerror(-rc));
		trace_free(out);
		return 1;
	}
	return 0;
}

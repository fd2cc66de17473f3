/*
 * bench_gen.c: how long `trace gen` takes for 10 bots over 10 minutes of
 * game time on each shipped map (the target is under 10 s on dust):
 * the bot world plus writing the trace and events CSV to a temporary
 * file. Prints one line per map; never part of pass/fail.
 */
#include <stdio.h>
#include <time.h>

#include "map.h"
#include "sim.h"
#include "trace.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void)
{
	static const char *maps[] = {"dust", "arena", "field", "loop"};

	for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++) {
		char path[128], err[256];
		struct map m;
		struct sim_config c;
		struct trace t;
		struct trace_events ev;
		double t0, t1, t2;
		FILE *f, *out;

		snprintf(path, sizeof(path), "scenarios/maps/%s.map", maps[i]);
		f = fopen(path, "r");
		if (!f || map_read(f, &m, err, sizeof(err))) {
			fprintf(stderr, "bench_gen: cannot load %s\n", path);
			return 1;
		}
		fclose(f);
		sim_config_defaults(&c);
		c.seed = 1;
		c.nbots = 10;
		c.duration_s = 600;
		trace_init(&t);
		trace_events_init(&ev);
		t0 = now();
		if (sim_run(&m, &c, &t, &ev)) {
			fprintf(stderr, "bench_gen: sim failed\n");
			return 1;
		}
		t1 = now();
		out = tmpfile();
		if (!out || trace_write_csv(out, &t) ||
		    trace_events_write_csv(out, &ev)) {
			fprintf(stderr, "bench_gen: write failed\n");
			return 1;
		}
		fclose(out);
		t2 = now();
		printf("world_gen_bench: %-5s 10 bots x 600 s at 64 Hz: "
		       "%zu samples, %zu events; simulate %.2f s, write CSV "
		       "%.2f s, total %.2f s (target < 10 s)\n",
		       maps[i], t.n, ev.n, t1 - t0, t2 - t1, t2 - t0);
		trace_free(&t);
		trace_events_free(&ev);
		map_free(&m);
	}
	return 0;
}

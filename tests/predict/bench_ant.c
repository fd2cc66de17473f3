/*
 * bench_ant.c: the cost of AntReckoning in the replay. Generates the
 * arena trace of docs/predictors.md in process (10 bots, 600 s, seed 1),
 * then times the zero-latency replay of every entity with DIS FPW
 * (path by path, and together) and with ant and dr2 (together, with the
 * map's items and line of sight), best CPU time of five runs each (the
 * four replays in turns, so that the machine's changing load falls on
 * each alike), and prints the ratio ant / DIS FPW (the budget is 3x). A
 * benchmark: it prints, it never fails on a time.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agent_io.h"
#include "predict/map_view.h"
#include "predict/replay.h"
#include "world/map.h"
#include "world/sim.h"

static double now_s(void)
{
	struct timespec ts;

	/* CPU time of this process: the machine's other load does not
	 * count (the replay is single-threaded) */
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One replay timed: its CPU time, or -1. world NULL: path by path. */
static double time_run(const struct replay_set *set,
		       const struct replay_world *w, const char *name,
		       const char *kv, struct replay_result *res)
{
	struct replay_opts o;
	struct predict_params par;
	double t0;
	int err;

	replay_opts_init(&o);
	predict_params_init(&par, predict_find(name));
	if (kv && predict_params_set_kv(&par, kv))
		return -1;
	t0 = now_s();
	err = w ? replay_run_together(set, w, &par, res, NULL)
		: replay_run_set(set, &o, &par, res, NULL);
	if (err) {
		fprintf(stderr, "bench_ant: %s: %s\n", name, strerror(-err));
		return -1;
	}
	return now_s() - t0;
}

/* The four replays of the bench, each timed RUNS times in turns (so a
 * change in the machine's load falls on all of them alike); best[k] is
 * the least time of replay k, or -1. */
#define RUNS 5
static int time_all(const struct replay_set *set, const struct replay_world *w,
		    struct replay_result *res, double best[4])
{
	static const struct {
		const char *name, *kv;
		int together;
	} job[4] = {
		{"dis", "algorithm=fpw", 0},
		{"dis", "algorithm=fpw", 1},
		{"ant", NULL, 1},
		{"dr2", NULL, 1},
	};

	for (int k = 0; k < 4; k++)
		best[k] = 1e30;
	for (int r = 0; r < RUNS; r++)
		for (int k = 0; k < 4; k++) {
			double t = time_run(set, job[k].together ? w : NULL,
					    job[k].name, job[k].kv, res);

			if (t < 0)
				return -1;
			best[k] = t < best[k] ? t : best[k];
		}
	return 0;
}

int main(void)
{
	static struct predict_item items[MAP_MAX_ITEMS];
	static double respawn[MAP_MAX_ITEMS];
	struct sim_config c;
	struct trace t;
	struct trace_events ev;
	struct replay_opts o;
	struct replay_set set;
	struct replay_world w;
	struct replay_result *res;
	struct map m;
	char err[256];
	double best[4], dis_p, dis_t, ant, dr2;

	if (agent_map_load("arena", &m, err, sizeof(err))) {
		fprintf(stderr, "bench_ant: %s\n", err);
		return 1;
	}
	sim_config_defaults(&c);
	c.seed = 1;
	c.nbots = 10;
	c.duration_s = 600;
	trace_init(&t);
	trace_events_init(&ev);
	replay_opts_init(&o);
	if (sim_run(&m, &c, &t, &ev) || replay_set_build(&t, &o, &set))
		return 1;
	res = calloc(set.n_paths, sizeof(*res));
	if (!res)
		return 1;
	memset(&w, 0, sizeof(w));
	predict_map_view(&m, &w.map);
	w.n_items = predict_map_items(&m, items, respawn, MAP_MAX_ITEMS);
	w.items = items;
	w.respawn_s = respawn;
	w.pickup_r = AGENT_PICKUP_R;
	if (time_all(&set, &w, res, best))
		return 1;
	dis_p = best[0];
	dis_t = best[1];
	ant = best[2];
	dr2 = best[3];
	printf("bench_ant: arena, 10 bots x 600 s (%zu paths), CPU s, best "
	       "of %d taken in turns\n"
	       "  dis fpw, path by path   %8.3f s\n"
	       "  dis fpw, together       %8.3f s\n"
	       "  dr2, together           %8.3f s\n"
	       "  ant, together           %8.3f s\n"
	       "  ratio ant / dis fpw (together)     %.2f (budget 3)\n"
	       "  ratio ant / dis fpw (path by path) %.2f\n",
	       set.n_paths, RUNS, dis_p, dis_t, dr2, ant, ant / dis_t,
	       ant / dis_p);
	free(res);
	replay_set_free(&set);
	trace_free(&t);
	trace_events_free(&ev);
	map_free(&m);
	return 0;
}

/*
 * bench_fire.c: the server-side cost of lag compensation with 64
 * players: every player's history full (1.5 s at 60 Hz), then shots from
 * random players in random directions judged in each mode, and the time
 * per server tick (64 history pushes) and per shot printed. Players stand
 * at seeded random floor points of dust; the shots are seeded. Prints
 * figures; asserts nothing.
 *
 * usage: lagcomp_bench_fire [SHOTS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "lagcomp/lagcomp.h"
#include "world/rng.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int load(struct map *m)
{
	char err[256] = "";
	FILE *f = fopen("scenarios/maps/dust.map", "r");
	int rc;

	if (!f) {
		fprintf(stderr,
			"run from the source tree: scenarios/maps/dust.map\n");
		return -1;
	}
	rc = map_read(f, m, err, sizeof(err));
	fclose(f);
	if (rc)
		fprintf(stderr, "dust.map: %s\n", err);
	return rc;
}

static void place(const struct map *m, struct wrng *r, struct lc_pose *p)
{
	do {
		p->x = wrng_range(r, 0, m->w * m->cell);
		p->y = wrng_range(r, 0, m->h * m->cell);
	} while (map_point_blocked(m, p->x, p->y));
	p->yaw = wrng_range(r, 0, 360);
	p->crouch = wrng_below(r, 4) == 0;
}

int main(int argc, char **argv)
{
	long shots = argc > 1 ? atol(argv[1]) : 200000;
	enum lc_mode modes[] = {LC_MODE_NONE, LC_MODE_TLC, LC_MODE_ALC};
	struct lc_out out[LC_MAX_OUT];
	struct map m;
	int n;

	if (load(&m))
		return 1;
	printf("64 players on dust, %ld shots per mode\n", shots);
	for (size_t k = 0; k < 3; k++) {
		static struct lc_server s;
		struct lc_config c;
		struct wrng r;
		long hits = 0;
		double t0, t_tick, t_fire;

		lc_config_defaults(&c);
		c.mode = modes[k];
		c.ping = LC_PING_INSTANT;
		lc_server_init(&s, &c, &m, NULL, NULL, 0);
		wrng_seed(&r, 1, 7);
		for (int i = 0; i < 64; i++) {
			struct lc_pose p;

			place(&m, &r, &p);
			lc_server_join(&s, i, 1 + i % 2, &p);
			lc_server_rtt(&s, i, 0, i % 2 ? 270 : 20);
		}
		t0 = now_s();
		for (int t = 0; t < 600; t++) {
			for (int i = 0; i < 64; i++) {
				struct lc_pose p = s.p[i].pose;

				p.x += wrng_range(&r, -2, 2);
				p.y += wrng_range(&r, -2, 2);
				if (!map_point_blocked(&m, p.x, p.y))
					lc_server_pose(&s, i, &p, 1);
			}
			lc_server_tick(&s, t, t * 16666667LL, out, LC_MAX_OUT,
				       &n);
		}
		t_tick = (now_s() - t0) / 600;
		t0 = now_s();
		for (long i = 0; i < shots; i++) {
			struct lc_shot sh = {
				.shot_id = (uint32_t)i,
				.shooter = (int)wrng_below(&r, 64),
				.yaw = wrng_range(&r, 0, 360),
				.pitch = wrng_range(&r, -5, 5),
				.screen_victim = -1,
			};

			lc_server_fire(&s, &sh, 10000000000LL, out, LC_MAX_OUT,
				       &n, NULL);
			hits += n > 0;
		}
		t_fire = (now_s() - t0) / (double)shots;
		printf("%-4s tick (64 pushes + timeouts) %7.2f us   shot %6.2f "
		       "us"
		       "   (%ld of %ld shots hit)\n",
		       lc_mode_name(modes[k]), t_tick * 1e6, t_fire * 1e6, hits,
		       shots);
		lc_server_free(&s);
	}
	map_free(&m);
	return 0;
}

/*
 * bench_thesis.c: the thesis's chapter 7 set-up in virtual time on the
 * deterministic in-process network of the role tests: N bots on a map,
 * half of them with +250 ms RTT (135 ms each way against 10 ms for the
 * rest, Lee's 16-20 ms LAN plus 250 ms), played under each mode with the
 * same seeds, and the server's metrics printed as one line per mode and
 * seed. Bots are synthetic: this shows directions, not the thesis's
 * numbers.
 *
 * usage: lagcomp_bench_thesis [MAP] [PLAYERS] [SECONDS] [SEEDS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "netsim.h"

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	const char *map = argc > 1 ? argv[1] : "dust";
	int n = argc > 2 ? atoi(argv[2]) : 12;
	double secs = argc > 3 ? atof(argv[3]) : 120;
	int seeds = argc > 4 ? atoi(argv[4]) : 3;
	enum lc_mode modes[] = {LC_MODE_NONE, LC_MODE_TLC, LC_MODE_CLC,
				LC_MODE_ALC};
	int64_t delay[NS_MAX_CLIENTS];

	if (n < 2 || n > NS_MAX_CLIENTS || !(secs > 0) || seeds < 1) {
		fprintf(stderr,
			"usage: %s [MAP] [PLAYERS 2..64] [SECONDS] "
			"[SEEDS]\n",
			argv[0]);
		return 2;
	}
	for (int i = 0; i < n; i++)
		delay[i] = i % 2 ? 135 : 10;
	printf("map=%s players=%d seconds=%g (odd players +250 ms RTT)\n", map,
	       n, secs);
	printf("%-5s %4s %6s %6s %6s %7s %8s %8s %6s %6s %6s %6s %8s %7s\n",
	       "mode", "seed", "shots", "screen", "reg", "acc", "sbc100lo",
	       "sbc100hi", "prov", "upheld", "overr", "tmo", "delay_ms",
	       "wall_s");
	for (int s = 0; s < seeds; s++) {
		for (size_t k = 0; k < sizeof(modes) / sizeof(modes[0]); k++) {
			struct netsim ns;
			struct lc_config lc;
			struct lc_metrics m;
			double t0 = wall();

			lc_config_defaults(&lc);
			lc.mode = modes[k];
			ns_init(&ns, map, n, delay, &lc, secs, 1000 + s);
			ns_run(&ns, secs + 0.5);
			lc_metrics_compute(fps_server_lc(ns.srv), 50, &m);
			printf("%-5s %4d %6ld %6ld %6ld %7.3f %8.2f %8.2f %6ld "
			       "%6ld %6ld %6ld %8.1f %7.2f\n",
			       lc_mode_name(modes[k]), 1000 + s, m.shots,
			       m.screen_hits, m.registered, m.reg_accuracy,
			       m.sbc100_low, m.sbc100_high, m.provisional,
			       m.upheld, m.overruled, m.timeouts,
			       m.delay_mean_ms, wall() - t0);
			fflush(stdout);
			ns_free(&ns);
		}
	}
	return 0;
}

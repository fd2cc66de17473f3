/*
 * bench_sim.c: how fast the simulator runs scenarios/quickstart.ini (or
 * the scenario named as argv[1]) on one core: each repetition is
 * simulated in a temporary directory and timed with CLOCK_MONOTONIC and
 * the process CPU clock. The multiple of real time is the scenario's
 * duration (what a repetition is given in the emulator) over the wall
 * time, and over the CPU time, which other processes on a shared
 * machine disturb less; events/s and datagrams/s are per wall second.
 * A scenario without a duration uses the virtual time at which its
 * repetition ended. It prints figures and never fails on them; it is
 * not a test.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "scenario.h"
#include "netsim.h"

static double clock_s(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Stay on the CPU we run on, so the figures are for one core. */
static int pin_one_core(void)
{
	cpu_set_t set;
	int cpu = sched_getcpu();

	if (cpu < 0)
		return -errno;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : cpu;
}

static void rm_dir(const char *dir)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "sim_bench: could not remove %s\n", dir);
}

int main(int argc, char *argv[])
{
	const char *path = argc > 1 ? argv[1] : "scenarios/quickstart.ini";
	char tmp[] = "/tmp/reckon-sim-bench.XXXXXX", dir[PATH_MAX];
	struct sc_diag d = {0};
	struct scenario *sc = NULL;
	double wall_sum = 0, cpu_sum = 0, virt_sum = 0;
	uint64_t ev_sum = 0, dg_sum = 0;
	int cpu, rc;

	rc = scenario_load(path, &sc, &d);
	for (unsigned i = 0; i < d.n; i++)
		fprintf(stderr, "%s\n", d.msg[i]);
	sc_diag_free(&d);
	if (rc) {
		fprintf(stderr, "sim_bench: %s: %s\n", path, strerror(-rc));
		return 1;
	}
	if (mkdtemp(tmp) == NULL) {
		perror("sim_bench: mkdtemp");
		scenario_free(sc);
		return 1;
	}
	cpu = pin_one_core();
	printf("sim_bench: %s, %u host(s), %u repetition(s) of %.1f s, "
	       "pinned to CPU %d\n",
	       path, sc->nhosts, sc->repetitions, (double)sc->duration_ns / 1e9,
	       cpu);
	for (unsigned rep = 1; rep <= sc->repetitions; rep++) {
		struct sim_stats st = {0};
		double w0, c0, wall, cpu_s, virt;

		snprintf(dir, sizeof(dir), "%s/rep-%u", tmp, rep);
		if (mkdir(dir, 0755)) {
			perror(dir);
			break;
		}
		w0 = clock_s(CLOCK_MONOTONIC);
		c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
		rc = sim_run_rep(sc, rep, dir, &st);
		wall = clock_s(CLOCK_MONOTONIC) - w0;
		cpu_s = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
		if (rc) {
			fprintf(stderr, "sim_bench: repetition %u: %d\n", rep,
				rc);
			break;
		}
		virt = (double)(sc->duration_ns > 0 ? sc->duration_ns
						    : st.virtual_ns) /
		       1e9;
		printf("  rep %u: %.1f s (hosts ended at %.2f s) in %.4f s "
		       "wall, %.4f s CPU: %.0fx real time (%.0fx by CPU "
		       "time), %" PRIu64 " events (%.0f/s), %" PRIu64
		       " datagrams (%.0f/s)\n",
		       rep, virt, (double)st.virtual_ns / 1e9, wall, cpu_s,
		       virt / wall, virt / cpu_s, st.events,
		       (double)st.events / wall, st.datagrams,
		       (double)st.datagrams / wall);
		wall_sum += wall;
		cpu_sum += cpu_s;
		virt_sum += virt;
		ev_sum += st.events;
		dg_sum += st.datagrams;
	}
	if (wall_sum > 0)
		printf("sim_bench: total %.1f s simulated in %.3f s wall, "
		       "%.3f s CPU: %.0fx real time (%.0fx by CPU time); "
		       "%.0f events/s, %.0f datagrams/s (goal: >= 1000x)\n",
		       virt_sum, wall_sum, cpu_sum, virt_sum / wall_sum,
		       virt_sum / cpu_sum, (double)ev_sum / wall_sum,
		       (double)dg_sum / wall_sum);
	rm_dir(tmp);
	scenario_free(sc);
	return rc ? 1 : 0;
}

/*
 * bench_load.c: how long scenario_load and scenario_print take on the
 * shipped scenarios and on a generated 64-host file with every pair
 * linked through [defaults] and a 500-change schedule. Prints figures;
 * it is a benchmark (`cmake --build BUILD --target bench`), not a test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "scenario.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int bench(const char *label, const char *path, int iters)
{
	double t0 = now_s();
	unsigned nlinks = 0, nchanges = 0;

	for (int i = 0; i < iters; i++) {
		struct scenario *sc = NULL;
		struct sc_diag d = {0};
		if (scenario_load(path, &sc, &d) < 0) {
			fprintf(stderr, "bench_load: %s does not load\n", path);
			for (unsigned j = 0; j < d.n; j++)
				fprintf(stderr, "%s\n", d.msg[j]);
			sc_diag_free(&d);
			return -1;
		}
		FILE *null = fopen("/dev/null", "w");
		scenario_print(null, sc);
		fclose(null);
		nlinks = sc->nlinks;
		nchanges = sc->nchanges;
		scenario_free(sc);
		sc_diag_free(&d);
	}
	double dt = now_s() - t0;
	printf("scenario load+print %-22s %4u links %4u changes: %8.1f us "
	       "per file (%d iterations)\n",
	       label, nlinks, nchanges, dt / iters * 1e6, iters);
	return 0;
}

int main(void)
{
	char path[] = "/tmp/reckon-bench-XXXXXX.ini";
	int fd = mkstemps(path, 4);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (f == NULL) {
		perror("bench_load: temporary file");
		return 1;
	}
	fprintf(f, "[scenario]\nduration = 10m\nsubnet = 10.0.0.0/16\n"
		   "[defaults]\nlink = delay 10ms 2ms loss 0.5%%\n");
	for (int i = 0; i < 64; i++)
		fprintf(f, "[host h%d]\nexec = ping -c 1 {addr:h%d}\n", i,
			(i + 1) % 64);
	fprintf(f, "[schedule]\n");
	for (int i = 0; i < 500; i++)
		fprintf(f, "at %dms h%d>h%d = delay %dms\n", 1000 + i * 7,
			i % 64,
			(i * 7 + 1) % 64 == i % 64 ? (i + 1) % 64
						   : (i * 7 + 1) % 64,
			i % 90 + 1);
	fclose(f);

	int rc = bench("scenarios/ping.ini", "scenarios/ping.ini", 2000);
	if (rc == 0)
		rc = bench("scenarios/lossy-pair.ini",
			   "scenarios/lossy-pair.ini", 2000);
	if (rc == 0)
		rc = bench("64 hosts (generated)", path, 20);
	unlink(path);
	return rc < 0 ? 1 : 0;
}

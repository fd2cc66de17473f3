/*
 * bench_netem.c: packets decided per second (enqueue + dequeue) by one
 * netem link on one core, for three specs: delay only; delay + normal
 * jitter + Gilbert-Elliott loss; the full example spec of issue #2.
 * Synthetic traffic: 200-byte packets offered at a fixed spacing of
 * virtual time and delivered at their time. The first two specs run with
 * an explicit "limit 100000" (printed with the spec) at 10, 100 and 1000 us
 * spacing, so about 10k, 1000 and 100 packets sit in the 100 ms queue and
 * none is tail-dropped; the full spec runs exactly as written (limit 1000)
 * at 250 us, a spacing its 10mbit rate can carry (220 bytes with the
 * overhead take 176 us). Every row prints what happened to the packets.
 * Arguments: [packets [case [spacing_ns]]]: run one case only (0-based,
 * for profiling), optionally at another spacing. Rates are per CPU second
 * (CLOCK_PROCESS_CPUTIME_ID: the per-core figure, robust to a busy
 * machine) and per wall second. A benchmark, never a pass/fail test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "netem.h"

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void bench(const char *label, const char *text, long n,
		  int64_t spacing_ns)
{
	struct netem_counters c;
	struct netem_spec s;
	struct netem_link *l;
	struct netem_verdict v;
	struct netem_pkt p;
	char err[256];
	double t0, t1, c0, c1;
	long i;

	if (netem_spec_parse(text, &s, err, sizeof(err)) < 0) {
		fprintf(stderr, "bench: %s\n", err);
		exit(1);
	}
	if (netem_link_new(&s, 1, 1, &l) < 0) {
		fprintf(stderr, "bench: netem_link_new failed\n");
		exit(1);
	}
	t0 = clock_s(CLOCK_MONOTONIC);
	c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	for (i = 0; i < n; i++) {
		int64_t now = (int64_t)i * spacing_ns;

		netem_link_enqueue(l, now, 200, (uint64_t)i, &v);
		while (netem_link_dequeue(l, now, &p) == 1)
			;
	}
	c1 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	t1 = clock_s(CLOCK_MONOTONIC);
	netem_link_counters(l, &c);
	printf("netem_bench  %-28s every %7.1f us: %6.2f M packets/CPU-s  "
	       "%6.2f M/wall-s\n",
	       label, (double)spacing_ns / 1e3, (double)n / (c1 - c0) / 1e6,
	       (double)n / (t1 - t0) / 1e6);
	printf("             spec \"%s\"\n", text);
	printf("             %llu offered, %llu duplicated, %llu delivered, "
	       "%llu lost, %llu tail-dropped, %u still queued\n",
	       (unsigned long long)c.in, (unsigned long long)c.duplicated,
	       (unsigned long long)c.delivered, (unsigned long long)c.drop_loss,
	       (unsigned long long)c.drop_limit, netem_link_queued(l));
	netem_link_free(l);
}

#define JL "delay 100ms 10ms distribution normal loss gemodel 1% 10% 70% 0.1%"

int main(int argc, char *argv[])
{
	static const struct {
		const char *label, *spec;
		int64_t spacing_ns;
	} cases[] = {
		{"delay only", "delay 100ms limit 100000", 10000},
		{"delay+normal jitter+gemodel", JL " limit 100000", 10000},
		{"delay+normal jitter+gemodel", JL " limit 100000", 100000},
		{"delay+normal jitter+gemodel", JL " limit 100000", 1000000},
		{"full example spec",
		 "delay 100ms 10ms 25% distribution normal loss gemodel 1% "
		 "10% 70% 0.1% duplicate 1% corrupt 0.1% reorder 25% 50% gap "
		 "5 rate 10mbit 20 limit 1000 slot 800us 1ms",
		 250000},
	};
	long n = argc > 1 ? atol(argv[1]) : 5000000;
	int only = argc > 2 ? atoi(argv[2]) : -1;
	int64_t spacing = argc > 3 ? atoll(argv[3]) : 0;
	size_t k;

	if (n <= 0)
		n = 5000000;
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
		if (only < 0 || (size_t)only == k)
			bench(cases[k].label, cases[k].spec, n,
			      spacing > 0 ? spacing : cases[k].spacing_ns);
	return 0;
}

/*
 * summary_cli.c: a test helper that runs daemon/results/summary.c on a results
 * directory (`agents_summary_cli RUN_DIR REPETITIONS`) and prints the
 * table, so the script tests can check the summary of a real run before
 * the daemon calls summary_write itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"

int main(int argc, char *argv[])
{
	char *end;
	unsigned long reps;
	int err;

	if (argc != 3) {
		fprintf(stderr, "usage: agents_summary_cli RUN_DIR REPETITIONS\n");
		return 2;
	}
	reps = strtoul(argv[2], &end, 10);
	if (*end || reps > 10000) {
		fprintf(stderr, "agents_summary_cli: bad repetitions\n");
		return 2;
	}
	err = summary_write(argv[1], (unsigned)reps, stdout);
	if (err) {
		fprintf(stderr, "agents_summary_cli: %s: %s\n", argv[1],
			strerror(-err));
		return 1;
	}
	return 0;
}

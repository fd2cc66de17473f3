/*
 * scenario_report.c: loading a scenario for a command line. Every
 * diagnostic goes to stderr as the loader wrote it; other failures name
 * the file and the reason, prefixed by the command that asked.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "scenario.h"

struct scenario *scenario_load_report(const char *path, const char *who)
{
	struct sc_diag d = { 0 };
	struct scenario *sc = NULL;
	int rc = scenario_load(path, &sc, &d);

	for (unsigned i = 0; i < d.n; i++)
		fprintf(stderr, "%s\n", d.msg[i]);
	sc_diag_free(&d);
	if (rc < 0) {
		if (rc != -EINVAL)
			fprintf(stderr, "%s: %s: %s\n", who, path,
				strerror(-rc));
		return NULL;
	}
	return sc;
}

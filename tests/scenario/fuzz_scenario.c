/*
 * fuzz_scenario.c: libFuzzer target for the scenario loader (built with
 * RECKON_FUZZ=ON). Each input is loaded as a scenario file through a
 * memfd; a file that loads must print a canonical form that loads back
 * and prints the same text, and a file that fails must say why. Seed it
 * with scenarios/ and tests/scenario/{valid,broken}/.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int to_memfd(const void *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("scenario", 0);

	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

static char *print(const struct scenario *sc)
{
	char *text = NULL;
	size_t n;
	FILE *f = open_memstream(&text, &n);

	if (f == NULL || scenario_print(f, sc) < 0)
		abort();
	fclose(f);
	return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], path2[64];
	struct scenario *sc = NULL, *again = NULL;
	struct sc_diag d = {0};
	int fd = to_memfd(data, size, path, sizeof(path));
	int rc = scenario_load(path, &sc, &d);

	if (rc == 0) {
		char *t1 = print(sc);
		int fd2 = to_memfd(t1, strlen(t1), path2, sizeof(path2));
		if (scenario_load(path2, &again, &d) != 0)
			abort(); /* canonical form rejected */
		char *t2 = print(again);
		/* identical after the first line, which names the file */
		if (strcmp(strchr(t1, '\n'), strchr(t2, '\n')) != 0)
			abort();
		free(t1);
		free(t2);
		scenario_free(again);
		scenario_free(sc);
		close(fd2);
	} else if (rc == -EINVAL && d.n == 0) {
		abort(); /* rejected without a message */
	}
	sc_diag_free(&d);
	close(fd);
	return 0;
}

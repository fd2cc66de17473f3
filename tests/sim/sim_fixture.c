/*
 * sim_fixture.c: helpers of the simulator's Criterion tests (see
 * sim_fixture.h).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim_fixture.h"

static char tmpdir[64];

const char *fx_tmpdir(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/reckon-sim-test.XXXXXX");
	cr_assert_not_null(mkdtemp(tmpdir));
	return tmpdir;
}

void fx_cleanup(void)
{
	if (tmpdir[0])
		fx_rmdir(tmpdir);
	tmpdir[0] = '\0';
}

static int rm_one(const char *p, const struct stat *sb, int type,
		  struct FTW *ftw)
{
	(void)sb;
	(void)type;
	(void)ftw;
	return remove(p);
}

void fx_rmdir(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void write_ini(const char *dir, const char *name, const char *text,
		      char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s.ini", dir, name);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
}

struct scenario *fx_load(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];
	struct sc_diag d = {0};
	struct scenario *sc = NULL;
	int rc;

	write_ini(dir, name, text, path, sizeof(path));
	rc = scenario_load(path, &sc, &d);
	cr_assert_eq(rc, 0, "%s: %s", path, d.n ? d.msg[0] : "(no message)");
	sc_diag_free(&d);
	return sc;
}

int fx_load_fail(const char *dir, const char *name, const char *text, char *msg,
		 size_t len)
{
	char path[PATH_MAX];
	struct sc_diag d = {0};
	struct scenario *sc = NULL;
	int rc;

	write_ini(dir, name, text, path, sizeof(path));
	rc = scenario_load(path, &sc, &d);
	snprintf(msg, len, "%s", d.n ? d.msg[0] : "");
	sc_diag_free(&d);
	scenario_free(sc);
	return rc;
}

char *fx_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf) {
		buf[n] = '\0';
		if (len)
			*len = (size_t)n;
	}
	return buf;
}

/* Index of name in a CSV header line, or -1. */
static int col_index(const char *header, const char *name)
{
	char buf[1024], *save = NULL;
	int i = 0;

	snprintf(buf, sizeof(buf), "%s", header);
	buf[strcspn(buf, "\n")] = '\0';
	for (char *t = strtok_r(buf, ",", &save); t;
	     t = strtok_r(NULL, ",", &save), i++)
		if (!strcmp(t, name))
			return i;
	return -1;
}

/* Field i of a CSV line (no quoting in these files) into out. */
static void field(const char *line, int i, char *out, size_t len)
{
	const char *p = line;

	for (int k = 0; k < i && p; k++) {
		p = strchr(p, ',');
		if (p)
			p++;
	}
	if (!p) {
		out[0] = '\0';
		return;
	}
	snprintf(out, len, "%.*s", (int)strcspn(p, ",\n"), p);
}

uint64_t fx_csv_sum(const char *path, const char *col, const char *filter,
		    const char *value)
{
	char *text = fx_slurp(path, NULL), *save = NULL, v[256];
	uint64_t sum = 0;
	int c, fcol = -1;
	char *line;

	cr_assert_not_null(text, "cannot read %s", path);
	line = strtok_r(text, "\n", &save);
	cr_assert_not_null(line, "%s is empty", path);
	c = col_index(line, col);
	cr_assert_geq(c, 0, "%s has no column %s", path, col);
	if (filter) {
		fcol = col_index(line, filter);
		cr_assert_geq(fcol, 0, "%s has no column %s", path, filter);
	}
	while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
		if (fcol >= 0) {
			field(line, fcol, v, sizeof(v));
			if (strcmp(v, value))
				continue;
		}
		field(line, c, v, sizeof(v));
		sum += strtoull(v, NULL, 10);
	}
	free(text);
	return sum;
}

double fx_csv_min(const char *path, const char *col)
{
	char *text = fx_slurp(path, NULL), *save = NULL, v[256];
	double min = INFINITY;
	char *line;
	int c;

	cr_assert_not_null(text, "cannot read %s", path);
	line = strtok_r(text, "\n", &save);
	cr_assert_not_null(line, "%s is empty", path);
	c = col_index(line, col);
	cr_assert_geq(c, 0, "%s has no column %s", path, col);
	while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
		field(line, c, v, sizeof(v));
		min = fmin(min, strtod(v, NULL));
	}
	free(text);
	return min;
}

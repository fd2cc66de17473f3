/*
 * sim_fixture.h: what the simulator's Criterion tests share: a private
 * temporary directory, a scenario written there and loaded with the real
 * loader, and readers for the files a repetition leaves behind.
 */
#ifndef RECKON_TEST_SIM_FIXTURE_H
#define RECKON_TEST_SIM_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "scenario.h"

/* mkdtemp under /tmp; the path is static. */
const char *fx_tmpdir(void);
/* rm -r of the directory. */
void fx_rmdir(const char *dir);
/* rm -r of the last fx_tmpdir, if any: a suite's .fini, so a test that
 * fails half-way leaves nothing behind. */
void fx_cleanup(void);

/* Write text to DIR/name.ini and load it; asserts success. */
struct scenario *fx_load(const char *dir, const char *name, const char *text);
/* Load that fails: returns the error and copies the first message. */
int fx_load_fail(const char *dir, const char *name, const char *text, char *msg,
		 size_t len);

/* A file's bytes (malloc'd, NUL terminated); NULL if it cannot be read. */
char *fx_slurp(const char *path, size_t *len);

/* Sum of column col over the data rows of a CSV file whose column
 * filter (may be NULL) equals value. */
uint64_t fx_csv_sum(const char *path, const char *col, const char *filter,
		    const char *value);

/* Smallest value of column col over the data rows of a CSV file. */
double fx_csv_min(const char *path, const char *col);

#endif

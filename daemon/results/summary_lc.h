/*
 * summary_lc.h: the lag-compensation part of the summary (summary_lc.c).
 * summary.c reads the fps-servers' lagcomp-HOST.csv files through it and
 * appends its columns and rows to summary.csv, summary.json and the
 * table. Private to daemon/results.
 */
#ifndef RECKON_SUMMARY_LC_H
#define RECKON_SUMMARY_LC_H

#include <stddef.h>
#include <stdio.h>

struct lc_sum;

struct lc_sum *lc_sum_new(void);
void lc_sum_free(struct lc_sum *s);

/* Read every lagcomp-*.csv of dir as repetition rep. 0 or -errno. */
int lc_sum_read_dir(struct lc_sum *s, const char *dir, unsigned rep);
/* Files read and rows refused. */
unsigned long lc_sum_files(const struct lc_sum *s);
unsigned long lc_sum_malformed(const struct lc_sum *s);

/* Means and 95% intervals of every group; 0 or -ENOMEM. */
int lc_sum_finish(struct lc_sum *s);

/* summary.csv, when lag-compensation files were read (a run without
 * them keeps the predictor columns alone): the header's
 * lag-compensation columns (each leading comma included), a predictor
 * row's empty cells for them, and the lag-compensation rows, each with
 * npred empty predictor cells. */
void lc_sum_csv_header(FILE *f);
void lc_sum_csv_blank(FILE *f);
void lc_sum_csv_rows(const struct lc_sum *s, FILE *f, unsigned npred);
/* summary.json: the rows, each preceded by a comma when first is 0. */
void lc_sum_json_rows(const struct lc_sum *s, FILE *f, int first);
/* The end-of-run table of the lag-compensation rows (nothing when
 * there are none). */
void lc_sum_table(const struct lc_sum *s, FILE *f);

#endif

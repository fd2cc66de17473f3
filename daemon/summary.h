/*
 * summary.h: the results of a run, aggregated. Every agent writes
 * metrics-HOST.csv into its repetition's directory (agents/io/metrics_io.c,
 * columns in docs/agents.md); summary_write reads them all and writes
 * summary.csv and summary.json into the run directory, one row per
 * predictor (with its parameters) and link condition: updates/s and
 * bytes/s per entity (each update counted once, not once per
 * destination), delivery ratio, mean/p50/p95/max position error and
 * the fraction of time over the error threshold, each as a mean over
 * repetitions with a 95% Student-t confidence interval, and prints the
 * same as a table (with the differing parameters when two rows share a
 * predictor). Library code: returns 0 or -errno, never logs.
 */
#ifndef RECKON_SUMMARY_H
#define RECKON_SUMMARY_H

#include <stddef.h>
#include <stdio.h>

/* Aggregate run_dir (repetitions == 1: its metrics files; > 1: those of
 * run_dir/rep-1 .. rep-N). table_out, if not NULL, gets the table.
 * -ENOENT: no metrics file at all; -EIO, -ENOMEM. Malformed rows are
 * skipped and counted in the JSON ("malformed_rows"). */
int summary_write(const char *run_dir, unsigned repetitions, FILE *table_out);

/* Two-sided 95% quantile of Student's t with df degrees of freedom
 * (t such that P(T <= t) = 0.975); NAN for df == 0. */
double summary_t975(unsigned df);

/* Mean of n values and the half-width of its 95% confidence interval,
 * t975(n - 1) * s / sqrt(n) with s the sample standard deviation; the
 * half-width is NAN when n < 2. -EINVAL when n == 0. */
int summary_ci95(const double *x, size_t n, double *mean, double *half);

#endif

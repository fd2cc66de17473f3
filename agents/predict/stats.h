/*
 * stats.h: the statistics Steele's paper (000 §VIII) reports, for the
 * replay experiment: mean and sample SD, Welch's unequal-variance t test
 * with its Welch-Satterthwaite df and two-sided p, and Cohen's d with the
 * simple pooled SD sqrt((s1^2 + s2^2) / 2). Pure.
 */
#ifndef RECKON_PREDICT_STATS_H
#define RECKON_PREDICT_STATS_H

#include <stddef.h>

struct predict_welch {
	double mean_a, sd_a, mean_b, sd_b;
	double t, df, p, d;
};

/* -EINVAL unless both samples have at least 2 values. */
int predict_welch(const double *a, size_t na, const double *b, size_t nb,
		  struct predict_welch *out);
/* Two-sided p of Student's t with df degrees of freedom. */
double predict_student_p(double t, double df);
/* Regularized incomplete beta I_x(a, b). */
double predict_ibeta(double a, double b, double x);

#endif

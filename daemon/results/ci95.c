/*
 * ci95.c: the 95% Student-t confidence interval of a mean, shared by the
 * summaries of the agents' metrics and of the lag-compensation metrics.
 * The t quantile is computed from the t distribution function through the
 * regularized incomplete beta function (continued fraction, evaluated by
 * the modified Lentz method), solved by bisection.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>

#include "results.h"

/* Continued fraction of the incomplete beta function I_x(a, b). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 500; m++) {
		double num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));

		d = 1 + num * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x /
		      ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + num * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		double del = d * c;

		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

/* Regularized incomplete beta I_x(a, b). */
static double beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

/* P(T <= t) for t >= 0 and df degrees of freedom. */
static double t_cdf(double t, double df)
{
	return 1 - 0.5 * beta_inc(df / 2, 0.5, df / (df + t * t));
}

double summary_t975(unsigned df)
{
	double lo = 0, hi = 1000;

	if (df == 0)
		return NAN;
	for (int i = 0; i < 200 && hi - lo > 1e-12; i++) {
		double mid = (lo + hi) / 2;

		if (t_cdf(mid, df) < 0.975)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

int summary_ci95(const double *x, size_t n, double *mean, double *half)
{
	double m = 0, ss = 0;

	if (!x || !mean || !half || n == 0)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		m += x[i];
	m /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	*mean = m;
	*half = n < 2 ? NAN
		      : summary_t975((unsigned)(n - 1)) *
				sqrt(ss / (double)(n - 1)) / sqrt((double)n);
	return 0;
}


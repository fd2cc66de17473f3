/*
 * stats.c: Welch's t test, its p value through the regularized incomplete
 * beta function (continued fraction evaluated by the modified Lentz
 * method), and Cohen's d, as Steele's paper (000 §VIII) reports them.
 */
#include <errno.h>
#include <math.h>

#include "predict/stats.h"

static void mean_sd(const double *v, size_t n, double *m, double *sd)
{
	double s = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	*m = s / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - *m) * (v[i] - *m);
	*sd = sqrt(ss / (double)(n - 1));
}

/* Continued fraction of I_x(a, b) (the standard even/odd terms). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0), h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1.0 / d;
	h = d;
	for (int m = 1; m <= 500; m++) {
		double m2 = 2.0 * m, num, del;

		num = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
		d = 1.0 + num * d;
		c = 1.0 + num / c;
		d = fabs(d) < tiny ? 1.0 / tiny : 1.0 / d;
		if (fabs(c) < tiny)
			c = tiny;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
		d = 1.0 + num * d;
		c = 1.0 + num / c;
		d = fabs(d) < tiny ? 1.0 / tiny : 1.0 / d;
		if (fabs(c) < tiny)
			c = tiny;
		del = d * c;
		h *= del;
		if (fabs(del - 1.0) < 1e-15)
			break;
	}
	return h;
}

double predict_ibeta(double a, double b, double x)
{
	double lbt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
	      b * log1p(-x);
	if (x < (a + 1.0) / (a + b + 2.0))
		return exp(lbt) * beta_cf(a, b, x) / a;
	return 1.0 - exp(lbt) * beta_cf(b, a, 1.0 - x) / b;
}

double predict_student_p(double t, double df)
{
	return predict_ibeta(0.5 * df, 0.5, df / (df + t * t));
}

int predict_welch(const double *a, size_t na, const double *b, size_t nb,
		  struct predict_welch *out)
{
	struct predict_welch w;
	double va, vb, se2;

	if (!a || !b || !out || na < 2 || nb < 2)
		return -EINVAL;
	mean_sd(a, na, &w.mean_a, &w.sd_a);
	mean_sd(b, nb, &w.mean_b, &w.sd_b);
	va = w.sd_a * w.sd_a / (double)na;
	vb = w.sd_b * w.sd_b / (double)nb;
	se2 = va + vb;
	if (!(se2 > 0))
		return -EDOM;
	w.t = (w.mean_a - w.mean_b) / sqrt(se2);
	w.df = se2 * se2 /
	       (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
	w.p = predict_student_p(w.t, w.df);
	w.d = fabs(w.mean_a - w.mean_b) /
	      sqrt(0.5 * (w.sd_a * w.sd_a + w.sd_b * w.sd_b));
	*out = w;
	return 0;
}

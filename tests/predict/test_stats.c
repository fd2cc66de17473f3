/*
 * test_stats.c: Welch's t test, Student's t p values and Cohen's d as
 * reported by Steele (paper 000 §VIII), against closed forms and values
 * computed by hand in the comments.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>

#include "predict/stats.h"

Test(stats, student_p_closed_forms)
{
	/* df = 1 (Cauchy): p = 1 - 2 atan(t) / pi. df = 2: p = 1 - t /
	 * sqrt(t^2 + 2). */
	double ts[] = {0.1, 0.5, 1, 2, 5, 30};

	for (int i = 0; i < 6; i++) {
		double t = ts[i];

		cr_expect(fabs(predict_student_p(t, 1) -
			       (1 - 2 * atan(t) / M_PI)) < 1e-12,
			  "df 1 t %g", t);
		cr_expect(fabs(predict_student_p(t, 2) -
			       (1 - t / sqrt(t * t + 2))) < 1e-12,
			  "df 2 t %g", t);
		cr_expect(fabs(predict_student_p(-t, 2) -
			       predict_student_p(t, 2)) < 1e-15);
	}
	cr_expect_eq(predict_student_p(0, 10), 1.0);
}

Test(stats, student_p_table_values)
{
	/* Two-sided 5 % critical values: t(10) = 2.228138852, t(30) =
	 * 2.042272456 (standard tables, 10 digits). */
	cr_expect(fabs(predict_student_p(2.228138852, 10) - 0.05) < 1e-9);
	cr_expect(fabs(predict_student_p(2.042272456, 30) - 0.05) < 1e-9);
}

Test(stats, welch_by_hand)
{
	/* a = 1..5: mean 3, var 2.5; b = 2,4,..,10: mean 6, var 10.
	 * se^2 = 2.5/5 + 10/5 = 2.5, t = -3 / sqrt(2.5) = -1.8973666;
	 * df = 2.5^2 / (0.5^2/4 + 2^2/4) = 6.25 / 1.0625 = 5.8823529;
	 * d = 3 / sqrt((2.5 + 10) / 2) = 1.2. */
	double a[] = {1, 2, 3, 4, 5}, b[] = {2, 4, 6, 8, 10};
	struct predict_welch w;

	cr_assert_eq(predict_welch(a, 5, b, 5, &w), 0);
	cr_expect(fabs(w.mean_a - 3) < 1e-15);
	cr_expect(fabs(w.sd_b - sqrt(10)) < 1e-14);
	cr_expect(fabs(w.t + 3 / sqrt(2.5)) < 1e-12);
	cr_expect(fabs(w.df - 6.25 / 1.0625) < 1e-12);
	cr_expect(fabs(w.d - 1.2) < 1e-12);
	cr_expect(w.p > 0.1 && w.p < 0.12, "p %g", w.p);
	cr_expect_eq(predict_welch(a, 1, b, 5, &w), -EINVAL);
	cr_expect_eq(predict_welch(a, 2, a, 2, &w), 0);
	double c[] = {1, 1, 1};

	cr_expect_eq(predict_welch(c, 3, c, 3, &w), -EDOM);
}

/*
 * test_params.c: the predictor registry and the key=value parameter
 * tables: defaults, range checking (-ERANGE), unknown keys (-ENOENT),
 * malformed values (-EINVAL), nothing changed on error, the canonical
 * string round trip, the markdown table, and that every registered
 * predictor's defaults lie inside its own ranges.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "predict/predict.h"

Test(params, registry)
{
	const struct predictor *all[8];
	size_t n = predict_list(all, 8);

	cr_assert_geq(n, 2);
	cr_expect_eq(predict_find("dis"), &predict_dis);
	cr_expect_eq(predict_find("led"), &predict_led);
	cr_expect_null(predict_find("nope"));
	cr_expect_null(predict_find(NULL));
	for (size_t i = 0; i < n && i < 8; i++)
		cr_expect_eq(predict_find(all[i]->name), all[i]);
}

Test(params, defaults_inside_ranges)
{
	const struct predictor *all[8];
	size_t n = predict_list(all, 8);

	for (size_t i = 0; i < n && i < 8; i++) {
		const struct predictor *p = all[i];

		cr_assert_leq(p->n_params, PREDICT_MAX_PARAMS);
		for (size_t j = 0; j < p->n_params; j++) {
			const struct predict_param *d = &p->params[j];

			cr_expect(d->key && d->doc && d->doc[0], "%s", p->name);
			if (d->type == PREDICT_PARAM_ENUM) {
				size_t c = 0;

				while (d->choices[c])
					c++;
				cr_expect_lt(d->def, (double)c, "%s.%s",
					     p->name, d->key);
			} else {
				cr_expect(d->def >= d->min && d->def <= d->max,
					  "%s.%s", p->name, d->key);
			}
			for (size_t k = j + 1; k < p->n_params; k++)
				cr_expect_neq(strcmp(d->key, p->params[k].key),
					      0);
		}
	}
}

Test(params, set_and_check)
{
	struct predict_params par, before;
	double v;

	cr_assert_eq(predict_params_init(&par, &predict_dis), 0);
	cr_assert_eq(predict_params_get(&par, "heartbeat", &v), 0);
	cr_expect_eq(v, 5.0);
	cr_assert_eq(predict_params_get(&par, "orient_threshold", &v), 0);
	cr_expect_eq(v, 3.0);
	cr_expect_eq(predict_params_set(&par, "heartbeat", "2.5"), 0);
	predict_params_get(&par, "heartbeat", &v);
	cr_expect_eq(v, 2.5);
	cr_expect_eq(predict_params_set_kv(&par, "algorithm=rvb"), 0);
	predict_params_get(&par, "algorithm", &v);
	cr_expect_eq(v, 7.0); /* index of "rvb" */

	before = par;
	cr_expect_eq(predict_params_set(&par, "heartbeat", "-1"), -ERANGE);
	cr_expect_eq(predict_params_set(&par, "heartbeat", "3601"), -ERANGE);
	cr_expect_eq(predict_params_set(&par, "pos_threshold", "0"), -ERANGE);
	cr_expect_eq(predict_params_set(&par, "heartbeat", "abc"), -EINVAL);
	cr_expect_eq(predict_params_set(&par, "heartbeat", "1.5x"), -EINVAL);
	cr_expect_eq(predict_params_set(&par, "heartbeat", ""), -EINVAL);
	cr_expect_eq(predict_params_set(&par, "heartbeat", "nan"), -EINVAL);
	cr_expect_eq(predict_params_set(&par, "heartbeat", "1e999"), -EINVAL);
	cr_expect_eq(predict_params_set(&par, "algorithm", "xyz"), -EINVAL);
	cr_expect_eq(predict_params_set(&par, "nosuch", "1"), -ENOENT);
	cr_expect_eq(predict_params_set_kv(&par, "heartbeat"), -EINVAL);
	cr_expect_eq(predict_params_set_kv(&par, "=3"), -EINVAL);
	cr_expect_eq(predict_params_set_kv(&par, "heartbeatx=3"), -ENOENT);
	cr_expect_eq(predict_params_set_kv(&par, "heart=3"), -ENOENT);
	cr_expect_eq(memcmp(&before, &par, sizeof(par)), 0);
}

Test(params, bool_and_int_forms)
{
	struct predict_params par;
	double v;

	cr_assert_eq(predict_params_init(&par, &predict_led), 0);
	cr_expect_eq(predict_params_set(&par, "accel", "off"), 0);
	predict_params_get(&par, "accel", &v);
	cr_expect_eq(v, 0.0);
	cr_expect_eq(predict_params_set(&par, "accel", "yes"), 0);
	predict_params_get(&par, "accel", &v);
	cr_expect_eq(v, 1.0);
	cr_expect_eq(predict_params_set(&par, "accel", "2"), -EINVAL);
	cr_expect_eq(predict_params_set(&par, "empty_c", "1.01"), -ERANGE);
}

Test(params, format_round_trip)
{
	struct predict_params a, b;
	char buf[1024], *save, *tok;

	cr_assert_eq(predict_params_init(&a, &predict_dis), 0);
	cr_assert_eq(predict_params_set_kv(&a, "algorithm=fvb"), 0);
	cr_assert_eq(predict_params_set_kv(&a, "blend=0.123456789"), 0);
	cr_assert_eq(predict_params_set_kv(&a, "convergence=pvb"), 0);
	cr_assert_eq(predict_params_format(&a, buf, sizeof(buf)), 0);
	cr_expect(strstr(buf, "algorithm=fvb") != NULL, "%s", buf);
	cr_expect(strstr(buf, "convergence=pvb") != NULL, "%s", buf);
	cr_assert_eq(predict_params_init(&b, &predict_dis), 0);
	for (tok = strtok_r(buf, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save))
		cr_expect_eq(predict_params_set_kv(&b, tok), 0, "%s", tok);
	cr_expect_eq(memcmp(a.v, b.v, sizeof(a.v)), 0);
	memset(buf, 'X', sizeof(buf));
	cr_expect_eq(predict_params_format(&a, buf, 10), -ENOSPC);
	cr_expect_eq(buf[0], 'X'); /* not written on error */
}

Test(params, markdown_table)
{
	static char buf[8192];

	cr_assert_eq(predict_params_doc(&predict_led, buf, sizeof(buf)), 0);
	cr_expect(strncmp(buf, "| key |", 7) == 0);
	for (size_t i = 0; i < predict_led.n_params; i++) {
		char key[64];

		snprintf(key, sizeof(key), "| `%s` |",
			 predict_led.params[i].key);
		cr_expect(strstr(buf, key) != NULL, "%s", key);
	}
	cr_expect(strstr(buf, "| `eta_min` | 5 | 0.001 … 1000000 | u |") !=
		  NULL);
	cr_expect_eq(predict_params_doc(&predict_led, buf, 64), -ENOSPC);
}

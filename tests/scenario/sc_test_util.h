/*
 * sc_test_util.h: helpers shared by the scenario loader's Criterion tests:
 * write a scenario text to a temporary file, load it, and compare two
 * loaded scenarios field by field.
 */
#ifndef RECKON_SC_TEST_UTIL_H
#define RECKON_SC_TEST_UTIL_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scenario.h"

/* Write text to a fresh temporary .ini file; path receives its name. */
static inline void sc_write_tmp(const char *text, char *path, size_t len)
{
	snprintf(path, len, "/tmp/reckon-sc-test-XXXXXX.ini");
	int fd = mkstemps(path, 4);
	cr_assert(fd >= 0, "mkstemps");
	size_t n = strlen(text);
	cr_assert_eq(write(fd, text, n), (ssize_t)n);
	close(fd);
}

/* Load text as a scenario; returns scenario_load's result. */
static inline int sc_load_text(const char *text, struct scenario **sc,
			       struct sc_diag *d)
{
	char path[64];
	sc_write_tmp(text, path, sizeof(path));
	int rc = scenario_load(path, sc, d);
	unlink(path);
	return rc;
}

/* Assert that a and b describe the same scenario (path excepted). */
static inline void sc_assert_same(const struct scenario *a,
				  const struct scenario *b)
{
	cr_assert_str_eq(a->name, b->name);
	cr_assert_eq(a->seed, b->seed);
	cr_assert_eq(a->duration_ns, b->duration_ns);
	cr_assert_eq(a->repetitions, b->repetitions);
	cr_assert_eq(a->backend, b->backend);
	cr_assert_eq(a->mode, b->mode);
	cr_assert_str_eq(a->results_dir, b->results_dir);
	cr_assert_str_eq(a->subnet, b->subnet);
	cr_assert_eq(a->nhosts, b->nhosts);
	for (unsigned i = 0; i < a->nhosts; i++) {
		const struct sc_host *x = &a->hosts[i], *y = &b->hosts[i];
		cr_assert_str_eq(x->name, y->name);
		cr_assert_str_eq(x->role, y->role);
		cr_assert_str_eq(x->args, y->args);
		cr_assert_str_eq(x->exec, y->exec);
		cr_assert_str_eq(x->args_text, y->args_text);
		cr_assert_str_eq(x->exec_text, y->exec_text);
		cr_assert_str_eq(x->addr, y->addr);
		cr_assert_eq(x->index, y->index);
		cr_assert_str_eq(x->built, y->built);
		cr_assert_eq(x->nto, y->nto);
	}
	cr_assert_eq(a->nlinks, b->nlinks);
	for (unsigned i = 0; i < a->nlinks; i++) {
		const struct sc_link *x = &a->links[i], *y = &b->links[i];
		cr_assert_eq(x->a, y->a);
		cr_assert_eq(x->b, y->b);
		cr_assert_eq(x->from_defaults, y->from_defaults);
		cr_assert(netem_spec_equal(&x->fwd, &y->fwd), "link %u fwd", i);
		cr_assert(netem_spec_equal(&x->rev, &y->rev), "link %u rev", i);
		cr_assert_str_eq(x->label, y->label);
	}
	cr_assert_eq(a->nchanges, b->nchanges);
	for (unsigned i = 0; i < a->nchanges; i++) {
		const struct sc_change *x = &a->changes[i], *y = &b->changes[i];
		cr_assert_eq(x->at_ns, y->at_ns);
		cr_assert_eq(x->src, y->src);
		cr_assert_eq(x->dst, y->dst);
		cr_assert(netem_spec_equal(&x->spec, &y->spec), "change %u", i);
	}
	cr_assert_eq(a->capture.enabled, b->capture.enabled);
	cr_assert_eq(a->capture.before, b->capture.before);
	cr_assert_eq(a->capture.after, b->capture.after);
	cr_assert_eq(a->capture.snaplen, b->capture.snaplen);
	cr_assert_eq(a->capture.max_bytes, b->capture.max_bytes);
	cr_assert_str_eq(a->default_label, b->default_label);
	cr_assert_eq(a->game.present, b->game.present);
	cr_assert_str_eq(a->game.map, b->game.map);
	cr_assert_str_eq(a->game.trace, b->game.trace);
	cr_assert_eq(a->game.bots, b->game.bots);
	cr_assert_eq(a->game.play_ns, b->game.play_ns);
	cr_assert_eq(a->game.tick_hz, b->game.tick_hz);
	cr_assert_eq(a->game.topology, b->game.topology);
	cr_assert_eq(a->npredictors, b->npredictors);
	for (unsigned i = 0; i < a->npredictors; i++) {
		const struct sc_predictor *x = &a->predictors[i],
					  *y = &b->predictors[i];
		cr_assert_str_eq(x->name, y->name);
		cr_assert_eq(x->par.p, y->par.p);
		for (size_t k = 0; k < x->par.p->n_params; k++)
			cr_assert_eq(x->par.v[k], y->par.v[k], "%s %s",
				     x->name, x->par.p->params[k].key);
	}
	cr_assert_eq(a->has_default_link, b->has_default_link);
	if (a->has_default_link)
		cr_assert(netem_spec_equal(&a->default_link, &b->default_link));
}

#endif

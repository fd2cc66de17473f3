/*
 * scenario_linkparams.c: the link parameters a [sweep] axis can vary, as
 * a table: each parameter's netem words, what the link must already have
 * for a value to mean something, and the struct netem_spec fields a value
 * fills. Axis values are parsed by netem_spec_parse, so they take netem's
 * units and limits (docs/sweeps.md).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "scenario_int.h"
#include "util.h"

/*
 * The link parameters an axis can vary: every value a netem spec carries
 * (docs/netem.md). Each is given by the netem words that carry one value
 * ("delay 1ms %s" for jitter), so a value is parsed by netem_spec_parse
 * with netem's units and limits, and by the fields of struct netem_spec
 * that the parsed words fill and that an axis value copies into a link.
 * `need` says what the link must already have for the value to mean
 * something (a gap needs reordering); `pre` switches a link to the loss
 * model or slot form the parameter belongs to. The first SC_LP_COUNT
 * entries are enum sc_link_param (scenario.h) in its order; the others
 * have indices past it (see scenario_int.h).
 */
enum lp_need {
	LP_ANY,
	LP_RANDOM,     /* random loss */
	LP_GEMODEL,    /* Gilbert-Elliott loss */
	LP_STATE,      /* 4-state loss */
	LP_REORDER,    /* reorder P > 0 */
	LP_RATE,       /* rate > 0 */
	LP_SLOT,       /* slot, either form */
	LP_SLOT_RANGE, /* slot MIN MAX */
	LP_SLOT_DIST,  /* slot distribution NAME DELAY JITTER */
};

static const char *const lp_need_text[] = {
	[LP_RANDOM] = "random loss on the link (loss P in its spec, or a "
		      "loss axis before this one)",
	[LP_GEMODEL] = "gemodel loss on the link (loss gemodel in its spec, "
		       "or a ge_p axis before this one)",
	[LP_STATE] = "4-state loss on the link (loss state in its spec, or a "
		     "p13 axis before this one)",
	[LP_REORDER] = "reordering on the link (reorder P in its spec, or a "
		       "reorder axis before this one)",
	[LP_RATE] = "a rate on the link (rate in its spec, or a rate axis "
		    "before this one)",
	[LP_SLOT] = "slots on the link (slot in its spec, or a slot axis "
		    "before this one)",
	[LP_SLOT_RANGE] = "slot MIN MAX on the link (in its spec, or a slot "
			  "axis before this one)",
	[LP_SLOT_DIST] = "slot distribution on the link (slot distribution "
			 "NAME DELAY JITTER in its spec)",
};

struct lp_def {
	const char *name;
	const char *text; /* the netem words; %s is the value */
	enum lp_need need;
	void (*pre)(struct netem_spec *s, const struct netem_spec *v);
	size_t off[2], len[2]; /* fields copied from the parsed words */
};

#define F(f) offsetof(struct netem_spec, f)
#define L(f) sizeof(((struct netem_spec *)0)->f)
#define ONE(f)                                                                 \
	{F(f), 0},                                                             \
	{                                                                      \
		L(f), 0                                                        \
	}
#define TWO(f, g)                                                              \
	{F(f), F(g)},                                                          \
	{                                                                      \
		L(f), L(g)                                                     \
	}

/* Switching a link to another loss model forgets the old model's
 * values, as a spec written with the new model would. */
static void clear_loss(struct netem_spec *s, enum netem_loss_model m)
{
	s->loss = s->loss_corr = 0;
	s->p13 = s->p31 = s->p32 = s->p23 = s->p14 = 0;
	s->ge_p = s->ge_r = s->ge_1h = s->ge_1k = 0;
	s->loss_model = m;
}

static void pre_random(struct netem_spec *s, const struct netem_spec *v)
{
	(void)v;
	if (s->loss_model != NETEM_LOSS_RANDOM)
		clear_loss(s, NETEM_LOSS_RANDOM);
}

/* ge_p on a link with another model: gemodel with tc's defaults. */
static void pre_gemodel(struct netem_spec *s, const struct netem_spec *v)
{
	if (s->loss_model == NETEM_LOSS_GEMODEL)
		return;
	clear_loss(s, NETEM_LOSS_GEMODEL);
	s->ge_r = v->ge_r;
	s->ge_1h = v->ge_1h;
	s->ge_1k = v->ge_1k;
}

/* p13 on a link with another model: 4-state loss with tc's defaults. */
static void pre_state(struct netem_spec *s, const struct netem_spec *v)
{
	if (s->loss_model == NETEM_LOSS_STATE)
		return;
	clear_loss(s, NETEM_LOSS_STATE);
	s->p31 = v->p31;
	s->p32 = v->p32;
	s->p23 = v->p23;
	s->p14 = v->p14;
}

/* slot V: fixed spacing MIN = MAX = V, keeping packets and bytes. */
static void pre_slot(struct netem_spec *s, const struct netem_spec *v)
{
	(void)v;
	s->slot = 1;
	s->slot_use_dist = 0;
	s->slot_dist = NETEM_DIST_UNIFORM;
	memset(s->slot_dist_name, 0, sizeof(s->slot_dist_name));
	s->slot_dist_delay_ns = s->slot_dist_jitter_ns = 0;
}

static const struct lp_def lp_defs[] = {
	[SC_LP_DELAY] = {"delay", "delay %s", LP_ANY, NULL, ONE(latency_ns)},
	[SC_LP_JITTER] = {"jitter", "delay 1ms %s", LP_ANY, NULL,
			  ONE(jitter_ns)},
	[SC_LP_DELAY_CORR] = {"delay_corr", "delay 1ms 1ms %s", LP_ANY, NULL,
			      ONE(delay_corr)},
	[SC_LP_LOSS] = {"loss", "loss %s", LP_ANY, pre_random, ONE(loss)},
	[SC_LP_LOSS_CORR] = {"loss_corr", "loss 1% %s", LP_RANDOM, NULL,
			     ONE(loss_corr)},
	[SC_LP_GE_P] = {"ge_p", "loss gemodel %s", LP_ANY, pre_gemodel,
			ONE(ge_p)},
	[SC_LP_GE_R] = {"ge_r", "loss gemodel 1% %s", LP_GEMODEL, NULL,
			ONE(ge_r)},
	[SC_LP_GE_1H] = {"ge_1h", "loss gemodel 1% 1% %s", LP_GEMODEL, NULL,
			 ONE(ge_1h)},
	[SC_LP_GE_1K] = {"ge_1k", "loss gemodel 1% 1% 1% %s", LP_GEMODEL, NULL,
			 ONE(ge_1k)},
	[SC_LP_DUPLICATE] = {"duplicate", "duplicate %s", LP_ANY, NULL,
			     ONE(duplicate)},
	[SC_LP_CORRUPT] = {"corrupt", "corrupt %s", LP_ANY, NULL, ONE(corrupt)},
	[SC_LP_REORDER] = {"reorder", "delay 1ms reorder %s", LP_ANY, NULL,
			   ONE(reorder)},
	[SC_LP_RATE] = {"rate", "rate %s", LP_ANY, NULL, ONE(rate)},
	[SC_LP_LIMIT] = {"limit", "limit %s", LP_ANY, NULL, ONE(limit)},
	/* past enum sc_link_param */
	{"distribution", "delay 1ms 1ms distribution %s", LP_ANY, NULL,
	 TWO(dist, dist_name)},
	{"jitter_mode", "jitter %s", LP_ANY, NULL, ONE(jitter_mode)},
	{"p13", "loss state %s", LP_ANY, pre_state, ONE(p13)},
	{"p31", "loss state 1% %s", LP_STATE, NULL, ONE(p31)},
	{"p32", "loss state 1% 1% %s", LP_STATE, NULL, ONE(p32)},
	{"p23", "loss state 1% 1% 1% %s", LP_STATE, NULL, ONE(p23)},
	{"p14", "loss state 1% 1% 1% 1% %s", LP_STATE, NULL, ONE(p14)},
	{"ecn", NULL, LP_ANY, NULL, ONE(ecn)}, /* on, off: see lp_parse */
	{"duplicate_corr", "duplicate 1% %s", LP_ANY, NULL,
	 ONE(duplicate_corr)},
	{"corrupt_corr", "corrupt 1% %s", LP_ANY, NULL, ONE(corrupt_corr)},
	{"reorder_corr", "delay 1ms reorder 1% %s", LP_ANY, NULL,
	 ONE(reorder_corr)},
	{"gap", "delay 1ms reorder 1% gap %s", LP_REORDER, NULL, ONE(gap)},
	{"overhead", "rate 1mbit %s", LP_RATE, NULL, ONE(packet_overhead)},
	{"cellsize", "rate 1mbit 0 %s", LP_RATE, NULL, ONE(cell_size)},
	{"celloverhead", "rate 1mbit 0 1 %s", LP_RATE, NULL,
	 ONE(cell_overhead)},
	{"slot", "slot %s", LP_ANY, pre_slot, TWO(slot_min_ns, slot_max_ns)},
	{"slot_min", "slot %s", LP_SLOT_RANGE, NULL, ONE(slot_min_ns)},
	{"slot_max", "slot 0ms %s", LP_SLOT_RANGE, NULL, ONE(slot_max_ns)},
	{"slot_packets", "slot 1ms packets %s", LP_SLOT, NULL,
	 ONE(slot_packets)},
	{"slot_bytes", "slot 1ms bytes %s", LP_SLOT, NULL, ONE(slot_bytes)},
	{"slot_dist", "slot distribution %s 1ms 1ms", LP_SLOT_DIST, NULL,
	 TWO(slot_dist, slot_dist_name)},
	{"slot_delay", "slot distribution normal %s 1ms", LP_SLOT_DIST, NULL,
	 ONE(slot_dist_delay_ns)},
	{"slot_jitter", "slot distribution normal 1ms %s", LP_SLOT_DIST, NULL,
	 ONE(slot_dist_jitter_ns)},
};

#undef F
#undef L
#undef ONE
#undef TWO

#define LP_N (sizeof(lp_defs) / sizeof(lp_defs[0]))
_Static_assert(LP_N <= SC_LP_TABLE_MAX, "SC_LP_TABLE_MAX too small");

/* The enum's names, for scenario.h's users: the table's first entries
 * (tests/sweep checks that they agree). */
const char *const scenario_link_param_names[SC_LP_COUNT] = {
	[SC_LP_DELAY] = "delay",
	[SC_LP_JITTER] = "jitter",
	[SC_LP_DELAY_CORR] = "delay_corr",
	[SC_LP_LOSS] = "loss",
	[SC_LP_LOSS_CORR] = "loss_corr",
	[SC_LP_GE_P] = "ge_p",
	[SC_LP_GE_R] = "ge_r",
	[SC_LP_GE_1H] = "ge_1h",
	[SC_LP_GE_1K] = "ge_1k",
	[SC_LP_DUPLICATE] = "duplicate",
	[SC_LP_CORRUPT] = "corrupt",
	[SC_LP_REORDER] = "reorder",
	[SC_LP_RATE] = "rate",
	[SC_LP_LIMIT] = "limit",
};

unsigned sc_sweep_link_params(void)
{
	return (unsigned)LP_N;
}

const char *sc_sweep_link_param(unsigned p)
{
	return p < LP_N ? lp_defs[p].name : NULL;
}

int sc_lp_find(const char *name)
{
	for (unsigned i = 0; i < LP_N; i++)
		if (strcmp(name, lp_defs[i].name) == 0)
			return (int)i;
	return -1;
}

const char *sc_lp_name(const struct sc_axis *a)
{
	return lp_defs[(unsigned)a->param].name;
}

int sc_lp_parse(unsigned p, const char *val, struct netem_spec *out, char *err,
		size_t errlen)
{
	const struct lp_def *d = &lp_defs[p];
	char text[SC_SWEEP_VAL_MAX + 64];
	struct netem_spec v;
	int rc;

	if (d->text == NULL) { /* ecn */
		if (strcmp(val, "on") && strcmp(val, "off")) {
			snprintf(err, errlen, "ecn: '%s' is not on or off",
				 val);
			return -EINVAL;
		}
		snprintf(text, sizeof(text), "loss 1%%%s",
			 strcmp(val, "on") ? "" : " ecn");
	} else {
		const char *at = strstr(d->text, "%s");

		snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - d->text),
			 d->text, val, at + 2);
	}
	if ((rc = netem_spec_parse(text, &v, err, errlen)) < 0)
		return rc;
	if (v.dist == NETEM_DIST_CUSTOM ||
	    (v.slot_use_dist && v.slot_dist == NETEM_DIST_CUSTOM)) {
		snprintf(err, errlen,
			 "%s: '%s' is not a built-in distribution (uniform, "
			 "normal, pareto, paretonormal)",
			 d->name, val);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int lp_has(const struct netem_spec *s, enum lp_need n)
{
	switch (n) {
	case LP_ANY:
		return 1;
	case LP_RANDOM:
		return s->loss_model == NETEM_LOSS_RANDOM;
	case LP_GEMODEL:
		return s->loss_model == NETEM_LOSS_GEMODEL;
	case LP_STATE:
		return s->loss_model == NETEM_LOSS_STATE;
	case LP_REORDER:
		return s->reorder != 0;
	case LP_RATE:
		return s->rate != 0;
	case LP_SLOT:
		return s->slot;
	case LP_SLOT_RANGE:
		return s->slot && !s->slot_use_dist;
	case LP_SLOT_DIST:
		return s->slot && s->slot_use_dist;
	}
	return 0;
}

/* Write parameter p of v (its parsed words) into s. Returns 0, or
 * -EINVAL with a reason when s lacks what p refines. */
int sc_lp_set(struct netem_spec *s, unsigned p, const struct netem_spec *v,
	      char *err, size_t errlen)
{
	const struct lp_def *d = &lp_defs[p];

	if (!lp_has(s, d->need)) {
		snprintf(err, errlen, "%s needs %s", d->name,
			 lp_need_text[d->need]);
		return -EINVAL;
	}
	if (d->pre)
		d->pre(s, v);
	for (int i = 0; i < 2 && d->len[i]; i++)
		memcpy((char *)s + d->off[i], (const char *)v + d->off[i],
		       d->len[i]);
	return 0;
}

/* A spec is valid when its canonical text parses back (netem's own
 * checks: reorder needs a delay, and so on). */
int sc_spec_check(const struct netem_spec *s, char *err, size_t errlen)
{
	char text[1024];
	struct netem_spec back;
	int n = netem_spec_print(s, text, sizeof(text));

	if (n < 0 || (size_t)n >= sizeof(text)) {
		snprintf(err, errlen, "spec too long");
		return -EINVAL;
	}
	return netem_spec_parse(text, &back, err, errlen);
}

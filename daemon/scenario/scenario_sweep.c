/*
 * scenario_sweep.c: the [sweep] section of a scenario. It reads axis keys
 * (link.PARAM, link.SRC>DST.PARAM, predictor.NAME.KEY) whose values are
 * lists and "A..B step S" ranges, checks every value against the links
 * and hosts it touches once the file is read, and builds the scenario of
 * one grid point: a deep copy with each axis value written into the netem
 * specs (links, defaults, schedule changes) and into the hosts'
 * --predictor arguments. The grid order, seeds and syntax are documented
 * in docs/sweeps.md.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "util.h"
#include "scenario_int.h"

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
 * have indices past it (see scenario_sweep.h).
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

static int lp_find(const char *name)
{
	for (unsigned i = 0; i < LP_N; i++)
		if (strcmp(name, lp_defs[i].name) == 0)
			return (int)i;
	return -1;
}

static const char *lp_name(const struct sc_axis *a)
{
	return lp_defs[(unsigned)a->param].name;
}

static int lp_parse(unsigned p, const char *val, struct netem_spec *out,
		    char *err, size_t errlen)
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
static int lp_set(struct netem_spec *s, unsigned p, const struct netem_spec *v,
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
static int spec_check(const struct netem_spec *s, char *err, size_t errlen)
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

/* ---- values: lists and ranges ---- */

static int value_ok(const char *v)
{
	if (!*v || strlen(v) >= SC_SWEEP_VAL_MAX)
		return 0;
	for (; *v; v++)
		if (!isalnum((unsigned char)*v) && !strchr("._+-%", *v))
			return 0;
	return 1;
}

/* "12.5ms" -> 12.5 and "ms". */
static int split_num(const char *s, double *x, const char **unit)
{
	char *end;

	errno = 0;
	*x = strtod(s, &end);
	if (end == s || errno || !isfinite(*x))
		return -EINVAL;
	for (const char *u = end; *u; u++)
		if (!isalpha((unsigned char)*u) && *u != '%')
			return -EINVAL;
	*unit = end;
	return 0;
}

static int push_value(struct sc_axis *a, const char *v, char *err,
		      size_t errlen)
{
	if (!value_ok(v)) {
		snprintf(err, errlen,
			 "'%s' is not a value (up to %d letters, digits, "
			 "'.', '_', '+', '-', '%%')",
			 v, SC_SWEEP_VAL_MAX - 1);
		return -EINVAL;
	}
	for (unsigned i = 0; i < a->nvalues; i++)
		if (strcmp(a->values[i], v) == 0) {
			snprintf(err, errlen, "'%s' is given twice", v);
			return -EINVAL;
		}
	if (a->nvalues == SC_SWEEP_MAX_VALUES) {
		snprintf(err, errlen, "more than %d values",
			 SC_SWEEP_MAX_VALUES);
		return -EINVAL;
	}
	if (a->nvalues % 16 == 0) {
		void *n = realloc(a->values,
				  (a->nvalues + 16) * sizeof(*a->values));
		if (n == NULL) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		a->values = n;
	}
	snprintf(a->values[a->nvalues++], SC_SWEEP_VAL_MAX, "%s", v);
	return 0;
}

/* "A..B step S": A, A+S, A+2S, ... up to B (inclusive, within 1e-9 S). */
static int push_range(struct sc_axis *a, const char *r, const char *step,
		      char *err, size_t errlen)
{
	char lo_s[SC_SWEEP_VAL_MAX], buf[64];
	const char *dots = strstr(r, ".."), *ul, *uh, *us;
	double lo, hi, st;
	size_t n;

	if (dots == NULL || (size_t)(dots - r) >= sizeof(lo_s))
		goto bad;
	memcpy(lo_s, r, (size_t)(dots - r));
	lo_s[dots - r] = '\0';
	if (split_num(lo_s, &lo, &ul) || split_num(dots + 2, &hi, &uh) ||
	    step == NULL || split_num(step, &st, &us))
		goto bad;
	if (strcmp(ul, uh) != 0 || (*us && strcmp(us, ul) != 0)) {
		snprintf(err, errlen,
			 "'%s step %s': the ends and the step must have the "
			 "same unit",
			 r, step);
		return -EINVAL;
	}
	if (!(st > 0) || hi < lo) {
		snprintf(err, errlen,
			 "'%s step %s': needs A <= B and a step above 0", r,
			 step);
		return -EINVAL;
	}
	if ((hi - lo) / st + 1 > SC_SWEEP_MAX_VALUES) {
		snprintf(err, errlen, "'%s step %s': more than %d values", r,
			 step, SC_SWEEP_MAX_VALUES);
		return -EINVAL;
	}
	n = (size_t)floor((hi - lo) / st + 1e-9) + 1;
	for (size_t i = 0; i < n; i++) {
		double x = lo + (double)i * st;
		int rc;

		if (fabs(x) < 1e-12 * st)
			x = 0; /* no "-0" or 1e-17 from rounding */
		snprintf(buf, sizeof(buf), "%.10g%s", x, ul);
		if ((rc = push_value(a, buf, err, errlen)) < 0)
			return rc;
	}
	return 0;
bad:
	snprintf(err, errlen,
		 "'%s': a range is A..B step S (numbers with the same unit, "
		 "like 0ms..100ms step 25ms)",
		 r);
	return -EINVAL;
}

static int parse_values(struct sc_axis *a, const char *val, char *err,
			size_t errlen)
{
	char *copy = strdup(val), *save = NULL, *tok;
	int rc = 0;

	if (copy == NULL) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (tok = strtok_r(copy, " \t", &save); tok && rc == 0;
	     tok = strtok_r(NULL, " \t", &save)) {
		if (strstr(tok, "..")) {
			char *kw = strtok_r(NULL, " \t", &save);
			char *st = kw ? strtok_r(NULL, " \t", &save) : NULL;

			if (kw == NULL || strcmp(kw, "step") != 0)
				st = NULL;
			rc = push_range(a, tok, st, err, errlen);
		} else if (strcmp(tok, "step") == 0) {
			snprintf(err, errlen, "'step' without a range A..B");
			rc = -EINVAL;
		} else {
			rc = push_value(a, tok, err, errlen);
		}
	}
	free(copy);
	if (rc == 0 && a->nvalues == 0) {
		snprintf(err, errlen, "no values");
		rc = -EINVAL;
	}
	return rc;
}

/* ---- keys ---- */

static int word_ok(const char *s)
{
	if (!*s || strlen(s) >= SC_NAME_MAX)
		return 0;
	for (; *s; s++)
		if (!islower((unsigned char)*s) &&
		    !isdigit((unsigned char)*s) && *s != '_' && *s != '-')
			return 0;
	return 1;
}

int sc_sweep_new(struct sc_loader *L, const struct sc_section *s)
{
	if (L->sc->sweep) {
		sc_report(L, s->line, s->name, NULL, "a second [sweep]");
		return -1;
	}
	L->sc->sweep = calloc(1, sizeof(*L->sc->sweep));
	if (L->sc->sweep == NULL) {
		L->oom = 1;
		return -1;
	}
	L->sc->sweep->line = s->line;
	if (sk_defaults(SS_SWEEP, L->sc->sweep) < 0) {
		sc_report(L, 0, NULL, NULL,
			  "internal error: bad default in the key table");
		return -1;
	}
	return 0;
}

/* "a>b", "a<b", "a<>b" into the axis's src, dst, both. */
static int parse_dir(struct sc_loader *L, int line, const char *sec,
		     const char *key, const char *w, struct sc_axis *a)
{
	char src[SC_NAME_MAX], dst[SC_NAME_MAX];
	const char *op;
	int both = 0, rev = 0, x, y;

	if ((op = strstr(w, "<>")) != NULL)
		both = 1;
	else if ((op = strchr(w, '>')) == NULL && (op = strchr(w, '<')) != NULL)
		rev = 1;
	if (op == NULL || op == w || op[both ? 2 : 1] == '\0' ||
	    (size_t)(op - w) >= sizeof(src) ||
	    strlen(op + (both ? 2 : 1)) >= sizeof(dst)) {
		sc_report(L, line, sec, key,
			  "'%s' is not a link: expected SRC>DST, SRC<DST or "
			  "SRC<>DST",
			  w);
		return -1;
	}
	snprintf(src, sizeof(src), "%.*s", (int)(op - w), w);
	snprintf(dst, sizeof(dst), "%s", op + (both ? 2 : 1));
	x = sc_resolve_host(L, line, sec, key, src);
	y = sc_resolve_host(L, line, sec, key, dst);
	if (x < 0 || y < 0)
		return -1;
	if (x == y) {
		sc_report(L, line, sec, key,
			  "a link needs two different hosts");
		return -1;
	}
	a->src = rev ? y : x;
	a->dst = rev ? x : y;
	a->both = both;
	return 0;
}

static void axis_key(const struct scenario *sc, struct sc_axis *a)
{
	if (a->kind == SC_AXIS_PREDICTOR)
		snprintf(a->key, sizeof(a->key), "predictor.%s.%s",
			 a->predictor, a->pkey);
	else if (a->src < 0)
		snprintf(a->key, sizeof(a->key), "link.%s", lp_name(a));
	else
		snprintf(a->key, sizeof(a->key), "link.%s%s%s.%s",
			 sc->hosts[a->src].name, a->both ? "<>" : ">",
			 sc->hosts[a->dst].name, lp_name(a));
}

static void report_unknown_param(struct sc_loader *L, int line, const char *sec,
				 const char *key, const char *param)
{
	const char *names[LP_N];
	char dym[SC_NAME_MAX + 32], list[LP_N * 16] = "";
	size_t o = 0;

	for (unsigned i = 0; i < LP_N; i++) {
		names[i] = lp_defs[i].name;
		o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%s",
				      i ? ", " : "", names[i]);
	}
	sc_report(L, line, sec, key,
		  "'%s' is not a link parameter%s; the link parameters are "
		  "%s",
		  param, sc_did_you_mean(param, names, LP_N, dym, sizeof(dym)),
		  list);
}

void sc_sweep_key(struct sc_loader *L, const char *sec, const char *key,
		  int line, const char *val)
{
	struct sc_sweep *sw = L->sc->sweep;
	struct sc_axis a = {.src = -1, .dst = -1, .line = line};
	char parts[3][2 * SC_NAME_MAX], err[256];
	unsigned n = 0;
	const char *p = key;

	if (sw == NULL)
		return;
	while (n < 3) {
		const char *dot = strchr(p, '.');
		size_t l = dot ? (size_t)(dot - p) : strlen(p);

		if (l >= sizeof(parts[0]))
			break;
		memcpy(parts[n], p, l);
		parts[n++][l] = '\0';
		if (!dot) {
			p = NULL;
			break;
		}
		p = dot + 1;
	}
	if (p != NULL) {
		sc_report(L, line, sec, key,
			  "expected link.PARAM, link.SRC>DST.PARAM or "
			  "predictor.NAME.KEY");
		return;
	}
	if (strcmp(parts[0], "link") == 0 && (n == 2 || n == 3)) {
		const char *param = parts[n - 1];
		int found = lp_find(param);

		if (found < 0) {
			report_unknown_param(L, line, sec, key, param);
			return;
		}
		a.kind = SC_AXIS_LINK;
		a.param = (enum sc_link_param)found; /* may be past the enum */
		if (n == 3 && parse_dir(L, line, sec, key, parts[1], &a) < 0)
			return;
	} else if (strcmp(parts[0], "predictor") == 0 && n == 3) {
		if (!word_ok(parts[1]) || !word_ok(parts[2])) {
			sc_report(L, line, sec, key,
				  "predictor and parameter names are "
				  "a-z, 0-9, '_' and '-'");
			return;
		}
		a.kind = SC_AXIS_PREDICTOR;
		memcpy(a.predictor, parts[1], strlen(parts[1]) + 1);
		memcpy(a.pkey, parts[2], strlen(parts[2]) + 1);
	} else {
		sc_report(L, line, sec, key,
			  "expected link.PARAM, link.SRC>DST.PARAM or "
			  "predictor.NAME.KEY");
		return;
	}
	axis_key(L->sc, &a);
	for (unsigned i = 0; i < sw->naxes; i++)
		if (strcmp(sw->axes[i].key, a.key) == 0) {
			sc_report(L, line, sec, key, "the same axis as line %d",
				  sw->axes[i].line);
			return;
		}
	if (sw->naxes == SC_SWEEP_MAX_AXES) {
		sc_report(L, line, sec, key, "more than %d axes",
			  SC_SWEEP_MAX_AXES);
		return;
	}
	if (val[0] == '\0') {
		sc_report(L, line, sec, key, "no values");
		return;
	}
	if (parse_values(&a, val, err, sizeof(err)) < 0) {
		sc_report(L, line, sec, key, "%s", err);
		free(a.values);
		return;
	}
	a.text = strdup(val);
	if (a.text == NULL) {
		L->oom = 1;
		free(a.values);
		return;
	}
	if (a.kind == SC_AXIS_LINK)
		for (unsigned i = 0; i < a.nvalues; i++) {
			struct netem_spec v;

			if (lp_parse((unsigned)a.param, a.values[i], &v, err,
				     sizeof(err)) < 0) {
				sc_report(L, line, sec, key, "%s", err);
				free(a.values);
				free(a.text);
				return;
			}
		}
	sw->axes[sw->naxes++] = a;
}

/* ---- applying a point ---- */

/* Every directed spec an axis touches in sc (which has its links made
 * explicit for every pair the axis covers, see cover_pairs). */
static int axis_covers(const struct sc_axis *a, unsigned src, unsigned dst)
{
	if (a->src < 0)
		return 1;
	return ((unsigned)a->src == src && (unsigned)a->dst == dst) ||
	       (a->both && (unsigned)a->src == dst && (unsigned)a->dst == src);
}

static int push_link(struct scenario *sc, unsigned a, unsigned b, int line,
		     int from_defaults)
{
	struct sc_link *v = realloc(sc->links, (sc->nlinks + 1) * sizeof(*v));

	if (v == NULL)
		return -ENOMEM;
	sc->links = v;
	memset(&v[sc->nlinks], 0, sizeof(*v));
	v[sc->nlinks].a = a;
	v[sc->nlinks].b = b;
	v[sc->nlinks].line = line;
	v[sc->nlinks].from_defaults = from_defaults;
	netem_spec_init(&v[sc->nlinks].fwd);
	netem_spec_init(&v[sc->nlinks].rev);
	sc->nlinks++;
	return 0;
}

/* Give every pair an axis covers a link, so the value has a spec to go
 * into: an "every link" axis turns on [defaults] link (unimpaired base)
 * and a directed one adds a [link SRC DST] with unimpaired directions. */
static int cover_pairs(struct scenario *sc, const struct sc_axis *a)
{
	if (a->src >= 0) {
		if (scenario_link_spec(sc, (unsigned)a->src,
				       (unsigned)a->dst) != NULL)
			return 0;
		return push_link(sc, (unsigned)a->src, (unsigned)a->dst,
				 a->line, 0);
	}
	if (sc->has_default_link)
		return 0;
	sc->has_default_link = 1;
	netem_spec_init(&sc->default_link);
	for (unsigned i = 0; i < sc->nhosts; i++)
		for (unsigned j = i + 1; j < sc->nhosts; j++)
			if (scenario_link_spec(sc, i, j) == NULL &&
			    push_link(sc, i, j, a->line, 1) < 0)
				return -ENOMEM;
	return 0;
}

/* Set one link value everywhere the axis reaches. On error, err names the
 * direction and the reason. */
static int apply_link(struct scenario *sc, const struct sc_axis *a,
		      const char *val, char *err, size_t errlen)
{
	struct netem_spec v;
	char why[256];
	int rc;

	if ((rc = lp_parse((unsigned)a->param, val, &v, err, errlen)) < 0)
		return rc;
	if ((rc = cover_pairs(sc, a)) < 0) {
		snprintf(err, errlen, "out of memory");
		return rc;
	}
	if (a->src < 0 &&
	    (lp_set(&sc->default_link, (unsigned)a->param, &v, why,
		    sizeof(why)) < 0 ||
	     spec_check(&sc->default_link, why, sizeof(why)) < 0)) {
		snprintf(err, errlen, "%s on [defaults] link: %s", val, why);
		return -EINVAL;
	}
	for (unsigned i = 0; i < sc->nlinks; i++) {
		struct sc_link *l = &sc->links[i];

		for (int d = 0; d < 2; d++) {
			unsigned s = d ? l->b : l->a, t = d ? l->a : l->b;
			struct netem_spec *sp = d ? &l->rev : &l->fwd;

			if (!axis_covers(a, s, t))
				continue;
			if (lp_set(sp, (unsigned)a->param, &v, why,
				   sizeof(why)) < 0 ||
			    spec_check(sp, why, sizeof(why)) < 0) {
				snprintf(err, errlen, "%s on %s>%s: %s", val,
					 sc->hosts[s].name, sc->hosts[t].name,
					 why);
				return -EINVAL;
			}
		}
	}
	for (unsigned i = 0; i < sc->nchanges; i++) {
		struct sc_change *c = &sc->changes[i];

		if (!axis_covers(a, c->src, c->dst))
			continue;
		if (lp_set(&c->spec, (unsigned)a->param, &v, why, sizeof(why)) <
			    0 ||
		    spec_check(&c->spec, why, sizeof(why)) < 0) {
			snprintf(err, errlen,
				 "%s on the [schedule] change of "
				 "%s>%s (line %d): %s",
				 val, sc->hosts[c->src].name,
				 sc->hosts[c->dst].name, c->line, why);
			return -EINVAL;
		}
	}
	return 0;
}

/* Replace [from, from+len) of s (capacity cap) by rep. */
static int splice(char *s, size_t cap, size_t from, size_t len, const char *rep)
{
	size_t n = strlen(s), r = strlen(rep);

	if (n - len + r >= cap)
		return -E2BIG;
	memmove(s + from + r, s + from + len, n - from - len + 1);
	memcpy(s + from, rep, r);
	return 0;
}

/* In "NAME[:k=v,...]" at s[0..len), set key=val; the new text into out. */
static int set_kv(const char *s, size_t len, const char *key, const char *val,
		  char *out, size_t outlen)
{
	const char *colon = memchr(s, ':', len);
	size_t o, klen = strlen(key);
	int done = 0;

	if (colon == NULL) {
		if (snprintf(out, outlen, "%.*s:%s=%s", (int)len, s, key,
			     val) >= (int)outlen)
			return -E2BIG;
		return 0;
	}
	o = (size_t)snprintf(out, outlen, "%.*s:", (int)(colon - s), s);
	for (const char *p = colon + 1; p < s + len;) {
		const char *e = memchr(p, ',', (size_t)(s + len - p));
		size_t l;

		if (e == NULL)
			e = s + len;
		l = (size_t)(e - p);
		if (o >= outlen)
			return -E2BIG;
		if (l > klen && strncmp(p, key, klen) == 0 && p[klen] == '=') {
			o += (size_t)snprintf(out + o, outlen - o, "%s%s=%s",
					      out[o - 1] == ':' ? "" : ",", key,
					      val);
			done = 1;
		} else if (l > 0) {
			o += (size_t)snprintf(out + o, outlen - o, "%s%.*s",
					      out[o - 1] == ':' ? "" : ",",
					      (int)l, p);
		}
		p = e + 1;
	}
	if (!done && o < outlen)
		o += (size_t)snprintf(out + o, outlen - o, "%s%s=%s",
				      out[o - 1] == ':' ? "" : ",", key, val);
	return o >= outlen ? -E2BIG : 0;
}

/* Rewrite every "--predictor NAME[:...]" (or --predictor=NAME...) of args
 * to carry key=val. Returns the number of lanes changed or -E2BIG. */
static int apply_predictor(char *args, size_t cap, const char *name,
			   const char *key, const char *val)
{
	size_t pos = 0, nl = strlen(name);
	int count = 0;

	for (;;) {
		char *p = strstr(args + pos, "--predictor");
		char lane[SC_TEXT_MAX];
		size_t start, len;
		int rc;

		if (p == NULL)
			return count;
		start = (size_t)(p - args) + strlen("--predictor");
		if (p != args && !isspace((unsigned char)p[-1])) {
			pos = start;
			continue;
		}
		if (args[start] == '=')
			start++;
		else if (isspace((unsigned char)args[start]))
			while (isspace((unsigned char)args[start]))
				start++;
		else {
			pos = start;
			continue;
		}
		len = strcspn(args + start, " \t\n");
		pos = start + len;
		if (len < nl || strncmp(args + start, name, nl) != 0 ||
		    (len > nl && args[start + nl] != ':'))
			continue;
		rc = set_kv(args + start, len, key, val, lane, sizeof(lane));
		if (rc < 0 || (rc = splice(args, cap, start, len, lane)) < 0)
			return rc;
		pos = start + strlen(lane);
		count++;
	}
}

/* Set "--condition LABEL" in a role host's args (replace or append). */
static int apply_condition(char *args, size_t cap, const char *label)
{
	char *p = args;

	while ((p = strstr(p, "--condition")) != NULL) {
		size_t start = (size_t)(p - args) + strlen("--condition");

		if ((p == args || isspace((unsigned char)p[-1])) &&
		    (args[start] == '=' ||
		     isspace((unsigned char)args[start]))) {
			start++;
			while (isspace((unsigned char)args[start]))
				start++;
			return splice(args, cap, start,
				      strcspn(args + start, " \t\n"), label);
		}
		p += strlen("--condition");
	}
	size_t n = strlen(args);
	if (snprintf(args + n, cap - n, "%s--condition %s", n ? " " : "",
		     label) >= (int)(cap - n))
		return -E2BIG;
	return 0;
}

uint64_t scenario_sweep_points(const struct sc_sweep *sw)
{
	uint64_t n = 1;

	if (sw == NULL)
		return 0;
	for (unsigned i = 0; i < sw->naxes; i++) {
		n *= sw->axes[i].nvalues;
		if (n > SC_SWEEP_MAX_POINTS)
			return SC_SWEEP_MAX_POINTS + 1;
	}
	return n;
}

int scenario_sweep_coords(const struct sc_sweep *sw, uint64_t point,
			  unsigned idx[SC_SWEEP_MAX_AXES])
{
	unsigned tmp[SC_SWEEP_MAX_AXES];

	if (sw == NULL)
		return -EINVAL;
	if (point >= scenario_sweep_points(sw))
		return -ERANGE;
	for (unsigned i = sw->naxes; i-- > 0;) {
		tmp[i] = (unsigned)(point % sw->axes[i].nvalues);
		point /= sw->axes[i].nvalues;
	}
	memcpy(idx, tmp, sizeof(tmp[0]) * sw->naxes);
	return 0;
}

static struct scenario *copy_scenario(const struct scenario *sc)
{
	struct scenario *o = malloc(sizeof(*o));

	if (o == NULL)
		return NULL;
	*o = *sc;
	o->sweep = NULL;
	o->links = NULL;
	o->changes = NULL;
	if (sc->nlinks) {
		o->links = malloc(sc->nlinks * sizeof(*o->links));
		if (o->links == NULL)
			goto fail;
		memcpy(o->links, sc->links, sc->nlinks * sizeof(*o->links));
	}
	if (sc->nchanges) {
		o->changes = malloc(sc->nchanges * sizeof(*o->changes));
		if (o->changes == NULL)
			goto fail;
		memcpy(o->changes, sc->changes,
		       sc->nchanges * sizeof(*o->changes));
	}
	return o;
fail:
	scenario_free(o);
	return NULL;
}

/* The point with value idx[i] on axis i; axes whose bit is set in skip
 * are left out (the load-time check passes the axes that failed). err
 * says what failed and *bad on which axis (-1: the condition label, or
 * memory). */
static int apply_coords(const struct scenario *sc, const unsigned *idx,
			unsigned skip, struct scenario **out, char *err,
			size_t errlen, int *bad)
{
	const struct sc_sweep *sw = sc->sweep;
	struct scenario *o = copy_scenario(sc);
	char label[SC_TEXT_MAX] = "";
	size_t ll = 0;
	int rc = 0;

	*bad = -1;
	if (o == NULL) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	o->mode = sw->mode;
	if (sw->seeds == SC_SEEDS_INDEPENDENT) {
		uint64_t point = 0;

		for (unsigned i = 0; i < sw->naxes; i++)
			point = point * sw->axes[i].nvalues + idx[i];
		o->seed = splitmix64_mix(SPLITMIX64_GAMMA + sc->seed +
				     (point + 1) * 0xd1b54a32d192ed03ULL);
	}
	for (unsigned i = 0; i < sw->naxes && rc == 0; i++) {
		const struct sc_axis *a = &sw->axes[i];
		const char *v = a->values[idx[i]];

		if (skip & (1u << i))
			continue;
		*bad = (int)i;
		if (a->kind == SC_AXIS_LINK) {
			rc = apply_link(o, a, v, err, errlen);
			/* the condition label: param[@src-dst]=value */
			if (a->src < 0)
				ll += (size_t)snprintf(label + ll,
						       sizeof(label) - ll,
						       "%s%s=%s", ll ? "_" : "",
						       lp_name(a), v);
			else
				ll += (size_t)snprintf(
					label + ll, sizeof(label) - ll,
					"%s%s@%s-%s%s=%s", ll ? "_" : "",
					lp_name(a), sc->hosts[a->src].name,
					sc->hosts[a->dst].name,
					a->both ? "-both" : "", v);
			if (ll >= sizeof(label)) {
				snprintf(err, errlen, "condition too long");
				rc = -E2BIG;
			}
			continue;
		}
		for (unsigned h = 0; h < o->nhosts && rc >= 0; h++) {
			struct sc_host *hs = &o->hosts[h];

			if (!hs->role[0])
				continue;
			rc = apply_predictor(hs->args, sizeof(hs->args),
					     a->predictor, a->pkey, v);
			if (rc >= 0)
				rc = apply_predictor(hs->args_text,
						     sizeof(hs->args_text),
						     a->predictor, a->pkey, v);
			if (rc < 0)
				snprintf(err, errlen,
					 "[host %s] args too long with %s=%s",
					 hs->name, a->key, v);
		}
		if (rc > 0)
			rc = 0;
	}
	if (rc == 0)
		*bad = -1;
	for (unsigned h = 0; h < o->nhosts && rc == 0 && ll; h++) {
		struct sc_host *hs = &o->hosts[h];

		if (!hs->role[0])
			continue;
		rc = apply_condition(hs->args, sizeof(hs->args), label);
		if (rc == 0)
			rc = apply_condition(hs->args_text,
					     sizeof(hs->args_text), label);
		if (rc < 0)
			snprintf(err, errlen,
				 "[host %s] args too long with --condition %s",
				 hs->name, label);
	}
	if (rc < 0) {
		scenario_free(o);
		return rc;
	}
	*out = o;
	return 0;
}

int scenario_sweep_apply(const struct scenario *sc, uint64_t point,
			 struct scenario **out)
{
	unsigned idx[SC_SWEEP_MAX_AXES];
	char err[512];
	int rc, bad;

	if (sc == NULL || sc->sweep == NULL)
		return -EINVAL;
	if ((rc = scenario_sweep_coords(sc->sweep, point, idx)) < 0)
		return rc;
	return apply_coords(sc, idx, 0, out, err, sizeof(err), &bad);
}

/* ---- checks after the whole file ---- */

static int lane_of(const char *args, const char *name)
{
	char tmp[SC_TEXT_MAX];

	snprintf(tmp, sizeof(tmp), "%s", args);
	return apply_predictor(tmp, sizeof(tmp), name, "x", "0");
}

/* One point of the load-time check, leaving out the axes in *reported.
 * A failure is reported on the axis that failed, which joins *reported,
 * and the point is tried again without it. Returns 0, or -1 after a
 * failure that is no axis's (the condition label). */
static int check_point(struct sc_loader *L, const unsigned *idx,
		       unsigned *reported)
{
	const struct sc_sweep *sw = L->sc->sweep;
	struct scenario *o;
	char err[512];
	int bad;

	while (apply_coords(L->sc, idx, *reported, &o, err, sizeof(err), &bad) <
	       0) {
		if (bad < 0) {
			sc_report(L, sw->line, "sweep", NULL, "%s", err);
			return -1;
		}
		sc_report(L, sw->axes[bad].line, "sweep", sw->axes[bad].key,
			  "%s", err);
		*reported |= 1u << bad;
	}
	scenario_free(o);
	return 0;
}

void sc_sweep_check(struct sc_loader *L)
{
	struct scenario *sc = L->sc;
	struct sc_sweep *sw = sc->sweep;
	unsigned idx[SC_SWEEP_MAX_AXES] = {0};
	unsigned reported = 0; /* axes reported, by bit */
	char err[512];

	/* file order: iniparser does not promise it */
	for (unsigned i = 1; i < sw->naxes; i++) {
		struct sc_axis a = sw->axes[i];
		unsigned j = i;

		while (j > 0 && sw->axes[j - 1].line > a.line) {
			sw->axes[j] = sw->axes[j - 1];
			j--;
		}
		sw->axes[j] = a;
	}
	if (sw->naxes == 0) {
		if (L->errors) /* the axes given were wrong: said already */
			return;
		sc_report(L, sw->line, "sweep", NULL,
			  "no axis: add link.PARAM = VALUES or "
			  "predictor.NAME.KEY = VALUES");
		return;
	}
	if (scenario_sweep_points(sw) > SC_SWEEP_MAX_POINTS) {
		sc_report(L, sw->line, "sweep", NULL,
			  "the grid has more than %d points",
			  SC_SWEEP_MAX_POINTS);
		return;
	}
	for (unsigned i = 0; i < sw->naxes; i++) {
		const struct sc_axis *a = &sw->axes[i];
		int lanes = 0;

		if (a->kind != SC_AXIS_PREDICTOR)
			continue;
		for (unsigned h = 0; h < sc->nhosts; h++)
			if (sc->hosts[h].role[0])
				lanes += lane_of(sc->hosts[h].args,
						 a->predictor) > 0;
		if (lanes == 0)
			sc_report(L, a->line, "sweep", a->key,
				  "no host runs predictor '%s' (no "
				  "'--predictor %s' in any role host's args)",
				  a->predictor, a->predictor);
	}
	/* Each value of each axis, with the axes before it at their
	 * longest value and those after it at their first, then every axis
	 * at its longest value (the longest arguments). A failure is
	 * reported once, on the axis that failed. */
	for (unsigned i = 0; i < sw->naxes; i++) {
		size_t best = 0;

		for (unsigned v = 0; v < sw->axes[i].nvalues; v++) {
			idx[i] = v;
			if (check_point(L, idx, &reported) < 0 ||
			    (reported & (1u << i)))
				break;
		}
		idx[i] = 0;
		for (unsigned v = 0; v < sw->axes[i].nvalues; v++)
			if (strlen(sw->axes[i].values[v]) > best) {
				best = strlen(sw->axes[i].values[v]);
				idx[i] = v;
			}
	}
	if (L->errors == 0) {
		struct scenario *o;
		int bad;

		if (apply_coords(sc, idx, 0, &o, err, sizeof(err), &bad) < 0)
			sc_report(L, sw->line, "sweep", NULL, "%s", err);
		else
			scenario_free(o);
	}
}

int sc_sweep_print(FILE *f, const struct scenario *sc)
{
	const struct sc_sweep *sw = sc->sweep;
	char buf[64];

	fputs("\n[sweep]\n", f);
	for (size_t i = 0; i < sk_nkeys; i++) {
		const struct sk_key *k = &sk_keys[i];

		if (k->sec != SS_SWEEP || k->type == SK_AXIS)
			continue;
		if (sk_format(k, sw, buf, sizeof(buf)) < 0)
			return -EINVAL;
		fprintf(f, "%s = %s\n", k->name, buf);
	}
	/* Values as written: a long range written out would not fit
	 * iniparser's 1022-character line. */
	for (unsigned i = 0; i < sw->naxes; i++)
		fprintf(f, "%s = %s\n", sw->axes[i].key, sw->axes[i].text);
	return ferror(f) ? -EIO : 0;
}

void sc_sweep_free(struct sc_sweep *sw)
{
	if (sw == NULL)
		return;
	for (unsigned i = 0; i < sw->naxes; i++) {
		free(sw->axes[i].values);
		free(sw->axes[i].text);
	}
	free(sw);
}

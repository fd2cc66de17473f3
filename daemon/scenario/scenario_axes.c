/*
 * scenario_axes.c: the axes of a [sweep] section. It reads axis keys
 * (link.PARAM, link.SRC>DST.PARAM, predictor.NAME.KEY) whose values are
 * lists and "A..B step S" ranges, prints the canonical [sweep] section and
 * frees it. The syntax is documented in docs/sweeps.md.
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
		snprintf(a->key, sizeof(a->key), "link.%s", sc_lp_name(a));
	else
		snprintf(a->key, sizeof(a->key), "link.%s%s%s.%s",
			 sc->hosts[a->src].name, a->both ? "<>" : ">",
			 sc->hosts[a->dst].name, sc_lp_name(a));
}

static void report_unknown_param(struct sc_loader *L, int line, const char *sec,
				 const char *key, const char *param)
{
	const char *names[SC_LP_TABLE_MAX];
	char dym[SC_NAME_MAX + 32], list[SC_LP_TABLE_MAX * 16] = "";
	unsigned n = sc_sweep_link_params();
	size_t o = 0;

	for (unsigned i = 0; i < n; i++) {
		names[i] = sc_sweep_link_param(i);
		o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%s",
				      i ? ", " : "", names[i]);
	}
	sc_report(L, line, sec, key,
		  "'%s' is not a link parameter%s; the link parameters are "
		  "%s",
		  param, sc_did_you_mean(param, names, n, dym, sizeof(dym)),
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
		int found = sc_lp_find(param);

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

			if (sc_lp_parse((unsigned)a.param, a.values[i], &v, err,
					sizeof(err)) < 0) {
				sc_report(L, line, sec, key, "%s", err);
				free(a.values);
				free(a.text);
				return;
			}
		}
	sw->axes[sw->naxes++] = a;
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

/*
 * scenario_predictors.c: the [predictor NAME] sections of a scenario.
 * Each is one predictor instance: `type` names a registered predictor
 * (predict_find; default the section's NAME) and every other key is a
 * parameter of that type, checked against the predictor's own table
 * (predict_params_set), so predictors added to the registry need nothing
 * here. Parameters a scenario leaves unset take the like-for-like
 * settings below when it compares predictors ([defaults] fair), and the
 * instances become every agent's --predictor lanes (scenario_game.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "scenario_int.h"

/*
 * The like-for-like settings (docs/comparing.md). Each applies to every
 * predictor whose table has the key and whose scenario section leaves it
 * unset; a value a predictor's table refuses is skipped for it.
 */
const struct sc_fair_setting sc_fair_settings[] = {
	{"pos_threshold", "20",
	 "one position threshold: every predictor may drift the same 20 u "
	 "(Steele's dead-reckoning threshold) before it must send"},
	{"threshold", "20",
	 "the same 20 u for the predictors that call their position "
	 "threshold so (ekb and is default to 32 u, the paper 003 hit "
	 "threshold)"},
	{"tau", "20", "the same 20 u for DHSM's error threshold"},
	{"orient_threshold", "0",
	 "trigger on position only: the error measured is position error, "
	 "and an orientation trigger would spend updates the other "
	 "predictors do not spend"},
	{"heartbeat", "5",
	 "a keep-alive at least every 5 s for everyone: after a lost "
	 "update the error then stays bounded the same way for all (led's "
	 "own default is no heartbeat)"},
	{"convergence", "pvb",
	 "the same convergence: projective velocity blending"},
	{"blend", "0.25", "over the same 0.25 s"},
	{"trigger", "projection",
	 "send when the truth leaves the unblended model of the last "
	 "update, which is what dis compares (led, docs/predictors.md A6)"},
	{NULL, NULL, NULL},
};

int scenario_fair_markdown(FILE *f)
{
	const struct predictor *all[64];
	size_t n = predict_list(all, 64);

	if (n > 64)
		n = 64;
	fputs("| parameter | value | applies to | why |\n", f);
	fputs("|---|---|---|---|\n", f);
	for (const struct sc_fair_setting *s = sc_fair_settings; s->key; s++) {
		int first = 1;

		fprintf(f, "| `%s` | `%s` | ", s->key, s->value);
		for (size_t i = 0; i < n; i++) {
			struct predict_params par;

			predict_params_init(&par, all[i]);
			if (predict_params_set(&par, s->key, s->value) < 0)
				continue;
			fprintf(f, "%s%s", first ? "" : ", ", all[i]->name);
			first = 0;
		}
		fprintf(f, "%s | %s |\n", first ? "none registered" : "",
			s->why);
	}
	return ferror(f) ? -EIO : 0;
}

static int param_index(const struct predictor *p, const char *key)
{
	for (size_t i = 0; i < p->n_params; i++)
		if (strcmp(p->params[i].key, key) == 0)
			return (int)i;
	return -1;
}

/* What a value of parameter d may be, for messages. */
static void allowed(const struct predict_param *d, char *buf, size_t len)
{
	size_t o = 0;

	switch (d->type) {
	case PREDICT_PARAM_ENUM:
		o = (size_t)snprintf(buf, len, "one of ");
		for (size_t i = 0; d->choices && d->choices[i] && o < len; i++)
			o += (size_t)snprintf(buf + o, len - o, "%s%s",
					      i ? ", " : "", d->choices[i]);
		return;
	case PREDICT_PARAM_BOOL:
		snprintf(buf, len, "yes/no, on/off, true/false or 1/0");
		return;
	case PREDICT_PARAM_INT:
		snprintf(buf, len, "an integer from %g to %g%s%s", d->min,
			 d->max, d->unit[0] ? " " : "", d->unit);
		return;
	case PREDICT_PARAM_REAL:
		snprintf(buf, len, "a number from %g to %g%s%s", d->min, d->max,
			 d->unit[0] ? " " : "", d->unit);
		return;
	}
}

static const struct predictor *find_type(struct sc_loader *L, int line,
					 const char *sec, const char *type)
{
	const struct predictor *all[64];
	const char *names[65];
	char dym[SC_NAME_MAX + 32], list[512];
	size_t n = predict_list(all, 64), o = 0;
	const struct predictor *p = predict_find(type);

	if (p)
		return p;
	if (n > 64)
		n = 64;
	list[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		names[i] = all[i]->name;
		o += (size_t)snprintf(list + o,
				      o < sizeof(list) ? sizeof(list) - o : 0,
				      "%s%s", i ? ", " : "", all[i]->name);
		if (o >= sizeof(list))
			o = sizeof(list);
	}
	names[n] = NULL;
	sc_report(L, line, sec, "type",
		  "unknown predictor '%s'%s; registered: %s", type,
		  sc_did_you_mean(type, names, 0, dym, sizeof(dym)), list);
	return NULL;
}

/* One parameter key of an instance of p. */
static void param_key(struct sc_loader *L, struct sc_predictor *pr,
		      const char *sec, const char *key, int line,
		      const char *val)
{
	const struct predictor *p = pr->par.p;
	const char *names[PREDICT_MAX_PARAMS + 2];
	char dym[SC_NAME_MAX + 32], why[256];
	int i = param_index(p, key), rc;

	if (i < 0) {
		for (size_t j = 0; j < p->n_params; j++)
			names[j] = p->params[j].key;
		names[p->n_params] = "type";
		sc_report(L, line, sec, key, "%s has no parameter '%s'%s",
			  p->name, key,
			  sc_did_you_mean(key, names, p->n_params + 1, dym,
					  sizeof(dym)));
		return;
	}
	if (val[0] == '\0')
		return; /* empty: not set */
	rc = predict_params_set(&pr->par, key, val);
	if (rc == 0) {
		pr->set |= 1u << i;
		return;
	}
	allowed(&p->params[i], why, sizeof(why));
	if (rc == -ERANGE)
		sc_report(L, line, sec, key, "%s is out of range: %s", val,
			  why);
	else
		sc_report(L, line, sec, key, "'%s' is not %s", val, why);
}

static int valid_instance(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n >= SC_NAME_MAX)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '.' || *s == '_' || *s == '-'))
			return 0;
	return 1;
}

void sc_predictor_section(struct sc_loader *L, const struct sc_section *s)
{
	struct scenario *sc = L->sc;
	const char *name = strchr(s->name, ' ');
	char tkey[2 * SC_NAME_MAX + 8], tval[SC_NAME_MAX] = "", err[256];
	const struct sk_key *kt = sk_find(SS_PREDICTOR, "type");
	struct sk_pred_in in;
	struct sc_predictor pr;
	const struct predictor *p;
	int nk, tline;

	while (name && *name == ' ')
		name++;
	if (name == NULL || !valid_instance(name)) {
		sc_report(L, s->line, s->name, NULL,
			  "instance name must be 1 to %d of a-z, 0-9, '.', "
			  "'_', '-'",
			  SC_NAME_MAX - 1);
		return;
	}
	if (sc->npredictors == SC_MAX_PREDICTORS) {
		sc_report(L, s->line, s->name, NULL,
			  "too many predictors (at most %d lanes)",
			  SC_MAX_PREDICTORS);
		return;
	}
	memset(&pr, 0, sizeof(pr));
	snprintf(pr.name, sizeof(pr.name), "%s", name);
	pr.line = s->line;
	snprintf(tkey, sizeof(tkey), "%s:type", s->name);
	tline = sc_key_line(L, s, "type");
	snprintf(in.type, sizeof(in.type), "%s", name);
	const char *tv = iniparser_getstring(L->ini, tkey, "");
	if (tv[0] && sk_parse(kt, tv, &in, err, sizeof(err)) < 0) {
		sc_report(L, tline, s->name, "type", "%s", err);
		return;
	}
	snprintf(tval, sizeof(tval), "%s", in.type);
	p = find_type(L, tline ? tline : s->line, s->name, tval);
	if (p == NULL)
		return;
	predict_params_init(&pr.par, p);

	nk = iniparser_getsecnkeys(L->ini, s->name);
	if (nk > 0) {
		const char **keys = calloc((size_t)nk, sizeof(*keys));
		size_t skip = strlen(s->name) + 1;

		if (keys == NULL) {
			L->oom = 1;
			return;
		}
		if (iniparser_getseckeys(L->ini, s->name, keys))
			for (int i = 0; i < nk; i++) {
				const char *key = keys[i] + skip;

				if (strcmp(key, "type") == 0)
					continue;
				param_key(L, &pr, s->name, key,
					  sc_key_line(L, s, key),
					  iniparser_getstring(L->ini, keys[i],
							      ""));
			}
		free(keys);
	}
	sc->predictors[sc->npredictors++] = pr;
}

void sc_predictors_finish(struct sc_loader *L)
{
	struct scenario *sc = L->sc;
	int fair = sc->fair == SC_FAIR_ON ||
		   (sc->fair == SC_FAIR_AUTO && sc->npredictors >= 2);

	/* file order: iniparser does not promise it */
	for (unsigned i = 1; i < sc->npredictors; i++) {
		struct sc_predictor a = sc->predictors[i];
		unsigned j = i;

		while (j > 0 && sc->predictors[j - 1].line > a.line) {
			sc->predictors[j] = sc->predictors[j - 1];
			j--;
		}
		sc->predictors[j] = a;
	}
	for (unsigned i = 0; fair && i < sc->npredictors; i++) {
		struct sc_predictor *pr = &sc->predictors[i];

		for (const struct sc_fair_setting *f = sc_fair_settings; f->key;
		     f++) {
			int k = param_index(pr->par.p, f->key);

			if (k < 0 || (pr->set & (1u << k)))
				continue;
			if (predict_params_set(&pr->par, f->key, f->value) == 0)
				pr->fair |= 1u << k;
		}
	}
}

int sc_predictor_spec(const struct sc_predictor *pr, char *buf, size_t len)
{
	struct predict_params def;
	char v[64], d[64];
	size_t o;
	int n;

	predict_params_init(&def, pr->par.p);
	if (strcmp(pr->name, pr->par.p->name) == 0)
		n = snprintf(buf, len, "%s", pr->name);
	else
		n = snprintf(buf, len, "%s=%s", pr->name, pr->par.p->name);
	if (n < 0 || (size_t)n >= len)
		return -E2BIG;
	o = (size_t)n;
	for (size_t i = 0; i < pr->par.p->n_params; i++) {
		const char *key = pr->par.p->params[i].key;

		if (sc_predictor_value(&pr->par, i, v, sizeof(v)) < 0 ||
		    sc_predictor_value(&def, i, d, sizeof(d)) < 0)
			return -E2BIG;
		if (strcmp(v, d) == 0)
			continue;
		n = snprintf(buf + o, len - o, "%c%s=%s",
			     strchr(buf, ':') ? ',' : ':', key, v);
		if (n < 0 || (size_t)n >= len - o)
			return -E2BIG;
		o += (size_t)n;
	}
	return 0;
}

int sc_predictor_value(const struct predict_params *par, size_t i, char *buf,
		       size_t len)
{
	char all[1024], *save = NULL, *w;
	size_t k = 0;

	/* predict_params_format writes "k=v k=v" in table order */
	if (predict_params_format(par, all, sizeof(all)) < 0)
		return -E2BIG;
	for (w = strtok_r(all, " ", &save); w; w = strtok_r(NULL, " ", &save))
		if (k++ == i) {
			const char *eq = strchr(w, '=');

			if (eq == NULL ||
			    (size_t)snprintf(buf, len, "%s", eq + 1) >= len)
				return -E2BIG;
			return 0;
		}
	return -ENOENT;
}

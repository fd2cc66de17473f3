/*
 * params.c: predictor parameters as key=value pairs. Each predictor has
 * one table (key, type, default, range, unit, doc); values are parsed,
 * range-checked and stored as doubles in table order. The same table
 * prints the canonical parameter string and the markdown rows of
 * docs/predictors.md. Pure: no I/O, errors are -errno.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "predict/predict.h"

int predict_params_init(struct predict_params *par, const struct predictor *p)
{
	struct predict_params tmp;

	if (!par || !p || p->n_params > PREDICT_MAX_PARAMS)
		return -EINVAL;
	memset(&tmp, 0, sizeof(tmp));
	tmp.p = p;
	for (size_t i = 0; i < p->n_params; i++)
		tmp.v[i] = p->params[i].def;
	*par = tmp;
	return 0;
}

static int find_key(const struct predictor *p, const char *key, size_t len)
{
	for (size_t i = 0; i < p->n_params; i++)
		if (strlen(p->params[i].key) == len &&
		    strncmp(p->params[i].key, key, len) == 0)
			return (int)i;
	return -ENOENT;
}

static int parse_value(const struct predict_param *d, const char *s,
		       double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -EINVAL;
	if (d->type == PREDICT_PARAM_ENUM) {
		for (size_t i = 0; d->choices && d->choices[i]; i++)
			if (strcmp(d->choices[i], s) == 0) {
				*out = (double)i;
				return 0;
			}
		return -EINVAL;
	}
	if (d->type == PREDICT_PARAM_BOOL) {
		if (!strcmp(s, "1") || !strcmp(s, "yes") || !strcmp(s, "on") ||
		    !strcmp(s, "true")) {
			*out = 1;
			return 0;
		}
		if (!strcmp(s, "0") || !strcmp(s, "no") || !strcmp(s, "off") ||
		    !strcmp(s, "false")) {
			*out = 0;
			return 0;
		}
		return -EINVAL;
	}
	errno = 0;
	v = strtod(s, &end);
	if (errno == ERANGE || end == s || *end != '\0' || !isfinite(v))
		return -EINVAL;
	if (d->type == PREDICT_PARAM_INT && v != floor(v))
		return -EINVAL;
	if (v < d->min || v > d->max)
		return -ERANGE;
	*out = v;
	return 0;
}

int predict_params_set(struct predict_params *par, const char *key,
		       const char *value)
{
	double v;
	int i, err;

	if (!par || !par->p || !key)
		return -EINVAL;
	i = find_key(par->p, key, strlen(key));
	if (i < 0)
		return i;
	err = parse_value(&par->p->params[i], value, &v);
	if (err)
		return err;
	par->v[i] = v;
	return 0;
}

int predict_params_set_kv(struct predict_params *par, const char *kv)
{
	const char *eq;
	double v;
	int i, err;

	if (!par || !par->p || !kv)
		return -EINVAL;
	eq = strchr(kv, '=');
	if (!eq || eq == kv)
		return -EINVAL;
	i = find_key(par->p, kv, (size_t)(eq - kv));
	if (i < 0)
		return i;
	err = parse_value(&par->p->params[i], eq + 1, &v);
	if (err)
		return err;
	par->v[i] = v;
	return 0;
}

int predict_params_get(const struct predict_params *par, const char *key,
		       double *out)
{
	int i;

	if (!par || !par->p || !key || !out)
		return -EINVAL;
	i = find_key(par->p, key, strlen(key));
	if (i < 0)
		return i;
	*out = par->v[i];
	return 0;
}

/* Append to buf at *pos; -ENOSPC when full. */
static int appendf(char *buf, size_t len, size_t *pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int appendf(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*pos >= len)
		return -ENOSPC;
	va_start(ap, fmt);
	n = vsnprintf(buf + *pos, len - *pos, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= len - *pos)
		return -ENOSPC;
	*pos += (size_t)n;
	return 0;
}

static int format_value(const struct predict_param *d, double v, char *buf,
			size_t len, size_t *pos)
{
	if (d->type == PREDICT_PARAM_ENUM)
		return appendf(buf, len, pos, "%s", d->choices[(size_t)v]);
	if (d->type == PREDICT_PARAM_BOOL)
		return appendf(buf, len, pos, "%s", v != 0 ? "on" : "off");
	return appendf(buf, len, pos, "%.10g", v);
}

static int format_params(const struct predict_params *par, char *buf,
			 size_t len)
{
	size_t pos = 0;
	int err = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < par->p->n_params && !err; i++) {
		const struct predict_param *d = &par->p->params[i];

		err = appendf(buf, len, &pos, "%s%s=", i ? " " : "", d->key);
		if (!err)
			err = format_value(d, par->v[i], buf, len, &pos);
	}
	return err;
}

static int doc_table(const struct predictor *p, char *buf, size_t len)
{
	size_t pos = 0;
	int err;

	err = appendf(buf, len, &pos,
		      "| key | default | range | unit | meaning |\n"
		      "|---|---|---|---|---|\n");
	for (size_t i = 0; i < p->n_params && !err; i++) {
		const struct predict_param *d = &p->params[i];

		err = appendf(buf, len, &pos, "| `%s` | ", d->key);
		if (!err)
			err = format_value(d, d->def, buf, len, &pos);
		if (err)
			break;
		if (d->type == PREDICT_PARAM_ENUM) {
			err = appendf(buf, len, &pos, " | ");
			for (size_t c = 0; !err && d->choices[c]; c++)
				err = appendf(buf, len, &pos, "%s%s",
					      c ? ", " : "", d->choices[c]);
		} else if (d->type == PREDICT_PARAM_BOOL) {
			err = appendf(buf, len, &pos, " | on, off");
		} else {
			err = appendf(buf, len, &pos, " | %.10g … %.10g",
				      d->min, d->max);
		}
		if (!err)
			err = appendf(buf, len, &pos, " | %s | ",
				      d->unit ? d->unit : "");
		/* a '|' in the text would end the markdown cell */
		for (const char *c = d->doc; !err && *c; c++) {
			if (*c == '|')
				err = appendf(buf, len, &pos, "\\|");
			else
				err = appendf(buf, len, &pos, "%c", *c);
		}
		if (!err)
			err = appendf(buf, len, &pos, " |\n");
	}
	return err;
}

/* Copy the scratch result out only if it all fit. */
static int into(char *buf, int err, const char *tmp)
{
	if (!err)
		memcpy(buf, tmp, strlen(tmp) + 1);
	return err;
}

int predict_params_format(const struct predict_params *par, char *buf,
			  size_t len)
{
	char *tmp;
	int err;

	if (!par || !par->p || !buf || len == 0)
		return -EINVAL;
	tmp = malloc(len);
	if (!tmp)
		return -ENOMEM;
	err = into(buf, format_params(par, tmp, len), tmp);
	free(tmp);
	return err;
}

int predict_params_doc(const struct predictor *p, char *buf, size_t len)
{
	char *tmp;
	int err;

	if (!p || !buf || len == 0)
		return -EINVAL;
	tmp = malloc(len);
	if (!tmp)
		return -ENOMEM;
	err = into(buf, doc_table(p, tmp, len), tmp);
	free(tmp);
	return err;
}

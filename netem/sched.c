/*
 * sched.c: parsing and evaluation of time-varying impairment schedules and
 * CSV traces (see netem_sched.h). Both become a sorted list of step and
 * ramp events over the spec's numeric parameters; evaluation starts from
 * the base spec and applies, in start order, every event that has begun,
 * so a later event overrides an earlier one for the same parameter, then
 * repairs what the events may have left inconsistent.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netem_sched.h"
#include "units.h"

#define TOK_MAX 64

static const char *const pnames[NETEM_PARAM_N] = {
	"delay",
	"jitter",
	"delay-corr",
	"loss",
	"loss-corr",
	"duplicate",
	"corrupt",
	"reorder",
	"rate",
	"limit",
	"duplicate-corr",
	"corrupt-corr",
	"reorder-corr",
	"gap",
	"p13",
	"p31",
	"p32",
	"p23",
	"p14",
	"gemodel-p",
	"gemodel-r",
	"gemodel-1-h",
	"gemodel-1-k",
	"overhead",
	"cellsize",
	"celloverhead",
	"slot-min",
	"slot-max",
	"slot-delay",
	"slot-jitter",
	"slot-packets",
	"slot-bytes",
};

const char *netem_param_name(enum netem_param p)
{
	return p < NETEM_PARAM_N ? pnames[p] : "?";
}

int netem_param_lookup(const char *name, enum netem_param *p)
{
	int i;

	for (i = 0; i < NETEM_PARAM_N; i++)
		if (strcmp(name, pnames[i]) == 0) {
			*p = (enum netem_param)i;
			return 0;
		}
	return -EINVAL;
}

/* Parse a value for a parameter in its native unit. */
static int param_value(enum netem_param p, const char *tok, double *v,
		       char *why)
{
	int64_t ns;
	uint64_t rate;
	uint32_t u;
	int32_t i;
	int rc;

	switch (p) {
	case NETEM_PARAM_DELAY:
	case NETEM_PARAM_JITTER:
	case NETEM_PARAM_SLOT_MIN:
	case NETEM_PARAM_SLOT_MAX:
	case NETEM_PARAM_SLOT_DELAY:
	case NETEM_PARAM_SLOT_JITTER:
		rc = netem_parse_time(tok, &ns, why);
		if (rc == 0 && ns > INT32_MAX &&
		    (p == NETEM_PARAM_JITTER || p == NETEM_PARAM_SLOT_JITTER)) {
			snprintf(why, NETEM_WHY_MAX,
				 "%s is over 2147483647ns (netem's limit)",
				 tok);
			rc = -EINVAL;
		}
		*v = (double)ns;
		return rc;
	case NETEM_PARAM_RATE:
		if (strcmp(tok, "0") == 0 || strcmp(tok, "unlimited") == 0) {
			*v = 0;
			return 0;
		}
		rc = netem_parse_rate(tok, &rate, why);
		*v = (double)rate;
		return rc;
	case NETEM_PARAM_LIMIT:
	case NETEM_PARAM_GAP:
	case NETEM_PARAM_CELL_SIZE:
	case NETEM_PARAM_SLOT_PACKETS:
	case NETEM_PARAM_SLOT_BYTES:
		rc = netem_parse_u32(tok, &u, why);
		if (rc == 0 && u > INT32_MAX &&
		    (p == NETEM_PARAM_SLOT_PACKETS ||
		     p == NETEM_PARAM_SLOT_BYTES)) {
			snprintf(why, NETEM_WHY_MAX,
				 "%s is over 2147483647 (netem's limit)", tok);
			rc = -EINVAL;
		}
		*v = u;
		return rc;
	case NETEM_PARAM_OVERHEAD:
	case NETEM_PARAM_CELL_OVERHEAD:
		rc = netem_parse_s32(tok, &i, why);
		*v = i;
		return rc;
	default:
		rc = netem_parse_percent(tok, &u, why);
		*v = u;
		return rc;
	}
}

static int sched_add(struct netem_sched *s, const struct netem_sched_ev *e)
{
	size_t i;

	if (s->n == s->cap) {
		size_t ncap = s->cap ? 2 * s->cap : 16;
		struct netem_sched_ev *nv = realloc(s->ev, ncap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		s->ev = nv;
		s->cap = ncap;
	}
	/* insertion keeps the list sorted by t0 and stable */
	i = s->n;
	while (i > 0 && s->ev[i - 1].t0 > e->t0) {
		s->ev[i] = s->ev[i - 1];
		i--;
	}
	s->ev[i] = *e;
	s->n++;
	return 0;
}

void netem_sched_free(struct netem_sched *s)
{
	if (!s)
		return;
	free(s->ev);
	free(s);
}

int netem_sched_dup(const struct netem_sched *s, struct netem_sched **out)
{
	struct netem_sched *d = calloc(1, sizeof(*d));

	if (!d)
		return -ENOMEM;
	if (s->n) {
		d->ev = malloc(s->n * sizeof(*d->ev));
		if (!d->ev) {
			free(d);
			return -ENOMEM;
		}
		memcpy(d->ev, s->ev, s->n * sizeof(*d->ev));
	}
	d->n = d->cap = s->n;
	*out = d;
	return 0;
}

struct lex {
	const char *p;
	int line;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 2, 3))) static int lfail(struct lex *x,
						       const char *fmt, ...)
{
	va_list ap;
	char msg[256];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (x->err && x->errlen)
		snprintf(x->err, x->errlen, "line %d: %s", x->line, msg);
	return -EINVAL;
}

/* Next token of the current statement: 1 token, 0 end of statement
 * (';', newline or end), -EINVAL too long. */
static int ltok(struct lex *x, char *tok)
{
	const char *s = x->p, *e;
	size_t n;

	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	if (*s == '#')
		while (*s && *s != '\n')
			s++;
	if (*s == '\0' || *s == ';' || *s == '\n') {
		x->p = s;
		return 0;
	}
	e = s;
	while (*e && !isspace((unsigned char)*e) && *e != ';' && *e != '#')
		e++;
	n = (size_t)(e - s);
	if (n >= TOK_MAX)
		return lfail(x, "\"%.20s...\": token too long", s);
	memcpy(tok, s, n);
	tok[n] = '\0';
	x->p = e;
	return 1;
}

static int parse_statement(struct lex *x, struct netem_sched *s)
{
	char kw[TOK_MAX], tok[TOK_MAX], why[NETEM_WHY_MAX];
	struct netem_sched_ev e;
	int rc, nparams = 0;
	int64_t t0, t1;

	rc = ltok(x, kw);
	if (rc <= 0)
		return rc;
	if (strcmp(kw, "at") != 0 && strcmp(kw, "ramp") != 0)
		return lfail(x, "\"%s\": expected \"at\" or \"ramp\"", kw);
	if (ltok(x, tok) != 1)
		return lfail(x, "%s: missing a time", kw);
	if (netem_parse_time(tok, &t0, why) < 0)
		return lfail(x, "%s: %s", kw, why);
	t1 = t0;
	if (strcmp(kw, "ramp") == 0) {
		if (ltok(x, tok) != 1)
			return lfail(x, "ramp: missing an end time");
		if (netem_parse_time(tok, &t1, why) < 0)
			return lfail(x, "ramp: %s", why);
		if (t1 <= t0)
			return lfail(x,
				     "ramp: end time %s is not after the "
				     "start",
				     tok);
	}
	for (;;) {
		rc = ltok(x, tok);
		if (rc < 0)
			return rc;
		if (rc == 0)
			break;
		memset(&e, 0, sizeof(e));
		e.t0 = t0;
		e.t1 = t1;
		if (netem_param_lookup(tok, &e.param) < 0)
			return lfail(x,
				     "\"%s\": not a schedulable parameter "
				     "(delay, jitter, loss, rate, limit, "
				     "p13, gemodel-p, slot-min, ...: see "
				     "docs/netem.md)",
				     tok);
		if (t1 > t0) {
			if (ltok(x, kw) != 1)
				return lfail(x,
					     "ramp %s: missing a start value",
					     tok);
			if (param_value(e.param, kw, &e.v0, why) < 0)
				return lfail(x, "ramp %s: %s", tok, why);
		}
		if (ltok(x, kw) != 1)
			return lfail(x, "%s: missing a value", tok);
		if (param_value(e.param, kw, &e.v1, why) < 0)
			return lfail(x, "%s: %s", tok, why);
		if (t1 == t0)
			e.v0 = e.v1;
		rc = sched_add(s, &e);
		if (rc < 0)
			return rc;
		nparams++;
	}
	if (nparams == 0)
		return lfail(x, "%s: no parameter given", kw);
	return 1;
}

int netem_sched_parse(const char *text, struct netem_sched **out, char *err,
		      size_t errlen)
{
	struct lex x = {text ? text : "", 1, err, errlen};
	struct netem_sched *s = calloc(1, sizeof(*s));
	int rc;

	if (!s)
		return -ENOMEM;
	for (;;) {
		rc = parse_statement(&x, s);
		if (rc < 0) {
			netem_sched_free(s);
			return rc;
		}
		if (*x.p == '\0')
			break;
		if (*x.p == '\n')
			x.line++;
		if (*x.p == ';' || *x.p == '\n')
			x.p++;
		else {
			/* parse_statement stopped early; cannot happen */
			netem_sched_free(s);
			return lfail(&x, "unexpected text");
		}
	}
	*out = s;
	return 0;
}

/* ---- CSV traces ---- */

#define TRACE_COLS (NETEM_PARAM_N + 1) /* time and every parameter */

struct col {
	int is_time;
	enum netem_param param;
	char unit[16]; /* appended to bare cells */
};

static int bare_number(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s) && *s != '.')
			return 0;
	return 1;
}

static int header_col(struct lex *x, const char *name, struct col *c)
{
	char base[TOK_MAX];
	const char *us = strrchr(name, '_');
	size_t bl = us ? (size_t)(us - name) : strlen(name);

	memset(c, 0, sizeof(*c));
	memcpy(base, name, bl);
	base[bl] = '\0';
	if (us) {
		if (strlen(us + 1) >= sizeof(c->unit))
			return lfail(x, "column \"%s\": unit too long", name);
		strcpy(c->unit, strcmp(us + 1, "pct") == 0 ? "%" : us + 1);
	}
	if (strcmp(base, "time") == 0) {
		c->is_time = 1;
		return 0;
	}
	if (netem_param_lookup(base, &c->param) < 0)
		return lfail(x,
			     "column \"%s\": not time or a schedulable "
			     "parameter",
			     name);
	return 0;
}

/* Split one CSV line [s, e) into trimmed cells. */
static int split_cells(struct lex *x, const char *s, const char *e,
		       char cells[TRACE_COLS][TOK_MAX], int *ncells)
{
	int n = 0;

	for (;;) {
		const char *c = s, *ce;
		size_t l;

		while (c < e && *c != ',')
			c++;
		ce = c;
		while (s < ce && isspace((unsigned char)*s))
			s++;
		while (ce > s && isspace((unsigned char)ce[-1]))
			ce--;
		l = (size_t)(ce - s);
		if (n == TRACE_COLS)
			return lfail(x, "more than %d columns", TRACE_COLS);
		if (l >= TOK_MAX)
			return lfail(x, "cell %d too long", n + 1);
		memcpy(cells[n], s, l);
		cells[n][l] = '\0';
		n++;
		if (c >= e)
			break;
		s = c + 1;
	}
	*ncells = n;
	return 0;
}

int netem_trace_parse_csv(const char *buf, size_t len, struct netem_sched **out,
			  char *err, size_t errlen)
{
	struct lex x = {buf, 0, err, errlen};
	struct col cols[TRACE_COLS];
	char cells[TRACE_COLS][TOK_MAX], tmp[TOK_MAX + 16], why[NETEM_WHY_MAX];
	struct netem_sched *s = calloc(1, sizeof(*s));
	size_t pos = 0;
	int ncols = 0, n = 0, i, rc = 0, rows = 0;
	int64_t last_t = INT64_MIN;

	if (!s)
		return -ENOMEM;
	while (pos < len) {
		const char *ls = buf + pos, *le = memchr(ls, '\n', len - pos);

		if (!le)
			le = buf + len;
		pos = (size_t)(le - buf) + 1;
		x.line++;
		if (memchr(ls, '\0', (size_t)(le - ls))) {
			rc = lfail(&x, "NUL byte");
			goto fail;
		}
		while (ls < le && isspace((unsigned char)*ls))
			ls++;
		if (ls == le || *ls == '#')
			continue;
		rc = split_cells(&x, ls, le, cells, &n);
		if (rc < 0)
			goto fail;
		if (ncols == 0) {
			for (i = 0; i < n; i++) {
				rc = header_col(&x, cells[i], &cols[i]);
				if (rc < 0)
					goto fail;
			}
			if (!cols[0].is_time) {
				rc = lfail(&x, "the first column must be time");
				goto fail;
			}
			for (i = 1; i < n; i++)
				if (cols[i].is_time) {
					rc = lfail(&x, "time given twice");
					goto fail;
				}
			ncols = n;
			continue;
		}
		if (n != ncols) {
			rc = lfail(&x, "%d cells, the header has %d", n, ncols);
			goto fail;
		}
		struct netem_sched_ev e;
		int64_t t;

		snprintf(tmp, sizeof(tmp), "%s%s", cells[0],
			 bare_number(cells[0]) ? cols[0].unit : "");
		if (netem_parse_time(tmp, &t, why) < 0) {
			rc = lfail(&x, "time: %s", why);
			goto fail;
		}
		if (t < last_t) {
			rc = lfail(&x, "time %s goes backwards", cells[0]);
			goto fail;
		}
		last_t = t;
		for (i = 1; i < n; i++) {
			if (cells[i][0] == '\0')
				continue;
			memset(&e, 0, sizeof(e));
			e.t0 = e.t1 = t;
			e.param = cols[i].param;
			snprintf(tmp, sizeof(tmp), "%s%s", cells[i],
				 bare_number(cells[i]) ? cols[i].unit : "");
			if (param_value(e.param, tmp, &e.v1, why) < 0) {
				rc = lfail(&x, "%s: %s", pnames[e.param], why);
				goto fail;
			}
			e.v0 = e.v1;
			rc = sched_add(s, &e);
			if (rc < 0)
				goto fail;
		}
		rows++;
	}
	if (ncols == 0 || rows == 0) {
		rc = lfail(&x, "no %s", ncols ? "rows" : "header");
		goto fail;
	}
	*out = s;
	return 0;
fail:
	netem_sched_free(s);
	return rc;
}

/* ---- evaluation ---- */

/* Switching to a loss model starts from tc's defaults for it (p13 = 0 or
 * p = 0 with the implied rest, q_netem.c), so that the parameter the event
 * sets is the only one given. */
static void to_state(struct netem_spec *o)
{
	if (o->loss_model == NETEM_LOSS_STATE)
		return;
	o->loss_model = NETEM_LOSS_STATE;
	o->p13 = o->p32 = o->p14 = 0;
	o->p31 = o->p23 = UINT32_MAX;
}

static void to_gemodel(struct netem_spec *o)
{
	if (o->loss_model == NETEM_LOSS_GEMODEL)
		return;
	o->loss_model = NETEM_LOSS_GEMODEL;
	o->ge_p = o->ge_1k = 0;
	o->ge_r = o->ge_1h = UINT32_MAX;
}

static void to_slot(struct netem_spec *o, int dist)
{
	if (o->slot && o->slot_use_dist == dist)
		return;
	o->slot = 1;
	o->slot_use_dist = dist;
	o->slot_min_ns = o->slot_max_ns = 0;
	o->slot_dist = NETEM_DIST_UNIFORM;
	memset(o->slot_dist_name, 0, sizeof(o->slot_dist_name));
	o->slot_dist_delay_ns = o->slot_dist_jitter_ns = 0;
}

static int64_t clamp_i64(double v, int64_t lo, int64_t hi)
{
	if (v <= (double)lo)
		return lo;
	if (v >= (double)hi)
		return hi;
	return (int64_t)llrint(v);
}

static void set_param(struct netem_spec *o, enum netem_param p, double v)
{
	uint32_t u = (uint32_t)clamp_i64(v, 0, UINT32_MAX);
	int64_t ns = clamp_i64(v, 0, INT64_MAX / 2);
	int32_t i = (int32_t)clamp_i64(v, INT32_MIN, INT32_MAX);

	switch (p) {
	case NETEM_PARAM_DELAY:
		o->latency_ns = ns;
		break;
	case NETEM_PARAM_JITTER:
		o->jitter_ns = ns;
		break;
	case NETEM_PARAM_DELAY_CORR:
		o->delay_corr = u;
		break;
	case NETEM_PARAM_LOSS:
		o->loss_model = NETEM_LOSS_RANDOM;
		o->loss = u;
		break;
	case NETEM_PARAM_LOSS_CORR:
		o->loss_corr = u;
		break;
	case NETEM_PARAM_DUPLICATE:
		o->duplicate = u;
		break;
	case NETEM_PARAM_CORRUPT:
		o->corrupt = u;
		break;
	case NETEM_PARAM_REORDER:
		o->reorder = u;
		if (u && o->gap == 0)
			o->gap = 1;
		break;
	case NETEM_PARAM_RATE:
		o->rate = v <= 0 ? 0 : (uint64_t)llrint(v);
		break;
	case NETEM_PARAM_LIMIT:
		o->limit = u;
		break;
	case NETEM_PARAM_DUPLICATE_CORR:
		o->duplicate_corr = u;
		break;
	case NETEM_PARAM_CORRUPT_CORR:
		o->corrupt_corr = u;
		break;
	case NETEM_PARAM_REORDER_CORR:
		o->reorder_corr = u;
		break;
	case NETEM_PARAM_GAP:
		o->gap = u;
		break;
	case NETEM_PARAM_P13:
		if (o->loss_model != NETEM_LOSS_STATE) {
			to_state(o);
			o->p31 = UINT32_MAX - u; /* "loss state P13" */
		}
		o->p13 = u;
		break;
	case NETEM_PARAM_P31:
		to_state(o);
		o->p31 = u;
		break;
	case NETEM_PARAM_P32:
		to_state(o);
		o->p32 = u;
		break;
	case NETEM_PARAM_P23:
		to_state(o);
		o->p23 = u;
		break;
	case NETEM_PARAM_P14:
		to_state(o);
		o->p14 = u;
		break;
	case NETEM_PARAM_GE_P:
		if (o->loss_model != NETEM_LOSS_GEMODEL) {
			to_gemodel(o);
			o->ge_r = UINT32_MAX - u; /* "loss gemodel P" */
		}
		o->ge_p = u;
		break;
	case NETEM_PARAM_GE_R:
		to_gemodel(o);
		o->ge_r = u;
		break;
	case NETEM_PARAM_GE_1H:
		to_gemodel(o);
		o->ge_1h = u;
		break;
	case NETEM_PARAM_GE_1K:
		to_gemodel(o);
		o->ge_1k = u;
		break;
	case NETEM_PARAM_OVERHEAD:
		o->packet_overhead = i;
		break;
	case NETEM_PARAM_CELL_SIZE:
		o->cell_size = u;
		break;
	case NETEM_PARAM_CELL_OVERHEAD:
		o->cell_overhead = i;
		break;
	case NETEM_PARAM_SLOT_MIN:
		to_slot(o, 0);
		o->slot_min_ns = ns;
		break;
	case NETEM_PARAM_SLOT_MAX:
		to_slot(o, 0);
		o->slot_max_ns = ns;
		break;
	case NETEM_PARAM_SLOT_DELAY:
		to_slot(o, 1);
		o->slot_dist_delay_ns = ns;
		break;
	case NETEM_PARAM_SLOT_JITTER:
		to_slot(o, 1);
		o->slot_dist_jitter_ns = ns;
		break;
	case NETEM_PARAM_SLOT_PACKETS:
		to_slot(o, o->slot ? o->slot_use_dist : 0);
		o->slot_packets = u > INT32_MAX ? INT32_MAX : u;
		break;
	case NETEM_PARAM_SLOT_BYTES:
		to_slot(o, o->slot ? o->slot_use_dist : 0);
		o->slot_bytes = u > INT32_MAX ? INT32_MAX : u;
		break;
	default:
		break;
	}
}

/* What a sequence of events can leave inconsistent (see netem_sched.h). */
static void make_valid(struct netem_spec *o)
{
	if (o->slot && o->slot_max_ns < o->slot_min_ns)
		o->slot_max_ns = o->slot_min_ns;
	if (o->loss_model == NETEM_LOSS_STATE) {
		if ((uint64_t)o->p13 + o->p14 > UINT32_MAX)
			o->p14 = UINT32_MAX - o->p13;
		if ((uint64_t)o->p31 + o->p32 > UINT32_MAX)
			o->p31 = UINT32_MAX - o->p32;
	}
}

int netem_sched_eval(const struct netem_sched *s, const struct netem_spec *base,
		     int64_t t_ns, struct netem_spec *out, int64_t *next_ns)
{
	struct netem_spec o = *base;
	int64_t next = INT64_MAX;
	size_t i;

	for (i = 0; s && i < s->n; i++) {
		const struct netem_sched_ev *e = &s->ev[i];
		double v;

		if (e->t0 > t_ns) {
			if (e->t0 < next)
				next = e->t0;
			continue;
		}
		if (e->t1 > t_ns) {
			/* inside a ramp: linear in time */
			v = e->v0 + (e->v1 - e->v0) * (double)(t_ns - e->t0) /
					    (double)(e->t1 - e->t0);
			next = t_ns + 1;
		} else {
			v = e->v1;
		}
		set_param(&o, e->param, v);
	}
	make_valid(&o);
	*out = o;
	if (next_ns)
		*next_ns = next;
	return 0;
}

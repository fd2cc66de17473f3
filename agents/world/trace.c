/*
 * trace.c: movement traces in memory and as CSV (docs/trace-format.md).
 * The writer prints times as exact decimal seconds from integer
 * nanoseconds and fixed decimals for the rest, so one trace always gives
 * the same bytes. The reader finds columns by header name, fills optional
 * columns with defaults, and rejects a malformed or out-of-order row with
 * its line number. Also the events file (fire, hit, pickup, death, spawn).
 */
#include "trace.h"

#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define MAX_FIELDS 64

void trace_init(struct trace *t)
{
	memset(t, 0, sizeof(*t));
}

void trace_free(struct trace *t)
{
	free(t->s);
	trace_init(t);
}

int trace_append(struct trace *t, const struct trace_sample *s)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1024;
		struct trace_sample *p = realloc(t->s, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		t->s = p;
		t->cap = cap;
	}
	t->s[t->n++] = *s;
	return 0;
}

static void seterr(char *err, size_t errlen, unsigned long line,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void seterr(char *err, size_t errlen, unsigned long line,
		   const char *fmt, ...)
{
	va_list ap;
	int k;

	if (!err || errlen == 0)
		return;
	k = snprintf(err, errlen, "line %lu: ", line);
	if (k < 0 || (size_t)k >= errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
	va_end(ap);
}

enum col {
	C_T,
	C_TNS,
	C_ENTITY,
	C_TEAM,
	C_ALIVE,
	C_X,
	C_Y,
	C_Z,
	C_VX,
	C_VY,
	C_VZ,
	C_YAW,
	C_HEALTH,
	C_ARMOR,
	C_AMMO,
	C_STANCE,
	C_NCOLS
};

static const char *const col_names[C_NCOLS] = {
	"t",  "t_ns", "entity", "team", "alive",  "x",	   "y",	   "z",
	"vx", "vy",   "vz",	"yaw",	"health", "armor", "ammo", "stance",
};

static void parse_meta(const char *line, struct trace *t)
{
	const char *p = line + 1;
	uint64_t v;

	while (*p == ' ')
		p++;
	if (strncmp(p, "map=", 4) == 0) {
		snprintf(t->map, sizeof(t->map), "%s", p + 4);
	} else if (strncmp(p, "seed=", 5) == 0) {
		if (csv_u64(p + 5, &v) == 0)
			t->seed = v;
	} else if (strncmp(p, "tick_ns=", 8) == 0) {
		if (csv_u64(p + 8, &v) == 0 && v > 0 && v < INT64_MAX)
			t->tick_ns = (int64_t)v;
	}
}

/* Record why a field failed and return the error code. */
static int why_err(const char **why, const char *msg, int rc)
{
	*why = msg;
	return rc;
}

static int parse_row(char **f, int nf, const int *idx, struct trace_sample *s,
		     const char **why)
{
	long l;
	double d;
	struct trace_sample o = {.alive = 1, .health = 100};

#define FIELD(c) (idx[c] >= 0 && idx[c] < nf ? f[idx[c]] : NULL)
	if (idx[C_T] >= 0) {
		if (!FIELD(C_T) || csv_seconds_ns(FIELD(C_T), &o.t_ns))
			return why_err(why, "bad time", -EINVAL);
	} else {
		if (!FIELD(C_TNS) ||
		    csv_long(FIELD(C_TNS), LONG_MIN, LONG_MAX, &l))
			return why_err(why, "bad t_ns", -EINVAL);
		o.t_ns = l;
	}
	if (!FIELD(C_ENTITY) ||
	    csv_long(FIELD(C_ENTITY), 0, UINT32_MAX - 1, &l))
		return why_err(why, "bad entity", -EINVAL);
	o.entity = (uint32_t)l;
	if (FIELD(C_TEAM)) {
		if (csv_long(FIELD(C_TEAM), 0, 255, &l))
			return why_err(why, "bad team", -EINVAL);
		o.team = (uint8_t)l;
	}
	if (FIELD(C_ALIVE)) {
		if (csv_long(FIELD(C_ALIVE), 0, 1, &l))
			return why_err(why, "bad alive (0 or 1)", -EINVAL);
		o.alive = (uint8_t)l;
	}
	if (FIELD(C_STANCE)) {
		if (csv_long(FIELD(C_STANCE), 0, 2, &l))
			return why_err(why, "bad stance (0, 1 or 2)", -EINVAL);
		o.stance = (uint8_t)l;
	}
	{
		static const int dcols[] = {C_X,  C_Y,	C_Z,  C_VX,
					    C_VY, C_VZ, C_YAW};
		double *dst[] = {&o.x, &o.y, &o.z, &o.vx, &o.vy, &o.vz, &o.yaw};

		for (size_t i = 0; i < sizeof(dcols) / sizeof(dcols[0]); i++) {
			const char *v = FIELD(dcols[i]);

			if (!v) {
				if (dcols[i] == C_X || dcols[i] == C_Y)
					return why_err(why, "missing position",
						       -EINVAL);
				continue;
			}
			if (csv_double(v, &d))
				return why_err(why, "bad number", -EINVAL);
			*dst[i] = d;
		}
	}
	{
		static const int icols[] = {C_HEALTH, C_ARMOR, C_AMMO};
		int16_t *dst[] = {&o.health, &o.armor, &o.ammo};

		for (size_t i = 0; i < 3; i++) {
			const char *v = FIELD(icols[i]);

			if (!v)
				continue;
			if (csv_long(v, INT16_MIN, INT16_MAX, &l))
				return why_err(why, "bad health/armor/ammo",
					       -EINVAL);
			*dst[i] = (int16_t)l;
		}
	}
#undef FIELD
	*s = o;
	return 0;
}

int trace_read_csv_lines(FILE *f, struct trace *out, uint32_t **lines,
			 unsigned flags, char *err, size_t errlen)
{
	struct trace t;
	char *buf = NULL, *fields[MAX_FIELDS];
	size_t cap = 0, lcap = 0;
	uint32_t *ln = NULL;
	unsigned long lineno = 0;
	int idx[C_NCOLS], have_header = 0, rc = 0;
	ssize_t got;

	trace_init(&t);
	for (int i = 0; i < C_NCOLS; i++)
		idx[i] = -1;
	while ((got = getline(&buf, &cap, f)) >= 0) {
		char *line;
		int nf;

		lineno++;
		if ((size_t)got != strlen(buf)) {
			seterr(err, errlen, lineno, "NUL byte in line");
			rc = -EINVAL;
			goto fail;
		}
		line = csv_trim(buf);
		if (!*line)
			continue;
		if (*line == '#') {
			if (!have_header)
				parse_meta(line, &t);
			continue;
		}
		nf = csv_split(line, fields, MAX_FIELDS);
		if (nf < 0) {
			seterr(err, errlen, lineno, "more than %d columns",
			       MAX_FIELDS);
			rc = -EINVAL;
			goto fail;
		}
		if (!have_header) {
			for (int i = 0; i < nf; i++)
				for (int c = 0; c < C_NCOLS; c++)
					if (strcmp(fields[i], col_names[c]) ==
					    0)
						idx[c] = i;
			if ((idx[C_T] < 0 && idx[C_TNS] < 0) ||
			    idx[C_ENTITY] < 0 || idx[C_X] < 0 || idx[C_Y] < 0) {
				seterr(err, errlen, lineno,
				       "header needs columns t (or t_ns), "
				       "entity, x, y");
				rc = -EINVAL;
				goto fail;
			}
			have_header = 1;
			continue;
		}
		{
			struct trace_sample s;
			const char *why = "";

			if (parse_row(fields, nf, idx, &s, &why)) {
				seterr(err, errlen, lineno, "%s", why);
				rc = -EINVAL;
				goto fail;
			}
			if (!(flags & TRACE_READ_LAX) && t.n > 0) {
				const struct trace_sample *p = &t.s[t.n - 1];

				if (s.t_ns < p->t_ns ||
				    (s.t_ns == p->t_ns &&
				     s.entity <= p->entity)) {
					seterr(err, errlen, lineno,
					       "sample out of (time, entity) "
					       "order");
					rc = -EINVAL;
					goto fail;
				}
			}
			rc = trace_append(&t, &s);
			if (rc)
				goto fail;
			if (lines) {
				if (t.n > lcap) {
					size_t nc = lcap ? lcap * 2 : 1024;
					uint32_t *p =
						realloc(ln, nc * sizeof(*p));

					if (!p) {
						rc = -ENOMEM;
						goto fail;
					}
					ln = p;
					lcap = nc;
				}
				ln[t.n - 1] = (uint32_t)lineno;
			}
		}
	}
	if (ferror(f)) {
		seterr(err, errlen, lineno, "read error");
		rc = -EIO;
		goto fail;
	}
	if (!have_header) {
		seterr(err, errlen, lineno, "no header line");
		rc = -EINVAL;
		goto fail;
	}
	if (t.tick_ns <= 0) {
		/* infer the tick: smallest positive step between samples */
		int64_t best = 0;

		for (size_t i = 1; i < t.n; i++) {
			int64_t d = t.s[i].t_ns - t.s[i - 1].t_ns;

			if (d > 0 && (best == 0 || d < best))
				best = d;
		}
		t.tick_ns = best;
	}
	free(buf);
	*out = t;
	if (lines)
		*lines = ln;
	return 0;
fail:
	free(buf);
	free(ln);
	trace_free(&t);
	return rc;
}

int trace_read_csv(FILE *f, struct trace *out, char *err, size_t errlen)
{
	return trace_read_csv_lines(f, out, NULL, 0, err, errlen);
}

int trace_write_csv(FILE *f, const struct trace *t)
{
	char tb[40];

	fprintf(f, "# reckon trace v1\n");
	fprintf(f, "# map=%s\n", t->map);
	fprintf(f, "# seed=%" PRIu64 "\n", t->seed);
	fprintf(f, "# tick_ns=%" PRId64 "\n", t->tick_ns);
	fprintf(f, "t,entity,team,alive,x,y,z,vx,vy,vz,yaw,health,armor,"
		   "ammo,stance\n");
	for (size_t i = 0; i < t->n; i++) {
		const struct trace_sample *s = &t->s[i];

		csv_format_ns(tb, sizeof(tb), s->t_ns);
		fprintf(f,
			"%s,%" PRIu32 ",%u,%u,%.4f,%.4f,%.4f,%.3f,%.3f,%.3f,"
			"%.3f,%d,%d,%d,%u\n",
			tb, s->entity, s->team, s->alive, s->x, s->y, s->z,
			s->vx, s->vy, s->vz, s->yaw, s->health, s->armor,
			s->ammo, s->stance);
	}
	fflush(f);
	return ferror(f) ? -EIO : 0;
}

void trace_events_init(struct trace_events *ev)
{
	memset(ev, 0, sizeof(*ev));
}

void trace_events_free(struct trace_events *ev)
{
	free(ev->e);
	trace_events_init(ev);
}

int trace_events_append(struct trace_events *ev, const struct trace_event *e)
{
	if (ev->n == ev->cap) {
		size_t cap = ev->cap ? ev->cap * 2 : 256;
		struct trace_event *p = realloc(ev->e, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		ev->e = p;
		ev->cap = cap;
	}
	ev->e[ev->n++] = *e;
	return 0;
}

static const char *const ev_names[] = {
	[TRACE_EV_FIRE] = "fire",     [TRACE_EV_HIT] = "hit",
	[TRACE_EV_PICKUP] = "pickup", [TRACE_EV_DEATH] = "death",
	[TRACE_EV_SPAWN] = "spawn",
};

const char *trace_event_kind_name(enum trace_event_kind k)
{
	if ((unsigned)k >= sizeof(ev_names) / sizeof(ev_names[0]))
		return "?";
	return ev_names[k];
}

int trace_event_kind_parse(const char *name, enum trace_event_kind *out)
{
	for (size_t i = 0; i < sizeof(ev_names) / sizeof(ev_names[0]); i++)
		if (strcmp(name, ev_names[i]) == 0) {
			*out = (enum trace_event_kind)i;
			return 0;
		}
	return -EINVAL;
}

int trace_events_write_csv(FILE *f, const struct trace_events *ev)
{
	char tb[40], target[16];

	fprintf(f, "# reckon events v1\n");
	fprintf(f, "t,kind,entity,target,x,y,z,value\n");
	for (size_t i = 0; i < ev->n; i++) {
		const struct trace_event *e = &ev->e[i];

		csv_format_ns(tb, sizeof(tb), e->t_ns);
		if (e->target == TRACE_NONE)
			snprintf(target, sizeof(target), "-");
		else
			snprintf(target, sizeof(target), "%" PRIu32, e->target);
		fprintf(f, "%s,%s,%" PRIu32 ",%s,%.4f,%.4f,%.4f,%" PRId32 "\n",
			tb, trace_event_kind_name(e->kind), e->entity, target,
			e->x, e->y, e->z, e->value);
	}
	fflush(f);
	return ferror(f) ? -EIO : 0;
}

int trace_events_read_csv(FILE *f, struct trace_events *out, char *err,
			  size_t errlen)
{
	struct trace_events ev;
	char *buf = NULL, *fld[16];
	size_t cap = 0;
	unsigned long lineno = 0;
	int have_header = 0, rc = 0;
	ssize_t got;

	trace_events_init(&ev);
	while ((got = getline(&buf, &cap, f)) >= 0) {
		struct trace_event e;
		char *line;
		long l;
		int nf;

		lineno++;
		line = csv_trim(buf);
		if (!*line || *line == '#')
			continue;
		nf = csv_split(line, fld, 16);
		if (!have_header) {
			if (nf != 8 || strcmp(fld[0], "t") ||
			    strcmp(fld[1], "kind") || strcmp(fld[7], "value")) {
				seterr(err, errlen, lineno,
				       "header must be "
				       "t,kind,entity,target,x,y,z,value");
				rc = -EINVAL;
				goto fail;
			}
			have_header = 1;
			continue;
		}
		memset(&e, 0, sizeof(e));
		if (nf != 8) {
			seterr(err, errlen, lineno, "need 8 fields, got %d",
			       nf);
			rc = -EINVAL;
			goto fail;
		}
		if (csv_seconds_ns(fld[0], &e.t_ns) ||
		    trace_event_kind_parse(fld[1], &e.kind) ||
		    csv_long(fld[2], 0, UINT32_MAX - 1, &l)) {
			seterr(err, errlen, lineno, "bad time, kind or entity");
			rc = -EINVAL;
			goto fail;
		}
		e.entity = (uint32_t)l;
		if (strcmp(fld[3], "-") == 0) {
			e.target = TRACE_NONE;
		} else if (csv_long(fld[3], 0, UINT32_MAX - 1, &l) == 0) {
			e.target = (uint32_t)l;
		} else {
			seterr(err, errlen, lineno, "bad target");
			rc = -EINVAL;
			goto fail;
		}
		if (csv_double(fld[4], &e.x) || csv_double(fld[5], &e.y) ||
		    csv_double(fld[6], &e.z) ||
		    csv_long(fld[7], INT32_MIN, INT32_MAX, &l)) {
			seterr(err, errlen, lineno, "bad position or value");
			rc = -EINVAL;
			goto fail;
		}
		e.value = (int32_t)l;
		if (ev.n > 0 && e.t_ns < ev.e[ev.n - 1].t_ns) {
			seterr(err, errlen, lineno, "time goes backwards");
			rc = -EINVAL;
			goto fail;
		}
		rc = trace_events_append(&ev, &e);
		if (rc)
			goto fail;
	}
	if (!have_header) {
		seterr(err, errlen, lineno, "no header line");
		rc = -EINVAL;
		goto fail;
	}
	free(buf);
	*out = ev;
	return 0;
fail:
	free(buf);
	trace_events_free(&ev);
	return rc;
}

size_t trace_entities(const struct trace *t, uint32_t *ids, size_t max)
{
	size_t n = 0;

	/* insertion into a sorted, distinct list; entity counts are small */
	for (size_t i = 0; i < t->n; i++) {
		uint32_t e = t->s[i].entity;
		size_t lo = 0, hi = n;

		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (ids[mid] < e)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < n && ids[lo] == e)
			continue;
		if (n == max) {
			if (lo == n)
				continue;
			n--; /* drop the largest to keep the smallest max */
		}
		memmove(ids + lo + 1, ids + lo, (n - lo) * sizeof(*ids));
		ids[lo] = e;
		n++;
	}
	return n;
}

int trace_filter_entity(const struct trace *t, uint32_t entity,
			struct trace *out)
{
	struct trace o;
	int rc;

	trace_init(&o);
	o.tick_ns = t->tick_ns;
	o.seed = t->seed;
	memcpy(o.map, t->map, sizeof(o.map));
	for (size_t i = 0; i < t->n; i++) {
		if (t->s[i].entity != entity)
			continue;
		rc = trace_append(&o, &t->s[i]);
		if (rc) {
			trace_free(&o);
			return rc;
		}
	}
	*out = o;
	return 0;
}

/*
 * trace_import.c: the column-mapped CSV importer of trace_import.h. Rows
 * are read in file order, sorted by (time, entity) with the file order
 * breaking ties (a duplicate (time, entity) keeps the first row), then
 * velocities and yaw are filled in per entity where the file had none.
 * Without a time column each entity's rows are numbered in file order,
 * rejected rows included, so a bad row leaves a gap instead of pulling
 * the later rows earlier. Per-entity state lives in a small hash table
 * keyed by entity id, sized by the ids the file holds, not their values.
 */
#include "trace_import.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define MAX_COLS  256
#define MAX_NAMES 4096

static const char *const names[TI_NFIELDS] = {
	"t",  "entity", "team", "alive", "x",	   "y",	    "z",
	"vx", "vy",	"vz",	"yaw",	 "health", "armor", "ammo",
};

void trace_import_defaults(struct trace_import_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->time_scale = 1.0;
	o->pos_scale = 1.0;
}

int trace_import_mapping(const char *spec, struct trace_import_opts *o,
			 char *err, size_t errlen)
{
	char buf[1024], *save = NULL, *tok;
	struct trace_import_opts n = *o;

	if (strlen(spec) >= sizeof(buf)) {
		snprintf(err, errlen, "mapping too long");
		return -EINVAL;
	}
	snprintf(buf, sizeof(buf), "%s", spec);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		int f = -1;

		if (!eq || eq == tok || !eq[1] || strlen(eq + 1) >= 64) {
			snprintf(err, errlen, "'%s': want FIELD=COLUMN", tok);
			return -EINVAL;
		}
		*eq = '\0';
		for (int i = 0; i < TI_NFIELDS; i++)
			if (strcmp(tok, names[i]) == 0)
				f = i;
		if (f < 0) {
			snprintf(err, errlen,
				 "unknown field '%s' (fields: t entity team "
				 "alive x y z vx vy vz yaw health armor ammo)",
				 tok);
			return -EINVAL;
		}
		snprintf(n.col[f], sizeof(n.col[f]), "%s", eq + 1);
	}
	if (!n.col[TI_X][0] || !n.col[TI_Y][0]) {
		snprintf(err, errlen, "mapping must give x and y");
		return -EINVAL;
	}
	*o = n;
	return 0;
}

struct names {
	char **s;
	size_t n;
};

/* id of a name: a number if the field is a non-negative integer,
 * otherwise its order of first appearance (offset) */
static int name_id(struct names *nm, const char *s, long offset, long *out)
{
	if (csv_long(s, 0, UINT32_MAX - 1, out) == 0)
		return 0;
	for (size_t i = 0; i < nm->n; i++)
		if (strcmp(nm->s[i], s) == 0) {
			*out = (long)i + offset;
			return 0;
		}
	if (nm->n == MAX_NAMES || !*s)
		return -EINVAL;
	nm->s[nm->n] = strdup(s);
	if (!nm->s[nm->n])
		return -ENOMEM;
	*out = (long)nm->n++ + offset;
	return 0;
}

/* entity id -> count or index: open addressing, linear probing, grown at
 * half full; UINT32_MAX (not a valid id, see name_id) marks a free slot */
struct idmap {
	uint32_t *key;
	size_t *val;
	size_t n, cap;
};

static size_t idmap_home(uint32_t key, size_t cap)
{
	uint64_t h = (uint64_t)key * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 32) & (cap - 1);
}

static int idmap_grow(struct idmap *m)
{
	size_t nc = m->cap ? m->cap * 2 : 64;
	uint32_t *k = malloc(nc * sizeof(*k));
	size_t *v = malloc(nc * sizeof(*v));

	if (!k || !v) {
		free(k);
		free(v);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nc; i++)
		k[i] = UINT32_MAX;
	for (size_t i = 0; i < m->cap; i++) {
		size_t j;

		if (m->key[i] == UINT32_MAX)
			continue;
		for (j = idmap_home(m->key[i], nc); k[j] != UINT32_MAX;
		     j = (j + 1) & (nc - 1))
			;
		k[j] = m->key[i];
		v[j] = m->val[i];
	}
	free(m->key);
	free(m->val);
	m->key = k;
	m->val = v;
	m->cap = nc;
	return 0;
}

/* the value of key, inserted as 0 if new; NULL when out of memory */
static size_t *idmap_get(struct idmap *m, uint32_t key)
{
	size_t j;

	if (2 * (m->n + 1) > m->cap && idmap_grow(m))
		return NULL;
	for (j = idmap_home(key, m->cap); m->key[j] != UINT32_MAX;
	     j = (j + 1) & (m->cap - 1))
		if (m->key[j] == key)
			return &m->val[j];
	m->key[j] = key;
	m->val[j] = 0;
	m->n++;
	return &m->val[j];
}

static void idmap_free(struct idmap *m)
{
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof(*m));
}

struct row {
	struct trace_sample s;
	size_t order;
	int have_v, have_yaw;
};

static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->s.t_ns != y->s.t_ns)
		return x->s.t_ns < y->s.t_ns ? -1 : 1;
	if (x->s.entity != y->s.entity)
		return x->s.entity < y->s.entity ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void bad(struct trace_import_report *r, unsigned long line,
		const char *why)
{
	if (r->nbad < 8) {
		r->first_bad_line[r->nbad] = (uint32_t)line;
		snprintf(r->first_bad_why[r->nbad], 64, "%s", why);
		r->nbad++;
	}
	r->rejected++;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* velocities, yaw and tick from the sorted rows */
static int finish(struct row *rows, size_t n, struct trace *t)
{
	int64_t *deltas = malloc((n ? n : 1) * sizeof(*deltas));
	struct idmap last = {0}; /* entity -> 1 + index of its last row */
	size_t nd = 0;
	int rc = 0;

	if (!deltas)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct row *r = &rows[i];
		size_t *seen = idmap_get(&last, r->s.entity);

		if (!seen) {
			rc = -ENOMEM;
			goto out;
		}
		if (*seen) {
			struct row *p = &rows[*seen - 1];
			double dt = (double)(r->s.t_ns - p->s.t_ns) * 1e-9;

			deltas[nd++] = r->s.t_ns - p->s.t_ns;
			if (!r->have_v && dt > 0) {
				r->s.vx = (r->s.x - p->s.x) / dt;
				r->s.vy = (r->s.y - p->s.y) / dt;
				r->s.vz = (r->s.z - p->s.z) / dt;
			}
			if (!r->have_yaw) {
				if (hypot(r->s.vx, r->s.vy) > 1e-6) {
					double y = atan2(r->s.vy, r->s.vx) *
						   180.0 / M_PI;

					r->s.yaw = y < 0 ? y + 360 : y;
				} else {
					r->s.yaw = p->s.yaw;
				}
			}
		}
		*seen = i + 1;
	}
	if (nd) {
		qsort(deltas, nd, sizeof(*deltas), cmp_i64);
		t->tick_ns = deltas[nd / 2];
	}
	for (size_t i = 0; i < n && !rc; i++)
		rc = trace_append(t, &rows[i].s);
out:
	free(deltas);
	idmap_free(&last);
	return rc;
}

int trace_import_csv(FILE *f, const struct trace_import_opts *o,
		     struct trace *out, struct trace_import_report *rep,
		     char *err, size_t errlen)
{
	struct trace_import_report r = {0};
	struct names ent = {0}, team = {0};
	struct row *rows = NULL;
	size_t nrows = 0, cap = 0, bufcap = 0;
	char *buf = NULL, *fld[MAX_COLS];
	int idx[TI_NFIELDS], have_header = 0, rc = 0;
	unsigned long lineno = 0;
	struct trace t;
	struct idmap slots = {0}; /* no time column: rows so far per entity */
	int slotted = !o->col[TI_T][0];

	trace_init(&t);
	ent.s = calloc(MAX_NAMES, sizeof(char *));
	team.s = calloc(MAX_NAMES, sizeof(char *));
	if (!ent.s || !team.s) {
		rc = -ENOMEM;
		goto out;
	}
	for (int i = 0; i < TI_NFIELDS; i++)
		idx[i] = -1;
	if (!o->col[TI_T][0] && o->tick_ns <= 0) {
		snprintf(err, errlen,
			 "no time column mapped and no row period given");
		rc = -EINVAL;
		goto out;
	}
	while (getline(&buf, &bufcap, f) >= 0) {
		char *line = csv_trim(buf);
		int nf;

		lineno++;
		if (!*line || *line == '#')
			continue;
		nf = csv_split(line, fld, MAX_COLS);
		if (nf < 0) {
			if (!have_header) {
				snprintf(err, errlen,
					 "line %lu: more than %d columns",
					 lineno, MAX_COLS);
				rc = -EINVAL;
				goto out;
			}
			r.rows++;
			/* without an entity column the row's slot is known */
			if (slotted && idx[TI_ENTITY] < 0) {
				size_t *slot = idmap_get(&slots, 0);

				if (!slot) {
					rc = -ENOMEM;
					goto out;
				}
				(*slot)++;
			}
			bad(&r, lineno, "too many columns");
			continue;
		}
		if (!have_header) {
			for (int k = 0; k < TI_NFIELDS; k++) {
				if (!o->col[k][0])
					continue;
				for (int i = 0; i < nf; i++)
					if (strcmp(fld[i], o->col[k]) == 0)
						idx[k] = i;
				if (idx[k] < 0) {
					snprintf(err, errlen,
						 "line %lu: column '%s' (for "
						 "%s) not in the header",
						 lineno, o->col[k], names[k]);
					rc = -EINVAL;
					goto out;
				}
			}
			have_header = 1;
			continue;
		}
		r.rows++;
		{
			struct row x;
			double d;
			long l;
			const char *why = NULL;
			int ent_known = idx[TI_ENTITY] < 0;

			memset(&x, 0, sizeof(x));
			x.s.alive = 1;
			x.s.health = 100;
			x.order = nrows;
#define F(k) (idx[k] >= 0 && idx[k] < nf ? fld[idx[k]] : NULL)
			for (int k = 0; k < TI_NFIELDS && !why; k++) {
				const char *v = F(k);

				if (idx[k] < 0)
					continue;
				if (!v) {
					why = "missing field";
					break;
				}
				switch (k) {
				case TI_T:
					if (csv_double(v, &d) ||
					    fabs(d * o->time_scale) > 9e9)
						why = "bad time";
					else
						x.s.t_ns = llround(
							d * o->time_scale *
							1e9);
					break;
				case TI_ENTITY:
					if (name_id(&ent, v, 0, &l)) {
						why = "bad entity";
					} else {
						x.s.entity = (uint32_t)l;
						ent_known = 1;
					}
					break;
				case TI_TEAM:
					if (name_id(&team, v, 1, &l) || l > 255)
						why = "bad team";
					else
						x.s.team = (uint8_t)l;
					break;
				case TI_ALIVE:
					if (csv_long(v, 0, 1, &l))
						why = "bad alive";
					else
						x.s.alive = (uint8_t)l;
					break;
				case TI_HEALTH:
				case TI_ARMOR:
				case TI_AMMO:
					if (csv_double(v, &d) || d < -32768 ||
					    d > 32767) {
						why = "bad health/armor/ammo";
						break;
					}
					*(k == TI_HEALTH  ? &x.s.health
					  : k == TI_ARMOR ? &x.s.armor
							  : &x.s.ammo) =
						(int16_t)lround(d);
					break;
				default: {
					double *dst[] = {
						[TI_X] = &x.s.x,
						[TI_Y] = &x.s.y,
						[TI_Z] = &x.s.z,
						[TI_VX] = &x.s.vx,
						[TI_VY] = &x.s.vy,
						[TI_VZ] = &x.s.vz,
						[TI_YAW] = &x.s.yaw,
					};

					if (csv_double(v, &d)) {
						why = "bad number";
						break;
					}
					if (k != TI_YAW)
						d *= o->pos_scale;
					else
						d = fmod(fmod(d, 360) + 360,
							 360);
					*dst[k] = d;
				}
				}
			}
#undef F
			if (slotted && ent_known) {
				/* this row's time slot, used even if the row
				 * is rejected: a bad row is a missing sample,
				 * not a shift of the rest */
				size_t *slot = idmap_get(&slots, x.s.entity);

				if (!slot) {
					rc = -ENOMEM;
					goto out;
				}
				if ((int64_t)*slot > INT64_MAX / o->tick_ns)
					why = why ? why : "time out of range";
				else
					x.s.t_ns = (int64_t)*slot * o->tick_ns;
				(*slot)++;
			}
			if (why) {
				bad(&r, lineno, why);
				continue;
			}
			x.have_v = idx[TI_VX] >= 0 && idx[TI_VY] >= 0;
			x.have_yaw = idx[TI_YAW] >= 0;
			if (nrows == cap) {
				size_t nc = cap ? cap * 2 : 4096;
				struct row *p = realloc(rows, nc * sizeof(*p));

				if (!p) {
					rc = -ENOMEM;
					goto out;
				}
				rows = p;
				cap = nc;
			}
			rows[nrows++] = x;
		}
	}
	if (!have_header) {
		snprintf(err, errlen, "no header line");
		rc = -EINVAL;
		goto out;
	}
	qsort(rows, nrows, sizeof(*rows), cmp_row);
	{
		size_t w = 0;

		for (size_t i = 0; i < nrows; i++) {
			if (w > 0 && rows[w - 1].s.t_ns == rows[i].s.t_ns &&
			    rows[w - 1].s.entity == rows[i].s.entity) {
				r.duplicates++;
				continue;
			}
			rows[w++] = rows[i];
		}
		nrows = w;
	}
	rc = finish(rows, nrows, &t);
	if (rc)
		goto out;
	if (t.tick_ns <= 0)
		t.tick_ns = o->tick_ns;
	snprintf(t.map, sizeof(t.map), "%s", o->map);
	*out = t;
	trace_init(&t);
	if (rep)
		*rep = r;
out:
	for (size_t i = 0; i < ent.n; i++)
		free(ent.s[i]);
	for (size_t i = 0; i < team.n; i++)
		free(team.s[i]);
	free(ent.s);
	free(team.s);
	free(rows);
	free(buf);
	idmap_free(&slots);
	trace_free(&t);
	return rc;
}

/*
 * view_read.c: reads what `reckonctl view` draws from a run directory:
 * the observer's frames-HOST.csv and arrivals-HOST.csv, grid-*.csv,
 * events-*.csv, the lane names from metrics-HOST.csv and the map name
 * from the canonical scenario.ini. Rows are split with the one CSV
 * splitter (util/csv.c) and columns found by their header names, so a
 * file may gain columns. A malformed row is counted and skipped.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "view_int.h"

#define MAX_COLS 32

struct csv_in {
	FILE *f;
	char line[4096];
	char *hdr[MAX_COLS];
	char hbuf[4096];
	int nh;
	char *fld[MAX_COLS];
	int nf;
};

static int csv_in_open(struct csv_in *c, const char *path)
{
	memset(c, 0, sizeof(*c));
	c->f = fopen(path, "r");
	if (!c->f)
		return -errno;
	if (!fgets(c->hbuf, sizeof(c->hbuf), c->f)) {
		fclose(c->f);
		return -ENODATA;
	}
	c->nh = csv_split(csv_trim(c->hbuf), c->hdr, MAX_COLS);
	return c->nh > 0 ? 0 : -EINVAL;
}

/* Column of name, or -1. */
static int col(const struct csv_in *c, const char *name)
{
	for (int i = 0; i < c->nh; i++)
		if (!strcmp(c->hdr[i], name))
			return i;
	return -1;
}

/* Next row with as many fields as the header; 1, or 0 at the end. */
static int csv_in_next(struct csv_in *c, size_t *bad)
{
	while (fgets(c->line, sizeof(c->line), c->f)) {
		c->nf = csv_split(csv_trim(c->line), c->fld, MAX_COLS);
		if (c->nf == c->nh)
			return 1;
		if (c->nf > 0 || c->line[0])
			(*bad)++;
	}
	return 0;
}

/* Columns by name into idx[]; -EINVAL naming the first one missing. */
static int cols(const struct csv_in *c, const char *const *names, int n,
		int *idx, const char *path, char *why, size_t wlen)
{
	for (int i = 0; i < n; i++)
		if ((idx[i] = col(c, names[i])) < 0) {
			snprintf(why, wlen, "%s: no column '%s'", path,
				 names[i]);
			return -EINVAL;
		}
	return 0;
}

static int get_doubles(const struct csv_in *c, const int *idx, int n,
		       double *out)
{
	for (int i = 0; i < n; i++)
		if (csv_double(c->fld[idx[i]], &out[i]))
			return -EINVAL;
	return 0;
}

/* p with room for row n (rows of size bytes, *cap of them now). */
static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
	size_t nc = *cap * 2 > n + 1024 ? *cap * 2 : n + 1024;
	void *q;

	if (n < *cap)
		return p;
	q = realloc(p, nc * size);
	if (q)
		*cap = nc;
	return q;
}

struct view_grid_in *view_grid_get(struct view_data *d, const char *name,
				   const char *kind, const double *g)
{
	struct view_grid_in *n;
	size_t cells;

	for (size_t i = 0; i < d->n_grid; i++)
		if (!strcmp(d->grid[i].name, name))
			return &d->grid[i];
	n = realloc(d->grid, (d->n_grid + 1) * sizeof(*n));
	if (!n)
		return NULL;
	d->grid = n;
	n = &d->grid[d->n_grid];
	memset(n, 0, sizeof(*n));
	snprintf(n->name, sizeof(n->name), "%s", name);
	snprintf(n->kind, sizeof(n->kind), "%s", kind);
	n->x0 = g[0];
	n->y0 = g[1];
	n->x1 = g[2];
	n->y1 = g[3];
	n->nx = (int)g[4];
	n->ny = (int)g[5];
	cells = (size_t)n->nx * (size_t)n->ny;
	if (cells > 4096 * 4096)
		return NULL;
	n->value = malloc(cells * sizeof(double));
	n->u = calloc(cells, sizeof(double));
	n->v = calloc(cells, sizeof(double));
	if (!n->value || !n->u || !n->v) {
		free(n->value);
		free(n->u);
		free(n->v);
		return NULL;
	}
	for (size_t c = 0; c < cells; c++)
		n->value[c] = NAN;
	d->n_grid++;
	return n;
}

int view_grid_add(struct view_grid_in *g, int ix, int iy, double value,
		  double u, double v)
{
	size_t c;

	if (ix < 0 || iy < 0 || ix >= g->nx || iy >= g->ny)
		return -ERANGE;
	c = (size_t)iy * (size_t)g->nx + (size_t)ix;
	g->value[c] = value;
	g->u[c] = u;
	g->v[c] = v;
	return 0;
}

void view_data_free(struct view_data *d)
{
	for (size_t i = 0; i < d->n_grid; i++) {
		free(d->grid[i].value);
		free(d->grid[i].u);
		free(d->grid[i].v);
	}
	free(d->grid);
	free(d->fr);
	free(d->ar);
	free(d->ev);
	memset(d, 0, sizeof(*d));
}

int view_read_frames(struct view_data *d, const char *path, char *why,
		     size_t wlen)
{
	static const char *const names[] = {"lane",    "entity",  "t_s",
					    "shown_x", "shown_y", "true_x",
					    "true_y",  "err"};
	struct csv_in c;
	int idx[8], err = csv_in_open(&c, path);
	size_t cap = d->n_fr; /* rows already read */

	if (err) {
		snprintf(why, wlen, "%s: %s", path, strerror(-err));
		return err;
	}
	err = cols(&c, names, 8, idx, path, why, wlen);
	while (!err && csv_in_next(&c, &d->bad_rows)) {
		struct view_frame *fr;
		double v[8];

		if (get_doubles(&c, idx, 8, v) || v[0] < 0 ||
		    v[0] >= VIEW_MAX_LANES || v[1] < 0) {
			d->bad_rows++;
			continue;
		}
		fr = grow(d->fr, &cap, d->n_fr, sizeof(*fr));
		if (!fr) {
			err = -ENOMEM;
			break;
		}
		d->fr = fr;
		fr = &d->fr[d->n_fr++];
		fr->lane = d->cur * VIEW_MAX_LANES + (int)v[0];
		fr->entity = (long)v[1];
		fr->t = v[2];
		fr->sx = v[3];
		fr->sy = v[4];
		fr->tx = v[5];
		fr->ty = v[6];
		fr->err = v[7];
	}
	fclose(c.f);
	return err;
}

static int result_code(const char *s)
{
	static const char *const r[] = {"applied", "stale", "unmatched",
					"rejected"};

	for (int i = 0; i < 4; i++)
		if (!strcmp(s, r[i]))
			return i;
	return -1;
}

int view_read_arrivals(struct view_data *d, const char *path, char *why,
		       size_t wlen)
{
	static const char *const names[] = {"lane",   "entity", "seq",
					    "send_s", "recv_s", "x",
					    "y",      "result"};
	struct csv_in c;
	int idx[8], err = csv_in_open(&c, path);
	size_t cap = d->n_ar;

	if (err == -ENOENT)
		return 0; /* optional */
	if (err) {
		snprintf(why, wlen, "%s: %s", path, strerror(-err));
		return err;
	}
	err = cols(&c, names, 8, idx, path, why, wlen);
	while (!err && csv_in_next(&c, &d->bad_rows)) {
		struct view_arrival *a;
		double v[7];
		int r = result_code(c.fld[idx[7]]);

		if (get_doubles(&c, idx, 7, v) || r < 0 || v[0] < 0 ||
		    v[0] >= VIEW_MAX_LANES || v[2] < 0) {
			d->bad_rows++;
			continue;
		}
		a = grow(d->ar, &cap, d->n_ar, sizeof(*a));
		if (!a) {
			err = -ENOMEM;
			break;
		}
		d->ar = a;
		a = &d->ar[d->n_ar++];
		a->lane = d->cur * VIEW_MAX_LANES + (int)v[0];
		a->entity = (long)v[1];
		a->seq = (long long)v[2];
		a->send = v[3];
		a->recv = v[4];
		a->x = v[5];
		a->y = v[6];
		a->result = r;
	}
	fclose(c.f);
	return err;
}

/* Rows of a grid file appended to d's grids (one grid per name). */
int view_read_grids(struct view_data *d, const char *path, char *why,
		    size_t wlen)
{
	static const char *const names[] = {"x0", "y0", "x1", "y1",   "nx",
					    "ny", "ix", "iy", "value"};
	struct csv_in c;
	int idx[9], ig, ik, iu, iv, err = csv_in_open(&c, path);

	if (err) {
		snprintf(why, wlen, "%s: %s", path, strerror(-err));
		return err;
	}
	err = cols(&c, names, 9, idx, path, why, wlen);
	ig = col(&c, "grid");
	ik = col(&c, "kind");
	iu = col(&c, "u");
	iv = col(&c, "v");
	if (!err && (ig < 0 || ik < 0)) {
		snprintf(why, wlen, "%s: no column 'grid' or 'kind'", path);
		err = -EINVAL;
	}
	while (!err && csv_in_next(&c, &d->bad_rows)) {
		double v[9], u = 0, w = 0;
		struct view_grid_in *g;

		if (get_doubles(&c, idx, 9, v) || v[4] < 1 || v[5] < 1 ||
		    v[6] < 0 || v[7] < 0 || v[6] >= v[4] || v[7] >= v[5] ||
		    !(v[2] > v[0]) || !(v[3] > v[1])) {
			d->bad_rows++;
			continue;
		}
		if (iu >= 0 && iv >= 0 &&
		    (csv_double(c.fld[iu], &u) || csv_double(c.fld[iv], &w)))
			u = w = 0;
		g = view_grid_get(d, c.fld[ig], c.fld[ik], v);
		if (!g) {
			err = -ENOMEM;
			break;
		}
		err = view_grid_add(g, (int)v[6], (int)v[7], v[8], u, w);
	}
	fclose(c.f);
	return err;
}

int view_read_events(struct view_data *d, const char *path, char *why,
		     size_t wlen)
{
	static const char *const names[] = {"t_s", "x0", "y0", "x1",
					    "y1",  "vx", "vy"};
	struct csv_in c;
	int idx[7], ik, is, iv, err = csv_in_open(&c, path);
	size_t cap = d->n_ev;

	if (err) {
		snprintf(why, wlen, "%s: %s", path, strerror(-err));
		return err;
	}
	err = cols(&c, names, 7, idx, path, why, wlen);
	ik = col(&c, "kind");
	is = col(&c, "shooter");
	iv = col(&c, "victim");
	if (!err && (ik < 0 || is < 0 || iv < 0)) {
		snprintf(why, wlen, "%s: needs kind, shooter and victim", path);
		err = -EINVAL;
	}
	while (!err && csv_in_next(&c, &d->bad_rows)) {
		struct view_event *e;
		double v[7];
		long sh, vi;

		if (get_doubles(&c, idx, 7, v) ||
		    csv_long(c.fld[is], 0, 1L << 31, &sh) ||
		    csv_long(c.fld[iv], -1, 1L << 31, &vi)) {
			d->bad_rows++;
			continue;
		}
		e = grow(d->ev, &cap, d->n_ev, sizeof(*e));
		if (!e) {
			err = -ENOMEM;
			break;
		}
		d->ev = e;
		e = &d->ev[d->n_ev++];
		memcpy(e->v, v, sizeof(v));
		e->shooter = sh;
		e->victim = vi;
		snprintf(e->kind, sizeof(e->kind), "%s", c.fld[ik]);
	}
	fclose(c.f);
	return err;
}

int view_read_lanes(struct view_data *d, const char *path)
{
	struct csv_in c;
	int il, ip, iq;
	size_t bad = 0;

	if (csv_in_open(&c, path))
		return -ENOENT;
	il = col(&c, "lane");
	ip = col(&c, "predictor");
	iq = col(&c, "params");
	while (il >= 0 && ip >= 0 && iq >= 0 && csv_in_next(&c, &bad)) {
		long l;

		if (csv_long(c.fld[il], 0, VIEW_MAX_LANES - 1, &l))
			continue;
		l += d->cur * VIEW_MAX_LANES;
		if (!d->lane_name[l][0]) {
			snprintf(d->lane_name[l], sizeof(d->lane_name[l]), "%s",
				 c.fld[ip]);
			snprintf(d->lane_params[l], sizeof(d->lane_params[l]),
				 "%s", c.fld[iq]);
		}
	}
	fclose(c.f);
	return 0;
}

/* The map of the run: the first "--map NAME" on an args line of the
 * canonical scenario. 0, or -ENOENT. */
int view_read_map_name(const char *scenario, char *out, size_t len)
{
	char line[8192];
	FILE *f = fopen(scenario, "r");
	int rc = -ENOENT;

	if (!f)
		return -ENOENT;
	while (rc && fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "--map");

		if (line[0] == '#' || line[0] == ';' || !p)
			continue;
		p += 5;
		if (*p != ' ' && *p != '=' && *p != '\t')
			continue;
		p += strspn(p, " =\t");
		if (*p && *p != '{' && strcspn(p, " \t\r\n\\") < len) {
			snprintf(out, len, "%.*s", (int)strcspn(p, " \t\r\n\\"),
				 p);
			rc = 0;
		}
	}
	fclose(f);
	return rc;
}

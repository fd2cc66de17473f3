/*
 * trend.c: the velocity trend map of led reckoning (Steele, paper 000
 * §VII-A): accumulate per-cell velocity sums and counts, remove a path
 * again for leave-one-out, look up the mean velocity of a cell. Pure.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "predict/trend.h"

#define FIX 65536.0

int predict_trend_init(struct predict_trend *m, double x0, double y0, double x1,
		       double y1, int nx, int ny)
{
	struct predict_trend t;
	size_t n;

	if (!m || nx < 1 || ny < 1 || nx > 10000 || ny > 10000 ||
	    !isfinite(x0) || !isfinite(y0) || !isfinite(x1) || !isfinite(y1) ||
	    !(x1 > x0) || !(y1 > y0))
		return -EINVAL;
	memset(&t, 0, sizeof(t));
	n = (size_t)nx * (size_t)ny;
	t.x0 = x0;
	t.y0 = y0;
	t.x1 = x1;
	t.y1 = y1;
	t.nx = nx;
	t.ny = ny;
	t.sx = calloc(n, sizeof(*t.sx));
	t.sy = calloc(n, sizeof(*t.sy));
	t.n = calloc(n, sizeof(*t.n));
	if (!t.sx || !t.sy || !t.n) {
		predict_trend_free(&t);
		return -ENOMEM;
	}
	*m = t;
	return 0;
}

void predict_trend_free(struct predict_trend *m)
{
	if (!m)
		return;
	free(m->sx);
	free(m->sy);
	free(m->n);
	m->sx = m->sy = NULL;
	m->n = NULL;
}

int predict_trend_cell(const struct predict_trend *m, double x, double y,
		       size_t *idx)
{
	double fx, fy;
	int ix, iy;

	if (!(x >= m->x0 && x <= m->x1 && y >= m->y0 && y <= m->y1))
		return -ERANGE;
	fx = (x - m->x0) / (m->x1 - m->x0) * m->nx;
	fy = (y - m->y0) / (m->y1 - m->y0) * m->ny;
	ix = (int)fx;
	iy = (int)fy;
	if (ix >= m->nx)
		ix = m->nx - 1;
	if (iy >= m->ny)
		iy = m->ny - 1;
	*idx = (size_t)iy * (size_t)m->nx + (size_t)ix;
	return 0;
}

int predict_trend_add(struct predict_trend *m, double x, double y, double vx,
		      double vy, int sign)
{
	size_t i;
	int err;

	if (!m || (sign != 1 && sign != -1))
		return -EINVAL;
	if (!(fabs(vx) <= PREDICT_TREND_VMAX && fabs(vy) <= PREDICT_TREND_VMAX))
		return -ERANGE;
	err = predict_trend_cell(m, x, y, &i);
	if (err)
		return err;
	if (sign < 0 && m->n[i] == 0)
		return -EINVAL;
	m->sx[i] += sign * (int64_t)llround(vx * FIX);
	m->sy[i] += sign * (int64_t)llround(vy * FIX);
	if (sign > 0) {
		m->n[i]++;
		m->samples++;
	} else {
		m->n[i]--;
		m->samples--;
	}
	return 0;
}

int predict_trend_lookup(const struct predict_trend *m, double x, double y,
			 double v[2])
{
	size_t i;
	int err;

	if (!m || !m->n)
		return -EINVAL;
	err = predict_trend_cell(m, x, y, &i);
	if (err)
		return err;
	if (m->n[i] == 0)
		return -ENOENT;
	v[0] = (double)m->sx[i] / FIX / (double)m->n[i];
	v[1] = (double)m->sy[i] / FIX / (double)m->n[i];
	return 0;
}

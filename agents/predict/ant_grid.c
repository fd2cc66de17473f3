/*
 * ant_grid.c: AntReckoning's pheromone grid and attraction force (paper
 * 001, eq. 6 as rebuilt in the extraction §2.3 from the worked example of
 * Fig. 6, and eq. 7). Each frame every cell keeps eps (1 - gamma) of its
 * pheromone (evaporation, then the share that stays), sends eps gamma of
 * it evenly to its valid 4-neighbours (synchronously, from the values of
 * the previous frame), then the sources deposit (generation) and the
 * result is capped at +-ph_max and small values are dropped. Only cells
 * that hold pheromone are visited. Pure.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "predict/ant.h"

static const int DX[4] = {1, -1, 0, 0}, DY[4] = {0, 0, 1, -1};

static void centre(const struct ant_grid *g, int i, int j, double p[3])
{
	p[0] = g->x0 + (i + 0.5) * g->c;
	p[1] = g->y0 + (j + 0.5) * g->c;
	p[2] = 0;
}

#define NB_KNOWN 0x80

/* The valid neighbours of cell c, found on first use: the grid's
 * neighbours whose centre is in sight of c's when walls block. */
static void links(struct ant_grid *g, int c)
{
	int i = c % g->nx, j = c / g->nx;
	double a[3], b[3];

	if (g->nb[c] & NB_KNOWN)
		return;
	g->nb[c] = NB_KNOWN;
	centre(g, i, j, a);
	for (int d = 0; d < 4; d++) {
		int ni = i + DX[d], nj = j + DY[d];

		if (ni < 0 || nj < 0 || ni >= g->nx || nj >= g->ny)
			continue;
		centre(g, ni, nj, b);
		if (g->map.los && !g->map.los(g->map.world, a, b))
			continue;
		g->nb[c] |= (uint8_t)(1u << d);
		g->deg[c]++;
	}
}

int ant_grid_init(struct ant_grid *g, const double lo[2], const double hi[2],
		  double c, const struct predict_map_view *map, int block)
{
	struct ant_grid n;
	size_t cells;

	if (!g || !(c > 0) || !(hi[0] > lo[0]) || !(hi[1] > lo[1]) ||
	    (hi[0] - lo[0]) / c > 1e5 || (hi[1] - lo[1]) / c > 1e5)
		return -EINVAL;
	memset(&n, 0, sizeof(n));
	n.c = c;
	n.x0 = lo[0];
	n.y0 = lo[1];
	n.nx = (int)ceil((hi[0] - lo[0]) / c);
	n.ny = (int)ceil((hi[1] - lo[1]) / c);
	cells = (size_t)n.nx * (size_t)n.ny;
	if (cells > 16u << 20)
		return -EINVAL;
	n.ph = calloc(cells, sizeof(double));
	n.nxt = calloc(cells, sizeof(double));
	n.nb = calloc(cells, 1);
	n.deg = calloc(cells, 1);
	n.on = calloc(cells, 1);
	n.act = malloc(cells * sizeof(int));
	n.act2 = malloc(cells * sizeof(int));
	if (!n.ph || !n.nxt || !n.nb || !n.deg || !n.on || !n.act || !n.act2) {
		ant_grid_free(&n);
		return -ENOMEM;
	}
	if (block && map && map->los)
		n.map = *map;
	*g = n;
	return 0;
}

void ant_grid_free(struct ant_grid *g)
{
	if (!g)
		return;
	free(g->ph);
	free(g->nxt);
	free(g->nb);
	free(g->deg);
	free(g->on);
	free(g->act);
	free(g->act2);
	memset(g, 0, sizeof(*g));
}

int ant_grid_cell(const struct ant_grid *g, double x, double y)
{
	double fx = floor((x - g->x0) / g->c), fy = floor((y - g->y0) / g->c);

	if (!(fx >= 0 && fy >= 0 && fx < g->nx && fy < g->ny))
		return -1;
	return (int)fy * g->nx + (int)fx;
}

double ant_grid_get(const struct ant_grid *g, int i, int j)
{
	return g->ph[(size_t)j * g->nx + i];
}

/* Add v to nxt[c], listing c in act2 the first time this frame. */
static inline void put(struct ant_grid *g, int c, double v, size_t *n2)
{
	if (g->on[c] != g->mark) {
		g->on[c] = g->mark;
		g->act2[(*n2)++] = c;
	}
	g->nxt[c] += v;
}

void ant_grid_spread(struct ant_grid *g, double eps, double gamma)
{
	size_t n2 = 0;
	int *t;
	double *tp;

	/* on[c] == mark: c is in the list being built; the listed cells of
	 * the previous frame hold the other mark (1, 2), unlisted ones 0 */
	g->mark = g->mark == 1 ? 2 : 1;
	for (size_t a = 0; a < g->n_act; a++) {
		int c = g->act[a];
		double v = g->ph[c];

		g->ph[c] = 0;
		if (!(g->nb[c] & NB_KNOWN))
			links(g, c);
		if (g->deg[c] == 0) {
			put(g, c, eps * v, &n2);
			continue;
		}
		put(g, c, eps * (1.0 - gamma) * v, &n2);
		double share = eps * gamma * v / g->deg[c];

		for (int d = 0; d < 4; d++)
			if (g->nb[c] & (1u << d))
				put(g, c + DX[d] + DY[d] * g->nx, share, &n2);
	}
	/* ph is all zero again: swap it with nxt */
	tp = g->ph;
	g->ph = g->nxt;
	g->nxt = tp;
	t = g->act;
	g->act = g->act2;
	g->act2 = t;
	g->n_act = n2;
}

void ant_grid_deposit(struct ant_grid *g, double x, double y, double amount)
{
	int c = ant_grid_cell(g, x, y);

	if (c < 0 || amount == 0)
		return;
	if (!g->mark)
		g->mark = 1;
	if (g->on[c] != g->mark) {
		g->on[c] = g->mark;
		g->act[g->n_act++] = c;
	}
	g->ph[c] += amount;
}

void ant_grid_settle(struct ant_grid *g, double ph_max, double floor_v)
{
	size_t m = 0;

	for (size_t a = 0; a < g->n_act; a++) {
		int c = g->act[a];
		double v = g->ph[c];

		if (ph_max > 0 && v > ph_max)
			v = ph_max;
		if (ph_max > 0 && v < -ph_max)
			v = -ph_max;
		if (fabs(v) < floor_v || v == 0) {
			g->ph[c] = 0;
			g->on[c] = 0;
			continue;
		}
		g->ph[c] = v;
		g->act[m++] = c;
	}
	g->n_act = m;
}

static int in_cone(const struct ant_force_opts *o, double dx, double dy,
		   double d)
{
	double h = hypot(o->heading[0], o->heading[1]);

	if (h == 0 || d == 0)
		return 1;
	return (dx * o->heading[0] + dy * o->heading[1]) / (h * d) >=
	       cos(o->half);
}

void ant_force(const struct ant_grid *g, const double x[2],
	       const struct ant_force_opts *o, double f[2])
{
	double r = o->region / 2, p[3] = {x[0], x[1], 0};
	int i0 = (int)ceil((x[0] - r - g->x0) / g->c - 0.5);
	int i1 = (int)floor((x[0] + r - g->x0) / g->c - 0.5);
	int j0 = (int)ceil((x[1] - r - g->y0) / g->c - 0.5);
	int j1 = (int)floor((x[1] + r - g->y0) / g->c - 0.5);

	f[0] = f[1] = 0;
	i0 = i0 < 0 ? 0 : i0;
	j0 = j0 < 0 ? 0 : j0;
	i1 = i1 >= g->nx ? g->nx - 1 : i1;
	j1 = j1 >= g->ny ? g->ny - 1 : j1;
	for (int j = j0; j <= j1; j++)
		for (int i = i0; i <= i1; i++) {
			double ph = g->ph[(size_t)j * g->nx + i], c[3], dx, dy;
			double d, dd, m;

			if (ph == 0)
				continue;
			centre(g, i, j, c);
			dx = c[0] - x[0];
			dy = c[1] - x[1];
			d = hypot(dx, dy);
			if (o->vision && (!in_cone(o, dx, dy, d) ||
					  (o->map && o->map->los &&
					   !o->map->los(o->map->world, p, c))))
				continue;
			if (d == 0)
				continue; /* no direction */
			dd = d < o->d_min ? o->d_min : d;
			m = ph / (o->k == 2 ? dd * dd : pow(dd, o->k));
			f[0] += m * dx / d;
			f[1] += m * dy / d;
		}
}

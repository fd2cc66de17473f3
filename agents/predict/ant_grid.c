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
#include <float.h>
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
__attribute__((noinline)) static void links(struct ant_grid *g, int c)
{
	int i = c % g->nx, j = c / g->nx, sink = g->nx * g->ny;
	int *to = g->to + 4 * (size_t)c;
	double a[3], b[3];

	if (g->nb[c] & NB_KNOWN)
		return;
	g->nb[c] = NB_KNOWN;
	centre(g, i, j, a);
	for (int d = 0; d < 4; d++) {
		int ni = i + DX[d], nj = j + DY[d];

		to[d] = sink;
		if (ni < 0 || nj < 0 || ni >= g->nx || nj >= g->ny)
			continue;
		centre(g, ni, nj, b);
		if (g->map.los && !g->map.los(g->map.world, a, b))
			continue;
		g->nb[c] |= (uint8_t)(1u << d);
		g->deg[c]++;
		to[d] = nj * g->nx + ni;
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
	/* ph, nxt and on have one more slot, the sink (see spread_cell) */
	n.ph = calloc(cells + 1, sizeof(double));
	n.nxt = calloc(cells + 1, sizeof(double));
	n.nb = calloc(cells, 1);
	n.deg = calloc(cells, 1);
	n.to = malloc(4 * cells * sizeof(int));
	n.on = calloc(cells + 1, 1);
	n.act = malloc((cells + 1) * sizeof(int));
	n.act2 = malloc((cells + 1) * sizeof(int));
	n.snap = malloc(cells * sizeof(double));
	if (!n.ph || !n.nxt || !n.nb || !n.deg || !n.to || !n.on || !n.act ||
	    !n.act2 || !n.snap) {
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
	free(g->to);
	free(g->on);
	free(g->act);
	free(g->act2);
	free(g->snap);
	free(g->q);
	free(g->last);
	memset(g, 0, sizeof(*g));
}

int ant_grid_cell(const struct ant_grid *g, double x, double y)
{
	double fx = floor((x - g->x0) / g->c), fy = floor((y - g->y0) / g->c);

	if (!(fx >= 0 && fy >= 0 && fx < g->nx && fy < g->ny))
		return -1;
	return (int)fy * g->nx + (int)fx;
}

/* Eq. 6's cap at +-ph_max (ph_max <= 0: none) and drop of |v| < floor
 * to +0 (floor <= 0: of 0 only) as bounds, for ant_grid_settle. */
struct bounds {
	double lo, hi, fl;
};

static void bounds_of(double ph_max, double floor_v, struct bounds *b)
{
	b->hi = ph_max > 0 ? ph_max : INFINITY;
	b->lo = -b->hi;
	/* |v| < DBL_TRUE_MIN, the least positive double, only for v == 0 */
	b->fl = floor_v > DBL_TRUE_MIN ? floor_v : DBL_TRUE_MIN;
}

/* v capped and dropped, without a branch on v; *kept = v != 0 after. */
static inline double capped(double v, const struct bounds *b, uint8_t *kept)
{
	uint64_t bits, keep;

	v = v > b->hi ? b->hi : v;
	v = v < b->lo ? b->lo : v;
	keep = !(fabs(v) < b->fl);
	memcpy(&bits, &v, sizeof(bits));
	bits &= -keep;
	memcpy(&v, &bits, sizeof(bits));
	*kept = (uint8_t)keep;
	return v;
}

double ant_grid_get(const struct ant_grid *g, int i, int j)
{
	return g->ph[(size_t)j * g->nx + i];
}

/* Add v to nxt[c], listing c at list[m] the first time this frame
 * (on[c] < mark before, == mark once listed); returns the new length.
 * Without a branch: list[m] is written always and kept only when c is
 * new (the lists have room for one more than every cell). */
static inline size_t put(double *nxt, uint8_t *on, int *list, size_t m,
			 uint8_t mark, ptrdiff_t c, double v)
{
	list[m] = (int)c;
	m += on[c] < mark;
	on[c] = mark;
	nxt[c] += v;
	return m;
}

/* The frame ant_grid_spread builds: the list walked and the one built,
 * the arrays, the mark and the factors of eq. 6. spread_list holds them
 * in locals: the byte stores to on would otherwise make the compiler
 * reload them from g after each one. */
struct spread {
	const int *act;
	int *list;
	double *ph, *nxt;
	uint8_t *on;
	uint8_t mark;
	double eps, keep, give;
};

/* How many cells of the list ahead spread_list fetches a cell's
 * neighbours and value into the cache (the list is known, the addresses
 * are scattered). */
#define AHEAD 8

/* |N(c)| as a double, for the division of the share. */
static const double DEG[5] = {1, 1, 2, 3, 4};

/* Eq. 6 over the list into nxt: each listed cell keeps keep v and gives
 * share = give v / |N(c)| to each of its 4 neighbours in the order +x,
 * -x, +y, -y (the share of one not valid goes to the sink); a cell
 * without neighbours keeps eps v. The cells reached are listed in
 * s->list in the order first reached. Returns their number. */
static size_t spread_list(struct ant_grid *g, const struct spread *s, size_t n)
{
	const int *act = s->act;
	int *list = s->list;
	double *ph = s->ph, *nxt = s->nxt;
	uint8_t *on = s->on;
	const uint8_t *nbs = g->nb, *degs = g->deg;
	const int *tos = g->to;
	double keep = s->keep, give = s->give;
	size_t m = 0;
	uint8_t mark = s->mark;

	for (size_t a = 0; a < n; a++) {
		ptrdiff_t c = act[a];
		double v = ph[c], share;
		const int *to = tos + 4 * c;
		unsigned deg;

		if (a + AHEAD < n) {
			ptrdiff_t f = act[a + AHEAD];

			__builtin_prefetch(tos + 4 * f);
			__builtin_prefetch(ph + f);
		}
		ph[c] = 0;
		if (!(nbs[c] & NB_KNOWN))
			links(g, (int)c);
		deg = degs[c];
		if (deg == 0) {
			m = put(nxt, on, list, m, mark, c, s->eps * v);
			continue;
		}
		share = give * v / DEG[deg];
		m = put(nxt, on, list, m, mark, c, keep * v);
		m = put(nxt, on, list, m, mark, to[0], share);
		m = put(nxt, on, list, m, mark, to[1], share);
		m = put(nxt, on, list, m, mark, to[2], share);
		m = put(nxt, on, list, m, mark, to[3], share);
	}
	return m;
}

void ant_grid_spread(struct ant_grid *g, double eps, double gamma)
{
	struct spread s;
	double *ph = g->ph;
	int *act = g->act;

	/* on[c] == mark: c is in the list being built; every other cell
	 * holds less (the listed cells of the previous frame its mark, the
	 * others an older one or 0); all to 0 when the mark wraps */
	if (++g->mark == 0) {
		memset(g->on, 0, (size_t)g->nx * g->ny);
		g->mark = 1;
	}
	g->steady = 0;
	s.act = g->act;
	s.list = g->act2;
	s.ph = g->ph;
	s.nxt = g->nxt;
	s.on = g->on;
	s.mark = g->mark;
	s.eps = eps;
	s.keep = eps * (1.0 - gamma);
	s.give = eps * gamma;
	s.on[g->nx * g->ny] = s.mark;
	g->n_act = spread_list(g, &s, g->n_act);
	/* ph is all zero again (but for the sink): swap it with nxt */
	g->ph = g->nxt;
	g->nxt = ph;
	g->act = g->act2;
	g->act2 = act;
}

static void deposit_cell(struct ant_grid *g, int c, double amount)
{
	if (!g->mark)
		g->mark = 1;
	if (g->on[c] < g->mark) {
		g->on[c] = g->mark;
		g->act[g->n_act++] = c;
	}
	g->ph[c] += amount;
}

void ant_grid_deposit(struct ant_grid *g, double x, double y, double amount)
{
	int c = ant_grid_cell(g, x, y);

	if (c < 0 || amount == 0)
		return;
	g->steady = 0;
	deposit_cell(g, c, amount);
}

void ant_grid_settle(struct ant_grid *g, double ph_max, double floor_v)
{
	double *ph = g->ph;
	uint8_t *on = g->on;
	int *act = g->act;
	size_t m = 0, n = g->n_act;
	struct bounds b;

	bounds_of(ph_max, floor_v, &b);
	g->steady = 0;
	/* a dropped cell is written over by the next kept one, its mark is
	 * masked to 0 */
	for (size_t a = 0; a < n; a++) {
		int c = act[a];
		uint8_t keep;
		double v = capped(ph[c], &b, &keep);

		ph[c] = v;
		on[c] &= (uint8_t)-keep;
		act[m] = c;
		m += keep;
	}
	g->n_act = m;
}

int ant_grid_queue(struct ant_grid *g, double x, double y, double amount)
{
	int c = ant_grid_cell(g, x, y);

	if (c < 0 || amount == 0)
		return 0;
	if (g->n_q == g->cap_q) {
		size_t cap = g->cap_q ? 2 * g->cap_q : 64;
		struct ant_deposit *q = realloc(g->q, cap * sizeof(*q));

		if (!q)
			return -ENOMEM;
		g->q = q;
		g->cap_q = cap;
	}
	g->q[g->n_q].cell = c;
	g->q[g->n_q].amount = amount;
	g->n_q++;
	return 0;
}

/* 1 if this frame's queue and parameters are the last frame's, bit for
 * bit. */
static int same_frame(const struct ant_grid *g, const double par[4])
{
	if (g->n_q != g->n_last ||
	    memcmp(par, g->last_par, sizeof(g->last_par)))
		return 0;
	for (size_t i = 0; i < g->n_q; i++)
		if (g->q[i].cell != g->last[i].cell ||
		    memcmp(&g->q[i].amount, &g->last[i].amount,
			   sizeof(double)))
			return 0;
	return 1;
}

/* 1 once a run of frames with the same deposits is long enough to
 * look for a fixed point: a quarter of the n frames for a change to fade
 * below the last bit (eps^n <= 2^-53); the drop of small values makes
 * most patterns converge sooner. On the arena trace of the bench this
 * finds 1.8% of frames to skip against 2.2% when looking at every frame
 * with the same deposits (a third of them). The test only decides
 * whether to look; either answer is exact. */
static int worth_checking(const struct ant_grid *g, double eps)
{
	double n = eps > 0 && eps < 1 ? 53 * log(2.0) / -log(eps) : 1;

	return (double)g->run >= n / 4;
}

/* 1 if the list (act) and its values are those saved in act2 and snap
 * before the frame. */
static int unchanged(const struct ant_grid *g, size_t n0)
{
	if (g->n_act != n0)
		return 0;
	for (size_t a = 0; a < n0; a++)
		if (g->act[a] != g->act2[a] ||
		    g->ph[g->act[a]] != g->snap[a])
			return 0;
	return 1;
}

void ant_grid_frame(struct ant_grid *g, double eps, double gamma,
		    double ph_max, double floor_v)
{
	double par[4] = {eps, gamma, ph_max, floor_v};
	size_t n0 = 0;
	struct ant_deposit *t;
	int same = same_frame(g, par), check;

	if (g->steady && same) {
		g->n_q = 0;
		return;
	}
	g->run = same ? g->run + 1 : 0;
	check = same && worth_checking(g, eps);
	/* only a frame with the last frame's deposits can reach the fixed
	 * point the next frame skips on: then (late enough in the run) the
	 * list is saved before, to compare with the list after */
	if (check) {
		n0 = g->n_act;
		for (size_t a = 0; a < n0; a++)
			g->snap[a] = g->ph[g->act[a]];
	}
	/* spread leaves the list it walked in act2; the deposits and the
	 * settle touch only act */
	ant_grid_spread(g, eps, gamma);
	for (size_t i = 0; i < g->n_q; i++)
		deposit_cell(g, g->q[i].cell, g->q[i].amount);
	ant_grid_settle(g, ph_max, floor_v);
	if (check)
		g->steady = unchanged(g, n0);
	memcpy(g->last_par, par, sizeof(par));
	t = g->last;
	g->last = g->q;
	g->q = t;
	g->n_last = g->n_q;
	g->n_q = 0;
	{
		size_t c = g->cap_last;

		g->cap_last = g->cap_q;
		g->cap_q = c;
	}
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

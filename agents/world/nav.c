/*
 * nav.c: grid A* and string pulling (see nav.h). The open list is a
 * binary heap keyed on f = g + h; ties break on the smaller cell index so
 * a search is deterministic. Per-cell state carries a generation stamp so
 * that consecutive searches need no O(cells) reset.
 */
#include "nav.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "geom.h"

int nav_init(struct nav *n, const struct map *m)
{
	size_t c = (size_t)m->w * (size_t)m->h;

	memset(n, 0, sizeof(*n));
	n->m = m;
	n->ncell = (int)c;
	n->g = malloc(c * sizeof(*n->g));
	n->parent = malloc(c * sizeof(*n->parent));
	n->stamp = calloc(c, sizeof(*n->stamp));
	n->closed_gen = calloc(c, sizeof(*n->closed_gen));
	n->heap = malloc(8 * c * sizeof(*n->heap));
	n->heap_f = malloc(8 * c * sizeof(*n->heap_f));
	n->path = malloc(c * sizeof(*n->path));
	if (!n->g || !n->parent || !n->stamp || !n->closed_gen || !n->heap ||
	    !n->heap_f || !n->path) {
		nav_free(n);
		return -ENOMEM;
	}
	return 0;
}

void nav_free(struct nav *n)
{
	free(n->g);
	free(n->parent);
	free(n->stamp);
	free(n->closed_gen);
	free(n->heap);
	free(n->heap_f);
	free(n->path);
	memset(n, 0, sizeof(*n));
}

static int heap_less(const struct nav *n, int a, int b)
{
	if (n->heap_f[a] != n->heap_f[b])
		return n->heap_f[a] < n->heap_f[b];
	return n->heap[a] < n->heap[b];
}

static void heap_swap(struct nav *n, int a, int b)
{
	int c = n->heap[a];
	float f = n->heap_f[a];

	n->heap[a] = n->heap[b];
	n->heap_f[a] = n->heap_f[b];
	n->heap[b] = c;
	n->heap_f[b] = f;
}

static void heap_push(struct nav *n, int cell, float f)
{
	int i = n->heap_n++;

	n->heap[i] = cell;
	n->heap_f[i] = f;
	while (i > 0 && heap_less(n, i, (i - 1) / 2)) {
		heap_swap(n, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static int heap_pop(struct nav *n)
{
	int top = n->heap[0], i = 0;

	n->heap_n--;
	n->heap[0] = n->heap[n->heap_n];
	n->heap_f[0] = n->heap_f[n->heap_n];
	for (;;) {
		int l = 2 * i + 1, r = l + 1, s = i;

		if (l < n->heap_n && heap_less(n, l, s))
			s = l;
		if (r < n->heap_n && heap_less(n, r, s))
			s = r;
		if (s == i)
			break;
		heap_swap(n, i, s);
		i = s;
	}
	return top;
}

static float octile(int ax, int ay, int bx, int by)
{
	int dx = abs(ax - bx), dy = abs(ay - by);
	int lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;

	return (float)(hi - lo) + (float)M_SQRT2 * (float)lo;
}

int nav_astar(struct nav *n, int sx, int sy, int gx, int gy, int *cells,
	      int max, int *len, double *cost)
{
	const struct map *m = n->m;
	static const int ddx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
	static const int ddy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
	int start, goal, found = 0, k;

	if (map_blocked(m, sx, sy) || map_blocked(m, gx, gy))
		return -EINVAL;
	if (++n->gen == 0 || n->gen > 250) {
		/* closed_gen is 8-bit: renumber generations */
		memset(n->stamp, 0, (size_t)n->ncell * sizeof(*n->stamp));
		memset(n->closed_gen, 0, (size_t)n->ncell);
		n->gen = 1;
	}
	start = sy * m->w + sx;
	goal = gy * m->w + gx;
	n->heap_n = 0;
	n->g[start] = 0;
	n->parent[start] = -1;
	n->stamp[start] = n->gen;
	heap_push(n, start, octile(sx, sy, gx, gy));
	while (n->heap_n > 0) {
		int cur = heap_pop(n), cx = cur % m->w, cy = cur / m->w;

		if (n->closed_gen[cur] == n->gen)
			continue; /* stale heap entry */
		n->closed_gen[cur] = (uint8_t)n->gen;
		if (cur == goal) {
			found = 1;
			break;
		}
		for (int d = 0; d < 8; d++) {
			int nx = cx + ddx[d], ny = cy + ddy[d], nb;
			float g;

			if (map_blocked(m, nx, ny))
				continue;
			if (d >= 4 &&
			    (map_blocked(m, nx, cy) || map_blocked(m, cx, ny)))
				continue; /* no corner cutting */
			nb = ny * m->w + nx;
			if (n->closed_gen[nb] == n->gen)
				continue;
			g = n->g[cur] + (d >= 4 ? (float)M_SQRT2 : 1.0f);
			if (n->stamp[nb] == n->gen && n->g[nb] <= g)
				continue;
			if (n->heap_n >= 8 * n->ncell)
				return -ENOMEM; /* cannot happen: 8 pushes/cell
						 */
			n->stamp[nb] = n->gen;
			n->g[nb] = g;
			n->parent[nb] = cur;
			heap_push(n, nb, g + octile(nx, ny, gx, gy));
		}
	}
	if (!found)
		return -ENOENT;
	k = 0;
	for (int c = goal; c >= 0; c = n->parent[c])
		n->path[k++] = c;
	if (k > max)
		return -ENOSPC;
	for (int i = 0; i < k; i++)
		cells[i] = n->path[k - 1 - i];
	*len = k;
	*cost = n->g[goal];
	return 0;
}

int nav_path(struct nav *n, double ax, double ay, double bx, double by,
	     double r, struct nav_pt *pts, int max, int *npts)
{
	const struct map *m = n->m;
	int sx, sy, gx, gy, len, rc, out = 0, i = 0;
	double cost, cx = ax, cy = ay;
	int *cells;
	struct nav_pt *tmp;

	map_cell_of(m, ax, ay, &sx, &sy);
	map_cell_of(m, bx, by, &gx, &gy);
	cells = malloc((size_t)n->ncell * sizeof(*cells));
	tmp = malloc(((size_t)n->ncell + 1) * sizeof(*tmp));
	if (!cells || !tmp) {
		rc = -ENOMEM;
		goto out;
	}
	rc = nav_astar(n, sx, sy, gx, gy, cells, n->ncell, &len, &cost);
	if (rc)
		goto out;
	/* string pulling over the cell centres, then b itself; look ahead
	 * from the far end of a window for the farthest reachable corner.
	 * Index len stands for b. */
	while (i < len) {
		int best = -1, lim = i + 48 < len ? i + 48 : len;

		for (int j = lim; j > i; j--) {
			double px = bx, py = by;

			if (j < len) {
				px = (cells[j] % m->w + 0.5) * m->cell;
				py = (cells[j] / m->w + 0.5) * m->cell;
			}
			if (geom_clear(m, cx, cy, px, py, r)) {
				best = j;
				break;
			}
		}
		if (best < 0)
			best = i + 1; /* adjacent cells are always walkable */
		if (best == len) {
			tmp[out].x = bx;
			tmp[out].y = by;
		} else {
			tmp[out].x = (cells[best] % m->w + 0.5) * m->cell;
			tmp[out].y = (cells[best] / m->w + 0.5) * m->cell;
		}
		cx = tmp[out].x;
		cy = tmp[out].y;
		out++;
		i = best;
	}
	if (out > max) {
		rc = -ENOSPC;
		goto out;
	}
	memcpy(pts, tmp, (size_t)out * sizeof(*pts));
	*npts = out;
out:
	free(cells);
	free(tmp);
	return rc;
}

/*
 * view_int.h: the run data `reckonctl view` gathers before it writes the
 * page: frame samples, arrivals, grids and events as read from the run
 * directory (view_read.c), decimated and written as the page's JSON
 * (view_json.c).
 */
#ifndef RECKON_VIEW_INT_H
#define RECKON_VIEW_INT_H

#include <stddef.h>

#include "view.h"

#define VIEW_MAX_LANES 16 /* ROLE_MAX_LANES */
#define VIEW_MAX_HOSTS 8
/* A series is one lane of one observer: id host * VIEW_MAX_LANES + lane */
#define VIEW_MAX_SERIES (VIEW_MAX_HOSTS * VIEW_MAX_LANES)

struct view_frame {
	int lane; /* the series id */
	long entity;
	double t, sx, sy, tx, ty, err;
};

/* result: 0 applied, 1 stale, 2 unmatched, 3 rejected */
struct view_arrival {
	int lane; /* the series id */
	long entity;
	long long seq;
	double send, recv, x, y;
	int result;
};

struct view_grid_in {
	char name[64], kind[16];
	double x0, y0, x1, y1;
	int nx, ny;
	double *value, *u, *v; /* nx * ny; NaN where no row */
};

/* v: t_s, x0, y0, x1, y1, vx, vy */
struct view_event {
	double v[7];
	long shooter, victim;
	char kind[16];
};

struct view_data {
	struct view_frame *fr;
	size_t n_fr;
	struct view_arrival *ar;
	size_t n_ar;
	struct view_grid_in *grid;
	size_t n_grid;
	struct view_event *ev;
	size_t n_ev;
	char host[VIEW_MAX_HOSTS][64]; /* observers */
	size_t n_host;
	int cur; /* the host being read */
	char lane_name[VIEW_MAX_SERIES][32];
	char lane_params[VIEW_MAX_SERIES][160];
	size_t bad_rows;
};

int view_read_frames(struct view_data *d, const char *path, char *why,
		     size_t wlen);
int view_read_arrivals(struct view_data *d, const char *path, char *why,
		       size_t wlen);
int view_read_grids(struct view_data *d, const char *path, char *why,
		    size_t wlen);
int view_read_events(struct view_data *d, const char *path, char *why,
		     size_t wlen);
int view_read_lanes(struct view_data *d, const char *path);
int view_read_map_name(const char *scenario, char *out, size_t len);

/* The grid called name (made with kind and geometry g = x0, y0, x1, y1,
 * nx, ny when new; NULL out of memory), and one cell of it. */
struct view_grid_in *view_grid_get(struct view_data *d, const char *name,
				   const char *kind, const double *g);
int view_grid_add(struct view_grid_in *g, int ix, int iy, double value,
		  double u, double v);
void view_data_free(struct view_data *d);

/* The data as one JSON object, each frame series and arrival series cut
 * to at most max_points by keeping every k-th. */
/* s as a JSON string literal that cannot end a script element. */
void view_json_str(FILE *f, const char *s);
void view_json_write(FILE *f, struct view_data *d, size_t max_points);

#endif

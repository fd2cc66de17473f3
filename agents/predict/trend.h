/*
 * trend.h: led reckoning's velocity trend map (Steele, paper 000 §V-A and
 * §VII-A): a grid of nx x ny cells (100 x 100 in the paper) over the X-Y
 * bounds of a map, each holding the mean velocity of every frame of every
 * training path whose position falls in that cell. Sums are kept in 2^-16
 * fixed point so that removing a path (leave-one-out: a path never trains
 * its own map) restores exactly the map built without it.
 */
#ifndef RECKON_PREDICT_TREND_H
#define RECKON_PREDICT_TREND_H

#include <stddef.h>
#include <stdint.h>

struct predict_trend {
	double x0, y0, x1, y1; /* bounds, x0 < x1, y0 < y1 */
	int nx, ny;
	int64_t *sx, *sy; /* velocity sums, fixed point 2^-16 u/s */
	uint64_t *n;	  /* samples per cell */
	uint64_t samples; /* total samples in the map */
};

/* Largest |velocity| component the map accepts, u/s. */
#define PREDICT_TREND_VMAX 1e6

int predict_trend_init(struct predict_trend *m, double x0, double y0, double x1,
		       double y1, int nx, int ny);
void predict_trend_free(struct predict_trend *m);
/* Cell index of (x, y); -ERANGE outside the bounds (the upper edges are
 * inside). */
int predict_trend_cell(const struct predict_trend *m, double x, double y,
		       size_t *idx);
/* Add (sign = +1) or remove (sign = -1) one velocity sample. -ERANGE if
 * outside or |v| > VMAX, -EINVAL if removing from an empty cell. */
int predict_trend_add(struct predict_trend *m, double x, double y, double vx,
		      double vy, int sign);
/* Mean velocity of the cell at (x, y): -ERANGE outside, -ENOENT empty. */
int predict_trend_lookup(const struct predict_trend *m, double x, double y,
			 double v[2]);

#endif

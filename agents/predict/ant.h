/*
 * ant.h: the pure pieces of AntReckoning (Yahyavi, Huguenin & Kemme,
 * "Interest Modeling in Games: The Case of Dead Reckoning", Multimedia
 * Systems 19(3), 2013; paper 001), shared by the "ant" and "dr2"
 * predictors (pred_ant.c) and their tests: the pheromone grid of eq. 6,
 * the attraction force of eq. 7, the EWMA estimators of eq. 3 and the
 * motion equation of eq. 5. Private to agents/predict and tests.
 */
#ifndef RECKON_PREDICT_ANT_H
#define RECKON_PREDICT_ANT_H

#include <stddef.h>
#include <stdint.h>

#include "predict/predict.h"

/* A square grid of pheromone over [x0, x0 + nx c) x [y0, y0 + ny c).
 * Cell (i, j) is index j * nx + i, centre (x0 + (i + .5) c, y0 + (j +
 * .5) c). Only cells holding pheromone are visited (the active list),
 * so a frame costs the sources' footprint, not the map. */
struct ant_grid {
	int nx, ny;
	double x0, y0, c;
	double *ph, *nxt;
	uint8_t *nb;  /* valid 4-neighbours: bit 0 +x, 1 -x, 2 +y, 3 -y;
			 bit 7: links known (found when first needed) */
	uint8_t *deg; /* |N(cell)|, the number of valid neighbours */
	int *to;      /* 4 per cell, once its links are known: the +x, -x,
			 +y, -y neighbour, or nx * ny (a sink) if not valid */
	struct predict_map_view map; /* a copy; los NULL: no blocking */
	uint8_t *on;  /* == mark: the cell is in the active list; < mark:
			 not */
	uint8_t mark; /* 1 to 255, one more each frame (0 before any) */
	int *act, *act2;
	size_t n_act;
	/* ant_grid_frame: this frame's queued deposits and the last frame's
	 * (cell, amount), and the grid's values before the last frame */
	struct ant_deposit *q, *last;
	size_t n_q, n_last, cap_q, cap_last;
	double *snap;
	double last_par[4]; /* eps, gamma, ph_max, floor of the last frame */
	int steady; /* the last frame left every value and the list as it
		       found them */
	long run;   /* frames in a row with the same deposits */
};

struct ant_deposit {
	int cell;
	double amount;
};

/* A grid covering [lo, hi] with cells of side c. With map->los set and
 * block != 0, two neighbours are linked only when the segment between
 * their centres is in sight (walls block the dissemination; a cell whose
 * centre is in a wall has no neighbours). The grid keeps a copy of *map;
 * map->world must outlive it. -EINVAL, -ENOMEM. */
int ant_grid_init(struct ant_grid *g, const double lo[2], const double hi[2],
		  double c, const struct predict_map_view *map, int block);
void ant_grid_free(struct ant_grid *g);
/* Cell index of a point, or -1 outside. */
int ant_grid_cell(const struct ant_grid *g, double x, double y);

/* Eq. 6 without generation, one frame, synchronous (from the values of
 * t-1): ph(c) <- eps (1 - gamma) ph(c) + sum over neighbours n of
 * eps gamma ph(n) / |N(n)|. A cell without neighbours keeps eps ph. */
void ant_grid_spread(struct ant_grid *g, double eps, double gamma);
/* Generation: add amount to the cell of (x, y) (ignored outside). */
void ant_grid_deposit(struct ant_grid *g, double x, double y, double amount);
/* End of frame: clamp to [-ph_max, ph_max] (ph_max <= 0: no cap) and
 * drop |ph| < floor to 0. */
void ant_grid_settle(struct ant_grid *g, double ph_max, double floor);
double ant_grid_get(const struct ant_grid *g, int i, int j);

/* A whole frame in two calls. ant_grid_queue records a deposit for the
 * coming frame (ignored outside or when 0; -ENOMEM). ant_grid_frame then
 * runs ant_grid_spread, the queued deposits in order and
 * ant_grid_settle, with the same arithmetic in the same order. A frame
 * is a function of the grid's values, its list order, the deposits and
 * the parameters only: when the last frame left the grid exactly as it
 * found it (a converged pattern: static sources) and this frame's
 * deposits and parameters are the same, the frame would change nothing
 * and is skipped. */
int ant_grid_queue(struct ant_grid *g, double x, double y, double amount);
void ant_grid_frame(struct ant_grid *g, double eps, double gamma,
		    double ph_max, double floor);

/* Which cells of R pull. */
struct ant_force_opts {
	double region; /* |R|: cells whose centre is within region/2 in x and
			  in y of the position */
	double k;      /* distance exponent */
	double d_min;  /* distances below are taken as d_min */
	int vision;    /* only cells in the cone and in sight */
	double half;   /* cone half-angle, rad */
	double heading[2];		    /* unit; 0,0: no cone */
	const struct predict_map_view *map; /* los for vision, may be NULL */
};

/* Eq. 7 summed over R: F = sum ph / d^k u, u the unit vector from x to
 * the cell centre (negative ph pushes away). */
void ant_force(const struct ant_grid *g, const double x[2],
	       const struct ant_force_opts *o, double f[2]);

/* Eq. 3: the EWMA of velocity and acceleration from positions sampled
 * dt apart (a frame), weights av and aa on the newest sample. */
struct ant_ewma {
	int n; /* samples seen */
	double x[2], v[2], a[2];
};
void ant_ewma_step(struct ant_ewma *e, const double x[2], double dt, double av,
		   double aa);

/* Eq. 5 with post-processing (paper §5.3) evaluated tau s after the
 * update: pos + vel tau + acc tau^2 / 2 + force tau^2 / 2, where force
 * is the attraction term alpha F / m in u/s^2 and acc the inertial term
 * (1 - alpha) a. Post-processing (post != 0): the force displacement is
 * at most kappa |vel| tau; the whole displacement at most v_max tau;
 * with map->los, the prediction stops before the first wall on the
 * segment from pos. X-Y only; z is pos + vel tau. */
struct ant_motion {
	double pos[3], vel[3], acc[2], force[2];
};
struct ant_post {
	int on;
	double kappa, v_max;
	const struct predict_map_view *map; /* truncation; may be NULL */
};
void ant_motion_eval(const struct ant_motion *m, const struct ant_post *pp,
		     double tau, double out[3], double vel[3]);

#endif

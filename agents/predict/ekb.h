/*
 * ekb.h: private header of the play-pattern predictors of Shi, Corriveau
 * and Agar, "Dead Reckoning Using Play Patterns in a Simple 2D
 * Multiplayer Online Game" (IJCGT 2014, paper 003): EKB ("Experience
 * Knows Best"), its obstacle-avoiding variant OAEKB, their hybrids with
 * first-order dead reckoning (TDM), and the paper's baseline IS (the
 * Interest Scheme of Li, Chen and Li, as we reconstruct it). The paper's
 * equations and algorithm bodies were lost from our copy; the shapes and
 * every default below come from the extraction
 * (/work/shared/papers/play-patterns-ekb.md §3, §8) and are our choices,
 * not the paper's values. Everything is planar (x, y); z is carried from
 * the last known state. Pure: no clock, no I/O; ekb_track allocates only
 * inside an A* search and frees before returning.
 */
#ifndef RECKON_PREDICT_EKB_H
#define RECKON_PREDICT_EKB_H

#include <stddef.h>
#include <stdint.h>

#include "predict/predict.h"

/* Speeds below this (u/s) count as standing still in the hybrid's
 * direction-change test (extraction §3.10: both ~0 no change, one ~0 a
 * change). */
#define EKB_STILL 1.0

/* Received-update history kept for the hybrid's look-back window: 512
 * updates cover 8 s at 64 Hz, more than the 2.1 s maximum lag. */
#define EKB_HIST 512

/* Corners kept of one cached OAEKB path. */
#define EKB_PATH_MAX 64

enum ekb_model { EKB_MODEL_EKB, EKB_MODEL_IS };

struct ekb_cfg {
	int model;
	double speed;	     /* S, top speed (u/s) */
	double roi_w, roi_h; /* screen; ROI half-extents are w/2, h/2 */
	double t_battle;     /* eq. 4 */
	double alpha, beta;  /* Algorithm 1 */
	double k, d_run;     /* eq. 13-14: friend scale, D_max */
	double d_min, d_max; /* eq. 9: align distance band */
	double h_max, a_max; /* eq. 12: strength normalisers */
	double c, e_max;     /* eq. 17 */
	double step;	     /* prediction tick (s) */
	int avoid;	     /* OAEKB (Algorithm 2) */
	int hybrid;	     /* Algorithms 3-4 */
	double t_hyb, theta; /* s, rad */
	double radius;	     /* body radius for the A* paths */
	/* IS (reconstruction) */
	double t_is, r_is, w_enemy, w_friend, w_item;
	/* sender */
	double threshold, heartbeat;
};

/* Another player as the model sees it (planar). */
struct ekb_body {
	double p[2], v[2];
	double strength; /* I_j, eq. 12 */
	double health;	 /* IS: enemies attract when weaker than us */
	int friend;	 /* 1 teammate, 0 enemy */
};

/* The behaviour velocities at one predicted position. */
struct ekb_eval {
	int n_friends, n_enemies; /* inside the ROI */
	int in_battle;		  /* eq. 4 */
	double closest_enemy;	  /* eq. 3 (ROI), INFINITY if none */
	double closest_friend;	  /* ROI, INFINITY if none */
	double cf[2];		  /* eq. 6 friend epicentre (P if none) */
	double ce[2];		  /* ROI enemy centroid (P if none) */
	double r;		  /* bravery strength ratio in [-1, 1] */
	double qb[2];		  /* bravery target point (eq. 14) */
	double vf[2], va[2], vb[2], vr[2];
};

/* Strength of one player, eq. 12: I = H/H_max + A/A_max. */
double ekb_strength(const struct ekb_cfg *c, double health, double ammo);

/* 1 if q lies in the screen-sized ROI centred on p (|dx| <= w/2 and
 * |dy| <= h/2). */
int ekb_in_roi(const struct ekb_cfg *c, const double p[2], const double q[2]);

/* Follow (eq. 6-7), align (eq. 9-10), bravery (eq. 12-15), the battle
 * test (eq. 2-4) and the combination of Algorithm 1, at predicted
 * position p of a player with strength own; bodies outside the ROI are
 * ignored. */
void ekb_evaluate(const struct ekb_cfg *c, const double p[2], double own,
		  const struct ekb_body *b, size_t n, struct ekb_eval *out);
/* Algorithm 1 on e's vf, va, vb (sets e->vr). */
void ekb_combine(const struct ekb_cfg *c, struct ekb_eval *e);
/* S * unit(to - p), or 0 when to == p. */
void ekb_toward(double speed, const double p[2], const double to[2],
		double out[2]);

/* Transition length E (updates) of eq. 17 from d_near (INFINITY: none). */
double ekb_transition_len(const struct ekb_cfg *c, double d_near);
/* Eq. 16: weight of V_R at update n (n >= 1) of a transition of E. */
double ekb_transition_weight(double n, double e);

/* Algorithm 4: 1 if the angle between v0 and v exceeds theta (rad), with
 * the zero-speed rules of EKB_STILL. */
int ekb_direction_changed(const double v0[2], const double v[2], double theta);

/* IS reconstruction: the unit direction of the summed interest force at
 * p, or 0 (and *out untouched) when there is no force. */
int is_direction(const struct ekb_cfg *c, const double p[2], double own_health,
		 const struct ekb_body *b, size_t n,
		 const struct predict_item *items, size_t n_items,
		 double out[2]);

/* ---- the prediction run shared by sender and receiver ---- */

struct ekb_hist {
	int64_t t_ns;
	double v[2];
};

struct ekb_path {
	int valid;
	double goal[2]; /* destination the path was computed for */
	double from[2]; /* where it was computed from */
	struct {
		double x, y;
	} pt[EKB_PATH_MAX];
	int n, idx;
};

struct ekb_track {
	struct ekb_cfg c;
	int have;
	struct predict_update u; /* last known state (LKPT = u.t_ns) */
	double own_strength, own_health;
	struct ekb_hist hist[EKB_HIST]; /* ring of received states */
	size_t hist_n, hist_head;
	/* integration cache from u: n steps done, at p with velocity v */
	int run_valid;
	long run_n;
	double run_p[2], run_v[2], run_e;
	struct ekb_path path[2]; /* OAEKB: follow, bravery */
	uint64_t astar_runs;
};

void ekb_track_init(struct ekb_track *t, const struct ekb_cfg *c);
/* Take a new last known state. */
void ekb_track_update(struct ekb_track *t, const struct predict_update *u);
/* Predicted position and velocity at t_ns from the last known state and
 * the peers of ctx. -EAGAIN before the first state. */
int ekb_track_predict(struct ekb_track *t, const struct predict_ctx *ctx,
		      int64_t t_ns, double pos[3], double vel[3]);
/* 1 when the hybrid uses TDM at t_ns (Algorithm 3), else 0. */
int ekb_track_hybrid_tdm(const struct ekb_track *t, int64_t t_ns);

/* Health and ammo ride in the update's DR-other-parameters blob (two
 * little-endian int16) so receivers know the player's own strength. */
void ekb_blob_put(struct predict_update *u, int health, int ammo);
void ekb_blob_get(const struct predict_update *u, int *health, int *ammo);

/* Sender and receiver callbacks shared by ekb and is. */
int ekb_sender_init_cfg(void *priv, const struct ekb_cfg *c);
int ekb_sender_tick(void *priv, const struct predict_ctx *ctx,
		    const struct predict_state *x, struct predict_update *out);
int ekb_receiver_init_cfg(void *priv, const struct ekb_cfg *c);
int ekb_receiver_update(void *priv, const struct predict_ctx *ctx,
			const struct predict_update *u, int64_t now);
int ekb_receiver_display(void *priv, const struct predict_ctx *ctx, int64_t t,
			 struct predict_display *out);

struct ekb_sender {
	struct ekb_track tr;
	int started;
};

#endif

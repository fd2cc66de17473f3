/*
 * predict.h: the one interface behind which every predictor of the project
 * lives (IEEE 1278.1 dead reckoning, led reckoning, and later AntReckoning,
 * the EKB family and HSM/DHSM). A predictor is a pair of pure state
 * machines: the sender owns the entity's true state, is given it every
 * tick and decides when to send an update and what it carries; the
 * receiver consumes the updates that arrive and gives the displayed
 * position and orientation at any time t, converging from its old estimate
 * to the new one. Both see only a context: the static map and what arrived
 * over the network. Parameters come from the scenario as key=value pairs
 * checked against one table per predictor. Times are int64 nanoseconds
 * passed in; nothing here reads a clock. Functions return 0 or -errno and
 * write output parameters only on success.
 */
#ifndef RECKON_PREDICT_H
#define RECKON_PREDICT_H

#include <stddef.h>
#include <stdint.h>

#include "predict/update.h"

/* The true state of the sender's own entity at one tick. Velocity and
 * acceleration are world frame; angular velocity is body frame. */
struct predict_state {
	int64_t t_ns;
	uint32_t entity;
	uint8_t team;
	double pos[3];
	double vel[3];
	double acc[3];
	double ori[3];	  /* psi, theta, phi (radians) */
	double angvel[3]; /* rad/s, body frame */
	int16_t health;	  /* the sender's own health (AntReckoning) */
	int16_t armor, ammo; /* the sender's armour and ammo (EKB strength) */
};

/* What a receiver shows for the remote entity at a time. */
struct predict_display {
	double pos[3];
	double vel[3];
	double ori[3];
	int converging; /* 1 while blending from an old estimate to a new one */
};

/* ---- context: what a predictor may know besides its own updates ---- */

struct predict_trend; /* led reckoning velocity trend map, trend.h */

/* Another entity as last received over the network (EKB needs teammates
 * and enemies; AntReckoning needs other players as pheromone sources). */
struct predict_peer {
	uint32_t entity;
	uint8_t team;
	uint8_t alive;
	int64_t t_ns; /* sender time of the state */
	double pos[3];
	double vel[3];
	int16_t health, armor, ammo;
};

/* A map item (AntReckoning points of interest). */
struct predict_item {
	uint32_t id;
	uint8_t kind;	 /* game-defined: health, armor, ammo, weapon ... */
	uint8_t present; /* 0 while picked up and not yet respawned */
	double pos[3];
};

/* The static map as the predictor may see it. world is the opaque map of
 * agents/world; los, when set, answers line of sight (1 visible, 0
 * occluded) and is pure. */
struct predict_map_view {
	double lo[3], hi[3]; /* bounds; lo == hi means unknown */
	const void *world;
	int (*los)(const void *world, const double a[3], const double b[3]);
};

/*
 * The context handed to every sender and receiver call. Everything is
 * optional (NULL / 0); a predictor that needs a field it does not get
 * returns -EINVAL from its init or first call. Extend by adding fields at
 * the end; callers zero the struct with predict_ctx_init() first.
 */
struct predict_ctx {
	struct predict_map_view map;
	const struct predict_trend *trend; /* led: map of the entity's team */
	/* ctx.peers: every other entity's last applied update, as received
	 * (never its truth), sorted by entity; t_ns is the update's send
	 * time, pos/vel its fields, health/armor/ammo 0 (not on the wire).
	 * Valid for the duration of the call. Built by agents/predict/peers.h
	 * in replay_run_together and in the observer role. */
	const struct predict_peer *peers;
	size_t n_peers;
	/* ctx.items: the map's items as last known (peers.h: presence
	 * inferred from received positions and static respawn times) */
	const struct predict_item *items;
	size_t n_items;
	const double *goal; /* HSM/DHSM dynamic goal position, or NULL */
	const double *goal_vel; /* its velocity, u/s, or NULL (still) */
};

void predict_ctx_init(struct predict_ctx *ctx);

/* ---- parameters ---- */

enum predict_param_type {
	PREDICT_PARAM_REAL,
	PREDICT_PARAM_INT,
	PREDICT_PARAM_BOOL,
	PREDICT_PARAM_ENUM, /* value is the index into choices */
};

struct predict_param {
	const char *key;
	enum predict_param_type type;
	double def, min, max;	    /* ENUM: index of default; min/max unused */
	const char *unit;	    /* "u", "s", "deg", "" */
	const char *const *choices; /* ENUM only, NULL-terminated */
	const char *doc;
};

/* Table rows. */
#define PREDICT_REAL(k, d, lo, hi, u, txt)                                     \
	{                                                                      \
		.key = (k), .type = PREDICT_PARAM_REAL, .def = (d),            \
		.min = (lo), .max = (hi), .unit = (u), .doc = (txt)            \
	}
#define PREDICT_BOOL(k, d, txt)                                                \
	{                                                                      \
		.key = (k), .type = PREDICT_PARAM_BOOL, .def = (d), .min = 0,  \
		.max = 1, .unit = "", .doc = (txt)                             \
	}
#define PREDICT_ENUM(k, d, ch, txt)                                            \
	{                                                                      \
		.key = (k), .type = PREDICT_PARAM_ENUM, .def = (d),            \
		.unit = "", .choices = (ch), .doc = (txt)                      \
	}

#define PREDICT_MAX_PARAMS 32

struct predictor;

/* A uniform grid a sender keeps (AntReckoning's pheromone map), as
 * exposed for display: cell (i, j), 0 <= i < nx, 0 <= j < ny, covers
 * [x0 + i (x1 - x0) / nx, ...) x [y0 + j (y1 - y0) / ny, ...) and holds
 * v[j * nx + i]. v and kind belong to the sender and stay valid until
 * its next tick or its free. */
struct predict_grid {
	double x0, y0, x1, y1;
	int nx, ny;
	const double *v;
	const char *kind; /* "pheromone" */
};

struct predict_params {
	const struct predictor *p;
	double v[PREDICT_MAX_PARAMS]; /* in table order */
};

/* Defaults of p's table. */
int predict_params_init(struct predict_params *par, const struct predictor *p);
/* Set one parameter from text. -ENOENT unknown key, -EINVAL malformed
 * value, -ERANGE outside [min,max]; par unchanged on error. */
int predict_params_set(struct predict_params *par, const char *key,
		       const char *value);
/* Same from "key=value". */
int predict_params_set_kv(struct predict_params *par, const char *kv);
int predict_params_get(const struct predict_params *par, const char *key,
		       double *out);
/* Canonical "k=v k=v ..." into buf; -ENOSPC if it does not fit. */
int predict_params_format(const struct predict_params *par, char *buf,
			  size_t len);
/* Markdown table of p's parameters (key, default, range, unit, doc) into
 * buf, used to generate docs/predictors.md; -ENOSPC if it does not fit. */
int predict_params_doc(const struct predictor *p, char *buf, size_t len);

/* ---- predictors and the registry ---- */

struct predictor {
	const char *name;
	const char *summary;
	const char *cite; /* paper and equations implemented */
	const struct predict_param *params;
	size_t n_params;
	size_t sender_size, receiver_size;
	int (*sender_init)(void *priv, const struct predict_params *par);
	/* 1: *out written, send it; 0: nothing to send. */
	int (*sender_tick)(void *priv, const struct predict_ctx *ctx,
			   const struct predict_state *truth,
			   struct predict_update *out);
	int (*receiver_init)(void *priv, const struct predict_params *par);
	/* 0 applied; 1 applied, and the update shows that the model the
	 * receiver ran until now was stale (counted as stale_model);
	 * -errno refused. */
	int (*receiver_update)(void *priv, const struct predict_ctx *ctx,
			       const struct predict_update *u, int64_t now_ns);
	int (*receiver_display)(void *priv, const struct predict_ctx *ctx,
				int64_t t_ns, struct predict_display *out);
	/* optional: release what init allocated in a sender's or a
	 * receiver's priv (called before priv is freed) */
	void (*fini)(void *priv);
	/* optional, pure: the grid a sender keeps, read-only; -EAGAIN
	 * before it has one (docs/predictors.md) */
	int (*sender_grid)(const void *priv, struct predict_grid *out);
};

/* Predictor by name ("dis", "led", ...); NULL if unknown. */
const struct predictor *predict_find(const char *name);
/* All predictors, in registry order; returns the total count and writes
 * at most max of them. */
size_t predict_list(const struct predictor **out, size_t max);

/* ---- sender and receiver objects ---- */

struct predict_sender;
struct predict_receiver;

struct predict_receiver_stats {
	uint64_t applied;  /* updates taken */
	uint64_t stale;	   /* older than the newest applied: dropped */
	uint64_t rejected; /* malformed (non-finite, bad drm, other entity) */
	/* applied, but the update shows the receiver had been running a
	 * model the sender had already left: it missed an update that
	 * switched the model (dhsm's switch counter; docs/predictors.md) */
	uint64_t stale_model;
};

int predict_sender_new(const struct predict_params *par,
		       struct predict_sender **out);
/* Feed the true state of one tick (time must not go backwards). Returns 1
 * and writes *out when an update must be sent, 0 when not, -errno. */
int predict_sender_tick(struct predict_sender *s, const struct predict_ctx *ctx,
			const struct predict_state *truth,
			struct predict_update *out);
void predict_sender_free(struct predict_sender *s);
/* The sender's grid (AntReckoning: its pheromone map) into *out;
 * -ENOTSUP when the predictor keeps none, -EAGAIN before it has built
 * it (no tick with a map yet). */
int predict_sender_grid(const struct predict_sender *s,
			struct predict_grid *out);

int predict_receiver_new(const struct predict_params *par,
			 struct predict_receiver **out);
/* An update arrived at receiver time now_ns (>= u->t_ns when clocks are
 * in step). -ESTALE: older than the newest applied, ignored; -EINVAL:
 * malformed, ignored. Both are counted. */
int predict_receiver_update(struct predict_receiver *r,
			    const struct predict_ctx *ctx,
			    const struct predict_update *u, int64_t now_ns);
/* Displayed state at t_ns; -EAGAIN before the first update. */
int predict_receiver_display(struct predict_receiver *r,
			     const struct predict_ctx *ctx, int64_t t_ns,
			     struct predict_display *out);
void predict_receiver_stats(const struct predict_receiver *r,
			    struct predict_receiver_stats *out);
void predict_receiver_free(struct predict_receiver *r);

/* Predictors in the registry (their own files). */
extern const struct predictor predict_dis;
extern const struct predictor predict_led;
extern const struct predictor predict_dhsm;
extern const struct predictor predict_ekb;
extern const struct predictor predict_is;
extern const struct predictor predict_ant, predict_dr2;

#endif

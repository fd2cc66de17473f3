/*
 * lagcomp.h: server-side lag compensation for hitscan weapons after Lee,
 * "Lag Compensation in First-Person Shooter Games" (MPhil thesis, PolyU
 * 2018; ../shared/papers/lag-compensation-tlc-clc-alc.md). A per-player
 * history of poses (a ring buffer, Algorithm 2's SERVERTICK), rollback by
 * the shooter's estimated RTT plus an optional interpolation delay
 * (Algorithms 2-4), hitscan traces against capsule hitboxes (head, torso,
 * legs) and the map's walls, the four modes none / TLC / CLC / ALC, three
 * RTT estimators, and the victim-side "shot behind covers" (SBC) test of
 * section 7.3 that every mode runs when a hit reaches its victim. Units are
 * game units (map.h) and degrees of yaw; times are nanoseconds and ticks
 * supplied by the caller. Pure: no clock, no I/O, no randomness.
 */
#ifndef RECKON_LAGCOMP_H
#define RECKON_LAGCOMP_H

#include <stddef.h>
#include <stdint.h>

#include "world/map.h"

#define LC_MAX_PLAYERS 64
#define LC_HIST_MAX    512 /* frames per player: 1.5 s at up to 341 Hz */
#define LC_MAX_PENDING 1024
#define LC_MAX_OUT     (2 * LC_MAX_PLAYERS)

enum lc_part { LC_PART_HEAD, LC_PART_TORSO, LC_PART_LEGS, LC_NPARTS };
enum lc_mode { LC_MODE_NONE, LC_MODE_TLC, LC_MODE_CLC, LC_MODE_ALC };
enum lc_ping_kind { LC_PING_INSTANT, LC_PING_EWMA, LC_PING_UE4 };

const char *lc_part_name(int part);
const char *lc_mode_name(enum lc_mode m);
/* Name -> value; -EINVAL for an unknown name. */
int lc_mode_parse(const char *s, enum lc_mode *out);
int lc_ping_parse(const char *s, enum lc_ping_kind *out);

/* ---- bodies and hitboxes (hitbox.c) ---- */

/* A player's pose: feet at (x, y) on the floor, yaw in degrees (0 along
 * +x, 90 along +y), standing or crouched. */
struct lc_pose {
	double x, y, yaw;
	int crouch;
};

/* A capsule in the body frame: x forward, y left, z up, origin at the
 * feet; the segment a-b swept by radius r. */
struct lc_capsule {
	double a[3], b[3], r;
};

/* Hitboxes per stance ([0] standing, [1] crouched) and eye heights. */
struct lc_body {
	struct lc_capsule part[2][LC_NPARTS];
	double eye_z[2];
};

/* CS-like proportions in game units (72 u standing, 54 u crouched). */
void lc_body_default(struct lc_body *b);
/* Camera location of a pose. */
void lc_eye(const struct lc_body *b, const struct lc_pose *p, double e[3]);
/* The body part as a world-space capsule, and its centre. */
void lc_part_world(const struct lc_body *b, const struct lc_pose *p, int part,
		   struct lc_capsule *out);
void lc_part_centre(const struct lc_body *b, const struct lc_pose *p, int part,
		    double c[3]);

/* Smallest t >= 0 with o + t d on the capsule (d need not be unit; t is
 * in units of |d|), or -1 when the ray misses it. A ray starting inside
 * the capsule returns -1. */
double lc_ray_capsule(const double o[3], const double d[3],
		      const struct lc_capsule *c);

/* Unit aim vector from yaw and pitch (degrees, pitch up positive). */
void lc_aim_dir(double yaw, double pitch, double d[3]);

struct lc_trace_hit {
	int victim; /* index into the pose array */
	int part;
	double t;	 /* distance from the eye along the unit aim */
	double point[3]; /* impact point */
};

/* The hitscan trace of Algorithm 1: from eye along the unit vector dir
 * for at most maxd, the nearest body part of any player i != skip with
 * alive[i] (alive may be NULL: all alive), unless a wall cell of the map
 * is crossed first (geom_los on the ground-plane projection). Returns 1
 * and fills *out on a player hit, 0 on a miss or a wall. */
int lc_trace(const struct map *m, const struct lc_body *b, const double eye[3],
	     const double dir[3], double maxd, const struct lc_pose *poses,
	     const uint8_t *alive, int n, int skip, struct lc_trace_hit *out);

/* The impact offset v = s1 - s0 of section 7.3 stored in the body part's
 * frame: rotated by minus the yaw of the pose the hit was judged on. */
void lc_offset_local(const struct lc_body *b, const struct lc_pose *judged,
		     int part, const double point[3], double v_local[3]);
/* b1 = b0 + R(yaw_now) v_local: the impact point carried onto a pose. */
void lc_offset_apply(const struct lc_body *b, const struct lc_pose *now,
		     int part, const double v_local[3], double point[3]);

/* Shot behind covers on arrival (section 7.3): 1 when the segment from
 * the shooter's eye (as the victim sees it) to the impact point carried
 * onto the victim's pose crosses a wall, 0 when it is clear. Only the
 * map's static geometry blocks (ambiguity 15 of the extraction). */
int lc_sbc(const struct map *m, const struct lc_body *b,
	   const struct lc_pose *victim_now, int part, const double v_local[3],
	   const double shooter_eye[3]);

/* ---- history (history.c) ---- */

struct lc_frame {
	int64_t tick;
	struct lc_pose pose;
	uint8_t alive;
};

struct lc_history {
	int cap, n, head; /* head: index of the next write */
	struct lc_frame f[LC_HIST_MAX];
};

/* cap = ceil(seconds * tick_hz) frames; -EINVAL when that is < 1 or
 * more than LC_HIST_MAX. */
int lc_history_init(struct lc_history *h, int tick_hz, double seconds);
/* Algorithm 2, SERVERTICK: drop the oldest frame when full, then push. */
void lc_history_push(struct lc_history *h, int64_t tick,
		     const struct lc_pose *p, int alive);
/* The frame k ticks before the newest (k = 0: newest), clamped to the
 * oldest frame kept; NULL when the history is empty. */
const struct lc_frame *lc_history_back(const struct lc_history *h, int k);
/* The newest frame whose tick is <= tick (the oldest if none is); NULL
 * when empty. */
const struct lc_frame *lc_history_at(const struct lc_history *h, int64_t tick);

/* Frames to roll back: round((rtt_ms + interp_ms) / (1000 / tick_hz)).
 * Algorithms 2-4 index frames[maxFrameSize - round(ping / tick) - 1],
 * which is this many frames before the newest (the newest is index
 * maxFrameSize - 1). Never negative. */
int lc_rollback_frames(double rtt_ms, double interp_ms, int tick_hz);

/* ---- RTT estimators (ping.c) ---- */

#define LC_UE4_BUCKETS	  4
#define LC_UE4_BUCKET_MAX 7 /* samples kept per one-second bucket */

struct lc_ping {
	enum lc_ping_kind kind;
	double alpha; /* EWMA gain, default 1/8 */
	double est;
	int have;
	/* UE4: four buckets of at most seven samples; the open one is cur,
	 * opened by the sample at bstart_ns */
	double bsum[LC_UE4_BUCKETS];
	int bcnt[LC_UE4_BUCKETS];
	int cur;
	int64_t bstart_ns;
};

void lc_ping_init(struct lc_ping *p, enum lc_ping_kind kind);
/* One RTT sample (ms) measured at t_ns. Non-finite or negative samples
 * are ignored and return -EINVAL. */
int lc_ping_sample(struct lc_ping *p, int64_t t_ns, double rtt_ms);
/* The current estimate in ms, 0 before any sample. */
double lc_ping_get(const struct lc_ping *p);

/* ---- the authoritative server (server.c) ---- */

struct lc_config {
	enum lc_mode mode;
	int tick_hz;	   /* 60 */
	double history_s;  /* 1.5 */
	double interp_ms;  /* added to the rollback, 0 */
	double trace_dist; /* 7874 u (200 m at 2.54 cm/u) */
	enum lc_ping_kind ping;
	double clc_rtt_cap_ms;	 /* CLC: compensate iff RTT <= cap; 0 off */
	double clc_max_rewind;	 /* CLC: per-target rewind cap in u; 0 off */
	double alc_low_ping_ms;	 /* ALC: victims <= this may appeal, 50 */
	double alc_high_ping_ms; /* ALC: and shooter >= this; 0 off */
	double alc_timeout_ms;	 /* no reply: confirm after, 2 * low ping */
	double pose_tol;	 /* denial pose vs server pose, u */
};

void lc_config_defaults(struct lc_config *c);
/* -EINVAL with the reason in why when a field is out of range. */
int lc_config_check(const struct lc_config *c, char *why, size_t whylen);

enum lc_state {
	LC_V_MISS,	/* no player hit on the server */
	LC_V_FINAL,	/* registered at once */
	LC_V_PENDING,	/* ALC: provisional, waiting for the victim */
	LC_V_CONFIRMED, /* ALC: the victim confirmed */
	LC_V_UPHELD,	/* ALC: denied and the server agreed: discarded */
	LC_V_OVERRULED, /* ALC: denied, the server found no SBC */
	LC_V_TIMEOUT,	/* ALC: no reply within the timeout: confirmed */
};

const char *lc_state_name(enum lc_state s);

/* Everything the server decided about one shot. */
struct lc_verdict {
	uint32_t shot_id;
	int shooter, victim; /* victim -1 on a miss */
	int screen_victim;   /* the shooter's client hit this one, or -1 */
	int64_t recv_ns, tick;
	double shooter_rtt_ms, victim_rtt_ms;
	int rollback;	    /* frames rewound (0 when not compensated) */
	int compensated;    /* CLC: the shot was rewound */
	double rewind_dist; /* victim eye, judged vs newest frame, u */
	int part;
	double point[3], v_local[3];
	int appeal; /* ALC: the victim may deny */
	enum lc_state state;
	int registered;	   /* counts as a hit */
	int sbc;	   /* victim-side SBC on arrival: -1 unknown */
	int pose_mismatch; /* a denial's pose was off by > pose_tol */
	int64_t result_ns; /* result sent to the shooter, -1 never */
	/* the ray as traced: from the shooter's eye to the impact point,
	 * or on a miss to the first wall (at most trace_dist); the victim's
	 * judged X-Y position */
	double eye[3], end[3], victim_xy[2];
};

/* A message the caller must send. */
enum lc_out_kind {
	LC_OUT_HIT_VICTIM, /* hit event to the victim (provisional if appeal) */
	LC_OUT_HIT_SHOOTER, /* the registered result to the shooter */
};

struct lc_out {
	enum lc_out_kind kind;
	uint32_t hit_id; /* verdict index + 1 */
	int shooter, victim, part;
	int appeal;	 /* victim may deny (ALC provisional) */
	int irrefutable; /* an overruled denial: final */
	double v_local[3];
	double point[3];
};

struct lc_player {
	int used, alive, team;
	struct lc_pose pose;
	struct lc_history hist;
	struct lc_ping ping;
};

struct lc_server {
	struct lc_config cfg;
	const struct map *m;
	struct lc_body body;
	int nplayers;
	struct lc_player p[LC_MAX_PLAYERS];
	int64_t tick;
	struct lc_verdict *v;
	size_t nv, capv;
	uint32_t pending[LC_MAX_PENDING]; /* hit ids awaiting ALC replies */
	int npending;
};

/* The server allocates its verdict log; lc_server_free releases it. */
int lc_server_init(struct lc_server *s, const struct lc_config *c,
		   const struct map *m, const struct lc_body *b, char *why,
		   size_t whylen);
void lc_server_free(struct lc_server *s);

/* Player id 0..LC_MAX_PLAYERS-1 joins with a team (0 = everyone is an
 * enemy) at a pose. */
int lc_server_join(struct lc_server *s, int id, int team,
		   const struct lc_pose *p);
/* The newest pose a client reported, and whether it is alive. */
int lc_server_pose(struct lc_server *s, int id, const struct lc_pose *p,
		   int alive);
/* One RTT sample for a player. */
int lc_server_rtt(struct lc_server *s, int id, int64_t t_ns, double rtt_ms);
double lc_server_rtt_est(const struct lc_server *s, int id);

/* One server tick: pushes every player's pose into its history, then
 * resolves ALC hits whose reply is overdue (timeout = confirm). Writes
 * the messages to send into out (at most maxout, LC_MAX_OUT is enough)
 * and their number into *nout. */
int lc_server_tick(struct lc_server *s, int64_t tick, int64_t t_ns,
		   struct lc_out *out, int maxout, int *nout);

struct lc_shot {
	uint32_t shot_id;
	int shooter;
	double yaw, pitch; /* aim, degrees */
	int screen_victim; /* hit on the shooter's screen, or -1 */
};

/* Algorithms 1-4, SERVERRECEIVEFIRE, in the configured mode. Appends a
 * verdict (its index to *vi when vi is non-NULL) and writes the messages
 * to send. */
int lc_server_fire(struct lc_server *s, const struct lc_shot *shot,
		   int64_t t_ns, struct lc_out *out, int maxout, int *nout,
		   size_t *vi);

/* The victim's reply to a hit event: its SBC-on-arrival result (deny =
 * SBC), its pose when the hit arrived and the server tick of the
 * snapshot it was rendering. In every mode the reply records the SBC
 * flag; for a provisional ALC hit it is SERVERRECEIVECONFIRMATION:
 * confirm -> result to the shooter; deny -> the server re-runs the SBC
 * test from the shooter's eye at the rendered tick (its own history) to
 * the impact point carried onto the victim's pose, and either upholds
 * the denial (hit dropped) or overrules it (irrefutable hit to the
 * victim, result to the shooter). A denial whose pose is farther than
 * pose_tol from the server's pose is overruled. -ENOENT for an unknown
 * hit id, -EALREADY for a reply to a hit already replied to. */
int lc_server_reply(struct lc_server *s, uint32_t hit_id, int deny,
		    const struct lc_pose *victim_pose, int64_t rendered_tick,
		    int64_t t_ns, struct lc_out *out, int maxout, int *nout);

/* ---- the victim's side ---- */

/* CLIENTRECEIVEFIRE: the SBC test with the shooter's eye as the victim
 * renders it. Returns 1 (deny: SBC) or 0 (confirm). */
int lc_client_check(const struct map *m, const struct lc_body *b,
		    const struct lc_pose *victim_now, const struct lc_out *hit,
		    const struct lc_pose *shooter_seen);

/* ---- metrics (metrics.c) ---- */

struct lc_metrics {
	long shots, screen_hits, server_hits, registered;
	long registered_screen;	  /* registered among screen hits */
	double reg_accuracy;	  /* registered_screen / screen_hits */
	long hits_low, hits_high; /* registered, by victim ping class */
	long sbc_low, sbc_high, sbc_unknown;
	double sbc100_low, sbc100_high; /* SBC per 100 registered hits */
	long provisional, confirmed, denials, upheld, overruled, incorrect,
		timeouts;
	long pending; /* provisional hits still unresolved at the end */
	double delay_mean_ms, delay_p50_ms, delay_p95_ms; /* result - recv */
	double rewind_mean;				  /* u */
};

/* Metrics over the verdict log. Victims are low-ping when their RTT
 * estimate at the shot was <= low_ping_ms. */
int lc_metrics_compute(const struct lc_server *s, double low_ping_ms,
		       struct lc_metrics *m);

#endif

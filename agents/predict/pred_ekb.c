/*
 * pred_ekb.c: the "ekb" predictor, EKB ("Experience Knows Best") of Shi,
 * Corriveau and Agar, "Dead Reckoning Using Play Patterns in a Simple 2D
 * Multiplayer Online Game" (IJCGT 2014, paper 003): the remote player's
 * velocity is a blend of follow (eq. 6-7), align (eq. 9-10) and bravery
 * (eq. 12-15) velocities chosen by the battle test (eq. 2-4, Algorithm
 * 1), reached from the last known velocity by the smooth transition of
 * eq. 16-17. avoid=1 is OAEKB (Algorithm 2: steer toward the next node of
 * an A* path on the map), hybrid=1 switches to first-order dead reckoning
 * (TDM) by T_hyb and the turn test (Algorithms 3-4). The paper's values
 * of every parameter were lost from our copy: each default below is the
 * extraction's suggestion (play-patterns-ekb.md §3.11), our choice, not
 * the paper's. The sender sends when its own run of the same prediction
 * from the last sent state is more than `threshold` off (paper §4.6);
 * teammates and enemies come only from ctx->peers. The model is in
 * ekb_model.c and ekb_track.c.
 */
#include <math.h>

#include "predict/ekb.h"
#include "predict/predict.h"

enum {
	P_SPEED,
	P_ROI_W,
	P_ROI_H,
	P_BATTLE,
	P_ALPHA,
	P_BETA,
	P_K,
	P_DRUN,
	P_DMIN,
	P_DMAX,
	P_HMAX,
	P_AMAX,
	P_C,
	P_EMAX,
	P_STEP,
	P_AVOID,
	P_HYBRID,
	P_THYB,
	P_THETA,
	P_RADIUS,
	P_THR,
	P_HEARTBEAT,
	N_PARAMS
};

static const struct predict_param ekb_params[N_PARAMS] = {
	[P_SPEED] = PREDICT_REAL("speed", 250, 1, 1e5, "u/s",
				 "S, top speed: |V_F| = |V_B| = S, |V_A| <= S "
				 "(eq. 7, 10, 15; our bots' run speed)"),
	[P_ROI_W] = PREDICT_REAL("roi_w", 1280, 1, 1e6, "u",
				 "screen width W; ROI |dx| <= W/2 (§3.2)"),
	[P_ROI_H] = PREDICT_REAL("roi_h", 720, 1, 1e6, "u",
				 "screen height H; ROI |dy| <= H/2 (§3.2)"),
	[P_BATTLE] = PREDICT_REAL("t_battle", 400, 0, 1e6, "u",
				  "T_battle: in battle when the closest ROI "
				  "enemy is nearer (eq. 4)"),
	[P_ALPHA] = PREDICT_REAL("alpha", 0.6, 0, 1, "",
				 "follow weight in battle, rest bravery "
				 "(Algorithm 1)"),
	[P_BETA] = PREDICT_REAL("beta", 0.7, 0, 1, "",
				"follow weight out of battle, rest align "
				"(Algorithm 1)"),
	[P_K] = PREDICT_REAL("k", 0.5, 0, 10, "",
			     "scale of the friends' strength in the bravery "
			     "ratio (eq. 13)"),
	[P_DRUN] = PREDICT_REAL("d_run", 300, 0, 1e6, "u",
				"D_max: run distance toward/away from the "
				"enemy from the friend epicentre (eq. 14)"),
	[P_DMIN] = PREDICT_REAL("d_min", 64, 0, 1e6, "u",
				"align: friends nearer are ignored (eq. 9)"),
	[P_DMAX] = PREDICT_REAL("d_max", 360, 0, 1e6, "u",
				"align: friends farther are ignored; weight "
				"(d_max - d)/(d_max - d_min) (eq. 9)"),
	[P_HMAX] = PREDICT_REAL("h_max", 100, 1e-6, 1e6, "",
				"H_max in I = H/H_max + A/A_max (eq. 12)"),
	[P_AMAX] = PREDICT_REAL("a_max", 120, 1e-6, 1e6, "",
				"A_max in eq. 12 (our bots' 120 rounds)"),
	[P_C] = PREDICT_REAL("c", 0.1, 0, 1e3, "1/u",
			     "E = clamp(c d_near, 1, E_max) updates (eq. 17)"),
	[P_EMAX] = PREDICT_REAL("e_max", 60, 1, 1e6, "",
				"E_max, upper bound of E in updates; 60 = 1 s "
				"(eq. 17)"),
	[P_STEP] = PREDICT_REAL("step", 1.0 / 60, 1e-4, 1, "s",
				"prediction tick dt of eq. 5 (the paper's "
				"~60 Hz update)"),
	[P_AVOID] = PREDICT_BOOL("avoid", 0,
				 "OAEKB: follow and bravery steer toward the "
				 "next A* node on the map (Algorithm 2)"),
	[P_HYBRID] = PREDICT_BOOL("hybrid", 0,
				  "hybrid: TDM when t_lag > t_hyb and no turn "
				  "above theta in the t_lag before LKPT "
				  "(Algorithms 3-4)"),
	[P_THYB] = PREDICT_REAL("t_hyb", 0.15, 0, 60, "s",
				"T_hyb: below this lag always EKB (Alg. 3)"),
	[P_THETA] = PREDICT_REAL("theta", 30, 0, 180, "deg",
				 "turn angle of the direction-change test "
				 "(Algorithm 4)"),
	[P_RADIUS] = PREDICT_REAL("radius", 16, 0, 1e4, "u",
				  "body radius of the OAEKB A* paths"),
	[P_THR] = PREDICT_REAL("threshold", 32, 0.001, 1e6, "u",
			       "send when the prediction is farther off "
			       "(§4.6; also the hit threshold)"),
	[P_HEARTBEAT] = PREDICT_REAL("heartbeat", 0, 0, 3600, "s",
				     "send at least this often; 0 = off (the "
				     "paper has none)"),
};

static void cfg_load(struct ekb_cfg *c, const struct predict_params *par)
{
	const double *v = par->v;

	*c = (struct ekb_cfg){
		.model = EKB_MODEL_EKB,
		.speed = v[P_SPEED],
		.roi_w = v[P_ROI_W],
		.roi_h = v[P_ROI_H],
		.t_battle = v[P_BATTLE],
		.alpha = v[P_ALPHA],
		.beta = v[P_BETA],
		.k = v[P_K],
		.d_run = v[P_DRUN],
		.d_min = v[P_DMIN],
		.d_max = v[P_DMAX],
		.h_max = v[P_HMAX],
		.a_max = v[P_AMAX],
		.c = v[P_C],
		.e_max = v[P_EMAX],
		.step = v[P_STEP],
		.avoid = v[P_AVOID] != 0,
		.hybrid = v[P_HYBRID] != 0,
		.t_hyb = v[P_THYB],
		.theta = v[P_THETA] * M_PI / 180.0,
		.radius = v[P_RADIUS],
		.threshold = v[P_THR],
		.heartbeat = v[P_HEARTBEAT],
	};
}

static int sender_init(void *priv, const struct predict_params *par)
{
	struct ekb_cfg c;

	cfg_load(&c, par);
	return ekb_sender_init_cfg(priv, &c);
}

static int receiver_init(void *priv, const struct predict_params *par)
{
	struct ekb_cfg c;

	cfg_load(&c, par);
	return ekb_receiver_init_cfg(priv, &c);
}

const struct predictor predict_ekb = {
	.name = "ekb",
	.summary = "EKB play-pattern dead reckoning (follow, align, bravery), "
		   "OAEKB (avoid=1) and hybrids with TDM (hybrid=1)",
	.cite = "Shi, Corriveau & Agar, IJCGT 2014 (paper 003) eq. 2-17, "
		"Algorithms 1-4; lost values: extraction defaults",
	.params = ekb_params,
	.n_params = N_PARAMS,
	.sender_size = sizeof(struct ekb_sender),
	.receiver_size = sizeof(struct ekb_track),
	.sender_init = sender_init,
	.sender_tick = ekb_sender_tick,
	.receiver_init = receiver_init,
	.receiver_update = ekb_receiver_update,
	.receiver_display = ekb_receiver_display,
};

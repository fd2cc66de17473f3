/*
 * pred_is.c: the "is" predictor, a RECONSTRUCTION of the Interest Scheme
 * of Li & Chen (NetGames 2006) and Li, Chen & Li (ACM CiE 2008), paper
 * 003's second baseline. Paper 003 gives no IS equations and we could not
 * read the IS papers, so this follows the extraction's sketch
 * (play-patterns-ekb.md §2.2), every value our choice: first-order dead
 * reckoning (TDM) up to t_is after the last known state, then each
 * prediction tick the player heads along the unit sum of interest forces
 *   F = sum_o s_o w_o (R - d_o)/R unit(p_o - P),  d_o < R,
 * enemies attracting (s = +1) when our last known health is at least
 * theirs and repelling (s = -1) otherwise, teammates and present map items
 * attracting, at the last known speed |V_0| (no force: keep heading). The
 * other players come from ctx->peers, items from ctx->items. Sender: the
 * same threshold rule as ekb. Shares its run with ekb (ekb_track.c).
 */
#include "predict/ekb.h"
#include "predict/predict.h"

enum {
	P_TIS,
	P_RIS,
	P_WENEMY,
	P_WFRIEND,
	P_WITEM,
	P_STEP,
	P_THR,
	P_HEARTBEAT,
	N_PARAMS
};

static const struct predict_param is_params[N_PARAMS] = {
	[P_TIS] = PREDICT_REAL("t_is", 0.3, 0, 60, "s",
			       "TDM up to this time after the last known "
			       "state, then interest steering (IS hybrid)"),
	[P_RIS] = PREDICT_REAL("r_is", 734, 1, 1e6, "u",
			       "R: interests farther are ignored; falloff "
			       "(R - d)/R (half the 1280x720 screen diagonal)"),
	[P_WENEMY] = PREDICT_REAL("w_enemy", 1, 0, 1e3, "",
				  "enemy weight (attract if not weaker, "
				  "else repel)"),
	[P_WFRIEND] = PREDICT_REAL("w_friend", 0.3, 0, 1e3, "",
				   "teammate weight (weak attraction)"),
	[P_WITEM] = PREDICT_REAL("w_item", 0.5, 0, 1e3, "",
				 "present map item weight (attraction)"),
	[P_STEP] =
		PREDICT_REAL("step", 1.0 / 60, 1e-4, 1, "s", "prediction tick"),
	[P_THR] = PREDICT_REAL("threshold", 32, 0.001, 1e6, "u",
			       "send when the prediction is farther off"),
	[P_HEARTBEAT] = PREDICT_REAL("heartbeat", 0, 0, 3600, "s",
				     "send at least this often; 0 = off"),
};

static void cfg_load(struct ekb_cfg *c, const struct predict_params *par)
{
	const double *v = par->v;

	*c = (struct ekb_cfg){
		.model = EKB_MODEL_IS,
		.t_is = v[P_TIS],
		.r_is = v[P_RIS],
		.w_enemy = v[P_WENEMY],
		.w_friend = v[P_WFRIEND],
		.w_item = v[P_WITEM],
		.h_max = 100,
		.a_max = 1,
		.step = v[P_STEP],
		.threshold = v[P_THR],
		.heartbeat = v[P_HEARTBEAT],
		.e_max = 1,
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

const struct predictor predict_is = {
	.name = "is",
	.summary = "Interest Scheme (reconstruction): TDM, then steering by "
		   "attracting/repelling interests",
	.cite = "Li & Chen 2006, Li, Chen & Li 2008 as sketched in paper "
		"003's extraction §2.2 (reconstruction, not their formulas)",
	.params = is_params,
	.n_params = N_PARAMS,
	.sender_size = sizeof(struct ekb_sender),
	.receiver_size = sizeof(struct ekb_track),
	.sender_init = sender_init,
	.sender_tick = ekb_sender_tick,
	.receiver_init = receiver_init,
	.receiver_update = ekb_receiver_update,
	.receiver_display = ekb_receiver_display,
};

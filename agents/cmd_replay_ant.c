/*
 * cmd_replay_ant.c: `reckon-agent replay --experiment ant`, the offline
 * AntReckoning experiments of paper 001 §6 on a trace replayed with every
 * entity together (replay_run_together: each client knows the static map
 * and what it received). Accuracy (Fig. 9d): every entity sends every
 * delta frames (period mode) and the displayed position exactly delta
 * frames after each update is compared with the truth, in X-Y, for dr2
 * (the baseline) and ant in its two configurations; the ratio of mean
 * errors, the mean of per-sample ratios (samples with a baseline error of
 * at least 1 u) and the median ratio are printed. Bandwidth (Fig. 11):
 * updates sent by dr2 and ant at the same threshold and the saving
 * 1 - N_ant / N_dr2. Only I/O and bookkeeping are here.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_replay_ant.h"

#define N_CONF 4

/* ant-rho0 is the ablation of extraction §1.2 (iv): eq. 5 with alpha =
 * 0.5 and no pheromone, i.e. dr2 with its acceleration halved. */
static const char *const conf_name[N_CONF] = {"dr2", "ant-quake", "ant-wow",
					      "ant-rho0"};

/* Samples at the horizon, in tick order per run (same order each run). */
struct horizon {
	int64_t at_ns;
	double *err;
	size_t n, cap;
	int oom;
};

static void on_tick(void *arg, const struct replay_tick *k)
{
	struct horizon *h = arg;

	if (k->since_ns != h->at_ns || h->oom)
		return;
	if (h->n == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 4096;
		double *v = realloc(h->err, cap * sizeof(*v));

		if (!v) {
			h->oom = 1;
			return;
		}
		h->err = v;
		h->cap = cap;
	}
	h->err[h->n++] =
		hypot(k->shown[0] - k->truth[0], k->shown[1] - k->truth[1]);
}

static int conf_params(int c, const char *extra, struct predict_params *par)
{
	const struct predictor *p = predict_find(c == 0 ? "dr2" : "ant");
	char buf[512], *kv, *save = NULL;
	int err = predict_params_init(par, p);

	/* ant-wow: players only, with WoW's epsilon and gamma (Fig. 9) at
	 * our 50 ms frame (the horizons are the same for all three) */
	if (!err && c == 2)
		err = predict_params_set_kv(par, "game=wow") ||
		      predict_params_set_kv(par, "frame=0.05");
	if (!err && c == 3)
		err = predict_params_set_kv(par, "rho=0");
	snprintf(buf, sizeof(buf), "%s", extra && c ? extra : "");
	if (c == 3) /* keep rho=0 whatever extra says */
		snprintf(buf, sizeof(buf), "%s", "");
	for (kv = strtok_r(buf, ",", &save); !err && kv;
	     kv = strtok_r(NULL, ",", &save))
		err = predict_params_set_kv(par, kv);
	return err ? -EINVAL : 0;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double mean(const double *v, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	return n ? s / (double)n : 0;
}

/* Mean and median of per-sample ratios a/b where b >= 1 u. */
static void ratios(const double *a, const double *b, size_t n, double *mr,
		   double *med)
{
	double *r = malloc((n ? n : 1) * sizeof(*r));
	size_t m = 0;

	*mr = *med = NAN;
	if (!r)
		return;
	for (size_t i = 0; i < n; i++)
		if (b[i] >= 1.0)
			r[m++] = a[i] / b[i];
	if (m) {
		*mr = mean(r, m);
		qsort(r, m, sizeof(*r), cmp_d);
		*med = r[(m - 1) / 2];
	}
	free(r);
}

static int run_conf(const struct replay_set *set, struct replay_world w,
		    const struct predict_params *par, struct horizon *h,
		    uint64_t *updates, double *err_mean)
{
	struct replay_result *res = calloc(set->n_paths, sizeof(*res));
	uint64_t u = 0;
	double s = 0, t = 0;
	int err;

	if (!res)
		return -ENOMEM;
	w.on_tick = h ? on_tick : NULL;
	w.arg = h;
	err = replay_run_together(set, &w, par, res, NULL);
	for (size_t i = 0; !err && i < set->n_paths; i++) {
		u += res[i].updates;
		s += res[i].err_mean * (double)res[i].ticks;
		t += (double)res[i].ticks;
	}
	free(res);
	if (!err && h && h->oom)
		err = -ENOMEM;
	if (!err) {
		*updates = u;
		*err_mean = t > 0 ? s / t : 0;
	}
	return err;
}

static int accuracy(const struct replay_set *set, const struct replay_world *w,
		    const char *extra)
{
	static const int deltas[] = {5, 10, 20, 40, 70, 80};
	char kv[64];

	printf("## accuracy: error delta frames (50 ms) after an update, X-Y; "
	       "ratio = ant / dr2\n"
	       "| delta | horizon s | samples | dr2 mean u | ant-quake mean u "
	       "| ratio of means | mean ratio | median ratio | ant-wow mean u "
	       "| ratio of means | mean ratio | median ratio | ant-rho0 mean "
	       "u | ratio of means | mean ratio | median ratio |\n"
	       "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	       "---|\n");
	for (size_t d = 0; d < sizeof(deltas) / sizeof(deltas[0]); d++) {
		struct horizon h[N_CONF];
		int64_t at = (int64_t)deltas[d] * 50000000LL;
		int err = 0;

		memset(h, 0, sizeof(h));
		for (int c = 0; c < N_CONF && !err; c++) {
			struct predict_params par;
			uint64_t u;
			double em;

			err = conf_params(c, extra, &par);
			/* one tick past the horizon, so the horizon's tick
			 * still shows the old update */
			snprintf(kv, sizeof(kv), "period=%.9f",
				 (double)(at + set->tick_ns) * 1e-9);
			if (!err)
				err = predict_params_set_kv(&par, kv) ||
				      predict_params_set_kv(&par,
							    "heartbeat=0");
			h[c].at_ns = at;
			if (!err)
				err = run_conf(set, *w, &par, &h[c], &u, &em);
		}
		for (int c = 1; c < N_CONF && !err; c++)
			if (h[c].n != h[0].n)
				err = -EPROTO; /* same ticks in every run */
		if (err) {
			fprintf(stderr,
				"replay: experiment ant: delta %d: %s\n",
				deltas[d], strerror(-err));
			for (int c = 0; c < N_CONF; c++)
				free(h[c].err);
			return 1;
		}
		double m0 = mean(h[0].err, h[0].n);

		printf("| %d | %.2f | %zu | %.3f", deltas[d], (double)at * 1e-9,
		       h[0].n, m0);
		for (int c = 1; c < N_CONF; c++) {
			double mc = mean(h[c].err, h[c].n), mr, med;

			ratios(h[c].err, h[0].err, h[0].n, &mr, &med);
			printf(" | %.3f | %.3f | %.3f | %.3f", mc, mc / m0, mr,
			       med);
		}
		printf(" |\n");
		for (int c = 0; c < N_CONF; c++)
			free(h[c].err);
	}
	return 0;
}

static int bandwidth(const struct replay_set *set, const struct replay_world *w,
		     const char *extra)
{
	static const double etas[] = {10, 25, 50, 100, 200};
	double dur = 0;

	for (size_t i = 0; i < set->n_paths; i++)
		dur += (double)set->path[i].n * (double)set->tick_ns * 1e-9;
	printf("\n## bandwidth: updates at the same threshold (heartbeat 5 s); "
	       "saving = 1 - N_ant / N_dr2\n"
	       "| eta u | dr2 updates | dr2 upd/s | dr2 err u | ant-quake "
	       "updates | saving | err u | ant-wow updates | saving | err u "
	       "| ant-rho0 updates | saving | err u |\n"
	       "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
	for (size_t e = 0; e < sizeof(etas) / sizeof(etas[0]); e++) {
		uint64_t u[N_CONF];
		double em[N_CONF];
		char kv[64];

		for (int c = 0; c < N_CONF; c++) {
			struct predict_params par;
			int err = conf_params(c, extra, &par);

			snprintf(kv, sizeof(kv), "threshold=%g", etas[e]);
			if (!err)
				err = predict_params_set_kv(&par, kv);
			if (!err)
				err = run_conf(set, *w, &par, NULL, &u[c],
					       &em[c]);
			if (err) {
				fprintf(stderr,
					"replay: experiment ant: eta %g: %s\n",
					etas[e], strerror(-err));
				return 1;
			}
		}
		printf("| %g | %" PRIu64 " | %.3f | %.3f", etas[e], u[0],
		       dur > 0 ? (double)u[0] / dur : 0, em[0]);
		for (int c = 1; c < N_CONF; c++)
			printf(" | %" PRIu64 " | %+.1f %% | %.3f", u[c],
			       u[0] ? 100.0 * (1.0 -
					       (double)u[c] / (double)u[0])
				    : 0.0,
			       em[c]);
		printf(" |\n");
	}
	return 0;
}

int replay_ant_experiment(const struct replay_set *set,
			  const struct replay_world *w, const char *trace,
			  const char *extra)
{
	printf("# AntReckoning experiment (paper 001 §6) on %s: %zu paths, "
	       "together, zero latency; configurations: %s, %s (game=quake), "
	       "%s (game=wow frame=0.05), %s (game=quake rho=0)%s%s\n\n",
	       trace, set->n_paths, conf_name[0], conf_name[1], conf_name[2],
	       conf_name[3], extra ? "; ant-quake and ant-wow with " : "",
	       extra ? extra : "");
	if (accuracy(set, w, extra))
		return 1;
	return bandwidth(set, w, extra);
}

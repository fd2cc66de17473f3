/*
 * metrics.c: what a lag-compensation run is judged on, computed from the
 * server's verdict log: SBC per 100 registered hits for low- and
 * high-ping victims (Lee's Table 7.1 splits by victim class), hit
 * registration accuracy (registered hits among the shots that hit on the
 * shooter's own screen), the delay from the shot's arrival at the server
 * to the result sent to the shooter (ALC adds the victim's reply), and
 * the ALC appeal outcomes: denials, upheld, overruled, denials whose pose
 * disagreed with the server's (incorrect), and timeouts.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lagcomp/lagcomp.h"

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank quantile of a sorted array. */
static double quantile(const double *d, size_t n, double q)
{
	size_t r;

	if (n == 0)
		return 0;
	r = (size_t)ceil(q * (double)n);
	return d[r > 0 ? r - 1 : 0];
}

static void count_verdict(const struct lc_verdict *v, double low,
			  struct lc_metrics *m)
{
	int lowv = v->victim_rtt_ms <= low;

	m->screen_hits += v->screen_victim >= 0;
	if (v->victim < 0)
		return;
	m->server_hits++;
	m->rewind_mean += v->rewind_dist;
	m->provisional += v->appeal;
	m->confirmed += v->state == LC_V_CONFIRMED;
	m->upheld += v->state == LC_V_UPHELD;
	m->overruled += v->state == LC_V_OVERRULED;
	m->timeouts += v->state == LC_V_TIMEOUT;
	m->pending += v->state == LC_V_PENDING;
	m->incorrect += v->pose_mismatch;
	m->denials += v->state == LC_V_UPHELD || v->state == LC_V_OVERRULED;
	if (!v->registered)
		return;
	m->registered++;
	m->registered_screen += v->screen_victim >= 0;
	*(lowv ? &m->hits_low : &m->hits_high) += 1;
	if (v->sbc < 0)
		m->sbc_unknown++;
	else if (v->sbc)
		*(lowv ? &m->sbc_low : &m->sbc_high) += 1;
}

int lc_metrics_compute(const struct lc_server *s, double low_ping_ms,
		       struct lc_metrics *out)
{
	struct lc_metrics m;
	double *d = NULL;
	size_t nd = 0;

	memset(&m, 0, sizeof(m));
	if (s->nv) {
		d = malloc(s->nv * sizeof(*d));
		if (!d)
			return -ENOMEM;
	}
	m.shots = (long)s->nv;
	for (size_t i = 0; i < s->nv; i++) {
		const struct lc_verdict *v = &s->v[i];

		count_verdict(v, low_ping_ms, &m);
		if (v->registered)
			d[nd++] = (double)(v->result_ns - v->recv_ns) / 1e6;
	}
	if (m.server_hits)
		m.rewind_mean /= (double)m.server_hits;
	m.reg_accuracy = m.screen_hits ? (double)m.registered_screen /
						 (double)m.screen_hits
				       : 0;
	m.sbc100_low = m.hits_low ? 100.0 * m.sbc_low / m.hits_low : 0;
	m.sbc100_high = m.hits_high ? 100.0 * m.sbc_high / m.hits_high : 0;
	if (nd) {
		double sum = 0;

		qsort(d, nd, sizeof(*d), cmp_d);
		for (size_t i = 0; i < nd; i++)
			sum += d[i];
		m.delay_mean_ms = sum / (double)nd;
		m.delay_p50_ms = quantile(d, nd, 0.5);
		m.delay_p95_ms = quantile(d, nd, 0.95);
	}
	free(d);
	*out = m;
	return 0;
}

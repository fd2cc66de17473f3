/*
 * ping.c: the RTT estimates a server rolls back by. instant: the newest
 * sample. ewma: est += alpha (sample - est), alpha 1/8 (RFC 6298's SRTT
 * gain), seeded by the first sample. ue4: Unreal Engine 4's
 * APlayerState ping as LAGCOM uses it (extraction section 1.4): four
 * buckets of at most seven samples; a sample arriving one second or more
 * after the open bucket was started first recomputes the estimate as the
 * mean of all samples in the four buckets, then opens the next bucket
 * (overwriting the oldest) with itself. Before the first recomputation
 * the estimate is 0, as in UE4.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "lagcomp/lagcomp.h"

#define NS_PER_S 1000000000LL

void lc_ping_init(struct lc_ping *p, enum lc_ping_kind kind)
{
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->alpha = 1.0 / 8.0;
}

static void ue4_recalc(struct lc_ping *p)
{
	double sum = 0;
	int cnt = 0;

	for (int i = 0; i < LC_UE4_BUCKETS; i++) {
		sum += p->bsum[i];
		cnt += p->bcnt[i];
	}
	if (cnt > 0)
		p->est = sum / cnt;
}

static void ue4_sample(struct lc_ping *p, int64_t t_ns, double rtt)
{
	if (!p->have) {
		p->bstart_ns = t_ns;
		p->bsum[0] = rtt;
		p->bcnt[0] = 1;
		return;
	}
	if (t_ns - p->bstart_ns >= NS_PER_S) {
		ue4_recalc(p);
		p->cur = (p->cur + 1) % LC_UE4_BUCKETS;
		p->bstart_ns = t_ns;
		p->bsum[p->cur] = rtt;
		p->bcnt[p->cur] = 1;
	} else if (p->bcnt[p->cur] < LC_UE4_BUCKET_MAX) {
		p->bsum[p->cur] += rtt;
		p->bcnt[p->cur]++;
	}
}

int lc_ping_sample(struct lc_ping *p, int64_t t_ns, double rtt_ms)
{
	if (!isfinite(rtt_ms) || rtt_ms < 0)
		return -EINVAL;
	switch (p->kind) {
	case LC_PING_INSTANT:
		p->est = rtt_ms;
		break;
	case LC_PING_EWMA:
		p->est = p->have ? p->est + p->alpha * (rtt_ms - p->est)
				 : rtt_ms;
		break;
	case LC_PING_UE4:
		ue4_sample(p, t_ns, rtt_ms);
		break;
	}
	p->have = 1;
	return 0;
}

double lc_ping_get(const struct lc_ping *p)
{
	return p->est;
}

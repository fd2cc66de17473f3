/*
 * bridge.c: the userspace impairment bridge's API (bridge.h; design in
 * docs/bridge.md): building and freeing the bridge, its directed links
 * (one netem engine and up to two pcap files each, made up front for
 * links with a [link] section and on first use otherwise), live spec and
 * schedule changes, the choice of receive backend (pcap or ring), and
 * the counters. Making a link and the clocks are bridge_link.c's
 * job, reading frames bridge_pcap.c's or bridge_rx.c's, sending them
 * bridge_tx.c's, and waking up when they are due bridge_due.c's.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/if_packet.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/timerfd.h>

#include "bridge_int.h"
#include "util.h"

#define POOL_SMALL 16384
#define POOL_LARGE 64

/* The receive backend chosen by bridge_set_default_rx; -1 until then,
 * when RECKON_BRIDGE_RX (or pcap) decides. */
static int default_rx = -1;

int bridge_rx_parse(const char *s, enum bridge_rx *out)
{
	if (s == NULL || out == NULL)
		return -EINVAL;
	if (strcmp(s, "pcap") == 0)
		*out = BRIDGE_RX_PCAP;
	else if (strcmp(s, "ring") == 0)
		*out = BRIDGE_RX_RING;
	else
		return -EINVAL;
	return 0;
}

const char *bridge_rx_name(enum bridge_rx rx)
{
	return rx == BRIDGE_RX_RING   ? "ring"
	       : rx == BRIDGE_RX_PCAP ? "pcap"
				      : "?";
}

int bridge_set_default_rx(enum bridge_rx rx)
{
	if (rx != BRIDGE_RX_PCAP && rx != BRIDGE_RX_RING)
		return -EINVAL;
	default_rx = (int)rx;
	return 0;
}

/* Environment variable name as a decimal in [lo, hi] into *out; unset
 * or empty leaves *out alone. 0 or -EINVAL. */
static int env_long(const char *name, long lo, long hi, long *out)
{
	const char *env = getenv(name);

	return env == NULL || *env == '\0' ? 0 : csv_long(env, lo, hi, out);
}

int bridge_spin_from_env(int64_t *ns)
{
	long us = BRIDGE_SPIN_DEFAULT_US;
	int rc = env_long("RECKON_BRIDGE_SPIN_US", 0, 1000, &us);

	if (rc == 0)
		*ns = (int64_t)us * 1000;
	return rc;
}

int bridge_nice_from_env(int *nice)
{
	long v = BRIDGE_NICE_DEFAULT;
	int rc = env_long("RECKON_BRIDGE_NICE", -20, 19, &v);

	if (rc == 0)
		*nice = (int)v;
	return rc;
}

/* This thread's niceness (PRIO_PROCESS 0 is the calling thread on
 * Linux). */
static int thread_nice(void)
{
	int v;

	errno = 0;
	v = getpriority(PRIO_PROCESS, 0);
	return errno ? 0 : v;
}

int bridge_default_rx(enum bridge_rx *out)
{
	const char *env;

	if (out == NULL)
		return -EINVAL;
	if (default_rx >= 0) {
		*out = (enum bridge_rx)default_rx;
		return 0;
	}
	env = getenv("RECKON_BRIDGE_RX");
	if (env == NULL || *env == '\0') {
		*out = BRIDGE_RX_PCAP;
		return 0;
	}
	return bridge_rx_parse(env, out);
}

enum bridge_rx bridge_rx_of(const struct bridge *b)
{
	return b->rx;
}

static void link_free(struct blink *l)
{
	if (l == NULL)
		return;
	netem_link_free(l->nl);
	capture_close(l->before);
	capture_close(l->after);
	free(l);
}

static int bridge_setup(struct bridge *b, const struct bridge_conf *conf,
			const struct bridge_port *ports, const char *pcap_dir)
{
	unsigned i, j, n = b->n;
	int rc;

	b->ports = calloc(n, sizeof(*b->ports));
	b->links = calloc((size_t)n * n, sizeof(*b->links));
	b->heap = calloc((size_t)n * n, sizeof(*b->heap));
	b->names = calloc(n, sizeof(*b->names));
	if (!b->ports || !b->links || !b->heap || !b->names)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		b->ports[i].fd = -1;
		memcpy(b->names[i], conf->hosts[i].name, BRIDGE_NAME_MAX);
		b->names[i][BRIDGE_NAME_MAX - 1] = '\0';
	}
	if ((rc = frame_pool_new(POOL_SMALL, POOL_LARGE, &b->pool)) < 0)
		return rc;
	if (pcap_dir != NULL && conf->capture.enabled &&
	    (conf->capture.before || conf->capture.after)) {
		if ((b->pcap_dir = strdup(pcap_dir)) == NULL)
			return -ENOMEM;
		b->cap_before = conf->capture.before;
		b->cap_after = conf->capture.after;
		b->snaplen = conf->capture.snaplen;
		b->max_bytes = conf->capture.max_bytes;
	}
	/* Links with a spec exist from the start, so conf is not needed after
	 * this call; unimpaired pairs are made on first use. */
	for (i = 0; i < n && conf->link_spec != NULL; i++)
		for (j = 0; j < n; j++) {
			const struct netem_spec *s;

			if (i != j &&
			    (s = conf->link_spec(conf->link_arg, i, j)) != NULL &&
			    br_link_make(b, i, j, s) == NULL)
				return -ENOMEM;
		}
	b->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (b->tfd < 0)
		return -errno;
	b->tev = event_new(b->base, b->tfd, EV_READ | EV_PERSIST, br_on_timer,
			   b);
	if (b->tev == NULL || event_add(b->tev, NULL) < 0)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		rc = b->rx == BRIDGE_RX_RING ? br_rx_open(b, i, &ports[i])
					     : br_pcap_open(b, i, &ports[i]);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int bridge_new(struct event_base *base, const struct bridge_conf *conf,
	       uint64_t seed, const struct bridge_port *ports, unsigned nports,
	       const char *pcap_dir, struct bridge **out)
{
	enum bridge_rx rx;
	struct bridge *b;
	int64_t spin;
	int rc, nice;

	if (base == NULL || conf == NULL || ports == NULL || out == NULL ||
	    nports == 0 || nports != conf->nhosts || nports > BRIDGE_MAX_PORTS)
		return -EINVAL;
	if ((rc = bridge_default_rx(&rx)) < 0)
		return rc;
	if ((rc = bridge_spin_from_env(&spin)) < 0 ||
	    (rc = bridge_nice_from_env(&nice)) < 0)
		return rc;
	for (unsigned i = 0; i < nports; i++)
		for (unsigned j = i + 1; j < nports; j++)
			if (ports[i].ifindex == ports[j].ifindex ||
			    memcmp(ports[i].mac, ports[j].mac, 6) == 0)
				return -EINVAL;
	/* Timers fire at their deadline, not up to 50 us after it. */
	(void)prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);

	b = calloc(1, sizeof(*b));
	if (b == NULL)
		return -ENOMEM;
	b->base = base;
	b->rx = rx;
	b->n = nports;
	b->seed = seed;
	b->tfd = -1;
	b->armed = INT64_MAX;
	b->spin_ns = spin;
	b->rt_off = br_rt_offset();
	b->nice_was = thread_nice();
	/* EPERM without CAP_SYS_NICE: the bridge keeps its niceness */
	(void)setpriority(PRIO_PROCESS, 0, nice);
	rc = bridge_setup(b, conf, ports, pcap_dir);
	if (rc < 0) {
		bridge_free(b);
		return rc;
	}
	*out = b;
	return 0;
}

/* The link src->dst, made unimpaired if it does not exist yet. */
static int link_get(struct bridge *b, unsigned src, unsigned dst,
		    struct blink **out)
{
	if (b == NULL || src >= b->n || dst >= b->n || src == dst)
		return -EINVAL;
	*out = b->links[src * b->n + dst];
	if (*out == NULL && (*out = br_link_make(b, src, dst, NULL)) == NULL)
		return -ENOMEM;
	return 0;
}

int bridge_set_spec(struct bridge *b, unsigned src, unsigned dst,
		    const struct netem_spec *s)
{
	struct blink *l;
	int rc;

	if (b == NULL || s == NULL || src >= b->n || dst >= b->n || src == dst)
		return -EINVAL;
	if (b->links[src * b->n + dst] == NULL)
		return br_link_make(b, src, dst, s) ? 0 : -ENOMEM;
	if ((rc = link_get(b, src, dst, &l)) < 0 ||
	    (rc = netem_link_set_spec(l->nl, s, br_mono_ns())) < 0)
		return rc;
	br_heap_update(b, l);
	br_timer_arm(b);
	return 0;
}

int bridge_set_schedule(struct bridge *b, unsigned src, unsigned dst,
			const struct netem_sched *s, int64_t origin_ns)
{
	struct blink *l;
	int rc;

	if ((rc = link_get(b, src, dst, &l)) < 0 ||
	    (rc = netem_link_set_schedule(l->nl, s, origin_ns)) < 0)
		return rc;
	br_heap_update(b, l);
	br_timer_arm(b);
	return 0;
}

int bridge_counters(const struct bridge *b, unsigned src, unsigned dst,
		    struct netem_counters *c)
{
	const struct blink *l;

	if (b == NULL || c == NULL || src >= b->n || dst >= b->n || src == dst)
		return -EINVAL;
	l = b->links[src * b->n + dst];
	if (l == NULL)
		memset(c, 0, sizeof(*c));
	else
		netem_link_counters(l->nl, c);
	return 0;
}

void bridge_passthrough(const struct bridge *b, uint64_t *frames)
{
	if (b != NULL && frames != NULL)
		*frames = b->st.passthrough;
}

int bridge_stats(const struct bridge *b, struct bridge_stats *out)
{
	struct bridge_stats st;

	if (b == NULL || out == NULL)
		return -EINVAL;
	st = b->st;
	st.rx_dropped = 0;
	for (unsigned i = 0; i < b->n; i++) {
		struct tpacket_stats_v3 ps;
		socklen_t len = sizeof(ps);

		if (b->rx == BRIDGE_RX_PCAP) {
			st.rx_dropped += br_pcap_drops(&b->ports[i]);
			continue;
		}
		/* The kernel resets these on every read: keep the sum. */
		if (getsockopt(b->ports[i].fd, SOL_PACKET, PACKET_STATISTICS,
			       &ps, &len) == 0)
			b->ports[i].kdrops += ps.tp_drops;
		st.rx_dropped += b->ports[i].kdrops;
	}
	*out = st;
	return 0;
}

int bridge_flush(struct bridge *b)
{
	int rc = 0;

	if (b == NULL)
		return -EINVAL;
	for (size_t i = 0; i < (size_t)b->n * b->n; i++) {
		struct blink *l = b->links[i];

		if (l == NULL)
			continue;
		if (l->before && capture_flush(l->before) < 0)
			rc = -EIO;
		if (l->after && capture_flush(l->after) < 0)
			rc = -EIO;
	}
	return rc;
}

void bridge_free(struct bridge *b)
{
	if (b == NULL)
		return;
	for (unsigned i = 0; b->ports && i < b->n; i++)
		br_rx_close(&b->ports[i]);
	if (b->tev)
		event_free(b->tev);
	if (b->tfd >= 0)
		close(b->tfd);
	for (size_t i = 0; b->links && i < (size_t)b->n * b->n; i++)
		link_free(b->links[i]);
	frame_pool_free(b->pool);
	free(b->ports);
	free(b->links);
	free(b->heap);
	free(b->names);
	free(b->pcap_dir);
	(void)setpriority(PRIO_PROCESS, 0, b->nice_was);
	free(b);
}

/*
 * netsim.h: a deterministic in-process network for the role tests: one
 * fps-server and N fps-clients exchange datagrams through a queue with a
 * fixed one-way delay per client (the same in both directions), in 1 ms
 * steps of virtual time. Optionally drops every client->server ALC reply
 * (to exercise the timeout). Test code, not a simulator.
 */
#ifndef RECKON_TEST_LAGCOMP_NETSIM_H
#define RECKON_TEST_LAGCOMP_NETSIM_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Tests define NS_REQUIRE as a Criterion assertion; the bench aborts. */
#ifndef NS_REQUIRE
#define NS_REQUIRE(c)                                                          \
	do {                                                                   \
		if (!(c)) {                                                    \
			fprintf(stderr, "netsim: %s failed\n", #c);            \
			abort();                                               \
		}                                                              \
	} while (0)
#endif

#include "role/fps.h"
#include "role/fps_client.h"
#include "role/fps_server.h"
#include "world/sim.h"

#define NS_MAX_CLIENTS 64
#define NS_QMAX	       (1 << 16)

struct ns_msg {
	int64_t at;
	int to; /* -1 server, else client index */
	size_t len;
	uint8_t buf[FPS_DGRAM_MAX];
};

struct netsim {
	struct map m;
	struct trace tr;
	struct fps_track tk[LC_MAX_PLAYERS]; /* tr's, one per player */
	struct fps_server *srv;
	struct fps_client *cl[NS_MAX_CLIENTS];
	int n;
	int64_t delay[NS_MAX_CLIENTS];
	int drop_replies;
	struct ns_msg *q;
	size_t nq;
	int from; /* sender of the emit in progress: -1 server */
	int64_t now;
};

static int ns_emit(void *arg, const struct role_dgram *d)
{
	struct netsim *ns = arg;
	struct ns_msg *m;
	int client = ns->from < 0 ? d->dest : ns->from;

	if (ns->from >= 0 && ns->drop_replies && d->len == 36 &&
	    !memcmp(d->buf, "RKLC", 4))
		return 0;
	NS_REQUIRE(ns->nq < NS_QMAX);
	NS_REQUIRE(client < ns->n);
	m = &ns->q[ns->nq++];
	m->at = ns->now + ns->delay[client];
	m->to = ns->from < 0 ? d->dest : -1;
	m->len = d->len;
	memcpy(m->buf, d->buf, d->len);
	return 0;
}

static void ns_load_map(struct map *m, const char *name)
{
	char path[256], err[256] = "";
	FILE *f;

	snprintf(path, sizeof(path), "scenarios/maps/%s.map", name);
	f = fopen(path, "r");
	NS_REQUIRE(f != NULL);
	NS_REQUIRE(map_read(f, m, err, sizeof(err)) == 0);
	fclose(f);
}

static void ns_init(struct netsim *ns, const char *map, int n,
		    const int64_t *delay_ms, const struct lc_config *lc,
		    double secs, uint64_t seed)
{
	struct sim_config sc;
	struct trace_events ev;
	struct fps_server_cfg c;
	char why[128] = "";

	memset(ns, 0, sizeof(*ns));
	ns_load_map(&ns->m, map);
	sim_config_defaults(&sc);
	sc.seed = seed;
	sc.nbots = n;
	sc.duration_s = secs + 1;
	sc.tick_hz = 60;
	trace_init(&ns->tr);
	trace_events_init(&ev);
	NS_REQUIRE(sim_run(&ns->m, &sc, &ns->tr, &ev) == 0);
	trace_events_free(&ev);
	NS_REQUIRE(fps_tracks_take(ns->tk, 0, (size_t)n, &ns->tr, 0) == 0);
	for (int i = 0; i < n; i++)
		ns->tk[i].origin_ns = ns->tr.s[0].t_ns;

	memset(&c, 0, sizeof(c));
	c.m = &ns->m;
	c.lc = *lc;
	c.duration_s = secs;
	NS_REQUIRE(fps_server_new(&c, &ns->srv, why, sizeof(why)) == 0);
	ns->n = n;
	for (int i = 0; i < n; i++) {
		struct fps_client_cfg cc;

		fps_client_defaults(&cc);
		cc.m = &ns->m;
		cc.track = &ns->tk[i];
		cc.entity = (uint32_t)i;
		cc.duration_s = secs;
		cc.seed = seed;
		NS_REQUIRE(fps_client_new(&cc, &ns->cl[i]) == 0);
		ns->delay[i] = delay_ms[i] * 1000000LL;
	}
	ns->q = calloc(NS_QMAX, sizeof(*ns->q));
	NS_REQUIRE(ns->q != NULL);
}

static void ns_deliver(struct netsim *ns)
{
	size_t k = 0;

	for (size_t i = 0; i < ns->nq; i++) {
		struct ns_msg *m = &ns->q[i];
		int from;

		if (m->at > ns->now) {
			ns->q[k++] = *m;
			continue;
		}
		if (m->to < 0) {
			ns->from = -1;
			fps_server_recv(ns->srv, ns->now, m->buf, m->len, &from,
					ns_emit, ns);
		} else {
			ns->from = m->to;
			fps_client_recv(ns->cl[m->to], ns->now, m->buf, m->len,
					ns_emit, ns);
		}
	}
	/* messages emitted while delivering were appended after nq */
	ns->nq = k;
}

static void ns_run(struct netsim *ns, double secs)
{
	int64_t end = (int64_t)(secs * 1e9);

	for (ns->now = 0; ns->now <= end; ns->now += 1000000) {
		ns_deliver(ns);
		ns->from = -1;
		fps_server_advance(ns->srv, ns->now, ns_emit, ns);
		for (int i = 0; i < ns->n; i++) {
			ns->from = i;
			fps_client_advance(ns->cl[i], ns->now, ns_emit, ns);
		}
	}
}

static void ns_free(struct netsim *ns)
{
	for (int i = 0; i < ns->n; i++)
		fps_client_free(ns->cl[i]);
	fps_server_free(ns->srv);
	free(ns->q);
	trace_free(&ns->tr);
	for (int i = 0; i < LC_MAX_PLAYERS; i++)
		fps_track_free(&ns->tk[i]);
	map_free(&ns->m);
}

#endif

/*
 * sim_fps.c: the lag-compensation roles in the simulator, the
 * virtual-time twin of agents/cmd_fps.c. A host whose role is fps-server
 * or fps-client reads its args with the agent's own parser
 * (agents/io/fps_opts.c), builds the same fps_server or fps_client over
 * the same map and bot game (generated once per distinct game and shared
 * by the clients that play it; the clients run by one simulator thread
 * share a cache of decoded snapshot bundles, fps_client.h), is woken when the
 * machine asks and takes the datagrams that arrive. Routing follows the
 * sockets: a client sends to the host with its --server address; the server
 * answers player P at the host the last accepted datagram of P came from (the
 * address it learns with recvfrom), and fails the send, as sendto to an
 * unknown peer would, before it has heard from P. At its end the server
 * writes lagcomp-HOST.csv and shots-HOST.csv through agents/io/lagcomp_io.c
 * and a client keeps the counter line the agent prints for the host log.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/lagcomp_io.h"
#include "netsim_int.h"
#include "role/fps_server.h"

#define START_BASE_NS	  500000000LL
#define START_PER_HOST_NS 25000000LL

struct sim_fps_game {
	char map[256];
	int bots, tick_hz, has_trace;
	double duration_s;
	uint64_t seed;
	struct map m;
	struct fps_track *tracks;   /* one per bot, with has_trace */
	struct sim_game_feed *feed; /* playing them, or NULL: played whole */
};

struct sim_fps_games {
	unsigned n, cap;
	int stepwise; /* play games in steps as the run goes (sim_game.c) */
	struct sim_fps_game *g;
	struct fps_bundle_cache *cache[2]; /* one per simulator thread */
};

struct sim_fps {
	struct fps_opts o;
	struct fps_server *srv;
	struct fps_client *cl;
	int peer[LC_MAX_PLAYERS]; /* server: host index of player P, -1 */
	int server_host;	  /* client: host index of --server, -1 */
	const struct sim_fps_games *games; /* client: the threads' caches */
	uint64_t tx_failed;
};

int sim_fps_role(const char *role, int *server)
{
	if (!strcmp(role, "fps-server"))
		*server = 1;
	else if (!strcmp(role, "fps-client"))
		*server = 0;
	else
		return -ENOENT;
	return 0;
}

int sim_fps_init(struct sim_host *h, const struct scenario *sc, unsigned i,
		 uint64_t seed, unsigned rep, const char *run_dir, char *err,
		 size_t errlen)
{
	const struct sc_host *sh = &sc->hosts[i];
	struct sim_fps *f;
	int server = 0, rc;

	sim_fps_role(sh->role, &server);
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	h->fps = f;
	f->server_host = -1;
	for (int p = 0; p < LC_MAX_PLAYERS; p++)
		f->peer[p] = -1;
	rc = scenario_words_split(sh->role, sh->args, &h->words, err, errlen);
	if (rc)
		return rc;
	rc = fps_opts_host(&f->o, server, run_dir, sh->name, seed, rep,
			   h->words.argc - 1, h->words.argv + 1, err, errlen);
	if (rc)
		return rc;
	if (f->o.run.start_set && !f->o.run.start_relative) {
		snprintf(err, errlen,
			 "--start-ns with an absolute CLOCK_MONOTONIC time "
			 "cannot be simulated; use --start-ns +MS");
		return -ENOTSUP;
	}
	h->t0 = f->o.run.start_set
			? f->o.run.start_ns
			: START_BASE_NS +
				  START_PER_HOST_NS * (int64_t)sc->nhosts;
	return 0;
}

uint32_t sim_fps_server_addr(const struct sim_host *h)
{
	const struct sim_fps *f = h->fps;

	return f->o.server_role ? 0 : ntohl(f->o.server.sin_addr.s_addr);
}

void sim_fps_set_server(struct sim_host *h, int host)
{
	h->fps->server_host = host;
}

int sim_fps_games_new(unsigned cap, int stepwise, struct sim_fps_games **out)
{
	struct sim_fps_games *g = calloc(1, sizeof(*g));

	if (g)
		g->g = calloc(cap ? cap : 1, sizeof(*g->g));
	if (g && g->g &&
	    (fps_bundle_cache_new(&g->cache[0]) ||
	     fps_bundle_cache_new(&g->cache[1]))) {
		fps_bundle_cache_free(g->cache[0]);
		free(g->g);
		g->g = NULL;
	}
	if (!g || !g->g) {
		free(g);
		return -ENOMEM;
	}
	g->cap = cap ? cap : 1;
	g->stepwise = stepwise;
	*out = g;
	return 0;
}

void sim_fps_games_free(struct sim_fps_games *g)
{
	if (!g)
		return;
	for (unsigned k = 0; k < g->n; k++) {
		sim_game_feed_free(g->g[k].feed);
		fps_game_tracks_free(g->g[k].tracks, g->g[k].bots);
		map_free(&g->g[k].m);
	}
	fps_bundle_cache_free(g->cache[0]);
	fps_bundle_cache_free(g->cache[1]);
	free(g->g);
	free(g);
}

static int same_game(const struct sim_fps_game *g, const struct fps_opts *o,
		     int trace)
{
	return !strcmp(g->map, o->map) && g->has_trace == trace &&
	       (!trace ||
		(g->bots == o->bots && g->tick_hz == o->cl.tick_hz &&
		 g->duration_s == o->duration_s && g->seed == o->run.seed));
}

/* The bot world's tracks of o: played in steps as the run goes when it
 * may use two threads, else whole now (also when the steps cannot be
 * set up). */
static int game_tracks(struct sim_fps_games *gs, struct sim_fps_game *g,
		       const struct fps_opts *o)
{
	if (gs->stepwise &&
	    !sim_game_feed_start(o, &g->m, &g->tracks, &g->feed))
		return 0;
	return fps_game_tracks(o, &g->m, &g->tracks);
}

int sim_fps_games_wait(struct sim_fps_games *g, int64_t t)
{
	int rc = 0;

	for (unsigned k = 0; !rc && k < g->n; k++)
		if (g->g[k].feed)
			rc = sim_game_feed_wait(g->g[k].feed, t);
	return rc;
}

int sim_fps_games_play(struct sim_fps_games *g)
{
	for (unsigned k = 0; k < g->n; k++)
		if (g->g[k].feed && sim_game_feed_play(g->g[k].feed))
			return 1;
	return 0;
}

int sim_fps_games_ready(const struct sim_fps_games *g, int64_t t)
{
	for (unsigned k = 0; k < g->n; k++)
		if (g->g[k].feed && !sim_game_feed_ready(g->g[k].feed, t))
			return 0;
	return 1;
}

/* The game of o: the map, and for a client the bot world's tracks. */
static int game_for(struct sim_fps_games *gs, const struct fps_opts *o,
		    int trace, struct sim_fps_game **out, char *err,
		    size_t errlen)
{
	struct sim_fps_game *g;
	int rc;

	for (unsigned k = 0; k < gs->n; k++)
		if (same_game(&gs->g[k], o, trace)) {
			*out = &gs->g[k];
			return 0;
		}
	if (gs->n == gs->cap)
		return -ENOMEM;
	g = &gs->g[gs->n];
	memset(g, 0, sizeof(*g));
	snprintf(g->map, sizeof(g->map), "%s", o->map);
	rc = fps_map_load(o->map, &g->m, err, errlen);
	if (rc)
		return rc;
	if (trace && (rc = game_tracks(gs, g, o))) {
		snprintf(err, errlen, "generating the bot game: %s",
			 strerror(-rc));
		map_free(&g->m);
		return rc;
	}
	g->has_trace = trace;
	g->bots = o->bots;
	g->tick_hz = o->cl.tick_hz;
	g->duration_s = o->duration_s;
	g->seed = o->run.seed;
	gs->n++;
	*out = g;
	return 0;
}

int sim_fps_start(struct sim_host *h, struct sim_fps_games *gs, int64_t *first,
		  char *err, size_t errlen)
{
	struct sim_fps *f = h->fps;
	struct sim_fps_game *g;
	int64_t rel;
	int rc = game_for(gs, &f->o, !f->o.server_role, &g, err, errlen);

	if (rc)
		return rc;
	if (f->o.server_role) {
		struct fps_server_cfg c = {&g->m, f->o.lc, f->o.duration_s, 1,
					   f->o.snapshot_hz};

		rc = fps_server_new(&c, &f->srv, err, errlen);
		rel = rc ? 0 : fps_server_next(f->srv);
	} else {
		f->o.cl.m = &g->m;
		f->o.cl.track = f->o.cl.entity < (uint32_t)g->bots
					? &g->tracks[f->o.cl.entity]
					: NULL;
		f->o.cl.duration_s = f->o.duration_s;
		f->o.cl.seed = f->o.run.seed;
		f->o.cl.cache = gs->cache[0];
		f->games = gs;
		rc = fps_client_new(&f->o.cl, &f->cl);
		if (rc)
			snprintf(err, errlen, "fps-client: %s", strerror(-rc));
		rel = rc ? 0 : fps_client_next(f->cl);
	}
	if (rc)
		return rc;
	*first = h->t0 + (rel == INT64_MAX ? 0 : rel);
	return 0;
}

int sim_fps_is_server(const struct sim_host *h)
{
	return h->fps->srv != NULL;
}

void sim_fps_on_thread(struct sim_host *h, unsigned part)
{
	if (h->fps->cl)
		fps_client_use_cache(h->fps->cl,
				     h->fps->games->cache[part & 1]);
}

int sim_fps_route(const struct sim_host *h, const struct role_dgram *d,
		  int *dst, uint16_t *port)
{
	const struct sim_fps *f = h->fps;

	if (!f->o.server_role) {
		*dst = f->server_host;
		*port = ntohs(f->o.server.sin_port);
		return 0;
	}
	if (d->dest >= LC_MAX_PLAYERS || f->peer[d->dest] < 0)
		return ROLE_EMIT_FAILED; /* sendto to a peer never heard */
	*dst = f->peer[d->dest];
	*port = 0; /* a client's socket takes any port it is sent to */
	return 0;
}

int sim_fps_wake(struct sim_host *h, int64_t now, role_emit_fn emit, void *arg,
		 int64_t *next)
{
	struct sim_fps *f = h->fps;
	int64_t rel = now - h->t0, nx;
	int err;

	*next = INT64_MAX;
	if (h->done)
		return 0;
	h->wakeups++;
	if (f->srv) {
		err = fps_server_advance(f->srv, rel, emit, arg);
		nx = fps_server_next(f->srv);
	} else {
		err = fps_client_advance(f->cl, rel, emit, arg);
		nx = fps_client_next(f->cl);
	}
	if (err) {
		sim_fps_finish(h, now, 0);
		h->status = 1;
		return err;
	}
	if (nx == INT64_MAX)
		return sim_fps_finish(h, now, 0);
	*next = h->t0 + nx < now ? now : h->t0 + nx;
	return 0;
}

int sim_fps_recv(struct sim_host *h, const struct sim_dgram *d, int64_t now,
		 role_emit_fn emit, void *arg)
{
	struct sim_fps *f = h->fps;
	int who = -1, rc;

	if (h->done || (f->srv && d->dport != f->o.port)) {
		h->rx_dropped++; /* no socket bound there */
		return 0;
	}
	h->rx++;
	if (f->cl)
		return fps_client_recv_same(f->cl, now - h->t0, d->data, d->len,
					    d->src, d->same, emit, arg);
	rc = fps_server_recv(f->srv, now - h->t0, d->data, d->len, &who, emit,
			     arg);
	/* the sender's address, learnt after the datagram is handled, as
	 * cmd_fps.c's on_read does with recvfrom's */
	if (who >= 0 && who < LC_MAX_PLAYERS)
		f->peer[who] = (int)d->src;
	return rc;
}

static void client_note(struct sim_host *h)
{
	struct fps_client_stats st;

	fps_client_stats(h->fps->cl, &st);
	snprintf(h->note, sizeof(h->note),
		 "host=%s entity=%u shots=%" PRIu64 " screen_hits=%" PRIu64
		 " hits_confirmed=%" PRIu64 " confirm_delay_mean_ms=%.1f"
		 " hits_taken=%" PRIu64 " sbc_seen=%" PRIu64
		 " snapshots=%" PRIu64,
		 h->sh->name, h->fps->o.cl.entity, st.shots, st.screen_hits,
		 st.hits_confirmed,
		 st.hits_confirmed
			 ? st.confirm_delay_sum_ms / (double)st.hits_confirmed
			 : 0.0,
		 st.hits_taken, st.sbc_seen, st.rx_snap);
}

int sim_fps_finish(struct sim_host *h, int64_t now, int stopped)
{
	struct sim_fps *f = h->fps;
	const struct lc_server *lc;
	int err = 0;

	(void)now;
	if (h->done)
		return h->status ? -EIO : 0;
	h->done = 1;
	h->stopped = stopped;
	if (f->cl) {
		client_note(h);
		return 0;
	}
	lc = fps_server_lc(f->srv);
	err = lagcomp_metrics_write(&f->o.run, lc, f->o.duration_s);
	if (!err)
		err = lagcomp_shots_write(&f->o.run, lc);
	if (err)
		h->status = 1;
	return err;
}

void sim_fps_free(struct sim_host *h)
{
	if (!h->fps)
		return;
	fps_server_free(h->fps->srv);
	fps_client_free(h->fps->cl);
	free(h->fps);
	h->fps = NULL;
}

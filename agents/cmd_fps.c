/*
 * cmd_fps.c: `reckon-agent fps-server` and `reckon-agent fps-client`,
 * the lag-compensation roles (agents/role/fps_server.h, fps_client.h) on
 * a real UDP socket and libevent timers. The server binds --port and
 * learns each client's address from its datagrams; a client sends from
 * an ephemeral port to --server. Both run from a common start t0
 * (--start-ns or RECKON_START_NS, else one second after start) for
 * --duration seconds of game time. Clients play their entity of a bot
 * game (--map, --bots, --seed: every client of a run plays the same
 * game): under reckond, which generates each game of a repetition once,
 * its track from the game file RECKON_FPS_GAME names (a file of another
 * game fails the client); started by hand, the game generated in process,
 * run as it is played, a second ahead of the clock, so that a crowd of
 * clients does not spend its start-up lead generating whole games. At
 * the end the server writes lagcomp-HOST.csv and
 * shots-HOST.csv into the run directory; a client prints its counters.
 * Both print their timer lateness and write timing-HOST.csv, from which
 * reckond marks the run degraded when a timer fired more than a tick
 * late. Only options, I/O and timers live here. Usage errors exit 2.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <event2/event.h>
#include <stddef.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cmd.h"
#include "io/fps_opts.h"
#include "io/lagcomp_io.h"
#include "role/fps_client.h"
#include "role/fps_server.h"
#include "role_shell.h"

struct fps_host {
	struct fps_opts *o;
	struct event_base *base;
	struct event *rx, *timer, *sig[2];
	int fd;
	int64_t t0;
	struct fps_server *srv;
	struct fps_client *cl;
	struct fps_game game;	 /* a client's bot world, run as played,
				  * without a game file */
	struct fps_track track; /* its entity's samples so far */
	struct sockaddr_in peer[LC_MAX_PLAYERS];
	uint8_t known[LC_MAX_PLAYERS];
	uint64_t send_errors;
	int status;
	int64_t due;	/* relative time the timer was armed for */
	int64_t *late;	/* each wake-up's lateness, ns */
	size_t nlate, late_cap;
	int64_t late_sum, late_max; /* over those, ns */
	int signalled;	/* stopped by SIGINT/SIGTERM */
	uint8_t buf[2048];
};

/* The options, the environment's run context and the agent's default
 * start (one second from now). */
static int parse(struct fps_opts *o, int server, int argc, char *argv[],
		 int64_t now)
{
	char err[256];

	fps_opts_init(o, server);
	if (agent_opts_env(&o->run, now, err, sizeof(err)) ||
	    fps_opts_parse(o, argc, argv, now, err, sizeof(err)))
		return cmd_usage_error(server ? "fps-server" : "fps-client",
				       "%s", err);
	if (!o->run.start_set) {
		o->run.start_ns = now + 1000000000;
		o->run.start_set = 1;
	}
	return 0;
}

static int64_t rel_now(const struct fps_host *h)
{
	return shell_now_ns() - h->t0;
}

static int emit(void *arg, const struct role_dgram *d)
{
	struct fps_host *h = arg;
	const struct sockaddr_in *to;

	if (h->srv) {
		if (d->dest >= LC_MAX_PLAYERS || !h->known[d->dest])
			return ROLE_EMIT_FAILED;
		to = &h->peer[d->dest];
	} else {
		to = &h->o->server;
	}
	if (sendto(h->fd, d->buf, d->len, 0, (const struct sockaddr *)to,
		   sizeof(*to)) < 0) {
		h->send_errors++;
		return ROLE_EMIT_FAILED;
	}
	return 0;
}

/* How far ahead of the clock a client runs its bot world. */
#define GAME_AHEAD_NS 1000000000LL

/* A client's track must cover the times its next call asks for: run the
 * world GAME_AHEAD_NS past now (a tick of it, once it has caught up). */
static int feed(struct fps_host *h, int64_t now)
{
	int64_t until = now < 0 ? GAME_AHEAD_NS : now + GAME_AHEAD_NS;

	return h->game.world ? fps_game_feed(&h->game, until,
					     h->o->cl.entity, &h->track)
			     : 0;
}

/* A client's track: the whole of it from the game file the environment
 * names (the emulator's, FPS_GAME_ENV; a file of another game is an
 * error), else its first second from the game run here. */
static int track_open(struct fps_host *h, const struct map *m, char *why,
		      size_t len)
{
	const struct fps_opts *o = h->o;
	const char *file = getenv(FPS_GAME_ENV);
	int err;

	if (file && file[0]) {
		err = fps_game_read(file, o, o->cl.entity, &h->track, why,
				    len);
		if (!err)
			fprintf(stderr,
				"reckon-agent %s: entity %u's track from %s "
				"(%zu samples)\n",
				o->run.host, o->cl.entity, file,
				h->track.tr.n);
		return err;
	}
	err = fps_game_open(o, m, &h->game);
	if (!err)
		err = fps_game_feed(&h->game, GAME_AHEAD_NS, o->cl.entity,
				    &h->track);
	return err;
}

static void note_lateness(struct fps_host *h, int64_t now)
{
	if (h->nlate == h->late_cap) {
		size_t cap = h->late_cap ? 2 * h->late_cap : 4096;
		int64_t *l = realloc(h->late, cap * sizeof(*l));

		if (!l)
			return; /* a measurement only: skip the sample */
		h->late = l;
		h->late_cap = cap;
	}
	h->late[h->nlate++] = now - h->due;
	h->late_sum += now - h->due;
	if (h->nlate == 1 || now - h->due > h->late_max)
		h->late_max = now - h->due;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* The timer's lateness (wake-up - due time): nearest-rank p50, p99, max. */
static void print_lateness(struct fps_host *h)
{
	size_t n = h->nlate;

	if (!n)
		return;
	qsort(h->late, n, sizeof(*h->late), cmp_i64);
	fprintf(stderr,
		"reckon-agent %s: timer lateness p50 %.0f us p99 %.0f us max "
		"%.0f us over %zu wake-ups\n",
		h->o->run.host, (double)h->late[(n - 1) / 2] / 1e3,
		(double)h->late[(size_t)((double)(n - 1) * 0.99)] / 1e3,
		(double)h->late[n - 1] / 1e3, n);
}

/* timing-HOST.csv: the lateness against the tick. */
static void write_timing(struct fps_host *h)
{
	const struct fps_opts *o = h->o;
	int hz = h->srv ? o->lc.tick_hz : o->cl.tick_hz;
	double played = (double)rel_now(h) / 1e9;
	struct agent_timing t = {
		.role = h->srv ? "fps-server" : "fps-client",
		.wakeups = h->nlate,
		.late_max_ms = (double)h->late_max / 1e6,
		.tick_ms = hz > 0 ? 1000.0 / hz : 0,
		.play_s = o->duration_s,
		.end = h->status ? "error" : h->signalled ? "signal" : "done",
	};
	int err;

	t.late_mean_ms =
		h->nlate ? (double)h->late_sum / (double)h->nlate / 1e6 : 0;
	t.played_s = played < 0 ? 0 : played < t.play_s ? played : t.play_s;
	err = timing_write(&o->run, &t);
	if (err)
		fprintf(stderr, "reckon-agent %s: timing file: %s\n",
			o->run.host, strerror(-err));
}

static void finish(struct fps_host *h)
{
	struct fps_opts *o = h->o;

	if (h->srv) {
		const struct lc_server *lc = fps_server_lc(h->srv);
		struct fps_server_stats st;
		int err = lagcomp_metrics_write(&o->run, lc, o->duration_s);

		if (!err)
			err = lagcomp_shots_write(&o->run, lc);
		if (!err)
			err = lagcomp_events_write(&o->run, lc);
		if (err) {
			fprintf(stderr, "reckon-agent %s: writing to %s: %s\n",
				o->run.host, o->run.run_dir, strerror(-err));
			h->status = 1;
		}
		fps_server_stats(h->srv, &st);
		fprintf(stderr,
			"reckon-agent %s: %zu shots, %" PRIu64
			" states, %" PRIu64 " replies, %" PRIu64
			" refused, %" PRIu64 " snapshot PDUs, %" PRIu64
			" sent\n",
			o->run.host, lc->nv, st.rx_state, st.rx_reply,
			st.rx_bad, st.snap_pdus, st.tx);
	} else {
		struct fps_client_stats st;

		fps_client_stats(h->cl, &st);
		printf("host=%s entity=%u shots=%" PRIu64
		       " screen_hits=%" PRIu64 " hits_confirmed=%" PRIu64
		       " confirm_delay_mean_ms=%.1f"
		       " hits_taken=%" PRIu64 " sbc_seen=%" PRIu64
		       " snapshots=%" PRIu64 "\n",
		       o->run.host, o->cl.entity, st.shots, st.screen_hits,
		       st.hits_confirmed,
		       st.hits_confirmed ? st.confirm_delay_sum_ms /
						   (double)st.hits_confirmed
					 : 0.0,
		       st.hits_taken, st.sbc_seen, st.rx_snap);
	}
	if (h->send_errors)
		fprintf(stderr, "reckon-agent %s: %" PRIu64 " sends failed\n",
			o->run.host, h->send_errors);
	print_lateness(h);
	write_timing(h);
	event_base_loopbreak(h->base);
}

static void arm(struct fps_host *h, int64_t rel)
{
	h->due = rel;
	shell_arm(h->base, h->timer, rel - rel_now(h));
}

static void on_timer(evutil_socket_t fd, short what, void *arg)
{
	struct fps_host *h = arg;
	int64_t now = rel_now(h), next;
	int err;

	(void)fd;
	(void)what;
	note_lateness(h, now);
	if (h->srv) {
		err = fps_server_advance(h->srv, now, emit, h);
		next = fps_server_next(h->srv);
	} else {
		err = feed(h, now);
		if (!err)
			err = fps_client_advance(h->cl, now, emit, h);
		next = fps_client_next(h->cl);
	}
	if (err) {
		fprintf(stderr, "reckon-agent %s: %s\n", h->o->run.host,
			strerror(-err));
		h->status = 1;
	}
	if (err || next == INT64_MAX)
		finish(h);
	else
		arm(h, next);
}

static void on_read(evutil_socket_t fd, short what, void *arg)
{
	struct fps_host *h = arg;

	(void)what;
	if (feed(h, rel_now(h))) { /* a second ahead covers this batch */
		h->status = 1;
		finish(h);
		return;
	}
	for (;;) {
		struct sockaddr_in from;
		socklen_t fl = sizeof(from);
		ssize_t n = recvfrom(fd, h->buf, sizeof(h->buf), MSG_DONTWAIT,
				     (struct sockaddr *)&from, &fl);
		int who, err;

		if (n < 0)
			break;
		if (h->srv) {
			err = fps_server_recv(h->srv, rel_now(h), h->buf,
					      (size_t)n, &who, emit, h);
			if (who >= 0) {
				h->peer[who] = from;
				h->known[who] = 1;
			}
		} else {
			err = fps_client_recv(h->cl, rel_now(h), h->buf,
					      (size_t)n, emit, h);
		}
		if (err) {
			h->status = 1;
			finish(h);
			return;
		}
	}
}

static void on_signal(evutil_socket_t sig, short what, void *arg)
{
	(void)sig;
	(void)what;
	((struct fps_host *)arg)->signalled = 1;
	finish(arg);
}

static int open_socket(struct fps_host *h, int server)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr = h->o->bind};
	int buf = 1 << 20;

	h->fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
	if (h->fd < 0)
		return -errno;
	setsockopt(h->fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof(buf));
	if (server)
		a.sin_port = htons(h->o->port);
	if (bind(h->fd, (struct sockaddr *)&a, sizeof(a)))
		return -errno;
	return 0;
}

static int serve(struct fps_host *h, int server)
{
	int err = open_socket(h, server);

	h->base = shell_event_base();
	if (err || !h->base)
		return err ? err : -ENOMEM;
	h->rx = event_new(h->base, h->fd, EV_READ | EV_PERSIST, on_read, h);
	h->timer = evtimer_new(h->base, on_timer, h);
	h->sig[0] = evsignal_new(h->base, SIGINT, on_signal, h);
	h->sig[1] = evsignal_new(h->base, SIGTERM, on_signal, h);
	if (!h->rx || !h->timer || !h->sig[0] || !h->sig[1] ||
	    event_add(h->rx, NULL) || evsignal_add(h->sig[0], NULL) ||
	    evsignal_add(h->sig[1], NULL))
		return -ENOMEM;
	h->t0 = h->o->run.start_ns;
	arm(h, server ? fps_server_next(h->srv) : fps_client_next(h->cl));
	event_base_dispatch(h->base);
	return 0;
}

static void teardown(struct fps_host *h)
{
	struct event *ev[] = {h->rx, h->timer, h->sig[0], h->sig[1]};

	for (size_t i = 0; i < 4; i++)
		if (ev[i])
			event_free(ev[i]);
	if (h->base)
		event_base_free(h->base);
	if (h->fd >= 0)
		close(h->fd);
	fps_server_free(h->srv);
	fps_client_free(h->cl);
	fps_game_close(&h->game);
	fps_track_free(&h->track);
	free(h->late);
}

static int run(int server, int argc, char *argv[])
{
	static struct fps_opts o;
	struct fps_host h = {.o = &o, .fd = -1};
	struct map m;
	char why[160] = "";
	int err;

	if (cmd_help_asked(argc, argv)) {
		printf("usage: reckon-agent %s [options]\n%s",
		       server ? "fps-server" : "fps-client", fps_usage_text);
		return 0;
	}
	err = parse(&o, server, argc, argv, shell_now_ns());
	if (err)
		return err;
	if (fps_map_load(o.map, &m, why, sizeof(why))) {
		fprintf(stderr, "reckon-agent: %s\n", why);
		return 1;
	}
	if (server) {
		struct fps_server_cfg c = {&m, o.lc, o.duration_s, 1,
					   o.snapshot_hz};

		err = fps_server_new(&c, &h.srv, why, sizeof(why));
	} else {
		err = track_open(&h, &m, why, sizeof(why));
		if (!err && !h.track.tr.n)
			snprintf(why, sizeof(why),
				 "entity %u is not in the game (--bots %d)",
				 o.cl.entity, o.bots);
		o.cl.m = &m;
		o.cl.track = &h.track;
		o.cl.duration_s = o.duration_s;
		o.cl.seed = o.run.seed;
		if (!err)
			err = fps_client_new(&o.cl, &h.cl);
	}
	if (!err)
		err = serve(&h, server);
	if (err)
		fprintf(stderr, "reckon-agent %s: %s\n", o.run.host,
			why[0] ? why : strerror(-err));
	teardown(&h);
	map_free(&m);
	return err ? 1 : h.status;
}

int cmd_fps_server(int argc, char *argv[])
{
	return run(1, argc, argv);
}

int cmd_fps_client(int argc, char *argv[])
{
	return run(0, argc, argv);
}

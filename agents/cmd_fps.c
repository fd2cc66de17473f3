/*
 * cmd_fps.c: `reckon-agent fps-server` and `reckon-agent fps-client`,
 * the lag-compensation roles (agents/role/fps_server.h, fps_client.h) on
 * a real UDP socket and libevent timers. The server binds --port and
 * learns each client's address from its datagrams; a client sends from
 * an ephemeral port to --server. Both run from a common start t0
 * (--start-ns or RECKON_START_NS, else one second after start) for
 * --duration seconds of game time. Clients play their entity of a bot
 * game generated in process (--map, --bots, --seed: every client makes
 * the same game). At the end the server writes lagcomp-HOST.csv and
 * shots-HOST.csv into the run directory; a client prints its counters.
 * Only options, I/O and timers live here. Usage errors exit 2.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <event2/event.h>
#include <getopt.h>
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
#include "io/lagcomp_io.h"
#include "role/fps_client.h"
#include "role/fps_server.h"
#include "role_shell.h"
#include "world/sim.h"

#define FPS_DEFAULT_PORT 47100

struct fps_opts {
	struct shell_opts run; /* run context: run dir, host, start, seed */
	const char *map;
	int bots;
	double duration_s;
	struct lc_config lc;
	struct fps_client_cfg cl;
	struct sockaddr_in server;
	struct in_addr bind;
	uint16_t port;
	int entity_set;
};

struct fps_host {
	struct fps_opts *o;
	struct event_base *base;
	struct event *rx, *timer, *sig[2];
	int fd;
	int64_t t0;
	struct fps_server *srv;
	struct fps_client *cl;
	struct sockaddr_in peer[LC_MAX_PLAYERS];
	uint8_t known[LC_MAX_PLAYERS];
	uint64_t send_errors;
	int status;
	uint8_t buf[2048];
};

static const char usage_text[] =
	"game:    --map NAME (dust) --bots N (6) --seed S --duration S (30)\n"
	"server:  --port P (47100) --bind ADDR --mode none|tlc|clc|alc (tlc)\n"
	"         --tick-hz H (60) --ping instant|ewma|ue4 (ue4) "
	"--interp-ms MS (0)\n"
	"         --clc-rtt-cap-ms MS (250) --clc-max-rewind U (0 off)\n"
	"         --alc-low-ping-ms MS (50) --alc-high-ping-ms MS (0 off)\n"
	"         --alc-timeout-ms MS (2 x low ping) --pose-tol U (32)\n"
	"client:  --entity E --server ADDR[:PORT] --interp-ms MS (0)\n"
	"         --reaction-s S (0.25) --aim-err-deg D (1) --fire-period-s "
	"S (0.1)\n"
	"run:     --run-dir DIR --host NAME --start-ns NS|+MS --rep N "
	"--condition TEXT\n";

enum {
	O_MAP = 256,
	O_BOTS,
	O_SEED,
	O_DURATION,
	O_PORT,
	O_BIND,
	O_MODE,
	O_TICK,
	O_PING,
	O_INTERP,
	O_CAP,
	O_REWIND,
	O_LOW,
	O_HIGH,
	O_TMO,
	O_TOL,
	O_ENTITY,
	O_SERVER,
	O_REACT,
	O_AIM,
	O_FIRE,
	O_RUNDIR,
	O_HOST,
	O_START,
	O_COND,
	O_REP,
};

static const struct option longopts[] = {
	{"map", 1, 0, O_MAP},
	{"bots", 1, 0, O_BOTS},
	{"seed", 1, 0, O_SEED},
	{"duration", 1, 0, O_DURATION},
	{"port", 1, 0, O_PORT},
	{"bind", 1, 0, O_BIND},
	{"mode", 1, 0, O_MODE},
	{"tick-hz", 1, 0, O_TICK},
	{"ping", 1, 0, O_PING},
	{"interp-ms", 1, 0, O_INTERP},
	{"clc-rtt-cap-ms", 1, 0, O_CAP},
	{"clc-max-rewind", 1, 0, O_REWIND},
	{"alc-low-ping-ms", 1, 0, O_LOW},
	{"alc-high-ping-ms", 1, 0, O_HIGH},
	{"alc-timeout-ms", 1, 0, O_TMO},
	{"pose-tol", 1, 0, O_TOL},
	{"entity", 1, 0, O_ENTITY},
	{"server", 1, 0, O_SERVER},
	{"reaction-s", 1, 0, O_REACT},
	{"aim-err-deg", 1, 0, O_AIM},
	{"fire-period-s", 1, 0, O_FIRE},
	{"run-dir", 1, 0, O_RUNDIR},
	{"host", 1, 0, O_HOST},
	{"start-ns", 1, 0, O_START},
	{"condition", 1, 0, O_COND},
	{"rep", 1, 0, O_REP},
	{0, 0, 0, 0},
};

static int num(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= lo && v <= hi))
		return -EINVAL;
	*out = v;
	return 0;
}

static int addr_port(const char *s, uint16_t port, struct sockaddr_in *out)
{
	char host[64];
	const char *colon = strrchr(s, ':');
	double p = port;

	if (strlen(s) >= sizeof(host))
		return -EINVAL;
	strcpy(host, s);
	if (colon) {
		host[colon - s] = '\0';
		if (num(colon + 1, 1, 65535, &p))
			return -EINVAL;
	}
	memset(out, 0, sizeof(*out));
	out->sin_family = AF_INET;
	out->sin_port = htons((uint16_t)p);
	return inet_pton(AF_INET, host, &out->sin_addr) == 1 ? 0 : -EINVAL;
}

/* Options that set one double of struct fps_opts within a range. */
static const struct {
	int id;
	double lo, hi;
	size_t off;
} reals[] = {
	{O_DURATION, 0.1, 86400, offsetof(struct fps_opts, duration_s)},
	{O_CAP, 0, 1e6, offsetof(struct fps_opts, lc.clc_rtt_cap_ms)},
	{O_REWIND, 0, 1e6, offsetof(struct fps_opts, lc.clc_max_rewind)},
	{O_LOW, 0, 1e6, offsetof(struct fps_opts, lc.alc_low_ping_ms)},
	{O_HIGH, 0, 1e6, offsetof(struct fps_opts, lc.alc_high_ping_ms)},
	{O_TMO, 0.001, 1e6, offsetof(struct fps_opts, lc.alc_timeout_ms)},
	{O_TOL, 0, 1e6, offsetof(struct fps_opts, lc.pose_tol)},
	{O_REACT, 0, 10, offsetof(struct fps_opts, cl.reaction_s)},
	{O_AIM, 0, 90, offsetof(struct fps_opts, cl.aim_err_deg)},
	{O_FIRE, 0.001, 60, offsetof(struct fps_opts, cl.fire_period_s)},
};

/* A range-checked double option; 1 if c is not one. */
static int opt_real(struct fps_opts *o, int c, const char *a)
{
	for (size_t i = 0; i < sizeof(reals) / sizeof(reals[0]); i++)
		if (reals[i].id == c)
			return num(a, reals[i].lo, reals[i].hi,
				   (double *)((char *)o + reals[i].off));
	return 1;
}

/* The run context: 0, -EINVAL, or 1 if c is not one of these. */
static int opt_run(struct fps_opts *o, int c, const char *a, int64_t now)
{
	double v;
	char *end;
	long long ms;

	switch (c) {
	case O_RUNDIR:
		o->run.run_dir = a;
		return 0;
	case O_HOST:
		o->run.host = a;
		return 0;
	case O_COND:
		/* goes into a CSV field unquoted */
		if (strpbrk(a, ",\"\n"))
			return -EINVAL;
		o->run.condition = a;
		return 0;
	case O_REP:
		if (num(a, 0, 4294967295.0, &v))
			return -EINVAL;
		o->run.rep = (unsigned)v;
		return 0;
	case O_SEED:
		if (num(a, 0, 1e18, &v))
			return -EINVAL;
		o->run.seed = (uint64_t)v;
		return 0;
	case O_START:
		ms = strtoll(a + (a[0] == '+'), &end, 10);
		if (*end || ms < 0)
			return -EINVAL;
		o->run.start_ns = a[0] == '+' ? now + ms * 1000000 : ms;
		o->run.start_set = 1;
		return 0;
	}
	return 1;
}

/* One option; 0 or -EINVAL. */
static int opt(struct fps_opts *o, int c, const char *a, int64_t now)
{
	double v;
	int rc = opt_real(o, c, a);

	if (rc <= 0)
		return rc;
	rc = opt_run(o, c, a, now);
	if (rc <= 0)
		return rc;
	switch (c) {
	case O_MAP:
		o->map = a;
		return 0;
	case O_BIND:
		return inet_pton(AF_INET, a, &o->bind) == 1 ? 0 : -EINVAL;
	case O_SERVER:
		return addr_port(a, FPS_DEFAULT_PORT, &o->server);
	case O_MODE:
		return lc_mode_parse(a, &o->lc.mode);
	case O_PING:
		return lc_ping_parse(a, &o->lc.ping);
	case O_INTERP:
		rc = num(a, 0, 10000, &o->lc.interp_ms);
		o->cl.interp_ms = o->lc.interp_ms;
		return rc;
	}
	if (num(a, 0, 65535, &v))
		return -EINVAL;
	switch (c) {
	case O_BOTS:
		o->bots = (int)v;
		return v >= 1 && v <= SIM_MAX_BOTS ? 0 : -EINVAL;
	case O_PORT:
		o->port = (uint16_t)v;
		return v >= 1 ? 0 : -EINVAL;
	case O_TICK:
		o->lc.tick_hz = o->cl.tick_hz = (int)v;
		return v >= 1 && v <= 1000 ? 0 : -EINVAL;
	case O_ENTITY:
		o->cl.entity = (uint32_t)v;
		o->entity_set = 1;
		return v < LC_MAX_PLAYERS ? 0 : -EINVAL;
	}
	return -EINVAL;
}

static int parse(struct fps_opts *o, int server, int argc, char *argv[],
		 int64_t now)
{
	char err[256];
	int c;

	memset(o, 0, sizeof(*o));
	agent_opts_init(&o->run, SHELL_PLAYER,
			server ? "fps-server" : "fps-client");
	if (agent_opts_env(&o->run, now, err, sizeof(err))) {
		fprintf(stderr, "reckon-agent: %s\n", err);
		return -EINVAL;
	}
	o->map = "dust";
	o->bots = 6;
	o->duration_s = 30;
	o->port = FPS_DEFAULT_PORT;
	lc_config_defaults(&o->lc);
	o->lc.alc_timeout_ms = 0; /* unset: 2 x lowPing after parsing */
	fps_client_defaults(&o->cl);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc + 1, argv - 1, "", longopts, NULL)) !=
	       -1) {
		if (opt(o, c, optarg ? optarg : "", now)) {
			fprintf(stderr,
				"reckon-agent: bad option or value '%s'\n",
				(argv - 1)[optind - 1]);
			return -EINVAL;
		}
	}
	if (optind != argc + 1) {
		fprintf(stderr, "reckon-agent: unexpected argument '%s'\n",
			argv[optind - 1]);
		return -EINVAL;
	}
	if (o->lc.alc_timeout_ms <= 0)
		o->lc.alc_timeout_ms = 2 * o->lc.alc_low_ping_ms > 0
					       ? 2 * o->lc.alc_low_ping_ms
					       : 100;
	if (!server && (!o->entity_set || !o->server.sin_family)) {
		fprintf(stderr, "reckon-agent: fps-client needs --entity and "
				"--server\n");
		return -EINVAL;
	}
	if (!server && (int)o->cl.entity >= o->bots) {
		fprintf(stderr, "reckon-agent: --entity %u but only %d bots\n",
			o->cl.entity, o->bots);
		return -EINVAL;
	}
	if (!o->run.start_set) {
		o->run.start_ns = now + 1000000000;
		o->run.start_set = 1;
	}
	return 0;
}

static int load_map(const char *name, struct map *m)
{
	char path[PATH_MAX + 64], why[256] = "";
	FILE *f = agent_map_open(name, path, sizeof(path));
	int rc;

	if (!f) {
		fprintf(stderr, "reckon-agent: map '%s' not found\n", name);
		return -ENOENT;
	}
	rc = map_read(f, m, why, sizeof(why));
	fclose(f);
	if (rc)
		fprintf(stderr, "reckon-agent: %s: %s\n", path, why);
	return rc;
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
			" refused, %" PRIu64 " sent\n",
			o->run.host, lc->nv, st.rx_state, st.rx_reply,
			st.rx_bad, st.tx);
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
	event_base_loopbreak(h->base);
}

static void arm(struct fps_host *h, int64_t rel)
{
	int64_t d = rel - rel_now(h);
	struct timeval tv;

	if (d < 0)
		d = 0;
	tv.tv_sec = (time_t)(d / 1000000000);
	tv.tv_usec = (suseconds_t)(d % 1000000000 / 1000);
	evtimer_add(h->timer, &tv);
}

static void on_timer(evutil_socket_t fd, short what, void *arg)
{
	struct fps_host *h = arg;
	int64_t now = rel_now(h), next;
	int err;

	(void)fd;
	(void)what;
	if (h->srv) {
		err = fps_server_advance(h->srv, now, emit, h);
		next = fps_server_next(h->srv);
	} else {
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

	h->base = event_base_new();
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
}

static int gen_trace(const struct fps_opts *o, const struct map *m,
		     struct trace *t)
{
	struct sim_config c;
	struct trace_events ev;
	int rc;

	sim_config_defaults(&c);
	c.seed = o->run.seed;
	c.nbots = o->bots;
	c.duration_s = o->duration_s + 1;
	c.tick_hz = o->cl.tick_hz;
	trace_init(t);
	trace_events_init(&ev);
	rc = sim_run(m, &c, t, &ev);
	trace_events_free(&ev);
	return rc;
}

static int run(int server, int argc, char *argv[])
{
	static struct fps_opts o;
	struct fps_host h = {.o = &o, .fd = -1};
	struct trace tr;
	struct map m;
	char why[160] = "";
	int err;

	if (parse(&o, server, argc, argv, shell_now_ns())) {
		fprintf(stderr, "usage: reckon-agent %s [options]\n%s",
			server ? "fps-server" : "fps-client", usage_text);
		return 2;
	}
	if (load_map(o.map, &m))
		return 1;
	trace_init(&tr);
	if (server) {
		struct fps_server_cfg c = {&m, o.lc, o.duration_s, 1};

		err = fps_server_new(&c, &h.srv, why, sizeof(why));
	} else {
		err = gen_trace(&o, &m, &tr);
		o.cl.m = &m;
		o.cl.tr = &tr;
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
	trace_free(&tr);
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

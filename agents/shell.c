/*
 * shell.c: hosts one role state machine (agents/role/) on real UDP
 * sockets and libevent timers. One socket per lane: observers and the
 * relay bind port + lane, players send from an ephemeral port to
 * destination:port + lane. The sockets are bound before the truth is
 * built (shell_bind, from cmd_role.c), so datagrams that arrive while it
 * is built wait in the socket buffers. A timer wakes the machine at the common start
 * t0 plus the relative time the machine asks for; received datagrams are
 * handed over with the receive time (the observer runs the frames due
 * before it first). At the end (truth played out, plus
 * a linger for late datagrams, or SIGINT/SIGTERM) the metrics are written
 * to the run directory, with the timer's lateness and how the run ended
 * (timing-HOST.csv). Only I/O and timers live here.
 */
#include <errno.h>
#include <event2/event.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "role/observer.h"
#include "role/player.h"
#include "role/relay.h"
#include "role_shell.h"

struct shell {
	const struct shell_opts *o;
	const struct role_truth *tr;
	struct event_base *base;
	int fd[ROLE_MAX_LANES];
	struct event *rx[ROLE_MAX_LANES];
	struct event *timer, *sig[2];
	struct role_player *pl;
	struct role_observer *ob;
	struct view_rec *vr; /* --samples recording, or NULL */
	struct role_relay rl;
	int64_t t0;
	int ending;		    /* observer: frames done, lingering */
	int64_t due;		    /* relative time the timer was armed for */
	int64_t late_sum, late_max; /* timer lateness, ns */
	uint64_t wakeups;
	int status;
	uint64_t send_errors;
	uint8_t buf[65536];
};

int64_t shell_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t rel_now(const struct shell *sh)
{
	return shell_now_ns() - sh->t0;
}

struct event_base *shell_event_base(void)
{
	struct event_config *cfg = event_config_new();
	struct event_base *base = NULL;

	if (cfg) {
		event_config_set_flag(cfg, EVENT_BASE_FLAG_PRECISE_TIMER);
		base = event_base_new_with_config(cfg);
		event_config_free(cfg);
	}
	return base;
}

void shell_arm(struct event_base *base, struct event *ev, int64_t delay_ns)
{
	struct timeval tv;

	if (delay_ns < 0)
		delay_ns = 0;
	/* round up: a timer never fires before its due time */
	delay_ns += 999;
	tv.tv_sec = (time_t)(delay_ns / 1000000000);
	tv.tv_usec = (suseconds_t)(delay_ns % 1000000000 / 1000);
	event_base_update_cache_time(base);
	evtimer_add(ev, &tv);
}

static void arm_at(struct shell *sh, int64_t rel)
{
	sh->due = rel;
	shell_arm(sh->base, sh->timer, rel - rel_now(sh));
}

static int emit_udp(void *arg, const struct role_dgram *d)
{
	struct shell *sh = arg;
	struct sockaddr_in to = sh->o->dest[d->dest];

	to.sin_port = htons((uint16_t)(ntohs(to.sin_port) + d->lane));
	if (sendto(sh->fd[d->lane], d->buf, d->len, 0, (struct sockaddr *)&to,
		   sizeof(to)) < 0) {
		sh->send_errors++;
		return ROLE_EMIT_FAILED; /* counted by the role, not as sent */
	}
	return 0;
}

static double covered_s(const struct shell *sh)
{
	int64_t t = rel_now(sh);

	if (!sh->tr || t < 0)
		return 0;
	return (double)(t < sh->tr->end_ns ? t : sh->tr->end_ns) * 1e-9;
}

static int write_rows(struct shell *sh, const char *role, size_t n,
		      int (*get)(const void *, size_t, struct role_metrics *),
		      const void *m)
{
	struct role_metrics *rows = calloc(n ? n : 1, sizeof(*rows));
	struct metrics_table t = {sh->o, role, rows, n, covered_s(sh)};
	int err = rows ? 0 : -ENOMEM;

	for (size_t i = 0; !err && i < n; i++)
		err = get(m, i, &rows[i]);
	if (!err)
		err = metrics_write(&t);
	free(rows);
	return err;
}

static int get_player(const void *m, size_t i, struct role_metrics *out)
{
	return role_player_metrics(m, i, out);
}

static int get_observer(const void *m, size_t i, struct role_metrics *out)
{
	return role_observer_metrics(m, i, out);
}

static int get_relay(const void *m, size_t i, struct role_metrics *out)
{
	return agent_relay_metrics(m, i, out);
}

/* Updates arrived but none belonged to a path of the truth: the players
 * and this observer disagree on the trace or its time origin, and the
 * run measured nothing. Say so, and fail. */
static void check_matched(struct shell *sh)
{
	uint64_t received, unmatched;

	role_observer_totals(sh->ob, &received, &unmatched);
	if (received == 0 || unmatched < received)
		return;
	fprintf(stderr,
		"reckon-agent %s: error: all %" PRIu64 " updates received "
		"matched no path of the truth at their send time, so no error "
		"was measured; do every player and observer use the same "
		"trace and start time?\n",
		sh->o->host, received);
	sh->status = 1;
}

/* timing-HOST.csv: lateness, tick, play covered and how it ended. */
static int write_timing(struct shell *sh, const char *role, const char *end)
{
	struct agent_timing t = {
		.role = role,
		.wakeups = sh->wakeups,
		.late_mean_ms = sh->wakeups ? (double)sh->late_sum /
						      (double)sh->wakeups / 1e6
					    : 0,
		.late_max_ms = (double)sh->late_max / 1e6,
		.tick_ms = sh->tr ? (double)sh->tr->tick_ns / 1e6 : 0,
		.played_s = covered_s(sh),
		.play_s = sh->tr ? (double)sh->tr->end_ns * 1e-9 : 0,
		.end = end,
	};

	return timing_write(sh->o, &t);
}

/* End the run: write the metrics, say how it ended (end: "done",
 * "signal" or "error") and leave the loop. */
static void finish(struct shell *sh, const char *end)
{
	const char *role = sh->pl ? "player" : sh->ob ? "observer" : "relay";
	struct reckon_espdu_counters c[ROLE_MAX_LANES];
	uint64_t foreign[ROLE_MAX_LANES] = {0};
	const struct shell_opts *o = sh->o;
	int err = 0;

	if (sh->pl) {
		err = write_rows(sh, "player", role_player_rows(sh->pl),
				 get_player, sh->pl);
		if (!err)
			err = view_player_grids(o, sh->pl);
	} else if (sh->ob) {
		role_observer_frame(sh->ob, rel_now(sh));
		err = write_rows(sh, "observer", role_observer_rows(sh->ob),
				 get_observer, sh->ob);
		for (size_t l = 0; !err && l < o->n_lanes; l++) {
			role_observer_verdicts(sh->ob, (uint16_t)l, &c[l]);
			foreign[l] = role_observer_foreign(sh->ob, (uint16_t)l);
		}
		if (!err)
			err = rejects_write(o, c, foreign, o->n_lanes);
		if (!err)
			err = errcdf_write(o, sh->ob);
		if (!err)
			err = view_rec_close(sh->vr, 1);
		else
			view_rec_close(sh->vr, 0);
		sh->vr = NULL;
		if (!err)
			check_matched(sh);
	} else {
		err = write_rows(sh, "relay", o->n_lanes, get_relay, &sh->rl);
		if (!err)
			err = rejects_write(o, sh->rl.verdicts, NULL,
					    o->n_lanes);
	}
	if (!err)
		err = write_timing(sh, role, sh->status ? "error" : end);
	if (err) {
		fprintf(stderr, "reckon-agent %s: writing metrics to %s: %s\n",
			o->host, o->run_dir, strerror(-err));
		sh->status = 1;
	}
	if (sh->wakeups)
		fprintf(stderr,
			"reckon-agent %s: %" PRIu64 " wake-ups, timer lateness "
			"mean %.1f us, max %.1f us\n",
			o->host, sh->wakeups,
			(double)sh->late_sum / (double)sh->wakeups / 1e3,
			(double)sh->late_max / 1e3);
	if (sh->send_errors)
		fprintf(stderr, "reckon-agent %s: %" PRIu64 " sends failed\n",
			o->host, sh->send_errors);
	event_base_loopbreak(sh->base);
}

static void on_signal(evutil_socket_t sig, short what, void *arg)
{
	(void)sig;
	(void)what;
	finish(arg, "signal");
}

static void on_timer(evutil_socket_t fd, short what, void *arg)
{
	struct shell *sh = arg;
	int64_t now = rel_now(sh), next;
	int err;

	(void)fd;
	(void)what;
	if (now > sh->due) {
		sh->late_sum += now - sh->due;
		if (now - sh->due > sh->late_max)
			sh->late_max = now - sh->due;
	}
	sh->wakeups++;
	if (sh->pl) {
		err = role_player_advance(sh->pl, now, emit_udp, sh);
		next = role_player_next(sh->pl);
	} else if (sh->ob && !sh->ending) {
		err = role_observer_frame(sh->ob, now);
		next = role_observer_next(sh->ob);
		if (!err && next == INT64_MAX) {
			sh->ending = 1;
			arm_at(sh, sh->tr->end_ns +
					   (int64_t)(sh->o->linger_s * 1e9));
			return;
		}
	} else {
		finish(sh, "done"); /* observer linger over, relay stop time */
		return;
	}
	if (err) {
		fprintf(stderr, "reckon-agent %s: %s\n", sh->o->host,
			strerror(-err));
		sh->status = 1;
		finish(sh, "error");
		return;
	}
	if (next == INT64_MAX)
		finish(sh, "done");
	else
		arm_at(sh, next);
}

static void on_read(evutil_socket_t fd, short what, void *arg)
{
	struct shell *sh = arg;
	uint16_t lane;

	(void)what;
	for (lane = 0; lane < sh->o->n_lanes && sh->fd[lane] != fd; lane++)
		;
	for (;;) {
		ssize_t n = recv(fd, sh->buf, sizeof(sh->buf), MSG_DONTWAIT);

		if (n < 0)
			break;
		/* the observer first runs the frames due before now, so
		 * a late timer cannot show a frame an update that arrived
		 * after its time */
		if (sh->ob) {
			if (role_observer_recv(sh->ob, lane, rel_now(sh),
					       sh->buf, (size_t)n) == -ENOMEM) {
				fprintf(stderr, "reckon-agent %s: %s\n",
					sh->o->host, strerror(ENOMEM));
				sh->status = 1;
				finish(sh, "error");
				return;
			}
		} else {
			role_relay_recv(&sh->rl, lane, sh->buf, (size_t)n,
					emit_udp, sh);
		}
	}
}

void shell_close(const int fd[ROLE_MAX_LANES])
{
	for (size_t l = 0; l < ROLE_MAX_LANES; l++)
		if (fd[l] >= 0)
			close(fd[l]);
}

int shell_bind(const struct shell_opts *o, int fd[ROLE_MAX_LANES])
{
	int err = 0;

	for (size_t l = 0; l < ROLE_MAX_LANES; l++)
		fd[l] = -1;
	for (size_t l = 0; l < o->n_lanes; l++) {
		struct sockaddr_in a = {.sin_family = AF_INET,
					.sin_addr = o->bind};
		int rcvbuf = 1 << 20;

		fd[l] = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
		if (fd[l] < 0) {
			err = -errno;
			fprintf(stderr, "reckon-agent %s: socket: %s\n",
				o->host, strerror(-err));
			goto fail;
		}
		setsockopt(fd[l], SOL_SOCKET, SO_RCVBUF, &rcvbuf,
			   sizeof(rcvbuf));
		if (o->role != SHELL_PLAYER)
			a.sin_port = htons((uint16_t)(o->port + l));
		if (bind(fd[l], (struct sockaddr *)&a, sizeof(a))) {
			err = -errno;
			fprintf(stderr, "reckon-agent %s: bind port %u: %s\n",
				o->host, ntohs(a.sin_port), strerror(-err));
			goto fail;
		}
	}
	return 0;
fail:
	shell_close(fd);
	return err;
}

/* Watch the bound sockets of the lanes that receive. */
static int watch_sockets(struct shell *sh)
{
	const struct shell_opts *o = sh->o;

	if (o->role == SHELL_PLAYER)
		return 0;
	for (size_t l = 0; l < o->n_lanes; l++) {
		sh->rx[l] = event_new(sh->base, sh->fd[l], EV_READ | EV_PERSIST,
				      on_read, sh);
		if (!sh->rx[l] || event_add(sh->rx[l], NULL))
			return -ENOMEM;
	}
	return 0;
}

static int make_machine(struct shell *sh)
{
	const struct shell_opts *o = sh->o;

	if (o->role == SHELL_PLAYER) {
		struct role_player_cfg c = {
			.truth = sh->tr,
			.lanes = o->lanes,
			.n_lanes = o->n_lanes,
			.n_dest = o->n_dest,
			.entities = o->n_entities || o->players ? o->entities
								: NULL,
			.n_entities = o->n_entities,
			.geo = &o->geo,
			.pickup_r = AGENT_PICKUP_R,
		};

		return role_player_new(&c, &sh->pl);
	}
	if (o->role == SHELL_OBSERVER) {
		struct role_observer_cfg c = {
			.truth = sh->tr,
			.lanes = o->lanes,
			.n_lanes = o->n_lanes,
			.threshold = o->threshold,
			.geo = &o->geo,
			.pickup_r = AGENT_PICKUP_R,
		};

		return role_observer_new(&c, &sh->ob);
	}
	return role_relay_init(&sh->rl, o->n_lanes, o->n_dest);
}

static void teardown(struct shell *sh)
{
	for (size_t l = 0; l < ROLE_MAX_LANES; l++) {
		if (sh->rx[l])
			event_free(sh->rx[l]);
		if (sh->fd[l] >= 0)
			close(sh->fd[l]);
	}
	for (int i = 0; i < 2; i++)
		if (sh->sig[i])
			event_free(sh->sig[i]);
	if (sh->timer)
		event_free(sh->timer);
	role_player_free(sh->pl);
	role_observer_free(sh->ob);
	view_rec_close(sh->vr, 0);
	if (sh->base)
		event_base_free(sh->base);
}

int shell_run(const struct shell_opts *o, const struct role_truth *truth,
	      const int fd[ROLE_MAX_LANES])
{
	struct shell *sh = calloc(1, sizeof(*sh));
	int err;

	if (!sh) {
		fprintf(stderr, "reckon-agent: out of memory\n");
		shell_close(fd);
		return 1;
	}
	sh->o = o;
	sh->tr = truth;
	for (size_t l = 0; l < ROLE_MAX_LANES; l++)
		sh->fd[l] = fd[l];
	sh->t0 = o->start_set ? o->start_ns : shell_now_ns() + 1000000000;
	sh->base = shell_event_base();
	err = sh->base ? make_machine(sh) : -ENOMEM;
	if (!err && sh->ob && !(err = view_rec_open(o, sh->tr, &sh->vr)))
		view_rec_hook(sh->vr, sh->ob);
	if (err) {
		fprintf(stderr, "reckon-agent %s: %s\n", o->host,
			strerror(-err));
		teardown(sh);
		free(sh);
		return 1;
	}
	err = watch_sockets(sh);
	sh->timer = evtimer_new(sh->base, on_timer, sh);
	sh->sig[0] = evsignal_new(sh->base, SIGINT, on_signal, sh);
	sh->sig[1] = evsignal_new(sh->base, SIGTERM, on_signal, sh);
	if (err || !sh->timer || !sh->sig[0] || !sh->sig[1] ||
	    evsignal_add(sh->sig[0], NULL) || evsignal_add(sh->sig[1], NULL)) {
		fprintf(stderr, "reckon-agent %s: setting up: %s\n", o->host,
			strerror(err ? -err : ENOMEM));
		teardown(sh);
		free(sh);
		return 1;
	}
	/* a machine with nothing to do ends at its first wake-up */
	if (sh->pl)
		arm_at(sh, role_player_next(sh->pl) == INT64_MAX
				   ? 0
				   : role_player_next(sh->pl));
	else if (sh->ob)
		arm_at(sh, role_observer_next(sh->ob) == INT64_MAX
				   ? 0
				   : role_observer_next(sh->ob));
	else if (o->stop_s > 0)
		arm_at(sh, (int64_t)(o->stop_s * 1e9));
	event_base_dispatch(sh->base);
	err = sh->status;
	teardown(sh);
	free(sh);
	return err;
}

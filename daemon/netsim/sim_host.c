/*
 * sim_host.c: one host of the simulator (see netsim_int.h). The wake-up
 * logic follows agents/shell.c's on_timer step for step (player: play due
 * ticks, end after the last; observer: frames, then linger, then end;
 * relay: end at --stop-after), so a host ends at the same relative time
 * in both hosts; only the clock is virtual.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netsim_int.h"

/* The emulator gives every agent of a repetition one t0 (RECKON_START_NS):
 * 0.5 s plus 25 ms per host after it begins setting up (emulation.c). */
#define START_BASE_NS	  500000000LL
#define START_PER_HOST_NS 25000000LL

int sim_host_init(struct sim_host *h, const struct scenario *sc, unsigned i,
		  uint64_t seed, unsigned rep, const char *run_dir, char *err,
		  size_t errlen)
{
	const struct sc_host *sh = &sc->hosts[i];
	enum shell_role role;
	struct in_addr a;
	int rc, server;

	memset(h, 0, sizeof(*h));
	h->sh = sh;
	if (sh->exec[0]) {
		snprintf(err, errlen,
			 "runs a command (exec = ...), which cannot be "
			 "simulated: the simulator hosts the reckon-agent "
			 "roles only; use mode = "
			 "emulate");
		return -ENOTSUP;
	}
	if (inet_pton(AF_INET, sh->addr, &a) == 1 &&
	    sim_fps_role(sh->role, &server) == 0) {
		h->addr = ntohl(a.s_addr);
		rc = sim_fps_init(h, sc, i, seed, rep, run_dir, err, errlen);
		if (rc)
			sim_host_free(h);
		return rc;
	}
	if (agent_role_parse(sh->role, &role)) {
		snprintf(err, errlen,
			 "role '%s' cannot be simulated: the simulator hosts "
			 "the roles player, observer, relay, fps-server and "
			 "fps-client only",
			 sh->role);
		return -ENOTSUP;
	}
	if (inet_pton(AF_INET, sh->addr, &a) != 1) {
		snprintf(err, errlen, "bad address '%s'", sh->addr);
		return -EINVAL;
	}
	h->addr = ntohl(a.s_addr);
	rc = scenario_words_split(sh->role, sh->args, &h->words, err, errlen);
	if (rc)
		return rc;
	/* what the emulator puts in the environment, then the args */
	agent_opts_init(&h->o, role, sh->name);
	h->o.run_dir = run_dir;
	h->o.host = sh->name;
	h->o.seed = seed;
	h->o.seed_set = 1;
	h->o.rep = rep;
	rc = agent_opts_parse(&h->o, h->words.argc, h->words.argv, 0, err,
			      errlen);
	if (rc)
		goto fail;
	if (h->o.start_set && !h->o.start_relative) {
		snprintf(err, errlen,
			 "--start-ns with an absolute CLOCK_MONOTONIC time "
			 "cannot be simulated; use --start-ns +MS");
		rc = -ENOTSUP;
		goto fail;
	}
	h->t0 = h->o.start_set ? h->o.start_ns
			       : START_BASE_NS + START_PER_HOST_NS *
							 (int64_t)sc->nhosts;
	return 0;
fail:
	scenario_words_free(&h->words);
	return rc;
}

void sim_host_truth_key(const struct sim_host *h, char *buf, size_t len)
{
	const struct shell_opts *o = &h->o;

	int n;

	if (o->role == SHELL_RELAY)
		n = snprintf(buf, len, "%s", "");
	else if (o->trace_path)
		n = snprintf(buf, len, "trace %s", o->trace_path);
	else
		n = snprintf(buf, len,
			     "map %s bots %d duration %.17g seed %" PRIu64
			     " tick %d",
			     o->map, o->bots, o->duration_s, o->seed,
			     o->tick_hz);
	/* the training session is part of the truth (led trend maps) */
	if (n >= 0 && (size_t)n < len && o->role != SHELL_RELAY)
		snprintf(buf + n, len - (size_t)n, " train %s %.17g",
			 o->train_path ? o->train_path : "-", o->train_s);
}

int sim_host_start(struct sim_host *h, const struct role_truth *tr,
		   int64_t *first, char *err, size_t errlen)
{
	struct shell_opts *o = &h->o;
	int64_t rel = INT64_MAX;
	int rc;

	h->tr = tr;
	if (o->role == SHELL_RELAY) {
		rc = role_relay_init(&h->rl, o->n_lanes, o->n_dest);
		if (rc) {
			snprintf(err, errlen, "relay: %s", strerror(-rc));
			return rc;
		}
		if (o->stop_s > 0)
			rel = (int64_t)(o->stop_s * 1e9);
		*first = rel == INT64_MAX ? INT64_MAX : h->t0 + rel;
		return 0;
	}
	rc = agent_truth_bind(o, tr, err, errlen, h->warn, sizeof(h->warn));
	if (rc)
		return rc;
	if (o->role == SHELL_PLAYER) {
		struct role_player_cfg c = {
			.truth = tr,
			.lanes = o->lanes,
			.n_lanes = o->n_lanes,
			.n_dest = o->n_dest,
			.entities = o->n_entities || o->players ? o->entities
								: NULL,
			.n_entities = o->n_entities,
			.geo = &o->geo,
			.pickup_r = AGENT_PICKUP_R,
		};

		rc = role_player_new(&c, &h->pl);
		if (rc == 0)
			rel = role_player_next(h->pl);
	} else {
		struct role_observer_cfg c = {
			.truth = tr,
			.lanes = o->lanes,
			.n_lanes = o->n_lanes,
			.threshold = o->threshold,
			.geo = &o->geo,
			.pickup_r = AGENT_PICKUP_R,
		};

		rc = role_observer_new(&c, &h->ob);
		if (rc == 0 && (rc = view_rec_open(o, tr, &h->vr)) == 0)
			view_rec_hook(h->vr, h->ob);
		if (rc == 0)
			rel = role_observer_next(h->ob);
	}
	if (rc) {
		snprintf(err, errlen, "%s", strerror(-rc));
		return rc;
	}
	/* a machine with nothing to do ends at its first wake-up */
	*first = h->t0 + (rel == INT64_MAX ? 0 : rel);
	return 0;
}

int sim_host_wake(struct sim_host *h, int64_t now, role_emit_fn emit, void *arg,
		  int64_t *next)
{
	int64_t rel = now - h->t0, nx;
	int err = 0;

	*next = INT64_MAX;
	if (h->done)
		return 0;
	h->wakeups++;
	if (h->pl) {
		err = role_player_advance(h->pl, rel, emit, arg);
		nx = role_player_next(h->pl);
	} else if (h->ob && !h->ending) {
		err = role_observer_frame(h->ob, rel);
		nx = role_observer_next(h->ob);
		if (!err && nx == INT64_MAX) {
			h->ending = 1;
			*next = h->t0 + h->tr->end_ns +
				(int64_t)(h->o.linger_s * 1e9);
			if (*next < now)
				*next = now;
			return 0;
		}
	} else {
		/* observer linger over, relay stop time */
		return sim_host_finish(h, now, 0);
	}
	if (err) {
		sim_host_finish(h, now, 0);
		h->status = 1;
		return err;
	}
	if (nx == INT64_MAX)
		return sim_host_finish(h, now, 0);
	*next = h->t0 + nx < now ? now : h->t0 + nx;
	return 0;
}

int sim_host_recv(struct sim_host *h, uint16_t lane, int64_t now,
		  const uint8_t *buf, size_t len, role_emit_fn emit, void *arg)
{
	int rc;

	if (h->done || h->pl || lane >= h->o.n_lanes) {
		h->rx_dropped++; /* no socket bound there */
		return 0;
	}
	h->rx++;
	if (h->ob) {
		role_observer_recv(h->ob, lane, now - h->t0, buf, len);
		return 0;
	}
	/* malformed datagrams are counted by the relay and harmless */
	rc = role_relay_recv(&h->rl, lane, buf, len, emit, arg);
	return rc == -EBADMSG ? 0 : rc;
}

static double covered_s(const struct sim_host *h, int64_t now)
{
	int64_t t = now - h->t0;

	if (!h->tr || t < 0)
		return 0;
	return (double)(t < h->tr->end_ns ? t : h->tr->end_ns) * 1e-9;
}

static int write_rows(struct sim_host *h, const char *role, size_t n,
		      int64_t now)
{
	struct role_metrics *rows = calloc(n ? n : 1, sizeof(*rows));
	struct metrics_table t = {&h->o, role, rows, n, covered_s(h, now)};
	int err = rows ? 0 : -ENOMEM;

	for (size_t i = 0; !err && i < n; i++)
		err = h->pl   ? role_player_metrics(h->pl, i, &rows[i])
		      : h->ob ? role_observer_metrics(h->ob, i, &rows[i])
			      : agent_relay_metrics(&h->rl, i, &rows[i]);
	if (!err)
		err = metrics_write(&t);
	free(rows);
	return err;
}

/* timing-HOST.csv as the agent's shell writes it: virtual timers are
 * never late; a host stopped by the scenario's end counts as signalled,
 * so reckond sees a play the duration cut off (runinfo.c). */
static int write_timing(struct sim_host *h, int64_t now, int stopped)
{
	struct agent_timing t = {
		.role = h->pl	? "player"
			: h->ob ? "observer"
				: "relay",
		.wakeups = h->wakeups,
		.tick_ms = h->tr ? (double)h->tr->tick_ns / 1e6 : 0,
		.played_s = covered_s(h, now),
		.play_s = h->tr ? (double)h->tr->end_ns * 1e-9 : 0,
		.end = stopped ? "signal" : "done",
	};

	return timing_write(&h->o, &t);
}

/* As the agent's shell: updates arrived but none matched a path of the
 * truth at its send time, so nothing was measured and the host fails. */
static int all_unmatched(const struct sim_host *h)
{
	uint64_t received, unmatched;

	role_observer_totals(h->ob, &received, &unmatched);
	return received > 0 && unmatched == received;
}

int sim_host_finish(struct sim_host *h, int64_t now, int stopped)
{
	struct reckon_espdu_counters c[ROLE_MAX_LANES];
	uint64_t foreign[ROLE_MAX_LANES] = {0};
	const struct shell_opts *o = &h->o;
	int err, rc;

	if (h->fps)
		return sim_fps_finish(h, now, stopped);
	if (h->done)
		return h->status ? -EIO : 0;
	h->done = 1;
	h->stopped = stopped;
	if (h->pl) {
		err = write_rows(h, "player", role_player_rows(h->pl), now);
		if (!err)
			err = view_player_grids(o, h->pl);
	} else if (h->ob) {
		role_observer_frame(h->ob, now - h->t0);
		err = write_rows(h, "observer", role_observer_rows(h->ob), now);
		for (size_t l = 0; !err && l < o->n_lanes; l++) {
			role_observer_verdicts(h->ob, (uint16_t)l, &c[l]);
			foreign[l] = role_observer_foreign(h->ob, (uint16_t)l);
		}
		if (!err)
			err = rejects_write(o, c, foreign, o->n_lanes);
		if (!err)
			err = errcdf_write(o, h->ob);
		rc = view_rec_close(h->vr, !err);
		h->vr = NULL;
		if (!err)
			err = rc;
		if (!err && all_unmatched(h)) {
			snprintf(h->warn, sizeof(h->warn),
				 "every update received matched no path of "
				 "the truth at its send time, so no error was "
				 "measured; do every player and observer use "
				 "the same trace and start time?");
			err = -EPROTO;
		}
	} else {
		err = write_rows(h, "relay", o->n_lanes, now);
		if (!err)
			err = rejects_write(o, h->rl.verdicts, NULL,
					    o->n_lanes);
	}
	if (!err)
		err = write_timing(h, now, stopped);
	if (err)
		h->status = 1;
	return err;
}

void sim_host_free(struct sim_host *h)
{
	sim_fps_free(h);
	role_player_free(h->pl);
	role_observer_free(h->ob);
	view_rec_close(h->vr, 0);
	h->pl = NULL;
	h->ob = NULL;
	h->vr = NULL;
	scenario_words_free(&h->words);
}

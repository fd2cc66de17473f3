/*
 * netsim.c: the simulator host (see netsim.h). One repetition builds its
 * hosts (the agents' own option parsers and role machines), their truth
 * and their links, lets sim_loop.c run the events, and writes what the
 * emulator writes: the agents' metrics files, counters.csv, hosts.csv
 * and changes.csv. sim_scenario (netsim_scenario.c) runs the repetitions
 * into a results directory and writes the summary.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "results.h"
#include "netsim.h"
#include "netsim_int.h"

/* ---- set-up ---- */

static const struct role_truth *truth_for(struct sim *s, struct sim_host *h,
					  char *err, size_t errlen)
{
	struct truth_slot *t;
	char key[sizeof(t->key)];

	sim_host_truth_key(h, key, sizeof(key));
	for (unsigned k = 0; k < s->ntruth; k++)
		if (!strcmp(s->truth[k].key, key))
			return &s->truth[k].tr;
	t = &s->truth[s->ntruth];
	if (agent_truth_load(&h->o, &t->tr, err, errlen))
		return NULL;
	snprintf(t->key, sizeof(t->key), "%s", key);
	s->ntruth++;
	return &t->tr;
}

/* An fps-client sends to the host with its --server address. */
static void resolve_fps(struct sim *s, unsigned i)
{
	uint32_t a = sim_fps_server_addr(&s->h[i]);

	for (unsigned j = 0; a && j < s->n; j++)
		if (s->h[j].addr == a)
			sim_fps_set_server(&s->h[i], (int)j);
}

static void resolve_dests(struct sim *s, unsigned i)
{
	const struct shell_opts *o = &s->h[i].o;

	if (s->h[i].fps) {
		resolve_fps(s, i);
		return;
	}
	for (unsigned d = 0; d < SHELL_MAX_DEST; d++) {
		int *slot = &s->dest_host[i * SHELL_MAX_DEST + d];

		*slot = -1;
		if (d >= o->n_dest)
			continue;
		for (unsigned j = 0; j < s->n; j++)
			if (s->h[j].addr == ntohl(o->dest[d].sin_addr.s_addr))
				*slot = (int)j;
	}
}

static int setup(struct sim *s)
{
	char err[512];
	int rc;

	s->h = calloc(s->n, sizeof(*s->h));
	s->dest_host = calloc((size_t)s->n * SHELL_MAX_DEST, sizeof(int));
	s->link_gen = calloc((size_t)s->n * s->n, sizeof(*s->link_gen));
	s->link_armed = calloc((size_t)s->n * s->n, sizeof(*s->link_armed));
	s->truth = calloc(s->n, sizeof(*s->truth));
	if (!s->h || !s->dest_host || !s->link_gen || !s->link_armed ||
	    !s->truth ||
	    sim_fps_games_new(s->n, sim_loop_threads() >= 2, &s->games))
		return -ENOMEM;
	for (size_t k = 0; k < (size_t)s->n * s->n; k++)
		s->link_armed[k] = INT64_MAX;
	for (unsigned i = 0; i < s->n; i++) {
		rc = sim_host_init(&s->h[i], s->sc, i, s->seed, s->rep, s->dir,
				   err, sizeof(err));
		if (rc) {
			log_warnx("simulator: host %s: %s",
				  s->sc->hosts[i].name, err);
			for (unsigned j = 0; j < i; j++)
				sim_host_free(&s->h[j]);
			s->n = 0; /* nothing else to free per host */
			return rc;
		}
	}
	s->live = s->n;
	rc = sim_net_new(s->sc, s->seed, &s->net);
	if (rc) {
		log_warnx("simulator: links: %s", strerror(-rc));
		return rc;
	}
	for (unsigned i = 0; i < s->n; i++) {
		struct sim_host *h = &s->h[i];
		const struct role_truth *tr = NULL;
		int64_t first;

		resolve_dests(s, i);
		if (h->fps) {
			rc = sim_fps_start(h, s->games, &first, err,
					   sizeof(err));
		} else if (h->o.role != SHELL_RELAY &&
			   (tr = truth_for(s, h, err, sizeof(err))) == NULL) {
			log_warnx("simulator: host %s: %s", h->sh->name, err);
			return -EINVAL;
		} else {
			rc = sim_host_start(h, tr, &first, err, sizeof(err));
		}
		if (rc) {
			log_warnx("simulator: host %s: %s", h->sh->name, err);
			return rc;
		}
		if (h->warn[0])
			log_info("host %s: warning: %s", h->sh->name, h->warn);
		if (first != INT64_MAX &&
		    (rc = sim_queue_push(&s->q, first, EV_WAKE, i, h->gen)))
			return rc;
	}
	return 0;
}

/* ---- results of a repetition ---- */

static void write_host_logs(struct sim *s)
{
	char path[PATH_MAX];
	FILE *f;

	if (results_path(path, sizeof(path), "%s/hosts", s->dir) ||
	    results_mkdirs(path))
		return;
	for (unsigned i = 0; i < s->n; i++) {
		const struct sim_host *h = &s->h[i];

		if (results_path(path, sizeof(path), "%s/hosts/%s.log", s->dir,
				 h->sh->name) ||
		    (f = fopen(path, "we")) == NULL)
			continue;
		fprintf(f,
			"simulated %s %s: t0 %.3f s, %" PRIu64
			" wake-ups, %" PRIu64 " datagrams taken, %" PRIu64
			" with no socket on their port, %s\n",
			h->sh->role, h->sh->name, (double)h->t0 / 1e9,
			h->wakeups, h->rx, h->rx_dropped,
			h->status    ? (h->warn[0] ? "failed" : "failed writing its metrics")
			: h->stopped ? "stopped at the scenario's end"
				     : "ended on its own");
		if (h->warn[0])
			fprintf(f, "warning: %s\n", h->warn);
		if (h->note[0])
			fprintf(f, "%s\n", h->note);
		fclose(f);
	}
}

static int write_results(struct sim *s)
{
	struct netem_counters *c = calloc((size_t)s->n * s->n, sizeof(*c));
	struct results_host *rh = calloc(s->n, sizeof(*rh));
	int err = -ENOMEM, status = 0;

	if (c && rh) {
		for (unsigned i = 0; i < s->n; i++)
			for (unsigned j = 0; j < s->n; j++)
				if (i != j)
					sim_net_counters(s->net, i, j,
							 &c[i * s->n + j]);
		err = results_counters(s->dir, s->sc, s->rep, s->seed, c);
		if (err < 0)
			log_warnx("%s/counters.csv: %s", s->dir,
				  strerror(-err));
		for (unsigned i = 0; i < s->n; i++) {
			const struct sim_host *h = &s->h[i];

			rh[i].pid = 0;
			rh[i].status = h->status;
			/* the only stop is the scenario's end */
			rh[i].outcome = h->status    ? "failed"
					: h->stopped ? "ended"
						     : "ok";
			if (h->status && !status)
				status = h->status;
		}
		if (results_hosts(s->dir, s->sc, s->rep, rh) < 0)
			log_warnx("%s/hosts.csv: write failed", s->dir);
		write_host_logs(s);
	}
	free(c);
	free(rh);
	return err < 0 ? err : status;
}

static void sim_free(struct sim *s)
{
	for (unsigned i = 0; s->h && i < s->n; i++)
		sim_host_free(&s->h[i]);
	for (unsigned k = 0; k < s->ntruth; k++)
		role_truth_free(&s->truth[k].tr);
	sim_loop_free(s);
	sim_fps_games_free(s->games);
	sim_net_free(s->net);
	sim_queue_free(&s->q);
	if (s->changes)
		fclose(s->changes);
	free(s->h);
	free(s->dest_host);
	free(s->link_gen);
	free(s->link_armed);
	free(s->truth);
}

static int open_changes(struct sim *s)
{
	char path[PATH_MAX];

	if (results_path(path, sizeof(path), "%s/changes.csv", s->dir))
		return -ENAMETOOLONG;
	s->changes = fopen(path, "we");
	if (s->changes == NULL)
		return -errno;
	fprintf(s->changes, "time_s,origin,src,dst,spec\n");
	return 0;
}

/*
 * A repetition builds its truth (trace arrays, paths, a trend map per
 * path) and frees it at the end: a few MB in blocks of up to a few
 * hundred kB. With glibc's defaults the large blocks are mmap'd and
 * unmapped each time and the heap top is trimmed, so every repetition
 * faulted its memory in afresh; profiling sim_bench put about a third of
 * its time in the kernel, mostly page faults. Keeping the memory
 * (blocks under 32 MiB from the heap, no trim under 64 MiB, 16 MiB of
 * padding per heap growth) lets the next repetition reuse it. It is
 * set once per process; allocation never changes a result.
 */
static void alloc_keep(void)
{
	static int done;

	if (done)
		return;
	done = 1;
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	mallopt(M_TOP_PAD, 16 << 20);
}

int sim_run_rep(const struct scenario *sc, unsigned rep, const char *run_dir,
		struct sim_stats *st)
{
	struct sim s;
	int err, status;

	if (sc == NULL || run_dir == NULL || rep == 0 || sc->nhosts == 0)
		return -EINVAL;
	alloc_keep();
	memset(&s, 0, sizeof(s));
	s.sc = sc;
	s.rep = rep;
	s.n = sc->nhosts;
	s.seed = scenario_rep_seed(sc->seed, rep);
	s.dir = run_dir;
	sim_queue_init(&s.q);
	/* pushed first, so they go before wake-ups due at the same time */
	err = sc->duration_ns > 0
		      ? sim_queue_push(&s.q, sc->duration_ns, EV_END, 0, 0)
		      : 0;
	for (unsigned k = 0; err == 0 && k < sc->nchanges; k++)
		err = sim_queue_push(&s.q, sc->changes[k].at_ns, EV_SCHED, k,
				     0);
	if (err == 0)
		err = setup(&s);
	if (err == 0)
		err = sim_loop_start(&s);
	if (err == 0)
		err = open_changes(&s);
	if (err == 0)
		err = sim_loop_run(&s);
	if (err) {
		if (err != -EINVAL && err != -ENOTSUP)
			log_warnx("simulator: repetition %u: %s", rep,
				  strerror(-err));
		sim_free(&s);
		return err;
	}
	s.st.virtual_ns = s.now;
	if (s.unroutable || s.to_self)
		log_warnx(
			"simulator: repetition %u: %" PRIu64
			" datagram(s) sent to an address no host has, %" PRIu64
			" to the sender itself (neither is simulated)",
			rep, s.unroutable, s.to_self);
	if (s.corrupt_dropped)
		log_debug("simulator: repetition %u: %" PRIu64
			  " corrupted datagram(s) dropped by the receiver",
			  rep, s.corrupt_dropped);
	status = write_results(&s);
	if (st)
		*st = s.st;
	sim_free(&s);
	return status;
}


/*
 * repetitions.c: a scenario's repetitions, one emulation after the other
 * (see reckond.h). Repetition k runs with scenario_rep_seed(seed, k): the
 * scenario seed itself for the first, so a run with repetitions = 1
 * reproduces a seed exactly, then splitmix64 of seed + (k - 1) * golden
 * gamma, which spreads neighbouring repetitions over unrelated streams.
 * With one repetition the results go straight into the run directory; with
 * several, into rep-1/, rep-2/, ... below it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reckond.h"
#include "log.h"
#include "results.h"

#define GRACE_NS 2000000000LL /* SIGTERM -> SIGKILL */

struct repetitions {
	struct event_base *base;
	const struct scenario *sc;
	struct results_run run;
	char repdir[PATH_MAX];
	char agent[PATH_MAX];
	repetitions_done_fn done;
	void *arg;
	struct emulation *eng;
	struct event *step_ev;
	unsigned rep;
	int result;
	int stopping;
};

/* $RECKON_AGENT, else reckon-agent next to reckond (installed), else the
 * build tree's agents/reckon-agent, else whatever PATH finds. */
static void find_agent(char *out, size_t len)
{
	const char *env = getenv("RECKON_AGENT");
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	if (env != NULL && env[0] != '\0') {
		snprintf(out, len, "%s", env);
		return;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash != NULL) {
			*slash = '\0';
			if (results_path(out, len, "%s/reckon-agent", exe) ==
				    0 &&
			    access(out, X_OK) == 0)
				return;
			if (results_path(out, len, "%s/../agents/reckon-agent",
					 exe) == 0 &&
			    access(out, X_OK) == 0)
				return;
		}
	}
	snprintf(out, len, "reckon-agent");
}

static void emulation_done(struct emulation *e, void *arg)
{
	struct repetitions *r = arg;

	(void)e;
	event_active(r->step_ev, EV_TIMEOUT, 0);
}

static int start_rep(struct repetitions *r)
{
	struct emulation_params p;
	uint64_t seed = scenario_rep_seed(r->sc->seed, r->rep);
	int err;

	err = results_run_rep(&r->run, r->rep, r->sc->repetitions, r->repdir,
			      sizeof(r->repdir));
	if (err < 0)
		return err;
	memset(&p, 0, sizeof(p));
	p.sc = r->sc;
	p.seed = seed;
	p.rep = r->rep;
	p.dir = r->repdir;
	p.agent = r->agent;
	p.grace_ns = GRACE_NS;
	log_info("%s: repetition %u/%u, seed %" PRIu64, r->sc->name, r->rep,
		 r->sc->repetitions, seed);
	return emulation_start(r->base, &p, emulation_done, r, &r->eng);
}

static void finish(struct repetitions *r)
{
	/* Agents' metrics, when the scenario has any, become summary.csv,
	 * summary.json and the table on stdout; a stopped run says so. */
	if (r->stopping && r->rep < r->sc->repetitions)
		run_info_partial(&r->run.info, "%u of %u repetitions ran",
				 r->rep, r->sc->repetitions);
	r->result = results_run_close(&r->run, r->sc, r->result);
	r->done(r, r->arg);
}

static void step(evutil_socket_t fd, short what, void *arg)
{
	struct repetitions *r = arg;
	int err;

	(void)fd;
	(void)what;
	if (r->eng != NULL) {
		int res = emulation_result(r->eng);

		if (res != 0 && r->result == 0)
			r->result = res;
		r->run.info.bridge_lost += emulation_lost(r->eng);
		emulation_free(r->eng);
		r->eng = NULL;
	}
	while (r->result == 0 && !r->stopping && r->rep < r->sc->repetitions) {
		r->rep++;
		err = start_rep(r);
		if (err == 0)
			return;
		r->result = 1;
	}
	finish(r);
}

int repetitions_start(struct event_base *base, const struct scenario *sc,
		      const char *cwd, repetitions_done_fn done, void *arg,
		      struct repetitions **out)
{
	struct repetitions *r = calloc(1, sizeof(*r));
	int err;

	if (r == NULL)
		return -ENOMEM;
	if (sc->mode == SC_MODE_SIMULATE) {
		log_warnx("%s: mode = simulate runs in the simulator, not in "
			  "namespaces: use reckond sim FILE",
			  sc->path);
		free(r);
		return -ENOTSUP;
	}
	if (sc->sweep != NULL)
		log_warnx("%s: has a [sweep]; reckond run runs its base "
			  "scenario once, without the sweep's axes",
			  sc->path);
	r->base = base;
	r->sc = sc;
	r->done = done;
	r->arg = arg;
	r->run.log_fd = -1;
	find_agent(r->agent, sizeof(r->agent));
	r->step_ev = evtimer_new(base, step, r);
	if (r->step_ev == NULL) {
		free(r);
		return -ENOMEM;
	}
	err = results_run_open(&r->run, sc, cwd);
	if (err < 0) {
		repetitions_free(r);
		return err;
	}
	log_info("%s: running %s (%u host(s), %u repetition(s), backend %s), "
		 "results in %s",
		 sc->name, sc->path, sc->nhosts, sc->repetitions,
		 sc->backend == SC_BACKEND_KERNEL ? "kernel" : "userspace",
		 r->run.dir);
	r->rep = 0;
	event_active(r->step_ev, EV_TIMEOUT, 0);
	*out = r;
	return 0;
}

void repetitions_stop(struct repetitions *r, const char *why)
{
	if (!r->stopping) {
		if (r->eng != NULL)
			run_info_partial(&r->run.info,
					 "%s during repetition %u", why,
					 r->rep);
		else
			run_info_partial(&r->run.info, "%s", why);
	}
	r->stopping = 1;
	if (r->eng != NULL)
		emulation_stop(r->eng, why);
}

/* "a>b" (one direction) or "a<>b" (both). */
static int parse_link(const struct scenario *sc, const char *text, int *src,
		      int *dst, int *both)
{
	char a[SC_NAME_MAX], b[SC_NAME_MAX];
	const char *gt = strchr(text, '>');
	size_t la;

	if (gt == NULL)
		return -EINVAL;
	*both = gt > text && gt[-1] == '<';
	la = (size_t)(gt - text) - (size_t)*both;
	if (la == 0 || la >= sizeof(a) || strlen(gt + 1) >= sizeof(b))
		return -EINVAL;
	memcpy(a, text, la);
	a[la] = '\0';
	strcpy(b, gt + 1);
	*src = scenario_host(sc, a);
	*dst = scenario_host(sc, b);
	if (*src < 0 || *dst < 0 || *src == *dst)
		return -ENOENT;
	return 0;
}

/* The running emulation's status appended to rep. */
static void reply_status(struct repetitions *r, struct ctl_reply *rep, int json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL) {
		rep->failed = 1;
		return;
	}
	emulation_status(r->eng, f, json);
	if (fclose(f) == 0 && buf != NULL)
		ctl_reply_printf(rep, "%s", buf);
	else
		rep->failed = 1;
	free(buf);
}

static int control_set(struct repetitions *r, char *args, struct ctl_reply *rep)
{
	struct netem_spec s;
	char err[256];
	char *sp;
	int src, dst, both, rc;

	while (*args == ' ')
		args++;
	sp = strchr(args, ' ');
	if (sp == NULL) {
		ctl_reply_printf(rep, "usage: set A>B SPEC (or A<>B SPEC)\n");
		return -EINVAL;
	}
	*sp = '\0';
	rc = parse_link(r->sc, args, &src, &dst, &both);
	if (rc < 0) {
		ctl_reply_printf(rep, "%s: no such link (hosts:", args);
		for (unsigned i = 0; i < r->sc->nhosts; i++)
			ctl_reply_printf(rep, " %s", r->sc->hosts[i].name);
		ctl_reply_printf(rep, ")\n");
		return rc;
	}
	if (netem_spec_parse(sp + 1, &s, err, sizeof(err)) < 0) {
		ctl_reply_printf(rep, "%s\n", err);
		return -EINVAL;
	}
	if (r->eng == NULL) {
		ctl_reply_printf(rep, "no repetition is running\n");
		return -ESRCH;
	}
	rc = emulation_set(r->eng, (unsigned)src, (unsigned)dst, &s, "ctl");
	if (rc == 0 && both)
		rc = emulation_set(r->eng, (unsigned)dst, (unsigned)src, &s,
				   "ctl");
	if (rc < 0) {
		ctl_reply_printf(rep, "set %s: %s\n", args, strerror(-rc));
		return rc;
	}
	netem_spec_print(&s, err, sizeof(err));
	ctl_reply_printf(rep, "%s: %s\n", args, err);
	return 0;
}

int repetitions_control(struct repetitions *r, char *line,
			struct ctl_reply *rep)
{
	if (strcmp(line, "status") == 0 || strcmp(line, "status -j") == 0) {
		int json = line[6] != '\0';

		if (json) {
			ctl_reply_printf(rep, "{\"scenario\": ");
			ctl_reply_json_str(rep, r->sc->name);
			ctl_reply_printf(rep, ", \"path\": ");
			ctl_reply_json_str(rep, r->sc->path);
			ctl_reply_printf(rep, ", \"run_dir\": ");
			ctl_reply_json_str(rep, r->run.dir);
			ctl_reply_printf(rep, ", \"repetitions\": %u",
					 r->sc->repetitions);
			if (r->eng != NULL) {
				ctl_reply_printf(rep, ", ");
				reply_status(r, rep, 1);
			}
			ctl_reply_printf(rep, "}\n");
		} else {
			ctl_reply_printf(
				rep, "scenario %s (%s), %u repetition(s)\n",
				r->sc->name, r->sc->path, r->sc->repetitions);
			if (r->eng != NULL)
				reply_status(r, rep, 0);
		}
		return 0;
	}
	if (strncmp(line, "set ", 4) == 0)
		return control_set(r, line + 4, rep);
	if (strcmp(line, "stop") == 0) {
		repetitions_stop(r, "stopped through the control socket");
		ctl_reply_printf(rep, "stopping %s\n", r->sc->name);
		return 0;
	}
	return -ENOTSUP;
}

void repetitions_progress(const struct repetitions *r, char *buf, size_t len)
{
	int n;

	if (r->eng == NULL) {
		snprintf(buf, len, "%s", r->sc->name);
		return;
	}
	n = r->sc->repetitions > 1 ? snprintf(buf, len, "rep %u/%u ", r->rep,
					      r->sc->repetitions)
				   : 0;
	if (n < 0 || (size_t)n >= len)
		return;
	emulation_progress(r->eng, buf + n, len - (size_t)n);
}

const char *repetitions_dir(const struct repetitions *r)
{
	return r->run.dir;
}

const char *repetitions_name(const struct repetitions *r)
{
	return r->sc->name;
}

int repetitions_result(const struct repetitions *r)
{
	return r->result;
}

const char *repetitions_partial(const struct repetitions *r)
{
	return r->run.info.partial;
}

void repetitions_free(struct repetitions *r)
{
	if (r == NULL)
		return;
	emulation_free(r->eng);
	if (r->step_ev != NULL)
		event_free(r->step_ev);
	results_run_release(&r->run);
	free(r);
}

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
	char dir[PATH_MAX];
	char repdir[PATH_MAX];
	char agent[PATH_MAX];
	repetitions_done_fn done;
	void *arg;
	struct emulation *eng;
	struct event *step_ev;
	unsigned rep;
	int result;
	int stopping;
	int log_fd;
	struct run_info info; /* what the run is; partial once stopped */
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

	if (r->sc->repetitions > 1) {
		err = results_path(r->repdir, sizeof(r->repdir), "%s/rep-%u",
				   r->dir, r->rep);
		if (err == 0)
			err = results_mkdirs(r->repdir);
		if (err < 0) {
			log_warnx("%s: %s", r->repdir, strerror(-err));
			return err;
		}
	} else {
		snprintf(r->repdir, sizeof(r->repdir), "%s", r->dir);
	}
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

/* How the run went: the agents' timing files, the repetitions that ran;
 * into run.json and the log. */
static void judge(struct repetitions *r)
{
	struct run_info *ri = &r->info;
	char acc[300];
	int err;

	if (r->stopping && r->rep < r->sc->repetitions)
		run_info_partial(ri, "%u of %u repetitions ran", r->rep,
				 r->sc->repetitions);
	run_info_timing(ri, r->dir, r->sc->repetitions);
	err = run_info_write(r->dir, ri);
	if (err < 0)
		log_warnx("%s/run.json: %s", r->dir, strerror(-err));
	if (ri->degraded) {
		run_info_accuracy(ri, acc, sizeof(acc));
		log_warnx("%s: %s", r->sc->name, acc);
	}
}

static void finish(struct repetitions *r)
{
	judge(r);
	/* Agents' metrics, when the scenario has any, become summary.csv,
	 * summary.json and the table on stdout. */
	if (r->result == 0) {
		int err = summary_write_info(r->dir, r->sc->repetitions,
					     &r->info, stdout);

		if (err < 0 && err != -ENOENT) {
			/* Metrics were written but cannot be summarised:
			 * the run's numbers are not there, so it failed. */
			log_warnx("%s: summary: %s", r->dir, strerror(-err));
			r->result = 1;
		}
		if (err == 0 &&
		    (err = plot_run_info(r->dir, r->sc->repetitions,
					 &r->info)) < 0)
			log_warnx("%s: plots: %s", r->dir, strerror(-err));
	}
	if (r->result != 0)
		log_info("%s: FAILED; results in %s", r->sc->name, r->dir);
	else if (r->info.partial[0])
		log_warnx("%s: PARTIAL (%s); results in %s", r->sc->name,
			  r->info.partial, r->dir);
	else
		log_info("%s: finished; results in %s", r->sc->name, r->dir);
	log_set_file(-1);
	if (r->log_fd >= 0)
		close(r->log_fd);
	r->log_fd = -1;
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
	char parent[PATH_MAX], path[PATH_MAX];
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
	run_info_init(&r->info, sc, "emulation");
	r->done = done;
	r->arg = arg;
	r->log_fd = -1;
	find_agent(r->agent, sizeof(r->agent));
	r->step_ev = evtimer_new(base, step, r);
	if (r->step_ev == NULL) {
		free(r);
		return -ENOMEM;
	}
	if (sc->results_dir[0] != '/' && cwd != NULL)
		err = results_path(parent, sizeof(parent), "%s/%s", cwd,
				   sc->results_dir[0] ? sc->results_dir
						      : "results");
	else
		err = results_path(parent, sizeof(parent), "%s",
				   sc->results_dir[0] ? sc->results_dir
						      : "results");
	if (err == 0)
		err = results_mkdir_run(parent, sc->name, r->dir,
					sizeof(r->dir));
	if (err < 0) {
		log_warnx("results directory under %s: %s", parent,
			  strerror(-err));
		repetitions_free(r);
		return err;
	}
	/* Report the directory absolutely: the service's cwd is not the
	 * client's. */
	if (realpath(r->dir, path) != NULL)
		snprintf(r->dir, sizeof(r->dir), "%s", path);
	err = results_scenario(r->dir, sc);
	if (err < 0)
		log_warnx("%s/scenario.ini: %s", r->dir, strerror(-err));
	r->log_fd =
		results_path(path, sizeof(path), "%s/reckond.log", r->dir)
			? -1
			: open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
			       0644);
	if (r->log_fd >= 0)
		log_set_file(r->log_fd);
	log_info("%s: running %s (%u host(s), %u repetition(s), backend %s), "
		 "results in %s",
		 sc->name, sc->path, sc->nhosts, sc->repetitions,
		 sc->backend == SC_BACKEND_KERNEL ? "kernel" : "userspace",
		 r->dir);
	r->rep = 0;
	event_active(r->step_ev, EV_TIMEOUT, 0);
	*out = r;
	return 0;
}

void repetitions_stop(struct repetitions *r, const char *why)
{
	if (!r->stopping) {
		if (r->eng != NULL)
			run_info_partial(&r->info, "%s during repetition %u",
					 why, r->rep);
		else
			run_info_partial(&r->info, "%s", why);
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
			ctl_reply_json_str(rep, r->dir);
			ctl_reply_printf(rep, ", \"repetitions\": %u",
					 r->sc->repetitions);
			if (r->eng != NULL) {
				ctl_reply_printf(rep, ", ");
				emulation_status(r->eng, rep, 1);
			}
			ctl_reply_printf(rep, "}\n");
		} else {
			ctl_reply_printf(
				rep, "scenario %s (%s), %u repetition(s)\n",
				r->sc->name, r->sc->path, r->sc->repetitions);
			if (r->eng != NULL)
				emulation_status(r->eng, rep, 0);
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
	return r->dir;
}

const char *repetitions_name(const struct repetitions *r)
{
	return r->sc->name;
}

int repetitions_result(const struct repetitions *r)
{
	return r->result;
}

void repetitions_free(struct repetitions *r)
{
	if (r == NULL)
		return;
	emulation_free(r->eng);
	if (r->step_ev != NULL)
		event_free(r->step_ev);
	if (r->log_fd >= 0) {
		log_set_file(-1);
		close(r->log_fd);
	}
	free(r);
}

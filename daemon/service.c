/*
 * service.c: reckond as a service (no subcommand). It listens on the
 * control socket and keeps a FIFO queue of scenarios that `reckonctl run
 * FILE` submits; each is loaded and validated when it is submitted (the
 * client gets every problem back at once) and run, one at a time, by a
 * repetitions_start. SIGINT/SIGTERM stop the current scenario, drop the queue
 * and end the service once the hosts are gone.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"
#include "log.h"
#include "reckond.h"
#include "ns.h"

struct job {
	struct job *next;
	unsigned id;
	struct scenario *sc;
	char cwd[PATH_MAX];
};

struct service {
	struct event_base *base;
	struct event *kick;
	struct job *head, *tail, *cur;
	struct repetitions *r;
	struct control *ctl;
	unsigned next_id, done_ok, done_failed;
	int r_done; /* the repetitions have finished; free it next turn */
	int quitting;
};

static void job_free(struct job *j)
{
	if (j == NULL)
		return;
	scenario_free(j->sc);
	free(j);
}

static void svc_done(struct repetitions *r, void *arg)
{
	struct service *s = arg;

	if (repetitions_result(r) == 0)
		s->done_ok++;
	else
		s->done_failed++;
	log_info("job #%u (%s) %s%s%s%s: %s", s->cur->id, repetitions_name(r),
		 repetitions_result(r) == 0 ? "done" : "failed",
		 repetitions_partial(r)[0] ? " (partial: " : "",
		 repetitions_partial(r), repetitions_partial(r)[0] ? ")" : "",
		 repetitions_dir(r));
	/* Free from the next loop turn, outside the repetitions' callback. */
	s->r_done = 1;
	event_active(s->kick, EV_TIMEOUT, 0);
}

static void svc_kick(evutil_socket_t fd, short what, void *arg)
{
	struct service *s = arg;

	(void)fd;
	(void)what;
	if (s->r != NULL && s->r_done) {
		s->r_done = 0;
		repetitions_free(s->r);
		s->r = NULL;
		job_free(s->cur);
		s->cur = NULL;
	}
	while (s->r == NULL && s->head != NULL && !s->quitting) {
		struct job *j = s->head;
		int err;

		s->head = j->next;
		if (s->head == NULL)
			s->tail = NULL;
		s->cur = j;
		err = repetitions_start(s->base, j->sc, j->cwd, svc_done, s,
					&s->r);
		if (err < 0) {
			log_warnx("job #%u (%s): cannot start: %s", j->id,
				  j->sc->name, strerror(-err));
			s->done_failed++;
			s->r = NULL;
			job_free(j);
			s->cur = NULL;
		}
	}
	if (s->quitting && s->r == NULL)
		event_base_loopexit(s->base, NULL);
}

static int svc_submit(struct service *s, char *args, struct ctl_reply *rep)
{
	struct sc_diag d = {0};
	struct job *j;
	char *tab = strchr(args, '\t');
	unsigned pos = 1;
	int rc;

	if (tab != NULL)
		*tab++ = '\0';
	if (args[0] != '/' || (tab != NULL && tab[0] != '/')) {
		ctl_reply_printf(rep, "run: need an absolute path\n");
		return -EINVAL;
	}
	if (s->quitting) {
		ctl_reply_printf(rep, "the service is shutting down\n");
		return -ESHUTDOWN;
	}
	j = calloc(1, sizeof(*j));
	if (j == NULL)
		return -ENOMEM;
	rc = scenario_load(args, &j->sc, &d);
	for (unsigned i = 0; i < d.n; i++)
		ctl_reply_printf(rep, "%s\n", d.msg[i]);
	sc_diag_free(&d);
	if (rc < 0) {
		if (rc != -EINVAL)
			ctl_reply_printf(rep, "%s: %s\n", args, strerror(-rc));
		free(j);
		return rc;
	}
	if (j->sc->mode == SC_MODE_SIMULATE) {
		/* The queue exists to share namespaces one run at a time; a
		 * simulation needs neither, so it is refused up front. */
		ctl_reply_printf(rep,
				 "%s: mode = simulate: the service runs "
				 "emulations only; run `reckond sim %s` "
				 "(no root needed)\n",
				 args, args);
		scenario_free(j->sc);
		free(j);
		return -ENOTSUP;
	}
	snprintf(j->cwd, sizeof(j->cwd), "%s", tab != NULL ? tab : "/");
	j->id = ++s->next_id;
	if (s->tail != NULL)
		s->tail->next = j;
	else
		s->head = j;
	s->tail = j;
	for (struct job *k = s->head; k != j; k = k->next)
		pos++;
	if (s->r != NULL)
		pos++;
	ctl_reply_printf(rep, "queued job #%u: %s (position %u)\n", j->id,
			 j->sc->name, pos);
	log_info("queued job #%u: %s from %s", j->id, j->sc->name, args);
	if (s->r == NULL)
		event_active(s->kick, EV_TIMEOUT, 0);
	return 0;
}

static void svc_status(struct service *s, char *line, struct ctl_reply *rep,
		       int json)
{
	if (json) {
		ctl_reply_printf(rep,
				 "{\"service\": true, \"done\": %u, "
				 "\"failed\": %u, \"queue\": [",
				 s->done_ok, s->done_failed);
		for (struct job *k = s->head; k != NULL; k = k->next) {
			ctl_reply_printf(rep, "%s{\"id\": %u, \"scenario\": ",
					 k == s->head ? "" : ", ", k->id);
			ctl_reply_json_str(rep, k->sc->name);
			ctl_reply_printf(rep, ", \"path\": ");
			ctl_reply_json_str(rep, k->sc->path);
			ctl_reply_printf(rep, "}");
		}
		ctl_reply_printf(rep,
				 "], \"rejected_requests\": %lu, "
				 "\"current\": ",
				 control_rejected(s->ctl));
		if (s->r != NULL)
			repetitions_control(s->r, line, rep);
		else
			ctl_reply_printf(rep, "null\n");
		ctl_reply_printf(rep, "}\n");
		return;
	}
	ctl_reply_printf(rep, "service: %u done, %u failed, %s\n", s->done_ok,
			 s->done_failed, s->r ? "running:" : "idle");
	if (s->r != NULL)
		repetitions_control(s->r, line, rep);
	for (struct job *k = s->head; k != NULL; k = k->next)
		ctl_reply_printf(rep, "queued #%u %s (%s)\n", k->id,
				 k->sc->name, k->sc->path);
}

static int svc_control(void *arg, char *line, struct ctl_reply *rep)
{
	struct service *s = arg;

	if (strncmp(line, "run ", 4) == 0)
		return svc_submit(s, line + 4, rep);
	if (strcmp(line, "status") == 0 || strcmp(line, "status -j") == 0) {
		svc_status(s, line, rep, line[6] != '\0');
		return 0;
	}
	if (strcmp(line, "shutdown") == 0) {
		s->quitting = 1;
		if (s->r != NULL)
			repetitions_stop(s->r, "service shutting down");
		event_active(s->kick, EV_TIMEOUT, 0);
		ctl_reply_printf(rep, "shutting down\n");
		return 0;
	}
	if (s->r == NULL) {
		if (strcmp(line, "stop") == 0 ||
		    strncmp(line, "set ", 4) == 0) {
			ctl_reply_printf(rep, "no scenario is running\n");
			return -ESRCH;
		}
	} else {
		int rc = repetitions_control(s->r, line, rep);

		if (rc != -ENOTSUP)
			return rc;
	}
	ctl_reply_printf(rep, "unknown request '%.40s'\n", line);
	return -ENOTSUP;
}

static void svc_signal(evutil_socket_t sig, short what, void *arg)
{
	struct service *s = arg;

	(void)what;
	log_info("%s: shutting down", strsignal((int)sig));
	s->quitting = 1;
	if (s->r != NULL)
		repetitions_stop(s->r, "service shutting down");
	event_active(s->kick, EV_TIMEOUT, 0);
}

int service_main(const struct run_opts *o)
{
	struct service s = {0};
	struct control *ctl = NULL;
	struct event *ev_int = NULL, *ev_term = NULL;
	char sock[PATH_MAX], msg[512];
	int err;

	if (o->ctl_path != NULL)
		snprintf(sock, sizeof(sock), "%s", o->ctl_path);
	else if ((err = control_default_path(sock, sizeof(sock))) < 0) {
		log_warnx("control socket path: %s", strerror(-err));
		return 1;
	}
	if (userns_enter(msg, sizeof(msg)) < 0) {
		log_warnx("%s", msg);
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	s.base = event_base_new();
	if (s.base == NULL)
		return 1;
	s.kick = evtimer_new(s.base, svc_kick, &s);
	ev_int = evsignal_new(s.base, SIGINT, svc_signal, &s);
	ev_term = evsignal_new(s.base, SIGTERM, svc_signal, &s);
	if (s.kick == NULL || ev_int == NULL || ev_term == NULL) {
		err = -ENOMEM;
		goto out;
	}
	event_add(ev_int, NULL);
	event_add(ev_term, NULL);
	err = control_open(s.base, sock, svc_control, &s, &ctl);
	if (err < 0) {
		const char *why = err == -EADDRINUSE
					  ? "another reckond is serving it"
					  : strerror(-err);

		log_warnx("control socket %s: %s", sock, why);
		if (log_to_syslog())
			fprintf(stderr, "reckond: control socket %s: %s\n",
				sock, why);
		goto out;
	}
	s.ctl = ctl;
	log_info("service ready on %s%s: queue scenarios with 'reckonctl "
		 "run FILE', end it with 'reckonctl shutdown' or Ctrl-C",
		 sock, userns_active() ? " (unprivileged user namespace)" : "");
	if (log_to_syslog())
		fprintf(stderr,
			"reckond: serving %s (log in syslog; -d: here); "
			"queue scenarios with 'reckonctl run FILE', end with "
			"'reckonctl shutdown'\n",
			sock);
	event_base_dispatch(s.base);
	err = 0;
out:
	repetitions_free(s.r);
	job_free(s.cur);
	while (s.head != NULL) {
		struct job *j = s.head;

		s.head = j->next;
		job_free(j);
	}
	control_close(ctl);
	if (ev_int != NULL)
		event_free(ev_int);
	if (ev_term != NULL)
		event_free(ev_term);
	if (s.kick != NULL)
		event_free(s.kick);
	event_base_free(s.base);
	return err < 0 ? 1 : 0;
}

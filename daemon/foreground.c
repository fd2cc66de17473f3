/*
 * foreground.c: `reckond run FILE`, a scenario in the foreground. It enters an
 * unprivileged user namespace when not root, serves the control socket
 * (status, set, stop) while the scenario runs, shows a progress line on
 * stderr, turns SIGINT and SIGTERM into an orderly stop (libevent signal
 * events), and ends by printing where the results went. The exit status is
 * the run's: 0, the status of the host that failed, or 128 + the signal
 * that interrupted an otherwise good run.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ctl.h"
#include "log.h"
#include "reckond.h"
#include "ns.h"

struct fg {
	struct event_base *base;
	struct repetitions *r;
	int tty, quiet, done;
	int sig; /* the signal that stopped the run, if any */
	unsigned ticks;
};

static void fg_done(struct repetitions *r, void *arg)
{
	struct fg *fg = arg;

	(void)r;
	fg->done = 1;
	event_base_loopexit(fg->base, NULL);
}

static void fg_signal(evutil_socket_t sig, short what, void *arg)
{
	struct fg *fg = arg;

	(void)what;
	log_info("%s: stopping", strsignal((int)sig));
	if (fg->sig == 0)
		fg->sig = (int)sig;
	repetitions_stop(fg->r, sig == SIGINT ? "interrupted (SIGINT)"
					      : "terminated (SIGTERM)");
}

static void fg_progress(evutil_socket_t fd, short what, void *arg)
{
	struct fg *fg = arg;
	char line[512];

	(void)fd;
	(void)what;
	fg->ticks++;
	if (fg->quiet || fg->done || (!fg->tty && fg->ticks % 5 != 0))
		return;
	repetitions_progress(fg->r, line, sizeof(line));
	if (fg->tty) {
		fprintf(stderr, "\r%s\033[K", line);
		log_progress_line(1);
	} else
		fprintf(stderr, "reckond: %s\n", line);
}

static int fg_control(void *arg, char *line, struct ctl_reply *rep)
{
	struct fg *fg = arg;
	int rc;

	if (fg->r == NULL) {
		ctl_reply_printf(rep, "starting\n");
		return -EAGAIN;
	}
	rc = repetitions_control(fg->r, line, rep);
	if (rc == -ENOTSUP) {
		if (strncmp(line, "run", 3) == 0)
			ctl_reply_printf(
				rep, "this reckond runs one scenario in the "
				     "foreground; queue scenarios with a "
				     "service (reckond without a command)\n");
		else
			ctl_reply_printf(rep, "unknown request '%.40s'\n",
					 line);
	}
	return rc;
}

int run_scenario(const struct scenario *sc, const struct run_opts *o,
		 char *rundir, size_t rundir_len)
{
	struct fg fg = {0};
	struct control *ctl = NULL;
	struct event *sigint_ev, *sigterm_ev, *tick;
	struct timeval one = {.tv_sec = 1};
	char sock[PATH_MAX], msg[512];
	int err;

	if (o->ctl_path != NULL)
		snprintf(sock, sizeof(sock), "%s", o->ctl_path);
	else if (control_default_path(sock, sizeof(sock)) < 0)
		sock[0] = '\0';
	err = userns_enter(msg, sizeof(msg));
	if (err < 0) {
		log_warnx("%s", msg);
		return err;
	}
	if (userns_active())
		log_info("not root: running in an unprivileged user namespace");
	signal(SIGPIPE, SIG_IGN);
	fg.base = event_base_new();
	if (fg.base == NULL)
		return -ENOMEM;
	fg.tty = isatty(STDERR_FILENO);
	fg.quiet = o->quiet;
	sigint_ev = evsignal_new(fg.base, SIGINT, fg_signal, &fg);
	sigterm_ev = evsignal_new(fg.base, SIGTERM, fg_signal, &fg);
	tick = event_new(fg.base, -1, EV_PERSIST, fg_progress, &fg);
	if (sigint_ev == NULL || sigterm_ev == NULL || tick == NULL) {
		err = -ENOMEM;
		goto out;
	}
	event_add(sigint_ev, NULL);
	event_add(sigterm_ev, NULL);
	if (sock[0] != '\0') {
		err = control_open(fg.base, sock, fg_control, &fg, &ctl);
		if (err == -EADDRINUSE)
			log_warnx(
				"control socket %s belongs to another reckond;"
				" running without one (use -s PATH)",
				sock);
		else if (err < 0)
			log_warnx("control socket %s: %s; running without one",
				  sock, strerror(-err));
		else
			log_debug("control socket %s", sock);
	}
	err = repetitions_start(fg.base, sc, NULL, fg_done, &fg, &fg.r);
	if (err < 0)
		goto out;
	event_add(tick, &one);
	event_base_dispatch(fg.base);
	if (fg.tty && !fg.quiet)
		fprintf(stderr, "\r\033[K");
	log_progress_line(0);
	if (!fg.done) {
		/* the loop ended without the repetitions finishing */
		repetitions_stop(fg.r, "event loop ended");
	}
	err = repetitions_result(fg.r);
	if (err == 0 && fg.sig != 0)
		err = 128 + fg.sig; /* like a shell: interrupted, not passed */
	printf("results: %s\n", repetitions_dir(fg.r));
	fflush(stdout);
	if (rundir != NULL && rundir_len > 0)
		snprintf(rundir, rundir_len, "%s", repetitions_dir(fg.r));
out:
	repetitions_free(fg.r);
	control_close(ctl);
	if (tick != NULL)
		event_free(tick);
	if (sigint_ev != NULL)
		event_free(sigint_ev);
	if (sigterm_ev != NULL)
		event_free(sigterm_ev);
	event_base_free(fg.base);
	return err;
}

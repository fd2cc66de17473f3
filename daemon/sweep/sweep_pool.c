/*
 * sweep_pool.c: the sweep's worker pool. Points are handed out in order,
 * one forked child per point and at most `jobs` children at once, so a
 * crash in one point cannot take the others down and the output of each
 * point is written by one process only. The parent waits for children,
 * redraws a progress bar with the elapsed time and an ETA on stderr, and
 * on SIGINT/SIGTERM stops the children it started and reports the
 * interruption. The ETA is elapsed / finished x points left: with jobs
 * workers busy, the wall time per finished point is already about the
 * time of one point divided by jobs, so it is not divided again.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "sweep_int.h"

static volatile sig_atomic_t stop_sig;

static void on_signal(int sig)
{
	stop_sig = sig;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void fmt_time(double s, char *buf, size_t len)
{
	long t = (long)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, len, "%ldh%02ldm", t / 3600, t / 60 % 60);
	else if (t >= 60)
		snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
	else
		snprintf(buf, len, "%lds", t);
}

static void progress(size_t n, const struct sweep_pool_result *r, double start,
		     int tty, int final)
{
	static size_t last_decile, last_fin = (size_t)-1;
	char el[32], eta[32] = "?";
	double elapsed = now_s() - start;
	size_t fin = (size_t)(r->done + r->failed), bar = 30, fill;

	fill = n ? fin * bar / n : bar;
	if (fin > 0)
		fmt_time(elapsed / (double)fin * (double)(n - fin), eta,
			 sizeof(eta));
	fmt_time(elapsed, el, sizeof(el));
	if (!tty) {
		/* a log file: one line per tenth, and the last one */
		size_t dec = n ? fin * 10 / n : 10;

		if ((!final && dec == last_decile) || fin == last_fin)
			return;
		last_decile = dec;
		last_fin = fin;
	}
	fprintf(stderr, "%ssweep [", tty ? "\r" : "");
	for (size_t i = 0; i < bar; i++)
		fputc(i < fill ? '#' : '.', stderr);
	fprintf(stderr, "] %zu/%zu points", fin, n);
	if (r->failed)
		fprintf(stderr, ", %llu failed", (unsigned long long)r->failed);
	fprintf(stderr, ", %s elapsed, ETA %s%s", el, final ? "0s" : eta,
		tty ? "   " : "\n");
	if (tty && final)
		fputc('\n', stderr);
}

struct child {
	pid_t pid;
	uint64_t point;
};

int sweep_pool_run(const uint64_t *points, size_t n, unsigned jobs, int quiet,
		   sweep_point_fn fn, void *arg, struct sweep_pool_result *res)
{
	struct sigaction sa, old_int, old_term;
	struct sweep_pool_result r = {0};
	struct child *kids;
	size_t next = 0, running = 0;
	int tty = isatty(STDERR_FILENO), rc = 0;
	double start = now_s();

	if (jobs == 0)
		jobs = 1;
	kids = calloc(jobs, sizeof(*kids));
	if (kids == NULL)
		return -ENOMEM;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	stop_sig = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	if (!quiet) {
		/* log lines (the workers' too) clear the bar first */
		log_progress_line(tty);
		progress(n, &r, start, tty, 0);
	}
	while ((next < n && !stop_sig) || running > 0) {
		while (next < n && running < jobs && !stop_sig) {
			size_t slot = 0;
			pid_t pid;

			while (kids[slot].pid)
				slot++;
			fflush(NULL);
			pid = fork();
			if (pid < 0) {
				rc = -errno;
				stop_sig = SIGTERM;
				break;
			}
			if (pid == 0) {
				sigaction(SIGINT, &old_int, NULL);
				sigaction(SIGTERM, &old_term, NULL);
				_exit(fn(points[next], arg) & 0xff);
			}
			kids[slot].pid = pid;
			kids[slot].point = points[next++];
			running++;
		}
		if (stop_sig)
			for (unsigned k = 0; k < jobs; k++)
				if (kids[k].pid)
					kill(kids[k].pid, SIGTERM);
		int st;
		pid_t w = waitpid(-1, &st, 0);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			break; /* ECHILD: nothing left */
		}
		for (unsigned k = 0; k < jobs; k++) {
			if (kids[k].pid != w)
				continue;
			kids[k].pid = 0;
			running--;
			if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
				r.done++;
			} else {
				if (r.failed++ == 0)
					r.first_failed = kids[k].point;
			}
		}
		if (!quiet)
			progress(n, &r, start, tty, 0);
	}
	r.interrupted = stop_sig != 0 && rc == 0;
	if (!quiet) {
		progress(n, &r, start, tty, 1);
		log_progress_line(0);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	free(kids);
	*res = r;
	return rc;
}

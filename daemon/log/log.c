/*
 * log.c: stderr or syslog logging for reckond and reckonctl, with an
 * optional copy of every line into the run's log file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "log.h"

static enum log_dest dest = LOG_TO_STDERR;
static int verbosity;
static int copy_fd = -1;
static int progress;

void log_init(enum log_dest d, int verbose)
{
	dest = d;
	verbosity = verbose;
	if (dest == LOG_TO_SYSLOG)
		openlog("reckond", LOG_PID | LOG_NDELAY, LOG_DAEMON);
}

void log_set_file(int fd)
{
	copy_fd = fd;
}

void log_progress_line(int active)
{
	progress = active;
}

int log_verbose(void)
{
	return verbosity;
}

int log_to_syslog(void)
{
	return dest == LOG_TO_SYSLOG;
}

static void vlog(int pri, const char *fmt, va_list ap, const char *suffix)
{
	char msg[2048];
	int n = vsnprintf(msg, sizeof(msg), fmt, ap);

	if (n < 0)
		return;
	if (suffix != NULL)
		snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg), ": %s",
			 suffix);
	if (dest == LOG_TO_SYSLOG)
		syslog(pri, "%s", msg);
	else
		fprintf(stderr, "%sreckond: %s\n", progress ? "\r\033[K" : "",
			msg);
	if (copy_fd >= 0) {
		struct timespec ts;
		char line[2200];

		clock_gettime(CLOCK_REALTIME, &ts);
		n = snprintf(line, sizeof(line), "%lld.%06ld %s\n",
			     (long long)ts.tv_sec, ts.tv_nsec / 1000, msg);
		if (n > 0 && write(copy_fd, line, (size_t)n) < 0) {
			/* the run log is best effort */
		}
	}
}

/* clang-format off */
#define LOGFN(name, pri, with_errno, gate)                                 \
	void name(const char *fmt, ...)                                    \
	{                                                                  \
		int saved = errno;                                         \
		va_list ap;                                                \
		if (!(gate))                                               \
			return;                                            \
		va_start(ap, fmt);                                         \
		vlog(pri, fmt, ap, with_errno ? strerror(saved) : NULL);   \
		va_end(ap);                                                \
		errno = saved;                                             \
	}

LOGFN(log_warn, LOG_WARNING, 1, 1)
LOGFN(log_warnx, LOG_WARNING, 0, 1)
LOGFN(log_info, LOG_INFO, 0, 1)
LOGFN(log_debug, LOG_DEBUG, 0, verbosity > 1)
/* clang-format on */

void fatal(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_CRIT, fmt, ap, strerror(saved));
	va_end(ap);
	exit(1);
}

void fatalx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_CRIT, fmt, ap, NULL);
	va_end(ap);
	exit(1);
}

/*
 * log.h: the daemon's logging, after OpenBSD's log.c. Library code never
 * logs; the daemon logs once, where it decides. log_warn* append
 * strerror(errno); fatal* log and exit(1).
 */
#ifndef RECKON_LOG_H
#define RECKON_LOG_H

#include <stdarg.h>

enum log_dest { LOG_TO_STDERR, LOG_TO_SYSLOG };

void log_init(enum log_dest dest, int verbose);
void log_set_file(int fd);	/* also copy every line to fd (run log); -1 stops */
int log_verbose(void);
int log_to_syslog(void);	/* log_init chose LOG_TO_SYSLOG */
/* A progress line is being redrawn on the terminal with '\r': log lines
 * clear it first, and the next redraw puts it back. */
void log_progress_line(int active);
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fatal(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
void fatalx(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

#endif

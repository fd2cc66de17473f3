/*
 * role_shell.h: the reckon-agent roles' host on real sockets. cmd_role.c
 * reads the options and the run context (RECKON_* environment, overridden
 * by options) and builds the truth through the agent I/O library
 * (io/agent_io.h, shared with the simulator), shell.c runs a role's pure
 * state machine (agents/role/) on libevent timers and UDP sockets, and
 * io/metrics_io.c writes what it measured into the run directory. No
 * logic lives here beyond I/O and timers.
 */
#ifndef RECKON_AGENT_ROLE_SHELL_H
#define RECKON_AGENT_ROLE_SHELL_H

#include <stdint.h>

#include "agent_io.h"

/* CLOCK_MONOTONIC in ns. */
int64_t shell_now_ns(void);

struct event;
struct event_base;

/* An event base whose timers fire on time (timerfd, not epoll's
 * millisecond timeout); NULL when out of memory. */
struct event_base *shell_event_base(void);

/* Arm timer ev of base to fire delay_ns from now (0 if negative). The
 * delay counts from the clock as it is now: libevent would otherwise
 * count it from the time it cached before running the callbacks, and
 * fire early by as long as they took. */
void shell_arm(struct event_base *base, struct event *ev, int64_t delay_ns);

/* Open and bind the lanes' UDP sockets into fd[0..o->n_lanes) (the rest
 * -1). Called before the truth is built, so that datagrams arriving while
 * it is built (seconds on a loaded machine) wait in the socket buffers
 * instead of meeting a closed port. Prints the reason and returns -errno
 * on failure, with every socket it opened closed. */
int shell_bind(const struct shell_opts *o, int fd[ROLE_MAX_LANES]);

/* Close the sockets of shell_bind (a run that ends before shell_run). */
void shell_close(const int fd[ROLE_MAX_LANES]);

/* Run the role on the sockets of shell_bind (which it closes) until its
 * end (or SIGINT/SIGTERM), then write metrics. truth is NULL for the
 * relay. Returns an exit status. */
int shell_run(const struct shell_opts *o, const struct role_truth *truth,
	      const int fd[ROLE_MAX_LANES]);

#endif

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

/* Run the role until its end (or SIGINT/SIGTERM), then write metrics.
 * truth is NULL for the relay. Returns an exit status. */
int shell_run(const struct shell_opts *o, const struct role_truth *truth);

#endif

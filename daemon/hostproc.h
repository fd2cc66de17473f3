/*
 * hostproc.h: one emulated host as a process tree. hostproc_spawn clones a
 * "host shim" into a new network and PID namespace; the shim is PID 1 there,
 * dies with the daemon (PR_SET_PDEATHSIG), waits until the daemon has wired
 * its namespace (hostproc_go), then runs the host's command with its output
 * in the host's log file, forwards SIGTERM/SIGINT to it and exits with its
 * status. When the shim dies the kernel kills everything left in the PID
 * namespace, so a host can never outlive its daemon.
 */
#ifndef RECKON_HOSTPROC_H
#define RECKON_HOSTPROC_H

#include <sys/types.h>

struct hostproc {
	pid_t pid;  /* the shim, as the daemon sees it */
	int go_fd;  /* write end of the start pipe; -1 once started */
	int nsfd;   /* the host's network namespace */
	int exited; /* reaped */
	int status; /* exit status: 0..255, 128+N when killed by signal N */
};

/* What to run: argv (NULL terminated) with envp, stdout and stderr to
 * log_fd (which the caller may close afterwards). */
struct hostproc_cmd {
	char *const *argv;
	char *const *envp;
	int log_fd;
};

/* Exit status of a shim whose daemon vanished before it started. */
#define HOSTPROC_ABORTED 125
/* Exit status when the command could not be executed. */
#define HOSTPROC_NOEXEC 127

int hostproc_spawn(const struct hostproc_cmd *cmd, struct hostproc *hp);

/* Let the shim start its command. */
int hostproc_go(struct hostproc *hp);

/* Signal the shim (it forwards SIGTERM/SIGINT/SIGHUP to the command's
 * process group; SIGKILL ends the whole PID namespace). */
int hostproc_signal(const struct hostproc *hp, int sig);

/* Record a wait status for hp (called with what waitpid returned). */
void hostproc_reaped(struct hostproc *hp, int wstatus);

/* The pids (as the daemon sees them) of every process in the host's
 * network namespace, the shim included; returns how many were found (at
 * most max are stored) or -errno. */
int hostproc_members(const struct hostproc *hp, pid_t *pids, unsigned max);

/* Close the shim's descriptors (after it has been reaped). */
void hostproc_release(struct hostproc *hp);

#endif

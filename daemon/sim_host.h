/*
 * sim_host.h: one scenario host in the simulator, the virtual-time twin
 * of agents/shell.c. It reads the host's args with the agent's own option
 * parser (agents/io/agent_opts.c), builds the same role machine
 * (agents/role: player, observer or relay), wakes it when it asks, hands
 * it the datagrams that arrive, and at its end writes the same metrics
 * files through agents/io/metrics_io.c. Times passed in are absolute
 * virtual ns since the repetition started; the machine sees them relative
 * to its t0, which is the engine's common start (0.5 s + 25 ms per host)
 * unless --start-ns +MS says otherwise.
 */
#ifndef RECKON_SIM_HOST_H
#define RECKON_SIM_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "agent_io.h"
#include "role/observer.h"
#include "role/player.h"
#include "role/relay.h"
#include "scenario.h"
#include "sim_words.h"

struct sim_host {
	const struct sc_host *sh;
	struct sim_words words; /* the option strings of o point here */
	struct shell_opts o;
	uint32_t addr;		     /* IPv4, host byte order */
	const struct role_truth *tr; /* shared by the run, not owned */
	struct role_player *pl;
	struct role_observer *ob;
	struct role_relay rl;
	int64_t t0;   /* absolute virtual ns of the machine's time 0 */
	int ending;   /* observer: frames done, lingering */
	int done;     /* metrics written (or failed) */
	int stopped;  /* ended by the scenario's duration */
	int status;   /* 0, or 1 when writing the metrics failed */
	uint64_t gen; /* wake-up generation (stale events are skipped) */
	uint64_t wakeups, rx, rx_dropped;
	char warn[256];
};

/* Parse host i of sc for repetition rep (seed) writing into run_dir (the
 * agent's RECKON_* context, then its args). 0, or -EINVAL/-ENOTSUP with
 * a reason in err that names nothing (the caller names the host). */
int sim_host_init(struct sim_host *h, const struct scenario *sc, unsigned i,
		  uint64_t seed, unsigned rep, const char *run_dir, char *err,
		  size_t errlen);

/* Text that identifies the truth the host needs (equal keys, equal
 * truth); "" for a relay. */
void sim_host_truth_key(const struct sim_host *h, char *buf, size_t len);

/* Build the machine over truth tr (NULL for a relay). *first gets the
 * absolute time of its first wake-up, INT64_MAX for none. 0 or -errno
 * with the reason in err. */
int sim_host_start(struct sim_host *h, const struct role_truth *tr,
		   int64_t *first, char *err, size_t errlen);

/* Wake at now (absolute). *next gets the next wake-up or INT64_MAX; the
 * host may have finished (h->done). 0 or -errno from the machine or emit. */
int sim_host_wake(struct sim_host *h, int64_t now, role_emit_fn emit, void *arg,
		  int64_t *next);

/* A datagram for lane arrived at now (absolute). Returns 0, or emit's
 * negative value (relay); the machine's own refusals are counted in its
 * counters, as on a socket. */
int sim_host_recv(struct sim_host *h, uint16_t lane, int64_t now,
		  const uint8_t *buf, size_t len, role_emit_fn emit, void *arg);

/* End the host at now and write its metrics (idempotent). stopped: ended
 * by the scenario, like SIGTERM. 0 or -errno (also left in h->status). */
int sim_host_finish(struct sim_host *h, int64_t now, int stopped);

void sim_host_free(struct sim_host *h);

#endif

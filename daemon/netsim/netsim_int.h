/*
 * netsim_int.h: what the files of the network simulator share: the event
 * queue (sim_queue.c), the simulated links (sim_net.c), hosts (sim_host.c)
 * and fps hosts (sim_fps.c) with their bot games (sim_game.c), the second
 * thread (sim_pool.c) and the run (netsim.c, sim_loop.c). The public
 * interface is netsim.h; hosts split their args with scenario_words_split
 * (daemon/scenario/scenario_words.c).
 */
#ifndef RECKON_NETSIM_INT_H
#define RECKON_NETSIM_INT_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "netem.h"
#include "netsim.h"
#include "scenario.h"
#include "agent_io.h"
#include "fps_opts.h"
#include "role/observer.h"
#include "role/player.h"
#include "role/relay.h"

/*
 * sim_queue.c: the simulator's event queue, in (time, sequence number)
 * order. The sequence number is given at push time, so events due at the
 * same instant come out in the order they were pushed and a run is
 * deterministic whatever the queue's internal layout: buckets of one
 * time's events, in a binary min-heap. Pure: no clock, no I/O.
 */

struct sim_event {
	int64_t t;    /* virtual time, ns */
	uint64_t seq; /* push order, the tie-break */
	uint32_t kind;
	uint32_t who;
	uint64_t gen; /* caller's generation, to recognise stale events */
};

#define OPEN_WAYS 8 /* the buckets a push looks for its time in */

struct sim_bucket {
	int64_t t;
	uint64_t seq0; /* its first event's */
	struct sim_event *ev;
	size_t head, n, cap; /* popped, pushed, room */
	uint32_t next_free;
};

struct sim_queue {
	struct sim_bucket *b; /* every bucket, in use or free */
	size_t nb, capb;
	uint32_t free_head;
	uint32_t *heap; /* the buckets in use, earliest first */
	size_t nheap, caph;
	uint32_t open[OPEN_WAYS]; /* the buckets that take pushes */
	unsigned open_next;
	uint64_t next_seq;
};

void sim_queue_init(struct sim_queue *q);
void sim_queue_free(struct sim_queue *q);

/* 0 or -ENOMEM (the queue is unchanged then). */
int sim_queue_push(struct sim_queue *q, int64_t t, uint32_t kind, uint32_t who,
		   uint64_t gen);

/* The earliest event into *out and off the queue: 1, or 0 when empty. */
int sim_queue_pop(struct sim_queue *q, struct sim_event *out);

/* The earliest event without removing it; NULL when empty. */
const struct sim_event *sim_queue_peek(const struct sim_queue *q);

/* Room for need elements of size octets at *p (capacity *cap, doubled
 * as needed): 0, or -ENOMEM with *p and *cap unchanged. The simulator's
 * growing lists share it. aligned: the same for a list that must start
 * on an align-octet boundary (size a multiple of align), moved on each
 * growth. */
int sim_grow(void **p, size_t *cap, size_t need, size_t size);
int sim_grow_aligned(void **p, size_t *cap, size_t need, size_t size,
		     size_t align);

/*
 * sim_pool.c: a second thread for the simulator. sim_pool_run runs
 * fn(arg, 0) on the caller and fn(arg, 1) on the worker, unless the
 * caller is done before the worker begins (then part 1 does not run),
 * and returns when both have returned. new: 0 or -errno; between jobs
 * the worker calls idle(arg), if not NULL: 1, it did a piece of work; 0,
 * none to do now; -1, none left. relax: one poll's pause in a spin.
 */
struct sim_pool;

int sim_pool_new(int (*idle)(void *arg), void *arg, struct sim_pool **out);
void sim_pool_run(struct sim_pool *p, void (*fn)(void *arg, unsigned part),
		  void *arg);
void sim_pool_free(struct sim_pool *p);
void sim_pool_relax(void);

/*
 * sim_net.c: the simulator's network. Every directed pair of hosts is one
 * netem_link, seeded exactly as the userspace bridge seeds it (the
 * repetition's seed and netem_link_id(src name, dst name)); pairs with a
 * [link] section or a [defaults] link exist from the start, the others
 * are made unimpaired on first use, as in bridge.c. A datagram is offered
 * with the length of the Ethernet frame that would carry it (UDP payload
 * + 8 UDP + 20 IPv4 + 14 Ethernet octets), so rate, overhead and slot
 * byte limits count what they count on the bridge. Pure of clocks: the
 * caller passes virtual time.
 */

#define SIM_FRAME_OVERHEAD (14 + 20 + 8) /* Ethernet + IPv4 + UDP */

struct sim_net;

/* One datagram handed back by sim_net_dequeue; data is valid until
 * sim_net_release. */
struct sim_dgram {
	unsigned src, dst;
	uint16_t dport;	      /* UDP destination port */
	int corrupted;	      /* a bit of the frame was flipped */
	int32_t corrupt_byte; /* offset in the Ethernet frame, -1 if not */
	const uint8_t *data;
	size_t len; /* UDP payload */
	int64_t time_ns;
	uint32_t cookie;
	uint64_t same; /* the sender's role_dgram.same */
};

int sim_net_new(const struct scenario *sc, uint64_t seed, struct sim_net **out);
void sim_net_free(struct sim_net *n);

/* Offer a datagram on src->dst at now. *next gets the link's earliest
 * delivery time afterwards (INT64_MAX: nothing queued). same is the
 * sender's role_dgram.same: a payload src offered with the same value
 * and port that is still in flight is shared, not copied. part (0 or 1)
 * is the calling thread's: two threads may offer at once when their
 * senders differ and nothing else runs on the network meanwhile. 0 or
 * -errno. */
int sim_net_offer(struct sim_net *n, unsigned part, unsigned src, unsigned dst,
		  uint16_t dport, const uint8_t *data, size_t len,
		  uint64_t same, int64_t now, int64_t *next);

/* sim_net_offer in three steps, for an offer whose link is fed later
 * or on another thread. reserve: the payload's slot (shared or copied,
 * as sim_net_offer), held for the offer; *cookie names it. enqueue: the
 * slot's datagram of len octets offered on src->dst at now; *copies gets
 * how many copies went onto the link (0 to 2), *next as sim_net_offer.
 * Two threads may enqueue at once on different links. settle: the
 * reservation turned into the copies' references (0: the slot may be
 * released), on the reserving thread, with no offer under way. */
int sim_net_reserve(struct sim_net *n, unsigned part, unsigned src,
		    uint16_t dport, const uint8_t *data, size_t len,
		    uint64_t same, uint32_t *cookie);
int sim_net_enqueue(struct sim_net *n, unsigned src, unsigned dst,
		    uint32_t cookie, size_t len, int64_t now, int *copies,
		    int64_t *next);
void sim_net_settle(struct sim_net *n, uint32_t cookie, int copies);

/* Pop the next copy due on src->dst at or before now: 1 and *out, or 0. */
int sim_net_dequeue(struct sim_net *n, unsigned src, unsigned dst, int64_t now,
		    struct sim_dgram *out);

/* Done with a dequeued copy (its bytes may be reused after this). */
void sim_net_release(struct sim_net *n, const struct sim_dgram *d);

/* Earliest delivery time on src->dst, INT64_MAX when empty. */
int64_t sim_net_next(const struct sim_net *n, unsigned src, unsigned dst);

/* Whether src->dst (built) never delivers a datagram at the instant it
 * was offered (netem_link_least_delay above 0). */
int sim_net_sends_later(const struct sim_net *n, unsigned src, unsigned dst);

/* netem_link_hold on src->dst (built): k copies dequeued ahead of time
 * still count against its limit. */
void sim_net_hold(struct sim_net *n, unsigned src, unsigned dst, uint32_t k);

/* Replace the spec of src->dst at now ([schedule]); creates the link. */
int sim_net_set_spec(struct sim_net *n, unsigned src, unsigned dst,
		     const struct netem_spec *s, int64_t now);

/* Counters of src->dst (zeros for a pair that never carried anything). */
void sim_net_counters(const struct sim_net *n, unsigned src, unsigned dst,
		      struct netem_counters *c);

/*
 * sim_host.c: one scenario host in the simulator, the virtual-time twin
 * of agents/shell.c. It reads the host's args with the agent's own option
 * parser (agents/io/agent_opts.c), builds the same role machine
 * (agents/role: player, observer or relay; fps roles: sim_fps.c below),
 * wakes it when it asks, hands it the datagrams that arrive, and at its
 * end writes the same metrics files through agents/io/metrics_io.c. Times
 * passed in are absolute virtual ns since the repetition started; the machine
 * sees them relative to its t0, which is the emulator's common start (0.5 s +
 * 25 ms per host) unless --start-ns +MS says otherwise.
 */

struct sim_host {
	const struct sc_host *sh;
	struct sc_words words; /* the option strings of o point here */
	struct shell_opts o;
	uint32_t addr;		     /* IPv4, host byte order */
	const struct role_truth *tr; /* shared by the run, not owned */
	struct role_player *pl;
	struct role_observer *ob;
	struct view_rec *vr; /* observer's --samples recording, or NULL */
	struct role_relay rl;
	int64_t t0;   /* absolute virtual ns of the machine's time 0 */
	int ending;   /* observer: frames done, lingering */
	int done;     /* metrics written (or failed) */
	int stopped;  /* ended by the scenario's duration */
	int status;   /* 0, or 1 when writing the metrics failed */
	uint64_t gen; /* wake-up generation (stale events are skipped) */
	uint64_t wakeups, rx, rx_dropped;
	struct sim_fps *fps; /* fps-server / fps-client (sim_fps.c) */
	char warn[256];
	char note[320]; /* what the agent would print at its end */
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

/*
 * sim_fps.c: the lag-compensation roles fps-server and fps-client in the
 * simulator (the twin of agents/cmd_fps.c). sim_host_init hands such a
 * host to sim_fps_init; netsim.c starts, wakes, routes, delivers to and
 * finishes it through these, and sim_host_free frees it. Times are
 * absolute virtual ns, as for the other hosts.
 */
struct sim_fps;
struct sim_fps_games; /* the maps and bot games of a repetition */

/* 0 and *server for "fps-server"/"fps-client", -ENOENT for other roles. */
int sim_fps_role(const char *role, int *server);
int sim_fps_init(struct sim_host *h, const struct scenario *sc, unsigned i,
		 uint64_t seed, unsigned rep, const char *run_dir, char *err,
		 size_t errlen);
/* A client's --server address (host byte order), 0 for the server. */
uint32_t sim_fps_server_addr(const struct sim_host *h);
void sim_fps_set_server(struct sim_host *h, int host);
/* stepwise: the run may use two threads; then each bot game is played in
 * steps as the run goes (sim_game.c), else whole when it is set up */
int sim_fps_games_new(unsigned cap, int stepwise, struct sim_fps_games **out);
void sim_fps_games_free(struct sim_fps_games *g);
/* Wait until every game is played two ticks past t (sim_game.c); 0, or
 * the error of a game that failed. */
int sim_fps_games_wait(struct sim_fps_games *g, int64_t t);
/* One step of a game not played to its end yet: 1, or 0 when none is
 * left (or another thread is playing a step). */
int sim_fps_games_play(struct sim_fps_games *g);
/* Whether every game is played two ticks past t, without waiting. */
int sim_fps_games_ready(const struct sim_fps_games *g, int64_t t);
int sim_fps_start(struct sim_host *h, struct sim_fps_games *gs, int64_t *first,
		  char *err, size_t errlen);
int sim_fps_is_server(const struct sim_host *h);
/* The host runs on simulator thread part (0 or 1) until told otherwise: a
 * client uses that thread's cache of decoded bundles. */
void sim_fps_on_thread(struct sim_host *h, unsigned part);
/* Where a datagram the host emits goes: 0 with *dst (a host index, -1
 * for no host) and *port, or ROLE_EMIT_FAILED (no such peer yet). */
int sim_fps_route(const struct sim_host *h, const struct role_dgram *d,
		  int *dst, uint16_t *port);
int sim_fps_wake(struct sim_host *h, int64_t now, role_emit_fn emit, void *arg,
		 int64_t *next);
int sim_fps_recv(struct sim_host *h, const struct sim_dgram *d, int64_t now,
		 role_emit_fn emit, void *arg);
int sim_fps_finish(struct sim_host *h, int64_t now, int stopped);
void sim_fps_free(struct sim_host *h);

/*
 * sim_game.c: a client's bot game played in steps while the run goes on.
 * start: the world set up and tracks of full length (their samples
 * written as the game is played; owned by the caller as
 * fps_game_tracks's are: fps_game_tracks_free); 0 or -errno.
 * wait: plays until every sample up to two ticks past t is in place; 0 or
 * the world's -errno. play: one step, unless the game is over or another
 * thread is playing one: 1 if it played. free: the tracks stay. wait and
 * play may be called from two threads at once.
 */
struct sim_game_feed;
int sim_game_feed_start(const struct fps_opts *o, const struct map *m,
			struct fps_track **tracks, struct sim_game_feed **out);
int sim_game_feed_wait(struct sim_game_feed *f, int64_t t);
int sim_game_feed_play(struct sim_game_feed *f);
int sim_game_feed_ready(const struct sim_game_feed *f, int64_t t);
void sim_game_feed_free(struct sim_game_feed *f);

/*
 * netsim.c and sim_loop.c: one repetition. netsim.c builds it (hosts,
 * links, truth, the first wake-ups) and writes its results; sim_loop.c
 * runs its events. What both see of the run:
 */
enum { EV_END, EV_SCHED, EV_WAKE, EV_LINK };

struct truth_slot {
	char key[2 * PATH_MAX + 128]; /* trace and training session */
	struct role_truth tr;
};

struct sim_batch;

struct sim {
	const struct scenario *sc;
	unsigned rep, n, live, cur;
	uint64_t seed;
	const char *dir;
	struct sim_host *h;
	int *dest_host; /* n * SHELL_MAX_DEST: host of each --to */
	struct sim_net *net;
	struct sim_queue q;
	uint64_t *link_gen;  /* n * n */
	int64_t *link_armed; /* n * n: time of the live link event */
	struct truth_slot *truth;
	unsigned ntruth;
	struct sim_fps_games *games; /* maps and bot games of fps hosts */
	struct sim_pool *pool;	     /* the second thread, or NULL */
	struct sim_batch *bt;	     /* with the pool: the batch at hand */
	int64_t now;
	FILE *changes;
	struct sim_stats st;
	uint64_t unroutable, to_self, corrupt_dropped;
};

/* sim_loop.c. start: the second thread when the run has enough fps
 * hosts and threads are allowed (netsim.h, sim_set_threads; without
 * one, a warning and one thread); 0, -EINVAL (a bad RECKON_SIM_THREADS,
 * logged), -ENOMEM. run: the events until no
 * host is live; 0 or the first fatal -errno. free: what start made. */
int sim_loop_start(struct sim *s);
/* The threads a run may use: 1 or 2, 0 for a bad RECKON_SIM_THREADS. */
unsigned sim_loop_threads(void);
int sim_loop_run(struct sim *s);
void sim_loop_free(struct sim *s);

#endif

/*
 * sim_game.c: a bot game played in steps while the simulation runs,
 * instead of whole before it starts: by the second thread between its
 * jobs (sim_pool.c's idle work), and by the loop itself when it needs a
 * time the game has not reached. The world (agents/world sim.c) runs a
 * tick of game time a step (fps_game_open, fps_game_play: the same
 * samples as the whole game, as for an emulated client that plays its
 * game as it goes), one thread at a time; every bot's samples go into its
 * track, allocated at its full length up front so a client never sees it
 * move or grow, and the time up to which every track is filled is
 * published with release order. Before the loop runs an event at time t
 * the game must be filled two ticks past t: a client reads its sample at
 * or before its time and looks at the next, scanning forward from its last
 * answer (fps_client.c own_index; the simulator never asks a client for an
 * earlier time than before), and its time is behind the simulator's by its
 * start offset. The game has no thread of its own, so a run's threads
 * never outnumber the two it may use.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "netsim_int.h"

#define STEP_TICKS 1 /* game ticks played per step */

struct sim_game_feed {
	pthread_mutex_t play; /* held while a thread plays a step */
	struct fps_game g;
	struct fps_track *k; /* the tracks, bots of them */
	int bots;
	size_t *at; /* samples written per bot */
	int64_t tick_ns, until;
	_Atomic int64_t done; /* every sample before it is in place */
	int err; /* the world's error, written before done = INT64_MAX */
};

/* Every bot's samples of the last chunk into their places. */
static int place(struct sim_game_feed *f)
{
	for (size_t j = 0; j < f->g.chunk.n; j++) {
		const struct trace_sample *x = &f->g.chunk.s[j];

		if ((int)x->entity >= f->bots ||
		    f->at[x->entity] >= f->k[x->entity].tr.n)
			return -ERANGE;
		f->k[x->entity].tr.s[f->at[x->entity]++] = *x;
	}
	return 0;
}

/* One step of the game, with f->play held; done published. */
static void step(struct sim_game_feed *f)
{
	int rc = 0;

	if (atomic_load_explicit(&f->done, memory_order_relaxed) == INT64_MAX)
		return;
	if (fps_game_next(&f->g) != INT64_MAX) {
		f->until += STEP_TICKS * f->tick_ns;
		rc = fps_game_play(&f->g, f->until);
		if (!rc)
			rc = place(f);
		if (!rc) {
			atomic_store_explicit(&f->done, f->until,
					      memory_order_release);
			return;
		}
	}
	/* a whole game fills every track to its end */
	for (int b = 0; !rc && b < f->bots; b++)
		if (f->at[b] != f->k[b].tr.n)
			rc = -ERANGE;
	f->err = rc;
	atomic_store_explicit(&f->done, INT64_MAX, memory_order_release);
}

int sim_game_feed_play(struct sim_game_feed *f)
{
	if (atomic_load_explicit(&f->done, memory_order_acquire) == INT64_MAX ||
	    pthread_mutex_trylock(&f->play))
		return 0;
	step(f);
	pthread_mutex_unlock(&f->play);
	return 1;
}

/* Tracks of the game's full length, with their counts set. Their samples
 * are not cleared: each is written by a step before any client may read
 * it (sim_game_feed_wait), and writing them is the first touch of their
 * pages, on the thread that plays the step. */
static int tracks_alloc(struct sim_game_feed *f, long ticks)
{
	f->k = calloc((size_t)f->bots, sizeof(*f->k));
	f->at = calloc((size_t)f->bots, sizeof(*f->at));
	if (!f->k || !f->at || ticks < 1 ||
	    (size_t)ticks > SIZE_MAX / sizeof(*f->k->tr.s))
		return -ENOMEM;
	for (int b = 0; b < f->bots; b++) {
		f->k[b].tr.s = malloc((size_t)ticks * sizeof(*f->k[b].tr.s));
		if (!f->k[b].tr.s)
			return -ENOMEM;
		f->k[b].tr.n = f->k[b].tr.cap = (size_t)ticks;
	}
	return 0;
}

int sim_game_feed_start(const struct fps_opts *o, const struct map *m,
			struct fps_track **tracks, struct sim_game_feed **out)
{
	struct sim_game_feed *f = calloc(1, sizeof(*f));
	int rc;

	if (!f)
		return -ENOMEM;
	f->bots = o->bots;
	rc = fps_game_open(o, m, &f->g);
	if (rc) {
		free(f);
		return rc;
	}
	f->tick_ns = f->g.chunk.tick_ns;
	rc = tracks_alloc(f, fps_game_ticks(&f->g));
	if (rc) {
		fps_game_tracks_free(f->k, f->bots);
		fps_game_close(&f->g);
		free(f->at);
		free(f);
		return rc;
	}
	pthread_mutex_init(&f->play, NULL);
	*tracks = f->k;
	*out = f;
	return 0;
}

/* The game time t's events need: two ticks past it. */
static int64_t needed(const struct sim_game_feed *f, int64_t t)
{
	return t > INT64_MAX - 3 * f->tick_ns ? INT64_MAX - 1
					      : t + 2 * f->tick_ns;
}

int sim_game_feed_ready(const struct sim_game_feed *f, int64_t t)
{
	return atomic_load_explicit(&f->done, memory_order_acquire) >
	       needed(f, t);
}

int sim_game_feed_wait(struct sim_game_feed *f, int64_t t)
{
	int64_t need = needed(f, t), done;

	while ((done = atomic_load_explicit(&f->done, memory_order_acquire)) <=
	       need) {
		pthread_mutex_lock(&f->play);
		if (atomic_load_explicit(&f->done, memory_order_relaxed) <=
		    need)
			step(f);
		pthread_mutex_unlock(&f->play);
	}
	return done == INT64_MAX ? f->err : 0;
}

void sim_game_feed_free(struct sim_game_feed *f)
{
	if (!f)
		return;
	pthread_mutex_destroy(&f->play);
	fps_game_close(&f->g);
	free(f->at);
	free(f);
}

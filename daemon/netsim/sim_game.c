/*
 * sim_game.c: a bot game played on its own thread while the simulation
 * runs, instead of whole before it starts. The world (agents/world sim.c)
 * runs a chunk of game time at a time (fps_game_open, fps_game_play: the
 * same samples as the whole game, as for an emulated client that plays
 * its game as it goes); every bot's samples go into its track, allocated
 * at its full length up front so a client never sees it move or grow, and
 * the time up to which every track is filled is published with release
 * order. Before the loop runs an event at time t it waits until the game
 * is filled two ticks past t: a client reads its sample at or before its
 * time and looks at the next, scanning forward from its last answer
 * (fps_client.c own_index; the simulator never asks a client for an
 * earlier time than before), and its time is behind the simulator's by
 * its start offset.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "netsim_int.h"

#define CHUNK_NS 100000000LL /* game time played per step: 0.1 s */

struct sim_game_feed {
	pthread_t th;
	struct fps_game g;
	struct fps_track *k; /* the tracks, bots of them */
	int bots;
	size_t *at; /* samples written per bot */
	int64_t tick_ns;
	_Atomic int64_t done; /* every sample before it is in place */
	_Atomic int stop;     /* the run ended: play no further */
	int err; /* the world's error, written before done = INT64_MAX */
	pthread_mutex_t mu;
	pthread_cond_t cv;
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

static void publish(struct sim_game_feed *f, int64_t done)
{
	pthread_mutex_lock(&f->mu);
	atomic_store_explicit(&f->done, done, memory_order_release);
	pthread_cond_broadcast(&f->cv);
	pthread_mutex_unlock(&f->mu);
}

static void *play(void *arg)
{
	struct sim_game_feed *f = arg;
	int64_t until = 0;
	int rc = 0;

	while (!rc && fps_game_next(&f->g) != INT64_MAX &&
	       !atomic_load_explicit(&f->stop, memory_order_relaxed)) {
		until += CHUNK_NS;
		rc = fps_game_play(&f->g, until);
		if (!rc)
			rc = place(f);
		if (!rc)
			publish(f, until);
	}
	/* a whole game fills every track to its end */
	for (int b = 0; !rc && !f->stop && b < f->bots; b++)
		if (f->at[b] != f->k[b].tr.n)
			rc = -ERANGE;
	f->err = rc;
	publish(f, INT64_MAX);
	return NULL;
}

/* Tracks of the game's full length, zeroed, with their counts set. */
static int tracks_alloc(struct sim_game_feed *f, long ticks)
{
	f->k = calloc((size_t)f->bots, sizeof(*f->k));
	f->at = calloc((size_t)f->bots, sizeof(*f->at));
	if (!f->k || !f->at || ticks < 1)
		return -ENOMEM;
	for (int b = 0; b < f->bots; b++) {
		f->k[b].tr.s = calloc((size_t)ticks, sizeof(*f->k[b].tr.s));
		if (!f->k[b].tr.s)
			return -ENOMEM;
		f->k[b].tr.n = f->k[b].tr.cap = (size_t)ticks;
	}
	return 0;
}

static void feed_free(struct sim_game_feed *f)
{
	fps_game_close(&f->g);
	free(f->at);
	free(f);
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
	pthread_mutex_init(&f->mu, NULL);
	pthread_cond_init(&f->cv, NULL);
	if (!rc)
		rc = -pthread_create(&f->th, NULL, play, f);
	if (rc) {
		fps_game_tracks_free(f->k, f->bots);
		pthread_mutex_destroy(&f->mu);
		pthread_cond_destroy(&f->cv);
		feed_free(f);
		return rc;
	}
	*tracks = f->k;
	*out = f;
	return 0;
}

int sim_game_feed_wait(struct sim_game_feed *f, int64_t t)
{
	int64_t need = t > INT64_MAX - 3 * f->tick_ns ? INT64_MAX - 1
						       : t + 2 * f->tick_ns;
	int64_t done = atomic_load_explicit(&f->done, memory_order_acquire);

	if (done <= need) {
		pthread_mutex_lock(&f->mu);
		while ((done = atomic_load_explicit(
				&f->done, memory_order_acquire)) <= need)
			pthread_cond_wait(&f->cv, &f->mu);
		pthread_mutex_unlock(&f->mu);
	}
	return done == INT64_MAX ? f->err : 0;
}

void sim_game_feed_free(struct sim_game_feed *f)
{
	if (!f)
		return;
	atomic_store_explicit(&f->stop, 1, memory_order_relaxed);
	pthread_join(f->th, NULL);
	pthread_mutex_destroy(&f->mu);
	pthread_cond_destroy(&f->cv);
	feed_free(f);
}

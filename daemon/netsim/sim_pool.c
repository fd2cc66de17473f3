/*
 * sim_pool.c: the simulator's second thread (netsim_int.h). One job is
 * split in two parts: the worker runs part 1 while the caller runs part
 * 0, and sim_pool_run returns when both are done (fork and join). A
 * caller done with part 0 before the worker has begun part 1 calls it
 * off instead of waiting (the parts share out the work as they go, so
 * part 0 has done it all); the worker then skips that job. Jobs
 * come in quick succession (several per simulated tick), so each side
 * first spins a little on the other's generation counter and only then
 * sleeps on a condition variable; a pool that waits for work between
 * repetitions or behind another process costs no CPU. Between jobs the
 * worker first does the pool's idle work (the bot games' next steps),
 * a piece at a time when there is one to do, looking for a new job
 * between two pieces and sleeping only after a spin's worth of polls
 * with none.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "netsim_int.h"

#define SPIN 4000 /* polls before sleeping, some tens of microseconds */
#define PEEK 200  /* polls between two pieces of idle work */

struct sim_pool {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t work, done;
	_Atomic uint64_t posted, finished;
	_Atomic uint64_t claimed; /* the last job a side began part 1 of,
				   * or, having done part 0, called off */
	void (*fn)(void *arg, unsigned part);
	void *arg;
	int (*idle)(void *arg); /* the worker's work between jobs */
	void *idle_arg;
	_Atomic int quit;
};

void sim_pool_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

static int reached(_Atomic uint64_t *c, uint64_t want, int polls)
{
	for (int i = 0; i < polls; i++) {
		if (atomic_load_explicit(c, memory_order_acquire) >= want)
			return 1;
		sim_pool_relax();
	}
	return 0;
}

/* Wait until *c reaches want: spin (doing idle work between polls, when
 * there is some), then sleep on cv (signalled under mu by the side that
 * advances c). */
static void await(struct sim_pool *p, _Atomic uint64_t *c, uint64_t want,
		  pthread_cond_t *cv, int (*idle)(void *), void *arg)
{
	int quiet = 0; /* polls since idle work was last done */

	while (idle && quiet < SPIN && !reached(c, want, PEEK) &&
	       !atomic_load(&p->quit)) {
		int r = idle(arg);

		if (r < 0)
			break;
		quiet = r ? 0 : quiet + PEEK;
	}
	if (reached(c, want, SPIN))
		return;
	pthread_mutex_lock(&p->mu);
	while (atomic_load_explicit(c, memory_order_acquire) < want && !p->quit)
		pthread_cond_wait(cv, &p->mu);
	pthread_mutex_unlock(&p->mu);
}

static void advance(struct sim_pool *p, _Atomic uint64_t *c, uint64_t to,
		    pthread_cond_t *cv)
{
	pthread_mutex_lock(&p->mu);
	atomic_store_explicit(c, to, memory_order_release);
	pthread_cond_signal(cv);
	pthread_mutex_unlock(&p->mu);
}

/* Take job's part 1 (the worker, to run it; the caller, to call it off):
 * 1 for the side that comes first, 0 for the other. */
static int claim(struct sim_pool *p, uint64_t job)
{
	uint64_t prev = job - 1;

	return atomic_compare_exchange_strong_explicit(&p->claimed, &prev, job,
						       memory_order_acq_rel,
						       memory_order_acquire);
}

static void *worker(void *arg)
{
	struct sim_pool *p = arg;

	for (uint64_t job = 1;; job++) {
		await(p, &p->posted, job, &p->work, p->idle, p->idle_arg);
		pthread_mutex_lock(&p->mu);
		if (p->quit) {
			pthread_mutex_unlock(&p->mu);
			return NULL;
		}
		pthread_mutex_unlock(&p->mu);
		if (!claim(p, job))
			continue; /* the caller did the whole job */
		p->fn(p->arg, 1);
		advance(p, &p->finished, job, &p->done);
	}
}

int sim_pool_new(int (*idle)(void *arg), void *arg, struct sim_pool **out)
{
	struct sim_pool *p = calloc(1, sizeof(*p));
	int err;

	if (!p)
		return -ENOMEM;
	p->idle = idle;
	p->idle_arg = arg;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
	err = pthread_create(&p->th, NULL, worker, p);
	if (err) {
		pthread_cond_destroy(&p->work);
		pthread_cond_destroy(&p->done);
		pthread_mutex_destroy(&p->mu);
		free(p);
		return -err;
	}
	*out = p;
	return 0;
}

void sim_pool_run(struct sim_pool *p, void (*fn)(void *arg, unsigned part),
		  void *arg)
{
	uint64_t job =
		atomic_load_explicit(&p->posted, memory_order_relaxed) + 1;

	p->fn = fn;
	p->arg = arg;
	advance(p, &p->posted, job, &p->work);
	fn(arg, 0);
	if (!claim(p, job)) /* the worker began: wait for it */
		await(p, &p->finished, job, &p->done, NULL, NULL);
}

void sim_pool_free(struct sim_pool *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->quit = 1;
	pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->mu);
	pthread_join(p->th, NULL);
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->done);
	pthread_mutex_destroy(&p->mu);
	free(p);
}

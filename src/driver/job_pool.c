#include "driver/job_pool.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

/* Each wake-up costs a few microseconds, as much as the back end of a small
 * kernel: workers are woken only when idle, and the caller, when it waits
 * for room, only once half the window is free again.
 *
 * A caller that waits (for room, or for the end) runs queued jobs itself
 * meanwhile: with N - 1 workers beside it, -j N keeps N threads busy and
 * never more, which on N cores beats N workers beside a busy caller (three
 * threads sharing two cores gave the caller, the pipeline's bottleneck,
 * two thirds of a core: 1.6x instead of 1.9x on one file of kernels). */
struct JobPool {
	pthread_mutex_t lock;
	pthread_cond_t work;        /* a job was queued, or the pool closes */
	pthread_cond_t done;        /* unfinished fell to wake_at */
	JobFn fn;
	void **queue;               /* a ring of `window` slots */
	int window, head, queued;   /* queued: waiting in the ring */
	int unfinished;             /* queued or running */
	int idle;                   /* workers waiting for work */
	int wake_at;                /* the caller waits until unfinished <= wake_at; -1: not waiting */
	bool closing;
	pthread_t *threads;
	int nthreads;
};

/* Takes the next queued job and runs it in the calling thread (a worker,
 * or the caller waiting for room or for the end); the lock is held on
 * entry and on return. False when nothing is queued. */
static bool run_queued(JobPool *p)
{
	if (p->queued == 0)
		return false;
	void *job = p->queue[p->head];
	p->head = (p->head + 1) % p->window;
	p->queued--;
	pthread_mutex_unlock(&p->lock);
	p->fn(job);
	pthread_mutex_lock(&p->lock);
	p->unfinished--;
	return true;
}

static void *worker(void *arg)
{
	JobPool *p = arg;
	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (p->queued == 0 && !p->closing) {
			p->idle++;
			pthread_cond_wait(&p->work, &p->lock);
			p->idle--;
		}
		if (!run_queued(p))
			break;
		if (p->unfinished <= p->wake_at)
			pthread_cond_signal(&p->done);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

JobPool *job_pool_start(int nworkers, int window, JobFn fn)
{
	JobPool *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->fn = fn;
	p->window = window < 1 ? 1 : window;
	p->wake_at = -1;
	p->queue = calloc((size_t)p->window, sizeof *p->queue);
	p->threads = calloc((size_t)(nworkers < 1 ? 1 : nworkers), sizeof *p->threads);
	if (!p->queue || !p->threads || pthread_mutex_init(&p->lock, NULL) != 0) {
		free(p->queue);
		free(p->threads);
		free(p);
		return NULL;
	}
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
	for (int k = 0; k < nworkers; k++) {
		if (pthread_create(&p->threads[k], NULL, worker, p) != 0)
			break;
		p->nthreads++;
	}
	if (p->nthreads == 0) {
		job_pool_finish(p);
		return NULL;
	}
	return p;
}

void job_pool_submit(JobPool *p, void *job)
{
	pthread_mutex_lock(&p->lock);
	if (p->unfinished >= p->window) {
		p->wake_at = p->window / 2;
		while (p->unfinished > p->wake_at)
			if (!run_queued(p))
				pthread_cond_wait(&p->done, &p->lock);
		p->wake_at = -1;
	}
	p->queue[(p->head + p->queued) % p->window] = job;
	p->queued++;
	p->unfinished++;
	if (p->idle > 0)
		pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->lock);
}

void job_pool_wait(JobPool *p)
{
	pthread_mutex_lock(&p->lock);
	p->wake_at = 0;
	while (p->unfinished > 0)
		if (!run_queued(p))
			pthread_cond_wait(&p->done, &p->lock);
	p->wake_at = -1;
	pthread_mutex_unlock(&p->lock);
}

void job_pool_finish(JobPool *p)
{
	pthread_mutex_lock(&p->lock);
	p->closing = true;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->lock);
	for (int k = 0; k < p->nthreads; k++)
		pthread_join(p->threads[k], NULL);
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->done);
	pthread_mutex_destroy(&p->lock);
	free(p->queue);
	free(p->threads);
	free(p);
}

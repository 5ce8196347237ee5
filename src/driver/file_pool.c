#include "driver/file_pool.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct FilePool {
	pthread_mutex_t lock;
	pthread_cond_t changed;     /* a file finished, or one was taken */
	const char *const *paths;
	const bool *wanted;
	int npaths;
	const ApiRun *run;
	int next;                   /* the next file a worker picks up */
	int taken;                  /* files the main thread has written */
	int window;                 /* how far ahead of `taken` workers may go */
	FileResult *results;
	bool *done;
	pthread_t *threads;
	int nthreads;
};

static void run_one(const FilePool *p, int i, FileResult *fr)
{
	/* volatile: read again after a longjmp */
	FileResult *volatile out = fr;
	XdieTrap trap;
	XdieTrap *prev = xdie_trap(NULL);
	if (setjmp(trap.env)) {
		xdie_trap(prev);
		snprintf(out->fatal, sizeof out->fatal, "%s", trap.msg[0] ? trap.msg : "out of memory");
		return;
	}
	xdie_trap(&trap);
	if (input_read(&out->in, p->paths[i], out->err, sizeof out->err) != 0)
		out->read_failed = true;
	else
		out->result = api_run(p->run, out->in.name, out->in.data, out->in.len);
	xdie_trap(prev);
}

static void *worker(void *arg)
{
	FilePool *p = arg;
	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (p->next < p->npaths && !p->wanted[p->next])
			p->next++;
		if (p->next >= p->npaths)
			break;
		/* Results wait in memory until written: keep only a few ahead. */
		if (p->next - p->taken >= p->window) {
			pthread_cond_wait(&p->changed, &p->lock);
			continue;
		}
		int i = p->next++;
		pthread_mutex_unlock(&p->lock);
		run_one(p, i, &p->results[i]);
		pthread_mutex_lock(&p->lock);
		p->done[i] = true;
		pthread_cond_broadcast(&p->changed);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

FilePool *file_pool_start(const char *const *paths, const bool *wanted, int npaths, int nworkers,
                          const ApiRun *run)
{
	FilePool *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->paths = paths;
	p->wanted = wanted;
	p->npaths = npaths;
	p->run = run;
	p->window = 4 * nworkers;
	p->results = calloc((size_t)npaths, sizeof *p->results);
	p->done = calloc((size_t)npaths, sizeof *p->done);
	p->threads = calloc((size_t)nworkers, sizeof *p->threads);
	if (!p->results || !p->done || !p->threads || pthread_mutex_init(&p->lock, NULL) != 0) {
		free(p->results);
		free(p->done);
		free(p->threads);
		free(p);
		return NULL;
	}
	pthread_cond_init(&p->changed, NULL);
	for (int k = 0; k < nworkers; k++) {
		if (pthread_create(&p->threads[k], NULL, worker, p) != 0)
			break;
		p->nthreads++;
	}
	if (p->nthreads == 0) {
		file_pool_finish(p);
		return NULL;
	}
	return p;
}

FileResult file_pool_take(FilePool *p, int i)
{
	pthread_mutex_lock(&p->lock);
	/* Files the caller did itself (not wanted) move the window too:
	 * without this, file i could lie beyond it and never start. */
	p->taken = i;
	pthread_cond_broadcast(&p->changed);
	while (!p->done[i])
		pthread_cond_wait(&p->changed, &p->lock);
	p->taken = i + 1;
	pthread_cond_broadcast(&p->changed);
	FileResult fr = p->results[i];
	/* handed over: not freed again by file_pool_finish */
	p->results[i].result = NULL;
	p->results[i].in.data = NULL;
	pthread_mutex_unlock(&p->lock);
	return fr;
}

void file_pool_finish(FilePool *p)
{
	pthread_mutex_lock(&p->lock);
	/* nothing more will be taken: let the workers run to the end */
	p->window = p->npaths + 1;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
	for (int k = 0; k < p->nthreads; k++)
		pthread_join(p->threads[k], NULL);
	for (int i = 0; i < p->npaths; i++) {
		FileResult *fr = &p->results[i];
		if (fr->result)
			ptxsurf_result_free(fr->result);
		if (!fr->read_failed && fr->in.data)
			input_free(&fr->in);
	}
	pthread_cond_destroy(&p->changed);
	pthread_mutex_destroy(&p->lock);
	free(p->results);
	free(p->done);
	free(p->threads);
	free(p);
}

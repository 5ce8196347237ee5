/* The parser/checker pipeline (see check_pipe.h).
 *
 * Items are small (the many-functions shape: about 300 bytes, 7 us of
 * checking each), so the hand-over must cost far less than a wake-up: in
 * the steady state neither side sleeps. The checker is woken only when it
 * waits and a few items are queued (or the parser needs it: it waits for
 * an arena, a sync, the end), the parser only when it waits and half the
 * arenas are free again (or the queue ran dry). */
#include "driver/check_pipe.h"
#include "base/xalloc.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* Arenas in flight: the parser's, the items queued, the last one checked
 * (the next may still point into it). */
enum { PIPE_ARENAS = 32, PIPE_WAKE_QUEUED = 16 };

typedef struct PipeEntry {
	const Item *it;
	Arena *arena;
	unsigned parse_errors;
} PipeEntry;

struct CheckPipe {
	pthread_mutex_t lock;
	pthread_cond_t work;        /* items queued, or the end */
	pthread_cond_t room;        /* arenas freed, or the queue ran dry */
	PipeCheckFn *fn;
	void *ctx;
	Arena arenas[PIPE_ARENAS];
	Arena *free_arenas[PIPE_ARENAS];   /* a stack: the warmest on top */
	int nfree;
	PipeEntry queue[PIPE_ARENAS];      /* a ring */
	int head, queued;
	bool checking;              /* the checker thread is inside fn */
	bool checker_waits, parser_waits;
	bool closing, discard;
	/* the parser's side */
	Arena *cur;                 /* where the parser builds its item */
	/* the checker's side (whoever holds the checker's state) */
	Arena *prev;                /* the last item checked's */
	bool failed;                /* xdie on the checker thread */
	char fatal[256];
	pthread_t thread;
};

/* The item after `prev`'s is checked: prev's arena is free. Lock held. */
static void release_prev(CheckPipe *p, Arena *next)
{
	if (p->prev)
		p->free_arenas[p->nfree++] = p->prev;
	p->prev = next;
}

/* Runs fn under a trap: out of memory stops the checking, and
 * check_pipe_stop raises it on the caller's thread. */
static void check_trapped(CheckPipe *p, const PipeEntry *e)
{
	XdieTrap trap;
	XdieTrap *prev = xdie_trap(NULL);
	if (setjmp(trap.env)) {
		xdie_trap(prev);
		snprintf(p->fatal, sizeof p->fatal, "%s", trap.msg[0] ? trap.msg : "out of memory");
		p->failed = true;
		return;
	}
	xdie_trap(&trap);
	p->fn(p->ctx, e->it, e->parse_errors);
	xdie_trap(prev);
}

static void *checker(void *arg)
{
	CheckPipe *p = arg;
	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (p->queued == 0 && !p->closing) {
			p->checker_waits = true;
			pthread_cond_wait(&p->work, &p->lock);
			p->checker_waits = false;
		}
		if (p->queued == 0)
			break;
		PipeEntry e = p->queue[p->head];
		p->head = (p->head + 1) % PIPE_ARENAS;
		p->queued--;
		bool skip = p->discard || p->failed;
		p->checking = true;
		pthread_mutex_unlock(&p->lock);
		if (!skip)
			check_trapped(p, &e);
		pthread_mutex_lock(&p->lock);
		p->checking = false;
		release_prev(p, e.arena);
		if (p->parser_waits && (p->nfree >= PIPE_ARENAS / 2 || p->queued == 0))
			pthread_cond_signal(&p->room);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

CheckPipe *check_pipe_start(PipeCheckFn *fn, void *ctx)
{
	CheckPipe *p = xcalloc(1, sizeof *p);
	p->fn = fn;
	p->ctx = ctx;
	for (int i = 0; i < PIPE_ARENAS; i++) {
		arena_init(&p->arenas[i]);
		p->free_arenas[i] = &p->arenas[PIPE_ARENAS - 1 - i];
	}
	p->nfree = PIPE_ARENAS;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->room, NULL);
	if (pthread_create(&p->thread, NULL, checker, p) != 0) {
		pthread_cond_destroy(&p->room);
		pthread_cond_destroy(&p->work);
		pthread_mutex_destroy(&p->lock);
		free(p);
		return NULL;
	}
	return p;
}

/* Lock held: the checker must run (the parser is about to wait). */
static void wake_checker(CheckPipe *p)
{
	if (p->checker_waits && p->queued)
		pthread_cond_signal(&p->work);
}

Arena *check_pipe_arena(CheckPipe *p)
{
	pthread_mutex_lock(&p->lock);
	while (p->nfree == 0) {
		wake_checker(p);
		p->parser_waits = true;
		pthread_cond_wait(&p->room, &p->lock);
		p->parser_waits = false;
	}
	Arena *a = p->free_arenas[--p->nfree];
	pthread_mutex_unlock(&p->lock);
	/* what the item two before left there (reset outside the lock) */
	arena_reset(a);
	p->cur = a;
	return a;
}

void check_pipe_send(CheckPipe *p, const Item *it, unsigned parse_errors)
{
	pthread_mutex_lock(&p->lock);
	p->queue[(p->head + p->queued) % PIPE_ARENAS] = (PipeEntry){ it, p->cur, parse_errors };
	p->queued++;
	p->cur = NULL;
	if (p->checker_waits && p->queued >= PIPE_WAKE_QUEUED)
		pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->lock);
}

void check_pipe_sync(CheckPipe *p)
{
	pthread_mutex_lock(&p->lock);
	while (p->queued || p->checking) {
		wake_checker(p);
		p->parser_waits = true;
		pthread_cond_wait(&p->room, &p->lock);
		p->parser_waits = false;
	}
	pthread_mutex_unlock(&p->lock);
}

void check_pipe_here(CheckPipe *p, const Item *it, unsigned parse_errors)
{
	Arena *a = p->cur;
	p->cur = NULL;
	if (!p->failed)
		p->fn(p->ctx, it, parse_errors);
	pthread_mutex_lock(&p->lock);
	release_prev(p, a);
	pthread_mutex_unlock(&p->lock);
}

void check_pipe_stop(CheckPipe *p, bool discard)
{
	pthread_mutex_lock(&p->lock);
	p->closing = true;
	p->discard = discard;
	pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	pthread_cond_destroy(&p->room);
	pthread_cond_destroy(&p->work);
	pthread_mutex_destroy(&p->lock);
	for (int i = 0; i < PIPE_ARENAS; i++)
		arena_free(&p->arenas[i]);
	bool failed = p->failed;
	char fatal[sizeof p->fatal];
	snprintf(fatal, sizeof fatal, "%s", p->fatal);
	free(p);
	if (failed)
		xdie("%s", fatal);
}

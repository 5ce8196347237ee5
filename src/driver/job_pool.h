/* Worker threads that run jobs in the background of one pipeline: the
 * main thread keeps parsing, checking and lowering a module while the
 * kernels it has lowered are allocated, scheduled and encoded (-j N on a
 * single file; the caller runs jobs too while it waits). Jobs only compute into memory they own; the caller reads
 * their results after job_pool_wait, in its own order, so what it writes
 * does not depend on which thread ran what. */
#ifndef PTXSURF_JOB_POOL_H
#define PTXSURF_JOB_POOL_H

typedef struct JobPool JobPool;
typedef void (*JobFn)(void *job);

/* Starts `nworkers` threads running fn on submitted jobs, first submitted
 * first started; at most `window` jobs are submitted and unfinished at a
 * time (each holds a kernel's code in memory). NULL when no thread could
 * be started: the caller then runs its jobs itself. */
JobPool *job_pool_start(int nworkers, int window, JobFn fn);
/* Queues a job; while `window` jobs are unfinished, runs queued ones in
 * the calling thread, then blocks until half the window is free. */
void job_pool_submit(JobPool *p, void *job);
/* Runs queued jobs in the calling thread, then blocks until every job
 * submitted so far has finished. */
void job_pool_wait(JobPool *p);
/* Waits for the jobs, joins the threads and frees the pool. */
void job_pool_finish(JobPool *p);

#endif

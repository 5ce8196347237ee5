/* -j N: the files of one command read, checked and assembled by a pool of
 * worker threads while the main thread writes the results in input order.
 * Workers only compute (input_read + api_run, each file its own sink and
 * module); everything a user sees - diagnostics, listings, output files,
 * summaries - is written by the main thread, file after file, so the
 * output is byte-identical to -j 1. */
#ifndef PTXSURF_FILE_POOL_H
#define PTXSURF_FILE_POOL_H

#include "driver/api_internal.h"
#include "base/input.h"

#include <stdbool.h>

typedef struct FilePool FilePool;

/* What a worker made of one file. */
typedef struct FileResult {
	bool read_failed;           /* err says why; in is not set */
	char err[512];
	InputFile in;
	ptxsurf_result *result;     /* api_run's; NULL after read_failed */
	char fatal[256];            /* an xdie message (out of memory): the command ends */
} FileResult;

/* Starts `nworkers` threads over paths[i] for each i with wanted[i]
 * (the others are left to the caller), running `run` on each. NULL when
 * the threads cannot be started: the caller then works alone. */
FilePool *file_pool_start(const char *const *paths, const bool *wanted, int npaths, int nworkers,
                          const ApiRun *run);

/* Waits for file i (which must be wanted) and hands its result over: the
 * caller frees in and result. */
FileResult file_pool_take(FilePool *p, int i);

/* Joins the workers (after the files still queued are done) and frees
 * the pool and any result not taken. */
void file_pool_finish(FilePool *p);

#endif

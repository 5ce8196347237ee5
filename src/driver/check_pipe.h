/* The checker on a thread of its own, one top-level item behind the
 * parser (stream.c's --check with -j 2 or more). The checker must see the
 * module's items in order (a function may call one declared before it), so
 * the second thread is a pipeline stage, not a worker: the parser builds
 * each item in an arena of its own (ptx_parse_stream_arenas), sends it, and
 * goes on with the next one while the checker takes the items in the order
 * sent. An item's arena comes back once the item after it is checked too
 * (the parser's lookahead token may have been built in it).
 *
 * The checker's state (everything `fn` touches) belongs to the checker
 * thread from a send until check_pipe_sync returns; after that, until the
 * next send, to the caller, which may then check on its own thread
 * (check_pipe_here): a function body streamed statement by statement is
 * checked that way, so one huge function gets no second thread. */
#ifndef PTXSURF_CHECK_PIPE_H
#define PTXSURF_CHECK_PIPE_H

#include "front/ast.h"

#include <stdbool.h>

/* Checks one item; parse_errors: the errors the parser had reported when
 * it sent the item (the checker cannot read the parser's sink). */
typedef void PipeCheckFn(void *ctx, const Item *it, unsigned parse_errors);

typedef struct CheckPipe CheckPipe;

/* Starts the checker thread running fn(ctx, ...); NULL when it cannot be
 * started (the caller then checks on its own thread, as with -j 1). */
CheckPipe *check_pipe_start(PipeCheckFn *fn, void *ctx);
/* The arena for the parser's next item (an ItemArenaFn); waits while
 * every arena is in use. */
Arena *check_pipe_arena(CheckPipe *p);
/* Queues `it`, built in the arena check_pipe_arena gave last. */
void check_pipe_send(CheckPipe *p, const Item *it, unsigned parse_errors);
/* Returns once every item sent is checked: the checker's state is the
 * caller's until the next send. */
void check_pipe_sync(CheckPipe *p);
/* After check_pipe_sync: checks `it` (built in the arena given last) on
 * the calling thread, as the checker thread would. */
void check_pipe_here(CheckPipe *p, const Item *it, unsigned parse_errors);
/* Waits for the items sent (or, with `discard`, drops those not yet
 * started: the caller throws the results away), joins the thread and frees
 * the pipe. Out of memory on the checker thread (xdie) is raised here, on
 * the caller's. */
void check_pipe_stop(CheckPipe *p, bool discard);

#endif

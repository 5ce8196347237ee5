/* A module as a stream of top-level items: parsed, checked and (when
 * assembling) lowered and encoded one item at a time, then forgotten, so
 * memory follows the largest function rather than the file. The
 * diagnostics and the output are exactly those of the whole-module path
 * (ptx_parse_buffer, check_module, assemble_module). */
#ifndef PTXSURF_STREAM_H
#define PTXSURF_STREAM_H

#include "driver/assemble.h"
#include "check/check.h"
#include "front/parse.h"

typedef enum StreamResult {
	STREAM_DONE,            /* diagnostics (and output) are final */
	STREAM_AGAIN,           /* the fast parser met a syntax error: run again with fast = false */
	STREAM_WHOLE_MODULE,    /* a header directive after other items: take the whole-module path */
} StreamResult;

/* Below this many statements a body is checked whole: streaming costs
 * about a tenth more per statement, and this many take about 1 MB. */
enum { STREAM_BODY_MIN_STMTS = 4096 };

typedef struct StreamJob {
	const CheckOptions *check;
	const AssembleOptions *assemble;   /* NULL: check only */
	ItemFn *observe;                   /* optional: sees every item first (statistics) */
	void (*restart)(void *observe_ctx);/* optional: a new pass begins, forget the items seen */
	void *observe_ctx;
	/* --check only: a function body streams statement by statement once it
	 * has this many statements (0: STREAM_BODY_MIN_STMTS; 1: every body) */
	unsigned body_min_stmts;
	/* --check only: 2 or more runs the checker on a thread of its own
	 * behind the parser (check_pipe.h); the diagnostics are the same */
	unsigned threads;
	/* results, when assembling and the module came out clean (STREAM_DONE
	 * and no errors): what assemble_module() returns */
	uint8_t *image;
	size_t image_len;
	char *listing;
} StreamJob;

/* Parses buf (len bytes plus two NULs, scanned in place) into m, which the
 * caller initialised, with diagnostics in d. Unless the result is
 * STREAM_DONE the caller must discard m and d and start over. */
StreamResult stream_module(Module *m, DiagSink *d, char *buf, size_t len, bool fast, StreamJob *job);

/* stream_module() with the fast parser first and the exact one after a
 * syntax error, on a module and sink made here (errors past `limit` are
 * dropped, `policy` as DiagSink's). False when the whole-module path is
 * needed (nothing was reported). On success done() gets the module and the
 * final diagnostics before they are freed. */
typedef void StreamDone(void *ctx, Module *m, DiagSink *d);
bool stream_file(const char *name, char *buf, size_t len, unsigned limit, const DiagPolicy *policy,
                 StreamJob *job, StreamDone *done, void *ctx);

#endif

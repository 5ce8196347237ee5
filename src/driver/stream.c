/* The stream driver (see stream.h). Three sinks wait for the end: the
 * checker's own (check_stream_end appends them in check_module's order) and
 * the lowering's, which in the whole-module path comes after every checker
 * diagnostic.
 *
 * --check with StreamJob.threads >= 2 runs the checker on a second thread
 * behind the parser (check_pipe.h). Everything the checker reads of the
 * parser's state travels with the item: the error count (after a syntax
 * error nothing more is checked) and the item's arena. The body of a long
 * function, statement by statement, is checked on the parser's thread
 * once the checker thread has caught up. */
#include "driver/stream.h"
#include "driver/check_pipe.h"
#include "base/xalloc.h"

#include <stdlib.h>

typedef struct Streaming {
	StreamJob *job;
	CheckStream *cs;
	const DiagSink *parse;  /* syntax and lexical errors */
	AsmStream *as;
	bool whole_module;      /* the stream gave up */
	CheckPipe *pipe;        /* the checker's thread, or NULL */
	bool here;              /* the checker's state is this thread's (check_pipe_sync) */
} Streaming;

/* The checker's side of an item (on the checker thread when piped). */
static void check_one(void *ctx, const Item *it, unsigned parse_errors)
{
	Streaming *s = ctx;
	if (s->whole_module)
		return;
	check_stream_parse_errors(s->cs, parse_errors);
	if (!check_stream_item(s->cs, it))
		s->whole_module = true;
}

static void on_item(void *ctx, const Item *it)
{
	Streaming *s = ctx;
	if (s->job->observe)
		s->job->observe(s->job->observe_ctx, it);
	if (s->pipe) {
		if (s->here)
			check_pipe_here(s->pipe, it, diag_errors(s->parse));
		else
			check_pipe_send(s->pipe, it, diag_errors(s->parse));
		s->here = false;
		return;
	}
	check_one(s, it, diag_errors(s->parse));
	/* A module with errors is not assembled (its code is thrown away at
	 * the end), so lowering stops at the first one: the lowering may rely
	 * on what the checker guarantees. */
	if (!s->whole_module && s->as && diag_errors(s->parse) == 0 && check_stream_errors(s->cs) == 0)
		asm_stream_item(s->as, it);
}

static Arena *pipe_arena(void *ctx)
{
	Streaming *s = ctx;
	return check_pipe_arena(s->pipe);
}

/* Before a call below the item: the checker's state on this thread, and
 * the parser's error count for it. False when the stream gave up. */
static bool body_here(Streaming *s)
{
	if (s->pipe && !s->here) {
		check_pipe_sync(s->pipe);
		s->here = true;
	}
	if (s->whole_module)
		return false;
	check_stream_parse_errors(s->cs, diag_errors(s->parse));
	return true;
}

/* --check alone takes a long function body statement by statement: one
 * huge function then needs memory for its names, not its length. The
 * assembler lowers whole functions, and an observer wants whole items. */
static void on_func_begin(void *ctx, const Item *it)
{
	Streaming *s = ctx;
	if (body_here(s))
		check_stream_func_begin(s->cs, it);
}

static void on_stmt(void *ctx, const Stmt *st)
{
	Streaming *s = ctx;
	if (body_here(s))
		check_stream_stmt(s->cs, st);
}

static void on_block_begin(void *ctx, SrcLoc open)
{
	Streaming *s = ctx;
	if (body_here(s))
		check_stream_block_begin(s->cs);
}

static void on_block_end(void *ctx, SrcLoc block)
{
	Streaming *s = ctx;
	if (body_here(s))
		check_stream_block_end(s->cs);
}


/* The fast parse with the checker thread behind it, which has finished
 * when this returns, also when the parser runs out of memory (xdie): the
 * thread uses the stream, which lives on this thread's stack. */
static int parse_piped(Streaming *s, Module *m, DiagSink *d, char *buf, size_t len, const BodyFns *body)
{
	XdieTrap trap;
	XdieTrap *prev = xdie_trap(NULL);
	if (setjmp(trap.env)) {
		xdie_trap(prev);
		check_pipe_stop(s->pipe, true);
		xdie("%s", trap.msg);
	}
	xdie_trap(&trap);
	int parsed = ptx_parse_stream_arenas(m, d, buf, len, on_item, body, pipe_arena, s, true);
	xdie_trap(prev);
	check_pipe_stop(s->pipe, parsed == PARSE_AGAIN);
	return parsed;
}

StreamResult stream_module(Module *m, DiagSink *d, char *buf, size_t len, bool fast, StreamJob *job)
{
	job->image = NULL;
	job->image_len = 0;
	job->listing = NULL;
	if (job->restart)
		job->restart(job->observe_ctx);
	DiagSink lowered;
	diag_init_like(&lowered, d);
	Streaming s = { .job = job, .cs = check_stream_begin(m, d, job->check), .parse = d };
	if (job->assemble)
		s.as = asm_stream_begin(&lowered, job->assemble);
	BodyFns check_body = { job->body_min_stmts ? job->body_min_stmts : STREAM_BODY_MIN_STMTS,
		on_func_begin, on_stmt, on_block_begin, on_block_end };
	const BodyFns *body = job->assemble || job->observe ? NULL : &check_body;
	/* The exact parser runs only after the fast one met a syntax error,
	 * when nothing the checker says is kept: it stays on one thread. */
	if (job->threads >= 2 && fast && !job->assemble)
		s.pipe = check_pipe_start(check_one, &s);
	int parsed = s.pipe ? parse_piped(&s, m, d, buf, len, body)
	                    : ptx_parse_stream_body(m, d, buf, len, on_item, body, &s, fast);
	StreamResult r = parsed == PARSE_AGAIN ? STREAM_AGAIN : s.whole_module ? STREAM_WHOLE_MODULE : STREAM_DONE;
	check_stream_end(s.cs, r == STREAM_DONE && diag_errors(d) == 0);
	if (s.as) {
		/* assembled only when the module checked clean, as in the
		 * whole-module driver */
		bool clean = r == STREAM_DONE && diag_errors(d) == 0;
		int rc = asm_stream_end(s.as, clean, &job->image, &job->image_len,
		                        job->assemble->want_listing ? &job->listing : NULL);
		if (clean)
			diag_append(d, &lowered);
		if (rc != 0 || diag_errors(d) != 0) {
			free(job->image);
			free(job->listing);
			job->image = NULL;
			job->image_len = 0;
			job->listing = NULL;
		}
	}
	diag_fini(&lowered);
	return r;
}

static StreamResult stream_once(const char *name, char *buf, size_t len, unsigned limit, const DiagPolicy *policy,
                                StreamJob *job, StreamDone *done, void *ctx, bool fast)
{
	Module m;
	module_init(&m, name);
	DiagSink d;
	diag_init(&d, name, buf, len);
	d.limit = limit;
	d.policy = policy;
	StreamResult r = stream_module(&m, &d, buf, len, fast, job);
	if (r == STREAM_DONE)
		done(ctx, &m, &d);
	diag_fini(&d);
	module_fini(&m);
	return r;
}

bool stream_file(const char *name, char *buf, size_t len, unsigned limit, const DiagPolicy *policy,
                 StreamJob *job, StreamDone *done, void *ctx)
{
	StreamResult r = stream_once(name, buf, len, limit, policy, job, done, ctx, true);
	if (r == STREAM_AGAIN)
		r = stream_once(name, buf, len, limit, policy, job, done, ctx, false);
	return r == STREAM_DONE;
}

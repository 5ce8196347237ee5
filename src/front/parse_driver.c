/* Runs the scanner and the parser over one in-memory buffer, building the
 * whole module or handing it over one top-level item at a time. */
#include "front/parse.h"
#include "front/parse_build.h"
#include "ptx.tab.h"
#define YYSTYPE PTX_STYPE
#define YYLTYPE SrcLoc
#include "ptx.lex.h"

#include <stdlib.h>
#include <string.h>

void ptx_restore_input(yyscan_t scanner);
void ptx_lex_keywords(ParseState *ps);
/* grammar/ptx.y built with parse.lac=none (see the Makefile). */
int ptx_parse_fast(yyscan_t scanner, ParseState *ps);

typedef struct ParseStream {
	ItemFn *fn;
	const BodyFns *body;    /* NULL: bodies are built whole */
	void *ctx;
	ItemArenaFn *next_arena;/* NULL: the two arenas below take turns */
	Arena *item_arena;      /* where the current item's nodes go */
	Arena arenas[2];        /* the current item's and the previous one's */
	int cur;
	Arena stmt_arenas[2];   /* the same for statements of a streamed body */
	int stmt_cur;
} ParseStream;

void parse_item_done(ParseState *ps)
{
	Item *it = ps->last_item;
	ps->last_item = NULL;
	/* Error recovery may have dropped a body before its '}'. */
	ps->open_func = NULL;
	ps->body_depth = 0;
	ps->body_streaming = false;
	ParseStream *st = ps->stream;
	if (!st || !it)
		return;
	st->fn(st->ctx, it);
	if (st->next_arena) {
		st->item_arena = st->next_arena(st->ctx);
	} else if (!ps->tok_in_arena) {
		/* No token read ahead lives in the current arena (only a string
		 * literal's text goes there): the item's nodes are free at once, so
		 * a huge kernel's tree is not held while the next item is parsed
		 * and the kernel's back end runs in that item's turn. */
		arena_reset(st->item_arena);
	} else {
		/* The lookahead token may already sit in the current arena: keep
		 * it for one more item and recycle the previous item's arena
		 * instead. */
		st->cur ^= 1;
		arena_reset(&st->arenas[st->cur]);
		st->item_arena = &st->arenas[st->cur];
	}
	ps->arena = st->item_arena;
}

void parse_body_begin(ParseState *ps, SpecVec *specs, const char *kw, ParamList *rets, const char *name,
	SrcLoc name_loc, ParamList *params, DirectiveVec *dirs, SrcLoc open)
{
	ParseStream *st = ps->stream;
	if (!st || !st->body)
		return;
	FuncBody body = { .has = true, .loc = open };
	build_func(ps, specs, kw, rets, name, name_loc, params, dirs, &body, open);
	ps->open_func = ps->last_item;
	ps->body_depth = 1;
	ps->body_stmts = 0;
	ps->body_streaming = false;
}

void parse_body_end(ParseState *ps)
{
	ParseStream *st = ps->stream;
	if (!st || !ps->body_depth)
		return;
	ps->body_depth = 0;
	ps->body_streaming = false;
	ps->arena = st->item_arena;
}

void parse_block_begin(ParseState *ps, SrcLoc open)
{
	if (!ps->body_depth)
		return;
	ps->body_depth++;
	if (ps->body_streaming)
		ps->stream->body->block_begin(ps->stream->ctx, open);
}

bool parse_block_end(ParseState *ps, SrcLoc loc)
{
	if (ps->body_depth < 2)
		return false;
	ps->body_depth--;
	if (!ps->body_streaming)
		return false;
	ps->stream->body->block_end(ps->stream->ctx, loc);
	return true;
}

/* Statements built before the body started to stream, handed over in
 * order (a block as its begin, its statements and its end). */
static void hand_over(ParseStream *st, const Stmt *s)
{
	for (; s; s = s->next) {
		if (s->kind == ST_BLOCK) {
			st->body->block_begin(st->ctx, s->loc);
			hand_over(st, s->u.block);
			st->body->block_end(st->ctx, s->loc);
		} else {
			st->body->stmt(st->ctx, s);
		}
	}
}

void parse_stmt_done(ParseState *ps, StmtList *list, Stmt *s)
{
	ParseStream *st = ps->stream;
	if (!ps->body_streaming) {
		stmt_append(list, s);
		/* A body that grows past min_stmts starts to stream between two
		 * of its own statements (not inside a block): the ones so far go
		 * out at once, the rest one by one. Smaller bodies are checked
		 * whole, which costs less per statement. */
		if (!ps->body_depth || ++ps->body_stmts < st->body->min_stmts || ps->body_depth != 1)
			return;
		ps->body_streaming = true;
		st->body->func_begin(st->ctx, ps->open_func);
		hand_over(st, list->head);
		list->head = list->tail = NULL;
		/* Those stay in the item's arena; the next take turns in two
		 * of their own. */
		ps->arena = &st->stmt_arenas[st->stmt_cur];
		return;
	}
	if (!s)
		return;
	st->body->stmt(st->ctx, s);
	/* As for items: the lookahead may sit in the current arena. */
	st->stmt_cur ^= 1;
	arena_reset(&st->stmt_arenas[st->stmt_cur]);
	ps->arena = &st->stmt_arenas[st->stmt_cur];
}

static unsigned run(ParseState *ps, char *buf, size_t len)
{
	DiagSink *d = ps->diag;
	unsigned before = diag_errors(d);
	if (len >= 4 && memcmp(buf, "\x7f" "ELF", 4) == 0) {
		/* a cubin given for PTX: one error, not one per byte */
		diag_add(d, SEV_ERROR, (SrcLoc){ 1, 1, 1, 4 }, RULE_LEXICAL, "this is an ELF object file (a cubin?), not "
			"PTX source: give the .ptx file, or read a cubin's code with --disassemble FILE");
		return 1;
	}
	intern_init(&ps->names, &ps->mod->arena);
	ptx_lex_keywords(ps);
	yyscan_t scanner;
	if (ptx_lex_init_extra(ps, &scanner) != 0) {
		intern_fini(&ps->names);
		diag_add(d, SEV_ERROR, (SrcLoc){ 0 }, RULE_IO, "cannot initialise the scanner");
		return 1;
	}
	/* Scan in place: flex needs the two trailing NULs the caller provides. */
	YY_BUFFER_STATE b = ptx__scan_buffer(buf, len + 2, scanner);
	if (!b) {
		diag_add(d, SEV_ERROR, (SrcLoc){ 0 }, RULE_IO, "cannot set up the scan buffer");
	} else {
		if (ps->fast)
			ptx_parse_fast(scanner, ps);
		else
			ptx_parse(scanner, ps);
		ptx_restore_input(scanner);
		ptx__delete_buffer(b, scanner);
	}
	ptx_lex_destroy(scanner);
	intern_fini(&ps->names);
	free(ps->mods_scratch.v);
	free(ps->mods_scratch.locs);
	return diag_errors(d) - before;
}

unsigned ptx_parse_buffer(Module *m, DiagSink *d, char *buf, size_t len)
{
	ParseState ps = { .mod = m, .diag = d, .arena = &m->arena };
	return run(&ps, buf, len);
}

int ptx_parse_stream_arenas(Module *m, DiagSink *d, char *buf, size_t len, ItemFn *fn, const BodyFns *body,
	ItemArenaFn *next_arena, void *ctx, bool fast)
{
	ParseStream st = { .fn = fn, .body = body, .ctx = ctx, .next_arena = next_arena };
	for (int i = 0; i < 2; i++) {
		arena_init(&st.arenas[i]);
		arena_init(&st.stmt_arenas[i]);
	}
	st.item_arena = next_arena ? next_arena(ctx) : &st.arenas[0];
	ParseState ps = { .mod = m, .diag = d, .arena = st.item_arena, .stream = &st, .fast = fast };
	unsigned errors = run(&ps, buf, len);
	for (int i = 0; i < 2; i++) {
		arena_free(&st.arenas[i]);
		arena_free(&st.stmt_arenas[i]);
	}
	return ps.syntax_error ? PARSE_AGAIN : (int)errors;
}

int ptx_parse_stream_body(Module *m, DiagSink *d, char *buf, size_t len, ItemFn *fn, const BodyFns *body,
	void *ctx, bool fast)
{
	return ptx_parse_stream_arenas(m, d, buf, len, fn, body, NULL, ctx, fast);
}

int ptx_parse_stream(Module *m, DiagSink *d, char *buf, size_t len, ItemFn *fn, void *ctx, bool fast)
{
	return ptx_parse_stream_body(m, d, buf, len, fn, NULL, ctx, fast);
}

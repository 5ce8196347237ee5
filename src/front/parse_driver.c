/* Runs the scanner and the parser over one in-memory buffer, building the
 * whole module or handing it over one top-level item at a time. */
#include "front/parse.h"
#include "ptx.tab.h"
#define YYSTYPE PTX_STYPE
#define YYLTYPE SrcLoc
#include "ptx.lex.h"

#include <stdlib.h>

void ptx_restore_input(yyscan_t scanner);
/* grammar/ptx.y built with parse.lac=none (see the Makefile). */
int ptx_parse_fast(yyscan_t scanner, ParseState *ps);

typedef struct ParseStream {
	ItemFn *fn;
	void *ctx;
	Arena arenas[2];        /* the current item's and the previous one's */
	int cur;
} ParseStream;

void parse_item_done(ParseState *ps)
{
	Item *it = ps->last_item;
	ps->last_item = NULL;
	ParseStream *st = ps->stream;
	if (!st || !it)
		return;
	st->fn(st->ctx, it);
	/* The lookahead token may already sit in the current arena: keep it for
	 * one more item and recycle the previous item's arena instead. */
	st->cur ^= 1;
	arena_reset(&st->arenas[st->cur]);
	ps->arena = &st->arenas[st->cur];
}

static unsigned run(ParseState *ps, char *buf, size_t len)
{
	DiagSink *d = ps->diag;
	unsigned before = diag_errors(d);
	intern_init(&ps->names, &ps->mod->arena);
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

int ptx_parse_stream(Module *m, DiagSink *d, char *buf, size_t len, ItemFn *fn, void *ctx, bool fast)
{
	ParseStream st = { .fn = fn, .ctx = ctx };
	arena_init(&st.arenas[0]);
	arena_init(&st.arenas[1]);
	ParseState ps = { .mod = m, .diag = d, .arena = &st.arenas[0], .stream = &st, .fast = fast };
	unsigned errors = run(&ps, buf, len);
	arena_free(&st.arenas[0]);
	arena_free(&st.arenas[1]);
	return ps.syntax_error ? PARSE_AGAIN : (int)errors;
}

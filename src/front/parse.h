/* Interface between the scanner, the grammar and the driver. */
#ifndef PTXSURF_PARSE_H
#define PTXSURF_PARSE_H

#include "front/ast.h"
#include "base/diag.h"
#include "base/intern.h"

#include <stdbool.h>
#include <stddef.h>

/* Growable arrays whose storage lives in the module arena (doubling keeps the
 * abandoned storage below the final size, so memory stays linear). */
#define VEC_OF(T) struct { T *v; uint32_t n, cap; }
#define VEC_PUSH(arena, vec, item)                                                       \
	do {                                                                             \
		if ((vec).n == (vec).cap) {                                              \
			uint32_t ncap_ = (vec).cap ? (vec).cap * 2 : 4;                  \
			(vec).v = arena_grow((arena), (vec).v, (vec).n, ncap_, sizeof *(vec).v); \
			(vec).cap = ncap_;                                               \
		}                                                                        \
		(vec).v[(vec).n++] = (item);                                             \
	} while (0)

typedef VEC_OF(Expr *) ExprVec;
typedef VEC_OF(DeclSpec) SpecVec;
typedef VEC_OF(Declarator) DeclaratorVec;
typedef VEC_OF(VarDecl) ParamVec;
typedef VEC_OF(Directive) DirectiveVec;
typedef VEC_OF(LocAttr) LocAttrVec;
typedef VEC_OF(int64_t) DimVec;
typedef struct WordVec { const char **v; SrcLoc *locs; uint32_t n, cap; } WordVec;
typedef struct StmtList { Stmt *head, *tail; } StmtList;
typedef struct ParamList { bool has; ParamVec list; } ParamList;
typedef struct FuncBody { bool has; Stmt *stmts; SrcLoc loc; } FuncBody;

enum { PARSE_KNOWN_OPCODES = 64, PARSE_KNOWN_MODS = 128, PARSE_KEYWORD_SLOTS = 64 };

typedef struct ParseState {
	Module *mod;
	DiagSink *diag;
	Arena *arena;
	InternTable names;
	SrcLoc prev_tok;        /* the token before the current one */
	SrcLoc cur_tok;         /* the token the scanner returned last */
	const char *tok_text;   /* its text, in the input buffer (not NUL-terminated) */
	size_t tok_len;
	bool tok_in_arena;      /* its value lives in ps->arena (a string literal's text) */
	SrcLoc comment_start;   /* for an unterminated comment diagnostic */
	WordVec mods_scratch;   /* modifiers of the instruction being parsed */
	Item *last_item;        /* the top-level item being built */
	bool fast;              /* the parser without LAC: stop at a syntax error */
	bool syntax_error;      /* ... and it did */
	/* Streaming (ptx_parse_stream): items are handed over one at a time
	 * instead of being linked into the module. */
	struct ParseStream *stream;
	/* Body streaming (BodyFns): the function whose header was handed
	 * over at its '{', and how deep in its blocks the parser is (0:
	 * outside a streamed body). */
	Item *open_func;
	unsigned body_depth;
	unsigned body_stmts;    /* statements of the body so far */
	bool body_streaming;    /* they are handed over (BodyFns.min_stmts reached) */
	/* Opcodes and opcode/modifier pairs build_instr found valid before,
	 * by interned pointer (one intern table per ParseState, so the same
	 * pointer is the same word): a file repeats a few hundred of them. */
	struct { const char *opcode; int id; } known_opcode[PARSE_KNOWN_OPCODES];
	struct { const char *mod; int id; } known_mod[PARSE_KNOWN_MODS];
	/* The keyword dot-words, interned, by pointer (ptx_lex_keywords). */
	struct { const char *word; int token; } keyword[PARSE_KEYWORD_SLOTS];
	const char *keyword_lo, *keyword_hi;    /* the lowest and highest of them */
} ParseState;

/* Called by the grammar when a top-level item has been reduced. */
void parse_item_done(ParseState *ps);
/* Called by the grammar at a function body's '{' (with the header's
 * parts), at its '}', at a nested block's '{' and for each statement
 * reduced into a list: the statement is appended to `list`, or handed
 * over when the body streams (then the list stays empty). */
void parse_body_begin(ParseState *ps, SpecVec *specs, const char *kw, ParamList *rets, const char *name,
	SrcLoc name_loc, ParamList *params, DirectiveVec *dirs, SrcLoc open);
void parse_body_end(ParseState *ps);
void parse_block_begin(ParseState *ps, SrcLoc open);
/* A nested block of a streamed body ends as a call, not a node: true
 * when it did (the block was handed over). */
bool parse_block_end(ParseState *ps, SrcLoc block);
void parse_stmt_done(ParseState *ps, StmtList *list, Stmt *s);

/* Parse `buf` (len bytes followed by two NUL bytes, as flex requires for an
 * in-place scan) into `m`. Diagnostics go to `d`. Returns the number of
 * syntax errors. The buffer must outlive nothing: the AST copies all text. */
unsigned ptx_parse_buffer(Module *m, DiagSink *d, char *buf, size_t len);

/* Parses like ptx_parse_buffer but hands each top-level item to `fn` as
 * soon as it is complete instead of linking it into m->items. An item's
 * nodes live only until fn returns (two per-item arenas take turns, so a
 * token the parser read ahead survives into the next item); names stay
 * interned in m->arena for the whole module. Memory is bounded by the
 * largest item, not the module. */
typedef void ItemFn(void *ctx, const Item *it);
/* `fast` runs a second build of the grammar without LAC (bison's lookahead
 * correction, which only serves the "expected ..." list of a syntax error
 * and costs a tenth of the time): a file that parses does exactly the same
 * shifts and reductions. At the first syntax error it stops and returns
 * PARSE_AGAIN: the caller must throw away everything the call produced
 * (items handed over, diagnostics, the module) and parse again exactly. */
enum { PARSE_AGAIN = -1 };
int ptx_parse_stream(Module *m, DiagSink *d, char *buf, size_t len, ItemFn *fn, void *ctx, bool fast);

/* Streaming below the function: a function whose body reaches min_stmts
 * statements (nested ones included; 1: every body that has one) is handed
 * over twice, its header when it starts to stream (func_begin: has_body
 * set, body NULL) and the whole item at its end (again with body NULL);
 * in between each statement of the body comes to `stmt`, those before the
 * switch at once and the rest as soon as each is reduced (never an
 * ST_BLOCK: a nested block is block_begin, its statements, block_end). A
 * streamed statement's nodes live only until the call after the next one
 * returns (two per-statement arenas take turns, as items do), so memory
 * is bounded by min_stmts statements, not by the function. Smaller bodies
 * come whole with their item, as from ptx_parse_stream. After a syntax
 * error the calls may be unbalanced (error recovery drops open blocks). */
typedef struct BodyFns {
	unsigned min_stmts;
	void (*func_begin)(void *ctx, const Item *it);
	void (*stmt)(void *ctx, const Stmt *s);
	void (*block_begin)(void *ctx, SrcLoc open);
	void (*block_end)(void *ctx, SrcLoc block);
} BodyFns;
int ptx_parse_stream_body(Module *m, DiagSink *d, char *buf, size_t len, ItemFn *fn, const BodyFns *body,
	void *ctx, bool fast);

/* ptx_parse_stream_body with the items' arenas from the caller, so that an
 * item can outlive the call to fn (a checker on another thread takes it
 * later): next_arena gives the arena for the first item, then one after
 * each call to fn for the item that follows. The caller may reuse an item's
 * arena only once fn has been called for the next item and that item is
 * done with too: the token the parser read ahead when it reduced an item
 * is in that item's arena and may belong to the next one. Streamed
 * statements keep their two arenas of their own. */
typedef Arena *ItemArenaFn(void *ctx);
int ptx_parse_stream_arenas(Module *m, DiagSink *d, char *buf, size_t len, ItemFn *fn, const BodyFns *body,
	ItemArenaFn *next_arena, void *ctx, bool fast);

#endif

/* Interface between the scanner, the grammar and the driver. */
#ifndef PTXSURF_PARSE_H
#define PTXSURF_PARSE_H

#include "ast.h"
#include "diag.h"
#include "intern.h"

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

typedef struct ParseState {
	Module *mod;
	DiagSink *diag;
	Arena *arena;
	InternTable names;
	SrcLoc prev_tok;        /* the token before the current one */
	SrcLoc cur_tok;         /* the token the scanner returned last */
	const char *tok_text;   /* its text, in the input buffer (not NUL-terminated) */
	size_t tok_len;
	SrcLoc comment_start;   /* for an unterminated comment diagnostic */
	WordVec mods_scratch;   /* modifiers of the instruction being parsed */
} ParseState;

/* Parse `buf` (len bytes followed by two NUL bytes, as flex requires for an
 * in-place scan) into `m`. Diagnostics go to `d`. Returns the number of
 * syntax errors. The buffer must outlive nothing: the AST copies all text. */
unsigned ptx_parse_buffer(Module *m, DiagSink *d, char *buf, size_t len);

#endif

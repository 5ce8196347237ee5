/* AST construction helpers called from the grammar's actions, so the grammar
 * file stays a readable description of the syntax. */
#ifndef PTXSURF_PARSE_BUILD_H
#define PTXSURF_PARSE_BUILD_H

#include "front/parse.h"

Expr *build_unary(ParseState *ps, int op, Expr *e, SrcLoc loc);
Expr *build_binary(ParseState *ps, int op, Expr *l, Expr *r, SrcLoc loc);
Expr *build_int(ParseState *ps, const char *text, uint64_t val, bool overflow, SrcLoc loc);
Expr *build_float(ParseState *ps, const char *text, SrcLoc loc);
Expr *build_string(ParseState *ps, const char *text, SrcLoc loc);
Expr *build_name(ParseState *ps, const char *name, const char *component, SrcLoc loc);
Expr *build_call(ParseState *ps, const char *name, ExprVec *args, SrcLoc loc);
Expr *build_list(ParseState *ps, ExprKind kind, ExprVec *elems, SrcLoc loc);
Expr *build_field(ParseState *ps, const char *name, Expr *value, SrcLoc loc);
Expr *build_section_ref(ParseState *ps, const char *name, SrcLoc loc);
int64_t build_range(ParseState *ps, uint64_t val, bool overflow, SrcLoc loc);
int64_t build_dim(ParseState *ps, uint64_t val, bool overflow, SrcLoc loc);

void word_push(ParseState *ps, WordVec *v, const char *word, SrcLoc loc);
void stmt_append(StmtList *l, Stmt *s);

void build_version(ParseState *ps, const char *text, SrcLoc text_loc, SrcLoc loc);
void build_target(ParseState *ps, ExprVec *names, SrcLoc loc);
void build_address_size(ParseState *ps, uint64_t bits, SrcLoc loc);
void build_module_directive(ParseState *ps, const char *name, ExprVec *args, SrcLoc loc);
void build_section(ParseState *ps, const char *name, Stmt *items, SrcLoc loc);
void build_module_var(ParseState *ps, SpecVec *specs, DeclaratorVec *decls, SrcLoc loc);
void build_func(ParseState *ps, SpecVec *specs, const char *kw, ParamList *rets, const char *name,
		SrcLoc name_loc, ParamList *params, DirectiveVec *dirs, FuncBody *body, SrcLoc loc);

/* An ST_INSTR statement; the grammar widens its range to the ';'. */
Stmt *build_instr(ParseState *ps, const char *opcode, SrcLoc opcode_loc, WordVec *mods,
		  ExprVec *ops, SrcLoc loc);
Stmt *build_label(ParseState *ps, const char *name, SrcLoc loc);
Stmt *build_decl_stmt(ParseState *ps, SpecVec *specs, DeclaratorVec *decls, SrcLoc loc);
Stmt *build_block(ParseState *ps, Stmt *first, SrcLoc loc);
Stmt *build_dir_stmt(ParseState *ps, const char *name, ExprVec *args, LocAttrVec *attrs, SrcLoc loc);
Stmt *build_proto(ParseState *ps, ParamList *rets, const char *name, ParamList *params, DirectiveVec *dirs,
	SrcLoc loc);

#endif

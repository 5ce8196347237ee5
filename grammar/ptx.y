/* PTX grammar: pure bison parser with locations, building the AST in the
 * module arena. The grammar knows the module structure (directives,
 * declarations, functions, statements, operand expressions); instructions are
 * opcode + dot-word modifiers + operands, classified through the opcode table,
 * never one rule per opcode. Errors recover per statement and per block. */
%define api.pure full
%define api.prefix {ptx_}
%define api.location.type {SrcLoc}
%define parse.error custom
%define parse.lac full
%locations
%initial-action { @$ = (SrcLoc){ 1, 1, 1, 1 }; }
%lex-param {yyscan_t scanner}
%parse-param {yyscan_t scanner} {ParseState *ps}
%expect 0

%code requires {
#include "front/parse.h"
typedef struct Guard { bool negated; Expr *pred; } Guard;
#ifndef YY_TYPEDEF_YY_SCANNER_T
#define YY_TYPEDEF_YY_SCANNER_T
typedef void *yyscan_t;
#endif
}

%code provides {
int ptx_lex(PTX_STYPE *lval, SrcLoc *lloc, yyscan_t scanner);
}

%code {
#include "isa/opcodes.h"
#include "front/parse_build.h"

#include <string.h>

#define A (ps->arena)

/* Declaration-sized values travel through the parser stack as arena
 * copies (see %union): BOX(T, { ... }) is a pointer to a new T. */
static void *box(Arena *a, const void *v, size_t n)
{
	return memcpy(arena_alloc(a, n), v, n);
}
#define BOX(T, ...) ((T *)box(A, &(T)__VA_ARGS__, sizeof(T)))

static void ptx_error(SrcLoc *loc, yyscan_t scanner, ParseState *ps, const char *msg);

/* An instruction statement: `body` spans the opcode to the last operand
 * (what build_instr and its checks see), `all` the guard to the ';'. The
 * statement rules name the opcode directly, with no `instr_body` or empty
 * `mods` in between: one reduction per instruction instead of three. */
static Stmt *instr_stmt(ParseState *ps, const Guard *g, const char *opcode, SrcLoc opcode_loc, WordVec *mods,
			ExprVec *ops, SrcLoc body, SrcLoc all)
{
	WordVec no_mods = { 0 };
	ExprVec no_ops = { 0 };
	Stmt *s = build_instr(ps, opcode, opcode_loc, mods ? mods : &no_mods, ops ? ops : &no_ops, body);
	if (g) {
		s->u.instr.has_guard = true;
		s->u.instr.guard_negated = g->negated;
		s->u.instr.guard = g->pred;
	}
	s->loc = s->u.instr.loc = all;
	return s;
}
}

/* Bison copies the semantic value on every shift and reduction, so the
 * union is kept to 24 bytes: what is bigger (declarations, directives,
 * function bodies; rare next to instructions) is a pointer to an arena copy. */
%union {
	const char *str;
	struct { const char *text; uint64_t val; bool overflow; } num;
	Expr *expr;
	ExprVec exprs;
	SpecVec specs;
	DeclSpec *spec;
	Declarator *declarator;
	DeclaratorVec declarators;
	DimVec dims;
	int64_t range;
	ParamVec params;
	ParamList plist;
	DirectiveVec dirs;
	Directive *dir;
	LocAttrVec locattrs;
	LocAttr *locattr;
	WordVec words;
	StmtList stmts;
	Stmt *stmt;
	VarDecl *decl;
	Guard guard;
	FuncBody *body;
}

%token <str> IDENT "identifier" DOTWORD "dot-word" STRING "string" FLOATLIT "float literal"
%token <num> INTLIT "integer literal"
%token <str> K_VERSION ".version" K_TARGET ".target" K_ADDRESS_SIZE ".address_size"
%token <str> K_FILE ".file" K_LOC ".loc" K_SECTION ".section" K_PRAGMA ".pragma"
%token <str> K_ENTRY ".entry" K_FUNC ".func" K_ALIGN ".align" K_ALIAS ".alias"
%token <str> K_CALLPROTOTYPE ".callprototype" K_BRANCHTARGETS ".branchtargets"
%token <str> K_CALLTARGETS ".calltargets" K_ATTRIBUTE ".attribute"
%token <str> K_PERF "performance directive"
%token SHL "<<" SHR ">>" ANDAND "&&" OROR "||"

/* A .func header without ';' ends before anything that is not one of its
 * directives: a .pragma continues the header (ptxas reads it so). */
%precedence FUNC_DECL_END
%precedence K_PRAGMA
%left OROR
%left ANDAND
%left '|'
%left '^'
%left '&'
%left SHL SHR
%left '+' '-'
%left '*' '/' '%'
%precedence UNARY

%type <expr> expr operand data_val data_atom attr initializer_opt
%type <exprs> expr_list vec_elems data_list attr_list
%type <exprs> loc_vals string_list ident_list target_list
%type <specs> specs specs_opt
%type <spec> spec
%type <declarator> declarator
%type <declarators> declarators
%type <dims> dims
%type <range> range_opt
%type <params> param_list param_list_opt
%type <plist> plist_opt
%type <dirs> func_dirs
%type <dir> func_dir
%type <locattrs> loc_attrs
%type <locattr> loc_attr
%type <words> mods
%type <stmts> stmts section_items
%type <stmt> stmt section_item
/* An instruction is built in its statement node: a 96-byte Instr in the
 * union would be copied on every shift and reduction. */
%type <exprs> operands
%type <decl> param
%type <guard> guard
%type <body> func_body
%type <exprs> perf_args

%%

module
	: %empty
	| module item                   { parse_item_done(ps); }
	;

item
	: K_VERSION FLOATLIT            { build_version(ps, $2, @2, @$); }
	| K_VERSION INTLIT              {
		diag_add(ps->diag, SEV_ERROR, @2, RULE_SYNTAX,
			 ".version needs MAJOR.MINOR, for example '.version 7.0' (found '%s')", $2.text);
	  }
	| K_TARGET target_list          { build_target(ps, &$2, @$); }
	| K_ADDRESS_SIZE INTLIT         { build_address_size(ps, $2.val, @$); }
	| K_FILE INTLIT STRING {
		Expr *n = build_int(ps, $2.text, $2.val, $2.overflow, @2);
		Expr *s = build_string(ps, $3, @3);
		ExprVec v = { 0 };
		VEC_PUSH(A, v, n);
		VEC_PUSH(A, v, s);
		build_module_directive(ps, $1, &v, @$);
	  }
	| K_FILE INTLIT STRING ',' INTLIT ',' INTLIT {
		ExprVec v = { 0 };
		VEC_PUSH(A, v, build_int(ps, $2.text, $2.val, $2.overflow, @2));
		VEC_PUSH(A, v, build_string(ps, $3, @3));
		VEC_PUSH(A, v, build_int(ps, $5.text, $5.val, $5.overflow, @5));
		VEC_PUSH(A, v, build_int(ps, $7.text, $7.val, $7.overflow, @7));
		build_module_directive(ps, $1, &v, @$);
	  }
	| K_PRAGMA string_list ';'      { build_module_directive(ps, $1, &$2, @$); }
	| K_ALIAS IDENT ',' IDENT ';'   {
		ExprVec v = { 0 };
		VEC_PUSH(A, v, build_name(ps, $2, NULL, @2));
		VEC_PUSH(A, v, build_name(ps, $4, NULL, @4));
		build_module_directive(ps, $1, &v, @$);
	  }
	| K_SECTION DOTWORD '{' section_items '}' { build_section(ps, $2, $4.head, @$); }
	| specs declarators ';'         { build_module_var(ps, &$1, &$2, @$); }
	| specs_opt K_ENTRY plist_opt IDENT plist_opt func_dirs func_body {
		build_func(ps, &$1, $2, &$3, $4, @4, &$5, &$6, $7, @$);
	  }
	| specs_opt K_FUNC plist_opt IDENT plist_opt func_dirs func_body {
		build_func(ps, &$1, $2, &$3, $4, @4, &$5, &$6, $7, @$);
	  }
	/* ptxas takes a .func declaration without its ';' (nvcc wrote them so
	 * up to PTX 2.x): the next item ends it. Not an .entry (ptxas: syntax
	 * error). A directive that may follow a header belongs to it. */
	| specs_opt K_FUNC plist_opt IDENT plist_opt func_dirs %prec FUNC_DECL_END {
		FuncBody *none = BOX(FuncBody, { .has = false, .loc = @6 });
		build_func(ps, &$1, $2, &$3, $4, @4, &$5, &$6, none, @$);
	  }
	| error ';'                     { yyerrok; }
	| error '}'                     { yyerrok; }
	;

func_body
	: ';'                           { $$ = BOX(FuncBody, { .has = false, .loc = @$ }); }
	| body_open stmts '}'           { parse_body_end(ps); $$ = BOX(FuncBody, { .has = true, .stmts = $2.head, .loc = @$ }); }
	| body_open stmts error '}'     {
		parse_body_end(ps);
		$$ = BOX(FuncBody, { .has = true, .stmts = $2.head, .loc = @$ });
		yyerrok;
	  }
	;

/* The '{' of a function body. A caller that takes the body one statement
 * at a time (ptx_parse_stream with BodyFns) gets the function's header
 * here, before the first statement: $-5 .. $0 are the header's parts,
 * laid out alike in both function rules that end in func_body. */
body_open
	: '{'                           {
		parse_body_begin(ps, &$<specs>-5, $<str>-4, &$<plist>-3, $<str>-2, @-2, &$<plist>-1, &$<dirs>0, @1);
	  }
	;

target_list
	: IDENT                         { $$ = (ExprVec){ 0 }; VEC_PUSH(A, $$, build_name(ps, $1, NULL, @1)); }
	| target_list ',' IDENT         { $$ = $1; VEC_PUSH(A, $$, build_name(ps, $3, NULL, @3)); }
	;

string_list
	: STRING                        { $$ = (ExprVec){ 0 }; VEC_PUSH(A, $$, build_string(ps, $1, @1)); }
	| string_list ',' STRING        { $$ = $1; VEC_PUSH(A, $$, build_string(ps, $3, @3)); }
	;

ident_list
	: IDENT                         { $$ = (ExprVec){ 0 }; VEC_PUSH(A, $$, build_name(ps, $1, NULL, @1)); }
	| ident_list ',' IDENT          { $$ = $1; VEC_PUSH(A, $$, build_name(ps, $3, NULL, @3)); }
	;

/* ---- declarations ---- */

specs_opt
	: %empty                        { $$ = (SpecVec){ 0 }; }
	| specs                         { $$ = $1; }
	;

specs
	: spec                          { $$ = (SpecVec){ 0 }; VEC_PUSH(A, $$, *$1); }
	| specs spec                    { $$ = $1; VEC_PUSH(A, $$, *$2); }
	;

spec
	: DOTWORD                       { $$ = BOX(DeclSpec, { .loc = @1, .word = $1 }); }
	| K_ALIGN INTLIT                { $$ = BOX(DeclSpec, { .loc = @$, .word = $1, .has_value = true, .value = (int64_t)$2.val }); }
	| K_ATTRIBUTE '(' attr_list ')' {
		Expr *l = build_list(ps, EX_LIST, &$3, @2);
		$$ = BOX(DeclSpec, { .loc = @$, .word = $1, .args = l });
	  }
	;

attr_list
	: attr                          { $$ = (ExprVec){ 0 }; VEC_PUSH(A, $$, $1); }
	| attr_list ',' attr            { $$ = $1; VEC_PUSH(A, $$, $3); }
	;

attr
	: DOTWORD                       { $$ = build_section_ref(ps, $1, @1); }
	| DOTWORD '(' expr_list ')'     { $$ = build_call(ps, $1, &$3, @$); }
	;

declarators
	: declarator                    { $$ = (DeclaratorVec){ 0 }; VEC_PUSH(A, $$, *$1); }
	| declarators ',' declarator    { $$ = $1; VEC_PUSH(A, $$, *$3); }
	;

declarator
	: IDENT range_opt dims initializer_opt {
		$$ = BOX(Declarator, { .loc = @$, .name = $1, .range = $2, .ndims = $3.n, .dims = $3.v, .init = $4 });
	  }
	;

range_opt
	: %empty                        { $$ = -1; }
	| '<' INTLIT '>'                { $$ = build_range(ps, $2.val, $2.overflow, @2); }
	;

dims
	: %empty                        { $$ = (DimVec){ 0 }; }
	| dims '[' ']'                  { $$ = $1; VEC_PUSH(A, $$, -1); }
	| dims '[' INTLIT ']'           { $$ = $1; VEC_PUSH(A, $$, build_dim(ps, $3.val, $3.overflow, @3)); }
	;

initializer_opt
	: %empty                        { $$ = NULL; }
	| '=' expr                      { $$ = $2; }
	;

plist_opt
	: %empty                        { $$.has = false; $$.list = (ParamVec){ 0 }; }
	| '(' param_list_opt ')'        { $$.has = true; $$.list = $2; }
	;

param_list_opt
	: %empty                        { $$ = (ParamVec){ 0 }; }
	| param_list                    { $$ = $1; }
	;

param_list
	: param                         { $$ = (ParamVec){ 0 }; VEC_PUSH(A, $$, *$1); }
	| param_list ',' param          { $$ = $1; VEC_PUSH(A, $$, *$3); }
	;

param
	: specs declarator              {
		$$ = BOX(VarDecl, { .loc = @$, .nspecs = $1.n, .specs = $1.v, .ndecls = 1, .decls = $2 });
	  }
	;

func_dirs
	: %empty                        { $$ = (DirectiveVec){ 0 }; }
	| func_dirs func_dir            { $$ = $1; VEC_PUSH(A, $$, *$2); }
	;

func_dir
	: K_PERF                        { $$ = BOX(Directive, { .loc = @$, .name = $1 }); }
	| K_PERF perf_args              { $$ = BOX(Directive, { .loc = @$, .name = $1, .nargs = $2.n, .args = $2.v }); }
	| K_PRAGMA string_list ';'      { $$ = BOX(Directive, { .loc = @$, .name = $1, .nargs = $2.n, .args = $2.v }); }
	;

/* Performance directive arguments are integers only, so a vector operand
 * can never be confused with the function body's opening brace. */
perf_args
	: INTLIT                        { $$ = (ExprVec){ 0 }; VEC_PUSH(A, $$, build_int(ps, $1.text, $1.val, $1.overflow, @1)); }
	| perf_args ',' INTLIT          { $$ = $1; VEC_PUSH(A, $$, build_int(ps, $3.text, $3.val, $3.overflow, @3)); }
	;

/* ---- statements ---- */

stmts
	: %empty                        { $$ = (StmtList){ 0 }; }
	| stmts stmt                    { $$ = $1; parse_stmt_done(ps, &$$, $2); }
	| stmts error ';'               { $$ = $1; yyerrok; }
	;

/* Instruction statements are the bulk of every module, and each reduction
 * costs bison a copy of the semantic value and a location: the rules for
 * them are flat (the opcode is part of the statement rule: no instr_body or
 * expr -> primary, no `_opt` helpers), which cuts the reductions per
 * instruction by about a third. */
stmt
	: IDENT ';'                     { $$ = instr_stmt(ps, NULL, $1, @1, NULL, NULL, @1, @$); }
	| IDENT operands ';'            { $$ = instr_stmt(ps, NULL, $1, @1, NULL, &$2, srcloc_span(@1, @2), @$); }
	| IDENT mods ';'                { $$ = instr_stmt(ps, NULL, $1, @1, &$2, NULL, srcloc_span(@1, @2), @$); }
	| IDENT mods operands ';'       { $$ = instr_stmt(ps, NULL, $1, @1, &$2, &$3, srcloc_span(@1, @3), @$); }
	| guard IDENT ';'               { $$ = instr_stmt(ps, &$1, $2, @2, NULL, NULL, @2, @$); }
	| guard IDENT operands ';'      { $$ = instr_stmt(ps, &$1, $2, @2, NULL, &$3, srcloc_span(@2, @3), @$); }
	| guard IDENT mods ';'          { $$ = instr_stmt(ps, &$1, $2, @2, &$3, NULL, srcloc_span(@2, @3), @$); }
	| guard IDENT mods operands ';' { $$ = instr_stmt(ps, &$1, $2, @2, &$3, &$4, srcloc_span(@2, @4), @$); }
	| IDENT ':'                     { $$ = build_label(ps, $1, @1); }
	| specs declarators ';'         { $$ = build_decl_stmt(ps, &$1, &$2, @$); }
	| block_open stmts '}'          { $$ = parse_block_end(ps, @$) ? NULL : build_block(ps, $2.head, @$); }
	| block_open stmts error '}'    {
		$$ = parse_block_end(ps, @$) ? NULL : build_block(ps, $2.head, @$);
		yyerrok;
	  }
	| K_LOC INTLIT INTLIT INTLIT loc_attrs {
		ExprVec v = { 0 };
		VEC_PUSH(A, v, build_int(ps, $2.text, $2.val, $2.overflow, @2));
		VEC_PUSH(A, v, build_int(ps, $3.text, $3.val, $3.overflow, @3));
		VEC_PUSH(A, v, build_int(ps, $4.text, $4.val, $4.overflow, @4));
		$$ = build_dir_stmt(ps, $1, &v, &$5, @$);
	  }
	| K_PRAGMA string_list ';'      { $$ = build_dir_stmt(ps, $1, &$2, NULL, @$); }
	| K_BRANCHTARGETS ident_list ';' { $$ = build_dir_stmt(ps, $1, &$2, NULL, @$); }
	| K_CALLTARGETS ident_list ';'  { $$ = build_dir_stmt(ps, $1, &$2, NULL, @$); }
	| K_CALLPROTOTYPE plist_opt IDENT plist_opt func_dirs ';' { $$ = build_proto(ps, &$2, $3, &$4, &$5, @$); }
	;

block_open
	: '{'                           { parse_block_begin(ps, @1); }
	;

loc_attrs
	: %empty                        { $$ = (LocAttrVec){ 0 }; }
	| loc_attrs ',' loc_attr        { $$ = $1; VEC_PUSH(A, $$, *$3); }
	;

/* `.loc 1 5 3, function_name $L__info_string0, inlined_at 1 20 3`: each
 * attribute has a fixed shape, so the next statement is never swallowed. */
loc_attr
	: IDENT loc_vals                { $$ = BOX(LocAttr, { .loc = @$, .name = $1, .nargs = $2.n, .args = $2.v }); }
	;

loc_vals
	: IDENT                         { $$ = (ExprVec){ 0 }; VEC_PUSH(A, $$, build_name(ps, $1, NULL, @1)); }
	| IDENT '+' INTLIT              {
		$$ = (ExprVec){ 0 };
		Expr *e = build_binary(ps, '+', build_name(ps, $1, NULL, @1), build_int(ps, $3.text, $3.val, $3.overflow, @3), @$);
		VEC_PUSH(A, $$, e);
	  }
	| INTLIT INTLIT INTLIT          {
		$$ = (ExprVec){ 0 };
		VEC_PUSH(A, $$, build_int(ps, $1.text, $1.val, $1.overflow, @1));
		VEC_PUSH(A, $$, build_int(ps, $2.text, $2.val, $2.overflow, @2));
		VEC_PUSH(A, $$, build_int(ps, $3.text, $3.val, $3.overflow, @3));
	  }
	;

guard
	: '@' IDENT                     { $$.negated = false; $$.pred = build_name(ps, $2, NULL, @2); }
	| '@' '!' IDENT                 { $$.negated = true; $$.pred = build_name(ps, $3, NULL, @3); }
	;

/* `.alias` is both a module directive and a fence/membar modifier
 * (fence.proxy.alias), so the keyword is accepted here too. */
mods
	: DOTWORD                       { $$ = (WordVec){ 0 }; word_push(ps, &$$, $1, @1); }
	| K_ALIAS                       { $$ = (WordVec){ 0 }; word_push(ps, &$$, $1, @1); }
	| mods DOTWORD                  { $$ = $1; word_push(ps, &$$, $2, @2); }
	| mods K_ALIAS                  { $$ = $1; word_push(ps, &$$, $2, @2); }
	;

/* A register or an integer, most operands, goes into the list in the
 * reduction that reads it (no `expr` in between): in this state bison
 * tells `operands: IDENT .` (next ',' or ';') from `expr: IDENT .` (next
 * an operator) by the lookahead, as the expression rules below only
 * reduce to `operand` when they are not one bare atom. */
operands
	: IDENT                         { $$ = (ExprVec){ 0 }; VEC_PUSH(A, $$, build_name(ps, $1, NULL, @1)); }
	| INTLIT                        { $$ = (ExprVec){ 0 }; VEC_PUSH(A, $$, build_int(ps, $1.text, $1.val, $1.overflow, @1)); }
	| operand                       { $$ = (ExprVec){ 0 }; VEC_PUSH(A, $$, $1); }
	| operands ',' IDENT            { $$ = $1; VEC_PUSH(A, $$, build_name(ps, $3, NULL, @3)); }
	| operands ',' INTLIT           { $$ = $1; VEC_PUSH(A, $$, build_int(ps, $3.text, $3.val, $3.overflow, @3)); }
	| operands ',' operand          { $$ = $1; VEC_PUSH(A, $$, $3); }
	;

/* ---- expressions ---- */

/* Primary expressions are alternatives of expr itself (see stmt); a bare
 * name or integer is `expr` alone, everything else is an `operand` first
 * (see operands), which is an `expr` wherever an expression goes. */
expr
	: INTLIT                        { $$ = build_int(ps, $1.text, $1.val, $1.overflow, @1); }
	| IDENT                         { $$ = build_name(ps, $1, NULL, @1); }
	| operand                       { $$ = $1; }
	;

operand
	: FLOATLIT                      { $$ = build_float(ps, $1, @1); }
	| IDENT DOTWORD                 { $$ = build_name(ps, $1, $2, @$); }
	| IDENT '(' ')'                 { ExprVec v = { 0 }; $$ = build_call(ps, $1, &v, @$); }
	| IDENT '(' expr_list ')'       { $$ = build_call(ps, $1, &$3, @$); }
	/* mask(): 0xFF00(sym) in an initializer, the byte of an address that
	 * llc writes into packed aggregates. */
	| INTLIT '(' expr_list ')'      { $$ = build_call(ps, $1.text, &$3, @$); }
	| '(' expr_list ')'             { $$ = build_list(ps, EX_LIST, &$2, @$); }
	| '(' ')'                       { ExprVec v = { 0 }; $$ = build_list(ps, EX_LIST, &v, @$); }
	| '{' '}'                       { ExprVec v = { 0 }; $$ = build_list(ps, EX_VECTOR, &v, @$); }
	| '{' vec_elems '}'             { $$ = build_list(ps, EX_VECTOR, &$2, @$); }
	| '[' expr_list ']'             { $$ = build_list(ps, EX_ADDRESS, &$2, @$); }
	| '-' expr %prec UNARY          { $$ = build_unary(ps, '-', $2, @$); }
	| '+' expr %prec UNARY          { $$ = build_unary(ps, '+', $2, @$); }
	| '!' expr %prec UNARY          { $$ = build_unary(ps, '!', $2, @$); }
	| '~' expr %prec UNARY          { $$ = build_unary(ps, '~', $2, @$); }
	| expr '+' expr                 { $$ = build_binary(ps, '+', $1, $3, @$); }
	| expr '-' expr                 { $$ = build_binary(ps, '-', $1, $3, @$); }
	| expr '*' expr                 { $$ = build_binary(ps, '*', $1, $3, @$); }
	| expr '/' expr                 { $$ = build_binary(ps, '/', $1, $3, @$); }
	| expr '%' expr                 { $$ = build_binary(ps, '%', $1, $3, @$); }
	| expr '&' expr                 { $$ = build_binary(ps, '&', $1, $3, @$); }
	| expr '|' expr                 { $$ = build_binary(ps, '|', $1, $3, @$); }
	| expr '^' expr                 { $$ = build_binary(ps, '^', $1, $3, @$); }
	| expr SHL expr                 { $$ = build_binary(ps, OP_SHL, $1, $3, @$); }
	| expr SHR expr                 { $$ = build_binary(ps, OP_SHR, $1, $3, @$); }
	| expr ANDAND expr              { $$ = build_binary(ps, OP_ANDAND, $1, $3, @$); }
	| expr OROR expr                { $$ = build_binary(ps, OP_OROR, $1, $3, @$); }
	;

expr_list
	: expr                          { $$ = (ExprVec){ 0 }; VEC_PUSH(A, $$, $1); }
	| expr_list ',' expr            { $$ = $1; VEC_PUSH(A, $$, $3); }
	;

vec_elems
	: expr                          { $$ = (ExprVec){ 0 }; VEC_PUSH(A, $$, $1); }
	| IDENT '=' expr                { $$ = (ExprVec){ 0 }; VEC_PUSH(A, $$, build_field(ps, $1, $3, @$)); }
	| vec_elems ',' expr            { $$ = $1; VEC_PUSH(A, $$, $3); }
	| vec_elems ',' IDENT '=' expr  {
		$$ = $1;
		VEC_PUSH(A, $$, build_field(ps, $3, $5, srcloc_span(@3, @5)));
	  }
	;

/* ---- DWARF sections: labels and .b8/.b16/.b32/.b64 data ---- */

section_items
	: %empty                        { $$ = (StmtList){ 0 }; }
	| section_items section_item    { $$ = $1; stmt_append(&$$, $2); }
	| section_items error ';'       { $$ = $1; yyerrok; }
	;

section_item
	: IDENT ':'                     { $$ = build_label(ps, $1, @1); }
	| DOTWORD data_list             { $$ = build_dir_stmt(ps, $1, &$2, NULL, @$); }
	| DOTWORD data_list ';'         { $$ = build_dir_stmt(ps, $1, &$2, NULL, @$); }
	;

data_list
	: data_val                      { $$ = (ExprVec){ 0 }; VEC_PUSH(A, $$, $1); }
	| data_list ',' data_val        { $$ = $1; VEC_PUSH(A, $$, $3); }
	;

/* Section data is numbers, labels and section names, added or subtracted
 * (`$L__end - $L__start`). No general expressions: `.b64 sym` followed by
 * `.b8` on the next line must not read as a register component `sym.b8`. */
data_val
	: data_atom                     { $$ = $1; }
	| '-' INTLIT                    { $$ = build_unary(ps, '-', build_int(ps, $2.text, $2.val, $2.overflow, @2), @$); }
	| data_val '+' data_atom        { $$ = build_binary(ps, '+', $1, $3, @$); }
	| data_val '-' data_atom        { $$ = build_binary(ps, '-', $1, $3, @$); }
	;

data_atom
	: INTLIT                        { $$ = build_int(ps, $1.text, $1.val, $1.overflow, @1); }
	| FLOATLIT                      { $$ = build_float(ps, $1, @1); }
	| IDENT                         { $$ = build_name(ps, $1, NULL, @1); }
	| DOTWORD                       { $$ = build_section_ref(ps, $1, @1); }
	;

%%


static const char *token_desc(yysymbol_kind_t k)
{
	return yysymbol_name(k);
}

/* GCC-style syntax errors: say what was found and what would have been valid.
 * A missing ';' is reported at the end of the statement it belongs to, not at
 * the start of the next line. */
static int yyreport_syntax_error(const yypcontext_t *ctx, yyscan_t scanner, ParseState *ps)
{
	(void)scanner;
	/* The parser built without LAC (see parse.h) only has to notice the
	 * error: the exact pass reports it. "Out of memory" is the one answer
	 * that makes bison stop at once. */
	if (ps->fast) {
		ps->syntax_error = true;
		return YYENOMEM;
	}
	enum { MAXEXP = 64, LISTED = 6 };
	yysymbol_kind_t exp[MAXEXP];
	int n = yypcontext_expected_tokens(ctx, exp, MAXEXP);
	yysymbol_kind_t la = yypcontext_token(ctx);
	SrcLoc loc = *yypcontext_location(ctx);
	char want[512] = "";
	size_t w = 0;
	bool wants_semi = false, wants_comma = false, wants_close = false, wants_operand = false;
	for (int i = 0; i < n; i++) {
		const char *name = token_desc(exp[i]);
		wants_semi |= strcmp(name, "';'") == 0;
		wants_comma |= strcmp(name, "','") == 0;
		wants_close |= strcmp(name, "'}'") == 0;
		wants_operand |= exp[i] == YYSYMBOL_INTLIT;
	}
	/* The likely fixes first; long lists (every way an expression can
	 * start) read better as a description than as a dozen token names. */
	if (la == YYSYMBOL_YYEOF && wants_close) {
		snprintf(want, sizeof want, "'}' to close the block");
	} else if (wants_semi && wants_comma) {
		snprintf(want, sizeof want, "',' or ';'");
	} else if (wants_semi && n > LISTED) {
		snprintf(want, sizeof want, "';'");
	} else if (wants_operand && n > LISTED) {
		snprintf(want, sizeof want, "an operand (register, symbol, number, [address] or {vector})");
	} else {
		for (int i = 0; i < n && i < LISTED && w < sizeof want; i++)
			w += (size_t)snprintf(want + w, sizeof want - w, "%s%s",
					      i == 0 ? "" : i == n - 1 ? " or " : ", ", token_desc(exp[i]));
		if (n > LISTED && w < sizeof want)
			snprintf(want + w, sizeof want - w, ", ...");
	}
	if (la == YYSYMBOL_YYEOF) {
		diag_add(ps->diag, SEV_ERROR, loc, RULE_SYNTAX, "unexpected end of file%s%s",
			 n > 0 ? "; expected " : "", want);
		return 0;
	}
	if (wants_semi && ps->prev_tok.last_line > 0 && loc.first_line > ps->prev_tok.last_line) {
		SrcLoc at = { ps->prev_tok.last_line, ps->prev_tok.last_column,
			      ps->prev_tok.last_line, ps->prev_tok.last_column };
		diag_add(ps->diag, SEV_ERROR, at, RULE_SYNTAX, "expected ';' at the end of this statement");
		return 0;
	}
	int len = ps->tok_len > 40 ? 40 : (int)ps->tok_len;
	if (token_desc(la)[0] == '\'') /* punctuation: its name is its text */
		len = 0;
	if (len == 0 && n > 0)
		diag_add(ps->diag, SEV_ERROR, loc, RULE_SYNTAX, "unexpected %s; expected %s", token_desc(la), want);
	else if (len == 0)
		diag_add(ps->diag, SEV_ERROR, loc, RULE_SYNTAX, "unexpected %s", token_desc(la));
	else if (n > 0)
		diag_add(ps->diag, SEV_ERROR, loc, RULE_SYNTAX, "unexpected %s '%.*s'%s; expected %s",
			 token_desc(la), len, ps->tok_text, (int)ps->tok_len > len ? "..." : "", want);
	else
		diag_add(ps->diag, SEV_ERROR, loc, RULE_SYNTAX, "unexpected %s '%.*s'%s",
			 token_desc(la), len, ps->tok_text, (int)ps->tok_len > len ? "..." : "");
	return 0;
}

/* Called by bison only when its stack is exhausted: absurdly deep nesting
 * (or after the fast parser's stop above). */
static void ptx_error(SrcLoc *loc, yyscan_t scanner, ParseState *ps, const char *msg)
{
	(void)scanner;
	if (ps->fast) {
		ps->syntax_error = true;
		return;
	}
	diag_add(ps->diag, SEV_ERROR, *loc, RULE_SYNTAX, "%s: input is nested too deeply (%s)",
		 "cannot parse", msg);
}

/* SASS grammar: pure bison parser with locations. A file is a flat list of
 * statements: labels, kernel header directives, nvdisasm control-word lines
 * and instructions. An instruction is
 *
 *   [wait:rbar:wbar:Y:stall] [@[!]Pn] MNEMONIC[.MOD...] [operand, ...] [annotations] ; [/ * 0x... * /]
 *
 * Operands are parsed by shape only (register words, numbers, c[..][..],
 * [address], {list}, with - ~ ! |..| decorations); which form of the sm_50
 * table they select is decided in sass_asm_insn.c, never one rule per
 * opcode. Errors recover at the next ';'. */
%define api.pure full
%define api.prefix {sass_}
%define api.location.type {SrcLoc}
%define parse.error custom
%define parse.lac full
%locations
%initial-action { @$ = (SrcLoc){ 1, 1, 1, 1 }; }
%lex-param {yyscan_t scanner}
%parse-param {yyscan_t scanner} {SasmParseState *ps}
%expect 0

%code requires {
#include "sasm/sass_asm_ast.h"
#ifndef YY_TYPEDEF_YY_SCANNER_T
#define YY_TYPEDEF_YY_SCANNER_T
typedef void *yyscan_t;
#endif
}

%code provides {
int sass_lex(SASS_STYPE *lval, SrcLoc *lloc, yyscan_t scanner);
}

%code {
#include <string.h>

static void sass_error(SrcLoc *loc, yyscan_t scanner, SasmParseState *ps, const char *msg);

/* An address: base register (or none) plus a byte offset. */
static void add_suffix(SasmParseState *ps, SasmOperand *op, const char *suffix, SrcLoc loc)
{
	if (op->nsuffix < SASM_MAX_SUFFIXES)
		op->suffix[op->nsuffix++] = suffix;
	else
		diag_add(ps->diag, SEV_ERROR, loc, RULE_SASS_SYNTAX, "too many suffixes on one operand");
}

static SasmOperand address(SasmParseState *ps, SasmOperand base, int64_t off, SrcLoc loc);
static void add_operand(SasmParseState *ps, const SasmOperand *op);
static void add_suffix(SasmParseState *ps, SasmOperand *op, const char *suffix, SrcLoc loc);
static void start_insn(SasmParseState *ps);
static void simple_stmt(SasmParseState *ps, SasmStmtKind k, const char *name, int64_t a, int64_t b, SrcLoc loc);
}

%union {
	const char *str;
	uint64_t word;
	struct { uint64_t val; bool overflow; } num;
	SasmOperand op;
	int64_t off;
	uint32_t mask;
}

%token <str> WORD "word" LABEL "label" DOTWORD "dot-word" TARGET "branch target"
%token <str> CTRLNOTE "control notation" ANNOT "scheduling annotation"
%token <word> CTRLHEX "control word" INSNHEX "instruction word" FNUM "float"
%token <num> NUM "number"
%token <str> K_KERNEL ".kernel" K_PARAM ".param" K_SURFACE ".surface" K_SURFREF ".surfref"
%token <str> K_REGCOUNT ".regcount" TEXTSECTION "code section"

%type <op> operand atom addr_base
%type <off> addr_offset signed_num
%type <mask> list_items

%%

file
	: %empty
	| file stmt
	;

stmt
	: LABEL                         { simple_stmt(ps, SST_LABEL, $1, 0, 0, @1); }
	| CTRLHEX                       { SasmStmt s = { .kind = SST_CTRL_WORD, .loc = @1, .word = $1, .has_word = true };
	                                  sasm_push_stmt(ps, &s); }
	| K_KERNEL WORD                 { simple_stmt(ps, SST_KERNEL, $2, 0, 0, @$); }
	| TEXTSECTION                   { simple_stmt(ps, SST_KERNEL, $1, 0, 0, @$); }
	| '{'                           { /* a dual-issue pair of nvdisasm's cubin listings */ }
	| insn '}'                      { ps->cur.closes_pair = true; ps->cur.loc = srcloc_span(ps->cur.loc, @2);
	                                  sasm_push_stmt(ps, &ps->cur); }
	| K_PARAM NUM                   { simple_stmt(ps, SST_PARAM, NULL, (int64_t)$2.val, 0, @$); }
	| K_PARAM NUM ',' NUM           { simple_stmt(ps, SST_PARAM, NULL, (int64_t)$2.val, (int64_t)$4.val, @$); }
	| K_SURFACE WORD                { simple_stmt(ps, SST_SURFACE, $2, 0, 0, @$); }
	| K_SURFREF WORD                { simple_stmt(ps, SST_SURFREF, $2, 0, 0, @$); }
	| K_REGCOUNT NUM                { simple_stmt(ps, SST_REGCOUNT, NULL, (int64_t)$2.val, 0, @$); }
	| insn ';'                      { ps->cur.loc = srcloc_span(ps->cur.loc, @2); sasm_push_stmt(ps, &ps->cur); }
	| insn ';' INSNHEX              { ps->cur.word = $3; ps->cur.has_word = true;
	                                  ps->cur.loc = srcloc_span(ps->cur.loc, @2); sasm_push_stmt(ps, &ps->cur); }
	| error ';'                     { yyerrok; }
	;

insn
	: insn_start guard_opt WORD     { ps->cur.mnemonic = $3; ps->cur.mnemonic_loc = @3;
	                                  if (ps->cur.loc.first_line == 0)
	                                    ps->cur.loc = ps->cur.has_guard ? ps->cur.guard_loc : @3; }
	  operands_opt annotations
	;

insn_start
	: %empty                        { start_insn(ps); /* located at the guard or mnemonic */ }
	| CTRLNOTE                      { start_insn(ps); ps->cur.loc = @1; sasm_add_annotation(ps, $1, @1); }
	;

guard_opt
	: %empty
	| '@' WORD                      { ps->cur.has_guard = true; ps->cur.guard_name = $2; ps->cur.guard_loc = @$; }
	| '@' '!' WORD                  { ps->cur.has_guard = true; ps->cur.guard_not = true;
	                                  ps->cur.guard_name = $3; ps->cur.guard_loc = @$; }
	;

annotations
	: %empty
	| annotations ANNOT             { sasm_add_annotation(ps, $2, @2); }
	| annotations CTRLNOTE          { sasm_add_annotation(ps, $2, @2); }
	;

operands_opt
	: %empty
	| operands
	;

operands
	: operand                       { add_operand(ps, &$1); }
	| operands ',' operand          { add_operand(ps, &$3); }
	/* fnptr: BRX's offset follows its register without a comma (BRX R3 -0x80) */
	| operands NUM                  { SasmOperand o = { .kind = SOK_IMM, .loc = @2, .value = (int64_t)$2.val,
	                                                    .overflow = $2.overflow || $2.val > INT64_MAX };
	                                  add_operand(ps, &o); }
	| operands '-' NUM              { SasmOperand o = { .kind = SOK_IMM, .loc = @$, .value = (int64_t)$3.val,
	                                                    .overflow = $3.overflow || $3.val > INT64_MAX, .neg = true };
	                                  add_operand(ps, &o); }
	;

operand
	: atom                          { $$ = $1; }
	| '-' operand                   { $$ = $2; $$.neg = !$$.neg; $$.loc = @$; }
	| '~' operand                   { $$ = $2; $$.inv = true; $$.loc = @$; }
	| '!' operand                   { $$ = $2; $$.not_ = true; $$.loc = @$; }
	| '|' operand '|'               { $$ = $2; $$.abs = true; $$.loc = @$; }
	| '|' operand '|' DOTWORD       { $$ = $2; $$.abs = true; add_suffix(ps, &$$, $4, @4); $$.loc = @$; }
	;

atom
	: WORD                          { $$ = sasm_operand_word(ps, $1, @1); }
	| TARGET                        { $$ = sasm_operand_word(ps, $1, @1); $$.target_syntax = true; }
	| NUM                           { $$ = (SasmOperand){ .kind = SOK_IMM, .loc = @1, .value = (int64_t)$1.val,
	                                                      .overflow = $1.overflow || $1.val > INT64_MAX }; }
	| FNUM                          { $$ = (SasmOperand){ .kind = SOK_FLOAT, .loc = @1, .value = (int64_t)$1 }; }
	| WORD '[' NUM ']' '[' addr_base addr_offset ']'
	                                { $$ = address(ps, $6, $7, @$); $$.kind = SOK_CONST; $$.bank = (int64_t)$3.val;
	                                  if (strcmp($1, "c") != 0)
	                                    diag_add(ps->diag, SEV_ERROR, @1, RULE_SASS_SYNTAX,
	                                             "constant operands are written c[bank][offset], not %s[...]", $1); }
	| '[' addr_base addr_offset ']' { $$ = address(ps, $2, $3, @$); $$.kind = SOK_MEM; }
	| '{' list_items '}'            { $$ = (SasmOperand){ .kind = SOK_LIST, .loc = @$, .list = $2 }; }
	| '{' '}'                       { $$ = (SasmOperand){ .kind = SOK_LIST, .loc = @$ }; }
	| atom DOTWORD                  { $$ = $1; add_suffix(ps, &$$, $2, @2); $$.loc = @$; }
	;

/* The base of an address: a register word, a number (absolute address) or
 * nothing before a sign. */
addr_base
	: WORD                          { $$ = sasm_operand_word(ps, $1, @1); }
	| signed_num                    { $$ = (SasmOperand){ .kind = SOK_IMM, .loc = @1, .value = $1 }; }
	;

addr_offset
	: %empty                        { $$ = 0; }
	| addr_offset '+' signed_num    { $$ = $1 + $3; }
	| addr_offset '-' NUM           { $$ = $1 - (int64_t)$3.val; }
	;

signed_num
	: NUM                           { $$ = (int64_t)$1.val; }
	| '-' NUM                       { $$ = -(int64_t)$2.val; }
	;

list_items
	: NUM                           { $$ = $1.val < 32 ? UINT32_C(1) << $1.val : 0x80000000u; }
	| list_items ',' NUM            { $$ = $1 | ($3.val < 32 ? UINT32_C(1) << $3.val : 0x80000000u); }
	;

%%

static void start_insn(SasmParseState *ps)
{
	memset(&ps->cur, 0, sizeof ps->cur);
	ps->cur.kind = SST_INSN;
	ps->cur.sched.rd = ps->cur.sched.wr = ps->cur.sched.stall = -1;
}

static void add_operand(SasmParseState *ps, const SasmOperand *op)
{
	if (ps->cur.nops == SASM_MAX_OPERANDS) {
		diag_add(ps->diag, SEV_ERROR, op->loc, RULE_SASS_SYNTAX, "too many operands (at most %d)",
		         SASM_MAX_OPERANDS);
		return;
	}
	ps->cur.ops[ps->cur.nops++] = *op;
}

static SasmOperand address(SasmParseState *ps, SasmOperand base, int64_t off, SrcLoc loc)
{
	SasmOperand a = { .loc = loc, .reg = SASM_NO_REG };
	if (base.kind == SOK_IMM) {
		a.value = base.value + off;
	} else if (base.kind == SOK_REG) {
		a.reg = base.reg;
		a.value = off;
		memcpy(a.suffix, base.suffix, sizeof a.suffix);
		a.nsuffix = base.nsuffix;
	} else {
		diag_add(ps->diag, SEV_ERROR, base.loc, RULE_SASS_SYNTAX,
		         "an address is [register + offset] or [offset]; '%s' is no register",
		         base.name ? base.name : "?");
	}
	return a;
}

static void simple_stmt(SasmParseState *ps, SasmStmtKind k, const char *name, int64_t a, int64_t b, SrcLoc loc)
{
	SasmStmt s = { .kind = k, .loc = loc, .name = name, .num = { a, b } };
	sasm_push_stmt(ps, &s);
}

/* Syntax errors name what was found and what would have been valid. */
static int yyreport_syntax_error(const yypcontext_t *ctx, yyscan_t scanner, SasmParseState *ps)
{
	(void)scanner;
	enum { MAXEXP = 32, LISTED = 6 };
	yysymbol_kind_t exp[MAXEXP];
	int n = yypcontext_expected_tokens(ctx, exp, MAXEXP);
	yysymbol_kind_t la = yypcontext_token(ctx);
	SrcLoc loc = *yypcontext_location(ctx);
	bool wants_semi = false;
	char want[256] = "";
	size_t w = 0;
	for (int i = 0; i < n; i++)
		wants_semi |= strcmp(yysymbol_name(exp[i]), "';'") == 0;
	if (wants_semi && n > LISTED) {
		snprintf(want, sizeof want, "';'");
	} else {
		for (int i = 0; i < n && i < LISTED && w < sizeof want; i++)
			w += (size_t)snprintf(want + w, sizeof want - w, "%s%s",
			                      i == 0 ? "" : i == n - 1 ? " or " : ", ", yysymbol_name(exp[i]));
		if (n > LISTED && w < sizeof want)
			snprintf(want + w, sizeof want - w, ", ...");
	}
	if (wants_semi && ps->last_loc.last_line > 0 && loc.first_line > ps->last_loc.last_line) {
		SrcLoc at = { ps->last_loc.last_line, ps->last_loc.last_column,
		              ps->last_loc.last_line, ps->last_loc.last_column };
		diag_add(ps->diag, SEV_ERROR, at, RULE_SYNTAX, "expected ';' at the end of this instruction");
		return 0;
	}
	if (la == YYSYMBOL_YYEOF)
		diag_add(ps->diag, SEV_ERROR, loc, RULE_SYNTAX, "unexpected end of file%s%s",
		         n > 0 ? "; expected " : "", want);
	else if (n > 0)
		diag_add(ps->diag, SEV_ERROR, loc, RULE_SYNTAX, "unexpected %s; expected %s", yysymbol_name(la), want);
	else
		diag_add(ps->diag, SEV_ERROR, loc, RULE_SYNTAX, "unexpected %s", yysymbol_name(la));
	return 0;
}

/* Called by bison only when its stack is exhausted. */
static void sass_error(SrcLoc *loc, yyscan_t scanner, SasmParseState *ps, const char *msg)
{
	(void)scanner;
	diag_add(ps->diag, SEV_ERROR, *loc, RULE_SYNTAX, "cannot parse: %s", msg);
}

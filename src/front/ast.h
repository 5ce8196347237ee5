/* The PTX abstract syntax tree. Every node lives in the module's arena and
 * carries its source range. The tree records what was written (names and
 * modifiers as text, in order); classification into ISA facts happens in the
 * checker, which reads the opcode/modifier tables. */
#ifndef PTXSURF_AST_H
#define PTXSURF_AST_H

#include "base/arena.h"
#include "base/srcloc.h"

#include <stdbool.h>
#include <stdint.h>

/* ---- expressions (operands, initializers, directive arguments) ---- */

typedef enum ExprKind {
	EX_INT,      /* integer literal: ival, text keeps the spelling */
	EX_FLOAT,    /* float literal (decimal, 0f, 0d): text */
	EX_NAME,     /* register, symbol, label or `_`: name; component optional (%tid.x) */
	EX_STRING,   /* "..." (only in directives): text with quotes */
	EX_UNARY,    /* op '-', '!', '~': lhs */
	EX_BINARY,   /* op: '+','-','*','/','%','&','|','^', OP_SHL...: lhs, rhs */
	EX_VECTOR,   /* { e, ... } : elems */
	EX_ADDRESS,  /* [ e, ... ] : elems (1 = memory address, more = surface/texture tuple) */
	EX_LIST,     /* ( e, ... ) : elems (call argument lists; one element = parentheses) */
	EX_CALL,     /* name(e, ...): generic(), mask() in initializers */
	EX_FIELD,    /* name = lhs, in opaque initializers { width = 8 } */
	EX_SECTION,  /* a section name used as a value in DWARF data (.debug_abbrev) */
} ExprKind;

/* Operators spelled with two characters (single-character ones use the
 * character itself). */
enum { OP_SHL = 256, OP_SHR, OP_ANDAND, OP_OROR };

typedef struct Expr Expr;
struct Expr {
	ExprKind kind;
	int op;
	SrcLoc loc;
	bool ival_overflow;     /* literal does not fit in 64 bits: ival holds its low 64 bits */
	uint16_t depth;         /* height of the tree below (saturating); bounds recursion */
	uint32_t nelems;        /* EX_VECTOR, EX_ADDRESS, EX_LIST, EX_CALL */
	const char *text;       /* literal spelling, name, or field name */
	const char *component;  /* ".x" etc for EX_NAME, else NULL */
	/* One payload per kind keeps the node small: a 200 MB module has tens
	 * of millions of operands. */
	union {
		uint64_t ival;                  /* EX_INT */
		struct { Expr *lhs, *rhs; };    /* EX_UNARY (lhs), EX_BINARY, EX_FIELD (lhs) */
		Expr **elems;                   /* lists */
	};
};

/* ---- declarations ---- */

typedef struct Declarator {
	SrcLoc loc;
	const char *name;
	int64_t range;          /* %r<100>: 100; -1 when not parameterized */
	uint32_t ndims;
	int64_t *dims;          /* -1 for an unsized dimension [] */
	Expr *init;             /* NULL if none */
} Declarator;

/* One item of a declaration prefix: `.global`, `.align 8`, `.v4`, `.u32`,
 * `.ptr`, `.attribute(.managed)`. Kept in source order. */
typedef struct DeclSpec {
	SrcLoc loc;
	const char *word;       /* ".align", ".global", ".u32", ... */
	bool has_value;
	int64_t value;          /* .align N */
	Expr *args;             /* .attribute( ... ): an EX_LIST, else NULL */
} DeclSpec;

typedef struct VarDecl {
	SrcLoc loc;
	uint32_t nspecs;
	DeclSpec *specs;
	uint32_t ndecls;
	Declarator *decls;
} VarDecl;

/* ---- statements ---- */

typedef struct Instr {
	SrcLoc loc;
	bool has_guard;
	bool guard_negated;
	Expr *guard;            /* EX_NAME */
	const char *opcode;
	SrcLoc opcode_loc;
	int opcode_id;          /* index into the opcode table, -1 if unknown */
	uint32_t nmods;
	const char **mods;      /* ".b", ".1d", ... in source order */
	SrcLoc *mod_locs;
	uint32_t nops;
	Expr **ops;
} Instr;

/* Directives with free-form arguments: .pragma, .loc, .file, .maxntid,
 * .branchtargets, .calltargets, .alias, section data (.b8 ...). */
typedef struct Directive {
	SrcLoc loc;
	const char *name;       /* ".loc", ".maxntid", ".b32", ... */
	uint32_t nargs;
	Expr **args;
	/* .loc attributes: `, function_name x` and `, inlined_at 1 2 3` */
	uint32_t nattrs;
	struct LocAttr *attrs;
} Directive;

typedef struct LocAttr {
	SrcLoc loc;
	const char *name;
	uint32_t nargs;
	Expr **args;
} LocAttr;

typedef struct Func Func;
typedef struct Stmt Stmt;

typedef struct CallProto {
	SrcLoc loc;
	bool has_rets;
	uint32_t nrets;
	VarDecl *rets;
	const char *name;       /* always `_` in valid PTX */
	bool has_params;
	uint32_t nparams;
	VarDecl *params;
	uint32_t ndirs;         /* .noreturn, .abi_preserve... after the parameters */
	Directive *dirs;
} CallProto;

typedef enum StmtKind {
	ST_INSTR, ST_LABEL, ST_DECL, ST_BLOCK, ST_DIRECTIVE, ST_PROTO,
} StmtKind;

struct Stmt {
	StmtKind kind;
	SrcLoc loc;
	Stmt *next;
	union {
		Instr instr;
		const char *label;      /* ST_LABEL */
		VarDecl decl;
		Stmt *block;            /* ST_BLOCK: first statement */
		Directive dir;
		CallProto proto;
	} u;
};

/* ---- module ---- */

struct Func {
	SrcLoc loc;
	SrcLoc name_loc;
	bool is_entry;
	uint32_t nspecs;        /* linkage etc. before .entry/.func */
	DeclSpec *specs;
	const char *name;
	bool has_rets;
	uint32_t nrets;
	VarDecl *rets;
	bool has_params;
	uint32_t nparams;
	VarDecl *params;
	uint32_t ndirs;         /* performance directives, .pragma, .noreturn */
	Directive *dirs;
	bool has_body;          /* false: prototype ending in ';' */
	Stmt *body;
	SrcLoc body_loc;
};

typedef struct Section {
	SrcLoc loc;
	const char *name;       /* ".debug_info" */
	Stmt *items;            /* ST_LABEL and ST_DIRECTIVE (.b8/.b16/.b32/.b64 data) */
} Section;

typedef enum ItemKind {
	IT_VERSION, IT_TARGET, IT_ADDRESS_SIZE, IT_DIRECTIVE, IT_VAR, IT_FUNC, IT_SECTION,
} ItemKind;

typedef struct Item Item;
struct Item {
	ItemKind kind;
	SrcLoc loc;
	Item *next;
	union {
		struct { int major, minor; const char *text; SrcLoc text_loc; } version;
		struct { uint32_t n; const char **names; SrcLoc *locs; } target;
		struct { int64_t bits; } address_size;
		Directive dir;      /* .file, .pragma, .alias, .loc at module scope */
		VarDecl var;
		Func func;
		Section section;
	} u;
};

typedef struct Module {
	Arena arena;
	const char *filename;
	Item *items;
	Item *items_tail;
	uint32_t nitems;
	/* Integer literals wider than 64 bits that ptxas 13 truncates (the
	 * checker warns of them in strict mode), in source order. */
	SrcLoc *truncated_literals;
	uint32_t ntruncated_literals, truncated_cap;
} Module;

void module_init(Module *m, const char *filename);
void module_fini(Module *m);
/* Records a literal wider than 64 bits (Module.truncated_literals). */
void module_note_truncated_literal(Module *m, SrcLoc loc);

/* Builders used by the parser. */
Expr *expr_new(Arena *a, ExprKind k, SrcLoc loc);
Expr *expr_unary(Arena *a, int op, Expr *e, SrcLoc loc);
Expr *expr_binary(Arena *a, int op, Expr *l, Expr *r, SrcLoc loc);

/* Later passes recurse over expressions; the parser rejects deeper ones. */
enum { EXPR_MAX_DEPTH = 1000 };

/* Calls fn for every EX_NAME in e (operands of unary/binary operators,
 * elements of vectors, addresses, lists and calls, field values). */
void expr_for_each_name(const Expr *e, void (*fn)(void *ctx, const Expr *name), void *ctx);

/* Evaluate an integer constant expression; false if not constant. */
bool expr_const_int(const Expr *e, int64_t *out);

/* The value of an integer literal's text (0x, 0b, leading-0 octal or
 * decimal, an optional U suffix); false if it does not fit 64 bits. */
bool int_literal_value(const char *text, uint64_t *out);

/* A mask() term of an initializer, `0xFF00(sym)`: a call whose name is an
 * integer literal, with one argument. */
bool expr_is_mask_call(const Expr *e);

#endif

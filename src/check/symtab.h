/* Scoped symbol tables for the checker: registers (including %r<N>
 * parameterized ranges), variables, parameters, labels and functions. */
#ifndef PTXSURF_SYMTAB_H
#define PTXSURF_SYMTAB_H

#include "base/arena.h"
#include "front/ast.h"
#include "isa/ptx_types.h"

#include <stdbool.h>
#include <stdint.h>

typedef enum SymKind { SYM_REG, SYM_VAR, SYM_LABEL, SYM_FUNC, SYM_SPECIAL } SymKind;

typedef enum StateSpace {
	SP_NONE, SP_REG, SP_SREG, SP_CONST, SP_GLOBAL, SP_LOCAL, SP_PARAM, SP_SHARED, SP_TEX,
} StateSpace;

/* One formal parameter or return value of a function, as a call's
 * argument must match it (check_call.c). */
typedef struct Formal {
	const char *name;
	PtxType type;
	int64_t elems;          /* array elements (product of the dimensions), 1 for a scalar, -1 unsized */
	bool is_array;          /* declared with dimensions: x[1] is an array of one, not a scalar */
	bool is_param;          /* .param (else .reg) */
	uint8_t align_log2;     /* its .align, else its element's size, as a power of two */
} Formal;

typedef struct Formals {
	uint32_t nrets, nparams;
	Formal *rets, *params;
} Formals;

typedef struct Symbol {
	const char *name;
	const Formals *formals; /* SYM_FUNC: its return values and parameters; SYM_LABEL: the .callprototype it labels */
	int64_t range;          /* %r<N>: N (names %r0 .. %r<N-1>); -1 otherwise */
	int64_t elems;          /* SYM_VAR: as Formal.elems */
	SrcLoc loc;
	uint32_t seq;           /* declaration order (check_declare), for statements checked late */
	/* One byte each (SymKind, StateSpace, PtxType, 0/2/4/8): a function
	 * holds a Symbol per label until its end, 64 bytes instead of 88
	 * (--check of a 20 MB function with 81,500 labels: -1.9 MB). */
	uint8_t kind;
	uint8_t space;
	uint8_t type;
	uint8_t vec;
	uint8_t align_log2;     /* SYM_VAR: as Formal.align_log2 */
	bool is_array;
	bool is_entry_param;
	bool is_input_param;    /* .entry or .func input parameter (not a return) */
	bool is_extern;         /* .extern: a later definition is no duplicate */
	bool has_body;          /* SYM_FUNC: defined, not only declared */
	bool is_kernel;         /* SYM_FUNC: an .entry */
	bool is_constant;       /* SYM_SPECIAL WARP_SZ: ptxas reads it as an integer immediate */
} Symbol;

_Static_assert(sizeof(Symbol) <= 64, "a label costs a Symbol: keep it at 64 bytes");
_Static_assert(TY_COUNT <= 256 && SP_TEX < 256, "Symbol.type and .space are one byte");

typedef struct Scope Scope;
struct Scope {
	Scope *parent;
	Arena *arena;
	Symbol **slots;
	uint32_t cap, count;
};

Scope *scope_new(Arena *a, Scope *parent);
/* The symbol `name` declares in this scope only (ranges included). */
Symbol *scope_find_local(const Scope *s, const char *name);
/* Innermost declaration visible from s. */
Symbol *scope_lookup(const Scope *s, const char *name);
/* Innermost declaration visible from s among those declared (Symbol.seq)
 * at or before seq: what a statement checked late saw where it stood. */
Symbol *scope_lookup_before(const Scope *s, const char *name, uint32_t seq);
/* Adds sym (not copied). Returns the clashing symbol of the same scope
 * instead when the name is already declared there. */
Symbol *scope_add(Scope *s, Symbol *sym);

#endif

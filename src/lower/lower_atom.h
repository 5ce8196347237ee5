/* The shape of an atomic or reduction, shared by its lowering
 * (lower_atom.c) and the compare-and-swap loops of the operations sm_50
 * has no shared form for (lower_atom_cas.c). */
#ifndef PTXSURF_LOWER_ATOM_H
#define PTXSURF_LOWER_ATOM_H

#include "lower/lower_internal.h"

/* ATOM/RED operation codes; RED has the first eight. */
enum { AOP_ADD, AOP_MIN, AOP_MAX, AOP_INC, AOP_DEC, AOP_AND, AOP_OR, AOP_XOR, AOP_EXCH, AOP_CAS };
/* ATOM/RED data types (ATOMS: U32 0, S32 1, U64 2, S64 3). */
enum { AT_U32 = 0, AT_S32 = 1, AT_U64 = 2, AT_F32 = 3, AT_S64 = 5 };

typedef struct AtomShape {
	int op;
	int type;           /* AT_* */
	unsigned parts;     /* 32-bit registers per value */
	bool shared;
} AtomShape;

/* Shared memory has no form for this operation: ptxas builds it from an
 * ATOMS.CAS loop (f32 add, 64-bit arithmetic and logic). */
bool atom_needs_cas_loop(const AtomShape *s);

/* The loop on the shared word(s) at window base + off (base: a vreg, or
 * lower_mem.c's BASE_RZ), b the operand's vreg; the old value into dst
 * (LW_NO_DST: none). Runs only where the current guard holds (the loop is
 * branched around elsewhere). */
void lw_atom_cas_loop(LowerCtx *c, const AtomShape *s, int base, int64_t off, uint32_t b, uint32_t dst);

#endif

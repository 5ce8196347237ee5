/* PTX fundamental and opaque types as the checker classifies them, and the
 * operand-compatibility rule ptxas applies between an instruction type and
 * a register's declared type. */
#ifndef PTXSURF_PTX_TYPES_H
#define PTXSURF_PTX_TYPES_H

#include <stdbool.h>

typedef enum PtxType {
	TY_NONE,
	TY_B8, TY_B16, TY_B32, TY_B64, TY_B128,
	TY_U8, TY_U16, TY_U32, TY_U64,
	TY_S8, TY_S16, TY_S32, TY_S64,
	TY_F16, TY_F16X2, TY_BF16, TY_BF16X2, TY_F32, TY_F64,
	TY_PRED,
	TY_SURFREF, TY_TEXREF, TY_SAMPLERREF,
	TY_COUNT
} PtxType;

typedef enum TypeClass {
	TC_NONE, TC_BIT, TC_UNSIGNED, TC_SIGNED, TC_FLOAT, TC_PACKED, TC_PRED, TC_OPAQUE,
} TypeClass;

typedef struct TypeInfo {
	const char *word;   /* ".u32" */
	PtxType type;
	TypeClass cls;
	int bits;
} TypeInfo;

const TypeInfo *type_info(PtxType t);
/* ".u32" -> TY_U32; TY_NONE if the word is no type. */
PtxType type_from_word(const char *word);
static inline bool type_is_opaque(PtxType t) { return t == TY_SURFREF || t == TY_TEXREF || t == TY_SAMPLERREF; }

/* How strictly a register must match an instruction type. */
typedef enum FitRule {
	FIT_RELAXED,   /* ld/st/surface data: wider registers allowed (see below) */
	FIT_VECTOR,    /* st vector data ({...} elements, .v2/.v4 registers): see below */
	FIT_SIZE_EXACT /* suq: exactly the instruction's width, any class */
} FitRule;

/* True if a register of type `reg` may stand where instruction type `insn`
 * is expected. The relaxed rule (measured against ptxas 13 for st, suld,
 * sust, sured): bit types take any non-predicate register at least as wide;
 * signed/unsigned types take bit, integer or packed-half registers at least
 * as wide; float types take a float register of exactly their width or a bit
 * register at least as wide. The vector rule is the relaxed one, except
 * that a float type also takes a signed or unsigned register of exactly
 * its width (ptxas 13: st.v2.f32 [a], {%r1, %r2} with .u32 registers is
 * accepted, st.f32 [a], %r1 is not). */
bool type_register_fits(PtxType insn, PtxType reg, FitRule rule);

#endif

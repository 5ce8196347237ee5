/* The emitters of ptxas 11.8's f64 Newton sequences for sm_50, shared by
 * rcp.rn.f64 and sqrt.rn.f64 (lower_divsqrt64.c), div.rn.f64
 * (lower_ddiv.c) and rsqrt.approx.f64 (lower_drsqrt.c). A pair is a vreg
 * of 2 words, a word is (vreg, sub). Every constant these read from
 * .nv.constant2 is allocated in program order (lkernel_const2_slot/pair),
 * so a sequence that emits them in ptxas's order gets ptxas's layout. */
#ifndef PTXSURF_LOWER_F64SEQ_H
#define PTXSURF_LOWER_F64SEQ_H

#include "lower/lower_internal.h"

enum { DSEQ_MUFU_RCP64H = 6, DSEQ_MUFU_RSQ64H = 7 };
enum { DSEQ_RN = 0, DSEQ_RM = 1, DSEQ_RP = 2 };
/* comparison codes of ISETP/FSETP/DSETP/FSET */
enum {
	DSEQ_LT = 1, DSEQ_EQ = 2, DSEQ_GT = 4, DSEQ_NE = 5, DSEQ_GE = 6,
	DSEQ_NEU = 13, DSEQ_GTU = 12, DSEQ_GEU = 14,
};
enum { DSEQ_AND = 0, DSEQ_OR = 1, DSEQ_XOR = 2 };

enum {
	DSEQ_ONE_HI = 0x3ff00000,
	DSEQ_HALF_HI = 0x3fe00000,
	DSEQ_0375_HI20 = 0x3fd80,       /* 0.375 */
	DSEQ_INF_HI20 = 0x7ff00,
	DSEQ_EXP_ONE = 0xfff00000u,     /* -0x100000: halves an f64 by its high word */
};

/* Words of the f64 subroutines that scale and rebuild exponents by hand
 * (rcp.rz/.rm/.rp.f64, lower_drcp_dir.c; div.rm/.rp/.rz.f64, lower_ddiv_dir.c). */
enum {
	DSEQ_F64_2P54_HI20 = 0x43500,   /* 2^54: scales a subnormal operand */
	DSEQ_F64_QUIET = 0x80000,       /* the quiet bit of a NaN's high word */
	DSEQ_F64_SIGN = 0x80000000u,
	DSEQ_F64_MAX_HI = 0x7fefffff,   /* the largest finite f64's high word */
	DSEQ_F64_MANT_HI = 0xfffff,
	DSEQ_F64_HIDDEN_HI = 0x100000,
	DSEQ_EXP_BIAS = 0x3ff,
	DSEQ_SUBNORMAL_MIN_K = -0x434,  /* below: no subnormal is left */
	DSEQ_SUBNORMAL_SCALE = 54,
};

/* The addend 1.0 of the Newton steps: c[0x2] words, as ptxas reads it. */
#define DSEQ_ONE_CONST2 UINT32_MAX

/* A pair (or word) defined part by part or on several paths. */
uint32_t dseq_value(LowerCtx *c, unsigned width);

/* MUFU.RCP64H / MUFU.RSQ64H d.hi, a.hi (pairs) */
void dseq_mufu64h(LowerCtx *c, unsigned fn, uint32_t d, uint32_t a);
/* d = the biased exponent of the f64 whose high word is a.asub (SHL 1,
 * SHR.U32 21) */
void dseq_exponent(LowerCtx *c, uint32_t d, uint32_t a, unsigned asub);
/* IADD32I d.dsub, a.asub, imm */
void dseq_iadd32i(LowerCtx *c, uint32_t d, unsigned dsub, uint32_t a, unsigned asub, uint32_t imm);
/* LOP32I.op d.dsub, a.asub, imm */
void dseq_lop32i(LowerCtx *c, unsigned lop, uint32_t d, unsigned dsub, uint32_t a, unsigned asub, uint32_t imm);
/* ISETP.cmp[.U32].AND p, PT, a.asub, c[0x2][value] | RZ (value < 0), PT */
void dseq_isetp(LowerCtx *c, uint32_t p, unsigned cmp, bool is_signed, uint32_t a, unsigned asub, int64_t v);
/* FSETP.GEU.AND p, PT, |a.asub|, c[0x2][value], PT */
void dseq_fsetp_abs_geu_const2(LowerCtx *c, uint32_t p, uint32_t a, unsigned asub, uint32_t v);
/* DSETP.cmp.AND p, PT, [|]a[|], imm20 (or RZ when hi20 < 0), PT */
void dseq_dsetp(LowerCtx *c, uint32_t p, unsigned cmp, uint32_t a, bool abs, int64_t hi20);
/* DFMA.rnd d, a, [-]b, c (pairs; c DSEQ_ONE_CONST2: 1.0 from c[0x2]) */
void dseq_dfma(LowerCtx *c, unsigned rnd, uint32_t d, uint32_t a, uint32_t b, bool neg_b, uint32_t cv);
/* DFMA[.rnd] d, a, [-]b, c[0x2] (the pair (0, hi) from .nv.constant2) */
void dseq_dfma_const2(LowerCtx *c, unsigned rnd, uint32_t d, uint32_t a, uint32_t b, bool neg_b, uint32_t hi);
/* DSET.cmp.AND d, [|]a[|], RZ (hi20 < 0) | imm20, PT: all ones or 0 */
void dseq_dset(LowerCtx *c, uint32_t d, unsigned cmp, uint32_t a, bool abs, int64_t hi20);
/* LOP.op.NZ p, RZ, a, b */
void dseq_lop_nz(LowerCtx *c, uint32_t p, unsigned lop, uint32_t a, uint32_t b);
/* DFMA d, a, imm20, c */
void dseq_dfma_imm(LowerCtx *c, uint32_t d, uint32_t a, uint32_t hi20, uint32_t cv);
/* DMUL d, a, b (pairs) / DMUL d, a, imm20 */
void dseq_dmul(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b);
void dseq_dmul_imm(LowerCtx *c, uint32_t d, uint32_t a, uint32_t hi20);
/* DADD d, a, a */
void dseq_dadd_self(LowerCtx *c, uint32_t d, uint32_t a);
/* a pair holding the f64 (0, hi): RZ and MOV32I */
uint32_t dseq_const(LowerCtx *c, uint32_t hi);
void dseq_copy_pair(LowerCtx *c, uint32_t d, uint32_t a);
/* The .f64 operand in a register pair (a parameter or immediate moved in). */
bool dseq_operand(LowerCtx *c, const Expr *e, uint32_t *pair);
/* y = the refined rsqrt of x from the seed pair s (s.hi = rsq64h(x.hi)):
 * e = 1 - x s^2, y = fma(fma(e, 0.375, 0.5), s e, s) */
void dseq_rsqrt_refine(LowerCtx *c, uint32_t y, uint32_t s, uint32_t x);

#endif

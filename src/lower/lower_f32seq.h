/* The emitters of ptxas 11.8's f32 division, reciprocal and square-root
 * sequences for sm_50 (lower_divrn.c, lower_frcp.c, lower_fdiv_dir.c,
 * lower_divsqrt.c): one SASS instruction each, in the forms and with the
 * constants ptxas writes. A register source v < 0 is RZ, a predicate
 * source q < 0 is PT; .nv.constant2 words are allocated in program order
 * (lkernel_const2_slot), so a sequence that reads them in ptxas's order
 * gets ptxas's layout. */
#ifndef PTXSURF_LOWER_F32SEQ_H
#define PTXSURF_LOWER_F32SEQ_H

#include "lower/lower_internal.h"

enum { MUFU_RCP = 4, MUFU_RSQ = 5 };
enum { CMP_LT = 1, CMP_EQ = 2, CMP_GT = 4, CMP_NE = 5, CMP_GE = 6, CMP_GTU = 12, CMP_NEU = 13 };
enum { LOP_AND = 0, LOP_OR = 1 };
enum { BOP_AND = 0, BOP_OR = 1 };
enum { NEG_B = 1, NEG_A = 2 };
enum { RND_RM = 1, RND_RP = 2, RND_RZ = 3 };
enum { LOPTEST_NZ = 1 };
enum { RZ = 255, PT = 7 };

enum {
	F32_ONE = 0x3f800000,
	F32_INF = 0x7f800000,
	F32_2P64 = 0x5f800000,
	F32_SIGN = 0x80000000u,
	F32_MAG = 0x7fffffff,
	F32_MANT = 0x7fffff,
	F32_HIDDEN = 0x800000,
	EXP_FIELD = 0x817,              /* BFE position 23, 8 bits */
	EXP_SCALED = 0xffffffc0u,       /* -64: a subnormal dividend's 2^64 */
	DIV_NAN_SEED = 0xffc00000u,     /* rsq of it is the NaN of 0/0, inf/inf */
	ONE_BIASED = 0xc0800000u,       /* -0x3f800000: exponent 0 of a biased field */
	LOP3_AND_OR = 0xc8,             /* B & (A | C) */
	LOP3_SIGN_XOR = 0x48,           /* B & (A ^ C) */
	LOP3_OR_AND = 0xf8,             /* A | (B & C) */
	F32_MINUS_ONE = 0xbf800000u,
	RCP_BIAS = 0x1800000,           /* the fast test: exponent + 3 */
	RCP_FAST_MIN = 0x1ffffff,
	RCP_SUBNORMAL_EXP = 0xfd,       /* biased exponents 0xfd, 0xfe: 1/x subnormal */
	RCP_SHIFT_BIAS = 0xfc,
	F32_ONE_EXP = 0x3f800000,
};

/* The rounding of OP.rnd[.ftz].f32 (sqrt, rcp), as FFMA's field (0 .rn,
 * 1 .rm, 2 .rp, 3 .rz); false, with the diagnostic, on another modifier. */
bool fseq_rounding(LowerCtx *c, const Instr *in, unsigned *rnd);
LInsn *fseq_alu_imm(LowerCtx *c, SassFormId form, uint32_t d, int a, uint32_t imm);
void fseq_iadd(LowerCtx *c, uint32_t d, int a, int b, unsigned neg);
void fseq_ffma(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b, bool neg_b, int cv, unsigned rnd);
void fseq_ffma_const2(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b, bool neg_b, uint32_t value);
void fseq_fneg_ftz(LowerCtx *c, uint32_t d, uint32_t a);
void fseq_lop32i(LowerCtx *c, uint32_t d, uint32_t a, uint32_t imm, unsigned lop);
void fseq_ffma_2p64(LowerCtx *c, uint32_t d, uint32_t a);
void fseq_mufu(LowerCtx *c, unsigned fn, uint32_t d, uint32_t a);
void fseq_isetp_imm(LowerCtx *c, uint32_t p, int a, unsigned cmp, bool is_signed, int32_t imm, unsigned bop, int q);
void fseq_isetp_r(LowerCtx *c, uint32_t p, uint32_t a, int b, unsigned cmp, bool is_signed, unsigned bop, int q);
void fseq_isetp_rz(LowerCtx *c, uint32_t p, uint32_t a, unsigned cmp, int q);
void fseq_fset_abs_inf(LowerCtx *c, uint32_t d, uint32_t a, unsigned cmp);
void fseq_fsetp_finite(LowerCtx *c, uint32_t p, uint32_t a);
void fseq_lop_nz(LowerCtx *c, uint32_t p, uint32_t a, uint32_t b, unsigned lop, bool inv);
void fseq_nonzero_magnitude(LowerCtx *c, uint32_t p, uint32_t a);
void fseq_psetp(LowerCtx *c, uint32_t p, uint32_t x, uint32_t y, bool negated, unsigned bop);
void fseq_lop3_nz(LowerCtx *c, uint32_t p, uint32_t a, uint32_t b, uint32_t cv, unsigned lut);
void fseq_lop_and_nz_imm(LowerCtx *c, uint32_t p, uint32_t a, uint32_t imm);
void fseq_lop3_sign(LowerCtx *c, uint32_t d, uint32_t a, uint32_t cv, unsigned lut);
void fseq_exp_field(LowerCtx *c, uint32_t d, uint32_t a);
void fseq_put_exponent(LowerCtx *c, uint32_t res, uint32_t e, uint32_t q);
uint32_t fseq_in_reg(LowerCtx *c, const Opnd *o);
void fseq_isetp_const2(LowerCtx *c, uint32_t p, uint32_t a, unsigned cmp, bool is_signed, uint32_t value);
void fseq_iset(LowerCtx *c, uint32_t d, uint32_t a, uint32_t value, unsigned cmp, bool is_signed);
void fseq_icmp(LowerCtx *c, uint32_t d, int a, int b, uint32_t sel, unsigned cmp, bool is_signed);
void fseq_icmp_const2(LowerCtx *c, uint32_t d, uint32_t a, uint32_t value, uint32_t sel, unsigned cmp);
void fseq_icmp_imm(LowerCtx *c, uint32_t d, int a, uint32_t imm, uint32_t sel, unsigned cmp, bool is_signed);
void fseq_lop3(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b, uint32_t cv, unsigned lut);
void fseq_lop(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b, unsigned lop);

#endif

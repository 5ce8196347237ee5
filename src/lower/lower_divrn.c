/* Lowering of the IEEE-rounded f32 division and reciprocal, div.rn.f32
 * and rcp.rn.f32, as ptxas 11.8 writes them for sm_50 (-O3). Division: a fast path of MUFU.RCP and five FFMAs,
 * correct whenever FCHK.DIVIDE finds no operand or intermediate outside
 * the normal range, and a slow path for the rest:
 *
 *   fast:  r = rcp(b); r = fma(r, fma(b, -r, 1), r); q = fma(a, r, +0);
 *          d = fma(r, fma(b, -q, a), q)
 *   slow (`__cuda_sm3x_div_rn_noftz_f32_slowpath`):
 *     NaN operand: a + b; 0/0 and inf/inf: rsq(-NaN) (a NaN);
 *     x/inf and 0/y: a signed zero; inf/y and x/0: a signed infinity;
 *     else both operands are brought to exponent 0 (subnormals scaled by
 *     2^64 first), divided with three refinement steps, and the exponent
 *     put back: by ISCADD when the result is normal, as an infinity on
 *     overflow, as a signed zero below 2^-149, and in between rounded to
 *     a subnormal by hand (the RZ/RM/RP quotients give the lost bits).
 *
 * Reciprocal (fast when ((x + 0x1800000) & 0x7f800000) > 0x1ffffff,
 * i.e. 1/x is normal and x finite):
 *   r = rcp(x); d = fma(r, -fma(x, r, -1), r)
 *   slow (`__cuda_sm20_rcp_rn_f32_slowpath`): a zero: rcp(x) (an
 *   infinity); a subnormal x: the fast steps on x * 2^64, times 2^64; an
 *   infinity or NaN: rcp(x); a result below 2^-126 (x's biased exponent
 *   0xfd or 0xfe): the reciprocal of x's significand rounded to a
 *   subnormal by hand (RM and RP steps for inexactness).
 *
 * ptxas reaches its slow paths with CAL under SSY and leaves by BRK/RET;
 * here it runs inline behind branches with the same arithmetic, so every
 * result is ptxas's bit for bit (tests/sim/sim-diff.sh compares them on
 * the simulator; docs/simulator.md says how FCHK is modelled). Where
 * ptxas has a form the table lacks (ISCADD32I, IADD3 with an immediate
 * middle term) two instructions compute the same word. */
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

/* ---- operands (labels, guards and branches: lower_ctx.c) ---- */

LInsn *lw_op_def(LowerCtx *c, SassFormId form, int d)
{
	LInsn *op = lw_emit(c, form);
	if (d < 0)
		linsn_set(op, SR_RD, RZ);
	else
		linsn_ref(op, SR_RD, (uint32_t)d, 0, 1, true);
	return op;
}

void lw_op_use(LInsn *op, SassRole r, int v)
{
	if (v < 0)
		linsn_set(op, r, RZ);
	else
		linsn_ref(op, r, (uint32_t)v, 0, 1, false);
}

/* a predicate destination or source (p < 0: PT) */
void lw_op_pred(LInsn *op, SassRole r, int p, bool def)
{
	if (p < 0)
		linsn_set(op, r, PT);
	else
		linsn_ref(op, r, (uint32_t)p, 0, 1, def);
}

uint32_t lw_pred_temp(LowerCtx *c)
{
	return lkernel_new_vreg(c->k, LRC_PRED, 1, true);
}

/* A value defined on more than one path: not a temporary in the liveness
 * sense (see lower_selp). */
uint32_t lw_path_value(LowerCtx *c)
{
	uint32_t t = lw_temp(c, 1);
	c->k->vregs[t].temp = false;
	return t;
}

/* ---- the instructions of the sequence ---- */

static LInsn *alu_imm(LowerCtx *c, SassFormId form, uint32_t d, int a, uint32_t imm)
{
	LInsn *op = lw_op_def(c, form, (int)d);
	lw_op_use(op, SR_RA, a);
	linsn_set(op, SR_IMM, imm);
	return op;
}

/* d = a + b, -a + b (NEG_A) or a - b (NEG_B) */
static void iadd(LowerCtx *c, uint32_t d, int a, int b, unsigned neg)
{
	LInsn *op = lw_op_def(c, SF_IADD_R, (int)d);
	lw_op_use(op, SR_RA, a);
	lw_op_use(op, SR_RB, b);
	linsn_set(op, SR_NEG, neg);
}

/* FFMA[.rnd] d, a, [-]b, c (c < 0: RZ) */
static void ffma(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b, bool neg_b, int cv, unsigned rnd)
{
	LInsn *op = lw_op_def(c, SF_FFMA_R, (int)d);
	lw_op_use(op, SR_RA, (int)a);
	lw_op_use(op, SR_RB, (int)b);
	linsn_set(op, SR_NEGB, neg_b);
	lw_op_use(op, SR_RC, cv);
	linsn_set(op, SR_RND, rnd);
}

/* FFMA d, a, [-]b, c[0x2][value] */
void lw_ffma_const2(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b, bool neg_b, uint32_t value)
{
	LInsn *op = lw_op_def(c, SF_FFMA_RC, (int)d);
	lw_op_use(op, SR_RA, (int)a);
	lw_op_use(op, SR_RB, (int)b);
	linsn_set(op, SR_NEGB, neg_b);
	linsn_set(op, SR_CBANK, LK_CONST2_BANK);
	linsn_set(op, SR_COFF, lkernel_const2_slot(c->k, value) / 4);
}

/* FADD.FTZ d, -a, -RZ: the negation ptxas writes */
static void fneg_ftz(LowerCtx *c, uint32_t d, uint32_t a)
{
	LInsn *op = lw_op_def(c, SF_FADD_R, (int)d);
	lw_op_use(op, SR_RA, (int)a);
	linsn_set(op, SR_RB, RZ);
	linsn_set(op, SR_NEGA, 1);
	linsn_set(op, SR_NEGB, 1);
	linsn_set(op, SR_FTZ, 1);
}

/* LOP32I.op d, a, imm */
static void lop32i(LowerCtx *c, uint32_t d, uint32_t a, uint32_t imm, unsigned lop)
{
	LInsn *op = lw_op_def(c, SF_LOP32I, (int)d);
	lw_op_use(op, SR_RA, (int)a);
	linsn_set(op, SR_IMM, imm);
	linsn_set(op, SR_LOPOP, lop);
}

/* FFMA d, a, 2^64, RZ */
static void ffma_2p64(LowerCtx *c, uint32_t d, uint32_t a)
{
	LInsn *op = lw_op_def(c, SF_FFMA_I, (int)d);
	lw_op_use(op, SR_RA, (int)a);
	linsn_set(op, SR_IMM, F32_2P64 >> 12);
	linsn_set(op, SR_RC, RZ);
}

static void mufu(LowerCtx *c, unsigned fn, uint32_t d, uint32_t a)
{
	LInsn *op = lw_op_def(c, SF_MUFU, (int)d);
	lw_op_use(op, SR_RA, (int)a);
	linsn_set(op, SR_MUFUOP, fn);
}

/* ISETP.cmp[.U32].bop p, PT, a, imm, [q] (q < 0: PT) */
static void isetp_imm(LowerCtx *c, uint32_t p, int a, unsigned cmp, bool is_signed, int32_t imm, unsigned bop,
                      int q)
{
	LInsn *op = lw_emit(c, SF_ISETP_I);
	lw_op_pred(op, SR_PD, (int)p, true);
	linsn_set(op, SR_PQ, PT);
	lw_op_use(op, SR_RA, a);
	linsn_set(op, SR_IMM, imm);
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_SIGNED, is_signed);
	linsn_set(op, SR_BOP, bop);
	lw_op_pred(op, SR_PC, q, false);
}

/* ISETP.cmp.AND p, PT, a, RZ, [q] */
static void isetp_rz(LowerCtx *c, uint32_t p, uint32_t a, unsigned cmp, int q)
{
	LInsn *op = lw_emit(c, SF_ISETP_R);
	lw_op_pred(op, SR_PD, (int)p, true);
	linsn_set(op, SR_PQ, PT);
	lw_op_use(op, SR_RA, (int)a);
	linsn_set(op, SR_RB, RZ);
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_SIGNED, 1);
	lw_op_pred(op, SR_PC, q, false);
}

/* FSET.cmp.FTZ.AND d, |a|, +INF, PT */
static void fset_abs_inf(LowerCtx *c, uint32_t d, uint32_t a, unsigned cmp)
{
	LInsn *op = lw_op_def(c, SF_FSET_I, (int)d);
	lw_op_use(op, SR_RA, (int)a);
	linsn_set(op, SR_ABSA, 1);
	linsn_set(op, SR_IMM, F32_INF >> 12);
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_FTZ, 1);
	linsn_set(op, SR_PC, PT);
}

/* FSETP.NEU.FTZ.AND p, PT, |a|, +INF, PT */
static void fsetp_finite(LowerCtx *c, uint32_t p, uint32_t a)
{
	LInsn *op = lw_emit(c, SF_FSETP_I);
	lw_op_pred(op, SR_PD, (int)p, true);
	linsn_set(op, SR_PQ, PT);
	lw_op_use(op, SR_RA, (int)a);
	linsn_set(op, SR_ABSA, 1);
	linsn_set(op, SR_IMM, F32_INF >> 12);
	linsn_set(op, SR_CMP, CMP_NEU);
	linsn_set(op, SR_FTZ, 1);
	linsn_set(op, SR_PC, PT);
}

/* LOP.op.NZ p, RZ, [~]a, [~]b */
static void lop_nz(LowerCtx *c, uint32_t p, uint32_t a, uint32_t b, unsigned lop, bool inv)
{
	LInsn *op = lw_emit(c, SF_LOP_P_R);
	lw_op_pred(op, SR_PD, (int)p, true);
	linsn_set(op, SR_RD, RZ);
	lw_op_use(op, SR_RA, (int)a);
	lw_op_use(op, SR_RB, (int)b);
	linsn_set(op, SR_LOPOP, lop);
	linsn_set(op, SR_INVA, inv);
	linsn_set(op, SR_INVB, inv);
	linsn_set(op, SR_LOPTEST, LOPTEST_NZ);
}

/* LOP.AND.NZ p, RZ, a, c[0x2][0x7fffffff]: a is not a zero */
static void nonzero_magnitude(LowerCtx *c, uint32_t p, uint32_t a)
{
	LInsn *op = lw_emit(c, SF_LOP_P_C);
	lw_op_pred(op, SR_PD, (int)p, true);
	linsn_set(op, SR_RD, RZ);
	lw_op_use(op, SR_RA, (int)a);
	linsn_set(op, SR_CBANK, LK_CONST2_BANK);
	linsn_set(op, SR_COFF, lkernel_const2_slot(c->k, F32_MAG) / 4);
	linsn_set(op, SR_LOPOP, LOP_AND);
	linsn_set(op, SR_LOPTEST, LOPTEST_NZ);
}

/* PSETP.bop.AND p, PT, [!]x, [!]y, PT */
static void psetp(LowerCtx *c, uint32_t p, uint32_t x, uint32_t y, bool negated, unsigned bop)
{
	LInsn *op = lw_emit(c, SF_PSETP);
	lw_op_pred(op, SR_PD, (int)p, true);
	linsn_set(op, SR_PQ, PT);
	lw_op_pred(op, SR_PA, (int)x, false);
	linsn_set(op, SR_PA_NOT, negated);
	lw_op_pred(op, SR_PB, (int)y, false);
	linsn_set(op, SR_PB_NOT, negated);
	linsn_set(op, SR_BOP, bop);
	linsn_set(op, SR_BOP2, BOP_AND);
	linsn_set(op, SR_PC, PT);
}

/* LOP3.LUT.NZ p, RZ, a, b, c, lut */
static void lop3_nz(LowerCtx *c, uint32_t p, uint32_t a, uint32_t b, uint32_t cv, unsigned lut)
{
	LInsn *op = lw_emit(c, SF_LOP3_P_R);
	lw_op_pred(op, SR_PD, (int)p, true);
	linsn_set(op, SR_RD, RZ);
	lw_op_use(op, SR_RA, (int)a);
	lw_op_use(op, SR_RB, (int)b);
	lw_op_use(op, SR_RC, (int)cv);
	linsn_set(op, SR_LUT, lut);
	linsn_set(op, SR_LOPTEST, LOPTEST_NZ);
}

/* LOP.AND.NZ p, RZ, a, imm */
static void lop_and_nz_imm(LowerCtx *c, uint32_t p, uint32_t a, uint32_t imm)
{
	LInsn *op = lw_emit(c, SF_LOP_P_I);
	lw_op_pred(op, SR_PD, (int)p, true);
	linsn_set(op, SR_RD, RZ);
	lw_op_use(op, SR_RA, (int)a);
	linsn_set(op, SR_IMM, imm);
	linsn_set(op, SR_LOPOP, LOP_AND);
	linsn_set(op, SR_LOPTEST, LOPTEST_NZ);
}

/* LOP3.LUT d, a, c[0x2][0x80000000], c, lut */
static void lop3_sign(LowerCtx *c, uint32_t d, uint32_t a, uint32_t cv, unsigned lut)
{
	LInsn *op = lw_op_def(c, SF_LOP3_C, (int)d);
	lw_op_use(op, SR_RA, (int)a);
	linsn_set(op, SR_CBANK, LK_CONST2_BANK);
	linsn_set(op, SR_COFF, lkernel_const2_slot(c->k, F32_SIGN) / 4);
	lw_op_use(op, SR_RC, (int)cv);
	linsn_set(op, SR_LUT, lut);
}

/* BFE.U32 d, a, 0x817: a's biased exponent */
static void exp_field(LowerCtx *c, uint32_t d, uint32_t a)
{
	alu_imm(c, SF_BFE_I, d, (int)a, EXP_FIELD);
	linsn_set(&c->k->insns[c->k->ninsns - 1], SR_SIGNED, 0);
}

/* ISCADD res, e, q, 0x17: the exponent e put back into q */
static void put_exponent(LowerCtx *c, uint32_t res, uint32_t e, uint32_t q)
{
	LInsn *op = lw_op_def(c, SF_ISCADD_R, (int)res);
	lw_op_use(op, SR_RA, (int)e);
	lw_op_use(op, SR_RB, (int)q);
	linsn_set(op, SR_SHIFT, 23);
}

/* ---- div.rn.f32 ---- */

/* The special quotients, each at its label (exit[0..3]) writing res and
 * jumping to done: a signed infinity, a signed zero (the sign of sa ^ sb),
 * the NaN of 0/0 and inf/inf (rsq(-NaN)), a + b for a NaN operand. */
static void div_exits(LowerCtx *c, uint32_t res, uint32_t a, uint32_t b, uint32_t sa, uint32_t sb,
                      const int exit[4], int done)
{
	lw_label_place(c->k, exit[0]);
	lop3_sign(c, res, sb, sa, LOP3_SIGN_XOR);
	lop32i(c, res, res, F32_INF, LOP_OR);
	lw_branch(c, -1, false, done);
	lw_label_place(c->k, exit[1]);
	lop3_sign(c, res, sb, sa, LOP3_SIGN_XOR);
	lw_branch(c, -1, false, done);
	lw_label_place(c->k, exit[2]);
	uint32_t seed = lw_temp(c, 1);
	lw_mov32i(c, seed, 0, DIV_NAN_SEED);
	mufu(c, MUFU_RSQ, res, seed);
	lw_branch(c, -1, false, done);
	lw_label_place(c->k, exit[3]);
	LInsn *add = lw_op_def(c, SF_FADD_R, (int)res);
	lw_op_use(add, SR_RA, (int)a);
	lw_op_use(add, SR_RB, (int)b);
	linsn_set(add, SR_FTZ, 1);
	lw_branch(c, -1, false, done);
}

/* to `to` on a test of |a| and |b| against +INF joined by LOP.NZ: a or
 * b a NaN (GTU, OR), or both infinite (NEU, AND of the complements) */
static void branch_on_inf_test(LowerCtx *c, uint32_t a, uint32_t b, bool nan_test, int to)
{
	uint32_t x = lw_temp(c, 1), y = lw_temp(c, 1), p = lw_pred_temp(c);
	fset_abs_inf(c, x, a, nan_test ? CMP_GTU : CMP_NEU);
	fset_abs_inf(c, y, b, nan_test ? CMP_GTU : CMP_NEU);
	lop_nz(c, p, x, y, nan_test ? LOP_OR : LOP_AND, !nan_test);
	lw_branch(c, (int)p, false, to);
}

/* The special operands (one is zero, subnormal, infinite or NaN): each
 * exit writes res and jumps to done; scaled subnormals fall through to
 * the general steps with a2, b2 and the exponent bias s. */
static void div_special(LowerCtx *c, uint32_t res, uint32_t a, uint32_t b, uint32_t a2, uint32_t b2,
                        uint32_t ea1, uint32_t eb1, uint32_t s, int done)
{
	int nan_sum = lw_label_new(c->k), nan = lw_label_new(c->k), zero = lw_label_new(c->k),
	    inf = lw_label_new(c->k);
	branch_on_inf_test(c, a, b, true, nan_sum);

	uint32_t k = lw_temp(c, 1), q = lw_pred_temp(c);
	LInsn *op = lw_op_def(c, SF_MOV_C, (int)k);
	linsn_set(op, SR_CBANK, LK_CONST2_BANK);
	linsn_set(op, SR_COFF, lkernel_const2_slot(c->k, F32_MAG) / 4);
	linsn_set(op, SR_LANEMASK, 0xf);
	lop3_nz(c, q, b2, k, a2, LOP3_AND_OR);
	lw_branch(c, (int)q, true, nan);

	branch_on_inf_test(c, a, b, false, nan);

	uint32_t bf = lw_pred_temp(c), an = lw_pred_temp(c), z = lw_pred_temp(c);
	fsetp_finite(c, bf, b);
	nonzero_magnitude(c, an, a2);
	psetp(c, z, bf, an, true, BOP_OR);
	lw_branch(c, (int)z, false, zero);

	uint32_t af = lw_pred_temp(c), bn = lw_pred_temp(c), i = lw_pred_temp(c);
	fsetp_finite(c, af, a);
	nonzero_magnitude(c, bn, b2);
	psetp(c, i, af, bn, true, BOP_OR);
	lw_branch(c, (int)i, false, inf);

	uint32_t an_ok = lw_pred_temp(c), bn_ok = lw_pred_temp(c);
	isetp_rz(c, an_ok, ea1, CMP_GE, -1);
	isetp_rz(c, bn_ok, eb1, CMP_GE, -1);
	lw_guard(c, (int)an_ok, false);
	lw_mov_rz(c, s, 0);
	lw_guard(c, (int)an_ok, true);
	lw_mov32i(c, s, 0, EXP_SCALED);
	ffma_2p64(c, a2, a);
	lw_guard(c, (int)bn_ok, true);
	ffma_2p64(c, b2, b);
	alu_imm(c, SF_IADD32I, s, (int)s, 64);
	lw_guard(c, -1, false);
	int normal = lw_label_new(c->k);
	lw_branch(c, -1, false, normal);

	div_exits(c, res, a, b, a2, b2, (const int[4]){ inf, zero, nan, nan_sum }, done);
	lw_label_place(c->k, normal);
}

/* A quotient below the normal range: the significand of the RZ quotient
 * shifted right by 1 - e, rounded to nearest even with the bits the
 * shift drops and the inexactness the RM and RP quotients show. */
static void div_subnormal(LowerCtx *c, uint32_t res, uint32_t r2, uint32_t f3, uint32_t q1, uint32_t e)
{
	uint32_t z = lw_temp(c, 1), lo = lw_temp(c, 1), hi = lw_temp(c, 1), sh = lw_temp(c, 1);
	uint32_t m = lw_temp(c, 1), lost = lw_temp(c, 1), ne = lw_temp(c, 1), ne2 = lw_temp(c, 1);
	uint32_t m2 = lw_temp(c, 1), h = lw_temp(c, 1), st = lw_temp(c, 1), st2 = lw_temp(c, 1);
	uint32_t st3 = lw_temp(c, 1), rd = lw_temp(c, 1);
	uint32_t p1 = lw_pred_temp(c), p0 = lw_pred_temp(c), lp = lw_pred_temp(c), sticky = lw_pred_temp(c);
	ffma(c, z, r2, f3, false, (int)q1, RND_RZ);
	isetp_rz(c, p1, e, CMP_NE, -1);
	alu_imm(c, SF_IADD32I, sh, (int)e, 32);
	ffma(c, lo, r2, f3, false, (int)q1, RND_RM);
	uint32_t zm = lw_temp(c, 1);
	lop32i(c, zm, z, F32_MANT, LOP_AND);
	lop32i(c, m, zm, F32_HIDDEN, LOP_OR);
	ffma(c, hi, r2, f3, false, (int)q1, RND_RP);
	LInsn *op = lw_op_def(c, SF_SHL_R, (int)lost);
	lw_op_use(op, SR_RA, (int)m);
	lw_op_use(op, SR_RB, (int)sh);
	op = lw_emit(c, SF_FSETP_R);
	lw_op_pred(op, SR_PD, (int)p0, true);
	linsn_set(op, SR_PQ, PT);
	lw_op_use(op, SR_RA, (int)hi);
	lw_op_use(op, SR_RB, (int)lo);
	linsn_set(op, SR_CMP, CMP_NEU);
	linsn_set(op, SR_FTZ, 1);
	linsn_set(op, SR_PC, PT);
	iadd(c, ne, (int)e, -1, NEG_A);
	isetp_rz(c, lp, lost, CMP_NE, (int)p1);
	op = lw_op_def(c, SF_ICMP_R, (int)ne2);      /* e != 0 ? -e : 0 */
	lw_op_use(op, SR_RA, (int)ne);
	linsn_set(op, SR_RB, RZ);
	lw_op_use(op, SR_RC, (int)e);
	linsn_set(op, SR_CMP, CMP_NE);
	linsn_set(op, SR_SIGNED, 1);
	op = lw_op_def(c, SF_SHR_R, (int)m2);
	lw_op_use(op, SR_RA, (int)m);
	lw_op_use(op, SR_RB, (int)ne2);
	psetp(c, sticky, p0, lp, false, BOP_OR);
	alu_imm(c, SF_SHR_I, h, (int)m2, 1);
	op = lw_op_def(c, SF_SEL_I, (int)st);        /* sticky ? 1 : 0 */
	linsn_set(op, SR_RA, RZ);
	linsn_set(op, SR_IMM, 1);
	lw_op_pred(op, SR_PC, (int)sticky, false);
	linsn_set(op, SR_PC_NOT, 1);
	op = lw_op_def(c, SF_LOP3_I, (int)st2);      /* sticky | (h & 1) */
	lw_op_use(op, SR_RA, (int)st);
	linsn_set(op, SR_IMM, 1);
	lw_op_use(op, SR_RC, (int)h);
	linsn_set(op, SR_LUT, LOP3_OR_AND);
	op = lw_op_def(c, SF_LOP_R, (int)st3);       /* ... & the round bit */
	lw_op_use(op, SR_RA, (int)st2);
	lw_op_use(op, SR_RB, (int)m2);
	linsn_set(op, SR_LOPOP, LOP_AND);
	iadd(c, rd, (int)h, (int)st3, 0);
	op = lw_op_def(c, SF_LOP_R, (int)res);
	lw_op_use(op, SR_RA, (int)rd);
	lw_op_use(op, SR_RB, (int)res);
	linsn_set(op, SR_LOPOP, LOP_OR);
}

/* The three refinement steps on am / bm with r = rcp(bm), nb = -bm:
 * r2 = the refined reciprocal, q1 the second quotient, f3 its residual,
 * q = fma(r2, f3, q1) */
static void div_refine(LowerCtx *c, uint32_t r, uint32_t nb, uint32_t am, uint32_t r2, uint32_t q1, uint32_t f3,
                       uint32_t q)
{
	uint32_t f1 = lw_temp(c, 1), q0 = lw_temp(c, 1), f2 = lw_temp(c, 1);
	lw_ffma_const2(c, f1, r, nb, false, F32_ONE);
	ffma(c, r2, r, f1, false, (int)r, 0);
	ffma(c, q0, am, r2, false, -1, 0);
	ffma(c, f2, nb, q0, false, (int)am, 0);
	ffma(c, q1, r2, f2, false, (int)q0, 0);
	ffma(c, f3, nb, q1, false, (int)am, 0);
	ffma(c, q, r2, f3, false, (int)q1, 0);
}

/* The general steps on a2 / b2 with the exponents ea, eb and bias s. */
static void div_general(LowerCtx *c, uint32_t res, uint32_t a2, uint32_t b2, uint32_t ea, uint32_t eb, uint32_t s,
                        int done)
{
	uint32_t t = lw_temp(c, 1), bias = lw_temp(c, 1), eap = lw_temp(c, 1), bm = lw_temp(c, 1);
	uint32_t sha = lw_temp(c, 1), am = lw_temp(c, 1), r = lw_temp(c, 1), e0 = lw_temp(c, 1);
	uint32_t nb = lw_temp(c, 1), s2 = lw_temp(c, 1), r2 = lw_temp(c, 1);
	uint32_t q1 = lw_temp(c, 1), f3 = lw_temp(c, 1);
	uint32_t q = lw_temp(c, 1), eq = lw_temp(c, 1), e = lw_temp(c, 1), em1 = lw_temp(c, 1);
	alu_imm(c, SF_SHL_I, t, (int)eb, 23);
	alu_imm(c, SF_IADD32I, bias, (int)t, ONE_BIASED);
	alu_imm(c, SF_IADD32I, eap, (int)ea, (uint32_t)-0x7f);
	iadd(c, bm, (int)bias, (int)b2, NEG_A);
	alu_imm(c, SF_SHL_I, sha, (int)eap, 23);
	iadd(c, am, (int)a2, (int)sha, NEG_B);
	mufu(c, MUFU_RCP, r, bm);
	iadd(c, e0, (int)ea, (int)eb, NEG_B);
	fneg_ftz(c, nb, bm);
	iadd(c, s2, (int)e0, (int)s, 0);
	div_refine(c, r, nb, am, r2, q1, f3, q);
	exp_field(c, eq, q);
	iadd(c, e, (int)eq, (int)s2, 0);
	alu_imm(c, SF_IADD32I, em1, (int)e, (uint32_t)-1);

	int scale = lw_label_new(c->k), ovf = lw_label_new(c->k);
	uint32_t p = lw_pred_temp(c), o = lw_pred_temp(c), n = lw_pred_temp(c), u = lw_pred_temp(c);
	isetp_imm(c, p, (int)em1, CMP_GE, false, 0xfe, BOP_AND, -1);
	lw_branch(c, (int)p, true, scale);
	isetp_imm(c, o, (int)e, CMP_GT, true, 0xfe, BOP_AND, -1);
	lw_branch(c, (int)o, false, ovf);
	isetp_imm(c, n, (int)e, CMP_GE, true, 1, BOP_AND, -1);
	lw_guard(c, (int)n, false);
	lw_mov(c, res, 0, q, 0);
	lw_branch(c, (int)n, false, done);
	isetp_imm(c, u, (int)e, CMP_GE, true, -0x18, BOP_AND, -1);
	lop32i(c, res, q, F32_SIGN, LOP_AND);
	lw_branch(c, (int)u, true, done);
	div_subnormal(c, res, r2, f3, q1, e);
	lw_branch(c, -1, false, done);

	lw_label_place(c->k, ovf);
	uint32_t sg = lw_temp(c, 1);
	lop32i(c, sg, q, F32_SIGN, LOP_AND);
	lop32i(c, res, sg, F32_INF, LOP_OR);
	lw_branch(c, -1, false, done);
	lw_label_place(c->k, scale);
	put_exponent(c, res, s2, q);
}

static void div_slow(LowerCtx *c, uint32_t res, uint32_t a, uint32_t b, int done)
{
	uint32_t eb = lw_temp(c, 1), ea = lw_temp(c, 1), eb1 = lw_temp(c, 1), ea1 = lw_temp(c, 1);
	uint32_t a2 = lw_path_value(c), b2 = lw_path_value(c), s = lw_path_value(c), p = lw_pred_temp(c);
	exp_field(c, eb, b);
	lw_mov(c, a2, 0, a, 0);
	exp_field(c, ea, a);
	lw_mov(c, b2, 0, b, 0);
	alu_imm(c, SF_IADD32I, eb1, (int)eb, (uint32_t)-1);
	alu_imm(c, SF_IADD32I, ea1, (int)ea, (uint32_t)-1);
	isetp_imm(c, p, (int)eb1, CMP_GT, false, 0xfd, BOP_AND, -1);
	isetp_imm(c, p, (int)ea1, CMP_GT, false, 0xfd, BOP_OR, (int)p);
	int normal = lw_label_new(c->k);
	lw_guard(c, (int)p, true);
	lw_mov_rz(c, s, 0);
	lw_branch(c, (int)p, true, normal);
	div_special(c, res, a, b, a2, b2, ea1, eb1, s, done);
	lw_label_place(c->k, normal);
	div_general(c, res, a2, b2, ea, eb, s, done);
}

/* ---- fmisc: div.rn.ftz.f32's slow path ----
 * `__cuda_sm3x_div_rn_ftz_f32_slowpath` of ptxas 11.8: no subnormal
 * operand survives (.FTZ comparisons send it to the zero or infinity
 * exit), so there is no 2^64 scaling and no rounding by hand: a quotient
 * below the normal range is a signed zero.
 *   special (a biased exponent 0 or 0xff): NaN operand: a + b; 0/0 and
 *     inf/inf: rsq(-NaN); 0/y, x/inf: a signed zero; x/0, inf/y: a
 *     signed infinity
 *   general: both significands brought to exponent 0 (a - (ea-127) << 23),
 *     three refinement steps (the last FFMA.FTZ), the exponent put back
 *     by ISCADD when the result is normal, else +-inf or +-0. */

/* FSET.NEU.FTZ.AND d, a, RZ, PT: a is not a (flushed) zero */
static void fset_nonzero(LowerCtx *c, uint32_t d, uint32_t a)
{
	LInsn *op = lw_op_def(c, SF_FSET_R, (int)d);
	lw_op_use(op, SR_RA, (int)a);
	linsn_set(op, SR_RB, RZ);
	linsn_set(op, SR_CMP, CMP_NEU);
	linsn_set(op, SR_FTZ, 1);
	linsn_set(op, SR_PC, PT);
}

/* p = !x | !y with x = (a != 0), y = (|b| != inf): LOP.OR.NZ on ~x, ~y */
static void zero_or_inf(LowerCtx *c, uint32_t p, uint32_t zero_of, uint32_t inf_of)
{
	uint32_t x = lw_temp(c, 1), y = lw_temp(c, 1);
	fset_nonzero(c, y, zero_of);
	fset_abs_inf(c, x, inf_of, CMP_NEU);
	lop_nz(c, p, x, y, LOP_OR, true);
}

static void div_special_ftz(LowerCtx *c, uint32_t res, uint32_t a, uint32_t b, int done)
{
	int nan_sum = lw_label_new(c->k), nan = lw_label_new(c->k), zero = lw_label_new(c->k),
	    inf = lw_label_new(c->k);
	branch_on_inf_test(c, a, b, true, nan_sum);
	uint32_t za = lw_temp(c, 1), zb = lw_temp(c, 1), zz = lw_pred_temp(c);
	fset_nonzero(c, za, a);
	fset_nonzero(c, zb, b);
	lop_nz(c, zz, za, zb, LOP_AND, true);
	lw_branch(c, (int)zz, false, nan);
	branch_on_inf_test(c, a, b, false, nan);
	uint32_t z = lw_pred_temp(c), i = lw_pred_temp(c);
	zero_or_inf(c, z, a, b);
	lw_branch(c, (int)z, false, zero);
	zero_or_inf(c, i, b, a);
	lw_branch(c, (int)i, false, inf);
	int general = lw_label_new(c->k);
	lw_branch(c, -1, false, general);

	div_exits(c, res, a, b, a, b, (const int[4]){ inf, zero, nan, nan_sum }, done);
	lw_label_place(c->k, general);
}

/* x with its exponent replaced by 0: x - (e - 127) << 23, e - 127 in eu */
static void unbias(LowerCtx *c, uint32_t xm, uint32_t eu, uint32_t x, uint32_t e)
{
	uint32_t t = lw_temp(c, 1);
	alu_imm(c, SF_IADD32I, eu, (int)e, (uint32_t)-0x7f);
	alu_imm(c, SF_SHL_I, t, (int)eu, 23);
	iadd(c, xm, (int)x, (int)t, NEG_B);
}

static void div_general_ftz(LowerCtx *c, uint32_t res, uint32_t a, uint32_t b, uint32_t ea, uint32_t eb,
                            int done)
{
	uint32_t ebu = lw_temp(c, 1), bm = lw_temp(c, 1), eau = lw_temp(c, 1), am = lw_temp(c, 1);
	uint32_t r = lw_temp(c, 1), nb = lw_temp(c, 1), e0 = lw_temp(c, 1);
	uint32_t r2 = lw_temp(c, 1), q1 = lw_temp(c, 1);
	uint32_t f3 = lw_temp(c, 1), q = lw_temp(c, 1), eq = lw_temp(c, 1), e = lw_temp(c, 1);
	uint32_t em1 = lw_temp(c, 1), sg = lw_temp(c, 1);
	unbias(c, bm, ebu, b, eb);
	unbias(c, am, eau, a, ea);
	mufu(c, MUFU_RCP, r, bm);
	fneg_ftz(c, nb, bm);
	iadd(c, e0, (int)eau, (int)ebu, NEG_B);
	div_refine(c, r, nb, am, r2, q1, f3, q);
	linsn_set(&c->k->insns[c->k->ninsns - 1], SR_FMZ, 1);   /* .FTZ */
	exp_field(c, eq, q);
	iadd(c, e, (int)eq, (int)e0, 0);
	alu_imm(c, SF_IADD32I, em1, (int)e, (uint32_t)-1);
	int scale = lw_label_new(c->k);
	uint32_t p = lw_pred_temp(c), o = lw_pred_temp(c);
	isetp_imm(c, p, (int)em1, CMP_GE, false, 0xfe, BOP_AND, -1);
	lw_branch(c, (int)p, true, scale);
	/* out of range: e > 0xfe overflows to +-inf, e < 1 flushes to +-0 */
	isetp_imm(c, o, (int)e, CMP_GT, true, 0xfe, BOP_AND, -1);
	lop32i(c, sg, q, F32_SIGN, LOP_AND);
	lw_guard(c, (int)o, false);
	lop32i(c, res, sg, F32_INF, LOP_OR);
	lw_guard(c, (int)o, true);
	lw_mov(c, res, 0, sg, 0);
	lw_guard(c, -1, false);
	lw_branch(c, -1, false, done);
	lw_label_place(c->k, scale);
	put_exponent(c, res, e0, q);
}

static void div_slow_ftz(LowerCtx *c, uint32_t res, uint32_t a, uint32_t b, int done)
{
	uint32_t eb = lw_temp(c, 1), ea = lw_temp(c, 1), eb1 = lw_temp(c, 1), ea1 = lw_temp(c, 1);
	uint32_t p = lw_pred_temp(c);
	exp_field(c, eb, b);
	alu_imm(c, SF_IADD32I, eb1, (int)eb, (uint32_t)-1);
	isetp_imm(c, p, (int)eb1, CMP_GT, false, 0xfd, BOP_AND, -1);
	exp_field(c, ea, a);
	alu_imm(c, SF_IADD32I, ea1, (int)ea, (uint32_t)-1);
	isetp_imm(c, p, (int)ea1, CMP_GT, false, 0xfd, BOP_OR, (int)p);
	int normal = lw_label_new(c->k);
	lw_branch(c, (int)p, true, normal);
	div_special_ftz(c, res, a, b, done);
	lw_label_place(c->k, normal);
	div_general_ftz(c, res, a, b, ea, eb, done);
}
/* ---- end of fmisc ---- */

/* A register holding o (a parameter word or immediate is moved in). */
static uint32_t in_reg(LowerCtx *c, const Opnd *o)
{
	uint32_t v;
	unsigned s;
	lw_opnd_part(c, o, 0, &v, &s);
	return v;
}

/* div.rn[.ftz].f32: the fast path is the same with .ftz; only the slow
 * path differs (div_slow_ftz) */
bool lower_div_rn_f32(LowerCtx *c, const Instr *in)
{
	bool ftz = false;
	for (uint32_t i = 0; i < in->nmods; i++)
		if (lw_streq(in->mods[i], ".ftz"))
			ftz = true;
		else if (!lw_streq(in->mods[i], ".rn") && !lw_streq(in->mods[i], ".f32"))
			return lw_unsupported(c, in->mod_locs[i], "div.rn modifier '%s' (.rn[.ftz].f32 is supported)",
			                      in->mods[i]);
	uint32_t d;
	unsigned dw;
	Opnd oa, ob;
	if (!lw_reg(c, in->ops[0], &d, &dw) || !lw_opnd(c, in->ops[1], &oa) || !lw_opnd(c, in->ops[2], &ob))
		return false;
	int done = lw_label_new(c->k);
	if (c->guard_vreg >= 0)     /* a guarded div: the whole sequence is branched around */
		lw_branch(c, c->guard_vreg, !c->guard_neg, done);
	uint32_t a = in_reg(c, &oa), b = in_reg(c, &ob);
	uint32_t res = lw_path_value(c);
	uint32_t r = lw_temp(c, 1), e = lw_temp(c, 1), r2 = lw_temp(c, 1), q = lw_temp(c, 1), f = lw_temp(c, 1);
	uint32_t p = lw_pred_temp(c);
	mufu(c, MUFU_RCP, r, b);
	LInsn *op = lw_emit(c, SF_FCHK_R);
	lw_op_pred(op, SR_PD, (int)p, true);
	lw_op_use(op, SR_RA, (int)a);
	lw_op_use(op, SR_RB, (int)b);
	lw_ffma_const2(c, e, b, r, true, F32_ONE);
	ffma(c, r2, r, e, false, (int)r, 0);
	ffma(c, q, a, r2, false, -1, 0);
	ffma(c, f, b, q, true, (int)a, 0);
	ffma(c, res, r2, f, false, (int)q, 0);
	int join = lw_label_new(c->k);
	lw_branch(c, (int)p, true, join);
	if (ftz)
		div_slow_ftz(c, res, a, b, join);
	else
		div_slow(c, res, a, b, join);
	lw_label_place(c->k, join);
	lw_mov(c, d, 0, res, 0);
	lw_label_place(c->k, done);
	return true;
}

/* ---- rcp.rn.f32 ---- */

/* n = -fma(x, r, -1): the residual of r = rcp(x) */
static void rcp_residual(LowerCtx *c, uint32_t n, uint32_t x, uint32_t r)
{
	uint32_t e = lw_temp(c, 1);
	lw_ffma_const2(c, e, x, r, false, F32_MINUS_ONE);
	fneg_ftz(c, n, e);
}

/* r = rcp(x); d = fma(r, -fma(x, r, -1), r) */
static void rcp_steps(LowerCtx *c, uint32_t d, uint32_t x)
{
	uint32_t r = lw_temp(c, 1), n = lw_temp(c, 1);
	mufu(c, MUFU_RCP, r, x);
	rcp_residual(c, n, x, r);
	ffma(c, d, r, n, false, (int)r, 0);
}

/* The reciprocal of a subnormal or zero x (biased exponent 0). */
static void rcp_tiny(LowerCtx *c, uint32_t res, uint32_t x, int done)
{
	uint32_t t = lw_temp(c, 1), p = lw_pred_temp(c), y = lw_temp(c, 1), r = lw_temp(c, 1);
	alu_imm(c, SF_SHL_I, t, (int)x, 1);
	isetp_rz(c, p, t, CMP_NE, -1);
	lw_guard(c, (int)p, true);
	mufu(c, MUFU_RCP, res, x);
	lw_branch(c, (int)p, true, done);
	ffma_2p64(c, y, x);
	rcp_steps(c, r, y);
	ffma_2p64(c, res, r);
	lw_branch(c, -1, false, done);
}

/* 1/x below 2^-126: k = biased exponent - 0xfd (0 or 1). */
static void rcp_subnormal(LowerCtx *c, uint32_t res, uint32_t x, uint32_t ex, uint32_t k)
{
	uint32_t m = lw_temp(c, 1), three = lw_temp(c, 1), sh = lw_temp(c, 1), sig = lw_temp(c, 1);
	uint32_t mask = lw_temp(c, 1), r = lw_temp(c, 1), n = lw_temp(c, 1);
	uint32_t lo = lw_temp(c, 1), hi = lw_temp(c, 1), lm = lw_temp(c, 1), ne = lw_temp(c, 1);
	uint32_t lh = lw_temp(c, 1), inexact = lw_temp(c, 1), bits = lw_temp(c, 1), q = lw_path_value(c);
	uint32_t tail = lw_temp(c, 1);
	uint32_t p1 = lw_pred_temp(c), p2 = lw_pred_temp(c), p0 = lw_pred_temp(c), any = lw_pred_temp(c);
	uint32_t up = lw_pred_temp(c), exact = lw_pred_temp(c);
	lop32i(c, m, x, F32_MANT, LOP_AND);
	lw_mov32i(c, three, 0, 3);
	alu_imm(c, SF_IADD32I, sh, (int)ex, (uint32_t)-RCP_SHIFT_BIAS);
	lop32i(c, sig, m, F32_ONE_EXP, LOP_OR);
	LInsn *op = lw_op_def(c, SF_SHL_R, (int)mask);
	lw_op_use(op, SR_RA, (int)three);
	lw_op_use(op, SR_RB, (int)k);
	mufu(c, MUFU_RCP, r, sig);
	rcp_residual(c, n, sig, r);
	ffma(c, lo, r, n, false, (int)r, RND_RM);
	ffma(c, hi, r, n, false, (int)r, RND_RP);
	lop32i(c, lm, lo, F32_MANT, LOP_AND);
	op = lw_op_def(c, SF_FSET_R, (int)ne);
	lw_op_use(op, SR_RA, (int)lo);
	lw_op_use(op, SR_RB, (int)hi);
	linsn_set(op, SR_CMP, CMP_NEU);
	linsn_set(op, SR_FTZ, 1);
	linsn_set(op, SR_PC, PT);
	lop32i(c, lh, lm, F32_HIDDEN, LOP_OR);
	iadd(c, inexact, (int)ne, -1, NEG_A);
	op = lw_op_def(c, SF_LOP_R, (int)bits);
	lw_op_use(op, SR_RA, (int)mask);
	lw_op_use(op, SR_RB, (int)lh);
	linsn_set(op, SR_LOPOP, LOP_AND);
	lop3_nz(c, p1, inexact, k, lh, LOP3_OR_AND);   /* inexact | (k & significand) */
	op = lw_op_def(c, SF_SHR_R, (int)q);
	lw_op_use(op, SR_RA, (int)lh);
	lw_op_use(op, SR_RB, (int)sh);
	op = lw_op_def(c, SF_SHR_R, (int)tail);
	lw_op_use(op, SR_RA, (int)bits);
	lw_op_use(op, SR_RB, (int)k);
	lop_and_nz_imm(c, p2, tail, 2);
	lop_and_nz_imm(c, p0, tail, 1);
	psetp(c, any, p1, p2, false, BOP_OR);
	isetp_imm(c, exact, (int)m, CMP_EQ, false, 0, BOP_AND, -1);
	psetp(c, up, p0, any, false, BOP_AND);      /* round bit and (sticky or odd) */
	lw_guard(c, (int)up, false);
	alu_imm(c, SF_IADD32I, q, (int)q, 1);
	lw_guard(c, (int)exact, false);
	alu_imm(c, SF_SHL_I, q, (int)q, 1);
	lw_guard(c, -1, false);
	lop3_sign(c, res, q, x, LOP3_OR_AND);
}

static void rcp_slow(LowerCtx *c, uint32_t res, uint32_t x, int done)
{
	uint32_t t = lw_temp(c, 1), ex = lw_temp(c, 1), p = lw_pred_temp(c), k = lw_temp(c, 1), q = lw_pred_temp(c);
	alu_imm(c, SF_SHL_I, t, (int)x, 1);
	alu_imm(c, SF_SHR_I, ex, (int)t, 24);
	isetp_rz(c, p, ex, CMP_NE, -1);
	linsn_set(&c->k->insns[c->k->ninsns - 1], SR_SIGNED, 0);
	int normal = lw_label_new(c->k);
	lw_branch(c, (int)p, false, normal);
	rcp_tiny(c, res, x, done);
	lw_label_place(c->k, normal);
	alu_imm(c, SF_IADD32I, k, (int)ex, (uint32_t)-RCP_SUBNORMAL_EXP);
	isetp_imm(c, q, (int)k, CMP_GT, false, 1, BOP_AND, -1);
	int other = lw_label_new(c->k);
	lw_branch(c, (int)q, false, other);
	rcp_subnormal(c, res, x, ex, k);
	lw_branch(c, -1, false, done);
	lw_label_place(c->k, other);
	mufu(c, MUFU_RCP, res, x);
}

bool lower_rcp_rn_f32(LowerCtx *c, const Instr *in)
{
	for (uint32_t i = 0; i < in->nmods; i++)
		if (!lw_streq(in->mods[i], ".rn") && !lw_streq(in->mods[i], ".f32"))
			return lw_unsupported(c, in->mod_locs[i], "rcp.rn modifier '%s' (.rn.f32 is supported)",
			                      in->mods[i]);
	uint32_t d;
	unsigned dw;
	Opnd oa;
	if (!lw_reg(c, in->ops[0], &d, &dw) || !lw_opnd(c, in->ops[1], &oa))
		return false;
	int done = lw_label_new(c->k);
	if (c->guard_vreg >= 0)
		lw_branch(c, c->guard_vreg, !c->guard_neg, done);
	uint32_t x = in_reg(c, &oa), res = lw_path_value(c);
	uint32_t b = lw_temp(c, 1), e = lw_temp(c, 1), p = lw_pred_temp(c);
	alu_imm(c, SF_IADD32I, b, (int)x, RCP_BIAS);
	lop32i(c, e, b, F32_INF, LOP_AND);
	LInsn *op = lw_emit(c, SF_ISETP_C);
	lw_op_pred(op, SR_PD, (int)p, true);
	linsn_set(op, SR_PQ, PT);
	lw_op_use(op, SR_RA, (int)e);
	linsn_set(op, SR_CBANK, LK_CONST2_BANK);
	linsn_set(op, SR_COFF, lkernel_const2_slot(c->k, RCP_FAST_MIN) / 4);
	linsn_set(op, SR_CMP, CMP_GT);
	linsn_set(op, SR_SIGNED, 0);
	linsn_set(op, SR_PC, PT);
	int slow = lw_label_new(c->k), join = lw_label_new(c->k);
	lw_branch(c, (int)p, true, slow);
	rcp_steps(c, res, x);
	lw_branch(c, -1, false, join);
	lw_label_place(c->k, slow);
	rcp_slow(c, res, x, join);
	lw_label_place(c->k, join);
	lw_mov(c, d, 0, res, 0);
	lw_label_place(c->k, done);
	return true;
}

/* Lowering of the IEEE-rounded f32 division, div.rn[.ftz].f32, as ptxas
 * 11.8 writes it for sm_50 (-O3; the reciprocal: lower_frcp.c). Division: a fast path of MUFU.RCP and five FFMAs,
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
 * ptxas reaches its slow path with CAL under SSY and leaves by BRK/RET;
 * here it runs inline behind branches with the same arithmetic, so every
 * result is ptxas's bit for bit (tests/sim/sim-diff.sh compares them on
 * the simulator; docs/simulator.md says how FCHK is modelled). Where
 * ptxas has a form the table lacks (ISCADD32I, IADD3 with an immediate
 * middle term) two instructions compute the same word. */
#include "lower/lower_f32seq.h"

/* ---- div.rn.f32 ---- */

/* The special quotients, each at its label (exit[0..3]) writing res and
 * jumping to done: a signed infinity, a signed zero (the sign of sa ^ sb),
 * the NaN of 0/0 and inf/inf (rsq(-NaN)), a + b for a NaN operand. */
static void div_exits(LowerCtx *c, uint32_t res, uint32_t a, uint32_t b, uint32_t sa, uint32_t sb,
                      const int exit[4], int done)
{
	lw_label_place(c->k, exit[0]);
	fseq_lop3_sign(c, res, sb, sa, LOP3_SIGN_XOR);
	fseq_lop32i(c, res, res, F32_INF, LOP_OR);
	lw_branch(c, -1, false, done);
	lw_label_place(c->k, exit[1]);
	fseq_lop3_sign(c, res, sb, sa, LOP3_SIGN_XOR);
	lw_branch(c, -1, false, done);
	lw_label_place(c->k, exit[2]);
	uint32_t seed = lw_temp(c, 1);
	lw_mov32i(c, seed, 0, DIV_NAN_SEED);
	fseq_mufu(c, MUFU_RSQ, res, seed);
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
	fseq_fset_abs_inf(c, x, a, nan_test ? CMP_GTU : CMP_NEU);
	fseq_fset_abs_inf(c, y, b, nan_test ? CMP_GTU : CMP_NEU);
	fseq_lop_nz(c, p, x, y, nan_test ? LOP_OR : LOP_AND, !nan_test);
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
	fseq_lop3_nz(c, q, b2, k, a2, LOP3_AND_OR);
	lw_branch(c, (int)q, true, nan);

	branch_on_inf_test(c, a, b, false, nan);

	uint32_t bf = lw_pred_temp(c), an = lw_pred_temp(c), z = lw_pred_temp(c);
	fseq_fsetp_finite(c, bf, b);
	fseq_nonzero_magnitude(c, an, a2);
	fseq_psetp(c, z, bf, an, true, BOP_OR);
	lw_branch(c, (int)z, false, zero);

	uint32_t af = lw_pred_temp(c), bn = lw_pred_temp(c), i = lw_pred_temp(c);
	fseq_fsetp_finite(c, af, a);
	fseq_nonzero_magnitude(c, bn, b2);
	fseq_psetp(c, i, af, bn, true, BOP_OR);
	lw_branch(c, (int)i, false, inf);

	uint32_t an_ok = lw_pred_temp(c), bn_ok = lw_pred_temp(c);
	fseq_isetp_rz(c, an_ok, ea1, CMP_GE, -1);
	fseq_isetp_rz(c, bn_ok, eb1, CMP_GE, -1);
	lw_guard(c, (int)an_ok, false);
	lw_mov_rz(c, s, 0);
	lw_guard(c, (int)an_ok, true);
	lw_mov32i(c, s, 0, EXP_SCALED);
	fseq_ffma_2p64(c, a2, a);
	lw_guard(c, (int)bn_ok, true);
	fseq_ffma_2p64(c, b2, b);
	fseq_alu_imm(c, SF_IADD32I, s, (int)s, 64);
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
	fseq_ffma(c, z, r2, f3, false, (int)q1, RND_RZ);
	fseq_isetp_rz(c, p1, e, CMP_NE, -1);
	fseq_alu_imm(c, SF_IADD32I, sh, (int)e, 32);
	fseq_ffma(c, lo, r2, f3, false, (int)q1, RND_RM);
	uint32_t zm = lw_temp(c, 1);
	fseq_lop32i(c, zm, z, F32_MANT, LOP_AND);
	fseq_lop32i(c, m, zm, F32_HIDDEN, LOP_OR);
	fseq_ffma(c, hi, r2, f3, false, (int)q1, RND_RP);
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
	fseq_iadd(c, ne, (int)e, -1, NEG_A);
	fseq_isetp_rz(c, lp, lost, CMP_NE, (int)p1);
	op = lw_op_def(c, SF_ICMP_R, (int)ne2);      /* e != 0 ? -e : 0 */
	lw_op_use(op, SR_RA, (int)ne);
	linsn_set(op, SR_RB, RZ);
	lw_op_use(op, SR_RC, (int)e);
	linsn_set(op, SR_CMP, CMP_NE);
	linsn_set(op, SR_SIGNED, 1);
	op = lw_op_def(c, SF_SHR_R, (int)m2);
	lw_op_use(op, SR_RA, (int)m);
	lw_op_use(op, SR_RB, (int)ne2);
	fseq_psetp(c, sticky, p0, lp, false, BOP_OR);
	fseq_alu_imm(c, SF_SHR_I, h, (int)m2, 1);
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
	fseq_iadd(c, rd, (int)h, (int)st3, 0);
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
	fseq_ffma_const2(c, f1, r, nb, false, F32_ONE);
	fseq_ffma(c, r2, r, f1, false, (int)r, 0);
	fseq_ffma(c, q0, am, r2, false, -1, 0);
	fseq_ffma(c, f2, nb, q0, false, (int)am, 0);
	fseq_ffma(c, q1, r2, f2, false, (int)q0, 0);
	fseq_ffma(c, f3, nb, q1, false, (int)am, 0);
	fseq_ffma(c, q, r2, f3, false, (int)q1, 0);
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
	fseq_alu_imm(c, SF_SHL_I, t, (int)eb, 23);
	fseq_alu_imm(c, SF_IADD32I, bias, (int)t, ONE_BIASED);
	fseq_alu_imm(c, SF_IADD32I, eap, (int)ea, (uint32_t)-0x7f);
	fseq_iadd(c, bm, (int)bias, (int)b2, NEG_A);
	fseq_alu_imm(c, SF_SHL_I, sha, (int)eap, 23);
	fseq_iadd(c, am, (int)a2, (int)sha, NEG_B);
	fseq_mufu(c, MUFU_RCP, r, bm);
	fseq_iadd(c, e0, (int)ea, (int)eb, NEG_B);
	fseq_fneg_ftz(c, nb, bm);
	fseq_iadd(c, s2, (int)e0, (int)s, 0);
	div_refine(c, r, nb, am, r2, q1, f3, q);
	fseq_exp_field(c, eq, q);
	fseq_iadd(c, e, (int)eq, (int)s2, 0);
	fseq_alu_imm(c, SF_IADD32I, em1, (int)e, (uint32_t)-1);

	int scale = lw_label_new(c->k), ovf = lw_label_new(c->k);
	uint32_t p = lw_pred_temp(c), o = lw_pred_temp(c), n = lw_pred_temp(c), u = lw_pred_temp(c);
	fseq_isetp_imm(c, p, (int)em1, CMP_GE, false, 0xfe, BOP_AND, -1);
	lw_branch(c, (int)p, true, scale);
	fseq_isetp_imm(c, o, (int)e, CMP_GT, true, 0xfe, BOP_AND, -1);
	lw_branch(c, (int)o, false, ovf);
	fseq_isetp_imm(c, n, (int)e, CMP_GE, true, 1, BOP_AND, -1);
	lw_guard(c, (int)n, false);
	lw_mov(c, res, 0, q, 0);
	lw_branch(c, (int)n, false, done);
	fseq_isetp_imm(c, u, (int)e, CMP_GE, true, -0x18, BOP_AND, -1);
	fseq_lop32i(c, res, q, F32_SIGN, LOP_AND);
	lw_branch(c, (int)u, true, done);
	div_subnormal(c, res, r2, f3, q1, e);
	lw_branch(c, -1, false, done);

	lw_label_place(c->k, ovf);
	uint32_t sg = lw_temp(c, 1);
	fseq_lop32i(c, sg, q, F32_SIGN, LOP_AND);
	fseq_lop32i(c, res, sg, F32_INF, LOP_OR);
	lw_branch(c, -1, false, done);
	lw_label_place(c->k, scale);
	fseq_put_exponent(c, res, s2, q);
}

static void div_slow(LowerCtx *c, uint32_t res, uint32_t a, uint32_t b, int done)
{
	uint32_t eb = lw_temp(c, 1), ea = lw_temp(c, 1), eb1 = lw_temp(c, 1), ea1 = lw_temp(c, 1);
	uint32_t a2 = lw_path_value(c), b2 = lw_path_value(c), s = lw_path_value(c), p = lw_pred_temp(c);
	fseq_exp_field(c, eb, b);
	lw_mov(c, a2, 0, a, 0);
	fseq_exp_field(c, ea, a);
	lw_mov(c, b2, 0, b, 0);
	fseq_alu_imm(c, SF_IADD32I, eb1, (int)eb, (uint32_t)-1);
	fseq_alu_imm(c, SF_IADD32I, ea1, (int)ea, (uint32_t)-1);
	fseq_isetp_imm(c, p, (int)eb1, CMP_GT, false, 0xfd, BOP_AND, -1);
	fseq_isetp_imm(c, p, (int)ea1, CMP_GT, false, 0xfd, BOP_OR, (int)p);
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
	fseq_fset_abs_inf(c, x, inf_of, CMP_NEU);
	fseq_lop_nz(c, p, x, y, LOP_OR, true);
}

static void div_special_ftz(LowerCtx *c, uint32_t res, uint32_t a, uint32_t b, int done)
{
	int nan_sum = lw_label_new(c->k), nan = lw_label_new(c->k), zero = lw_label_new(c->k),
	    inf = lw_label_new(c->k);
	branch_on_inf_test(c, a, b, true, nan_sum);
	uint32_t za = lw_temp(c, 1), zb = lw_temp(c, 1), zz = lw_pred_temp(c);
	fset_nonzero(c, za, a);
	fset_nonzero(c, zb, b);
	fseq_lop_nz(c, zz, za, zb, LOP_AND, true);
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
	fseq_alu_imm(c, SF_IADD32I, eu, (int)e, (uint32_t)-0x7f);
	fseq_alu_imm(c, SF_SHL_I, t, (int)eu, 23);
	fseq_iadd(c, xm, (int)x, (int)t, NEG_B);
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
	fseq_mufu(c, MUFU_RCP, r, bm);
	fseq_fneg_ftz(c, nb, bm);
	fseq_iadd(c, e0, (int)eau, (int)ebu, NEG_B);
	div_refine(c, r, nb, am, r2, q1, f3, q);
	linsn_set(&c->k->insns[c->k->ninsns - 1], SR_FMZ, 1);   /* .FTZ */
	fseq_exp_field(c, eq, q);
	fseq_iadd(c, e, (int)eq, (int)e0, 0);
	fseq_alu_imm(c, SF_IADD32I, em1, (int)e, (uint32_t)-1);
	int scale = lw_label_new(c->k);
	uint32_t p = lw_pred_temp(c), o = lw_pred_temp(c);
	fseq_isetp_imm(c, p, (int)em1, CMP_GE, false, 0xfe, BOP_AND, -1);
	lw_branch(c, (int)p, true, scale);
	/* out of range: e > 0xfe overflows to +-inf, e < 1 flushes to +-0 */
	fseq_isetp_imm(c, o, (int)e, CMP_GT, true, 0xfe, BOP_AND, -1);
	fseq_lop32i(c, sg, q, F32_SIGN, LOP_AND);
	lw_guard(c, (int)o, false);
	fseq_lop32i(c, res, sg, F32_INF, LOP_OR);
	lw_guard(c, (int)o, true);
	lw_mov(c, res, 0, sg, 0);
	lw_guard(c, -1, false);
	lw_branch(c, -1, false, done);
	lw_label_place(c->k, scale);
	fseq_put_exponent(c, res, e0, q);
}

static void div_slow_ftz(LowerCtx *c, uint32_t res, uint32_t a, uint32_t b, int done)
{
	uint32_t eb = lw_temp(c, 1), ea = lw_temp(c, 1), eb1 = lw_temp(c, 1), ea1 = lw_temp(c, 1);
	uint32_t p = lw_pred_temp(c);
	fseq_exp_field(c, eb, b);
	fseq_alu_imm(c, SF_IADD32I, eb1, (int)eb, (uint32_t)-1);
	fseq_isetp_imm(c, p, (int)eb1, CMP_GT, false, 0xfd, BOP_AND, -1);
	fseq_exp_field(c, ea, a);
	fseq_alu_imm(c, SF_IADD32I, ea1, (int)ea, (uint32_t)-1);
	fseq_isetp_imm(c, p, (int)ea1, CMP_GT, false, 0xfd, BOP_OR, (int)p);
	int normal = lw_label_new(c->k);
	lw_branch(c, (int)p, true, normal);
	div_special_ftz(c, res, a, b, done);
	lw_label_place(c->k, normal);
	div_general_ftz(c, res, a, b, ea, eb, done);
}
/* ---- end of fmisc ---- */

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
	uint32_t a = fseq_in_reg(c, &oa), b = fseq_in_reg(c, &ob);
	uint32_t res = lw_path_value(c);
	uint32_t r = lw_temp(c, 1), e = lw_temp(c, 1), r2 = lw_temp(c, 1), q = lw_temp(c, 1), f = lw_temp(c, 1);
	uint32_t p = lw_pred_temp(c);
	fseq_mufu(c, MUFU_RCP, r, b);
	LInsn *op = lw_emit(c, SF_FCHK_R);
	lw_op_pred(op, SR_PD, (int)p, true);
	lw_op_use(op, SR_RA, (int)a);
	lw_op_use(op, SR_RB, (int)b);
	fseq_ffma_const2(c, e, b, r, true, F32_ONE);
	fseq_ffma(c, r2, r, e, false, (int)r, 0);
	fseq_ffma(c, q, a, r2, false, -1, 0);
	fseq_ffma(c, f, b, q, true, (int)a, 0);
	fseq_ffma(c, res, r2, f, false, (int)q, 0);
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

/* Lowering of 64-bit integer division and remainder (issue 17): the
 * computation of ptxas 11.8's sm_50 subroutines __cuda_sm20_{div,rem}_{u,s}64
 * (which it reaches with CAL and specialises per kernel; we emit the body
 * inline, as the other division slow paths, so the results are the same):
 *   1. signed: |a|, |b| (ICMP.LT on the high word picks the IADD.CC/IADD.X
 *      negation), the sign a.hi ^ b.hi (quotient) or a.hi (remainder);
 *   2. t ~ 2^64 / |b|: I2F.F32.U64.RP, MUFU.RCP, IADD32I 0x1ffffffe (the
 *      float times 2^64, less 2 ulp), F2I.U64.F32.TRUNC;
 *   3. two Newton steps in integers: t += mulhi64(t, -(t * |b|));
 *   4. q = mulhi64(t, |a|), r = |a| - q * |b|, two corrections by SEL
 *      (r >= |b|: r -= |b|, q += 1), each an IADD RZ.CC / ISETP.GE.U32.X;
 *   5. signed: the result negated when the sign is negative (ICMP.LT);
 *      b == 0 gives all ones (SEL of -1 when b != 0 fails), as ptxas. */
#include "lower/lower_internal.h"

enum { CMP_LT = 1, CMP_NE = 5, CMP_GE = 6 };
enum { LOP_XOR = 2 };

/* IADD d.w, [-]a.w, [-]b.w (a, b < 0: RZ) with the carry flag: .CC writes
 * it (d < 0: RZ.CC), .X reads it */
static void iadd_w(LowerCtx *c, int d, int a, int b, unsigned w, unsigned neg, bool cc, bool x)
{
	LInsn *op = lw_emit(c, SF_IADD_R);
	if (d < 0)
		linsn_set(op, SR_RD, 255);
	else
		linsn_ref(op, SR_RD, (uint32_t)d, w, 1, true);
	if (a < 0)
		linsn_set(op, SR_RA, 255);
	else
		linsn_ref(op, SR_RA, (uint32_t)a, w, 1, false);
	if (b < 0)
		linsn_set(op, SR_RB, 255);
	else
		linsn_ref(op, SR_RB, (uint32_t)b, w, 1, false);
	linsn_set(op, SR_NEG, neg);
	linsn_set(op, SR_CC, cc);
	linsn_set(op, SR_X, x);
	op->writes_cc = cc;
	op->reads_cc = x;
}

enum { NEG_B = 1, NEG_A = 2 };

/* d = a + (-)b over 64 bits (a < 0: RZ) */
static uint32_t add64(LowerCtx *c, int a, uint32_t b, unsigned neg)
{
	uint32_t d = lw_temp(c, 2);
	iadd_w(c, (int)d, a, (int)b, 0, neg, true, false);
	iadd_w(c, (int)d, a, (int)b, 1, neg, false, true);
	return d;
}

/* d.w = p ? a.w : b.w (b < 0: the immediate -1) */
static void sel(LowerCtx *c, uint32_t d, uint32_t a, int b, uint32_t p)
{
	for (unsigned w = 0; w < 2; w++) {
		LInsn *op = lw_emit(c, b < 0 ? SF_SEL_I : SF_SEL_R);
		linsn_ref(op, SR_RD, d, w, 1, true);
		linsn_ref(op, SR_RA, a, w, 1, false);
		if (b < 0)
			linsn_set(op, SR_IMM, -1);
		else
			linsn_ref(op, SR_RB, (uint32_t)b, w, 1, false);
		linsn_ref(op, SR_PC, p, 0, 1, false);
	}
}

/* d.w = (c.hi < 0) ? a.w : b.w (ICMP.LT, signed) */
static uint32_t pick_neg(LowerCtx *c, uint32_t a, uint32_t b, uint32_t cv, unsigned csub)
{
	uint32_t d = lw_temp(c, 2);
	for (unsigned w = 0; w < 2; w++) {
		LInsn *op = lw_emit(c, SF_ICMP_R);
		linsn_ref(op, SR_RD, d, w, 1, true);
		linsn_ref(op, SR_RA, a, w, 1, false);
		linsn_ref(op, SR_RB, b, w, 1, false);
		linsn_ref(op, SR_RC, cv, csub, 1, false);
		linsn_set(op, SR_CMP, CMP_LT);
		linsn_set(op, SR_SIGNED, 1);
	}
	return d;
}

/* |v| of a signed 64-bit value */
static uint32_t abs64(LowerCtx *c, uint32_t v)
{
	return pick_neg(c, add64(c, -1, v, NEG_B), v, v, 1);
}

/* p = (a >= b) as unsigned 64-bit values */
static uint32_t at_least(LowerCtx *c, uint32_t a, uint32_t b)
{
	uint32_t p = lw_pred_temp(c);
	SetpPreds sp = { .pd = p, .pq = 0, .pc = 0, .has_q = false, .has_pc = false, .pc_not = false };
	Opnd bo = { .kind = OPND_REG, .vreg = b, .width = 2, .imm = 0 };
	lw_setp64_order(c, CMP_GE, false, &sp, 0, a, &bo);
	return p;
}

/* d = v + 1 over 64 bits */
static uint32_t inc64(LowerCtx *c, uint32_t v)
{
	uint32_t d = lw_temp(c, 2);
	LInsn *lo = lw_emit(c, SF_IADD32I);
	linsn_ref(lo, SR_RD, d, 0, 1, true);
	linsn_ref(lo, SR_RA, v, 0, 1, false);
	linsn_set(lo, SR_IMM, 1);
	linsn_set(lo, SR_CC, 1);
	lo->writes_cc = true;
	iadd_w(c, (int)d, -1, (int)v, 1, 0, false, true);
	return d;
}

/* t + mulhi64(t, -(t * b)) */
static uint32_t newton(LowerCtx *c, uint32_t t, uint32_t b)
{
	uint32_t m = lw_temp(c, 2), h = lw_temp(c, 2);
	lw_mul_lo64(c, m, t, b);
	uint32_t n = add64(c, -1, m, NEG_B);
	lw_mul_hi_u64(c, h, t, n);
	return add64(c, (int)t, h, 0);
}

/* A 64-bit operand in a register pair */
static uint32_t pair_of(LowerCtx *c, const Opnd *o)
{
	if (o->kind == OPND_REG && o->width == 2)
		return o->vreg;
	uint32_t v = lw_temp(c, 2);
	lw_copy_value(c, v, o, 2);
	return v;
}

/* {div,rem}.{u,s}64 d, a, b */
bool lower_idiv64(LowerCtx *c, const Instr *in)
{
	bool rem = lw_streq(in->opcode, "rem"), sg = lw_instr_type(in).is_signed;
	if (c->guard_vreg >= 0)
		return lw_unsupported(c, in->loc, "a guarded %s", in->opcode);
	uint32_t d;
	unsigned dw;
	Opnd ao, bo;
	if (!lw_reg(c, in->ops[0], &d, &dw) || !lw_opnd(c, in->ops[1], &ao) || !lw_opnd(c, in->ops[2], &bo))
		return false;
	if (dw != 2 || (ao.kind == OPND_REG && ao.width != 2) || (bo.kind == OPND_REG && bo.width != 2))
		return lw_unsupported(c, in->loc, "%s.%c64 of a 32-bit register", in->opcode, sg ? 's' : 'u');
	uint32_t a = pair_of(c, &ao), b = pair_of(c, &bo), ua = a, ub = b, sign = 0;
	if (sg) {
		ub = abs64(c, b);
		if (rem) {
			sign = a;
		} else {
			sign = lw_temp(c, 1);
			LInsn *x = lw_emit(c, SF_LOP_R);
			linsn_ref(x, SR_RD, sign, 0, 1, true);
			linsn_ref(x, SR_RA, b, 1, 1, false);
			linsn_ref(x, SR_RB, a, 1, 1, false);
			linsn_set(x, SR_LOPOP, LOP_XOR);
		}
		ua = abs64(c, a);
	}
	uint32_t t = newton(c, newton(c, lw_int_rcp_estimate(c, ub, true, false), ub), ub);
	uint32_t q = lw_temp(c, 2), m = lw_temp(c, 2);
	lw_mul_hi_u64(c, q, t, ua);
	lw_mul_lo64(c, m, q, ub);
	uint32_t r = add64(c, (int)ua, m, NEG_B);
	uint32_t p1 = at_least(c, r, ub);
	uint32_t r1 = lw_temp(c, 2), q1 = lw_temp(c, 2), res = lw_temp(c, 2);
	sel(c, r1, add64(c, (int)r, ub, NEG_B), (int)r, p1);
	if (!rem)
		sel(c, q1, inc64(c, q), (int)q, p1);
	uint32_t p0 = at_least(c, r1, ub);
	if (rem)
		sel(c, res, add64(c, (int)r1, ub, NEG_B), (int)r1, p0);
	else
		sel(c, res, inc64(c, q1), (int)q1, p0);
	if (sg)
		res = pick_neg(c, add64(c, -1, res, NEG_B), res, sign, rem ? 1 : 0);
	uint32_t pnz = lw_pred_temp(c);
	iadd_w(c, -1, -1, (int)b, 0, NEG_A, true, false);
	LInsn *ne = lw_emit(c, SF_ISETP_R);
	linsn_ref(ne, SR_PD, pnz, 0, 1, true);
	linsn_set(ne, SR_PQ, 7);
	linsn_set(ne, SR_RA, 255);
	linsn_ref(ne, SR_RB, b, 1, 1, false);
	linsn_set(ne, SR_CMP, CMP_NE);
	linsn_set(ne, SR_SIGNED, 1);
	linsn_set(ne, SR_X, 1);
	linsn_set(ne, SR_PC, 7);
	ne->reads_cc = true;
	sel(c, d, res, -1, pnz);
	return true;
}

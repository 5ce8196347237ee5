/* Lowering of 32-bit integer division and remainder: ptxas
 * 11.8's sequences for sm_50, which have no divide instruction:
 *   1. r ~ 1/|b| in float: I2F.F32.{U,S}32.RP, MUFU.RCP, minus 2 ulp
 *      (IADD32I 0xffffffe), F2I.FTZ.U32.F32.TRUNC: an estimate t <= 2^32/b;
 *   2. one Newton step in integers: t += mulhi(t, -(b * t));
 *   3. q = mulhi(t, |a|), r = |a| - q * |b|, then at most two corrections
 *      (r >= |b|: r -= |b|, q += 1);
 *   4. signed: negate by the sign of a ^ b (quotient) or of a (remainder);
 *      b == 0 gives ~b (all ones, what the hardware-free sequence yields
 *      elsewhere too). */
#include "lower/lower_f32seq.h"

static void isetp(LowerCtx *c, uint32_t p, unsigned cmp, bool is_signed, uint32_t a, int b)
{
	fseq_isetp_r(c, p, a, b, cmp, is_signed, BOP_AND, -1);
}

/* d = a + neg-modified b (IADD with its NEG field; b < 0 is RZ) */
static void iadd(LowerCtx *c, uint32_t d, int a, int b, unsigned neg)
{
	LInsn *op = lw_emit(c, SF_IADD_R);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	if (a < 0)
		linsn_set(op, SR_RA, 255);
	else
		linsn_ref(op, SR_RA, (uint32_t)a, 0, 1, false);
	if (b < 0)
		linsn_set(op, SR_RB, 255);
	else
		linsn_ref(op, SR_RB, (uint32_t)b, 0, 1, false);
	linsn_set(op, SR_NEG, neg);
}

static void add_one(LowerCtx *c, uint32_t d)
{
	LInsn *op = lw_emit(c, SF_IADD32I);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RA, d, 0, 1, false);
	linsn_set(op, SR_IMM, 1);
}

/* d = a * b + addend (mod 2^32): three XMADs */
static void mul_lo(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b, int addend)
{
	uint32_t t0 = lw_temp(c, 1);
	lw_xmad(c, t0, a, false, b, false, addend, 0);
	lw_mul_lo32_tail(c, d, 0, a, b, t0);
}

/* The estimate t ~ 2^32 / ub after one Newton step (steps 1 and 2);
 * ptxas multiplies |b| * t for signed, t * b for unsigned. */
static uint32_t reciprocal(LowerCtx *c, uint32_t b, uint32_t ub, bool is_signed)
{
	uint32_t t = lw_int_rcp_estimate(c, b, false, is_signed), m = lw_temp(c, 1), n = lw_temp(c, 1);
	if (is_signed)
		mul_lo(c, m, ub, t, -1);
	else
		mul_lo(c, m, t, ub, -1);
	iadd(c, n, (int)m, -1, NEG_A);
	uint32_t t2 = lw_temp(c, 1);
	lw_mul_hi32(c, t2, t, n, false, (int)t);
	return t2;
}

/* {div,rem}.{u,s}32 d, a, b */
bool lower_idiv(LowerCtx *c, const Instr *in)
{
	PtxTy ty = lw_instr_type(in);
	bool rem = lw_streq(in->opcode, "rem");
	if (ty.bits == 64 && !ty.is_float && in->nmods == 1)
		return lower_idiv64(c, in);
	if (ty.bits == 16 && !ty.is_float && in->nmods == 1)
		return lower_idiv16(c, in);
	if (ty.bits != 32 || ty.is_float || in->nmods != 1)
		return lw_unsupported(c, in->loc, "%s on this type (.u16, .s16, .u32, .s32, .u64 and .s64 are supported)", in->opcode);
	if (c->guard_vreg >= 0)
		return lw_unsupported(c, in->loc, "a guarded %s", in->opcode);
	uint32_t d;
	unsigned dw;
	Opnd ao, bo;
	if (!lw_reg(c, in->ops[0], &d, &dw) || !lw_opnd(c, in->ops[1], &ao) || !lw_opnd(c, in->ops[2], &bo))
		return false;
	uint32_t a, b, as, bs;
	lw_opnd_part(c, &ao, 0, &a, &as);
	lw_opnd_part(c, &bo, 0, &b, &bs);
	if (as || bs)
		return lw_unsupported(c, in->loc, "%s of the high half of a register", in->opcode);
	bool sg = ty.is_signed;
	uint32_t pz = lkernel_new_vreg(c->k, LRC_PRED, 1, true), pc = lkernel_new_vreg(c->k, LRC_PRED, 1, true);
	uint32_t ua = a, ub = b, sign = 0, nub = 0;
	if (sg) {
		ua = lw_temp(c, 1);
		ub = lw_temp(c, 1);
		nub = lw_temp(c, 1);
	}
	if (!sg)
		isetp(c, pz, CMP_EQ, false, b, -1);
	if (sg) {
		lw_iabs(c, ub, b, false);
		lw_iabs(c, ua, a, false);
		if (!rem) {
			sign = lw_temp(c, 1);
			LInsn *x = lw_emit(c, SF_LOP_R);
			linsn_ref(x, SR_RD, sign, 0, 1, true);
			linsn_ref(x, SR_RA, a, 0, 1, false);
			linsn_ref(x, SR_RB, b, 0, 1, false);
			linsn_set(x, SR_LOPOP, 2);
		}
	}
	uint32_t t = reciprocal(c, b, ub, sg);
	uint32_t q = lw_temp(c, 1), r = lw_temp(c, 1);
	c->k->vregs[q].temp = false;
	c->k->vregs[r].temp = false;
	lw_mul_hi32(c, q, t, ua, false, -1);
	if (sg) {
		lw_iabs(c, nub, b, true);
		mul_lo(c, r, nub, q, (int)ua);
		isetp(c, pc, CMP_GT, false, ub, (int)r);
		lw_guard(c, (int)pc, true);
		iadd(c, r, (int)r, (int)ub, NEG_B);
		if (!rem)
			add_one(c, q);
		lw_guard(c, -1, false);
		uint32_t pn = lkernel_new_vreg(c->k, LRC_PRED, 1, true);
		isetp(c, pn, CMP_GE, true, rem ? a : sign, -1);
		if (rem) {
			isetp(c, pc, CMP_GT, false, ub, (int)r);
			lw_guard(c, (int)pc, true);
			iadd(c, r, (int)r, (int)ub, NEG_B);
		} else {
			isetp(c, pc, CMP_GE, false, r, (int)ub);
			lw_guard(c, (int)pc, false);
			add_one(c, q);
		}
		lw_guard(c, -1, false);
		isetp(c, pz, CMP_EQ, true, b, -1);
		uint32_t res = rem ? r : q;
		lw_guard(c, (int)pn, true);
		iadd(c, res, (int)res, -1, NEG_A);
		lw_guard(c, -1, false);
		lw_guard(c, (int)pz, false);
		LInsn *ones = lw_emit(c, SF_LOP_R);
		linsn_ref(ones, SR_RD, res, 0, 1, true);
		linsn_set(ones, SR_RA, 255);
		linsn_ref(ones, SR_RB, b, 0, 1, false);
		linsn_set(ones, SR_LOPOP, 3);
		linsn_set(ones, SR_INVB, 1);
		lw_guard(c, -1, false);
		lw_mov(c, d, 0, res, 0);
		return true;
	}
	uint32_t nq = lw_temp(c, 1);
	iadd(c, nq, (int)q, -1, NEG_A);
	mul_lo(c, r, nq, b, (int)a);
	for (int k = 0; k < 2; k++) {
		isetp(c, pc, CMP_GE, false, r, (int)b);
		lw_guard(c, (int)pc, false);
		if (rem || k == 0)
			iadd(c, r, (int)b, (int)r, NEG_A);
		if (!rem)
			add_one(c, q);
		lw_guard(c, -1, false);
	}
	uint32_t res = rem ? r : q;
	lw_guard(c, (int)pz, false);
	LInsn *ones = lw_emit(c, SF_LOP_R);
	linsn_ref(ones, SR_RD, res, 0, 1, true);
	linsn_set(ones, SR_RA, 255);
	linsn_ref(ones, SR_RB, b, 0, 1, false);
	linsn_set(ones, SR_LOPOP, 3);
	linsn_set(ones, SR_INVB, 1);
	lw_guard(c, -1, false);
	lw_mov(c, d, 0, res, 0);
	return true;
}

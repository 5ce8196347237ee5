/* Lowering of 16-bit integer division and remainder (issue 17): the
 * computation of ptxas 11.8's sm_50 subroutines __cuda_sm20_{div,rem}_{u,s}16
 * (reached with CAL; inline here), which divide in single precision:
 *   1. the operands extended to 32 bits (their upper halves are undefined
 *      in PTX); signed: |a|, |b| (I2I.S32.S32);
 *   2. fa, fb = I2F.F32.U16; r = rcp.approx.f32(fb) with its tiny/huge
 *      scaling (MOV32I 2^24, FSETP, SEL of the .nv.constant2 words 1.0 and
 *      0.25, FMUL, MUFU.RCP, FMUL), 2 ulp up (IADD32I 0x2);
 *   3. q = F2I.U32.F32.TRUNC(FMUL.RZ fa, r), exact for 16-bit operands;
 *   4. remainder: a - (q & 0xffff) * b by XMADs (signed: -|b| * q + |a|);
 *   5. signed: negated by the sign s of a ^ b (quotient) or a (remainder)
 *      as s + (-s ^ x) (LOP3.LUT 0x78 masks the quotient at once);
 *   6. b == 0: all ones (@!P MOV32I 0xffffffff). */
#include "lower/lower_internal.h"

enum { INT_U16 = 2, FLOAT_F32 = 2, INT_U32 = 4, RND_RZ = 3, RND_TRUNC = 3 };
enum { LOP_XOR = 2, CMP_NE = 5, LUT_A_XOR_B_AND_C = 0x78 };

/* d = [-]|a| in a new temporary */
static uint32_t iabs(LowerCtx *c, uint32_t a, bool neg)
{
	uint32_t d = lw_temp(c, 1);
	lw_iabs(c, d, a, neg);
	return d;
}

static uint32_t to_float(LowerCtx *c, uint32_t a)
{
	uint32_t d = lw_temp(c, 1);
	LInsn *op = lw_emit(c, SF_I2F_R);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RB, a, 0, 1, false);
	linsn_set(op, SR_STYPE, INT_U16);
	linsn_set(op, SR_DTYPE, FLOAT_F32);
	return d;
}

/* d = a + [-]b (b < 0: RZ) */
static uint32_t iadd(LowerCtx *c, uint32_t a, int b, bool neg_a)
{
	uint32_t d = lw_temp(c, 1);
	LInsn *op = lw_emit(c, SF_IADD_R);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RA, a, 0, 1, false);
	if (b < 0)
		linsn_set(op, SR_RB, 255);
	else
		linsn_ref(op, SR_RB, (uint32_t)b, 0, 1, false);
	linsn_set(op, SR_NEG, neg_a ? 2 : 0);
	return d;
}

/* s + (-s ^ x), x masked to 16 bits first when mask (LOP3.LUT) */
static uint32_t apply_sign(LowerCtx *c, uint32_t s, uint32_t x, bool mask)
{
	uint32_t ns = iadd(c, s, -1, true), t = lw_temp(c, 1);
	LInsn *op = lw_emit(c, mask ? SF_LOP3_I : SF_LOP_R);
	linsn_ref(op, SR_RD, t, 0, 1, true);
	linsn_ref(op, SR_RA, ns, 0, 1, false);
	if (mask) {
		linsn_set(op, SR_IMM, 0xffff);
		linsn_ref(op, SR_RC, x, 0, 1, false);
		linsn_set(op, SR_LUT, LUT_A_XOR_B_AND_C);
	} else {
		linsn_ref(op, SR_RB, x, 0, 1, false);
		linsn_set(op, SR_LOPOP, LOP_XOR);
	}
	return iadd(c, s, (int)t, false);
}

/* {div,rem}.{u,s}16 d, a, b */
bool lower_idiv16(LowerCtx *c, const Instr *in)
{
	bool rem = lw_streq(in->opcode, "rem"), sg = lw_instr_type(in).is_signed;
	if (c->guard_vreg >= 0)
		return lw_unsupported(c, in->loc, "a guarded %s", in->opcode);
	uint32_t d, a, b;
	unsigned dw, as, bs;
	Opnd ao, bo;
	if (!lw_reg(c, in->ops[0], &d, &dw) || !lw_opnd(c, in->ops[1], &ao) || !lw_opnd(c, in->ops[2], &bo))
		return false;
	lw_opnd_part(c, &ao, 0, &a, &as);
	lw_opnd_part(c, &bo, 0, &b, &bs);
	if (as || bs)
		return lw_unsupported(c, in->loc, "%s of the high half of a register", in->opcode);
	uint32_t xa = lw_temp(c, 1), xb = lw_temp(c, 1);
	lw_extend32(c, xa, a, 16, sg);
	lw_extend32(c, xb, b, 16, sg);
	uint32_t ua = sg ? iabs(c, xa, false) : xa, ub = sg ? iabs(c, xb, false) : xb;
	uint32_t fb = to_float(c, ub), fa = to_float(c, ua), r = lw_temp(c, 1);
	lw_rcp_approx_f32(c, r, fb);
	uint32_t up = lw_alu_imm(c, SF_IADD32I, r, 2), fq = lw_temp(c, 1), q = lw_temp(c, 1);
	LInsn *mul = lw_emit(c, SF_FMUL_R);
	linsn_ref(mul, SR_RD, fq, 0, 1, true);
	linsn_ref(mul, SR_RA, fa, 0, 1, false);
	linsn_ref(mul, SR_RB, up, 0, 1, false);
	linsn_set(mul, SR_RND, RND_RZ);
	LInsn *tr = lw_emit(c, SF_F2I_R);
	linsn_ref(tr, SR_RD, q, 0, 1, true);
	linsn_ref(tr, SR_RB, fq, 0, 1, false);
	linsn_set(tr, SR_DTYPE, INT_U32);
	linsn_set(tr, SR_STYPE, FLOAT_F32);
	linsn_set(tr, SR_RND, RND_TRUNC);
	uint32_t res;
	if (!rem && !sg) {
		res = lw_alu_imm(c, SF_LOP32I, q, 0xffff);
	} else if (!rem) {
		uint32_t x = lw_temp(c, 1);
		LInsn *op = lw_emit(c, SF_LOP_R);
		linsn_ref(op, SR_RD, x, 0, 1, true);
		linsn_ref(op, SR_RA, xb, 0, 1, false);
		linsn_ref(op, SR_RB, xa, 0, 1, false);
		linsn_set(op, SR_LOPOP, LOP_XOR);
		res = apply_sign(c, lw_alu_imm(c, SF_SHR_I, x, 31), q, true);
	} else {
		uint32_t qm = lw_alu_imm(c, SF_LOP32I, q, 0xffff), t0 = lw_temp(c, 1), r16 = lw_temp(c, 1);
		uint32_t m = sg ? iabs(c, xb, true) : iadd(c, qm, -1, true), f = sg ? qm : ub;
		/* ptxas: the first XMAD reads q unmasked (its low half is the same) */
		lw_xmad(c, t0, m, false, sg ? q : ub, false, (int)ua, 0);
		lw_mul_lo32_tail(c, r16, 0, m, f, t0);
		res = sg ? apply_sign(c, lw_alu_imm(c, SF_SHR_I, xa, 31), r16, false) : r16;
	}
	uint32_t pz = lw_pred_temp(c);
	LInsn *ne = lw_emit(c, SF_ISETP_R);
	linsn_ref(ne, SR_PD, pz, 0, 1, true);
	linsn_set(ne, SR_PQ, 7);
	linsn_ref(ne, SR_RA, xb, 0, 1, false);
	linsn_set(ne, SR_RB, 255);
	linsn_set(ne, SR_CMP, CMP_NE);
	linsn_set(ne, SR_SIGNED, sg);
	linsn_set(ne, SR_PC, 7);
	c->k->vregs[res].temp = false;
	lw_guard(c, (int)pz, true);
	lw_mov32i(c, res, 0, 0xffffffff);
	lw_guard(c, -1, false);
	lw_mov(c, d, 0, res, 0);
	return true;
}

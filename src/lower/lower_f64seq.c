/* The emitters of ptxas 11.8's f64 Newton sequences (lower_f64seq.h):
 * each writes one SASS instruction of the forms those sequences use, with
 * its .nv.constant2 operands allocated where it is emitted. */
#include "lower/lower_f64seq.h"

uint32_t dseq_value(LowerCtx *c, unsigned width)
{
	uint32_t t = lw_temp(c, width);
	c->k->vregs[t].temp = false;
	return t;
}

void dseq_mufu64h(LowerCtx *c, unsigned fn, uint32_t d, uint32_t a)
{
	LInsn *op = lw_emit(c, SF_MUFU);
	linsn_ref(op, SR_RD, d, 1, 1, true);
	linsn_ref(op, SR_RA, a, 1, 1, false);
	linsn_set(op, SR_MUFUOP, fn);
}

void dseq_exponent(LowerCtx *c, uint32_t d, uint32_t a, unsigned asub)
{
	uint32_t t = lw_temp(c, 1);
	LInsn *op = lw_emit(c, SF_SHL_I);
	linsn_ref(op, SR_RD, t, 0, 1, true);
	linsn_ref(op, SR_RA, a, asub, 1, false);
	linsn_set(op, SR_IMM, 1);
	op = lw_emit(c, SF_SHR_I);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RA, t, 0, 1, false);
	linsn_set(op, SR_IMM, 21);
	linsn_set(op, SR_SIGNED, 0);
}

void dseq_iadd32i(LowerCtx *c, uint32_t d, unsigned dsub, uint32_t a, unsigned asub, uint32_t imm)
{
	LInsn *op = lw_emit(c, SF_IADD32I);
	linsn_ref(op, SR_RD, d, dsub, 1, true);
	linsn_ref(op, SR_RA, a, asub, 1, false);
	linsn_set(op, SR_IMM, imm);
}

void dseq_lop32i(LowerCtx *c, unsigned lop, uint32_t d, unsigned dsub, uint32_t a, unsigned asub, uint32_t imm)
{
	LInsn *op = lw_emit(c, SF_LOP32I);
	linsn_ref(op, SR_RD, d, dsub, 1, true);
	linsn_ref(op, SR_RA, a, asub, 1, false);
	linsn_set(op, SR_LOPOP, lop);
	linsn_set(op, SR_IMM, imm);
}

void dseq_isetp(LowerCtx *c, uint32_t p, unsigned cmp, bool is_signed, uint32_t a, unsigned asub, int64_t v)
{
	LInsn *op = lw_emit(c, v < 0 ? SF_ISETP_R : SF_ISETP_C);
	linsn_ref(op, SR_PD, p, 0, 1, true);
	linsn_set(op, SR_PQ, 7);
	linsn_ref(op, SR_RA, a, asub, 1, false);
	if (v < 0) {
		linsn_set(op, SR_RB, 255);
	} else {
		linsn_set(op, SR_CBANK, LK_CONST2_BANK);
		linsn_set(op, SR_COFF, lkernel_const2_slot(c->k, (uint32_t)v) / 4);
	}
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_SIGNED, is_signed);
	linsn_set(op, SR_PC, 7);
}

void dseq_fsetp_abs_geu_const2(LowerCtx *c, uint32_t p, uint32_t a, unsigned asub, uint32_t v)
{
	LInsn *op = lw_emit(c, SF_FSETP_C);
	linsn_ref(op, SR_PD, p, 0, 1, true);
	linsn_set(op, SR_PQ, 7);
	linsn_ref(op, SR_RA, a, asub, 1, false);
	linsn_set(op, SR_ABSA, 1);
	linsn_set(op, SR_CBANK, LK_CONST2_BANK);
	linsn_set(op, SR_COFF, lkernel_const2_slot(c->k, v) / 4);
	linsn_set(op, SR_CMP, DSEQ_GEU);
	linsn_set(op, SR_PC, 7);
}

void dseq_dsetp(LowerCtx *c, uint32_t p, unsigned cmp, uint32_t a, bool abs, int64_t hi20)
{
	LInsn *op = lw_emit(c, hi20 < 0 ? SF_DSETP_R : SF_DSETP_I);
	linsn_ref(op, SR_PD, p, 0, 1, true);
	linsn_set(op, SR_PQ, 7);
	linsn_ref(op, SR_RA, a, 0, 2, false);
	linsn_set(op, SR_ABSA, abs);
	if (hi20 < 0)
		linsn_set(op, SR_RB, 255);
	else
		linsn_set(op, SR_IMM, hi20);
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_PC, 7);
}

void dseq_dfma(LowerCtx *c, unsigned rnd, uint32_t d, uint32_t a, uint32_t b, bool neg_b, uint32_t cv)
{
	if (cv == DSEQ_ONE_CONST2) {
		dseq_dfma_const2(c, rnd, d, a, b, neg_b, DSEQ_ONE_HI);
		return;
	}
	LInsn *op = lw_emit(c, SF_DFMA_R);
	linsn_ref(op, SR_RD, d, 0, 2, true);
	linsn_ref(op, SR_RA, a, 0, 2, false);
	linsn_ref(op, SR_RB, b, 0, 2, false);
	linsn_set(op, SR_NEGB, neg_b);
	linsn_ref(op, SR_RC, cv, 0, 2, false);
	linsn_set(op, SR_RND, rnd);
}

void dseq_dfma_imm(LowerCtx *c, uint32_t d, uint32_t a, uint32_t hi20, uint32_t cv)
{
	LInsn *op = lw_emit(c, SF_DFMA_I);
	linsn_ref(op, SR_RD, d, 0, 2, true);
	linsn_ref(op, SR_RA, a, 0, 2, false);
	linsn_set(op, SR_IMM, hi20);
	linsn_ref(op, SR_RC, cv, 0, 2, false);
}

void dseq_dmul(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b)
{
	LInsn *op = lw_emit(c, SF_DMUL_R);
	linsn_ref(op, SR_RD, d, 0, 2, true);
	linsn_ref(op, SR_RA, a, 0, 2, false);
	linsn_ref(op, SR_RB, b, 0, 2, false);
}

void dseq_dmul_imm(LowerCtx *c, uint32_t d, uint32_t a, uint32_t hi20)
{
	LInsn *op = lw_emit(c, SF_DMUL_I);
	linsn_ref(op, SR_RD, d, 0, 2, true);
	linsn_ref(op, SR_RA, a, 0, 2, false);
	linsn_set(op, SR_IMM, hi20);
}

void dseq_dadd_self(LowerCtx *c, uint32_t d, uint32_t a)
{
	LInsn *op = lw_emit(c, SF_DADD_R);
	linsn_ref(op, SR_RD, d, 0, 2, true);
	linsn_ref(op, SR_RA, a, 0, 2, false);
	linsn_ref(op, SR_RB, a, 0, 2, false);
}

uint32_t dseq_const(LowerCtx *c, uint32_t hi)
{
	uint32_t v = dseq_value(c, 2);
	lw_mov_rz(c, v, 0);
	lw_mov32i(c, v, 1, hi);
	return v;
}

void dseq_copy_pair(LowerCtx *c, uint32_t d, uint32_t a)
{
	lw_mov(c, d, 0, a, 0);
	lw_mov(c, d, 1, a, 1);
}

bool dseq_operand(LowerCtx *c, const Expr *e, uint32_t *pair)
{
	Opnd a;
	if (!lw_opnd(c, e, &a))
		return false;
	if (a.kind == OPND_REG && lw_vreg_cpair(c, a.vreg) < 0) {
		*pair = a.vreg;
		return true;
	}
	*pair = dseq_value(c, 2);
	lw_copy_value(c, *pair, &a, 2);
	return true;
}

void dseq_rsqrt_refine(LowerCtx *c, uint32_t y, uint32_t s, uint32_t x)
{
	uint32_t s2 = lw_temp(c, 2), e = lw_temp(c, 2), half = dseq_const(c, DSEQ_HALF_HI), k = lw_temp(c, 2),
	         se = lw_temp(c, 2);
	dseq_dmul(c, s2, s, s);
	dseq_dfma(c, DSEQ_RN, e, x, s2, true, DSEQ_ONE_CONST2);
	dseq_dfma_imm(c, k, e, DSEQ_0375_HI20, half);
	dseq_dmul(c, se, s, e);
	dseq_dfma(c, DSEQ_RN, y, k, se, false, s);
}

/* DSET.cmp.AND d, [|]a[|], RZ (hi20 < 0) | imm20, PT: all ones or 0 */
void dseq_dset(LowerCtx *c, uint32_t d, unsigned cmp, uint32_t a, bool abs, int64_t hi20)
{
	LInsn *op = lw_emit(c, hi20 < 0 ? SF_DSET_R : SF_DSET_I);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RA, a, 0, 2, false);
	linsn_set(op, SR_ABSA, abs);
	if (hi20 < 0)
		linsn_set(op, SR_RB, 255);
	else
		linsn_set(op, SR_IMM, hi20);
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_PC, 7);
}

/* DFMA[.rnd] d, a, [-]b, c[0x2] (the pair (0, hi) from .nv.constant2) */
void dseq_dfma_const2(LowerCtx *c, unsigned rnd, uint32_t d, uint32_t a, uint32_t b, bool neg_b, uint32_t hi)
{
	LInsn *op = lw_emit(c, SF_DFMA_RC);
	linsn_ref(op, SR_RD, d, 0, 2, true);
	linsn_ref(op, SR_RA, a, 0, 2, false);
	linsn_ref(op, SR_RB, b, 0, 2, false);
	linsn_set(op, SR_NEGB, neg_b);
	linsn_set(op, SR_CBANK, LK_CONST2_BANK);
	linsn_set(op, SR_COFF, lkernel_const2_pair(c->k, 0, hi));
	linsn_set(op, SR_RND, rnd);
}

/* LOP.op.NZ p, RZ, a, b */
void dseq_lop_nz(LowerCtx *c, uint32_t p, unsigned lop, uint32_t a, uint32_t b)
{
	LInsn *op = lw_emit(c, SF_LOP_P_R);
	linsn_ref(op, SR_PD, p, 0, 1, true);
	linsn_set(op, SR_RD, 255);
	linsn_ref(op, SR_RA, a, 0, 1, false);
	linsn_ref(op, SR_RB, b, 0, 1, false);
	linsn_set(op, SR_LOPOP, lop);
	linsn_set(op, SR_LOPTEST, 1);
}

/* The emitters of ptxas 11.8's f32 division, reciprocal and square-root
 * sequences (lower_f32seq.h). */
#include "lower/lower_f32seq.h"

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

LInsn *fseq_alu_imm(LowerCtx *c, SassFormId form, uint32_t d, int a, uint32_t imm)
{
	LInsn *op = lw_op_def(c, form, (int)d);
	lw_op_use(op, SR_RA, a);
	linsn_set(op, SR_IMM, imm);
	return op;
}

/* d = a + b, -a + b (NEG_A) or a - b (NEG_B) */
void fseq_iadd(LowerCtx *c, uint32_t d, int a, int b, unsigned neg)
{
	LInsn *op = lw_op_def(c, SF_IADD_R, (int)d);
	lw_op_use(op, SR_RA, a);
	lw_op_use(op, SR_RB, b);
	linsn_set(op, SR_NEG, neg);
}

/* FFMA[.rnd] d, a, [-]b, c (c < 0: RZ) */
void fseq_ffma(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b, bool neg_b, int cv, unsigned rnd)
{
	LInsn *op = lw_op_def(c, SF_FFMA_R, (int)d);
	lw_op_use(op, SR_RA, (int)a);
	lw_op_use(op, SR_RB, (int)b);
	linsn_set(op, SR_NEGB, neg_b);
	lw_op_use(op, SR_RC, cv);
	linsn_set(op, SR_RND, rnd);
}

/* FFMA d, a, [-]b, c[0x2][value] */
void fseq_ffma_const2(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b, bool neg_b, uint32_t value)
{
	LInsn *op = lw_op_def(c, SF_FFMA_RC, (int)d);
	lw_op_use(op, SR_RA, (int)a);
	lw_op_use(op, SR_RB, (int)b);
	linsn_set(op, SR_NEGB, neg_b);
	linsn_set(op, SR_CBANK, LK_CONST2_BANK);
	linsn_set(op, SR_COFF, lkernel_const2_slot(c->k, value) / 4);
}

/* FADD.FTZ d, -a, -RZ: the negation ptxas writes */
void fseq_fneg_ftz(LowerCtx *c, uint32_t d, uint32_t a)
{
	LInsn *op = lw_op_def(c, SF_FADD_R, (int)d);
	lw_op_use(op, SR_RA, (int)a);
	linsn_set(op, SR_RB, RZ);
	linsn_set(op, SR_NEGA, 1);
	linsn_set(op, SR_NEGB, 1);
	linsn_set(op, SR_FTZ, 1);
}

/* LOP32I.op d, a, imm */
void fseq_lop32i(LowerCtx *c, uint32_t d, uint32_t a, uint32_t imm, unsigned lop)
{
	LInsn *op = lw_op_def(c, SF_LOP32I, (int)d);
	lw_op_use(op, SR_RA, (int)a);
	linsn_set(op, SR_IMM, imm);
	linsn_set(op, SR_LOPOP, lop);
}

/* FFMA d, a, 2^64, RZ */
void fseq_ffma_2p64(LowerCtx *c, uint32_t d, uint32_t a)
{
	LInsn *op = lw_op_def(c, SF_FFMA_I, (int)d);
	lw_op_use(op, SR_RA, (int)a);
	linsn_set(op, SR_IMM, F32_2P64 >> 12);
	linsn_set(op, SR_RC, RZ);
}

void fseq_mufu(LowerCtx *c, unsigned fn, uint32_t d, uint32_t a)
{
	LInsn *op = lw_op_def(c, SF_MUFU, (int)d);
	lw_op_use(op, SR_RA, (int)a);
	linsn_set(op, SR_MUFUOP, fn);
}

/* ISETP.cmp[.U32].bop p, PT, a, imm, [q] (q < 0: PT) */
void fseq_isetp_imm(LowerCtx *c, uint32_t p, int a, unsigned cmp, bool is_signed, int32_t imm, unsigned bop,
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

/* ISETP.cmp[.U32].bop p, PT, a, b, q (b < 0: RZ; q < 0: PT) */
void fseq_isetp_r(LowerCtx *c, uint32_t p, uint32_t a, int b, unsigned cmp, bool is_signed, unsigned bop, int q)
{
	LInsn *op = lw_emit(c, SF_ISETP_R);
	lw_op_pred(op, SR_PD, (int)p, true);
	linsn_set(op, SR_PQ, PT);
	lw_op_use(op, SR_RA, (int)a);
	lw_op_use(op, SR_RB, b);
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_SIGNED, is_signed);
	linsn_set(op, SR_BOP, bop);
	lw_op_pred(op, SR_PC, q, false);
}

/* ISETP.cmp.AND p, PT, a, RZ, [q] */
void fseq_isetp_rz(LowerCtx *c, uint32_t p, uint32_t a, unsigned cmp, int q)
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
void fseq_fset_abs_inf(LowerCtx *c, uint32_t d, uint32_t a, unsigned cmp)
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
void fseq_fsetp_finite(LowerCtx *c, uint32_t p, uint32_t a)
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
void fseq_lop_nz(LowerCtx *c, uint32_t p, uint32_t a, uint32_t b, unsigned lop, bool inv)
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
void fseq_nonzero_magnitude(LowerCtx *c, uint32_t p, uint32_t a)
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
void fseq_psetp(LowerCtx *c, uint32_t p, uint32_t x, uint32_t y, bool negated, unsigned bop)
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
void fseq_lop3_nz(LowerCtx *c, uint32_t p, uint32_t a, uint32_t b, uint32_t cv, unsigned lut)
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
void fseq_lop_and_nz_imm(LowerCtx *c, uint32_t p, uint32_t a, uint32_t imm)
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
void fseq_lop3_sign(LowerCtx *c, uint32_t d, uint32_t a, uint32_t cv, unsigned lut)
{
	LInsn *op = lw_op_def(c, SF_LOP3_C, (int)d);
	lw_op_use(op, SR_RA, (int)a);
	linsn_set(op, SR_CBANK, LK_CONST2_BANK);
	linsn_set(op, SR_COFF, lkernel_const2_slot(c->k, F32_SIGN) / 4);
	lw_op_use(op, SR_RC, (int)cv);
	linsn_set(op, SR_LUT, lut);
}

/* BFE.U32 d, a, 0x817: a's biased exponent */
void fseq_exp_field(LowerCtx *c, uint32_t d, uint32_t a)
{
	fseq_alu_imm(c, SF_BFE_I, d, (int)a, EXP_FIELD);
	linsn_set(&c->k->insns[c->k->ninsns - 1], SR_SIGNED, 0);
}

/* ISCADD res, e, q, 0x17: the exponent e put back into q */
void fseq_put_exponent(LowerCtx *c, uint32_t res, uint32_t e, uint32_t q)
{
	LInsn *op = lw_op_def(c, SF_ISCADD_R, (int)res);
	lw_op_use(op, SR_RA, (int)e);
	lw_op_use(op, SR_RB, (int)q);
	linsn_set(op, SR_SHIFT, 23);
}

/* A register holding o (a parameter word or immediate is moved in). */
uint32_t fseq_in_reg(LowerCtx *c, const Opnd *o)
{
	uint32_t v;
	unsigned s;
	lw_opnd_part(c, o, 0, &v, &s);
	return v;
}


/* ISETP.cmp[.U32].AND p, PT, a, c[0x2][value], PT */
void fseq_isetp_const2(LowerCtx *c, uint32_t p, uint32_t a, unsigned cmp, bool is_signed, uint32_t value)
{
	LInsn *op = lw_emit(c, SF_ISETP_C);
	lw_op_pred(op, SR_PD, (int)p, true);
	linsn_set(op, SR_PQ, PT);
	lw_op_use(op, SR_RA, (int)a);
	linsn_set(op, SR_CBANK, LK_CONST2_BANK);
	linsn_set(op, SR_COFF, lkernel_const2_slot(c->k, value) / 4);
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_SIGNED, is_signed);
	linsn_set(op, SR_PC, PT);
}

/* ISET.cmp[.U32].AND d, a, c[0x2][value] (value 0: RZ), PT: -1 when true */
void fseq_iset(LowerCtx *c, uint32_t d, uint32_t a, uint32_t value, unsigned cmp, bool is_signed)
{
	LInsn *op = lw_op_def(c, value ? SF_ISET_C : SF_ISET_R, (int)d);
	lw_op_use(op, SR_RA, (int)a);
	if (value) {
		linsn_set(op, SR_CBANK, LK_CONST2_BANK);
		linsn_set(op, SR_COFF, lkernel_const2_slot(c->k, value) / 4);
	} else {
		linsn_set(op, SR_RB, RZ);
	}
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_SIGNED, is_signed);
	linsn_set(op, SR_BOP, BOP_AND);
	linsn_set(op, SR_PC, PT);
}

/* ICMP.cmp[.U32] d, a, imm, sel: d = (sel cmp 0) ? a : imm (a < 0: RZ) */
void fseq_icmp_imm(LowerCtx *c, uint32_t d, int a, uint32_t imm, uint32_t sel, unsigned cmp, bool is_signed)
{
	LInsn *op = lw_op_def(c, SF_ICMP_I, (int)d);
	lw_op_use(op, SR_RA, a);
	linsn_set(op, SR_IMM, imm);
	lw_op_use(op, SR_RC, (int)sel);
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_SIGNED, is_signed);
}

/* LOP3.LUT d, a, b, c, lut */
void fseq_lop3(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b, uint32_t cv, unsigned lut)
{
	LInsn *op = lw_op_def(c, SF_LOP3_R, (int)d);
	lw_op_use(op, SR_RA, (int)a);
	lw_op_use(op, SR_RB, (int)b);
	lw_op_use(op, SR_RC, (int)cv);
	linsn_set(op, SR_LUT, lut);
}

/* LOP.op d, a, b */
void fseq_lop(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b, unsigned lop)
{
	LInsn *op = lw_op_def(c, SF_LOP_R, (int)d);
	lw_op_use(op, SR_RA, (int)a);
	lw_op_use(op, SR_RB, (int)b);
	linsn_set(op, SR_LOPOP, lop);
}

/* ICMP.cmp[.U32] d, a, b, sel: d = (sel cmp 0) ? a : b (a, b < 0: RZ) */
void fseq_icmp(LowerCtx *c, uint32_t d, int a, int b, uint32_t sel, unsigned cmp, bool is_signed)
{
	LInsn *op = lw_op_def(c, SF_ICMP_R, (int)d);
	lw_op_use(op, SR_RA, a);
	lw_op_use(op, SR_RB, b);
	lw_op_use(op, SR_RC, (int)sel);
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_SIGNED, is_signed);
}

/* ICMP.cmp d, a, c[0x2][value], sel: d = (sel cmp 0) ? a : value */
void fseq_icmp_const2(LowerCtx *c, uint32_t d, uint32_t a, uint32_t value, uint32_t sel, unsigned cmp)
{
	LInsn *op = lw_op_def(c, SF_ICMP_C, (int)d);
	lw_op_use(op, SR_RA, (int)a);
	linsn_set(op, SR_CBANK, LK_CONST2_BANK);
	linsn_set(op, SR_COFF, lkernel_const2_slot(c->k, value) / 4);
	lw_op_use(op, SR_RC, (int)sel);
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_SIGNED, 1);
}

bool fseq_rounding(LowerCtx *c, const Instr *in, unsigned *rnd)
{
	static const char *const words[] = { ".rn", ".rm", ".rp", ".rz" };
	*rnd = 0;
	for (uint32_t i = 0; i < in->nmods; i++) {
		bool known = lw_streq(in->mods[i], ".f32") || lw_streq(in->mods[i], ".ftz");
		for (unsigned k = 0; k < 4 && !known; k++)
			if (lw_streq(in->mods[i], words[k])) {
				*rnd = k;
				known = true;
			}
		if (!known)
			return lw_unsupported(c, in->mod_locs[i], "%s modifier '%s' (.rn, .rm, .rp or .rz [.ftz].f32 is "
			                      "supported)", in->opcode, in->mods[i]);
	}
	return true;
}

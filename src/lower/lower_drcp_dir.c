/* Lowering of rcp.rz.f64 (issue 17, the census of real PTX) and
 * rcp.rm/.rp.f64 (float-forms) as ptxas 11.8 writes them for sm_50: no
 * fast path; every reciprocal runs its subroutine
 * (`__cuda_sm20_rcp_{rz,rd,ru}_f64`, here inline; .ftz changes nothing):
 *   e = x's biased exponent (SHL 1, SHR.U32 21); when e - 1 > 0x7fd:
 *     NaN: x with the quiet bit; +-inf: +-0; +-0: +-inf; a subnormal x
 *     is scaled by 2^54 (s = 54, else s = 0)
 *   m = the (scaled) x with its exponent less e - 0x3ff; seed (1,
 *   MUFU.RCP64H m.hi); two DFMA Newton steps (one squared), the last
 *   DFMA.RZ gives q; k = s + q's exponent - e:
 *     k + 0x3fe in 0..0x7fd: the exponent put back by ISCADD
 *     k > 0x3ff: .rz the largest finite f64 of q's sign; .rm/.rp the
 *       largest finite when the sign rounds toward zero, else an infinity
 *     k >= -0x434: a subnormal, q's significand shifted right by
 *       -k - 0x3fe (SHF.R.S64, SHR), truncated (.rz), or plus one ulp when
 *       the sign rounds away from zero and bits are lost (the shift drops
 *       ones or the RZ, RM and RP quotients differ)
 *     else a signed zero (.rm/.rp: the smallest subnormal away from zero).
 * The same instructions and the .nv.constant2 words (1.0, the sign mask)
 * in ptxas's order; ptxas's ISCADD of a negated register is two
 * instructions here (the same word). */
#include "lower/lower_f64seq.h"

enum { RND_RZ = 3, MAXSHIFT_S64 = 3, LUT_A_OR_B_AND_C = 0xf8 };
enum { PT = 7, RZ = 255, CMP_LE = 3 };
enum {
	F64_EXP_MASK = 0x7ff00000,
};

/* form d.dsub, a.asub, #imm (SHL, SHR.U32, IADD32I, LOP32I) */
static LInsn *word_imm(LowerCtx *c, SassFormId form, uint32_t d, unsigned dsub, uint32_t a, unsigned asub,
                       uint32_t imm)
{
	LInsn *op = lw_emit(c, form);
	linsn_ref(op, SR_RD, d, dsub, 1, true);
	linsn_ref(op, SR_RA, a, asub, 1, false);
	linsn_set(op, SR_IMM, imm);
	return op;
}

/* form d.dsub, a.asub, b.bsub (IADD, SHR, ISCADD, SHF) */
static LInsn *word_reg(LowerCtx *c, SassFormId form, uint32_t d, unsigned dsub, uint32_t a, unsigned asub,
                       uint32_t b, unsigned bsub)
{
	LInsn *op = lw_emit(c, form);
	linsn_ref(op, SR_RD, d, dsub, 1, true);
	linsn_ref(op, SR_RA, a, asub, 1, false);
	linsn_ref(op, SR_RB, b, bsub, 1, false);
	return op;
}

/* ISETP.cmp[.U32].AND p, PT, a, imm, PT */
static void isetp(LowerCtx *c, uint32_t p, uint32_t a, unsigned cmp, bool is_signed, int32_t imm)
{
	LInsn *op = lw_emit(c, SF_ISETP_I);
	linsn_ref(op, SR_PD, p, 0, 1, true);
	linsn_set(op, SR_PQ, PT);
	linsn_ref(op, SR_RA, a, 0, 1, false);
	linsn_set(op, SR_IMM, imm);
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_SIGNED, is_signed);
	linsn_set(op, SR_BOP, DSEQ_AND);
	linsn_set(op, SR_PC, PT);
}

/* The special operands (biased exponent 0 or 0x7ff): NaN, infinity, zero
 * leave with res; a subnormal is scaled into m, s = 54. */
static void special(LowerCtx *c, uint32_t res, uint32_t x, uint32_t e1, uint32_t m, uint32_t s, int done)
{
	int not_nan = lw_label_new(c->k), not_inf = lw_label_new(c->k), not_zero = lw_label_new(c->k);
	uint32_t p = lw_pred_temp(c);
	dseq_dsetp(c, p, DSEQ_GTU, x, true, DSEQ_INF_HI20);
	lw_branch(c, (int)p, true, not_nan);
	lw_mov(c, res, 0, x, 0);
	dseq_lop32i(c, DSEQ_OR, res, 1, x, 1, DSEQ_F64_QUIET);
	lw_branch(c, -1, false, done);
	lw_label_place(c->k, not_nan);
	uint32_t q = lw_pred_temp(c);
	dseq_dsetp(c, q, DSEQ_NEU, x, true, DSEQ_INF_HI20);
	lw_branch(c, (int)q, false, not_inf);
	dseq_lop32i(c, DSEQ_AND, res, 1, x, 1, DSEQ_F64_SIGN);
	lw_mov_rz(c, res, 0);
	lw_branch(c, -1, false, done);
	lw_label_place(c->k, not_inf);
	uint32_t z = lw_pred_temp(c), sg = lw_temp(c, 1);
	dseq_dsetp(c, z, DSEQ_NEU, x, false, -1);
	lw_branch(c, (int)z, false, not_zero);
	dseq_lop32i(c, DSEQ_AND, sg, 0, x, 1, DSEQ_F64_SIGN);
	dseq_lop32i(c, DSEQ_OR, res, 1, sg, 0, F64_EXP_MASK);
	lw_mov_rz(c, res, 0);
	lw_branch(c, -1, false, done);
	lw_label_place(c->k, not_zero);
	int normal = lw_label_new(c->k);
	uint32_t n = lw_pred_temp(c);
	LInsn *op = lw_emit(c, SF_ISETP_R);
	linsn_ref(op, SR_PD, n, 0, 1, true);
	linsn_set(op, SR_PQ, PT);
	linsn_ref(op, SR_RA, e1, 0, 1, false);
	linsn_set(op, SR_RB, RZ);
	linsn_set(op, SR_CMP, DSEQ_GE);
	linsn_set(op, SR_SIGNED, 1);
	linsn_set(op, SR_PC, PT);
	lw_branch(c, (int)n, false, normal);
	dseq_dmul_imm(c, m, x, DSEQ_F64_2P54_HI20);
	lw_mov32i(c, s, 0, DSEQ_SUBNORMAL_SCALE);
	lw_label_place(c->k, normal);
}

/* The last step q = fma.rnd(f, g, y2), kept to be redone in other modes */
typedef struct { uint32_t f, g, y2; } LastStep;

/* q = rcp(m) rounded by rnd: ptxas's two Newton steps */
static LastStep newton(LowerCtx *c, uint32_t q, uint32_t m, unsigned rnd)
{
	uint32_t one = DSEQ_ONE_CONST2;
	uint32_t y = dseq_value(c, 2), e = lw_temp(c, 2), a = lw_temp(c, 2), e2 = lw_temp(c, 2);
	uint32_t f = lw_temp(c, 2), y2 = lw_temp(c, 2), g = lw_temp(c, 2);
	lw_mov32i(c, y, 0, 1);
	dseq_mufu64h(c, DSEQ_MUFU_RCP64H, y, m);
	dseq_dfma(c, DSEQ_RN, e, m, y, true, one);
	dseq_dfma(c, DSEQ_RN, a, y, e, false, y);
	dseq_dmul(c, e2, e, e);
	dseq_dfma(c, DSEQ_RN, a, a, e2, false, a);
	dseq_dfma(c, DSEQ_RN, f, m, a, true, one);
	dseq_dfma(c, DSEQ_RN, y2, e, a, false, y);
	dseq_dfma(c, DSEQ_RN, f, a, f, false, a);
	dseq_dfma(c, DSEQ_RN, g, m, y2, true, one);
	dseq_dfma(c, rnd, q, f, g, false, y2);
	return (LastStep){ f, g, y2 };
}

/* .rz: q's exponent out of range by k: the largest finite f64, a
 * subnormal or a zero, with q's sign */
static void out_of_range_rz(LowerCtx *c, uint32_t res, uint32_t q, uint32_t k)
{
	int fin = lw_label_new(c->k), zero = lw_label_new(c->k);
	uint32_t hi = dseq_value(c, 1), p = lw_pred_temp(c), u = lw_pred_temp(c);
	isetp(c, p, k, DSEQ_GT, true, DSEQ_EXP_BIAS);
	int below = lw_label_new(c->k);
	lw_branch(c, (int)p, true, below);
	lw_mov32i(c, res, 0, UINT32_MAX);
	lw_mov32i(c, hi, 0, DSEQ_F64_MAX_HI);
	lw_branch(c, -1, false, fin);
	lw_label_place(c->k, below);
	isetp(c, u, k, DSEQ_GE, true, DSEQ_SUBNORMAL_MIN_K);
	lw_branch(c, (int)u, true, zero);
	uint32_t mh = lw_temp(c, 1), nk = lw_temp(c, 1), n = lw_temp(c, 1);
	dseq_lop32i(c, DSEQ_AND, mh, 0, q, 1, DSEQ_F64_MANT_HI);
	LInsn *neg = lw_emit(c, SF_IADD_R);   /* -k */
	linsn_ref(neg, SR_RD, nk, 0, 1, true);
	linsn_set(neg, SR_RA, RZ);
	linsn_ref(neg, SR_RB, k, 0, 1, false);
	linsn_set(neg, SR_NEG, 1);
	dseq_iadd32i(c, n, 0, nk, 0, (uint32_t)-(DSEQ_EXP_BIAS - 1));
	dseq_lop32i(c, DSEQ_OR, mh, 0, mh, 0, DSEQ_F64_HIDDEN_HI);
	LInsn *op = word_reg(c, SF_SHF_R_R, res, 0, q, 0, n, 0);
	linsn_ref(op, SR_RC, mh, 0, 1, false);
	linsn_set(op, SR_MAXSHIFT, MAXSHIFT_S64);
	linsn_set(word_reg(c, SF_SHR_R, hi, 0, mh, 0, n, 0), SR_SIGNED, 1);
	lw_branch(c, -1, false, fin);
	lw_label_place(c->k, zero);
	lw_mov_rz(c, res, 0);
	lw_mov_rz(c, hi, 0);
	lw_label_place(c->k, fin);
	op = lw_emit(c, SF_LOP3_C);
	linsn_ref(op, SR_RD, res, 1, 1, true);
	linsn_ref(op, SR_RA, hi, 0, 1, false);
	linsn_set(op, SR_CBANK, LK_CONST2_BANK);
	linsn_set(op, SR_COFF, lkernel_const2_slot(c->k, DSEQ_F64_SIGN) / 4);
	linsn_ref(op, SR_RC, q, 1, 1, false);
	linsn_set(op, SR_LUT, LUT_A_OR_B_AND_C);
}

/* ICMP.cmp d.dsub, a (RZ when a < 0), B, sel (signed): d = (sel cmp 0) ? a : B,
 * B an immediate (value) or the .nv.constant2 word (const2) */
static void icmp(LowerCtx *c, uint32_t d, unsigned dsub, unsigned cmp, int a, int64_t value, bool const2,
                 uint32_t sel)
{
	LInsn *op = lw_emit(c, const2 ? SF_ICMP_C : SF_ICMP_I);
	linsn_ref(op, SR_RD, d, dsub, 1, true);
	if (a < 0)
		linsn_set(op, SR_RA, RZ);
	else
		linsn_ref(op, SR_RA, (uint32_t)a, 0, 1, false);
	if (const2) {
		linsn_set(op, SR_CBANK, LK_CONST2_BANK);
		linsn_set(op, SR_COFF, lkernel_const2_slot(c->k, (uint32_t)value) / 4);
	} else {
		linsn_set(op, SR_IMM, value);
	}
	linsn_ref(op, SR_RC, sel, 0, 1, false);
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_SIGNED, 1);
}

/* .rm/.rp: q's exponent out of range by k, s q's sign; the sign rounds
 * away from zero when s != 0 (.rm) or s == 0 (.rp) */
static void out_of_range_dir(LowerCtx *c, uint32_t res, uint32_t q, uint32_t k, unsigned rnd, LastStep l)
{
	bool rm = rnd == DSEQ_RM;
	/* ICMP's tests of s: 1 when s rounds away from zero; the low word of
	 * the largest finite (all ones) when s rounds toward zero */
	unsigned away = rm ? DSEQ_EQ : DSEQ_NE, toward = rm ? DSEQ_NE : DSEQ_EQ;
	int fin = lw_label_new(c->k);
	uint32_t p = lw_pred_temp(c), s = lw_temp(c, 1), h = lw_temp(c, 1), up = lw_temp(c, 1);
	isetp(c, p, k, DSEQ_GT, true, DSEQ_EXP_BIAS);
	dseq_lop32i(c, DSEQ_AND, s, 0, q, 1, DSEQ_F64_SIGN);
	lw_guard(c, (int)p, false);              /* overflow: an infinity or the largest finite */
	lw_mov32i(c, h, 0, rm ? 0xfff00000u : 0xffefffffu);
	icmp(c, res, 0, toward, -1, -1, false, s);
	icmp(c, res, 1, DSEQ_NE, (int)h, rm ? DSEQ_F64_MAX_HI : 0x7ff00000u, true, s);
	lw_branch(c, (int)p, false, fin);
	uint32_t u = lw_pred_temp(c);
	isetp(c, u, k, DSEQ_GE, true, DSEQ_SUBNORMAL_MIN_K);
	icmp(c, up, 0, away, -1, 1, false, s);
	lw_guard(c, (int)u, true);               /* nothing left: zero or the smallest subnormal */
	lw_mov(c, res, 0, up, 0);
	lw_mov(c, res, 1, s, 0);
	lw_branch(c, (int)u, true, fin);

	uint32_t lo = lw_temp(c, 2), hi = lw_temp(c, 2), sh = lw_temp(c, 1), t = lw_temp(c, 1), w = lw_temp(c, 1);
	uint32_t lost = lw_pred_temp(c), n = lw_temp(c, 1), m = lw_temp(c, 2), m1 = lw_temp(c, 2), inx = lw_temp(c, 1);
	dseq_dfma(c, RND_RZ, lo, l.f, l.g, false, l.y2);
	dseq_iadd32i(c, sh, 0, k, 0, 0x43e);
	dseq_dfma(c, rm ? DSEQ_RP : DSEQ_RM, hi, l.f, l.g, false, l.y2);
	dseq_lop32i(c, DSEQ_AND, lo, 1, lo, 1, DSEQ_F64_MANT_HI);
	word_reg(c, SF_SHL_R, t, 0, lo, 0, sh, 0);
	dseq_lop32i(c, DSEQ_OR, lo, 1, lo, 1, DSEQ_F64_HIDDEN_HI);
	LInsn *op = lw_emit(c, SF_IADD_R);       /* the low word's lost bits into CC */
	linsn_set(op, SR_RD, RZ);
	linsn_set(op, SR_RA, RZ);
	linsn_ref(op, SR_RB, t, 0, 1, false);
	linsn_set(op, SR_NEG, 2);
	linsn_set(op, SR_CC, 1);
	op->writes_cc = true;
	op = word_reg(c, SF_SHF_L_R, w, 0, lo, 0, sh, 0);
	linsn_ref(op, SR_RC, lo, 1, 1, false);
	linsn_set(op, SR_MAXSHIFT, 2);
	op = lw_emit(c, SF_ISETP_R);             /* any bit shifted out */
	linsn_ref(op, SR_PD, lost, 0, 1, true);
	linsn_set(op, SR_PQ, PT);
	linsn_ref(op, SR_RA, w, 0, 1, false);
	linsn_set(op, SR_RB, RZ);
	linsn_set(op, SR_CMP, DSEQ_NE);
	linsn_set(op, SR_SIGNED, 1);
	linsn_set(op, SR_X, 1);
	linsn_set(op, SR_PC, PT);
	op->reads_cc = true;
	linsn_set(word_imm(c, SF_IADD32I, n, 0, k, 0, (uint32_t)-(DSEQ_EXP_BIAS - 1)), SR_NEGA, 1);
	op = word_reg(c, SF_SHF_R_R, m, 0, lo, 0, n, 0);
	linsn_ref(op, SR_RC, lo, 1, 1, false);
	linsn_set(op, SR_MAXSHIFT, MAXSHIFT_S64);
	op = lw_emit(c, SF_DSETP_R);             /* or the quotients differ */
	linsn_ref(op, SR_PD, lost, 0, 1, true);
	linsn_set(op, SR_PQ, PT);
	linsn_ref(op, SR_RA, q, 0, 2, false);
	linsn_ref(op, SR_RB, hi, 0, 2, false);
	linsn_set(op, SR_CMP, DSEQ_NE);
	linsn_set(op, SR_BOP, DSEQ_OR);
	linsn_ref(op, SR_PC, lost, 0, 1, false);
	linsn_set(word_reg(c, SF_SHR_R, m, 1, lo, 1, n, 0), SR_SIGNED, 1);
	op = word_imm(c, SF_IADD32I, m1, 0, m, 0, 1);
	linsn_set(op, SR_CC, 1);
	op->writes_cc = true;
	op = lw_emit(c, SF_IADD_R);
	linsn_ref(op, SR_RD, m1, 1, 1, true);
	linsn_set(op, SR_RA, RZ);
	linsn_ref(op, SR_RB, m, 1, 1, false);
	linsn_set(op, SR_X, 1);
	op->reads_cc = true;
	op = lw_emit(c, SF_SEL_I);               /* inexact ? 1 : 0 */
	linsn_ref(op, SR_RD, inx, 0, 1, true);
	linsn_set(op, SR_RA, RZ);
	linsn_set(op, SR_IMM, 1);
	linsn_ref(op, SR_PC, lost, 0, 1, false);
	linsn_set(op, SR_PC_NOT, 1);
	uint32_t inc = lw_temp(c, 1), mh = lw_temp(c, 1);
	word_reg(c, SF_LOP_R, inc, 0, up, 0, inx, 0);
	for (unsigned i = 2; i-- > 0;) {         /* m + (inc ? 1 ulp : 0) */
		op = word_reg(c, SF_ICMP_R, i ? mh : res, 0, m, i, m1, i);
		linsn_ref(op, SR_RC, inc, 0, 1, false);
		linsn_set(op, SR_CMP, CMP_LE);
		linsn_set(op, SR_SIGNED, 1);
	}
	word_reg(c, SF_LOP_R, res, 1, mh, 0, s, 0);
	linsn_set(&c->k->insns[c->k->ninsns - 1], SR_LOPOP, DSEQ_OR);
	lw_label_place(c->k, fin);
	lw_guard(c, -1, false);
}

bool lower_rcp_dir_f64(LowerCtx *c, const Instr *in)
{
	/* .ftz: the same code (ptxas 11.8) */
	unsigned rnd = 0;
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		if (lw_streq(w, ".rz"))
			rnd = RND_RZ;
		else if (lw_streq(w, ".rm"))
			rnd = DSEQ_RM;
		else if (lw_streq(w, ".rp"))
			rnd = DSEQ_RP;
		else if (!lw_streq(w, ".f64") && !lw_streq(w, ".ftz"))
			return lw_unsupported(c, in->mod_locs[i], "rcp.f64 modifier '%s' (.rn, .rz, .rm and .rp are supported)",
			                      w);
	}
	if (rnd == 0)
		return lw_unsupported(c, in->loc, "rcp.f64 without .rn, .rz, .rm or .rp");
	uint32_t d, x;
	unsigned dw;
	if (!lw_reg(c, in->ops[0], &d, &dw))
		return false;
	int done = lw_label_new(c->k);
	if (c->guard_vreg >= 0)
		lw_branch(c, c->guard_vreg, !c->guard_neg, done);
	if (!dseq_operand(c, in->ops[1], &x))
		return false;
	uint32_t res = dseq_value(c, 2), m = dseq_value(c, 2), s = dseq_value(c, 1);
	uint32_t e = lw_temp(c, 1), e1 = lw_temp(c, 1), p = lw_pred_temp(c);
	int ret = lw_label_new(c->k), general = lw_label_new(c->k);
	dseq_exponent(c, e, x, 1);
	dseq_copy_pair(c, m, x);
	dseq_iadd32i(c, e1, 0, e, 0, (uint32_t)-1);
	isetp(c, p, e1, DSEQ_GT, false, 0x7fd);
	lw_mov_rz(c, s, 0);
	lw_branch(c, (int)p, true, general);
	special(c, res, x, e1, m, s, ret);
	lw_label_place(c->k, general);
	uint32_t t = lw_temp(c, 1), sh = lw_temp(c, 1), mm = lw_temp(c, 2), q = lw_temp(c, 2);
	dseq_iadd32i(c, t, 0, e, 0, (uint32_t)-DSEQ_EXP_BIAS);
	word_imm(c, SF_SHL_I, sh, 0, t, 0, 20);
	lw_mov(c, mm, 0, m, 0);
	linsn_set(word_reg(c, SF_IADD_R, mm, 1, m, 1, sh, 0), SR_NEG, 1);
	LastStep last = newton(c, q, mm, rnd);
	uint32_t qe = lw_temp(c, 1), k = lw_temp(c, 1), k2 = lw_temp(c, 1);
	uint32_t r = lw_pred_temp(c);
	dseq_exponent(c, qe, q, 1);
	LInsn *op = word_reg(c, SF_IADD3_R, k, 0, s, 0, qe, 0);   /* s + qe - e */
	linsn_ref(op, SR_RC, e, 0, 1, false);
	linsn_set(op, SR_NEGC, 1);
	dseq_iadd32i(c, k2, 0, k, 0, DSEQ_EXP_BIAS - 1);
	isetp(c, r, k2, DSEQ_GT, false, 0x7fd);
	int range = lw_label_new(c->k);
	lw_branch(c, (int)r, false, range);
	uint32_t f = lw_temp(c, 1);
	op = word_imm(c, SF_IADD3_I, f, 0, k, 0, DSEQ_EXP_BIAS);   /* k + 0x3ff - qe */
	linsn_ref(op, SR_RC, qe, 0, 1, false);
	linsn_set(op, SR_NEGC, 1);
	lw_mov(c, res, 0, q, 0);
	linsn_set(word_reg(c, SF_ISCADD_R, res, 1, f, 0, q, 1), SR_SHIFT, 20);
	lw_branch(c, -1, false, ret);
	lw_label_place(c->k, range);
	if (rnd == RND_RZ)
		out_of_range_rz(c, res, q, k);
	else
		out_of_range_dir(c, res, q, k, rnd, last);
	lw_label_place(c->k, ret);
	dseq_copy_pair(c, d, res);
	lw_label_place(c->k, done);
	return true;
}

/* Lowering of the directed-rounding f64 divisions div.rm.f64, div.rp.f64
 * and div.rz.f64 as ptxas 11.8 writes them for sm_50 (the float-forms
 * sweep; measured at -O3, -O0 runs the same subroutine): no fast path,
 * every division runs ptxas's subroutine (CAL there, inline here):
 *   ex, ey = the biased exponents of x and y; when ex - 1 or ey - 1 is
 *   above 0x7fd (unsigned):
 *     x NaN: x quieted; y NaN: y quieted; 0/0 and inf/inf: the NaN
 *     0xfff80000_00000000; x zero or y infinite: a zero, y infinite or x
 *     zero... an infinity, both with the sign of x ^ y; else a subnormal x
 *     or y is scaled by 2^54 (s -= 54 / s += 54);
 *   xm, ym = x, y with their exponents made 0x3ff; q1 = xm / ym by a
 *   Newton-Raphson reciprocal (seed (1, MUFU.RCP64H), two steps) and two
 *   residual corrections, the last DFMA with the cvt's rounding: qd;
 *   k = qd's exponent + ex - ey + s:
 *     k - 1 in 0..0x7fd: qd with k as its exponent (ISCADD);
 *     k - 0x3ff > 0x3ff: overflow: .rm +max finite / -inf, .rp +inf /
 *       -max finite, .rz the largest finite, with the sign;
 *     k - 0x3ff < -0x434: underflow: .rm +0 / -smallest subnormal, .rp
 *       +smallest subnormal / -0, .rz a signed zero;
 *     else a subnormal: the significand of the quotient rounded toward
 *       zero (DFMA.RZ) shifted right by 1 - k (SHF.R.S64, SHR); .rm on a
 *       negative and .rp on a positive quotient add one ulp when the
 *       division was inexact (bits shifted out, or the DFMA.RM and .RP
 *       quotients differ); .rz uses qd itself.
 * The .nv.constant2 words in ptxas's order: 1.0, the overflow word (.rm
 * 0x7fefffff, .rp 0x7ff00000), the sign mask. ptxas's ISCADD of a negated
 * register is SHL + IADD here (the same words as lower_drcp_dir.c). */
#include "lower/lower_f64seq.h"

enum { RND_RZ = 3, MAXSHIFT_U64 = 2, MAXSHIFT_S64 = 3, PT = 7, RZ = 255 };
enum { LUT_A_OR_B_AND_C = 0xf8, LUT_B_AND_A_XOR_C = 0x48, NEG_A = 2, NEG_B = 1 };
enum { CMP_LE = 3 };
enum {
	F64_INF_HI = 0x7ff00000,
	F64_NAN_HI = 0xfff80000u,
	EXP_RANGE = 0x7fd,
	SHIFT_OUT = 0x3f,
};

typedef struct DivDir {
	unsigned rnd;                   /* DSEQ_RM, DSEQ_RP or RND_RZ */
	uint32_t x, y, res;             /* the operands and the result pair */
	int ret;                        /* the label after the result */
} DivDir;

static LInsn *word_op(LowerCtx *c, SassFormId form, uint32_t d, unsigned dsub)
{
	LInsn *op = lw_emit(c, form);
	if (d == RZ)
		linsn_set(op, SR_RD, RZ);
	else
		linsn_ref(op, SR_RD, d, dsub, 1, true);
	return op;
}

static void src(LInsn *op, SassRole r, uint32_t v, unsigned sub)
{
	if (v == RZ)
		linsn_set(op, r, RZ);
	else
		linsn_ref(op, r, v, sub, 1, false);
}

/* form d, a, b (register words; RZ allowed) */
static LInsn *rr(LowerCtx *c, SassFormId form, uint32_t d, unsigned dsub, uint32_t a, unsigned asub, uint32_t b,
                 unsigned bsub)
{
	LInsn *op = word_op(c, form, d, dsub);
	src(op, SR_RA, a, asub);
	src(op, SR_RB, b, bsub);
	return op;
}

/* form d, a, imm */
static LInsn *ri(LowerCtx *c, SassFormId form, uint32_t d, unsigned dsub, uint32_t a, unsigned asub, int64_t imm)
{
	LInsn *op = word_op(c, form, d, dsub);
	src(op, SR_RA, a, asub);
	linsn_set(op, SR_IMM, imm);
	return op;
}

/* ISETP.cmp[.U32].bop p, PT, a, imm|RZ, q|PT */
static void isetp(LowerCtx *c, uint32_t p, unsigned cmp, bool is_signed, uint32_t a, int64_t imm, bool rz_b,
                  unsigned bop, int q)
{
	LInsn *op = lw_emit(c, rz_b ? SF_ISETP_R : SF_ISETP_I);
	linsn_ref(op, SR_PD, p, 0, 1, true);
	linsn_set(op, SR_PQ, PT);
	linsn_ref(op, SR_RA, a, 0, 1, false);
	if (rz_b)
		linsn_set(op, SR_RB, RZ);
	else
		linsn_set(op, SR_IMM, imm);
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_SIGNED, is_signed);
	linsn_set(op, SR_BOP, bop);
	if (q < 0)
		linsn_set(op, SR_PC, PT);
	else
		linsn_ref(op, SR_PC, (uint32_t)q, 0, 1, false);
}

/* LOP3.LUT d, a, c[0x2][value], cv, lut */
static void lop3_const2(LowerCtx *c, uint32_t d, unsigned dsub, uint32_t a, unsigned asub, uint32_t value,
                        uint32_t cv, unsigned csub, unsigned lut)
{
	LInsn *op = word_op(c, SF_LOP3_C, d, dsub);
	src(op, SR_RA, a, asub);
	linsn_set(op, SR_CBANK, LK_CONST2_BANK);
	linsn_set(op, SR_COFF, lkernel_const2_slot(c->k, value) / 4);
	linsn_ref(op, SR_RC, cv, csub, 1, false);
	linsn_set(op, SR_LUT, lut);
}

/* ICMP.cmp d, a, B, sel: d = (sel cmp 0) ? a : B (B an imm20, or c[0x2]) */
static void icmp_imm(LowerCtx *c, uint32_t d, unsigned dsub, unsigned cmp, uint32_t a, int32_t imm, uint32_t sel)
{
	LInsn *op = ri(c, SF_ICMP_I, d, dsub, a, 0, imm);
	linsn_ref(op, SR_RC, sel, 0, 1, false);
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_SIGNED, 1);
}

static void icmp_const2(LowerCtx *c, uint32_t d, unsigned dsub, unsigned cmp, uint32_t a, uint32_t value,
                        uint32_t sel)
{
	LInsn *op = word_op(c, SF_ICMP_C, d, dsub);
	linsn_ref(op, SR_RA, a, 0, 1, false);
	linsn_set(op, SR_CBANK, LK_CONST2_BANK);
	linsn_set(op, SR_COFF, lkernel_const2_slot(c->k, value) / 4);
	linsn_ref(op, SR_RC, sel, 0, 1, false);
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_SIGNED, 1);
}

/* the result (lo, hi) and a branch to the end */
static void give(LowerCtx *c, const DivDir *v, uint32_t lo, unsigned losub, uint32_t hi, unsigned hisub)
{
	if (lo == RZ)
		lw_mov_rz(c, v->res, 0);
	else
		lw_mov(c, v->res, 0, lo, losub);
	lw_mov(c, v->res, 1, hi, hisub);
	lw_branch(c, -1, false, v->ret);
}

/* The operands with biased exponent 0 or 0x7ff: NaN, zero and infinity
 * leave with their result; a subnormal is scaled into xs/ys, s = -54/+54. */
static void special(LowerCtx *c, const DivDir *v, uint32_t ex1, uint32_t ey1, uint32_t xs, uint32_t ys, uint32_t s,
                    int main)
{
	uint32_t x = v->x, y = v->y, p = lw_pred_temp(c);
	int next = lw_label_new(c->k);
	for (unsigned i = 0; i < 2; i++) {          /* a NaN x, then a NaN y: quieted */
		uint32_t a = i ? y : x, hi = lw_temp(c, 1);
		int skip = lw_label_new(c->k);
		dseq_dsetp(c, p, DSEQ_GTU, a, true, DSEQ_INF_HI20);
		lw_branch(c, (int)p, true, skip);
		dseq_lop32i(c, DSEQ_OR, hi, 0, a, 1, DSEQ_F64_QUIET);
		give(c, v, a, 0, hi, 0);
		lw_label_place(c->k, skip);
	}
	uint32_t zx = lw_temp(c, 1), zy = lw_temp(c, 1), ix = lw_temp(c, 1), iy = lw_temp(c, 1);
	int nan = lw_label_new(c->k);
	dseq_dset(c, zx, DSEQ_EQ, x, false, -1);
	dseq_dset(c, zy, DSEQ_EQ, y, false, -1);
	dseq_lop32i(c, DSEQ_AND, zx, 0, zx, 0, 1);
	dseq_lop32i(c, DSEQ_AND, zy, 0, zy, 0, 1);
	dseq_lop_nz(c, p, DSEQ_AND, zx, zy);
	lw_branch(c, (int)p, false, nan);
	dseq_dset(c, ix, DSEQ_NEU, x, true, DSEQ_INF_HI20);
	dseq_dset(c, iy, DSEQ_NEU, y, true, DSEQ_INF_HI20);
	dseq_lop_nz(c, p, DSEQ_OR, ix, iy);
	lw_branch(c, (int)p, false, next);
	lw_label_place(c->k, nan);
	uint32_t nanhi = lw_temp(c, 1);
	lw_mov32i(c, nanhi, 0, F64_NAN_HI);
	give(c, v, RZ, 0, nanhi, 0);
	lw_label_place(c->k, next);
	/* x zero or y infinite: a signed zero; y zero or x infinite: a signed infinity */
	for (unsigned i = 0; i < 2; i++) {
		uint32_t one = lw_temp(c, 1), inf = lw_temp(c, 1), sg = lw_temp(c, 1);
		int skip = lw_label_new(c->k);
		lw_mov32i(c, one, 0, 1);
		dseq_dset(c, inf, DSEQ_EQ, i ? x : y, true, DSEQ_INF_HI20);
		LInsn *op = lw_emit(c, SF_LOP3_P_R);
		linsn_ref(op, SR_PD, p, 0, 1, true);
		linsn_set(op, SR_RD, RZ);
		linsn_ref(op, SR_RA, i ? zy : zx, 0, 1, false);
		linsn_ref(op, SR_RB, one, 0, 1, false);
		linsn_ref(op, SR_RC, inf, 0, 1, false);
		linsn_set(op, SR_LUT, LUT_A_OR_B_AND_C);
		linsn_set(op, SR_LOPTEST, 1);
		lw_branch(c, (int)p, true, skip);
		lop3_const2(c, sg, 0, y, 1, DSEQ_F64_SIGN, x, 1, LUT_B_AND_A_XOR_C);
		if (i)
			dseq_lop32i(c, DSEQ_OR, sg, 0, sg, 0, F64_INF_HI);
		give(c, v, RZ, 0, sg, 0);
		lw_label_place(c->k, skip);
	}
	/* subnormal operands */
	uint32_t xn = lw_pred_temp(c), yn = lw_pred_temp(c);
	isetp(c, xn, DSEQ_GE, true, ex1, 0, true, DSEQ_AND, -1);
	isetp(c, yn, DSEQ_GE, true, ey1, 0, true, DSEQ_AND, -1);
	int xnormal = lw_label_new(c->k);
	lw_mov_rz(c, s, 0);
	lw_branch(c, (int)xn, false, xnormal);
	dseq_dmul_imm(c, xs, x, DSEQ_F64_2P54_HI20);
	lw_mov32i(c, s, 0, (uint32_t)-DSEQ_SUBNORMAL_SCALE);
	lw_label_place(c->k, xnormal);
	lw_branch(c, (int)yn, false, main);
	dseq_dmul_imm(c, ys, y, DSEQ_F64_2P54_HI20);
	dseq_iadd32i(c, s, 0, s, 0, DSEQ_SUBNORMAL_SCALE);
	lw_branch(c, -1, false, main);
}

/* m with its exponent field less e - 0x3ff (e its biased exponent) */
static uint32_t to_unit(LowerCtx *c, uint32_t m, uint32_t e)
{
	uint32_t t = lw_temp(c, 1), sh = lw_temp(c, 1), u = lw_temp(c, 2);
	dseq_iadd32i(c, t, 0, e, 0, (uint32_t)-DSEQ_EXP_BIAS);
	ri(c, SF_SHL_I, sh, 0, t, 0, 20);
	lw_mov(c, u, 0, m, 0);
	linsn_set(rr(c, SF_IADD_R, u, 1, m, 1, sh, 0), SR_NEG, NEG_B);
	return u;
}

/* The subnormal result: the significand of q (hi word qhi, lo word qlo)
 * shifted right by n = 1 - k into (lo, hi). */
static void shift_out(LowerCtx *c, uint32_t lo, uint32_t hi, uint32_t q, uint32_t k, uint32_t *m_out, uint32_t *n_out)
{
	uint32_t m = lw_temp(c, 1), n = lw_temp(c, 1);
	dseq_lop32i(c, DSEQ_AND, m, 0, q, 1, DSEQ_F64_MANT_HI);
	linsn_set(ri(c, SF_IADD32I, n, 0, k, 0, 1), SR_NEGA, 1);
	dseq_lop32i(c, DSEQ_OR, m, 0, m, 0, DSEQ_F64_HIDDEN_HI);
	LInsn *op = rr(c, SF_SHF_R_R, lo, 0, q, 0, n, 0);
	linsn_ref(op, SR_RC, m, 0, 1, false);
	linsn_set(op, SR_MAXSHIFT, MAXSHIFT_S64);
	linsn_set(rr(c, SF_SHR_R, hi, 0, m, 0, n, 0), SR_SIGNED, 1);
	*m_out = m;
	*n_out = n;
}

/* q's exponent k out of range: overflow, underflow or a subnormal, the
 * sign added at the end */
static void out_of_range(LowerCtx *c, const DivDir *v, uint32_t qd, uint32_t k, uint32_t r3, uint32_t res2,
                         uint32_t q1)
{
	bool rm = v->rnd == DSEQ_RM, rz = v->rnd == RND_RZ;
	uint32_t k2 = lw_temp(c, 1), sign = lw_temp(c, 1), p = lw_pred_temp(c);
	uint32_t lo = dseq_value(c, 1), hi = dseq_value(c, 1);
	int fin = lw_label_new(c->k), below = lw_label_new(c->k), sub = lw_label_new(c->k);
	dseq_iadd32i(c, k2, 0, k, 0, (uint32_t)-DSEQ_EXP_BIAS);
	if (!rz)
		dseq_lop32i(c, DSEQ_AND, sign, 0, qd, 1, DSEQ_F64_SIGN);
	isetp(c, p, DSEQ_GT, true, k2, DSEQ_EXP_BIAS, false, DSEQ_AND, -1);
	lw_branch(c, (int)p, true, below);
	if (rz) {                             /* the largest finite */
		lw_mov32i(c, lo, 0, UINT32_MAX);
		lw_mov32i(c, hi, 0, DSEQ_F64_MAX_HI);
	} else {                              /* toward the rounding: infinity, else the largest finite */
		uint32_t h = lw_temp(c, 1);
		lw_mov32i(c, h, 0, rm ? F64_INF_HI : DSEQ_F64_MAX_HI);
		icmp_imm(c, lo, 0, rm ? DSEQ_NE : DSEQ_EQ, RZ, -1, sign);
		icmp_const2(c, hi, 0, DSEQ_NE, h, rm ? DSEQ_F64_MAX_HI : F64_INF_HI, sign);
	}
	lw_branch(c, -1, false, fin);
	lw_label_place(c->k, below);
	uint32_t u = lw_pred_temp(c), neg = lw_temp(c, 1), pos = lw_pred_temp(c);
	isetp(c, u, DSEQ_GE, true, k2, DSEQ_SUBNORMAL_MIN_K, false, DSEQ_AND, -1);
	if (rm)
		icmp_imm(c, neg, 0, DSEQ_EQ, RZ, 1, sign);         /* 1 when negative */
	else if (!rz)
		isetp(c, pos, DSEQ_EQ, true, sign, 0, true, DSEQ_AND, -1);
	lw_branch(c, (int)u, false, sub);
	if (rm) {                             /* -0 or the smallest subnormal, by the sign */
		lw_mov(c, lo, 0, neg, 0);
		lw_mov_rz(c, hi, 0);
	} else if (!rz) {
		LInsn *op = ri(c, SF_SEL_I, lo, 0, RZ, 0, 1);
		linsn_ref(op, SR_PC, pos, 0, 1, false);
		linsn_set(op, SR_PC_NOT, 1);
		lw_mov_rz(c, hi, 0);
	} else {
		lw_mov_rz(c, lo, 0);
		lw_mov_rz(c, hi, 0);
	}
	lw_branch(c, -1, false, fin);
	lw_label_place(c->k, sub);
	uint32_t m, n;
	if (rz) {
		shift_out(c, lo, hi, qd, k, &m, &n);
	} else {
		/* the truncated significand, one ulp more when inexact and
		 * rounding away from zero */
		uint32_t qz = lw_temp(c, 2), qo = lw_temp(c, 2), sh = lw_temp(c, 1), low = lw_temp(c, 1),
		         hl = lw_temp(c, 1), tlo = lw_temp(c, 1), thi = lw_temp(c, 1), t1 = lw_temp(c, 1),
		         t1hi = lw_temp(c, 1), inex = lw_pred_temp(c);
		dseq_dfma(c, RND_RZ, qz, r3, res2, false, q1);
		dseq_dfma(c, rm ? DSEQ_RP : DSEQ_RM, qo, r3, res2, false, q1);
		dseq_iadd32i(c, sh, 0, k, 0, SHIFT_OUT);
		shift_out(c, tlo, thi, qz, k, &m, &n);
		rr(c, SF_SHL_R, low, 0, qz, 0, sh, 0);
		LInsn *op = rr(c, SF_SHF_L_R, hl, 0, qz, 0, sh, 0);
		linsn_ref(op, SR_RC, m, 0, 1, false);
		linsn_set(op, SR_MAXSHIFT, MAXSHIFT_U64);
		op = rr(c, SF_IADD_R, RZ, 0, RZ, 0, low, 0);   /* IADD RZ.CC, -RZ, low */
		linsn_set(op, SR_NEG, NEG_A);
		linsn_set(op, SR_CC, 1);
		op->writes_cc = true;
		op = lw_emit(c, SF_ISETP_R);                     /* the bits shifted out are not all 0 */
		linsn_ref(op, SR_PD, inex, 0, 1, true);
		linsn_set(op, SR_PQ, PT);
		linsn_ref(op, SR_RA, hl, 0, 1, false);
		linsn_set(op, SR_RB, RZ);
		linsn_set(op, SR_CMP, DSEQ_NE);
		linsn_set(op, SR_SIGNED, 1);
		linsn_set(op, SR_X, 1);
		linsn_set(op, SR_PC, PT);
		op->reads_cc = true;
		op = ri(c, SF_IADD32I, t1, 0, tlo, 0, 1);
		linsn_set(op, SR_CC, 1);
		op->writes_cc = true;
		op = rr(c, SF_IADD_R, t1hi, 0, RZ, 0, thi, 0);
		linsn_set(op, SR_X, 1);
		op->reads_cc = true;
		op = lw_emit(c, SF_DSETP_R);                     /* or the two roundings differ */
		linsn_ref(op, SR_PD, inex, 0, 1, true);
		linsn_set(op, SR_PQ, PT);
		linsn_ref(op, SR_RA, qd, 0, 2, false);
		linsn_ref(op, SR_RB, qo, 0, 2, false);
		linsn_set(op, SR_CMP, DSEQ_NE);
		linsn_set(op, SR_BOP, DSEQ_OR);
		linsn_ref(op, SR_PC, inex, 0, 1, false);
		if (rm) {
			uint32_t b = lw_temp(c, 1), up = lw_temp(c, 1);
			op = ri(c, SF_SEL_I, b, 0, RZ, 0, 1);
			linsn_ref(op, SR_PC, inex, 0, 1, false);
			linsn_set(op, SR_PC_NOT, 1);
			linsn_set(rr(c, SF_LOP_R, up, 0, neg, 0, b, 0), SR_LOPOP, DSEQ_AND);
			for (unsigned h = 0; h < 2; h++) {
				op = rr(c, SF_ICMP_R, h ? hi : lo, 0, h ? thi : tlo, 0, h ? t1hi : t1, 0);
				linsn_ref(op, SR_RC, up, 0, 1, false);
				linsn_set(op, SR_CMP, CMP_LE);
				linsn_set(op, SR_SIGNED, 1);
			}
		} else {
			uint32_t up = lw_pred_temp(c);
			isetp(c, up, DSEQ_EQ, true, sign, 0, true, DSEQ_AND, (int)inex);
			for (unsigned h = 0; h < 2; h++) {
				op = rr(c, SF_SEL_R, h ? hi : lo, 0, h ? thi : tlo, 0, h ? t1hi : t1, 0);
				linsn_ref(op, SR_PC, up, 0, 1, false);
				linsn_set(op, SR_PC_NOT, 1);
			}
		}
	}
	lw_label_place(c->k, fin);
	uint32_t sh2 = lw_temp(c, 1);
	if (rz)
		lop3_const2(c, sh2, 0, hi, 0, DSEQ_F64_SIGN, qd, 1, LUT_A_OR_B_AND_C);
	else
		linsn_set(rr(c, SF_LOP_R, sh2, 0, hi, 0, sign, 0), SR_LOPOP, DSEQ_OR);
	give(c, v, lo, 0, sh2, 0);
}

static bool dir_mode(LowerCtx *c, const Instr *in, unsigned *rnd)
{
	*rnd = 0;
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		if (lw_streq(w, ".rm"))
			*rnd = DSEQ_RM;
		else if (lw_streq(w, ".rp"))
			*rnd = DSEQ_RP;
		else if (lw_streq(w, ".rz"))
			*rnd = RND_RZ;
		else if (!lw_streq(w, ".f64"))
			return lw_unsupported(c, in->mod_locs[i], "div.f64 modifier '%s'", w);
	}
	return *rnd != 0 || lw_unsupported(c, in->loc, "div.f64 without .rn, .rm, .rp or .rz");
}

bool lower_div_dir_f64(LowerCtx *c, const Instr *in)
{
	DivDir v;
	uint32_t d;
	unsigned dw;
	if (!dir_mode(c, in, &v.rnd) || !lw_reg(c, in->ops[0], &d, &dw))
		return false;
	int done = lw_label_new(c->k);
	if (c->guard_vreg >= 0)
		lw_branch(c, c->guard_vreg, !c->guard_neg, done);
	if (!dseq_operand(c, in->ops[1], &v.x) || !dseq_operand(c, in->ops[2], &v.y))
		return false;
	/* ptxas's .nv.constant2 order */
	lkernel_const2_pair(c->k, 0, DSEQ_ONE_HI);
	if (v.rnd != RND_RZ)
		lkernel_const2_slot(c->k, v.rnd == DSEQ_RM ? DSEQ_F64_MAX_HI : F64_INF_HI);
	lkernel_const2_slot(c->k, DSEQ_F64_SIGN);
	v.res = dseq_value(c, 2);
	v.ret = lw_label_new(c->k);
	uint32_t ey = lw_temp(c, 1), ex = lw_temp(c, 1), ey1 = lw_temp(c, 1), ex1 = lw_temp(c, 1),
	         xs = dseq_value(c, 2), ys = dseq_value(c, 2), s = dseq_value(c, 1), p = lw_pred_temp(c);
	int main = lw_label_new(c->k), normal = lw_label_new(c->k);
	dseq_exponent(c, ey, v.y, 1);
	dseq_exponent(c, ex, v.x, 1);
	dseq_copy_pair(c, xs, v.x);
	dseq_copy_pair(c, ys, v.y);
	dseq_iadd32i(c, ey1, 0, ey, 0, (uint32_t)-1);
	dseq_iadd32i(c, ex1, 0, ex, 0, (uint32_t)-1);
	isetp(c, p, DSEQ_GT, false, ey1, EXP_RANGE, false, DSEQ_AND, -1);
	isetp(c, p, DSEQ_GT, false, ex1, EXP_RANGE, false, DSEQ_OR, (int)p);
	lw_branch(c, (int)p, true, normal);
	special(c, &v, ex1, ey1, xs, ys, s, main);
	lw_label_place(c->k, normal);
	lw_mov_rz(c, s, 0);
	lw_label_place(c->k, main);

	/* the quotient of the significands */
	uint32_t ym = to_unit(c, ys, ey), xm = to_unit(c, xs, ex);
	uint32_t seed = lw_temp(c, 2), e = lw_temp(c, 2), q0 = lw_temp(c, 2), r = lw_temp(c, 2), e2 = lw_temp(c, 2),
	         r2 = lw_temp(c, 2), res1 = lw_temp(c, 2), e3 = lw_temp(c, 2), q1 = lw_temp(c, 2), r3 = lw_temp(c, 2),
	         res2 = lw_temp(c, 2), qd = lw_temp(c, 2);
	lw_mov32i(c, seed, 0, 1);
	dseq_mufu64h(c, DSEQ_MUFU_RCP64H, seed, ym);
	dseq_dfma(c, DSEQ_RN, e, ym, seed, true, DSEQ_ONE_CONST2);
	dseq_dmul(c, q0, seed, xm);
	dseq_dfma(c, DSEQ_RN, r, seed, e, false, seed);
	dseq_dmul(c, e2, e, e);
	dseq_dfma(c, DSEQ_RN, r2, r, e2, false, r);
	dseq_dfma(c, DSEQ_RN, res1, ym, q0, true, xm);
	dseq_dfma(c, DSEQ_RN, e3, ym, r2, true, DSEQ_ONE_CONST2);
	dseq_dfma(c, DSEQ_RN, q1, r2, res1, false, q0);
	dseq_dfma(c, DSEQ_RN, r3, r2, e3, false, r2);
	dseq_dfma(c, DSEQ_RN, res2, ym, q1, true, xm);
	dseq_dfma(c, v.rnd, qd, r3, res2, false, q1);

	/* k = qd's exponent + ex - ey + s */
	uint32_t qe = lw_temp(c, 1), k5 = lw_temp(c, 1), k = lw_temp(c, 1), k1 = lw_temp(c, 1), r_ok = lw_pred_temp(c);
	dseq_exponent(c, qe, qd, 1);
	LInsn *op = rr(c, SF_IADD3_R, k5, 0, qe, 0, ex, 0);
	linsn_ref(op, SR_RC, ey, 0, 1, false);
	linsn_set(op, SR_NEGC, 1);
	rr(c, SF_IADD_R, k, 0, k5, 0, s, 0);
	dseq_iadd32i(c, k1, 0, k, 0, (uint32_t)-1);
	isetp(c, r_ok, DSEQ_GT, false, k1, EXP_RANGE, false, DSEQ_AND, -1);
	int range = lw_label_new(c->k);
	lw_branch(c, (int)r_ok, false, range);
	uint32_t f = lw_temp(c, 1), hi = lw_temp(c, 1);
	linsn_set(rr(c, SF_IADD_R, f, 0, qe, 0, k, 0), SR_NEG, NEG_A);
	linsn_set(rr(c, SF_ISCADD_R, hi, 0, f, 0, qd, 1), SR_SHIFT, 20);
	give(c, &v, qd, 0, hi, 0);
	lw_label_place(c->k, range);
	out_of_range(c, &v, qd, k, r3, res2, q1);
	lw_label_place(c->k, v.ret);
	dseq_copy_pair(c, d, v.res);
	lw_label_place(c->k, done);
	return true;
}

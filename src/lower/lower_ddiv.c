/* Lowering of the IEEE-rounded f64 division div.rn.f64 as ptxas 11.8
 * writes it for sm_50 (nvcc emits it for every double `/`), measured at
 * -O3 (and -O0, the same arithmetic in another order):
 *
 * fast path, q = x / y:
 *   s = (1, rcp64h(y.hi)); e = fma(y, -s, 1); e = fma(e, e, e);
 *   s = fma(s, e, s); r = fma(s, fma(y, -s, 1), s); q = x r;
 *   q = fma(r, fma(y, -q, x), q)
 *   kept when |x.hi| >u 0x035b7333 and |fma(0, y.hi, q.hi)| > 0x00055555
 *   (both as f32, FSET + FSET + LOP.AND.NZ; the FFMA turns an infinite
 *   or NaN y.hi into NaN);
 * else ptxas's `__cuda_sm20_div_f64_slowpath_v2`, which it reaches with
 * CAL and we run inline behind branches with the same instructions and
 * constants, so that every result is ptxas's bit for bit:
 *   y and x scaled by 2^512 or 2^-512 (by bit 30 of y.hi, by whether
 *   x.hi's exponent bits reach 0x3e800000), the fast steps on them, and
 *   when that quotient is not zero or NaN, the scale undone in two orders
 *   and the one with the smaller residual |y q - x| kept; a quotient
 *   below the normal range is rounded by hand: both neighbours of its
 *   low word with bit 0 clear and set, then its two neighbours by one
 *   ulp, each pair judged by the residual on x and y scaled by 2^390
 *   when x is tiny. A zero quotient gives x * y (signed zero or NaN), a
 *   NaN one x * (y when rcp64h(y) is 0 and y is not infinite, else the
 *   seed (0, rcp64h(y.hi))). */
#include "lower/lower_f64seq.h"

enum {
	FAST_X_MIN = 0x035b7333,        /* |x.hi| as f32 */
	FAST_Q_MIN = 0x00055555,        /* |q.hi| as f32 */
	Y_BIG_BIT = 0x40000000,
	F32_EXP_MASK = 0x7f800000,
	SCALE_UP_HI = 0x5ff00000,       /* 2^512 */
	SCALE_DOWN_HI = 0x1ff00000,     /* 2^-512 */
	X_BIG = 0x3e800000,
	X_BIG_LESS_ONE = 0x3e7fffff,
	F32_MIN_NORMAL_F64_HI20 = 0x00100,  /* f32 bits 0x00100000: an f64 high word of a normal */
	F32_2PM119_HI20 = 0x04000,      /* 2^-119: x tiny */
	SCALE_TINY_HI = 0x58500000,     /* 2^390 */
};

/* ---- the forms the slow path adds to lower_f64seq.c's ---- */

/* FSET.cmp.AND d, |a.asub|, c[0x2][value], PT */
static void fset_abs_const2(LowerCtx *c, uint32_t d, uint32_t a, unsigned asub, unsigned cmp, uint32_t value)
{
	LInsn *op = lw_emit(c, SF_FSET_C);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RA, a, asub, 1, false);
	linsn_set(op, SR_ABSA, 1);
	linsn_set(op, SR_CBANK, LK_CONST2_BANK);
	linsn_set(op, SR_COFF, lkernel_const2_slot(c->k, value) / 4);
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_PC, 7);
}

/* FSETP.cmp.AND p, PT, |a.asub|, imm20, PT */
static void fsetp_abs_imm(LowerCtx *c, uint32_t p, uint32_t a, unsigned asub, unsigned cmp, uint32_t imm20)
{
	LInsn *op = lw_emit(c, SF_FSETP_I);
	linsn_ref(op, SR_PD, p, 0, 1, true);
	linsn_set(op, SR_PQ, 7);
	linsn_ref(op, SR_RA, a, asub, 1, false);
	linsn_set(op, SR_ABSA, 1);
	linsn_set(op, SR_IMM, imm20);
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_PC, 7);
}

/* DSETP.GT.AND p, PT, |a|, |b|, PT */
static void dsetp_abs_gt(LowerCtx *c, uint32_t p, uint32_t a, uint32_t b)
{
	LInsn *op = lw_emit(c, SF_DSETP_R);
	linsn_ref(op, SR_PD, p, 0, 1, true);
	linsn_set(op, SR_PQ, 7);
	linsn_ref(op, SR_RA, a, 0, 2, false);
	linsn_ref(op, SR_RB, b, 0, 2, false);
	linsn_set(op, SR_ABSA, 1);
	linsn_set(op, SR_ABSB, 1);
	linsn_set(op, SR_CMP, DSEQ_GT);
	linsn_set(op, SR_PC, 7);
}

/* DFMA d, a, b, -c: the residual a b - c */
static void dfma_neg_c(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b, uint32_t cv)
{
	LInsn *op = lw_emit(c, SF_DFMA_R);
	linsn_ref(op, SR_RD, d, 0, 2, true);
	linsn_ref(op, SR_RA, a, 0, 2, false);
	linsn_ref(op, SR_RB, b, 0, 2, false);
	linsn_ref(op, SR_RC, cv, 0, 2, false);
	linsn_set(op, SR_NEGC, 1);
}

/* SEL d.dsub, a.asub, b.bsub, [!]p */
static void sel(LowerCtx *c, uint32_t d, unsigned dsub, uint32_t a, unsigned asub, uint32_t b, unsigned bsub,
                uint32_t p, bool neg)
{
	LInsn *op = lw_emit(c, SF_SEL_R);
	linsn_ref(op, SR_RD, d, dsub, 1, true);
	linsn_ref(op, SR_RA, a, asub, 1, false);
	linsn_ref(op, SR_RB, b, bsub, 1, false);
	linsn_ref(op, SR_PC, p, 0, 1, false);
	linsn_set(op, SR_PC_NOT, neg);
}

/* SEL d.dsub, a, c[0x2][value], [!]p */
static void sel_const2(LowerCtx *c, uint32_t d, unsigned dsub, uint32_t a, uint32_t value, uint32_t p, bool neg)
{
	LInsn *op = lw_emit(c, SF_SEL_C);
	linsn_ref(op, SR_RD, d, dsub, 1, true);
	linsn_ref(op, SR_RA, a, 0, 1, false);
	linsn_set(op, SR_CBANK, LK_CONST2_BANK);
	linsn_set(op, SR_COFF, lkernel_const2_slot(c->k, value) / 4);
	linsn_ref(op, SR_PC, p, 0, 1, false);
	linsn_set(op, SR_PC_NOT, neg);
}

/* a pair (0, p ? SCALE_DOWN : k) with k holding SCALE_UP (ptxas's SEL) */
static uint32_t scale_pair(LowerCtx *c, uint32_t k, uint32_t value, uint32_t p, bool neg)
{
	uint32_t v = dseq_value(c, 2);
	sel_const2(c, v, 1, k, value, p, neg);
	lw_mov_rz(c, v, 0);
	return v;
}

/* r = the refined reciprocal of y from the seed s (the fast path's steps) */
static void rcp_steps(LowerCtx *c, uint32_t r, uint32_t s, uint32_t y)
{
	uint32_t e = lw_temp(c, 2), s1 = lw_temp(c, 2), e2 = lw_temp(c, 2);
	dseq_dfma(c, DSEQ_RN, e, y, s, true, DSEQ_ONE_CONST2);
	dseq_dfma(c, DSEQ_RN, e, e, e, false, e);
	dseq_dfma(c, DSEQ_RN, s1, s, e, false, s);
	dseq_dfma(c, DSEQ_RN, e2, y, s1, true, DSEQ_ONE_CONST2);
	dseq_dfma(c, DSEQ_RN, r, s1, e2, false, s1);
}

/* q = x / y by the Newton steps: the seed pair (1, rcp64h(y.hi)) */
static void quotient(LowerCtx *c, uint32_t q, uint32_t x, uint32_t y)
{
	uint32_t s = dseq_value(c, 2), r = lw_temp(c, 2), q0 = lw_temp(c, 2), t = lw_temp(c, 2);
	lw_mov32i(c, s, 0, 1);
	dseq_mufu64h(c, DSEQ_MUFU_RCP64H, s, y);
	rcp_steps(c, r, s, y);
	dseq_dmul(c, q0, x, r);
	dseq_dfma(c, DSEQ_RN, t, y, q0, true, x);
	dseq_dfma(c, DSEQ_RN, q, r, t, false, q0);
}

/* A quotient below the normal range, rounded by hand (ch: the chosen
 * quotient, its neighbours judged on x and y scaled up when x is tiny). */
static void round_subnormal(LowerCtx *c, uint32_t d, uint32_t ch, uint32_t x, uint32_t y)
{
	uint32_t tiny = lw_pred_temp(c), k = lw_temp(c, 1), sc = dseq_value(c, 2), ev = dseq_value(c, 2),
	         od = dseq_value(c, 2), ya = lw_temp(c, 2), xa = lw_temp(c, 2), f1 = lw_temp(c, 2),
	         f2 = lw_temp(c, 2), p = lw_pred_temp(c);
	fsetp_abs_imm(c, tiny, x, 1, DSEQ_GEU, F32_2PM119_HI20);
	lw_mov32i(c, k, 0, SCALE_TINY_HI);
	dseq_lop32i(c, DSEQ_AND, ev, 0, ch, 0, 0xfffffffeu);
	dseq_lop32i(c, DSEQ_OR, od, 0, ch, 0, 1);
	lw_mov(c, ev, 1, ch, 1);
	lw_mov(c, od, 1, ch, 1);
	sel_const2(c, sc, 1, k, DSEQ_ONE_HI, tiny, true);
	lw_mov_rz(c, sc, 0);
	dseq_dmul(c, ya, y, sc);
	dseq_dmul(c, xa, x, sc);
	dfma_neg_c(c, f1, ev, ya, xa);
	dfma_neg_c(c, f2, od, ya, xa);
	dsetp_abs_gt(c, p, f1, f2);
	/* w: the better of the two; then w and its neighbour towards the
	 * other side by bit 0 */
	uint32_t w = lw_temp(c, 1), bit = lw_temp(c, 1), even = lw_pred_temp(c), up = dseq_value(c, 2),
	         dn = dseq_value(c, 2), a = dseq_value(c, 2), b = dseq_value(c, 2), g1 = lw_temp(c, 2),
	         g2 = lw_temp(c, 2), q = lw_pred_temp(c);
	sel(c, w, 0, od, 0, ev, 0, p, false);
	dseq_lop32i(c, DSEQ_AND, bit, 0, w, 0, 1);
	LInsn *op = lw_emit(c, SF_IADD32I);
	linsn_ref(op, SR_RD, up, 0, 1, true);
	linsn_ref(op, SR_RA, w, 0, 1, false);
	linsn_set(op, SR_IMM, 1);
	linsn_set(op, SR_CC, 1);
	op->writes_cc = true;
	LInsn *isetp = lw_emit(c, SF_ISETP_I);
	linsn_ref(isetp, SR_PD, even, 0, 1, true);
	linsn_set(isetp, SR_PQ, 7);
	linsn_ref(isetp, SR_RA, bit, 0, 1, false);
	linsn_set(isetp, SR_IMM, 1);
	linsn_set(isetp, SR_CMP, DSEQ_NE);
	linsn_set(isetp, SR_PC, 7);
	op = lw_emit(c, SF_IADD_R);
	linsn_ref(op, SR_RD, up, 1, 1, true);
	linsn_set(op, SR_RA, 255);
	linsn_ref(op, SR_RB, ch, 1, 1, false);
	linsn_set(op, SR_X, 1);
	op->reads_cc = true;
	op = lw_emit(c, SF_IADD32I);
	linsn_ref(op, SR_RD, dn, 0, 1, true);
	linsn_ref(op, SR_RA, w, 0, 1, false);
	linsn_set(op, SR_IMM, 0xffffffffu);
	linsn_set(op, SR_CC, 1);
	op->writes_cc = true;
	op = lw_emit(c, SF_IADD32I);
	linsn_ref(op, SR_RD, dn, 1, 1, true);
	linsn_ref(op, SR_RA, ch, 1, 1, false);
	linsn_set(op, SR_IMM, 0xffffffffu);
	linsn_set(op, SR_X, 1);
	op->reads_cc = true;
	sel(c, a, 0, w, 0, up, 0, even, false);
	sel(c, b, 0, dn, 0, w, 0, even, false);
	sel(c, a, 1, ch, 1, up, 1, even, false);
	sel(c, b, 1, dn, 1, ch, 1, even, false);
	dfma_neg_c(c, g1, ya, a, xa);
	dfma_neg_c(c, g2, ya, b, xa);
	dsetp_abs_gt(c, q, g1, g2);
	sel(c, d, 0, b, 0, a, 0, q, false);
	sel(c, d, 1, b, 1, a, 1, q, false);
}

static void ddiv_slow(LowerCtx *c, uint32_t d, uint32_t x, uint32_t y, int done)
{
	uint32_t ybit = lw_temp(c, 1), xe = dseq_value(c, 1), ybig = lw_pred_temp(c), xbig = lw_pred_temp(c),
	         k = dseq_value(c, 1), ys = lw_temp(c, 2), xs = lw_temp(c, 2), q = dseq_value(c, 2),
	         nz = lw_pred_temp(c);
	dseq_lop32i(c, DSEQ_AND, ybit, 0, y, 1, Y_BIG_BIT);
	dseq_lop32i(c, DSEQ_AND, xe, 0, x, 1, F32_EXP_MASK);
	dseq_isetp(c, ybig, DSEQ_GE, false, ybit, 0, Y_BIG_BIT);
	lw_mov32i(c, k, 0, SCALE_UP_HI);
	uint32_t yscale = scale_pair(c, k, SCALE_DOWN_HI, ybig, true);
	dseq_isetp(c, xbig, DSEQ_GE, false, xe, 0, X_BIG);
	dseq_dmul(c, ys, y, yscale);
	uint32_t xscale = scale_pair(c, k, SCALE_DOWN_HI, xbig, true);
	dseq_dmul(c, xs, x, xscale);
	quotient(c, q, xs, ys);
	dseq_dsetp(c, nz, DSEQ_GT, q, true, -1);
	int special = lw_label_new(c->k);
	lw_branch(c, (int)nz, true, special);

	/* the scale undone in two orders, the smaller residual kept */
	uint32_t xbig2 = lw_pred_temp(c), a1 = lw_temp(c, 2), qi = lw_temp(c, 2), c1 = lw_temp(c, 2),
	         c2 = lw_temp(c, 2), r1 = lw_temp(c, 2), r2 = lw_temp(c, 2), worse = lw_pred_temp(c),
	         ch = dseq_value(c, 2), normal = lw_pred_temp(c);
	dseq_isetp(c, xbig2, DSEQ_GT, false, xe, 0, X_BIG_LESS_ONE);
	dseq_dmul(c, a1, yscale, q);
	uint32_t inv = scale_pair(c, k, SCALE_DOWN_HI, xbig2, false);
	dseq_dmul(c, qi, q, inv);
	dseq_dmul(c, c1, inv, a1);
	dseq_dmul(c, c2, yscale, qi);
	dfma_neg_c(c, r1, y, c1, x);
	dfma_neg_c(c, r2, y, c2, x);
	dsetp_abs_gt(c, worse, r1, r2);
	sel(c, ch, 1, c2, 1, c1, 1, worse, false);
	sel(c, ch, 0, c2, 0, c1, 0, worse, false);
	fsetp_abs_imm(c, normal, ch, 1, DSEQ_GTU, F32_MIN_NORMAL_F64_HI20);
	dseq_copy_pair(c, d, ch);
	lw_branch(c, (int)normal, false, done);
	round_subnormal(c, d, ch, x, y);
	lw_branch(c, -1, false, done);

	/* a zero or NaN quotient */
	lw_label_place(c->k, special);
	uint32_t isnan = lw_pred_temp(c), z = dseq_value(c, 2), seed = lw_pred_temp(c), fin = lw_pred_temp(c);
	int zero = lw_label_new(c->k);
	dseq_dsetp(c, isnan, DSEQ_NEU, q, false, -1);
	lw_branch(c, (int)isnan, true, zero);
	lw_mov_rz(c, z, 0);
	dseq_mufu64h(c, DSEQ_MUFU_RCP64H, z, y);
	dseq_dsetp(c, seed, DSEQ_GT, z, true, -1);
	lw_guard(c, (int)seed, true);
	dseq_dsetp(c, fin, DSEQ_NEU, y, true, DSEQ_INF_HI20);
	sel(c, z, 0, y, 0, z, 0, fin, false);
	sel(c, z, 1, y, 1, z, 1, fin, false);
	lw_guard(c, -1, false);
	dseq_dmul(c, d, x, z);
	lw_branch(c, -1, false, done);

	lw_label_place(c->k, zero);
	dseq_dmul(c, d, x, y);
}

static bool rn_f64_only(LowerCtx *c, const Instr *in)
{
	for (uint32_t i = 0; i < in->nmods; i++)
		if (!lw_streq(in->mods[i], ".rn") && !lw_streq(in->mods[i], ".f64"))
			return lw_unsupported(c, in->mod_locs[i], "div.rn.f64 modifier '%s'", in->mods[i]);
	return true;
}

bool lower_div_rn_f64(LowerCtx *c, const Instr *in)
{
	uint32_t d, x, y;
	unsigned dw;
	if (!rn_f64_only(c, in) || !lw_reg(c, in->ops[0], &d, &dw))
		return false;
	int done = lw_label_new(c->k);
	if (c->guard_vreg >= 0)
		lw_branch(c, c->guard_vreg, !c->guard_neg, done);
	if (!dseq_operand(c, in->ops[1], &x) || !dseq_operand(c, in->ops[2], &y))
		return false;
	uint32_t res = dseq_value(c, 2), mx = lw_temp(c, 1), f = lw_temp(c, 1), mq = lw_temp(c, 1),
	         fast = lw_pred_temp(c);
	quotient(c, res, x, y);
	fset_abs_const2(c, mx, x, 1, DSEQ_GTU, FAST_X_MIN);
	LInsn *op = lw_emit(c, SF_FFMA_R);                /* 0 * y.hi + q.hi */
	linsn_ref(op, SR_RD, f, 0, 1, true);
	linsn_set(op, SR_RA, 255);
	linsn_ref(op, SR_RB, y, 1, 1, false);
	linsn_ref(op, SR_RC, res, 1, 1, false);
	fset_abs_const2(c, mq, f, 0, DSEQ_GT, FAST_Q_MIN);
	op = lw_emit(c, SF_LOP_P_R);                      /* LOP.AND.NZ fast, RZ, mx, mq */
	linsn_ref(op, SR_PD, fast, 0, 1, true);
	linsn_set(op, SR_RD, 255);
	linsn_ref(op, SR_RA, mx, 0, 1, false);
	linsn_ref(op, SR_RB, mq, 0, 1, false);
	linsn_set(op, SR_LOPOP, DSEQ_AND);
	linsn_set(op, SR_LOPTEST, 1);
	int join = lw_label_new(c->k);
	lw_branch(c, (int)fast, false, join);
	ddiv_slow(c, res, x, y, join);
	lw_label_place(c->k, join);
	dseq_copy_pair(c, d, res);
	lw_label_place(c->k, done);
	return true;
}

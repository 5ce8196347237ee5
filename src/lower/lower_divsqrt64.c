/* Lowering of the IEEE-rounded f64 reciprocal and square root, rcp.rn.f64
 * and sqrt.rn.f64, as ptxas 11.8 writes them for sm_50: MUFU.RCP64H /
 * MUFU.RSQ64H seeds refined by DFMA Newton steps, and the slow paths
 * ptxas reaches by CAL (`__cuda_sm20_dblrcp_rn_slowpath_v3`,
 * `__cuda_sm20_dsqrt_rn_f64_mediumpath_v1`) for operands the fast path
 * cannot take. Here the slow paths run inline behind branches, with the
 * same instructions and constants so that every result is ptxas's bit
 * for bit -- including the seeds' low words, which ptxas does not clear:
 * the low word of the rcp seed pair is x.hi + 0x300402 and that of the
 * rsqrt seed x.hi - 0x3500000 (the range-test values), and the slow rcp
 * reuses |x.hi| - 0x100000 as a seed's low word.
 *
 * rcp.rn.f64 (fast when |seed.lo| >= 0x00400402 as an f32):
 *   s = rcp64h(x); e = fma(x, -s, 1); e = fma(e, e, e); s = fma(s, e, s);
 *   d = fma(s, fma(x, -s, 1), s)
 *   slow: NaN -> x with the quiet bit; |x.hi| - 1 >= 0x7fefffff (zero,
 *   infinity) -> (0, x.hi ^ 0x7ff00000); |x.hi| >= 0x01000001 (huge x):
 *   the steps on x / 2^1022 times 2^-1022 and one more correction;
 *   else (tiny x): the steps on x * 2^106, times 2^106.
 * sqrt.rn.f64 (fast when x.hi - 0x3500000 < 0x7ca00000 unsigned):
 *   y = rsqrt refined (fma(e, 0.375, 0.5) * e * s + s with e = 1 - x s^2),
 *   q = x y, h = y / 2, d = fma(fma(q, -q, x), h, q)
 *   medium (x.hi in [2^-1022, 2^-970)): r = fma.rm(e, h, q), and r or
 *   r + 1 ulp by the sign of fma.rp(r, -(r + 1 ulp), x);
 *   slow: 0 -> x + x; x < 0 -> NaN (0xfff80000_00000000); inf/NaN ->
 *   x + x; denormal: the fast steps on x * 2^106, the result / 2^53. */
#include "lower/lower_f64seq.h"

enum {
	F64_2P106_HI20 = 0x46900,       /* 2^106 */
	F64_2PM1022_HI20 = 0x00100,     /* 2^-1022 */
	RCP_SEED_BIAS = 0x300402,
	RCP_FAST_MIN = 0x00400402,      /* as an f32: the fast path's |seed.lo| */
	RCP_ZERO_INF = 0x7fefffff,
	RCP_HUGE = 0x01000001,
	SQRT_BIAS = 0xfcb00000u,        /* -0x3500000 */
	SQRT_FAST_LIMIT = 0x7ca00000,
	SQRT_MEDIUM = 0xfcc00000u,
	F64_MAX_HI = 0x7fefffff,
};

/* .rn and .f64; rcp.rn.ftz.f64 too, which ptxas 11.8 compiles to the very
 * code of rcp.rn.f64 (.ftz changes no f64 operation) */
static bool rn_f64_only(LowerCtx *c, const Instr *in)
{
	for (uint32_t i = 0; i < in->nmods; i++)
		if (!lw_streq(in->mods[i], ".rn") && !lw_streq(in->mods[i], ".f64") &&
		    !(lw_streq(in->mods[i], ".ftz") && lw_streq(in->opcode, "rcp")))
			return lw_unsupported(c, in->mod_locs[i], "%s.rn.f64 modifier '%s'", in->opcode, in->mods[i]);
	return true;
}

/* ---- rcp.rn.f64 ---- */

/* s = fma(s, e, s) with e = fma(x, -s, 1) squared-plus-itself: one step */
static void rcp_step2(LowerCtx *c, uint32_t s, uint32_t x, uint32_t one)
{
	uint32_t e = lw_temp(c, 2);
	dseq_dfma(c, DSEQ_RN, e, x, s, true, one);
	dseq_dfma(c, DSEQ_RN, e, e, e, false, e);
	dseq_dfma(c, DSEQ_RN, s, s, e, false, s);
}

/* d = fma(s, fma(x, -s, 1), s) */
static void rcp_step1(LowerCtx *c, uint32_t d, uint32_t s, uint32_t x, uint32_t one)
{
	uint32_t e = lw_temp(c, 2);
	dseq_dfma(c, DSEQ_RN, e, x, s, true, one);
	dseq_dfma(c, DSEQ_RN, d, s, e, false, s);
}

static void rcp_slow(LowerCtx *c, uint32_t d, uint32_t x, uint32_t low, uint32_t one, int done)
{
	uint32_t nan = lw_pred_temp(c);
	dseq_dsetp(c, nan, DSEQ_GTU, x, true, DSEQ_INF_HI20);
	lw_guard(c, (int)nan, false);
	dseq_lop32i(c, DSEQ_OR, d, 1, x, 1, 0x80000);
	lw_mov(c, d, 0, x, 0);
	lw_branch(c, (int)nan, false, done);

	uint32_t ax = dseq_value(c, 1), m = lw_temp(c, 1), zi = lw_pred_temp(c);
	dseq_lop32i(c, DSEQ_AND, ax, 0, x, 1, 0x7fffffff);
	dseq_iadd32i(c, m, 0, ax, 0, 0xffffffffu);
	dseq_isetp(c, zi, DSEQ_GE, false, m, 0, RCP_ZERO_INF);
	lw_guard(c, (int)zi, false);
	dseq_lop32i(c, DSEQ_XOR, d, 1, x, 1, 0x7ff00000);
	lw_mov_rz(c, d, 0);
	lw_branch(c, (int)zi, false, done);

	uint32_t huge = lw_pred_temp(c);
	dseq_isetp(c, huge, DSEQ_GE, false, ax, 0, RCP_HUGE);
	int tiny = lw_label_new(c->k);
	lw_branch(c, (int)huge, true, tiny);
	/* huge: the steps on x / 2^1022 (x.hi - 0x3fe00000), the seed's low
	 * word |x.hi| - 0x100000 */
	uint32_t xs = dseq_value(c, 2), s = dseq_value(c, 2), r = lw_temp(c, 2), e = lw_temp(c, 2);
	dseq_iadd32i(c, xs, 1, x, 1, 0xc0200000u);
	lw_mov(c, xs, 0, x, 0);
	lw_mov(c, s, 0, low, 0);
	dseq_mufu64h(c, DSEQ_MUFU_RCP64H, s, xs);
	rcp_step2(c, s, xs, one);
	rcp_step1(c, r, s, xs, one);
	dseq_dmul_imm(c, r, r, F64_2PM1022_HI20);
	dseq_dfma(c, DSEQ_RN, e, x, r, true, one);
	dseq_dfma(c, DSEQ_RN, e, e, e, false, e);
	dseq_dfma(c, DSEQ_RN, d, r, e, false, r);
	lw_branch(c, -1, false, done);

	/* tiny: the steps on x * 2^106, times 2^106 */
	lw_label_place(c->k, tiny);
	uint32_t xt = lw_temp(c, 2), t = dseq_value(c, 2), q = lw_temp(c, 2);
	dseq_dmul_imm(c, xt, x, F64_2P106_HI20);
	lw_mov(c, t, 0, low, 0);
	dseq_mufu64h(c, DSEQ_MUFU_RCP64H, t, xt);
	rcp_step2(c, t, xt, one);
	rcp_step1(c, q, t, xt, one);
	dseq_dmul_imm(c, d, q, F64_2P106_HI20);
}

bool lower_rcp_rn_f64(LowerCtx *c, const Instr *in)
{
	uint32_t d, x;
	unsigned dw;
	if (!rn_f64_only(c, in) || !lw_reg(c, in->ops[0], &d, &dw))
		return false;
	int done = lw_label_new(c->k);
	if (c->guard_vreg >= 0)
		lw_branch(c, c->guard_vreg, !c->guard_neg, done);
	if (!dseq_operand(c, in->ops[1], &x))
		return false;
	uint32_t one = DSEQ_ONE_CONST2;
	uint32_t res = dseq_value(c, 2), s = dseq_value(c, 2), p = lw_pred_temp(c);
	dseq_mufu64h(c, DSEQ_MUFU_RCP64H, s, x);
	dseq_iadd32i(c, s, 0, x, 1, RCP_SEED_BIAS);
	dseq_fsetp_abs_geu_const2(c, p, s, 0, RCP_FAST_MIN);
	rcp_step2(c, s, x, one);
	rcp_step1(c, res, s, x, one);
	int join = lw_label_new(c->k);
	lw_branch(c, (int)p, false, join);
	uint32_t ax = lw_temp(c, 1), low = dseq_value(c, 1);
	dseq_lop32i(c, DSEQ_AND, ax, 0, x, 1, 0x7fffffff);
	dseq_iadd32i(c, low, 0, ax, 0, DSEQ_EXP_ONE);
	rcp_slow(c, res, x, low, one, join);
	lw_label_place(c->k, join);
	dseq_copy_pair(c, d, res);
	lw_label_place(c->k, done);
	return true;
}

/* ---- sqrt.rn.f64 ---- */

/* q = x y, h = y / 2 (its high word less one exponent step), e = x - q^2 */
static void sqrt_parts(LowerCtx *c, uint32_t q, uint32_t h, uint32_t e, uint32_t x, uint32_t y)
{
	dseq_dmul(c, q, x, y);
	dseq_iadd32i(c, h, 1, y, 1, DSEQ_EXP_ONE);
	lw_mov(c, h, 0, y, 0);
	dseq_dfma(c, DSEQ_RN, e, q, q, true, x);
}

static void sqrt_slow(LowerCtx *c, uint32_t d, uint32_t x, uint32_t biased, uint32_t e, uint32_t h,
                      uint32_t q, uint32_t one, int done)
{
	uint32_t med = lw_pred_temp(c);
	dseq_isetp(c, med, DSEQ_GE, false, biased, 0, SQRT_MEDIUM);
	int other = lw_label_new(c->k);
	lw_branch(c, (int)med, true, other);
	/* medium: round down, then up by one ulp if the remainder says so */
	uint32_t r = lw_temp(c, 2), r1 = dseq_value(c, 2), rem = lw_temp(c, 2), up = lw_pred_temp(c);
	dseq_dfma(c, DSEQ_RM, r, e, h, false, q);
	LInsn *lo = lw_emit(c, SF_IADD32I);
	linsn_ref(lo, SR_RD, r1, 0, 1, true);
	linsn_ref(lo, SR_RA, r, 0, 1, false);
	linsn_set(lo, SR_IMM, 1);
	linsn_set(lo, SR_CC, 1);
	lo->writes_cc = true;
	LInsn *hi = lw_emit(c, SF_IADD_R);
	linsn_ref(hi, SR_RD, r1, 1, 1, true);
	linsn_set(hi, SR_RA, 255);
	linsn_ref(hi, SR_RB, r, 1, 1, false);
	linsn_set(hi, SR_X, 1);
	hi->reads_cc = true;
	dseq_dfma(c, DSEQ_RP, rem, r, r1, true, x);
	dseq_dsetp(c, up, DSEQ_GT, rem, false, -1);
	lw_guard(c, (int)up, false);
	dseq_copy_pair(c, d, r1);
	lw_guard(c, (int)up, true);
	dseq_copy_pair(c, d, r);
	lw_branch(c, -1, false, done);

	lw_label_place(c->k, other);
	int twice = lw_label_new(c->k);
	uint32_t nz = lw_pred_temp(c), neg = lw_pred_temp(c), big = lw_pred_temp(c);
	dseq_dsetp(c, nz, DSEQ_NE, x, false, -1);
	lw_branch(c, (int)nz, true, twice);
	dseq_isetp(c, neg, DSEQ_GE, true, x, 1, -1);
	lw_guard(c, (int)neg, true);
	lw_mov_rz(c, d, 0);
	lw_mov32i(c, d, 1, 0xfff80000u);
	lw_branch(c, (int)neg, true, done);
	dseq_isetp(c, big, DSEQ_GT, true, x, 1, F64_MAX_HI);
	lw_branch(c, (int)big, false, twice);
	/* denormal: the fast steps on x * 2^106, the result's exponent less 53 */
	uint32_t xs = lw_temp(c, 2), s = dseq_value(c, 2), y = lw_temp(c, 2), q2 = lw_temp(c, 2), h2 = dseq_value(c, 2),
	         e2 = lw_temp(c, 2), t = lw_temp(c, 2);
	dseq_dmul_imm(c, xs, x, F64_2P106_HI20);
	lw_mov_rz(c, s, 0);
	dseq_mufu64h(c, DSEQ_MUFU_RSQ64H, s, xs);
	dseq_rsqrt_refine(c, y, s, xs);
	sqrt_parts(c, q2, h2, e2, xs, y);
	dseq_dfma(c, DSEQ_RN, t, h2, e2, false, q2);
	dseq_iadd32i(c, d, 1, t, 1, SQRT_BIAS);
	lw_mov(c, d, 0, t, 0);
	lw_branch(c, -1, false, done);

	lw_label_place(c->k, twice);
	dseq_dadd_self(c, d, x);
}

bool lower_sqrt_rn_f64(LowerCtx *c, const Instr *in)
{
	uint32_t d, x;
	unsigned dw;
	if (!rn_f64_only(c, in) || !lw_reg(c, in->ops[0], &d, &dw))
		return false;
	int done = lw_label_new(c->k);
	if (c->guard_vreg >= 0)
		lw_branch(c, c->guard_vreg, !c->guard_neg, done);
	if (!dseq_operand(c, in->ops[1], &x))
		return false;
	uint32_t one = DSEQ_ONE_CONST2;
	uint32_t res = dseq_value(c, 2), s = dseq_value(c, 2), p = lw_pred_temp(c), y = lw_temp(c, 2), q = dseq_value(c, 2),
	         h = dseq_value(c, 2), e = dseq_value(c, 2);
	dseq_mufu64h(c, DSEQ_MUFU_RSQ64H, s, x);
	dseq_iadd32i(c, s, 0, x, 1, SQRT_BIAS);
	dseq_isetp(c, p, DSEQ_GE, false, s, 0, SQRT_FAST_LIMIT);
	dseq_rsqrt_refine(c, y, s, x);
	sqrt_parts(c, q, h, e, x, y);
	dseq_dfma(c, DSEQ_RN, res, e, h, false, q);
	int join = lw_label_new(c->k);
	lw_branch(c, (int)p, true, join);
	sqrt_slow(c, res, x, s, e, h, q, one, join);
	lw_label_place(c->k, join);
	dseq_copy_pair(c, d, res);
	lw_label_place(c->k, done);
	return true;
}

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
#include "lower/lower_internal.h"


enum { MUFU_RCP64H = 6, MUFU_RSQ64H = 7 };
enum { RND_RN = 0, RND_RM = 1, RND_RP = 2 };
enum { CMP_GT = 4, CMP_NE = 5, CMP_GE = 6, CMP_GTU = 12, CMP_GEU = 14 };
enum { LOP_AND = 0, LOP_OR = 1, LOP_XOR = 2 };

enum {
	F64_ONE_HI = 0x3ff00000,
	F64_HALF_HI = 0x3fe00000,
	F64_0375_HI20 = 0x3fd80,        /* 0.375 */
	F64_2P106_HI20 = 0x46900,       /* 2^106 */
	F64_2PM1022_HI20 = 0x00100,     /* 2^-1022 */
	F64_INF_HI20 = 0x7ff00,
	RCP_SEED_BIAS = 0x300402,
	RCP_FAST_MIN = 0x00400402,      /* as an f32: the fast path's |seed.lo| */
	RCP_ZERO_INF = 0x7fefffff,
	RCP_HUGE = 0x01000001,
	SQRT_BIAS = 0xfcb00000u,        /* -0x3500000 */
	SQRT_FAST_LIMIT = 0x7ca00000,
	SQRT_MEDIUM = 0xfcc00000u,
	F64_MAX_HI = 0x7fefffff,
	F64_EXP_ONE = 0xfff00000u,      /* -0x100000: halves an f64 by its high word */
};

/* ---- predicates and values (labels, branches and guards: lower_divrn.c's lw_*) ---- */

static uint32_t pred_temp(LowerCtx *c)
{
	return lkernel_new_vreg(c->k, LRC_PRED, 1, true);
}

/* A pair (or word) defined part by part or on several paths. */
static uint32_t value(LowerCtx *c, unsigned width)
{
	uint32_t t = lw_temp(c, width);
	c->k->vregs[t].temp = false;
	return t;
}

/* ---- emitters: pairs are (vreg, 2 words); a word is (vreg, sub) ---- */

static void mufu64h(LowerCtx *c, unsigned fn, uint32_t d, uint32_t a)
{
	LInsn *op = lw_emit(c, SF_MUFU);
	linsn_ref(op, SR_RD, d, 1, 1, true);
	linsn_ref(op, SR_RA, a, 1, 1, false);
	linsn_set(op, SR_MUFUOP, fn);
}

/* IADD32I d.dsub, a.asub, imm */
static void iadd32i(LowerCtx *c, uint32_t d, unsigned dsub, uint32_t a, unsigned asub, uint32_t imm)
{
	LInsn *op = lw_emit(c, SF_IADD32I);
	linsn_ref(op, SR_RD, d, dsub, 1, true);
	linsn_ref(op, SR_RA, a, asub, 1, false);
	linsn_set(op, SR_IMM, imm);
}

/* LOP32I.op d.dsub, a.asub, imm */
static void lop32i(LowerCtx *c, unsigned lop, uint32_t d, unsigned dsub, uint32_t a, unsigned asub, uint32_t imm)
{
	LInsn *op = lw_emit(c, SF_LOP32I);
	linsn_ref(op, SR_RD, d, dsub, 1, true);
	linsn_ref(op, SR_RA, a, asub, 1, false);
	linsn_set(op, SR_LOPOP, lop);
	linsn_set(op, SR_IMM, imm);
}

static void mov_word(LowerCtx *c, uint32_t d, unsigned dsub, uint32_t a, unsigned asub)
{
	lw_mov(c, d, dsub, a, asub);
}

/* ISETP.cmp[.U32].AND p, PT, a.asub, c[0x2][value] | RZ (value < 0), PT */
static void isetp(LowerCtx *c, uint32_t p, unsigned cmp, bool is_signed, uint32_t a, unsigned asub, int64_t v)
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

/* FSETP.GEU.AND p, PT, |a.asub|, c[0x2][value], PT */
static void fsetp_abs_geu_const2(LowerCtx *c, uint32_t p, uint32_t a, unsigned asub, uint32_t v)
{
	LInsn *op = lw_emit(c, SF_FSETP_C);
	linsn_ref(op, SR_PD, p, 0, 1, true);
	linsn_set(op, SR_PQ, 7);
	linsn_ref(op, SR_RA, a, asub, 1, false);
	linsn_set(op, SR_ABSA, 1);
	linsn_set(op, SR_CBANK, LK_CONST2_BANK);
	linsn_set(op, SR_COFF, lkernel_const2_slot(c->k, v) / 4);
	linsn_set(op, SR_CMP, CMP_GEU);
	linsn_set(op, SR_PC, 7);
}

/* DSETP.cmp.AND p, PT, [|]a[|], imm20 (or RZ when hi20 < 0), PT */
static void dsetp(LowerCtx *c, uint32_t p, unsigned cmp, uint32_t a, bool abs, int64_t hi20)
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

/* The addend 1.0 of the Newton steps: c[0x2] words, as ptxas reads it. */
#define ONE_CONST2 UINT32_MAX

/* DFMA.rnd d, a, [-]b, c (pairs; c ONE_CONST2: DFMA_RC of 1.0) */
static void dfma(LowerCtx *c, unsigned rnd, uint32_t d, uint32_t a, uint32_t b, bool neg_b, uint32_t cv)
{
	LInsn *op = lw_emit(c, cv == ONE_CONST2 ? SF_DFMA_RC : SF_DFMA_R);
	linsn_ref(op, SR_RD, d, 0, 2, true);
	linsn_ref(op, SR_RA, a, 0, 2, false);
	linsn_ref(op, SR_RB, b, 0, 2, false);
	linsn_set(op, SR_NEGB, neg_b);
	if (cv == ONE_CONST2) {
		linsn_set(op, SR_CBANK, LK_CONST2_BANK);
		linsn_set(op, SR_COFF, lkernel_const2_pair(c->k, 0, F64_ONE_HI));
	} else {
		linsn_ref(op, SR_RC, cv, 0, 2, false);
	}
	linsn_set(op, SR_RND, rnd);
}

/* DFMA d, a, imm20, c */
static void dfma_imm(LowerCtx *c, uint32_t d, uint32_t a, uint32_t hi20, uint32_t cv)
{
	LInsn *op = lw_emit(c, SF_DFMA_I);
	linsn_ref(op, SR_RD, d, 0, 2, true);
	linsn_ref(op, SR_RA, a, 0, 2, false);
	linsn_set(op, SR_IMM, hi20);
	linsn_ref(op, SR_RC, cv, 0, 2, false);
}

/* DMUL d, a, b (pairs) */
static void dmul(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b)
{
	LInsn *op = lw_emit(c, SF_DMUL_R);
	linsn_ref(op, SR_RD, d, 0, 2, true);
	linsn_ref(op, SR_RA, a, 0, 2, false);
	linsn_ref(op, SR_RB, b, 0, 2, false);
}

static void dmul_imm(LowerCtx *c, uint32_t d, uint32_t a, uint32_t hi20)
{
	LInsn *op = lw_emit(c, SF_DMUL_I);
	linsn_ref(op, SR_RD, d, 0, 2, true);
	linsn_ref(op, SR_RA, a, 0, 2, false);
	linsn_set(op, SR_IMM, hi20);
}

/* DADD d, a, a */
static void dadd_self(LowerCtx *c, uint32_t d, uint32_t a)
{
	LInsn *op = lw_emit(c, SF_DADD_R);
	linsn_ref(op, SR_RD, d, 0, 2, true);
	linsn_ref(op, SR_RA, a, 0, 2, false);
	linsn_ref(op, SR_RB, a, 0, 2, false);
}

/* a pair holding the f64 (lo, hi): RZ or MOV32I for each word */
static uint32_t f64_const(LowerCtx *c, uint32_t hi)
{
	uint32_t v = value(c, 2);
	lw_mov_rz(c, v, 0);
	lw_mov32i(c, v, 1, hi);
	return v;
}

static void copy_pair(LowerCtx *c, uint32_t d, uint32_t a)
{
	mov_word(c, d, 0, a, 0);
	mov_word(c, d, 1, a, 1);
}

/* ---- operands ---- */

/* The .f64 operand in a register pair (a parameter or immediate moved in). */
static bool f64_operand(LowerCtx *c, const Expr *e, uint32_t *pair)
{
	Opnd a;
	if (!lw_opnd(c, e, &a))
		return false;
	if (a.kind == OPND_REG && lw_vreg_cpair(c, a.vreg) < 0) {
		*pair = a.vreg;
		return true;
	}
	*pair = value(c, 2);
	lw_copy_value(c, *pair, &a, 2);
	return true;
}

static bool rn_f64_only(LowerCtx *c, const Instr *in)
{
	for (uint32_t i = 0; i < in->nmods; i++)
		if (!lw_streq(in->mods[i], ".rn") && !lw_streq(in->mods[i], ".f64"))
			return lw_unsupported(c, in->mod_locs[i], "%s.rn.f64 modifier '%s'", in->opcode, in->mods[i]);
	return true;
}

/* ---- rcp.rn.f64 ---- */

/* s = fma(s, e, s) with e = fma(x, -s, 1) squared-plus-itself: one step */
static void rcp_step2(LowerCtx *c, uint32_t s, uint32_t x, uint32_t one)
{
	uint32_t e = lw_temp(c, 2);
	dfma(c, RND_RN, e, x, s, true, one);
	dfma(c, RND_RN, e, e, e, false, e);
	dfma(c, RND_RN, s, s, e, false, s);
}

/* d = fma(s, fma(x, -s, 1), s) */
static void rcp_step1(LowerCtx *c, uint32_t d, uint32_t s, uint32_t x, uint32_t one)
{
	uint32_t e = lw_temp(c, 2);
	dfma(c, RND_RN, e, x, s, true, one);
	dfma(c, RND_RN, d, s, e, false, s);
}

static void rcp_slow(LowerCtx *c, uint32_t d, uint32_t x, uint32_t low, uint32_t one, int done)
{
	uint32_t nan = pred_temp(c);
	dsetp(c, nan, CMP_GTU, x, true, F64_INF_HI20);
	lw_guard(c, (int)nan, false);
	lop32i(c, LOP_OR, d, 1, x, 1, 0x80000);
	mov_word(c, d, 0, x, 0);
	lw_branch(c, (int)nan, false, done);

	uint32_t ax = value(c, 1), m = lw_temp(c, 1), zi = pred_temp(c);
	lop32i(c, LOP_AND, ax, 0, x, 1, 0x7fffffff);
	iadd32i(c, m, 0, ax, 0, 0xffffffffu);
	isetp(c, zi, CMP_GE, false, m, 0, RCP_ZERO_INF);
	lw_guard(c, (int)zi, false);
	lop32i(c, LOP_XOR, d, 1, x, 1, 0x7ff00000);
	lw_mov_rz(c, d, 0);
	lw_branch(c, (int)zi, false, done);

	uint32_t huge = pred_temp(c);
	isetp(c, huge, CMP_GE, false, ax, 0, RCP_HUGE);
	int tiny = lw_label_new(c->k);
	lw_branch(c, (int)huge, true, tiny);
	/* huge: the steps on x / 2^1022 (x.hi - 0x3fe00000), the seed's low
	 * word |x.hi| - 0x100000 */
	uint32_t xs = value(c, 2), s = value(c, 2), r = lw_temp(c, 2), e = lw_temp(c, 2);
	iadd32i(c, xs, 1, x, 1, 0xc0200000u);
	mov_word(c, xs, 0, x, 0);
	mov_word(c, s, 0, low, 0);
	mufu64h(c, MUFU_RCP64H, s, xs);
	rcp_step2(c, s, xs, one);
	rcp_step1(c, r, s, xs, one);
	dmul_imm(c, r, r, F64_2PM1022_HI20);
	dfma(c, RND_RN, e, x, r, true, one);
	dfma(c, RND_RN, e, e, e, false, e);
	dfma(c, RND_RN, d, r, e, false, r);
	lw_branch(c, -1, false, done);

	/* tiny: the steps on x * 2^106, times 2^106 */
	lw_label_place(c->k, tiny);
	uint32_t xt = lw_temp(c, 2), t = value(c, 2), q = lw_temp(c, 2);
	dmul_imm(c, xt, x, F64_2P106_HI20);
	mov_word(c, t, 0, low, 0);
	mufu64h(c, MUFU_RCP64H, t, xt);
	rcp_step2(c, t, xt, one);
	rcp_step1(c, q, t, xt, one);
	dmul_imm(c, d, q, F64_2P106_HI20);
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
	if (!f64_operand(c, in->ops[1], &x))
		return false;
	uint32_t one = ONE_CONST2;
	uint32_t res = value(c, 2), s = value(c, 2), p = pred_temp(c);
	mufu64h(c, MUFU_RCP64H, s, x);
	iadd32i(c, s, 0, x, 1, RCP_SEED_BIAS);
	fsetp_abs_geu_const2(c, p, s, 0, RCP_FAST_MIN);
	rcp_step2(c, s, x, one);
	rcp_step1(c, res, s, x, one);
	int join = lw_label_new(c->k);
	lw_branch(c, (int)p, false, join);
	uint32_t ax = lw_temp(c, 1), low = value(c, 1);
	lop32i(c, LOP_AND, ax, 0, x, 1, 0x7fffffff);
	iadd32i(c, low, 0, ax, 0, F64_EXP_ONE);
	rcp_slow(c, res, x, low, one, join);
	lw_label_place(c->k, join);
	copy_pair(c, d, res);
	lw_label_place(c->k, done);
	return true;
}

/* ---- sqrt.rn.f64 ---- */

/* y = the refined rsqrt of x from the seed pair s (s.hi = rsq64h(x.hi)) */
static void rsqrt_refine(LowerCtx *c, uint32_t y, uint32_t s, uint32_t x, uint32_t one)
{
	uint32_t s2 = lw_temp(c, 2), e = lw_temp(c, 2), half = f64_const(c, F64_HALF_HI), k = lw_temp(c, 2),
	         se = lw_temp(c, 2);
	dmul(c, s2, s, s);
	dfma(c, RND_RN, e, x, s2, true, one);
	dfma_imm(c, k, e, F64_0375_HI20, half);
	dmul(c, se, s, e);
	dfma(c, RND_RN, y, k, se, false, s);
}

/* q = x y, h = y / 2 (its high word less one exponent step), e = x - q^2 */
static void sqrt_parts(LowerCtx *c, uint32_t q, uint32_t h, uint32_t e, uint32_t x, uint32_t y)
{
	dmul(c, q, x, y);
	iadd32i(c, h, 1, y, 1, F64_EXP_ONE);
	mov_word(c, h, 0, y, 0);
	dfma(c, RND_RN, e, q, q, true, x);
}

static void sqrt_slow(LowerCtx *c, uint32_t d, uint32_t x, uint32_t biased, uint32_t e, uint32_t h,
                      uint32_t q, uint32_t one, int done)
{
	uint32_t med = pred_temp(c);
	isetp(c, med, CMP_GE, false, biased, 0, SQRT_MEDIUM);
	int other = lw_label_new(c->k);
	lw_branch(c, (int)med, true, other);
	/* medium: round down, then up by one ulp if the remainder says so */
	uint32_t r = lw_temp(c, 2), r1 = value(c, 2), rem = lw_temp(c, 2), up = pred_temp(c);
	dfma(c, RND_RM, r, e, h, false, q);
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
	dfma(c, RND_RP, rem, r, r1, true, x);
	dsetp(c, up, CMP_GT, rem, false, -1);
	lw_guard(c, (int)up, false);
	copy_pair(c, d, r1);
	lw_guard(c, (int)up, true);
	copy_pair(c, d, r);
	lw_branch(c, -1, false, done);

	lw_label_place(c->k, other);
	int twice = lw_label_new(c->k);
	uint32_t nz = pred_temp(c), neg = pred_temp(c), big = pred_temp(c);
	dsetp(c, nz, CMP_NE, x, false, -1);
	lw_branch(c, (int)nz, true, twice);
	isetp(c, neg, CMP_GE, true, x, 1, -1);
	lw_guard(c, (int)neg, true);
	lw_mov_rz(c, d, 0);
	lw_mov32i(c, d, 1, 0xfff80000u);
	lw_branch(c, (int)neg, true, done);
	isetp(c, big, CMP_GT, true, x, 1, F64_MAX_HI);
	lw_branch(c, (int)big, false, twice);
	/* denormal: the fast steps on x * 2^106, the result's exponent less 53 */
	uint32_t xs = lw_temp(c, 2), s = value(c, 2), y = lw_temp(c, 2), q2 = lw_temp(c, 2), h2 = value(c, 2),
	         e2 = lw_temp(c, 2), t = lw_temp(c, 2);
	dmul_imm(c, xs, x, F64_2P106_HI20);
	lw_mov_rz(c, s, 0);
	mufu64h(c, MUFU_RSQ64H, s, xs);
	rsqrt_refine(c, y, s, xs, one);
	sqrt_parts(c, q2, h2, e2, xs, y);
	dfma(c, RND_RN, t, h2, e2, false, q2);
	iadd32i(c, d, 1, t, 1, SQRT_BIAS);
	mov_word(c, d, 0, t, 0);
	lw_branch(c, -1, false, done);

	lw_label_place(c->k, twice);
	dadd_self(c, d, x);
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
	if (!f64_operand(c, in->ops[1], &x))
		return false;
	uint32_t one = ONE_CONST2;
	uint32_t res = value(c, 2), s = value(c, 2), p = pred_temp(c), y = lw_temp(c, 2), q = value(c, 2),
	         h = value(c, 2), e = value(c, 2);
	mufu64h(c, MUFU_RSQ64H, s, x);
	iadd32i(c, s, 0, x, 1, SQRT_BIAS);
	isetp(c, p, CMP_GE, false, s, 0, SQRT_FAST_LIMIT);
	rsqrt_refine(c, y, s, x, one);
	sqrt_parts(c, q, h, e, x, y);
	dfma(c, RND_RN, res, e, h, false, q);
	int join = lw_label_new(c->k);
	lw_branch(c, (int)p, true, join);
	sqrt_slow(c, res, x, s, e, h, q, one, join);
	lw_label_place(c->k, join);
	copy_pair(c, d, res);
	lw_label_place(c->k, done);
	return true;
}

/* Lowering of the IEEE-rounded f32 square root, sqrt.rn.f32, as ptxas
 * 11.8 writes it for sm_50: a fast path of MUFU.RSQ and two Newton FFMAs
 * for operands whose exponent keeps every step in range, and a slow path
 * for the rest (zero, negative, NaN, infinity, denormal and huge x):
 *
 *   fast (x - 0x0d000000 <= 0x727fffff unsigned, from .nv.constant2):
 *     r = rsq(x); s = x * r; h = r * 0.5; d = fma(fma(s, -s, x), h, s)
 *   slow:  x & 0x7fffffff == 0: d = x (signed zero)
 *          !(x >= 0 or unordered): d = 0x7fffffff (the NaN ptxas writes)
 *          x is NaN: d = x + 1 (a quiet NaN)
 *          x is infinite: d = x
 *          else y = x * 2^64, the fast path on y, times 2^-32.
 *
 * ptxas reaches its slow path, `__cuda_sm20_sqrt_rn_f32_slowpath`, with
 * CAL and leaves it with RET (under SSY/SYNC). The same instructions with
 * the same constants run here inline behind branches, so every result is
 * bit for bit ptxas's; the integer tests that only select a path are the
 * same instructions too (LOP.AND.NZ, ISETP against the .nv.constant2
 * word). sqrt.rn.ftz.f32 differs in two places of the slow path: a zero
 * or denormal x (FSETP.NEU.FTZ against RZ) gives FMUL.FTZ x, 1 (a signed
 * zero), and huge x is scaled with FMUL.FTZ instead of FFMA ..., RZ. The
 * approximate FTZ variants keep MUFU's approximation (lower_sfu.c). */
#include "lower/lower_f32seq.h"


enum { CMP_GEU = 14 };
enum { FMZ_FTZ = 1 };
enum { SQRT_RN = 0, SQRT_RM = 1, SQRT_RP = 2, SQRT_RZ = 3 };   /* FFMA's rounding field */

enum {
	F32_HALF = 0x3f000000,
	F32_2PM32 = 0x2f800000,
	SQRT_FAST_BIAS = 0xf3000000u,    /* -0x0d000000: the IADD32I of the range test */
	SQRT_FAST_LIMIT = 0x727fffff,    /* the largest biased x of the fast path */
	F32_ABS_MASK = 0x7fffffff,
	F32_SQRT_NAN = 0x7fffffff,       /* sqrt of a negative x */
};

/* ---- small emitters (b < 0 is RZ) ---- */

/* FMUL.FTZ d, a, b */
static void fmul_ftz(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b)
{
	LInsn *op = lw_emit(c, SF_FMUL_R);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RA, a, 0, 1, false);
	linsn_ref(op, SR_RB, b, 0, 1, false);
	linsn_set(op, SR_FMZ, FMZ_FTZ);
}

/* FMUL.FTZ d, a, imm (an f32 whose low 12 bits are zero) */
static void fmul_ftz_imm(LowerCtx *c, uint32_t d, uint32_t a, uint32_t bits)
{
	LInsn *op = lw_emit(c, SF_FMUL_I);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RA, a, 0, 1, false);
	linsn_set(op, SR_IMM, bits >> 12);
	linsn_set(op, SR_FMZ, FMZ_FTZ);
}

/* FFMA d, a, imm, RZ */
static void ffma_imm_rz(LowerCtx *c, uint32_t d, uint32_t a, uint32_t bits)
{
	LInsn *op = lw_emit(c, SF_FFMA_I);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RA, a, 0, 1, false);
	linsn_set(op, SR_IMM, bits >> 12);
	linsn_set(op, SR_RC, 255);
}

/* FSETP.cmp.FTZ.AND p, PT, [|]a[|], imm, PT (imm: f32 bits, low 12 zero) */
static void fsetp_ftz_imm(LowerCtx *c, uint32_t p, uint32_t a, bool abs, unsigned cmp, uint32_t bits)
{
	LInsn *op = lw_emit(c, SF_FSETP_I);
	linsn_ref(op, SR_PD, p, 0, 1, true);
	linsn_set(op, SR_PQ, 7);
	linsn_ref(op, SR_RA, a, 0, 1, false);
	linsn_set(op, SR_ABSA, abs);
	linsn_set(op, SR_IMM, bits >> 12);
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_FTZ, 1);
	linsn_set(op, SR_PC, 7);
}

/* FSETP.cmp.FTZ.AND p, PT, a, RZ, PT */
static void fsetp_ftz_rz(LowerCtx *c, uint32_t p, uint32_t a, unsigned cmp)
{
	LInsn *op = lw_emit(c, SF_FSETP_R);
	linsn_ref(op, SR_PD, p, 0, 1, true);
	linsn_set(op, SR_PQ, 7);
	linsn_ref(op, SR_RA, a, 0, 1, false);
	linsn_set(op, SR_RB, 255);
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_FTZ, 1);
	linsn_set(op, SR_PC, 7);
}

/* ISETP.GT.U32.AND p, PT, a, c[0x2][value], PT */
static void isetp_gt_u32_const2(LowerCtx *c, uint32_t p, uint32_t a, uint32_t value)
{
	LInsn *op = lw_emit(c, SF_ISETP_C);
	linsn_ref(op, SR_PD, p, 0, 1, true);
	linsn_set(op, SR_PQ, 7);
	linsn_ref(op, SR_RA, a, 0, 1, false);
	linsn_set(op, SR_CBANK, LK_CONST2_BANK);
	linsn_set(op, SR_COFF, lkernel_const2_slot(c->k, value) / 4);
	linsn_set(op, SR_CMP, CMP_GT);
	linsn_set(op, SR_SIGNED, 0);
	linsn_set(op, SR_PC, 7);
}

/* LOP.AND.NZ p, RZ, a, c[0x2][value] */
static void lop_and_nz_const2(LowerCtx *c, uint32_t p, uint32_t a, uint32_t value)
{
	LInsn *op = lw_emit(c, SF_LOP_P_C);
	linsn_ref(op, SR_PD, p, 0, 1, true);
	linsn_set(op, SR_RD, 255);
	linsn_ref(op, SR_RA, a, 0, 1, false);
	linsn_set(op, SR_CBANK, LK_CONST2_BANK);
	linsn_set(op, SR_COFF, lkernel_const2_slot(c->k, value) / 4);
	linsn_set(op, SR_LOPOP, 0);
	linsn_set(op, SR_LOPTEST, 1);
}

/* IADD32I d, a, imm */
static void iadd32i(LowerCtx *c, uint32_t d, uint32_t a, uint32_t imm)
{
	LInsn *op = lw_emit(c, SF_IADD32I);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RA, a, 0, 1, false);
	linsn_set(op, SR_IMM, imm);
}

static uint32_t pred_temp(LowerCtx *c)
{
	return lkernel_new_vreg(c->k, LRC_PRED, 1, true);
}

/* A value defined on more than one path: not a temporary in the liveness
 * sense (see lower_selp). */
static uint32_t path_value(LowerCtx *c)
{
	uint32_t t = lw_temp(c, 1);
	c->k->vregs[t].temp = false;
	return t;
}

/* ---- sqrt.rn/.rm/.rp/.rz.f32 ---- */

/* The Newton steps both paths share, s = x * r and h = r * 0.5 first:
 *   .rn, .rp: d = fma.rnd(fma(s, -s, x), h, s)
 *   .rm, .rz: s' = fma(s, fma(h, -s, 0.5), s) (one more step, the 0.5
 *             from .nv.constant2), d = fma.rnd(h, fma(s', -s', x), s')
 * -s comes from FADD but on .rn's fast path (neg_by_fadd), as ptxas does. */
static void sqrt_newton(LowerCtx *c, uint32_t d, uint32_t x, uint32_t r, bool neg_by_fadd, unsigned rnd)
{
	uint32_t s = lw_temp(c, 1), h = lw_temp(c, 1), e = lw_temp(c, 1);
	fmul_ftz(c, s, x, r);
	fmul_ftz_imm(c, h, r, F32_HALF);
	if (rnd == SQRT_RM || rnd == SQRT_RZ) {
		uint32_t n = lw_temp(c, 1), t = lw_temp(c, 1), s2 = lw_temp(c, 1);
		fseq_fneg_ftz(c, n, s);
		fseq_ffma_const2(c, t, h, n, false, F32_HALF);
		fseq_ffma(c, s2, s, t, false, (int)s, 0);
		s = s2;
	}
	if (neg_by_fadd) {
		uint32_t n = lw_temp(c, 1);
		fseq_fneg_ftz(c, n, s);
		fseq_ffma(c, e, s, n, false, (int)x, 0);
	} else {
		fseq_ffma(c, e, s, s, true, (int)x, 0);
	}
	if (rnd == SQRT_RM || rnd == SQRT_RZ)
		fseq_ffma(c, d, h, e, false, (int)s, rnd);
	else
		fseq_ffma(c, d, e, h, false, (int)s, rnd);
}

/* The slow path: x outside the fast path's range; d set on every exit. */
static void sqrt_slow(LowerCtx *c, uint32_t d, uint32_t x, int done, bool ftz, unsigned rnd)
{
	uint32_t p = pred_temp(c);
	if (ftz)
		fsetp_ftz_rz(c, p, x, CMP_NEU);
	else
		lop_and_nz_const2(c, p, x, F32_ABS_MASK);
	lw_guard(c, (int)p, true);
	if (ftz)
		fmul_ftz_imm(c, d, x, F32_ONE);
	else
		lw_mov(c, d, 0, x, 0);
	lw_branch(c, (int)p, true, done);

	uint32_t q = pred_temp(c);
	fsetp_ftz_rz(c, q, x, CMP_GEU);
	lw_guard(c, (int)q, true);
	lw_mov32i(c, d, 0, F32_SQRT_NAN);
	lw_branch(c, (int)q, true, done);

	uint32_t n = pred_temp(c);
	fsetp_ftz_imm(c, n, x, true, CMP_GTU, F32_INF);
	lw_guard(c, (int)n, false);
	LInsn *op = lw_emit(c, SF_FADD_I);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RA, x, 0, 1, false);
	linsn_set(op, SR_IMM, F32_ONE >> 12);
	linsn_set(op, SR_FTZ, 1);
	lw_branch(c, (int)n, false, done);

	uint32_t f = pred_temp(c);
	fsetp_ftz_imm(c, f, x, true, CMP_NEU, F32_INF);
	lw_guard(c, (int)f, true);
	lw_mov(c, d, 0, x, 0);
	lw_branch(c, (int)f, true, done);
	lw_guard(c, -1, false);

	uint32_t y = lw_temp(c, 1), r = lw_temp(c, 1), t = lw_temp(c, 1);
	if (ftz)
		fmul_ftz_imm(c, y, x, F32_2P64);
	else
		ffma_imm_rz(c, y, x, F32_2P64);
	fseq_mufu(c, MUFU_RSQ, r, y);
	sqrt_newton(c, t, y, r, true, rnd);
	fmul_ftz_imm(c, d, t, F32_2PM32);
}

bool lower_sqrt_f32(LowerCtx *c, const Instr *in)
{
	bool ftz = lw_has_mod(in, ".ftz");
	unsigned rnd;
	uint32_t d;
	unsigned dw;
	Opnd a;
	if (!fseq_rounding(c, in, &rnd) || !lw_reg(c, in->ops[0], &d, &dw) || !lw_opnd(c, in->ops[1], &a))
		return false;
	int done = lw_label_new(c->k);
	/* a guarded sqrt: the whole sequence is branched around */
	if (c->guard_vreg >= 0)
		lw_branch(c, c->guard_vreg, !c->guard_neg, done);
	uint32_t x = fseq_in_reg(c, &a);
	/* the result is computed into its own value: d may be x */
	uint32_t res = path_value(c);
	uint32_t b = lw_temp(c, 1), r = lw_temp(c, 1), p = pred_temp(c);
	iadd32i(c, b, x, SQRT_FAST_BIAS);
	/* .rn reads rsq(x) before the range test, the others after it */
	if (rnd == SQRT_RN)
		fseq_mufu(c, MUFU_RSQ, r, x);
	isetp_gt_u32_const2(c, p, b, SQRT_FAST_LIMIT);
	int slow = lw_label_new(c->k);
	lw_branch(c, (int)p, false, slow);
	if (rnd != SQRT_RN)
		fseq_mufu(c, MUFU_RSQ, r, x);
	sqrt_newton(c, res, x, r, rnd != SQRT_RN, rnd);
	int join = lw_label_new(c->k);
	lw_branch(c, -1, false, join);
	lw_label_place(c->k, slow);
	sqrt_slow(c, res, x, join, ftz, rnd);
	lw_label_place(c->k, join);
	lw_mov(c, d, 0, res, 0);
	lw_label_place(c->k, done);
	return true;
}

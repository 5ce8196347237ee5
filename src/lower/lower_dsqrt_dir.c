/* Lowering of the directed-rounding f64 square root, sqrt.rm/.rp/.rz.f64,
 * as ptxas 11.8 writes it for sm_50: no fast path, the whole of
 * `__cuda_sm20_dsqrt_{rd,ru,rz}_f64` inline (ptxas CALs it; the three
 * differ only in the rounding of the last DFMA):
 *
 *   e = x's biased exponent - 1; x negative or e outside 0..0x7fd:
 *     x < 0 (not NaN): the NaN 0xfff80000_00000000; a zero or +inf: x;
 *     a NaN: x with the quiet bit; a subnormal: x * 2^54, k = 54;
 *   m = x with its exponent made 0x3fe or 0x3ff (e rounded down to even),
 *   y = rsq(m) from MUFU.RSQ on m as an f32, refined twice with the 0.5 of
 *   .nv.constant2 (y and h = y/2 as in sqrt.rn.f64's medium path),
 *   d = fma.rnd(fma(s, -s, m), h, s) with s the refined m * y, and the
 *   exponent (e - 0x3fe) / 2 - k / 2 put back into d's high word.
 *
 * The same instructions and .nv.constant2 words as ptxas (-1 for the
 * exponent, then the 0.5 pair at the next even word: lkernel_const2_lead);
 * where ptxas works on x in place it is copied first. tests/sim/sim-diff.sh
 * compares the results with ptxas's code on the simulator. */
#include "lower/lower_f64seq.h"

enum {
	DSQRT_EXP_MINUS1 = 0xffffffffu, /* LEA.HI's addend: the biased exponent - 1 */
	DSQRT_EXP_RANGE = 0x7fd,
	DSQRT_NAN_HI = 0xfff80000u,
	DSQRT_2P54_HI20 = 0x43500,
	DSQRT_SCALE = 0x36,             /* 54 */
	DSQRT_EVEN = 0xfffffffeu,
	DSQRT_BIAS = 0x3fe,
	DSQRT_BIAS_HALF = 0xffc02,      /* -0x3fe as IADD3's 20-bit immediate */
	DSQRT_HALF_HI = 0x3fe00000,
	DSQRT_QUIET_HI = 0x80000,
	DSQRT_RZ = 3,                   /* DFMA's rounding field */
	RZ = 255, PT = 7,
};

/* F2F.dst.src d, a (f32 <-> f64, round to nearest) */
static void f2f(LowerCtx *c, uint32_t d, unsigned dwords, uint32_t a, unsigned awords)
{
	LInsn *op = lw_emit(c, SF_F2F_R);
	linsn_ref(op, SR_RD, d, 0, dwords, true);
	linsn_ref(op, SR_RB, a, 0, awords, false);
	linsn_set(op, SR_DTYPE, dwords == 2 ? 3 : 2);
	linsn_set(op, SR_STYPE, awords == 2 ? 3 : 2);
}

/* d = (a.hi - 0x100000 : a.lo): a / 2 */
static void halve(LowerCtx *c, uint32_t d, uint32_t a)
{
	dseq_iadd32i(c, d, 1, a, 1, DSEQ_EXP_ONE);
	lw_mov(c, d, 0, a, 0);
}

/* The special operands (x negative, zero, subnormal, infinite or NaN):
 * each exit writes res and goes to done; a subnormal x goes on to main
 * as xw = x * 2^54 with k = 54. */
static void dsqrt_special(LowerCtx *c, uint32_t res, uint32_t x, uint32_t xw, uint32_t k, int main, int done)
{
	uint32_t ge = lw_pred_temp(c), nz = lw_temp(c, 1), fin = lw_temp(c, 1), keep = lw_pred_temp(c);
	uint32_t nan = lw_pred_temp(c), xs = lw_temp(c, 2);
	dseq_dsetp(c, ge, DSEQ_GEU, x, false, -1);
	lw_guard(c, (int)ge, true);
	lw_mov_rz(c, res, 0);
	lw_mov32i(c, res, 1, DSQRT_NAN_HI);
	lw_branch(c, (int)ge, true, done);
	dseq_dset(c, nz, DSEQ_NEU, x, false, -1);
	dseq_dset(c, fin, DSEQ_NEU, x, true, DSEQ_INF_HI20);
	dseq_lop_nz(c, keep, DSEQ_AND, nz, fin);
	lw_guard(c, (int)keep, true);
	dseq_copy_pair(c, res, x);
	lw_branch(c, (int)keep, true, done);
	dseq_dsetp(c, nan, DSEQ_GTU, x, true, DSEQ_INF_HI20);
	lw_guard(c, (int)nan, false);
	dseq_lop32i(c, DSEQ_OR, res, 1, x, 1, DSQRT_QUIET_HI);
	lw_mov(c, res, 0, x, 0);
	lw_branch(c, (int)nan, false, done);
	dseq_dmul_imm(c, xs, x, DSQRT_2P54_HI20);
	lw_mov32i(c, k, 0, DSQRT_SCALE);
	dseq_copy_pair(c, xw, xs);
	lw_branch(c, -1, false, main);
}

static void dsqrt_dir(LowerCtx *c, uint32_t res, uint32_t x, unsigned rnd, int done)
{
	uint32_t t = lw_temp(c, 1), e = lw_temp(c, 1), sg = lw_temp(c, 1), p = lw_pred_temp(c);
	uint32_t xw = dseq_value(c, 2), k = dseq_value(c, 1);
	LInsn *op = lw_emit(c, SF_SHL_I);
	linsn_ref(op, SR_RD, t, 0, 1, true);
	linsn_ref(op, SR_RA, x, 1, 1, false);
	linsn_set(op, SR_IMM, 1);
	dseq_copy_pair(c, xw, x);
	op = lw_emit(c, SF_LEA_HI_C);          /* e = (2 x.hi >> 21) - 1 */
	linsn_ref(op, SR_RD, e, 0, 1, true);
	linsn_ref(op, SR_RA, t, 0, 1, false);
	linsn_set(op, SR_CBANK, LK_CONST2_BANK);
	linsn_set(op, SR_COFF, lkernel_const2_lead(c->k, DSQRT_EXP_MINUS1) / 4);
	linsn_set(op, SR_RC, RZ);
	linsn_set(op, SR_SHIFT, 11);
	linsn_set(op, SR_PD, PT);
	op = lw_emit(c, SF_SHR_I);
	linsn_ref(op, SR_RD, sg, 0, 1, true);
	linsn_ref(op, SR_RA, x, 1, 1, false);
	linsn_set(op, SR_IMM, 31);
	op = lw_emit(c, SF_ISETP_I);
	linsn_ref(op, SR_PD, p, 0, 1, true);
	linsn_set(op, SR_PQ, PT);
	linsn_ref(op, SR_RA, e, 0, 1, false);
	linsn_set(op, SR_IMM, DSQRT_EXP_RANGE);
	linsn_set(op, SR_CMP, DSEQ_GT);
	linsn_set(op, SR_SIGNED, 0);
	linsn_set(op, SR_PC, PT);
	op = lw_emit(c, SF_ISETP_R);
	linsn_ref(op, SR_PD, p, 0, 1, true);
	linsn_set(op, SR_PQ, PT);
	linsn_ref(op, SR_RA, sg, 0, 1, false);
	linsn_set(op, SR_RB, RZ);
	linsn_set(op, SR_CMP, DSEQ_NE);
	linsn_set(op, SR_SIGNED, 1);
	linsn_set(op, SR_BOP, DSEQ_OR);
	linsn_ref(op, SR_PC, p, 0, 1, false);
	int normal = lw_label_new(c->k), main = lw_label_new(c->k);
	lw_branch(c, (int)p, true, normal);
	dsqrt_special(c, res, x, xw, k, main, done);
	lw_label_place(c->k, normal);
	lw_mov_rz(c, k, 0);
	lw_label_place(c->k, main);

	uint32_t ev = lw_temp(c, 1), u = lw_temp(c, 1), kk = lw_temp(c, 1), m = lw_temp(c, 2);
	uint32_t f = lw_temp(c, 1), r = lw_temp(c, 1), y0 = lw_temp(c, 2), hx = lw_temp(c, 2);
	dseq_lop32i(c, DSEQ_AND, ev, 0, e, 0, DSQRT_EVEN);
	dseq_iadd32i(c, u, 0, ev, 0, (uint32_t)-DSQRT_BIAS);
	op = lw_emit(c, SF_IADD3_I);           /* (e - 0x3fe) - k */
	linsn_ref(op, SR_RD, kk, 0, 1, true);
	linsn_ref(op, SR_RA, ev, 0, 1, false);
	linsn_set(op, SR_IMM, DSQRT_BIAS_HALF);
	linsn_ref(op, SR_RC, k, 0, 1, false);
	linsn_set(op, SR_NEGC, 1);
	op = lw_emit(c, SF_ISCADD_R);          /* m.hi = xw.hi - (u << 20) */
	linsn_ref(op, SR_RD, m, 1, 1, true);
	linsn_ref(op, SR_RA, u, 0, 1, false);
	linsn_ref(op, SR_RB, xw, 1, 1, false);
	linsn_set(op, SR_NEG, 2);
	linsn_set(op, SR_SHIFT, 20);
	lw_mov(c, m, 0, xw, 0);
	f2f(c, f, 1, m, 2);
	op = lw_emit(c, SF_MUFU);
	linsn_ref(op, SR_RD, r, 0, 1, true);
	linsn_ref(op, SR_RA, f, 0, 1, false);
	linsn_set(op, SR_MUFUOP, 5);
	f2f(c, y0, 2, r, 1);
	halve(c, hx, m);

	uint32_t y2 = lw_temp(c, 2), t1 = lw_temp(c, 2), y1 = lw_temp(c, 2), s = lw_temp(c, 2), g = lw_temp(c, 2);
	uint32_t h = lw_temp(c, 2), rem = lw_temp(c, 2), t2 = lw_temp(c, 2), s1 = lw_temp(c, 2), h1 = lw_temp(c, 2);
	uint32_t rem2 = lw_temp(c, 2), q = lw_temp(c, 2);
	dseq_dmul(c, y2, y0, y0);
	dseq_dfma_const2(c, DSEQ_RN, t1, hx, y2, true, DSQRT_HALF_HI);
	dseq_dfma(c, DSEQ_RN, y1, y0, t1, false, y0);
	dseq_dmul(c, s, m, y1);
	dseq_dmul(c, g, hx, y1);
	halve(c, h, y1);
	dseq_dfma(c, DSEQ_RN, rem, s, s, true, m);
	dseq_dfma_const2(c, DSEQ_RN, t2, y1, g, true, DSQRT_HALF_HI);
	dseq_dfma(c, DSEQ_RN, s1, rem, h, false, s);
	dseq_dfma(c, DSEQ_RN, h1, h, t2, false, h);
	dseq_dfma(c, DSEQ_RN, rem2, s1, s1, true, m);
	dseq_dfma(c, rnd, q, rem2, h1, false, s1);
	op = lw_emit(c, SF_ISCADD_R);          /* the exponent put back */
	linsn_ref(op, SR_RD, res, 1, 1, true);
	linsn_ref(op, SR_RA, kk, 0, 1, false);
	linsn_ref(op, SR_RB, q, 1, 1, false);
	linsn_set(op, SR_SHIFT, 19);
	lw_mov(c, res, 0, q, 0);
}

bool lower_sqrt_dir_f64(LowerCtx *c, const Instr *in)
{
	unsigned rnd = 0;
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		if (lw_streq(w, ".rm"))
			rnd = DSEQ_RM;
		else if (lw_streq(w, ".rp"))
			rnd = DSEQ_RP;
		else if (lw_streq(w, ".rz"))
			rnd = DSQRT_RZ;
		else if (!lw_streq(w, ".f64"))
			return lw_unsupported(c, in->mod_locs[i], "sqrt modifier '%s' (.rm, .rp or .rz .f64 is supported)", w);
	}
	uint32_t d, x;
	unsigned dw;
	if (!lw_reg(c, in->ops[0], &d, &dw))
		return false;
	int done = lw_label_new(c->k), skip = lw_label_new(c->k);
	if (c->guard_vreg >= 0)
		lw_branch(c, c->guard_vreg, !c->guard_neg, skip);
	if (!dseq_operand(c, in->ops[1], &x))
		return false;
	uint32_t res = dseq_value(c, 2);
	dsqrt_dir(c, res, x, rnd, done);
	lw_label_place(c->k, done);
	dseq_copy_pair(c, d, res);
	lw_label_place(c->k, skip);
	return true;
}

/* Lowering of rsqrt.approx.f64 and rsqrt.approx.ftz.f64 as ptxas 11.8
 * writes them for sm_50 (measured at -O0 and -O3).
 *
 * rsqrt.approx.ftz.f64: the MUFU.RSQ64H seed alone, MUFU.RSQ64H d.hi,
 * x.hi with d.lo = RZ (as rcp.approx.ftz.f64 is MUFU.RCP64H).
 * rsqrt.approx.f64: the seed (s.lo = RZ) refined by one Newton step,
 *   e = fma(x, -s^2, 1), y = fma(fma(e, 0.375, 0.5), s e, s),
 * fast when x.hi - 0x100000 < 0x7fe00000 unsigned (x positive, normal and
 * finite); else ptxas's `__cuda_sm20_drsqrt_f64_slowpath_v2`, which we
 * run inline behind branches with the same instructions and constants:
 *   +-0 -> +-inf; NaN -> x + x; x < 0 -> NaN (0xfff80000_00000000);
 *   +inf -> +0; denormal -> the fast steps on x * 2^54, times 2^27. */
#include "lower/lower_f64seq.h"

enum {
	RSQ_FAST_LIMIT = 0x7fe00000,
	F64_2P54_HI20 = 0x43500,
	F64_2P27_HI20 = 0x41a00,
	F64_SIGN = 0x80000000u,
	F64_QNAN_HI = 0xfff80000u,
	F64_INF_HI = 0x7ff00000,
};

static bool approx_f64_only(LowerCtx *c, const Instr *in, bool *ftz)
{
	*ftz = false;
	for (uint32_t i = 0; i < in->nmods; i++) {
		if (lw_streq(in->mods[i], ".ftz"))
			*ftz = true;
		else if (!lw_streq(in->mods[i], ".approx") && !lw_streq(in->mods[i], ".f64"))
			return lw_unsupported(c, in->mod_locs[i], "rsqrt.approx.f64 modifier '%s'", in->mods[i]);
	}
	return true;
}

/* The slow path: x is not a positive normal finite f64. */
static void drsqrt_slow(LowerCtx *c, uint32_t d, uint32_t x, int done)
{
	uint32_t sign = dseq_value(c, 1), nz = lw_pred_temp(c), nan = lw_pred_temp(c), neg = lw_pred_temp(c),
	         fin = lw_pred_temp(c);
	int zero = lw_label_new(c->k), twice = lw_label_new(c->k);
	dseq_lop32i(c, DSEQ_AND, sign, 0, x, 1, F64_SIGN);
	dseq_dsetp(c, nz, DSEQ_NEU, x, false, -1);
	lw_branch(c, (int)nz, true, zero);
	dseq_dsetp(c, nan, DSEQ_GTU, x, true, DSEQ_INF_HI20);
	lw_branch(c, (int)nan, false, twice);
	dseq_isetp(c, neg, DSEQ_NE, true, sign, 0, -1);
	lw_guard(c, (int)neg, false);
	lw_mov32i(c, d, 0, 0);
	lw_mov32i(c, d, 1, F64_QNAN_HI);
	lw_branch(c, (int)neg, false, done);
	dseq_dsetp(c, fin, DSEQ_NEU, x, true, DSEQ_INF_HI20);
	lw_guard(c, (int)fin, true);
	lw_mov_rz(c, d, 0);
	lw_mov_rz(c, d, 1);
	lw_branch(c, (int)fin, true, done);
	/* denormal: the fast steps on x * 2^54, times 2^27 */
	uint32_t xs = lw_temp(c, 2), s = dseq_value(c, 2), y = lw_temp(c, 2);
	dseq_dmul_imm(c, xs, x, F64_2P54_HI20);
	lw_mov_rz(c, s, 0);
	dseq_mufu64h(c, DSEQ_MUFU_RSQ64H, s, xs);
	dseq_rsqrt_refine(c, y, s, xs);
	dseq_dmul_imm(c, d, y, F64_2P27_HI20);
	lw_branch(c, -1, false, done);

	lw_label_place(c->k, twice);
	dseq_dadd_self(c, d, x);
	lw_branch(c, -1, false, done);

	lw_label_place(c->k, zero);
	dseq_lop32i(c, DSEQ_OR, d, 1, sign, 0, F64_INF_HI);
	lw_mov_rz(c, d, 0);
}

bool lower_rsqrt_f64(LowerCtx *c, const Instr *in)
{
	uint32_t d, x;
	unsigned dw;
	bool ftz;
	if (!approx_f64_only(c, in, &ftz) || !lw_reg(c, in->ops[0], &d, &dw))
		return false;
	if (ftz) {
		Opnd o;
		uint32_t a;
		unsigned as;
		if (!lw_opnd(c, in->ops[1], &o))
			return false;
		lw_opnd_part(c, &o, 1, &a, &as);
		LInsn *op = lw_emit(c, SF_MUFU);
		linsn_ref(op, SR_RD, d, 1, 1, true);
		linsn_ref(op, SR_RA, a, as, 1, false);
		linsn_set(op, SR_MUFUOP, DSEQ_MUFU_RSQ64H);
		lw_mov_rz(c, d, 0);
		return true;
	}
	int done = lw_label_new(c->k);
	if (c->guard_vreg >= 0)
		lw_branch(c, c->guard_vreg, !c->guard_neg, done);
	if (!dseq_operand(c, in->ops[1], &x))
		return false;
	uint32_t res = dseq_value(c, 2), s = dseq_value(c, 2), t = lw_temp(c, 1), slow = lw_pred_temp(c);
	lw_mov_rz(c, s, 0);
	dseq_mufu64h(c, DSEQ_MUFU_RSQ64H, s, x);
	dseq_iadd32i(c, t, 0, x, 1, DSEQ_EXP_ONE);
	dseq_isetp(c, slow, DSEQ_GE, false, t, 0, RSQ_FAST_LIMIT);
	dseq_rsqrt_refine(c, res, s, x);
	int join = lw_label_new(c->k);
	lw_branch(c, (int)slow, true, join);
	drsqrt_slow(c, res, x, join);
	lw_label_place(c->k, join);
	dseq_copy_pair(c, d, res);
	lw_label_place(c->k, done);
	return true;
}

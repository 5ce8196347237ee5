/* Lowering of the IEEE-rounded f32 reciprocal, rcp.rn/.rm/.rp/.rz[.ftz].f32,
 * as ptxas 11.8 writes it for sm_50 (-O3): a fast path when
 * ((x + 0x1800000) & 0x7f800000) > 0x1ffffff (1/x normal, x finite),
 *   r = rcp(x); d = fma.rnd(r, -fma.rnd(x, r, -1), r)
 * (under .ftz the inner FFMA rounds to nearest), and a slow path for the
 * rest, one subroutine per rounding whose arms differ in a few words:
 *
 *   no .ftz (`__cuda_sm20_rcp_{rn,rd,ru,rz}_f32_slowpath`):
 *     x zero or subnormal: a zero gives rcp(x) (a signed infinity); .rm
 *       and .rp send 2x <= 0x400000 (1/x beyond the largest finite) to
 *       the largest finite of the sign that rounds toward zero, an
 *       infinity of the other; .rz the largest finite of x's sign; else
 *       the fast steps on x * 2^64 (the outer FFMA rounded), times 2^64;
 *     1/x below 2^-126 (x's biased exponent 0xfd or 0xfe): the reciprocal
 *       of x's significand rounded to a subnormal by hand (.rn: round bit
 *       and sticky or odd; .rm/.rp: any lost bit when the sign rounds
 *       away; .rz: truncated), the RM and RP steps telling inexactness;
 *     an infinity or NaN: rcp(x);
 *   .ftz (`__cuda_sm20_rcp_{rn,rd,ru,rz}_ftz_f32_slowpath`, the same for
 *     every rounding): zero and subnormal x, infinities and NaNs: rcp(x);
 *     1/x below 2^-126: a signed zero, but 2^-126 itself (x = 2^126).
 *
 * ptxas reaches the slow path with CAL and leaves it by RET; here it runs
 * inline behind branches with the same instructions and .nv.constant2
 * words in the same order, so every result is ptxas's bit for bit
 * (tests/sim/sim-diff.sh compares them on the simulator). */
#include "lower/lower_f32seq.h"

enum {
	RND_RN = 0,
	RCP_TINY_MAX = 0x400000,        /* 2x of the largest subnormal whose 1/x is finite */
	F32_MAX = 0x7f7fffff,
	RCP_FTZ_ZERO = 0x1800000,       /* (x + RCP_BIAS) & 0x7f800000 of a zero or subnormal x */
	RCP_FTZ_FE = 0x800000,          /* ... of x's biased exponent 0xfe */
};

/* n = -fma.rnd(x, r, -1): the residual of r = rcp(x) */
static void rcp_residual(LowerCtx *c, uint32_t n, uint32_t x, uint32_t r, unsigned rnd)
{
	uint32_t e = lw_temp(c, 1);
	fseq_ffma_const2(c, e, x, r, false, F32_MINUS_ONE);
	linsn_set(&c->k->insns[c->k->ninsns - 1], SR_RND, rnd);
	fseq_fneg_ftz(c, n, e);
}

/* r = rcp(x); d = fma.outer(r, -fma.inner(x, r, -1), r) */
static void rcp_steps(LowerCtx *c, uint32_t d, uint32_t x, unsigned inner, unsigned outer)
{
	uint32_t r = lw_temp(c, 1), n = lw_temp(c, 1);
	fseq_mufu(c, MUFU_RCP, r, x);
	rcp_residual(c, n, x, r, inner);
	fseq_ffma(c, d, r, n, false, (int)r, outer);
}

/* SHR.U32 d, a, b */
static void shr(LowerCtx *c, uint32_t d, uint32_t a, uint32_t b)
{
	LInsn *op = lw_op_def(c, SF_SHR_R, (int)d);
	lw_op_use(op, SR_RA, (int)a);
	lw_op_use(op, SR_RB, (int)b);
}

/* p = (a cmp 0) [and q], unsigned: ISETP.cmp.U32.AND p, PT, a, RZ, q */
static void isetp_u32_rz(LowerCtx *c, uint32_t p, uint32_t a, unsigned cmp, int q)
{
	fseq_isetp_rz(c, p, a, cmp, q);
	linsn_set(&c->k->insns[c->k->ninsns - 1], SR_SIGNED, 0);
}

/* res = rcp(x) and on to done when x is a zero (t = 2x); keeps the guard */
static void rcp_of_zero(LowerCtx *c, uint32_t res, uint32_t x, uint32_t t, int done)
{
	uint32_t p = lw_pred_temp(c);
	fseq_isetp_rz(c, p, t, CMP_NE, -1);
	lw_guard(c, (int)p, true);
	fseq_mufu(c, MUFU_RCP, res, x);
	lw_branch(c, (int)p, true, done);
}

/* .rm/.rp: a subnormal x whose 1/x overflows (2x <= RCP_TINY_MAX, zero
 * too): the largest finite of x's sign when that rounds toward zero, else
 * an infinity of x's sign; on to done. Otherwise on to scale. */
static void rcp_tiny_directed(LowerCtx *c, uint32_t res, uint32_t x, uint32_t t, unsigned rnd, int scale, int done)
{
	uint32_t p = lw_pred_temp(c), s = lw_temp(c, 1), q = lw_pred_temp(c);
	fseq_isetp_const2(c, p, t, CMP_GT, true, RCP_TINY_MAX);
	lw_branch(c, (int)p, false, scale);
	fseq_lop32i(c, s, x, F32_SIGN, LOP_AND);
	isetp_u32_rz(c, q, s, rnd == RND_RM ? CMP_EQ : CMP_NE, -1);
	fseq_isetp_rz(c, q, t, CMP_NE, (int)q);
	lw_guard(c, (int)q, false);
	if (rnd == RND_RM)
		lw_mov32i(c, res, 0, F32_MAX);
	else
		fseq_lop32i(c, res, s, F32_MAX, LOP_OR);
	lw_guard(c, (int)q, true);
	fseq_lop32i(c, res, s, F32_INF, LOP_OR);
	lw_branch(c, -1, false, done);
}

/* .rz: a zero gives rcp(x); a subnormal x whose 1/x overflows the largest
 * finite of x's sign; on to done. Otherwise on (to the scaling). */
static void rcp_tiny_rz(LowerCtx *c, uint32_t res, uint32_t x, uint32_t t, int done)
{
	uint32_t p = lw_pred_temp(c);
	rcp_of_zero(c, res, x, t, done);
	fseq_isetp_const2(c, p, t, CMP_GT, true, RCP_TINY_MAX);
	lw_guard(c, (int)p, true);
	fseq_lop32i(c, res, x, F32_SIGN, LOP_AND);
	fseq_lop32i(c, res, res, F32_MAX, LOP_OR);
	lw_branch(c, (int)p, true, done);
}

/* The reciprocal of a subnormal or zero x (biased exponent 0). */
static void rcp_tiny(LowerCtx *c, uint32_t res, uint32_t x, unsigned rnd, int done)
{
	uint32_t t = lw_temp(c, 1);
	fseq_alu_imm(c, SF_SHL_I, t, (int)x, 1);
	if (rnd == RND_RN) {
		rcp_of_zero(c, res, x, t, done);
	} else if (rnd == RND_RZ) {
		rcp_tiny_rz(c, res, x, t, done);
	} else {
		int scale = lw_label_new(c->k);
		rcp_tiny_directed(c, res, x, t, rnd, scale, done);
		lw_label_place(c->k, scale);
	}
	uint32_t y = lw_temp(c, 1), r = lw_temp(c, 1);
	fseq_ffma_2p64(c, y, x);
	rcp_steps(c, r, y, RND_RN, rnd);
	fseq_ffma_2p64(c, res, r);
	lw_branch(c, -1, false, done);
}

/* .rn: up = round bit and (sticky or odd); bits = mask & lh, mask =
 * 3 << k, lh the significand with its hidden bit, inexact 1 when the RM
 * and RP steps differ; q = lh >> sh shifted between. */
static uint32_t rcp_round_up_rn(LowerCtx *c, uint32_t k, uint32_t lh, uint32_t sh, uint32_t inexact, uint32_t bits,
                                uint32_t q, uint32_t m, uint32_t exact)
{
	uint32_t tail = lw_temp(c, 1);
	uint32_t p1 = lw_pred_temp(c), p2 = lw_pred_temp(c), p0 = lw_pred_temp(c), any = lw_pred_temp(c);
	uint32_t up = lw_pred_temp(c);
	fseq_lop3_nz(c, p1, inexact, k, lh, LOP3_OR_AND);   /* inexact | (k & significand) */
	shr(c, q, lh, sh);
	shr(c, tail, bits, k);
	fseq_lop_and_nz_imm(c, p2, tail, 2);
	fseq_lop_and_nz_imm(c, p0, tail, 1);
	fseq_psetp(c, any, p1, p2, false, BOP_OR);
	fseq_isetp_imm(c, exact, (int)m, CMP_EQ, false, 0, BOP_AND, -1);
	fseq_psetp(c, up, p0, any, false, BOP_AND);
	return up;
}

/* .rm/.rp: up = any lost bit, when x's sign rounds away from zero (.rm
 * negative, .rp positive); bits = mask & lh, mask = 1 << k. */
static uint32_t rcp_round_up_directed(LowerCtx *c, uint32_t x, uint32_t k, uint32_t lh, uint32_t sh,
                                      uint32_t inexact, uint32_t bits, uint32_t q, uint32_t m, uint32_t exact,
                                      unsigned rnd)
{
	uint32_t low = lw_temp(c, 1), s = lw_temp(c, 1), tail = lw_temp(c, 1);
	uint32_t up = lw_pred_temp(c);
	fseq_lop3(c, low, inexact, k, lh, LOP3_OR_AND);
	fseq_lop32i(c, s, x, F32_SIGN, LOP_AND);
	shr(c, q, lh, sh);
	shr(c, tail, bits, k);
	fseq_lop_nz(c, up, low, tail, LOP_OR, false);
	isetp_u32_rz(c, up, s, rnd == RND_RM ? CMP_NE : CMP_EQ, (int)up);
	fseq_isetp_imm(c, exact, (int)m, CMP_EQ, false, 0, BOP_AND, -1);
	return up;
}

/* 1/x below 2^-126: k = biased exponent - 0xfd (0 or 1); 1/x's
 * significand shifted into place, rounded by rnd. */
static void rcp_subnormal(LowerCtx *c, uint32_t res, uint32_t x, uint32_t ex, uint32_t k, unsigned rnd)
{
	uint32_t m = lw_temp(c, 1), one = 0, sh = lw_temp(c, 1), sig = lw_temp(c, 1);
	uint32_t mask = 0, r = lw_temp(c, 1), n = lw_temp(c, 1);
	bool rz = rnd == RND_RZ;
	if (!rz) {
		one = lw_temp(c, 1);
		mask = lw_temp(c, 1);
	}
	uint32_t lo = lw_temp(c, 1), lm = lw_temp(c, 1), lh = lw_temp(c, 1), q = lw_path_value(c);
	uint32_t exact = lw_pred_temp(c);
	fseq_lop32i(c, m, x, F32_MANT, LOP_AND);
	if (!rz)
		lw_mov32i(c, one, 0, rnd == RND_RN ? 3 : 1);
	fseq_alu_imm(c, SF_IADD32I, sh, (int)ex, (uint32_t)-RCP_SHIFT_BIAS);
	fseq_lop32i(c, sig, m, F32_ONE_EXP, LOP_OR);
	if (!rz) {
		LInsn *op = lw_op_def(c, SF_SHL_R, (int)mask);
		lw_op_use(op, SR_RA, (int)one);
		lw_op_use(op, SR_RB, (int)k);
	}
	fseq_mufu(c, MUFU_RCP, r, sig);
	rcp_residual(c, n, sig, r, rz ? RND_RZ : RND_RN);
	fseq_ffma(c, lo, r, n, false, (int)r, rz ? RND_RZ : RND_RM);
	if (rz) {
		fseq_lop32i(c, lm, lo, F32_MANT, LOP_AND);
		fseq_lop32i(c, lh, lm, F32_HIDDEN, LOP_OR);
		shr(c, q, lh, sh);
		fseq_isetp_imm(c, exact, (int)m, CMP_EQ, false, 0, BOP_AND, -1);
	} else {
		uint32_t hi = lw_temp(c, 1), ne = lw_temp(c, 1), inexact = lw_temp(c, 1), bits = lw_temp(c, 1);
		fseq_ffma(c, hi, r, n, false, (int)r, RND_RP);
		fseq_lop32i(c, lm, lo, F32_MANT, LOP_AND);
		LInsn *op = lw_op_def(c, SF_FSET_R, (int)ne);
		lw_op_use(op, SR_RA, (int)lo);
		lw_op_use(op, SR_RB, (int)hi);
		linsn_set(op, SR_CMP, CMP_NEU);
		linsn_set(op, SR_FTZ, 1);
		linsn_set(op, SR_PC, PT);
		fseq_lop32i(c, lh, lm, F32_HIDDEN, LOP_OR);
		fseq_iadd(c, inexact, (int)ne, -1, NEG_A);
		fseq_lop(c, bits, mask, lh, LOP_AND);
		int up = (int)(rnd == RND_RN ? rcp_round_up_rn(c, k, lh, sh, inexact, bits, q, m, exact)
		                         : rcp_round_up_directed(c, x, k, lh, sh, inexact, bits, q, m, exact, rnd));
		lw_guard(c, up, false);
		fseq_alu_imm(c, SF_IADD32I, q, (int)q, 1);
	}
	lw_guard(c, (int)exact, false);
	fseq_alu_imm(c, SF_SHL_I, q, (int)q, 1);
	lw_guard(c, -1, false);
	fseq_lop3_sign(c, res, q, x, LOP3_OR_AND);
}

static void rcp_slow(LowerCtx *c, uint32_t res, uint32_t x, unsigned rnd, int done)
{
	uint32_t t = lw_temp(c, 1), ex = lw_temp(c, 1), p = lw_pred_temp(c), k = lw_temp(c, 1), q = lw_pred_temp(c);
	fseq_alu_imm(c, SF_SHL_I, t, (int)x, 1);
	fseq_alu_imm(c, SF_SHR_I, ex, (int)t, 24);
	isetp_u32_rz(c, p, ex, CMP_NE, -1);
	int normal = lw_label_new(c->k);
	lw_branch(c, (int)p, false, normal);
	rcp_tiny(c, res, x, rnd, done);
	lw_label_place(c->k, normal);
	fseq_alu_imm(c, SF_IADD32I, k, (int)ex, (uint32_t)-RCP_SUBNORMAL_EXP);
	fseq_isetp_imm(c, q, (int)k, CMP_GT, false, 1, BOP_AND, -1);
	int other = lw_label_new(c->k);
	lw_branch(c, (int)q, false, other);
	rcp_subnormal(c, res, x, ex, k, rnd);
	lw_branch(c, -1, false, done);
	lw_label_place(c->k, other);
	fseq_mufu(c, MUFU_RCP, res, x);
}

/* The .ftz slow path (every rounding): e = (x + 0x1800000) & 0x7f800000 */
static void rcp_slow_ftz(LowerCtx *c, uint32_t res, uint32_t x, int done)
{
	uint32_t b = lw_temp(c, 1), e = lw_temp(c, 1), p = lw_pred_temp(c), fe = lw_temp(c, 1);
	uint32_t fd = lw_temp(c, 1), fen = lw_temp(c, 1), q = lw_pred_temp(c);
	fseq_alu_imm(c, SF_IADD32I, b, (int)x, RCP_BIAS);
	fseq_lop32i(c, e, b, F32_INF, LOP_AND);
	fseq_isetp_const2(c, p, e, CMP_NE, false, RCP_FTZ_ZERO);
	lw_guard(c, (int)p, true);
	fseq_mufu(c, MUFU_RCP, res, x);
	lw_branch(c, (int)p, true, done);
	fseq_iset(c, fe, e, RCP_FTZ_FE, CMP_EQ, false);
	fseq_icmp_imm(c, fd, -1, 1, e, CMP_NE, false);        /* exponent 0xfd: 1 */
	fseq_iadd(c, fen, (int)fe, -1, NEG_A);
	fseq_lop_nz(c, q, fd, fen, LOP_OR, false);
	int other = lw_label_new(c->k);
	lw_branch(c, (int)q, true, other);
	uint32_t m = lw_temp(c, 1), s = lw_temp(c, 1), mz = lw_temp(c, 1), mzn = lw_temp(c, 1);
	uint32_t pow2 = lw_pred_temp(c);
	fseq_lop32i(c, m, x, F32_MANT, LOP_AND);
	fseq_lop32i(c, s, x, F32_SIGN, LOP_AND);
	fseq_iset(c, mz, m, 0, CMP_EQ, false);
	fseq_iadd(c, mzn, (int)mz, -1, NEG_A);
	LInsn *op = lw_emit(c, SF_LOP_P_R);                    /* x = 2^126: 1/x = 2^-126 */
	lw_op_pred(op, SR_PD, (int)pow2, true);
	linsn_set(op, SR_RD, RZ);
	lw_op_use(op, SR_RA, (int)fd);
	lw_op_use(op, SR_RB, (int)mzn);
	linsn_set(op, SR_LOPOP, LOP_AND);
	linsn_set(op, SR_LOPTEST, LOPTEST_NZ);
	lw_guard(c, (int)pow2, false);
	fseq_lop32i(c, res, s, F32_HIDDEN, LOP_OR);
	lw_guard(c, (int)pow2, true);
	lw_mov(c, res, 0, s, 0);
	lw_branch(c, -1, false, done);
	lw_label_place(c->k, other);
	fseq_mufu(c, MUFU_RCP, res, x);
}

bool lower_rcp_f32(LowerCtx *c, const Instr *in)
{
	bool ftz = lw_has_mod(in, ".ftz");
	unsigned rnd;
	uint32_t d;
	unsigned dw;
	Opnd oa;
	if (!fseq_rounding(c, in, &rnd) || !lw_reg(c, in->ops[0], &d, &dw) || !lw_opnd(c, in->ops[1], &oa))
		return false;
	int done = lw_label_new(c->k);
	if (c->guard_vreg >= 0)
		lw_branch(c, c->guard_vreg, !c->guard_neg, done);
	uint32_t x = fseq_in_reg(c, &oa), res = lw_path_value(c);
	uint32_t b = lw_temp(c, 1), e = lw_temp(c, 1), p = lw_pred_temp(c);
	fseq_alu_imm(c, SF_IADD32I, b, (int)x, RCP_BIAS);
	fseq_lop32i(c, e, b, F32_INF, LOP_AND);
	fseq_isetp_const2(c, p, e, CMP_GT, false, RCP_FAST_MIN);
	int slow = lw_label_new(c->k), join = lw_label_new(c->k);
	lw_branch(c, (int)p, true, slow);
	rcp_steps(c, res, x, ftz ? RND_RN : rnd, rnd);
	lw_branch(c, -1, false, join);
	lw_label_place(c->k, slow);
	if (ftz)
		rcp_slow_ftz(c, res, x, join);
	else
		rcp_slow(c, res, x, rnd, join);
	lw_label_place(c->k, join);
	lw_mov(c, d, 0, res, 0);
	lw_label_place(c->k, done);
	return true;
}

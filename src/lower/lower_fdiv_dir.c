/* Lowering of the directed-rounding f32 division, div.rm/.rp/.rz[.ftz].f32,
 * as ptxas 11.8 writes it for sm_50: no fast path, the whole of
 * `__cuda_sm20_div_{rd,ru,rz}[_ftz]_f32` inline (ptxas CALs it):
 *
 *   a biased exponent 0 or 255 on either side (the special operands):
 *     a NaN: a + b; 0/0 and inf/inf: rsq(-NaN) (a NaN); x/inf and 0/y: a
 *     signed zero; inf/y and x/0: a signed infinity; otherwise (no .ftz)
 *     subnormal operands scaled by 2^64 and the bias s set;
 *   both brought to exponent 0, q = the quotient of three refinement
 *   steps, its last FFMA rounded in the instruction's mode; the exponent
 *   E = exp(q) + ea - eb (+ s) put back by ISCADD when 1 <= E <= 254;
 *   else, with the sign of q:
 *     overflow (E > 254): the largest finite when the rounding goes toward
 *       zero for that sign (.rz always, .rm positive, .rp negative), else
 *       an infinity;
 *     .ftz: a signed zero below the normal range;
 *     no .ftz, E < -24: zero, or the smallest subnormal when the rounding
 *       goes away from zero (.rm negative, .rp positive); .rz zero;
 *     no .ftz, in between: the significand of the RZ quotient shifted to
 *       a subnormal, one added when any bit is lost (the RM and RP
 *       quotients differ or the shift drops ones) and the rounding goes
 *       away from zero; .rz only shifts.
 *
 * Every instruction is ptxas's (registers aside), with the constants in
 * the same .nv.constant2 slots: the special operands' code is placed after
 * the main steps here (ptxas has the largest finite, read by the overflow
 * code, before the sign mask the special exits read). Where ptxas scales
 * the operands in place, here they are copied first. tests/sim/sim-diff.sh
 * compares the results with ptxas's code on the simulator. */
#include "lower/lower_f32seq.h"

enum {
	RND_RN = 0,
	F32_MAX = 0x7f7fffff,
	EXP_RANGE = 0xfd,               /* biased exponent - 1 above: not normal */
	EXP_TOO_BIG = 0xfe,
	SUBNORMAL_MIN_E = -0x18,        /* below: nothing of the quotient is left */
	F32_BIAS = 0x7f,
};

typedef struct {
	uint32_t res, a, b;     /* the result (a path value) and the operands */
	unsigned rnd;           /* RND_RM, RND_RP or RND_RZ */
	bool ftz;
	int done;
} DivDir;

/* SHR.U32 or SHL d, a, imm */
static void shift_imm(LowerCtx *c, SassFormId form, uint32_t d, uint32_t a, uint32_t imm)
{
	fseq_alu_imm(c, form, d, (int)a, imm);
}

/* ISETP.cmp.AND p, PT, a, imm (signed) */
static void isetp_s(LowerCtx *c, uint32_t p, uint32_t a, unsigned cmp, int32_t imm)
{
	fseq_isetp_imm(c, p, (int)a, cmp, true, imm, BOP_AND, -1);
}

/* FSET.cmp.FTZ.AND d, |a|, +INF, PT or (against_zero) d, a, RZ, PT */
static void fset(LowerCtx *c, uint32_t d, uint32_t a, unsigned cmp, bool against_zero)
{
	if (!against_zero) {
		fseq_fset_abs_inf(c, d, a, cmp);
		return;
	}
	LInsn *op = lw_op_def(c, SF_FSET_R, (int)d);
	lw_op_use(op, SR_RA, (int)a);
	linsn_set(op, SR_RB, RZ);
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_FTZ, 1);
	linsn_set(op, SR_PC, PT);
}

/* 1 when |a| is infinite (FSET.EQ + IADD -x, RZ) */
static uint32_t is_inf(LowerCtx *c, uint32_t a)
{
	uint32_t t = lw_temp(c, 1), n = lw_temp(c, 1);
	fset(c, t, a, CMP_EQ, false);
	fseq_iadd(c, n, (int)t, -1, NEG_A);
	return n;
}

/* 1 when a is a zero: under .ftz a zero or subnormal (FSET.EQ.FTZ a, RZ
 * negated), else 2a == 0 (ICMP.NE.U32 d, RZ, 0x1, 2a) */
static uint32_t is_zero(LowerCtx *c, const DivDir *v, uint32_t a)
{
	uint32_t t = lw_temp(c, 1), z = lw_temp(c, 1);
	if (v->ftz) {
		fset(c, t, a, CMP_EQ, true);
		fseq_iadd(c, z, (int)t, -1, NEG_A);
	} else {
		shift_imm(c, SF_SHL_I, t, a, 1);
		fseq_icmp_imm(c, z, -1, 1, t, CMP_NE, false);
	}
	return z;
}

/* The special operands: each exit writes res and goes to done; what is
 * left (no .ftz: subnormal operands) falls through. */
static void div_special(LowerCtx *c, const DivDir *v)
{
	uint32_t na = lw_temp(c, 1), nb = lw_temp(c, 1), p = lw_pred_temp(c);
	fset(c, na, v->a, CMP_GTU, false);
	fset(c, nb, v->b, CMP_GTU, false);
	fseq_lop_nz(c, p, na, nb, LOP_AND, true);
	lw_guard(c, (int)p, true);
	LInsn *add = lw_op_def(c, SF_FADD_R, (int)v->res);
	lw_op_use(add, SR_RA, (int)v->a);
	lw_op_use(add, SR_RB, (int)v->b);
	linsn_set(add, SR_FTZ, 1);
	lw_branch(c, (int)p, true, v->done);

	uint32_t za = is_zero(c, v, v->a), zb = is_zero(c, v, v->b), q = lw_pred_temp(c);
	int nan = lw_label_new(c->k), finite = lw_label_new(c->k);
	fseq_lop_nz(c, q, za, zb, LOP_AND, false);
	lw_branch(c, (int)q, false, nan);
	uint32_t fa = lw_temp(c, 1), fb = lw_temp(c, 1), f = lw_pred_temp(c);
	fset(c, fa, v->a, CMP_NEU, false);
	fset(c, fb, v->b, CMP_NEU, false);
	fseq_lop_nz(c, f, fa, fb, LOP_OR, false);
	lw_branch(c, (int)f, false, finite);
	lw_label_place(c->k, nan);
	lw_mov32i(c, v->res, 0, DIV_NAN_SEED);
	fseq_mufu(c, MUFU_RSQ, v->res, v->res);
	lw_branch(c, -1, false, v->done);

	lw_label_place(c->k, finite);
	for (int inf = 0; inf < 2; inf++) {     /* x/inf, 0/y: zero; inf/y, x/0: infinity */
		uint32_t i = is_inf(c, inf ? v->a : v->b), e = lw_pred_temp(c);
		fseq_lop_nz(c, e, i, inf ? zb : za, LOP_OR, false);
		lw_guard(c, (int)e, false);
		fseq_lop3_sign(c, v->res, v->b, v->a, LOP3_SIGN_XOR);
		if (inf)
			fseq_lop32i(c, v->res, v->res, F32_INF, LOP_OR);
		lw_branch(c, (int)e, false, v->done);
	}
}

/* No .ftz: subnormal operands scaled by 2^64 into a2, b2; s the bias. */
static void div_scale(LowerCtx *c, uint32_t a2, uint32_t b2, uint32_t s, uint32_t ea1, uint32_t eb1,
                      const DivDir *v, int main)
{
	uint32_t pa = lw_pred_temp(c), pb = lw_pred_temp(c);
	fseq_isetp_rz(c, pa, ea1, CMP_GE, -1);
	fseq_isetp_rz(c, pb, eb1, CMP_GE, -1);
	lw_guard(c, (int)pa, true);
	lw_mov32i(c, s, 0, EXP_SCALED);
	fseq_ffma_2p64(c, a2, v->a);
	lw_guard(c, (int)pa, false);
	lw_mov_rz(c, s, 0);
	lw_branch(c, (int)pb, false, main);
	fseq_ffma_2p64(c, b2, v->b);
	fseq_alu_imm(c, SF_IADD32I, s, (int)s, 64);
	lw_branch(c, -1, false, main);
}

/* q: the quotient of am and bm (exponent 0) in three steps, the last
 * rounded by rnd; r = rcp(bm), nb = -bm, e2 and q1 kept for the RZ/RP/RM
 * quotients of a subnormal result. */
typedef struct { uint32_t q, r, e2, q1; } Quot;

static Quot div_steps(LowerCtx *c, uint32_t am, uint32_t bm, unsigned rnd)
{
	Quot o = { lw_temp(c, 1), lw_temp(c, 1), lw_temp(c, 1), lw_temp(c, 1) };
	uint32_t nb = lw_temp(c, 1), q0 = lw_temp(c, 1), e1 = lw_temp(c, 1);
	fseq_mufu(c, MUFU_RCP, o.r, bm);
	fseq_fneg_ftz(c, nb, bm);
	fseq_ffma(c, q0, am, o.r, false, -1, RND_RN);
	fseq_ffma(c, e1, nb, q0, false, (int)am, RND_RN);
	fseq_ffma(c, o.q1, o.r, e1, false, (int)q0, RND_RN);
	fseq_ffma(c, o.e2, nb, o.q1, false, (int)am, RND_RN);
	fseq_ffma(c, o.q, o.r, o.e2, false, (int)o.q1, rnd);
	return o;
}

/* x - ((e - 127) << 23): x brought to exponent 0 */
static void to_exponent0(LowerCtx *c, uint32_t d, uint32_t x, uint32_t e)
{
	uint32_t u = lw_temp(c, 1);
	fseq_alu_imm(c, SF_IADD32I, u, (int)e, (uint32_t)-F32_BIAS);
	LInsn *op = lw_op_def(c, SF_ISCADD_R, (int)d);
	lw_op_use(op, SR_RA, (int)u);
	lw_op_use(op, SR_RB, (int)x);
	linsn_set(op, SR_NEG, NEG_A);
	linsn_set(op, SR_SHIFT, 23);
}

/* res = q with f added to its exponent (ISCADD f, q, 23), on to done when
 * E - 1 <= 0xfd; guarded by the range test */
static void normal_result(LowerCtx *c, const DivDir *v, uint32_t e, uint32_t q, int f_from_eq, uint32_t f)
{
	uint32_t e1 = lw_temp(c, 1), out = lw_pred_temp(c);
	fseq_alu_imm(c, SF_IADD32I, e1, (int)e, (uint32_t)-1);
	fseq_isetp_imm(c, out, (int)e1, CMP_GT, false, EXP_RANGE, BOP_AND, -1);
	lw_guard(c, (int)out, true);
	if (f_from_eq >= 0) {
		uint32_t g = lw_temp(c, 1);
		fseq_iadd(c, g, f_from_eq, (int)e, NEG_A);
		f = g;
	}
	fseq_put_exponent(c, v->res, f, q);
	lw_branch(c, (int)out, true, v->done);
}

/* .rm/.rp: the sign s rounds away from zero (.rm negative, .rp positive) */
static unsigned away_cmp(const DivDir *v)
{
	return v->rnd == RND_RM ? CMP_NE : CMP_EQ;
}

/* No .ftz, .rm/.rp: E outside 1..254; m the magnitude, res = s | m */
static void div_outside(LowerCtx *c, const DivDir *v, const Quot *o, uint32_t e)
{
	uint32_t big = lw_pred_temp(c), s = lw_temp(c, 1), m = lw_path_value(c), inf = lw_temp(c, 1);
	int out = lw_label_new(c->k);
	isetp_s(c, big, e, CMP_GT, EXP_TOO_BIG);
	fseq_lop32i(c, s, o->q, F32_SIGN, LOP_AND);
	lw_mov(c, m, 0, o->q, 0);
	lw_guard(c, (int)big, false);
	lw_mov32i(c, inf, 0, F32_INF);
	fseq_icmp_const2(c, m, inf, F32_MAX, s, away_cmp(v));
	lw_branch(c, (int)big, false, out);
	uint32_t pos = lw_pred_temp(c), some = lw_pred_temp(c);
	fseq_isetp_rz(c, pos, e, CMP_GT, -1);
	lw_branch(c, (int)pos, false, out);
	isetp_s(c, some, e, CMP_GE, SUBNORMAL_MIN_E);
	lw_guard(c, (int)some, true);
	fseq_iset(c, m, s, 0, away_cmp(v), true);
	fseq_iadd(c, m, (int)m, -1, NEG_A);
	lw_branch(c, (int)some, true, out);

	uint32_t one = lw_pred_temp(c), lo = lw_temp(c, 1), hi = lw_temp(c, 1), lm = lw_temp(c, 1);
	uint32_t ne = lw_temp(c, 1), sig = lw_path_value(c), inexact = lw_path_value(c);
	isetp_s(c, one, e, CMP_NE, 1);
	fseq_ffma(c, lo, o->r, o->e2, false, (int)o->q1, RND_RZ);
	fseq_ffma(c, hi, o->r, o->e2, false, (int)o->q1, v->rnd == RND_RM ? RND_RP : RND_RM);
	fseq_lop32i(c, lm, lo, F32_MANT, LOP_AND);
	LInsn *op = lw_op_def(c, SF_FSET_R, (int)ne);
	lw_op_use(op, SR_RA, (int)o->q);
	lw_op_use(op, SR_RB, (int)hi);
	linsn_set(op, SR_CMP, CMP_NEU);
	linsn_set(op, SR_FTZ, 1);
	linsn_set(op, SR_PC, PT);
	fseq_lop32i(c, sig, lm, F32_HIDDEN, LOP_OR);
	fseq_iadd(c, inexact, (int)ne, -1, NEG_A);
	int rounded = lw_label_new(c->k);
	lw_branch(c, (int)one, true, rounded);
	uint32_t sh1 = lw_temp(c, 1), sh2 = lw_temp(c, 1), lost = lw_temp(c, 1), z = lw_temp(c, 1);
	fseq_alu_imm(c, SF_IADD32I, sh1, (int)e, 0x1f);
	linsn_set(fseq_alu_imm(c, SF_IADD32I, sh2, (int)e, 1), SR_NEGA, 1);
	op = lw_op_def(c, SF_SHL_R, (int)lost);
	lw_op_use(op, SR_RA, (int)sig);
	lw_op_use(op, SR_RB, (int)sh1);
	op = lw_op_def(c, SF_SHR_R, (int)sig);
	lw_op_use(op, SR_RA, (int)sig);
	lw_op_use(op, SR_RB, (int)sh2);
	fseq_icmp_imm(c, z, -1, 1, lost, CMP_EQ, false);
	fseq_lop(c, inexact, inexact, z, LOP_OR);
	lw_label_place(c->k, rounded);
	uint32_t up = lw_pred_temp(c);
	fseq_isetp_rz(c, up, inexact, CMP_NE, -1);
	fseq_isetp_rz(c, up, s, away_cmp(v), (int)up);
	lw_mov(c, m, 0, sig, 0);
	lw_guard(c, (int)up, false);
	fseq_alu_imm(c, SF_IADD32I, m, (int)m, 1);
	lw_guard(c, -1, false);
	lw_label_place(c->k, out);
	fseq_lop(c, v->res, s, m, LOP_OR);
}

/* No .ftz, .rz: E outside 1..254; res = m | (q's sign) */
static void div_outside_rz(LowerCtx *c, const DivDir *v, const Quot *o, uint32_t e)
{
	uint32_t big = lw_pred_temp(c), m = lw_path_value(c);
	int out = lw_label_new(c->k);
	isetp_s(c, big, e, CMP_GT, EXP_TOO_BIG);
	lw_mov(c, m, 0, o->q, 0);
	lw_guard(c, (int)big, false);
	lw_mov32i(c, m, 0, F32_MAX);
	lw_branch(c, (int)big, false, out);
	uint32_t pos = lw_pred_temp(c), some = lw_pred_temp(c), lm = lw_temp(c, 1), sh = lw_temp(c, 1);
	fseq_isetp_rz(c, pos, e, CMP_GT, -1);
	lw_branch(c, (int)pos, false, out);
	isetp_s(c, some, e, CMP_GE, SUBNORMAL_MIN_E);
	lw_guard(c, (int)some, false);
	fseq_lop32i(c, lm, o->q, F32_MANT, LOP_AND);
	linsn_set(fseq_alu_imm(c, SF_IADD32I, sh, (int)e, 1), SR_NEGA, 1);
	lw_guard(c, (int)some, true);
	lw_mov_rz(c, m, 0);
	lw_guard(c, (int)some, false);
	fseq_lop32i(c, lm, lm, F32_HIDDEN, LOP_OR);
	LInsn *op = lw_op_def(c, SF_SHR_R, (int)m);
	lw_op_use(op, SR_RA, (int)lm);
	lw_op_use(op, SR_RB, (int)sh);
	lw_guard(c, -1, false);
	lw_label_place(c->k, out);
	fseq_lop3_sign(c, v->res, m, o->q, LOP3_OR_AND);
}

/* .ftz: E outside 1..254: overflow as above, a signed zero below */
static void div_outside_ftz(LowerCtx *c, const DivDir *v, uint32_t q, uint32_t e)
{
	uint32_t big = lw_pred_temp(c), m = lw_path_value(c), inf = lw_temp(c, 1);
	bool rz = v->rnd == RND_RZ;
	isetp_s(c, big, e, CMP_GT, EXP_TOO_BIG);
	if (!rz)
		fseq_lop32i(c, m, q, F32_SIGN, LOP_AND);
	lw_guard(c, (int)big, false);
	lw_mov32i(c, rz ? m : inf, 0, rz ? F32_MAX : F32_INF);
	lw_guard(c, (int)big, true);
	fseq_icmp(c, m, (int)q, -1, e, CMP_GT, true);     /* E > 0 ? q : 0 (a zero below) */
	if (!rz) {
		lw_guard(c, (int)big, false);
		fseq_icmp_const2(c, m, inf, F32_MAX, m, away_cmp(v));
	}
	lw_guard(c, -1, false);
	fseq_lop3_sign(c, v->res, m, q, LOP3_OR_AND);
}

static void div_dir(LowerCtx *c, const DivDir *v)
{
	uint32_t ta = lw_temp(c, 1), tb = lw_temp(c, 1), ea = lw_temp(c, 1), eb = lw_temp(c, 1);
	uint32_t ea1 = lw_temp(c, 1), eb1 = lw_temp(c, 1), p = lw_pred_temp(c);
	shift_imm(c, SF_SHL_I, ta, v->a, 1);
	shift_imm(c, SF_SHL_I, tb, v->b, 1);
	shift_imm(c, SF_SHR_I, ea, ta, 24);
	shift_imm(c, SF_SHR_I, eb, tb, 24);
	fseq_alu_imm(c, SF_IADD32I, ea1, (int)ea, (uint32_t)-1);
	fseq_alu_imm(c, SF_IADD32I, eb1, (int)eb, (uint32_t)-1);
	fseq_isetp_imm(c, p, (int)ea1, CMP_GT, false, EXP_RANGE, BOP_AND, -1);
	fseq_isetp_imm(c, p, (int)eb1, CMP_GT, false, EXP_RANGE, BOP_OR, (int)p);
	/* The special operands' code goes last: .nv.constant2 words are
	 * numbered by the first read in program order, and ptxas has the
	 * largest finite (read by the overflow code) before the sign mask
	 * (read first by the special exits). */
	int main = lw_label_new(c->k), special = lw_label_new(c->k);
	uint32_t a2 = v->a, b2 = v->b, s = 0;
	if (!v->ftz) {
		a2 = lw_path_value(c);
		b2 = lw_path_value(c);
		s = lw_path_value(c);
		lw_mov(c, a2, 0, v->a, 0);
		lw_mov(c, b2, 0, v->b, 0);
	}
	lw_branch(c, (int)p, false, special);
	if (!v->ftz)
		lw_mov_rz(c, s, 0);
	lw_label_place(c->k, main);
	uint32_t am = lw_temp(c, 1), bm = lw_temp(c, 1), tq = lw_temp(c, 1), e = lw_temp(c, 1);
	to_exponent0(c, bm, b2, eb);
	to_exponent0(c, am, a2, ea);
	Quot o = div_steps(c, am, bm, v->rnd);
	shift_imm(c, SF_SHL_I, tq, o.q, 1);
	if (v->ftz) {
		uint32_t d = lw_temp(c, 1);
		fseq_iadd(c, d, (int)ea, (int)eb, NEG_B);
		LInsn *op = lw_op_def(c, SF_LEA_HI_R, (int)e);  /* E = (2q >> 24) + ea - eb */
		linsn_set(op, SR_PD, PT);
		lw_op_use(op, SR_RA, (int)tq);
		lw_op_use(op, SR_RB, (int)d);
		linsn_set(op, SR_RC, RZ);
		linsn_set(op, SR_SHIFT, 8);
		normal_result(c, v, e, o.q, -1, d);
		div_outside_ftz(c, v, o.q, e);
	} else {
		uint32_t eq = lw_temp(c, 1), k = lw_temp(c, 1);
		shift_imm(c, SF_SHR_I, eq, tq, 24);
		LInsn *op = lw_op_def(c, SF_IADD3_R, (int)k);   /* exp(q) + ea - eb */
		lw_op_use(op, SR_RA, (int)eq);
		lw_op_use(op, SR_RB, (int)ea1);
		lw_op_use(op, SR_RC, (int)eb1);
		linsn_set(op, SR_NEGC, 1);
		fseq_iadd(c, e, (int)k, (int)s, 0);
		normal_result(c, v, e, o.q, (int)eq, 0);
		if (v->rnd == RND_RZ)
			div_outside_rz(c, v, &o, e);
		else
			div_outside(c, v, &o, e);
	}
	lw_branch(c, -1, false, v->done);
	lw_label_place(c->k, special);
	div_special(c, v);
	if (!v->ftz)
		div_scale(c, a2, b2, s, ea1, eb1, v, main);
	else
		lw_branch(c, -1, false, main);
}

bool lower_div_dir_f32(LowerCtx *c, const Instr *in)
{
	DivDir v = { .ftz = lw_has_mod(in, ".ftz") };
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		if (lw_streq(w, ".rm"))
			v.rnd = RND_RM;
		else if (lw_streq(w, ".rp"))
			v.rnd = RND_RP;
		else if (lw_streq(w, ".rz"))
			v.rnd = RND_RZ;
		else if (!lw_streq(w, ".ftz") && !lw_streq(w, ".f32"))
			return lw_unsupported(c, in->mod_locs[i], "div modifier '%s' (.rm, .rp or .rz [.ftz].f32 is supported)",
			                      w);
	}
	uint32_t d;
	unsigned dw;
	Opnd oa, ob;
	if (!lw_reg(c, in->ops[0], &d, &dw) || !lw_opnd(c, in->ops[1], &oa) || !lw_opnd(c, in->ops[2], &ob))
		return false;
	v.done = lw_label_new(c->k);
	int skip = lw_label_new(c->k);
	if (c->guard_vreg >= 0)
		lw_branch(c, c->guard_vreg, !c->guard_neg, skip);
	v.a = fseq_in_reg(c, &oa);
	v.b = fseq_in_reg(c, &ob);
	v.res = lw_path_value(c);
	div_dir(c, &v);
	lw_label_place(c->k, v.done);
	lw_mov(c, d, 0, v.res, 0);
	lw_label_place(c->k, skip);
	return true;
}

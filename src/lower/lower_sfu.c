/* Lowering of the special functions: sin, cos, ex2, lg2, rcp,
 * sqrt, rsqrt .approx and div.approx/.full .f32 through MUFU, with RRO's
 * range reduction before MUFU.SIN/COS/EX2, as ptxas 11.8 -O3 emits them
 * for sm_50. Without .ftz, ptxas scales denormal (and, for rcp and
 * div.full, huge) operands into range with FSETP-guarded FMULs and scales
 * the result back; those sequences are reproduced word for word:
 *   lg2:   x < 2^-126 in magnitude: lg2(x * 2^24) - 24
 *   ex2:   x < -126: ex2(x / 2)^2
 *   sqrt:  tiny x: 1 / rsq(x * 2^24) * 2^-12;  rsqrt: rsq(x * 2^24) * 2^12
 *   rcp:   s = 2^24 (tiny), 0.25 (|x| > 2^123) or 1 (from .nv.constant2):
 *          s * rcp(x * s)
 *   div:   b (and a) scaled by 2^24 when b is tiny (.full: by 0.25 when
 *          huge), then rcp(b) * a. */
#include "lower/lower_internal.h"

enum { MUFU_COS = 0, MUFU_SIN = 1, MUFU_EX2 = 2, MUFU_LG2 = 3, MUFU_RCP = 4, MUFU_RSQ = 5 };
enum { RRO_SINCOS = 0, RRO_EX2 = 1 };
enum { CMP_GT = 4, CMP_GEU = 14 };

/* f32 bit patterns of the scale constants */
enum {
	F32_TINY = 0x00800000,      /* 2^-126, the smallest normal */
	F32_HUGE = 0x7e800000,      /* 2^126 * 1.0 (ptxas: 8.50705917e+37) */
	F32_MINUS_126 = 0xc2fc0000,
	F32_HALF = 0x3f000000,
	F32_QUARTER = 0x3e800000,
	F32_ONE = 0x3f800000,
	F32_2P24 = 0x4b800000,
	F32_2P12 = 0x45800000,
	F32_2PM12 = 0x39800000,
	F32_MINUS_24 = 0xc1c00000,
};

/* ---- small emitters ---- */

static LInsn *mufu(LowerCtx *c, unsigned fn, uint32_t d, uint32_t a)
{
	LInsn *op = lw_emit(c, SF_MUFU);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RA, a, 0, 1, false);
	linsn_set(op, SR_MUFUOP, fn);
	return op;
}

/* A register holding o: a parameter word or immediate is moved in. */
static uint32_t in_reg(LowerCtx *c, const Opnd *o)
{
	uint32_t v;
	unsigned s;
	lw_opnd_part(c, o, 0, &v, &s);
	return v;
}

/* A float immediate operand goes to a register first (lw_alu's 20-bit
 * immediate is an integer's, not the top bits of a float's). */
static void float_imm_to_reg(LowerCtx *c, Opnd *o)
{
	if (o->kind == OPND_IMM)
		*o = (Opnd){ OPND_REG, in_reg(c, o), 1, 0 };
}

/* d = o (a register copy, or MOV from c[0x0] for a parameter word). */
static void copy_opnd(LowerCtx *c, uint32_t d, const Opnd *o)
{
	int64_t cword = o->kind == OPND_REG ? lw_vreg_cword(c, o->vreg) : -1;
	if (cword < 0) {
		lw_mov(c, d, 0, in_reg(c, o), 0);
		return;
	}
	LInsn *op = lw_emit(c, SF_MOV_C);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_set(op, SR_CBANK, 0);
	linsn_set(op, SR_COFF, cword / 4);
}

/* RRO.op d, a: a parameter word from c[0x0] */
static void rro(LowerCtx *c, uint32_t d, const Opnd *a, unsigned mode)
{
	int64_t cword = a->kind == OPND_REG ? lw_vreg_cword(c, a->vreg) : -1;
	uint32_t av = cword < 0 ? in_reg(c, a) : 0;
	LInsn *op = lw_emit(c, cword >= 0 ? SF_RRO_C : SF_RRO_R);
	if (cword >= 0) {
		linsn_set(op, SR_CBANK, 0);
		linsn_set(op, SR_COFF, cword / 4);
	} else {
		linsn_ref(op, SR_RB, av, 0, 1, false);
	}
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_set(op, SR_RROOP, mode);
}

/* FSETP.cmp.AND p, PT, [|]a[|], imm, PT */
static LInsn *fsetp_imm(LowerCtx *c, uint32_t p, uint32_t a, bool abs, unsigned cmp, uint32_t bits)
{
	LInsn *op = lw_emit(c, SF_FSETP_I);
	linsn_ref(op, SR_PD, p, 0, 1, true);
	linsn_set(op, SR_PQ, 7);
	linsn_ref(op, SR_RA, a, 0, 1, false);
	linsn_set(op, SR_ABSA, abs);
	linsn_set(op, SR_IMM, bits >> 12);
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_PC, 7);
	return op;
}

/* FMUL d, a, imm (the f32 `bits` has its low 12 bits zero) */
static LInsn *fmul_imm(LowerCtx *c, uint32_t d, uint32_t a, uint32_t bits)
{
	LInsn *op = lw_emit(c, SF_FMUL_I);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RA, a, 0, 1, false);
	linsn_set(op, SR_IMM, bits >> 12);
	return op;
}

/* The next instructions run under [!]p (the caller restores no guard). */
static void guard(LowerCtx *c, uint32_t p, bool negated)
{
	c->guard_vreg = (int)p;
	c->guard_neg = negated;
}

static void unguard(LowerCtx *c)
{
	c->guard_vreg = -1;
	c->guard_neg = false;
}

static uint32_t pred_temp(LowerCtx *c)
{
	return lkernel_new_vreg(c->k, LRC_PRED, 1, true);
}

/* A temporary defined more than once (under guards): not a temporary in
 * the liveness sense (see lower_selp). */
static uint32_t multi_def_temp(LowerCtx *c)
{
	uint32_t t = lw_temp(c, 1);
	c->k->vregs[t].temp = false;
	return t;
}

/* ---- the handlers ---- */

static bool f32_only(LowerCtx *c, const Instr *in, bool *ftz)
{
	*ftz = false;
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		if (lw_streq(w, ".ftz"))
			*ftz = true;
		else if (!lw_streq(w, ".approx") && !lw_streq(w, ".f32") && !lw_streq(w, ".full"))
			return lw_unsupported(c, in->mod_locs[i], "%s modifier '%s'", in->opcode, w);
	}
	if (!lw_has_mod(in, ".f32") || !(lw_has_mod(in, ".approx") || lw_has_mod(in, ".full")))
		return lw_unsupported(c, in->loc, "this %s form (.approx .f32 is supported)", in->opcode);
	return true;
}

static bool scaled_needs_unguarded(LowerCtx *c, const Instr *in, bool ftz)
{
	if (!ftz && c->guard_vreg >= 0)
		return lw_unsupported(c, in->loc, "a guarded %s without .ftz", in->opcode);
	return true;
}

/* rcp.approx.f32 d, a without .ftz (av: a in a register; p: a new
 * predicate): a tiny |a| is scaled by 2^24, a huge one by 0.25 (SELs of
 * the .nv.constant2 words 1.0 and 0.25), MUFU.RCP of a * s, times s. */
static void rcp_scaled(LowerCtx *c, uint32_t d, uint32_t p, const Opnd *a, uint32_t av)
{
	uint32_t q = pred_temp(c), k = lw_temp(c, 1), s = lw_temp(c, 1), x = lw_temp(c, 1);
	lw_mov32i(c, k, 0, F32_2P24);
	fsetp_imm(c, p, av, true, CMP_GEU, F32_TINY);
	fsetp_imm(c, q, av, true, CMP_GT, F32_HUGE);
	LInsn *s1 = lw_emit(c, SF_SEL_C);
	linsn_ref(s1, SR_RD, k, 0, 1, true);
	linsn_ref(s1, SR_RA, k, 0, 1, false);
	linsn_set(s1, SR_CBANK, LK_CONST2_BANK);
	linsn_set(s1, SR_COFF, lkernel_const2_slot(c->k, F32_ONE) / 4);
	linsn_ref(s1, SR_PC, p, 0, 1, false);
	linsn_set(s1, SR_PC_NOT, 1);
	c->k->vregs[k].temp = false;
	LInsn *s2 = lw_emit(c, SF_SEL_C);
	linsn_ref(s2, SR_RD, s, 0, 1, true);
	linsn_ref(s2, SR_RA, k, 0, 1, false);
	linsn_set(s2, SR_CBANK, LK_CONST2_BANK);
	linsn_set(s2, SR_COFF, lkernel_const2_slot(c->k, F32_QUARTER) / 4);
	linsn_ref(s2, SR_PC, q, 0, 1, false);
	linsn_set(s2, SR_PC_NOT, 1);
	lw_alu(c, SASS_ALU_FORMS(FMUL), x, 0, s, 0, a, 0);
	mufu(c, MUFU_RCP, x, x);
	c->k->vregs[x].temp = false;
	LInsn *r = lw_emit(c, SF_FMUL_R);
	linsn_ref(r, SR_RD, d, 0, 1, true);
	linsn_ref(r, SR_RA, s, 0, 1, false);
	linsn_ref(r, SR_RB, x, 0, 1, false);
}

void lw_rcp_approx_f32(LowerCtx *c, uint32_t d, uint32_t a)
{
	rcp_scaled(c, d, pred_temp(c), &(Opnd){ OPND_REG, a, 1, 0 }, a);
}

/* sin/cos/ex2/lg2/rcp/sqrt/rsqrt .approx{.ftz}.f32 d, a */
bool lower_sfu(LowerCtx *c, const Instr *in)
{
	bool ftz;
	uint32_t d;
	unsigned dw;
	Opnd a;
	if (!f32_only(c, in, &ftz) || !scaled_needs_unguarded(c, in, ftz) || !lw_reg(c, in->ops[0], &d, &dw) ||
	    !lw_opnd(c, in->ops[1], &a))
		return false;
	float_imm_to_reg(c, &a);
	const char *op = in->opcode;
	bool sincos = lw_streq(op, "sin") || lw_streq(op, "cos");
	if (sincos || (lw_streq(op, "ex2") && ftz)) {
		uint32_t t = lw_temp(c, 1);
		rro(c, t, &a, sincos ? RRO_SINCOS : RRO_EX2);
		mufu(c, lw_streq(op, "sin") ? MUFU_SIN : lw_streq(op, "cos") ? MUFU_COS : MUFU_EX2, d, t);
		return true;
	}
	uint32_t av = in_reg(c, &a);
	unsigned fn = lw_streq(op, "lg2") ? MUFU_LG2 : lw_streq(op, "rcp") ? MUFU_RCP : MUFU_RSQ;
	if (ftz) {
		if (lw_streq(op, "sqrt")) {
			uint32_t t = lw_temp(c, 1);
			mufu(c, MUFU_RSQ, t, av);
			mufu(c, MUFU_RCP, d, t);
		} else {
			mufu(c, fn, d, av);
		}
		return true;
	}
	uint32_t p = pred_temp(c);
	if (lw_streq(op, "ex2")) {
		fsetp_imm(c, p, av, false, CMP_GEU, F32_MINUS_126);
		uint32_t h = lw_temp(c, 1), x = lw_temp(c, 1), t = lw_temp(c, 1);
		fmul_imm(c, h, av, F32_HALF);
		LInsn *sel = lw_alu(c, SASS_ALU_FORMS(SEL), x, 0, h, 0, &a, 0);
		linsn_ref(sel, SR_PC, p, 0, 1, false);
		linsn_set(sel, SR_PC_NOT, 1);
		rro(c, t, &(Opnd){ OPND_REG, x, 1, 0 }, RRO_EX2);
		mufu(c, MUFU_EX2, d, t);
		guard(c, p, true);
		LInsn *sq = lw_emit(c, SF_FMUL_R);
		linsn_ref(sq, SR_RD, d, 0, 1, true);
		linsn_ref(sq, SR_RA, d, 0, 1, false);
		linsn_ref(sq, SR_RB, d, 0, 1, false);
		unguard(c);
		return true;
	}
	if (lw_streq(op, "lg2")) {
		fsetp_imm(c, p, av, true, CMP_GEU, F32_TINY);
		uint32_t s = lw_temp(c, 1), x = lw_temp(c, 1);
		fmul_imm(c, s, av, F32_2P24);
		LInsn *sel = lw_alu(c, SASS_ALU_FORMS(SEL), x, 0, s, 0, &a, 0);
		linsn_ref(sel, SR_PC, p, 0, 1, false);
		linsn_set(sel, SR_PC_NOT, 1);
		mufu(c, MUFU_LG2, d, x);
		guard(c, p, true);
		LInsn *fix = lw_emit(c, SF_FADD_I);
		linsn_ref(fix, SR_RD, d, 0, 1, true);
		linsn_ref(fix, SR_RA, d, 0, 1, false);
		linsn_set(fix, SR_IMM, F32_MINUS_24 >> 12);
		unguard(c);
		return true;
	}
	if (lw_streq(op, "rcp")) {
		rcp_scaled(c, d, p, &a, av);
		return true;
	}
	/* sqrt and rsqrt: a tiny x is scaled by 2^24 first */
	bool is_sqrt = lw_streq(op, "sqrt");
	fsetp_imm(c, p, av, true, CMP_GEU, F32_TINY);
	uint32_t x = multi_def_temp(c);
	copy_opnd(c, x, &a);
	guard(c, p, true);
	fmul_imm(c, x, x, F32_2P24);
	unguard(c);
	if (is_sqrt) {
		uint32_t t = lw_temp(c, 1);
		mufu(c, MUFU_RSQ, t, x);
		mufu(c, MUFU_RCP, d, t);
	} else {
		mufu(c, MUFU_RSQ, d, x);
	}
	guard(c, p, true);
	fmul_imm(c, d, d, is_sqrt ? F32_2PM12 : F32_2P12);
	unguard(c);
	return true;
}

/* The tail of the f32 divisions: d = rcp(x) * y, with FMUL.FMZ under .ftz. */
static void rcp_times(LowerCtx *c, uint32_t d, uint32_t x, uint32_t y, bool ftz)
{
	uint32_t t = lw_temp(c, 1);
	mufu(c, MUFU_RCP, t, x);
	LInsn *m = lw_emit(c, SF_FMUL_R);
	linsn_ref(m, SR_RD, d, 0, 1, true);
	linsn_ref(m, SR_RA, t, 0, 1, false);
	linsn_ref(m, SR_RB, y, 0, 1, false);
	if (ftz)
		linsn_set(m, SR_FMZ, 1);
}

/* div.full.ftz.f32 d, a, b: as div.full.f32 without the scaling of a
 * tiny b (flushed to zero anyway), every step .FTZ (ptxas 11.8) */
static void fdiv_full_ftz(LowerCtx *c, uint32_t d, const Opnd *a, const Opnd *b)
{
	uint32_t x = multi_def_temp(c), y = multi_def_temp(c), q = pred_temp(c);
	copy_opnd(c, x, b);
	copy_opnd(c, y, a);
	linsn_set(fsetp_imm(c, q, x, true, CMP_GT, F32_HUGE), SR_FTZ, 1);
	guard(c, q, false);
	linsn_set(fmul_imm(c, x, x, F32_QUARTER), SR_FMZ, 1);
	linsn_set(fmul_imm(c, y, y, F32_QUARTER), SR_FMZ, 1);
	unguard(c);
	rcp_times(c, d, x, y, true);
}

/* div.approx{.ftz}.f32 and div.full{.ftz}.f32 d, a, b */
bool lower_fdiv(LowerCtx *c, const Instr *in)
{
	bool ftz;
	uint32_t d;
	unsigned dw;
	Opnd a, b;
	bool full = lw_has_mod(in, ".full");
	if (!f32_only(c, in, &ftz))
		return false;
	if (!scaled_needs_unguarded(c, in, ftz) || !lw_reg(c, in->ops[0], &d, &dw) || !lw_opnd(c, in->ops[1], &a) ||
	    !lw_opnd(c, in->ops[2], &b))
		return false;
	float_imm_to_reg(c, &a);
	float_imm_to_reg(c, &b);
	if (full && ftz) {
		fdiv_full_ftz(c, d, &a, &b);
		return true;
	}
	if (ftz) {
		uint32_t t = lw_temp(c, 1);
		mufu(c, MUFU_RCP, t, in_reg(c, &b));
		LInsn *m = lw_alu(c, SASS_ALU_FORMS(FMUL), d, 0, t, 0, &a, 0);
		linsn_set(m, SR_FMZ, 1);
		return true;
	}
	uint32_t x = multi_def_temp(c), y = multi_def_temp(c);
	copy_opnd(c, x, &b);
	copy_opnd(c, y, &a);
	uint32_t p = pred_temp(c);
	if (full) {
		uint32_t q = pred_temp(c);
		fsetp_imm(c, q, x, true, CMP_GT, F32_HUGE);
		fsetp_imm(c, p, x, true, CMP_GEU, F32_TINY);
		guard(c, q, false);
		fmul_imm(c, x, x, F32_QUARTER);
		fmul_imm(c, y, y, F32_QUARTER);
	} else {
		fsetp_imm(c, p, x, true, CMP_GEU, F32_TINY);
	}
	guard(c, p, true);
	fmul_imm(c, x, x, F32_2P24);
	fmul_imm(c, y, y, F32_2P24);
	unguard(c);
	rcp_times(c, d, x, y, false);
	return true;
}

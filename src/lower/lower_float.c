/* Lowering of single-precision float arithmetic: add/sub/mul -> FADD/FMUL,
 * fma -> FFMA, neg/abs -> FADD with -RZ, min/max -> FMNMX (and IMNMX for
 * 32-bit integers). Operand choices follow ptxas 11.8 -O3 for sm_50: a
 * float immediate whose low 12 bits are zero goes in the 20-bit field, one
 * that needs all 32 bits in FADD32I/FMUL32I; zero is RZ. Where ptxas puts a
 * 32-bit immediate in its .nv.constant2 literal pool (with a rounding mode
 * or .sat, and for FFMA) it is moved into a register with MOV32I instead. */
#include "lower/lower_internal.h"

#include <stdio.h>
#include <string.h>

enum { RND_RN = 0, RND_RM = 1, RND_RP = 2, RND_RZ = 3 };

typedef struct FpMods {
	unsigned rnd;
	bool has_rnd;           /* a rounding word was given (.rn is rnd 0 too) */
	bool ftz, sat;
} FpMods;

/* The modifiers of an .f32 instruction: rounding (when rnd_ok), .ftz and
 * (when sat_ok) .sat; anything else is diagnosed. */
static bool fp_mods(LowerCtx *c, const Instr *in, bool rnd_ok, bool sat_ok, FpMods *m)
{
	static const struct { const char *word; unsigned rnd; } rnds[] = {
		{ ".rn", RND_RN }, { ".rm", RND_RM }, { ".rp", RND_RP }, { ".rz", RND_RZ },
	};
	memset(m, 0, sizeof *m);
	PtxTy t = lw_instr_type(in);
	if (!t.is_float || t.bits != 32)
		return lw_unsupported(c, in->loc, "%s.%c%u (float arithmetic is supported for .f32 only)", in->opcode,
		                      t.is_float ? 'f' : t.is_signed ? 's' : 'u', t.bits);
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		bool known = lw_streq(w, ".f32");
		for (size_t j = 0; j < sizeof rnds / sizeof rnds[0] && rnd_ok; j++)
			if (lw_streq(w, rnds[j].word)) {
				m->rnd = rnds[j].rnd;
				m->has_rnd = true;
				known = true;
			}
		if (lw_streq(w, ".ftz"))
			known = m->ftz = true;
		else if (sat_ok && lw_streq(w, ".sat"))
			known = m->sat = true;
		if (!known)
			return lw_unsupported(c, in->mod_locs[i], "%s.f32 modifier '%s'", in->opcode, w);
	}
	return true;
}

/* A register or a 0f single-precision literal (its bits in imm). */
static bool fp_opnd(LowerCtx *c, const Expr *e, Opnd *o)
{
	if (e->kind == EX_FLOAT && e->text && (e->text[1] == 'f' || e->text[1] == 'F'))
		return lw_opnd(c, e, o);
	if (e->kind == EX_FLOAT || e->kind == EX_INT)
		return lw_unsupported(c, e->loc, "this float operand (registers and 0f single-precision literals "
		                      "are supported)");
	o->kind = OPND_REG;
	return lw_reg(c, e, &o->vreg, &o->width);
}

static bool fp_operands(LowerCtx *c, const Instr *in, unsigned n, uint32_t *d, Opnd *ops)
{
	unsigned dw;
	if (!lw_reg(c, in->ops[0], d, &dw))
		return false;
	for (unsigned i = 0; i < n; i++)
		if (!fp_opnd(c, in->ops[1 + i], &ops[i]))
			return false;
	return true;
}

/* A register holding o (an immediate is moved into a temporary). */
static uint32_t fp_reg(LowerCtx *c, const Opnd *o)
{
	uint32_t v;
	unsigned s;
	lw_opnd_part(c, o, 0, &v, &s);
	return v;
}

/* One of `forms` (_R/_C/_I): d = a op b. B is a register (its parameter
 * word when it only ever holds one, as lw_alu reads it), RZ for +0.0, the
 * 20-bit immediate, `form32` (FADD32I, FMUL32I) for other immediates when
 * the family has one (SF_COUNT: none), else a register loaded with MOV32I.
 * d may be LW_NO_DST (FSETP). */
static LInsn *fp_alu(LowerCtx *c, SassAluForms forms, SassFormId form32, uint32_t d, uint32_t a, const Opnd *b)
{
	uint32_t bits = (uint32_t)b->imm;
	LInsn *in;
	if (b->kind == OPND_REG)
		return lw_alu(c, forms, d, 0, a, 0, b, 0);
	if (bits != 0 && (bits & 0xfff) == 0) {
		in = lw_emit(c, forms.i);
		linsn_set(in, SR_IMM, bits >> 12);
	} else if (bits != 0 && form32 != SF_COUNT) {
		in = lw_emit(c, form32);
		linsn_set(in, SR_IMM, bits);
	} else {
		uint32_t t = bits == 0 ? 0 : fp_reg(c, b);
		in = lw_emit(c, forms.r);
		if (bits == 0)
			linsn_set(in, SR_RB, 255);
		else
			linsn_ref(in, SR_RB, t, 0, 1, false);
	}
	if (d != LW_NO_DST)
		linsn_ref(in, SR_RD, d, 0, 1, true);
	linsn_ref(in, SR_RA, a, 0, 1, false);
	return in;
}

/* Orders the operands of a commutative operation as ptxas does: an
 * immediate, else a register that only holds a parameter (read as
 * c[0x0][...]), goes second, where SASS takes it. */
static bool commute_operands(LowerCtx *c, Opnd *a, Opnd *b)
{
	bool a_param = a->kind == OPND_REG && lw_vreg_cword(c, a->vreg) >= 0;
	bool b_param = b->kind == OPND_REG && lw_vreg_cword(c, b->vreg) >= 0;
	if ((a->kind == OPND_IMM && b->kind == OPND_REG) || (a_param && b->kind == OPND_REG && !b_param)) {
		Opnd x = *a;
		*a = *b;
		*b = x;
		return true;
	}
	return false;
}

/* FADD d, a, -RZ: a unchanged (adding -0.0 keeps every value, -0.0 and
 * NaN included), for the caller's modifiers on a or the result (.FTZ:
 * a subnormal a flushed to a zero of its sign). */
LInsn *lw_fadd_minus_rz(LowerCtx *c, uint32_t d, uint32_t a, bool ftz)
{
	LInsn *op = lw_emit(c, SF_FADD_R);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RA, a, 0, 1, false);
	linsn_set(op, SR_RB, 255);
	linsn_set(op, SR_NEGB, 1);
	linsn_set(op, SR_FTZ, ftz);
	return op;
}

/* add/sub.f32: FADD d, a, -b (the sign of an immediate b flipped instead);
 * an immediate a of sub becomes FADD d, -b, a. */
bool lower_fadd(LowerCtx *c, const Instr *in)
{
	FpMods m;
	uint32_t d;
	Opnd o[2];
	if (!fp_mods(c, in, true, true, &m) || !fp_operands(c, in, 2, &d, o))
		return false;
	/* a - b is a + (-b), an immediate b's sign flipped in place; the
	 * negation then follows its operand when the two are swapped */
	bool nega = false, negb = false;
	if (lw_streq(in->opcode, "sub") && o[1].kind == OPND_IMM)
		o[1].imm = (int64_t)((uint32_t)o[1].imm ^ 0x80000000u);
	else if (lw_streq(in->opcode, "sub"))
		negb = true;
	if (commute_operands(c, &o[0], &o[1])) {
		nega = negb;
		negb = false;
	}
	/* ptxas 11.8 never rounds and saturates in one FADD: it rounds into a
	 * temporary and saturates with a second FADD.SAT t, -RZ */
	bool split_sat = m.sat && m.rnd != RND_RN;
	uint32_t dst = split_sat ? lw_temp(c, 1) : d;
	/* FADD32I has neither a rounding mode nor .sat */
	bool use32 = m.rnd == RND_RN && !m.sat;
	LInsn *op = fp_alu(c, SASS_ALU_FORMS(FADD), use32 ? SF_FADD32I : SF_COUNT, dst, fp_reg(c, &o[0]), &o[1]);
	linsn_set(op, SR_NEGA, nega);
	linsn_set(op, SR_NEGB, negb);
	linsn_set(op, SR_FTZ, m.ftz);
	if (op->form->op == SOP_FADD) {
		linsn_set(op, SR_RND, m.rnd);
		linsn_set(op, SR_SAT, m.sat && !split_sat);
	}
	if (split_sat)
		linsn_set(lw_fadd_minus_rz(c, d, dst, m.ftz), SR_SAT, 1);
	return true;
}

bool lower_fmul(LowerCtx *c, const Instr *in)
{
	FpMods m;
	uint32_t d;
	Opnd o[2];
	if (!fp_mods(c, in, true, true, &m) || !fp_operands(c, in, 2, &d, o))
		return false;
	commute_operands(c, &o[0], &o[1]);
	LInsn *op = fp_alu(c, SASS_ALU_FORMS(FMUL), m.rnd == RND_RN ? SF_FMUL32I : SF_COUNT, d, fp_reg(c, &o[0]), &o[1]);
	linsn_set(op, SR_FMZ, m.ftz);   /* 1 = .FTZ */
	linsn_set(op, SR_SAT, m.sat);
	if (op->form->op == SOP_FMUL)
		linsn_set(op, SR_RND, m.rnd);
	return true;
}

/* fma.rnd.f32 d, a, b, c: FFMA with b as register, parameter constant or
 * 20-bit immediate; c a register, or the parameter constant (FFMA_RC) when
 * b is a plain register. */
bool lower_ffma(LowerCtx *c, const Instr *in)
{
	FpMods m;
	uint32_t d;
	Opnd o[3];
	if (!fp_mods(c, in, true, true, &m) || !fp_operands(c, in, 3, &d, o))
		return false;
	/* mad.f32 without one is the old mad of sm_1x targets (the checker
	 * lets it through where ptxas 13 does): ptxas 11.8 writes FFMA */
	if (!m.has_rnd && strcmp(in->opcode, "mad") != 0)
		return lw_unsupported(c, in->loc, "fma.f32 without a rounding modifier");
	commute_operands(c, &o[0], &o[1]);
	uint32_t a = fp_reg(c, &o[0]);
	int64_t ccword = o[2].kind == OPND_REG ? lw_vreg_cword(c, o[2].vreg) : -1;
	bool b_plain = o[1].kind == OPND_REG && lw_vreg_cword(c, o[1].vreg) < 0;
	LInsn *op;
	if (ccword >= 0 && b_plain) {
		op = lw_emit(c, SF_FFMA_RC);
		linsn_ref(op, SR_RD, d, 0, 1, true);
		linsn_ref(op, SR_RA, a, 0, 1, false);
		linsn_ref(op, SR_RB, o[1].vreg, 0, 1, false);
		linsn_set(op, SR_CBANK, 0);
		linsn_set(op, SR_COFF, ccword / 4);
	} else {
		uint32_t cv = fp_reg(c, &o[2]);
		op = fp_alu(c, SASS_ALU_FORMS(FFMA), SF_COUNT, d, a, &o[1]);
		linsn_ref(op, SR_RC, cv, 0, 1, false);
	}
	linsn_set(op, SR_FMZ, m.ftz);
	linsn_set(op, SR_RND, m.rnd);
	linsn_set(op, SR_SAT, m.sat);
	return true;
}

/* neg.f32 d, a = FADD d, -a, -RZ; abs.f32 d, a = FADD d, |a|, -RZ (as
 * ptxas). */
bool lower_fneg_abs(LowerCtx *c, const Instr *in)
{
	FpMods m;
	uint32_t d;
	Opnd a;
	if (!fp_mods(c, in, false, false, &m) || !fp_operands(c, in, 1, &d, &a))
		return false;
	LInsn *op = lw_fadd_minus_rz(c, d, fp_reg(c, &a), m.ftz);
	linsn_set(op, lw_streq(in->opcode, "neg") ? SR_NEGA : SR_ABSA, 1);
	return true;
}

/* min/max: FMNMX for .f32, IMNMX for 16- and 32-bit integers; the predicate
 * operand picks the minimum when true (PT) and the maximum when false. */
bool lower_minmax(LowerCtx *c, const Instr *in)
{
	bool is_max = lw_streq(in->opcode, "max");
	PtxTy t = lw_instr_type(in);
	uint32_t d;
	Opnd o[2];
	LInsn *op;
	if (t.is_float) {
		FpMods m;
		if (!fp_mods(c, in, false, false, &m) || !fp_operands(c, in, 2, &d, o))
			return false;
		commute_operands(c, &o[0], &o[1]);
		op = fp_alu(c, SASS_ALU_FORMS(FMNMX), SF_COUNT, d, fp_reg(c, &o[0]), &o[1]);
		linsn_set(op, SR_FTZ, m.ftz);
	} else {
		if ((t.bits != 32 && t.bits != 16) || in->nmods != 1)
			return lw_unsupported(c, in->loc, "%s on this type (.f32 and 16- and 32-bit integers are "
			                      "supported)", in->opcode);
		unsigned dw;
		if (!lw_reg(c, in->ops[0], &d, &dw) || !lw_opnd(c, in->ops[1], &o[0]) || !lw_opnd(c, in->ops[2], &o[1]))
			return false;
		/* 16-bit values sit in the low bits of their registers: extended
		 * to 32 bits (LOP32I.AND / BFE), compared as such */
		for (unsigned i = 0; i < 2 && t.bits == 16; i++)
			if (o[i].kind == OPND_REG) {
				uint32_t x = lw_temp(c, 1);
				lw_extend32(c, x, o[i].vreg, 16, t.is_signed);
				o[i] = (Opnd){ OPND_REG, x, 1, 0 };
			}
		commute_operands(c, &o[0], &o[1]);
		op = lw_alu(c, SASS_ALU_FORMS(IMNMX), d, 0, fp_reg(c, &o[0]), 0, &o[1], 0);
		linsn_set(op, SR_SIGNED, t.is_signed);
	}
	linsn_set(op, SR_PC_NOT, is_max);
	return true;
}

/* setp.cmp.f32: FSETP; the ordered comparisons are false when an operand
 * is NaN, the u-suffixed ones true. */
bool lower_fsetp(LowerCtx *c, const Instr *in)
{
	static const struct { const char *word; unsigned cmp; } cmps[] = {
		{ ".lt", 1 }, { ".eq", 2 }, { ".le", 3 }, { ".gt", 4 }, { ".ne", 5 }, { ".ge", 6 },
		{ ".num", 7 }, { ".nan", 8 }, { ".ltu", 9 }, { ".equ", 10 }, { ".leu", 11 }, { ".gtu", 12 },
		{ ".neu", 13 }, { ".geu", 14 },
	};
	static const char *const bops[] = { ".and", ".or", ".xor" };
	PtxTy t = lw_instr_type(in);
	int cmp = -1, bop = -1;
	bool ftz = false;
	if (t.bits != 32)
		return lw_unsupported(c, in->loc, "setp.f%u (float comparisons are supported for .f32 only)", t.bits);
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		bool known = lw_streq(w, ".f32");
		for (size_t j = 0; j < sizeof cmps / sizeof cmps[0]; j++)
			if (lw_streq(w, cmps[j].word)) {
				cmp = (int)cmps[j].cmp;
				known = true;
			}
		for (int j = 0; j < 3; j++)
			if (lw_streq(w, bops[j])) {
				bop = j;
				known = true;
			}
		if (lw_streq(w, ".ftz"))
			known = ftz = true;
		if (!known)
			return lw_unsupported(c, in->mod_locs[i], "setp.f32 modifier '%s'", w);
	}
	if (cmp < 0)
		return lw_unsupported(c, in->loc, "setp.f32 without a comparison");
	SetpPreds sp;
	Opnd a, b;
	if (!lw_setp_preds(c, in, bop >= 0, &sp) || !fp_opnd(c, in->ops[1], &a) || !fp_opnd(c, in->ops[2], &b))
		return false;
	LInsn *op = fp_alu(c, SASS_ALU_FORMS(FSETP), SF_COUNT, LW_NO_DST, fp_reg(c, &a), &b);
	linsn_ref(op, SR_PD, sp.pd, 0, 1, true);
	if (sp.has_q)
		linsn_ref(op, SR_PQ, sp.pq, 0, 1, true);
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_FTZ, ftz);
	lw_setp_combine(op, &sp, bop >= 0 ? (unsigned)bop : 0);
	return true;
}

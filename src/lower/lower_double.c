/* Lowering of double precision: add/sub/mul/fma/mad/neg/abs/
 * min/max/setp .f64 -> DADD/DMUL/DFMA/DMNMX/DSETP, cvt to and from .f64
 * -> F2F/I2F/F2I, and cvt between two float types -> F2F. Operand choices follow ptxas 11.8 -O3 for
 * sm_50: every operand is a register pair; B is read from c[0x0] when it
 * only ever holds a 64-bit parameter, is RZ for +0.0, and the 20-bit
 * immediate (the top 20 bits of the f64) when the low 44 bits are zero;
 * other immediates are moved into a register pair with two MOV32I. */
#include "lower/lower_internal.h"

enum { RND_RN = 0, RND_RM = 1, RND_RP = 2, RND_RZ = 3 };
enum { FLOAT_TYPE_F16 = 1, FLOAT_TYPE_F32 = 2, FLOAT_TYPE_F64 = 3 };

static const struct { const char *word; unsigned rnd; bool to_int; } rnd_words[] = {
	{ ".rn", RND_RN, false }, { ".rm", RND_RM, false }, { ".rp", RND_RP, false }, { ".rz", RND_RZ, false },
	{ ".rni", RND_RN, true }, { ".rmi", RND_RM, true }, { ".rpi", RND_RP, true }, { ".rzi", RND_RZ, true },
};

/* The rounding of a .f64 instruction (rnd 0 when none); anything but the
 * type and, when rnd_ok, .rn/.rm/.rp/.rz is diagnosed. */
static bool d_mods(LowerCtx *c, const Instr *in, bool rnd_ok, unsigned *rnd, bool *has_rnd)
{
	*rnd = RND_RN;
	*has_rnd = false;
	PtxTy t = lw_instr_type(in);
	if (!t.is_float || t.bits != 64)
		return lw_unsupported(c, in->loc, "%s on this type", in->opcode);
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		bool known = lw_streq(w, ".f64");
		for (size_t j = 0; j < 4 && rnd_ok; j++)
			if (lw_streq(w, rnd_words[j].word)) {
				*rnd = rnd_words[j].rnd;
				known = *has_rnd = true;
			}
		if (!known)
			return lw_unsupported(c, in->mod_locs[i], "%s.f64 modifier '%s'", in->opcode, w);
	}
	return true;
}

/* A register pair or a 0d literal (its bits in imm). */
static bool d_opnd(LowerCtx *c, const Expr *e, Opnd *o)
{
	if (e->kind == EX_FLOAT && e->text && (e->text[1] == 'd' || e->text[1] == 'D'))
		return lw_opnd(c, e, o);
	if (e->kind == EX_FLOAT || e->kind == EX_INT)
		return lw_unsupported(c, e->loc, "this .f64 operand (registers and 0d literals are supported)");
	*o = (Opnd){.kind = OPND_REG};
	if (!lw_reg(c, e, &o->vreg, &o->width))
		return false;
	if (o->width != 2)
		return lw_unsupported(c, e->loc, "a 32-bit register as a .f64 operand");
	return true;
}

static bool d_operands(LowerCtx *c, const Instr *in, unsigned n, uint32_t *d, Opnd *ops)
{
	unsigned dw;
	if (!lw_reg(c, in->ops[0], d, &dw))
		return false;
	if (dw != 2)
		return lw_unsupported(c, in->ops[0]->loc, "a 32-bit register as a .f64 destination");
	for (unsigned i = 0; i < n; i++)
		if (!d_opnd(c, in->ops[1 + i], &ops[i]))
			return false;
	return true;
}

/* A register pair holding o (an immediate through two MOV32I). */
static uint32_t d_reg(LowerCtx *c, const Opnd *o)
{
	if (o->kind == OPND_REG)
		return o->vreg;
	uint32_t t = lw_temp(c, 2);
	lw_mov32i(c, t, 0, (uint32_t)o->imm);
	lw_mov32i(c, t, 1, (uint32_t)((uint64_t)o->imm >> 32));
	return t;
}

static bool is_param_pair(const LowerCtx *c, const Opnd *o)
{
	return o->kind == OPND_REG && lw_vreg_cpair(c, o->vreg) >= 0;
}

/* One of `forms` (_R/_C/_I): d = a op b, B a pair, a 64-bit parameter in
 * c[0x0], RZ for +0.0 or the 20-bit immediate; d may be LW_NO_DST. */
static LInsn *d_alu(LowerCtx *c, SassAluForms forms, uint32_t d, uint32_t a, const Opnd *b)
{
	uint64_t bits = (uint64_t)b->imm;
	bool imm20 = b->kind == OPND_IMM && bits != 0 && (bits & ((UINT64_C(1) << 44) - 1)) == 0;
	bool rz = b->kind == OPND_IMM && bits == 0;
	uint32_t bv = b->kind == OPND_REG || imm20 || rz ? 0 : d_reg(c, b);
	LInsn *in;
	if (imm20) {
		in = lw_emit(c, forms.i);
		linsn_set(in, SR_IMM, (int64_t)(bits >> 44));
	} else if (is_param_pair(c, b)) {
		in = lw_emit(c, forms.c);
		linsn_set(in, SR_CBANK, 0);
		linsn_set(in, SR_COFF, lw_vreg_cpair(c, b->vreg) / 4);
	} else if (rz) {
		in = lw_emit(c, forms.r);
		linsn_set(in, SR_RB, 255);
	} else {
		in = lw_emit(c, forms.r);
		linsn_ref(in, SR_RB, b->kind == OPND_REG ? b->vreg : bv, 0, 2, false);
	}
	if (d != LW_NO_DST)
		linsn_ref(in, SR_RD, d, 0, 2, true);
	linsn_ref(in, SR_RA, a, 0, 2, false);
	return in;
}

/* ptxas's operand order for a commutative operation: an immediate, else
 * a 64-bit parameter, goes second (where SASS takes it). */
static bool d_commute(const LowerCtx *c, Opnd *a, Opnd *b)
{
	if ((a->kind == OPND_IMM && b->kind == OPND_REG) ||
	    (is_param_pair(c, a) && b->kind == OPND_REG && !is_param_pair(c, b))) {
		Opnd x = *a;
		*a = *b;
		*b = x;
		return true;
	}
	return false;
}

/* add/sub.f64: DADD d, a, -b (an immediate b's sign flipped instead). */
bool lower_dadd(LowerCtx *c, const Instr *in)
{
	unsigned rnd;
	bool has_rnd;
	uint32_t d;
	Opnd o[2];
	if (!d_mods(c, in, true, &rnd, &has_rnd) || !d_operands(c, in, 2, &d, o))
		return false;
	bool nega = false, negb = false;
	if (lw_streq(in->opcode, "sub") && o[1].kind == OPND_IMM)
		o[1].imm = (int64_t)((uint64_t)o[1].imm ^ (UINT64_C(1) << 63));
	else if (lw_streq(in->opcode, "sub"))
		negb = true;
	if (d_commute(c, &o[0], &o[1])) {
		nega = negb;
		negb = false;
	}
	LInsn *op = d_alu(c, SASS_ALU_FORMS(DADD), d, d_reg(c, &o[0]), &o[1]);
	linsn_set(op, SR_NEGA, nega);
	linsn_set(op, SR_NEGB, negb);
	linsn_set(op, SR_RND, rnd);
	return true;
}

bool lower_dmul(LowerCtx *c, const Instr *in)
{
	unsigned rnd;
	bool has_rnd;
	uint32_t d;
	Opnd o[2];
	if (!d_mods(c, in, true, &rnd, &has_rnd) || !d_operands(c, in, 2, &d, o))
		return false;
	d_commute(c, &o[0], &o[1]);
	linsn_set(d_alu(c, SASS_ALU_FORMS(DMUL), d, d_reg(c, &o[0]), &o[1]), SR_RND, rnd);
	return true;
}

/* fma/mad.rnd.f64 d, a, b, c: DFMA; c from c[0x0] (DFMA_RC, b then in a
 * register) when it only holds a parameter, else a register pair. */
bool lower_dfma(LowerCtx *c, const Instr *in)
{
	unsigned rnd;
	bool has_rnd;
	uint32_t d;
	Opnd o[3];
	if (!d_mods(c, in, true, &rnd, &has_rnd) || !d_operands(c, in, 3, &d, o))
		return false;
	if (!has_rnd)
		return lw_unsupported(c, in->loc, "%s.f64 without a rounding modifier", in->opcode);
	d_commute(c, &o[0], &o[1]);
	uint32_t a = d_reg(c, &o[0]);
	LInsn *op;
	if (is_param_pair(c, &o[2]) && o[1].kind == OPND_REG) {
		op = lw_emit(c, SF_DFMA_RC);
		linsn_ref(op, SR_RD, d, 0, 2, true);
		linsn_ref(op, SR_RA, a, 0, 2, false);
		linsn_ref(op, SR_RB, o[1].vreg, 0, 2, false);
		linsn_set(op, SR_CBANK, 0);
		linsn_set(op, SR_COFF, lw_vreg_cpair(c, o[2].vreg) / 4);
	} else {
		uint32_t cv = d_reg(c, &o[2]);
		op = d_alu(c, SASS_ALU_FORMS(DFMA), d, a, &o[1]);
		linsn_ref(op, SR_RC, cv, 0, 2, false);
	}
	linsn_set(op, SR_RND, rnd);
	return true;
}

/* neg.f64 d, a = DADD d, -RZ, -a; abs.f64 d, a = DADD d, -RZ, |a| (as
 * ptxas: a always from its register). */
bool lower_dneg_abs(LowerCtx *c, const Instr *in)
{
	unsigned rnd;
	bool has_rnd;
	uint32_t d;
	Opnd a;
	if (!d_mods(c, in, false, &rnd, &has_rnd) || !d_operands(c, in, 1, &d, &a))
		return false;
	uint32_t av = d_reg(c, &a);
	LInsn *op = lw_emit(c, SF_DADD_R);
	linsn_ref(op, SR_RD, d, 0, 2, true);
	linsn_set(op, SR_RA, 255);
	linsn_set(op, SR_NEGA, 1);
	linsn_ref(op, SR_RB, av, 0, 2, false);
	linsn_set(op, lw_streq(in->opcode, "neg") ? SR_NEGB : SR_ABSB, 1);
	return true;
}

/* min/max.f64: DMNMX, PT selecting the minimum. */
bool lower_dminmax(LowerCtx *c, const Instr *in)
{
	unsigned rnd;
	bool has_rnd;
	uint32_t d;
	Opnd o[2];
	if (!d_mods(c, in, false, &rnd, &has_rnd) || !d_operands(c, in, 2, &d, o))
		return false;
	d_commute(c, &o[0], &o[1]);
	LInsn *op = d_alu(c, SASS_ALU_FORMS(DMNMX), d, d_reg(c, &o[0]), &o[1]);
	linsn_set(op, SR_PC, 7);
	linsn_set(op, SR_PC_NOT, lw_streq(in->opcode, "max"));
	return true;
}

/* setp.cmp[.bop].f64: DSETP, the comparison codes of FSETP. */
bool lower_dsetp(LowerCtx *c, const Instr *in)
{
	static const struct { const char *word; unsigned cmp; } cmps[] = {
		{ ".lt", 1 }, { ".eq", 2 }, { ".le", 3 }, { ".gt", 4 }, { ".ne", 5 }, { ".ge", 6 },
		{ ".num", 7 }, { ".nan", 8 }, { ".ltu", 9 }, { ".equ", 10 }, { ".leu", 11 }, { ".gtu", 12 },
		{ ".neu", 13 }, { ".geu", 14 },
	};
	static const char *const bops[] = { ".and", ".or", ".xor" };
	int cmp = -1, bop = -1;
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		bool known = lw_streq(w, ".f64");
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
		if (!known)
			return lw_unsupported(c, in->mod_locs[i], "setp.f64 modifier '%s'", w);
	}
	if (cmp < 0)
		return lw_unsupported(c, in->loc, "setp.f64 without a comparison");
	SetpPreds sp;
	Opnd a, b;
	if (!lw_setp_preds(c, in, bop >= 0, &sp) || !d_opnd(c, in->ops[1], &a) || !d_opnd(c, in->ops[2], &b))
		return false;
	LInsn *op = d_alu(c, SASS_ALU_FORMS(DSETP), LW_NO_DST, d_reg(c, &a), &b);
	linsn_ref(op, SR_PD, sp.pd, 0, 1, true);
	if (sp.has_q)
		linsn_ref(op, SR_PQ, sp.pq, 0, 1, true);
	linsn_set(op, SR_CMP, cmp);
	lw_setp_combine(op, &sp, bop >= 0 ? (unsigned)bop : 0);
	return true;
}

LInsn *lw_dset(LowerCtx *c, const Instr *in)
{
	Opnd a, b;
	if (!d_opnd(c, in->ops[1], &a) || !d_opnd(c, in->ops[2], &b))
		return NULL;
	return d_alu(c, SASS_ALU_FORMS(DSET), LW_NO_DST, d_reg(c, &a), &b);
}

/* ---- cvt with an .f64 side ------------------------------------------------- */

/* The I2F/F2I integer type value: signed | log2(bytes) << 1. */
static unsigned int_type_value(PtxTy t)
{
	unsigned size = t.bits == 8 ? 0 : t.bits == 16 ? 1 : t.bits == 32 ? 2 : 3;
	return (t.is_signed ? 1u : 0u) | size << 1;
}

static unsigned float_type_value(PtxTy t)
{
	return t.bits == 64 ? FLOAT_TYPE_F64 : t.bits == 16 ? FLOAT_TYPE_F16 : FLOAT_TYPE_F32;
}

/* cvt.{ftz,sat}.f32.f32 without an integral rounding: FADD d, -RZ, a
 * (adding -0.0 keeps every value), as ptxas. */
static bool cvt_f32_same(LowerCtx *c, const Instr *in, bool ftz, bool sat)
{
	uint32_t d;
	unsigned dw;
	Opnd s;
	if (!lw_reg(c, in->ops[0], &d, &dw) || !lw_opnd(c, in->ops[1], &s))
		return false;
	if (s.kind != OPND_REG)
		return lw_unsupported(c, in->ops[1]->loc, "cvt of an immediate");
	int64_t cword = lw_vreg_cword(c, s.vreg);
	LInsn *op = lw_emit(c, cword >= 0 ? SF_FADD_C : SF_FADD_R);
	if (cword >= 0) {
		linsn_set(op, SR_CBANK, 0);
		linsn_set(op, SR_COFF, cword / 4);
	} else {
		linsn_ref(op, SR_RB, s.vreg, 0, 1, false);
	}
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_set(op, SR_RA, 255);
	linsn_set(op, SR_NEGA, 1);
	linsn_set(op, SR_FTZ, ftz);
	linsn_set(op, SR_SAT, sat);
	return true;
}

/* cvt where a type is .f64 (the other .f32, .f64 or a 16- to 64-bit
 * integer), or between .f16/.f32:
 *   float to float: F2F (.rni... of equal types: an integral value);
 *   integer to float: I2F; float to integer: F2I (an 8-bit result: F2I
 *   to 32 bits, then I2I.SAT).
 * A 32-bit source that only holds a parameter is read from c[0x0]. */
bool lower_cvt_f2f(LowerCtx *c, const Instr *in)
{
	PtxTy ty[2];
	unsigned n = 0, rnd = RND_RN;
	int to_int_rnd = -1;
	bool ftz = false, sat = false;
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		PtxTy u = ptx_type_of_word(w);
		bool known = u.bits != 0 && n < 2;
		if (known)
			ty[n++] = u;
		for (size_t j = 0; j < sizeof rnd_words / sizeof rnd_words[0]; j++)
			if (lw_streq(w, rnd_words[j].word)) {
				rnd = rnd_words[j].rnd;
				to_int_rnd = rnd_words[j].to_int;
				known = true;
			}
		if (lw_streq(w, ".ftz"))
			known = ftz = true;
		else if (lw_streq(w, ".sat"))
			known = sat = true;
		if (!known)
			return lw_unsupported(c, in->mod_locs[i], "cvt modifier '%s' with an .f64 type", w);
	}
	bool has_f16 = (ty[0].is_float && ty[0].bits == 16) || (n == 2 && ty[1].is_float && ty[1].bits == 16);
	bool has_f64 = (ty[0].is_float && ty[0].bits == 64) || (n == 2 && ty[1].is_float && ty[1].bits == 64);
	if (n != 2 || (has_f16 && has_f64) || (has_f16 && !(ty[0].is_float && ty[1].is_float)) ||
	    (!ty[0].is_float && ty[0].bits == 8 && !has_f64) || (!ty[1].is_float && ty[1].bits == 8))
		return lw_unsupported(c, in->loc, "cvt between these types (.f64 to and from .f32 and 16- to "
		                      "64-bit integers, .f64 to 8-bit integers, and .f16 to and from .f32 are "
		                      "supported)");
	PtxTy dt = ty[0], st = ty[1];
	if (dt.is_float && st.is_float && dt.bits == 32 && st.bits == 32 && to_int_rnd != 1)
		return cvt_f32_same(c, in, ftz, sat);
	uint32_t d;
	unsigned dw;
	Opnd s;
	if (!lw_reg(c, in->ops[0], &d, &dw) || !lw_opnd(c, in->ops[1], &s))
		return false;
	/* F2I has no 8-bit result: F2I to 32 bits, then I2I.SAT (ptxas 11.8) */
	PtxTy narrow = dt;
	uint32_t nd = d;
	unsigned ndw = dw;
	if (!dt.is_float && dt.bits == 8) {
		dt.bits = 32;
		d = lw_temp(c, 1);
		dw = 1;
	}
	if (s.kind != OPND_REG && st.bits == 64)
		return lw_unsupported(c, in->ops[1]->loc, "cvt of a 64-bit immediate");
	if (s.kind != OPND_REG) {
		/* a 32-bit immediate source goes through a register (MOV32I) */
		uint32_t t = lw_temp(c, 1);
		lw_mov32i(c, t, 0, (uint32_t)s.imm);
		s = (Opnd){ OPND_REG, t, 1, 0 };
	}
	unsigned dparts = dt.bits == 64 ? 2 : 1, sparts = st.bits == 64 ? 2 : 1;
	if (dw < dparts || s.width < sparts)
		return lw_unsupported(c, in->loc, "cvt with a 64-bit value in a 32-bit register");
	SassFormId fr, fc;
	if (dt.is_float && st.is_float) {
		fr = SF_F2F_R;
		fc = SF_F2F_C;
	} else if (dt.is_float) {
		fr = SF_I2F_R;
		fc = SF_I2F_C;
	} else {
		fr = SF_F2I_R;
		fc = SF_F2I_C;
	}
	int64_t cword = sparts == 1 ? lw_vreg_cword(c, s.vreg) : -1;
	LInsn *op = lw_emit(c, cword >= 0 ? fc : fr);
	if (cword >= 0) {
		linsn_set(op, SR_CBANK, 0);
		linsn_set(op, SR_COFF, cword / 4);
	} else {
		linsn_ref(op, SR_RB, s.vreg, 0, sparts, false);
	}
	linsn_ref(op, SR_RD, d, 0, dparts, true);
	linsn_set(op, SR_DTYPE, dt.is_float ? float_type_value(dt) : int_type_value(dt));
	linsn_set(op, SR_STYPE, st.is_float ? float_type_value(st) : int_type_value(st));
	linsn_set(op, SR_RND, rnd);
	if (fr == SF_F2F_R) {
		/* .rni and friends round to an integral value of the same type */
		if (to_int_rnd == 1 && dt.bits != st.bits)
			return lw_unsupported(c, in->loc, "an integer rounding for cvt between float widths");
		linsn_set(op, SR_RNDINT, to_int_rnd == 1);
		linsn_set(op, SR_FTZ, ftz);
		linsn_set(op, SR_SAT, sat);
	} else if (fr == SF_F2I_R) {
		linsn_set(op, SR_FTZ, ftz);
	}
	if (nd != d)
		return lw_cvt_sat_int(c, in, narrow, dt, nd, ndw, d, 1);
	if (dw == 2 && dparts == 1)
		lw_mov_rz(c, d, 1);
	return true;
}

/* Lowering of the PTX 1.x instructions that old compilers (nvopencc) still
 * write and ptxas 11.8 accepts for sm_50: set (a comparison into a
 * register) and mul24/mad24 (.lo). The sequences are those of ptxas 11.8
 * -arch=sm_50:
 *   set.cmp[.bop].{u32,s32,b32}.{u32,s32,b32} d, a, b[, [!]c]
 *       ISET.cmp[.U32].bop d, a, b, c|PT          (all ones or 0)
 *   set.cmp[.bop].f32.{u32,s32,b32} ...   ISET.BF (1.0f or 0.0f; -O3)
 *   set.cmp[.bop].dtype.{u16,s16,b16} ...  BFE[.U32] of each register
 *       operand (0x1000: the low 16 bits), then ISET as for 32 bits
 *   set.{lt,le,gt,ge,lo,ls,hi,hs}[.bop].dtype.{u64,s64} ...
 *       IADD RZ.CC, a.lo, -b.lo; ISET[.BF].cmp[.U32].X.bop d, a.hi, b.hi
 *   set.{eq,ne}[.bop].dtype.{u64,s64} ...  the same, ISET.EQ/.NE.X (the
 *       zero flag of the low words' difference ANDed in)
 *   set.cmp[.ftz][.bop].{u32,s32,b32,f32}.f32 ...  FSET[.BF][.FTZ]
 *   set.cmp[.bop].{u32,s32,b32,f32}.f64 ...  DSET[.BF] (B as DSETP's: a
 *       register pair, a 64-bit parameter in c[0x0], RZ or the 20-bit
 *       immediate)
 *   mul24.lo.{u32,s32} d, a, b        BFE[.U32] a, 0x1800; BFE[.U32] b,
 *   mad24.lo.{u32,s32} d, a, b, e     0x1800; the 32-bit multiply(-add)
 *   mul24.hi.{u32,s32} d, a, b        the same fields, their 64-bit product
 *       lo, hi (XMADs, IADD3.RS); SHR[.U32] s, lo, 0x10; XMAD.PSL.CLO d,
 *       hi, 0x1, s (bits 47:16 of the product: hi.H0 << 16 | s.H0)
 *   mad24.hi[.sat].{u32,s32} d, a, b, e   mul24.hi into t, then
 *       IADD[.SAT] d, e, t
 *   slct.{b32,u32,s32,f32}.s32 d, a, b, c   ICMP.GE d, a, b, c
 *       (d = c >= 0 ? a : b)
 *   slct.{f64,b64,u64,s64}.s32 d, a, b, c   ICMP.GE on each word of the pairs
 *   slct[.ftz].{f64,b64,u64,s64}.f32 d, a, b, c   FCMP.GE on each word
 *   slct{.ftz}.{b16,u16,s16}.{s32,f32}   as the 32-bit types, on the registers
 *   slct[.ftz].{b32,u32,s32,f32}.f32 d, a, b, c   FCMP.GE d, a, b, c
 *       (a 32-bit immediate b: a .nv.constant2 word, as ptxas, unless it
 *       is a float's top 20 bits; FCMP has no .FTZ: for .ftz, ptxas 11.8
 *       flushes the selector first, FADD.FTZ t, c, -RZ, so that a
 *       negative subnormal c selects a as -0.0 does)
 * (ptxas -O0 multiplies the two fields with IMUL/IMAD, -O3 with XMADs, as
 * every other 32-bit multiply here). */
#include "lower/lower_internal.h"

#include <string.h>

enum { PT = 7 };

static const struct { const char *word; unsigned icmp, fcmp; int sign; } set_cmps[] = {
	{ ".eq", 2, 2, -1 }, { ".ne", 5, 5, -1 }, { ".lt", 1, 1, -1 }, { ".le", 3, 3, -1 },
	{ ".gt", 4, 4, -1 }, { ".ge", 6, 6, -1 }, { ".lo", 1, 0, 0 }, { ".ls", 3, 0, 0 },
	{ ".hi", 4, 0, 0 }, { ".hs", 6, 0, 0 }, { ".num", 0, 7, -1 }, { ".nan", 0, 8, -1 },
	{ ".ltu", 0, 9, -1 }, { ".equ", 0, 10, -1 }, { ".leu", 0, 11, -1 }, { ".gtu", 0, 12, -1 },
	{ ".neu", 0, 13, -1 }, { ".geu", 0, 14, -1 },
};

/* The B operand of FSET as a register (FSET has no constant-bank row):
 * an immediate goes through MOV32I, a parameter word through its copy. */
static uint32_t opnd_reg(LowerCtx *c, const Opnd *o)
{
	uint32_t v;
	unsigned s;
	lw_opnd_part(c, o, 0, &v, &s);
	return v;
}

/* The 16-bit operands of set, extended to 32 bits (their registers' upper
 * halves are undefined), as setp does (ptxas 11.8 -O3 uses BFE[.U32]). */
static void extend16(LowerCtx *c, Opnd *a, Opnd *b, bool is_signed)
{
	uint32_t x = lw_temp(c, 1);
	lw_extend32(c, x, a->vreg, 16, is_signed);
	a->vreg = x;
	if (b->kind == OPND_REG) {
		uint32_t y = lw_temp(c, 1);
		lw_extend32(c, y, b->vreg, 16, is_signed);
		b->vreg = y;
	} else {
		b->imm = is_signed ? (int16_t)b->imm : (uint16_t)b->imm;
	}
}

bool lower_set(LowerCtx *c, const Instr *in)
{
	int icmp = -1, fcmp = -1, sign = -1, bop = -1;
	bool ftz = false;
	PtxTy ty[2];
	unsigned ntypes = 0;
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		PtxTy t = ptx_type_of_word(w);
		bool known = false;
		if (t.bits != 0 && ntypes < 2) {
			ty[ntypes++] = t;
			known = true;
		}
		for (size_t j = 0; j < sizeof set_cmps / sizeof set_cmps[0]; j++)
			if (lw_streq(w, set_cmps[j].word)) {
				icmp = set_cmps[j].icmp ? (int)set_cmps[j].icmp : -1;
				fcmp = set_cmps[j].fcmp ? (int)set_cmps[j].fcmp : -1;
				sign = set_cmps[j].sign;
				known = true;
			}
		if (lw_streq(w, ".and") || lw_streq(w, ".or") || lw_streq(w, ".xor")) {
			bop = w[1] == 'a' ? 0 : w[1] == 'o' ? 1 : 2;
			known = true;
		}
		if (lw_streq(w, ".ftz"))
			known = ftz = true;
		if (!known)
			return lw_unsupported(c, in->mod_locs[i], "set modifier '%s'", w);
	}
	/* 64-bit integer sources: IADD RZ.CC + ISET.X; .f64 sources: DSET */
	bool wide = ntypes == 2 && ty[1].bits == 64 && !ty[1].is_float;
	bool dbl = ntypes == 2 && ty[1].bits == 64 && ty[1].is_float;
	bool narrow = ntypes == 2 && ty[1].bits == 16 && !ty[1].is_float;
	if (ntypes != 2 || ty[0].bits != 32 || (ty[1].bits != 32 && !wide && !dbl && !narrow) ||
	    (ty[1].is_float ? fcmp : icmp) < 0 || (dbl && ftz))
		return lw_unsupported(c, in->loc, "set on these types (set.cmp.{u32,s32,b32,f32}.{u16,s16,b16,u32,"
		                      "s32,b32,f32,u64,s64,b64,f64} are supported)");
	if ((bop >= 0) != (in->nops == 4))
		return lw_unsupported(c, in->loc, "set with a boolean operation needs a predicate operand, and only then");
	uint32_t d;
	unsigned dw;
	Opnd a, b;
	if (!lw_reg(c, in->ops[0], &d, &dw) || (!dbl && (!lw_opnd(c, in->ops[1], &a) || !lw_opnd(c, in->ops[2], &b))))
		return false;
	SetpPreds sp;
	memset(&sp, 0, sizeof sp);
	if (bop >= 0) {
		const Expr *ce = in->ops[3];
		if (ce->kind == EX_UNARY && ce->op == '!') {
			sp.pc_not = true;
			ce = ce->lhs;
		}
		if (!lw_pred(c, ce, &sp.pc))
			return false;
		sp.has_pc = true;
	}
	LInsn *op;
	if (dbl) {
		if (!(op = lw_dset(c, in)))
			return false;
		linsn_ref(op, SR_RD, d, 0, 1, true);
		linsn_set(op, SR_CMP, fcmp);
	} else if (ty[1].is_float) {
		/* immediates reach registers ahead of the FSET that reads them */
		uint32_t ra = opnd_reg(c, &a), rb = opnd_reg(c, &b);
		op = lw_emit(c, SF_FSET_R);
		linsn_ref(op, SR_RD, d, 0, 1, true);
		linsn_ref(op, SR_RA, ra, 0, 1, false);
		linsn_ref(op, SR_RB, rb, 0, 1, false);
		linsn_set(op, SR_CMP, fcmp);
		linsn_set(op, SR_FTZ, ftz);
	} else {
		if (a.kind == OPND_IMM)
			return lw_unsupported(c, in->ops[1]->loc, "set with an immediate first operand");
		bool is_signed = sign < 0 ? ty[1].is_signed : false;
		if (narrow)
			extend16(c, &a, &b, is_signed);
		op = wide ? lw_cmp64_x(c, SASS_ALU_FORMS(ISET), d, a.vreg, &b)
		          : lw_alu(c, SASS_ALU_FORMS(ISET), d, 0, a.vreg, 0, &b, 0);
		linsn_set(op, SR_CMP, icmp);
		linsn_set(op, SR_SIGNED, is_signed);
	}
	linsn_set(op, SR_BF, ty[0].is_float);
	linsn_set(op, SR_PC, PT);
	lw_setp_combine(op, &sp, bop >= 0 ? (unsigned)bop : 0);
	return true;
}

/* mul24.hi: bits 47:16 of the product of the fields f0, f1 into d. */
static void mul24_hi(LowerCtx *c, uint32_t d, uint32_t f0, uint32_t f1, bool is_signed)
{
	uint32_t lo = lw_temp(c, 1), hi = lw_temp(c, 1), s = lw_temp(c, 1);
	lw_mul_wide32(c, lo, hi, f0, f1, is_signed);
	lw_shr_imm(c, s, 0, lo, 0, 16, is_signed);
	LInsn *x = lw_emit(c, SF_XMAD_I);
	linsn_ref(x, SR_RD, d, 0, 1, true);
	linsn_ref(x, SR_RA, hi, 0, 1, false);
	linsn_ref(x, SR_RC, s, 0, 1, false);
	linsn_set(x, SR_IMM, 1);
	linsn_set(x, SR_PSL, 1);
	linsn_set(x, SR_CMODE, 1);    /* CLO: the low half of C */
}

/* mul24.lo / mad24.lo / mul24.hi / mad24.hi: the low 24 bits of each
 * factor (sign-extended for .s32), then the 32-bit multiply(-add), or bits
 * 47:16 of the 48-bit product (plus the addend). */
bool lower_mul24(LowerCtx *c, const Instr *in)
{
	PtxTy t = lw_instr_type(in);
	bool mad = in->nops == 4, hi = lw_has_mod(in, ".hi"), sat = lw_has_mod(in, ".sat");
	if ((!lw_has_mod(in, ".lo") && !hi) || t.bits != 32 || t.is_float || (sat && !(hi && mad)))
		return lw_unsupported(c, in->loc, "%s on this type (%s.{lo,hi}.{u32,s32}%s is supported)", in->opcode,
		                      in->opcode, mad ? " and mad24.hi.sat.s32" : "");
	uint32_t d;
	unsigned dw;
	Opnd o[3];
	if (!lw_reg(c, in->ops[0], &d, &dw))
		return false;
	for (unsigned i = 0; i < (mad ? 3u : 2u); i++)
		if (!lw_opnd(c, in->ops[1 + i], &o[i]))
			return false;
	uint32_t f[2];
	for (unsigned i = 0; i < 2; i++) {
		if (o[i].kind == OPND_IMM) {
			/* ptxas folds the field of an immediate: MOV32I of its 24-bit value */
			uint32_t v = (uint32_t)o[i].imm & 0xffffffu;
			f[i] = lw_temp(c, 1);
			lw_mov32i(c, f[i], 0, t.is_signed && (v & 0x800000u) ? v | 0xff000000u : v);
			continue;
		}
		uint32_t src = opnd_reg(c, &o[i]);
		f[i] = lw_temp(c, 1);
		LInsn *x = lw_emit(c, SF_BFE_I);
		linsn_ref(x, SR_RD, f[i], 0, 1, true);
		linsn_ref(x, SR_RA, src, 0, 1, false);
		linsn_set(x, SR_SIGNED, t.is_signed);
		linsn_set(x, SR_IMM, 24u << 8);
	}
	if (hi && mad) {
		uint32_t p = lw_temp(c, 1);
		mul24_hi(c, p, f[0], f[1], t.is_signed);
		LInsn *op = lw_emit(c, SF_IADD_R);
		linsn_ref(op, SR_RD, d, 0, 1, true);
		linsn_ref(op, SR_RA, opnd_reg(c, &o[2]), 0, 1, false);
		linsn_ref(op, SR_RB, p, 0, 1, false);
		linsn_set(op, SR_SAT, sat);
		return true;
	}
	if (hi) {
		mul24_hi(c, d, f[0], f[1], t.is_signed);
		return true;
	}
	int addend = mad ? (int)opnd_reg(c, &o[2]) : -1;
	uint32_t t0 = lw_temp(c, 1);
	lw_xmad(c, t0, f[0], false, f[1], false, addend, 0);
	lw_mul_lo32_tail(c, d, 0, f[0], f[1], t0);
	return true;
}

/* slct.{f64,b64,u64,s64}.{s32,f32}: ICMP.GE / FCMP.GE on each word of the pairs */
static bool slct_pair(LowerCtx *c, const Instr *in, bool fsel, bool ftz)
{
	uint32_t d, a, b, sel;
	unsigned dw, aw, bw, sw;
	if (!lw_reg(c, in->ops[0], &d, &dw) || !lw_reg(c, in->ops[1], &a, &aw) || !lw_reg(c, in->ops[2], &b, &bw) ||
	    !lw_reg(c, in->ops[3], &sel, &sw))
		return false;
	if (dw != 2 || aw != 2 || bw != 2)
		return lw_unsupported(c, in->loc, "64-bit slct of other than 64-bit registers");
	if (ftz) {
		uint32_t t = lw_temp(c, 1);
		lw_fadd_minus_rz(c, t, sel, true);
		sel = t;
	}
	for (unsigned h = 0; h < 2; h++) {
		LInsn *op = lw_emit(c, fsel ? SF_FCMP_R : SF_ICMP_R);
		linsn_ref(op, SR_RD, d, h, 1, true);
		linsn_ref(op, SR_RA, a, h, 1, false);
		linsn_ref(op, SR_RB, b, h, 1, false);
		linsn_ref(op, SR_RC, sel, 0, 1, false);
		linsn_set(op, SR_CMP, 6);        /* GE */
		if (!fsel)
			linsn_set(op, SR_SIGNED, 1);
	}
	return true;
}

bool lower_slct(LowerCtx *c, const Instr *in)
{
	PtxTy ty[2];
	unsigned ntypes = 0;
	bool ftz = false;
	for (uint32_t i = 0; i < in->nmods; i++) {
		PtxTy t = ptx_type_of_word(in->mods[i]);
		if (lw_streq(in->mods[i], ".ftz")) {
			ftz = true;
			continue;
		}
		if (t.bits == 0 || ntypes == 2)
			return lw_unsupported(c, in->mod_locs[i], "slct modifier '%s'", in->mods[i]);
		ty[ntypes++] = t;
	}
	if (ntypes != 2 || ty[0].bits < 16 || ty[1].bits != 32 || (ftz && !ty[1].is_float))
		return lw_unsupported(c, in->loc, "slct on these types (slct.{b,u,s}{16,32,64}.{s32,f32} and "
		                      "slct.{f32,f64}.{s32,f32} are supported)");
	bool fsel = ty[1].is_float;
	if (ty[0].bits == 64)
		return slct_pair(c, in, fsel, ftz);
	/* a 16-bit d, a and b: their 32-bit registers as they are (d's upper
	 * half is undefined anyway) */
	uint32_t d, sel;
	unsigned dw, sw;
	Opnd a, b;
	if (!lw_reg(c, in->ops[0], &d, &dw) || !lw_opnd(c, in->ops[1], &a) || !lw_opnd(c, in->ops[2], &b) ||
	    !lw_reg(c, in->ops[3], &sel, &sw))
		return false;
	uint32_t ra = opnd_reg(c, &a);
	if (ftz) {
		uint32_t t = lw_temp(c, 1);
		lw_fadd_minus_rz(c, t, sel, true);
		sel = t;
	}
	LInsn *op;
	uint32_t bits = (uint32_t)b.imm;
	if (fsel && b.kind == OPND_IMM && (bits & 0xfffu) == 0) {
		op = lw_emit(c, SF_FCMP_I);
		linsn_ref(op, SR_RD, d, 0, 1, true);
		linsn_ref(op, SR_RA, ra, 0, 1, false);
		linsn_set(op, SR_IMM, bits >> 12);
	} else if (b.kind == OPND_IMM && (fsel || !fits_simm20(b.imm))) {
		/* ptxas: a 32-bit immediate B is a .nv.constant2 word */
		op = lw_emit(c, fsel ? SF_FCMP_C : SF_ICMP_C);
		linsn_ref(op, SR_RD, d, 0, 1, true);
		linsn_ref(op, SR_RA, ra, 0, 1, false);
		linsn_set(op, SR_CBANK, LK_CONST2_BANK);
		linsn_set(op, SR_COFF, lkernel_const2_slot(c->k, (uint32_t)b.imm) / 4);
	} else if (fsel) {
		op = lw_alu(c, SASS_ALU_FORMS(FCMP), d, 0, ra, 0, &b, 0);
	} else {
		op = lw_alu(c, SASS_ALU_FORMS(ICMP), d, 0, ra, 0, &b, 0);
	}
	linsn_ref(op, SR_RC, sel, 0, 1, false);
	linsn_set(op, SR_CMP, 6);        /* GE */
	if (!fsel)
		linsn_set(op, SR_SIGNED, 1);
	return true;
}

/* cnot.b{16,32,64} d, a: d = a == 0 (1, else 0), as ptxas 11.8: ISET.EQ.U32
 * of a against RZ (all ones or 0; a 16-bit source first zero-extended, a
 * 64-bit one as IADD RZ.CC of the low word and ISET.EQ.U32.X of the high
 * word), then IADD d, RZ, -t; a 64-bit result's high word is 0. An
 * immediate source is folded (MOV32I of 1 or 0), as ptxas folds it. */
bool lower_cnot(LowerCtx *c, const Instr *in)
{
	enum { CMP_EQ = 2, BOP_AND = 0 };
	PtxTy t = lw_instr_type(in);
	uint32_t d;
	unsigned dw;
	Opnd a;
	if (!lw_reg(c, in->ops[0], &d, &dw) || !lw_opnd(c, in->ops[1], &a))
		return false;
	if (a.kind == OPND_IMM) {
		uint64_t mask = t.bits >= 64 ? ~0ull : (1ull << t.bits) - 1;
		lw_mov32i(c, d, 0, ((uint64_t)a.imm & mask) == 0);
		if (t.bits == 64)
			lw_mov_rz(c, d, 1);
		return true;
	}
	uint32_t av = lw_temp(c, t.bits == 64 ? 2 : 1), set = lw_temp(c, 1);
	for (unsigned p = 0; p < (t.bits == 64 ? 2u : 1u); p++) {
		uint32_t v;
		unsigned s;
		lw_opnd_part(c, &a, p, &v, &s);
		if (t.bits == 16) {
			LInsn *z = lw_emit(c, SF_LOP32I);
			linsn_ref(z, SR_RD, av, 0, 1, true);
			linsn_ref(z, SR_RA, v, s, 1, false);
			linsn_set(z, SR_LOPOP, 0);
			linsn_set(z, SR_IMM, 0xffff);
		} else {
			lw_mov(c, av, p, v, s);
		}
	}
	LInsn *op;
	if (t.bits == 64) {
		Opnd zero = { .kind = OPND_IMM, .imm = 0 };
		op = lw_cmp64_x(c, SASS_ALU_FORMS(ISET), set, av, &zero);
	} else {
		op = lw_emit(c, SF_ISET_R);
		linsn_ref(op, SR_RD, set, 0, 1, true);
		linsn_ref(op, SR_RA, av, 0, 1, false);
		linsn_set(op, SR_RB, 255);
	}
	linsn_set(op, SR_CMP, CMP_EQ);
	linsn_set(op, SR_SIGNED, 0);
	linsn_set(op, SR_BOP, BOP_AND);
	linsn_set(op, SR_PC, PT);
	LInsn *neg = lw_emit(c, SF_IADD_R);
	linsn_ref(neg, SR_RD, d, 0, 1, true);
	linsn_set(neg, SR_RA, 255);
	linsn_ref(neg, SR_RB, set, 0, 1, false);
	linsn_set(neg, SR_NEG, 1);
	if (t.bits == 64)
		lw_mov_rz(c, d, 1);
	return true;
}

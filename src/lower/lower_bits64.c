/* Lowering of issue 17's small integer and sign families: copysign
 * (.f32/.f64), clz.b64, bfi.b64, bfe.b64 and sad. The sequences are
 * ptxas 11.8's for sm_50 where it uses forms the table has:
 *   copysign d, a, b:  LOP32I.AND t, a.hi, 0x80000000;
 *                      LOP3.LUT d.hi, t, c[0x2][0x7fffffff], b.hi, 0xf8 (t | b & 0x7fffffff)
 *   clz.b64 d, a:      ICMP.EQ.U32 w, a.lo, a.hi, a.hi (a.hi == 0 ? a.lo : a.hi);
 *                      FLO.U32 f, w; ICMP.NE.U32 k, RZ, 0x20, a.hi (a.hi ? 0 : 32);
 *                      IADD3 d, k, 0x1f, -f (FLO of 0 is -1: 64 for a == 0)
 *   bfi.b64 d, f, b, pos, len: m = (1 << len) - 1 (SHL/SHF.L.U64 clamp a
 *                      length of 64 or more to all ones), f & m and m both
 *                      shifted left by pos (past bit 63: nothing, d = b),
 *                      LOP3.LUT d, f', b, m', 0xf4 (f' | b & ~m')
 *   sad.{u,s}32 d, a, b, c: VABSDIFF{.U32.U32|.SD}.ACC d, a, b, c
 *                      (vabsdiff.add, lower_video.c); sad.{u,s}16: a and b
 *                      extended first (I2I.{U32,S32}.{U16,S16});
 *   bfe.{u,s}64 d, a, pos, len (pos and len constants, as LLVM's libclc
 *                      writes bfe.u64 d, a, 52, 11 for a double's exponent):
 *                      the field shifted to the top (shl.b64 by 64-pos-len)
 *                      and back down (shr by 64-len, arithmetic for .s64),
 *                      PTX's semantics: len 0 gives 0, a field past bit 63
 *                      ends at bit 63 (.s64: a[63] is its sign), a start past
 *                      bit 63 gives 0 (.u64) or a[63] replicated (.s64).
 *                      ptxas 11.8 -O3 writes SHF/SHR/LOP32I masks instead,
 *                      the same value;
 *   bfe.{u,s}64 with a register position or length: ptxas 11.8 -O3's code
 *                      (bfe64_len_reg, bfe64_len_imm below). */
#include "lower/lower_internal.h"

#include <string.h>

enum { CMP_EQ = 2, CMP_NE = 5, CMP_GE = 6 };
enum { LOP_AND = 0, LOP_OR = 1 };
enum { I2I_U16 = 2, I2I_S16 = 3, I2I_U32 = 4, I2I_S32 = 5 };
enum { MAXSHIFT_U64 = 2, MAXSHIFT_S64 = 3 };
enum { LUT_A_OR_B_AND_C = 0xf8, LUT_A_OR_B_ANDNOT_C = 0xf4 };

/* A register holding word `sub` of o (a parameter word or immediate is moved in). */
static uint32_t word_reg(LowerCtx *c, const Opnd *o, unsigned sub, unsigned *rsub)
{
	uint32_t v;
	lw_opnd_part(c, o, sub, &v, rsub);
	return v;
}

static bool operands(LowerCtx *c, const Instr *in, unsigned from, unsigned n, Opnd *o)
{
	for (unsigned i = 0; i < n; i++)
		if (!lw_opnd(c, in->ops[from + i], &o[i]))
			return false;
	return true;
}

static bool only_type_mods(LowerCtx *c, const Instr *in)
{
	for (uint32_t i = 0; i < in->nmods; i++)
		if (!ptx_type_of_word(in->mods[i]).bits)
			return lw_unsupported(c, in->mod_locs[i], "%s modifier '%s'", in->opcode, in->mods[i]);
	return true;
}

/* ---- copysign ---- */

bool lower_copysign(LowerCtx *c, const Instr *in)
{
	PtxTy t = lw_instr_type(in);
	if (!only_type_mods(c, in))
		return false;
	if (!t.is_float || (t.bits != 32 && t.bits != 64))
		return lw_unsupported(c, in->loc, "copysign on this type (.f32 and .f64 are supported)");
	uint32_t d;
	unsigned dw, hi = t.bits == 64, as, bs;
	Opnd o[2];
	if (!lw_reg(c, in->ops[0], &d, &dw) || !operands(c, in, 1, 2, o))
		return false;
	uint32_t a = word_reg(c, &o[0], hi, &as), b = word_reg(c, &o[1], hi, &bs);
	uint32_t sign = lw_temp(c, 1);
	LInsn *and = lw_emit(c, SF_LOP32I);
	linsn_ref(and, SR_RD, sign, 0, 1, true);
	linsn_ref(and, SR_RA, a, as, 1, false);
	linsn_set(and, SR_LOPOP, LOP_AND);
	linsn_set(and, SR_IMM, 0x80000000u);
	if (hi) {
		unsigned ls;
		uint32_t lo = word_reg(c, &o[1], 0, &ls);
		lw_mov(c, d, 0, lo, ls);
	}
	LInsn *op = lw_emit(c, SF_LOP3_C);
	linsn_ref(op, SR_RD, d, hi, 1, true);
	linsn_ref(op, SR_RA, sign, 0, 1, false);
	linsn_set(op, SR_CBANK, LK_CONST2_BANK);
	linsn_set(op, SR_COFF, lkernel_const2_slot(c->k, 0x7fffffff) / 4);
	linsn_ref(op, SR_RC, b, bs, 1, false);
	linsn_set(op, SR_LUT, LUT_A_OR_B_AND_C);
	return true;
}

/* ---- clz.b64 ---- */

/* ICMP.cmp.U32 d, a (RZ when a < 0), b or imm, c: d = (c cmp 0) ? a : b */
static void icmp(LowerCtx *c, unsigned cmp, uint32_t d, int a, unsigned asub, int b, unsigned bsub, int64_t imm,
                 uint32_t cv, unsigned csub)
{
	LInsn *op = lw_emit(c, b < 0 ? SF_ICMP_I : SF_ICMP_R);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	if (a < 0)
		linsn_set(op, SR_RA, 255);
	else
		linsn_ref(op, SR_RA, (uint32_t)a, asub, 1, false);
	if (b < 0)
		linsn_set(op, SR_IMM, imm);
	else
		linsn_ref(op, SR_RB, (uint32_t)b, bsub, 1, false);
	linsn_ref(op, SR_RC, cv, csub, 1, false);
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_SIGNED, 0);
}

bool lower_clz64(LowerCtx *c, const Instr *in)
{
	uint32_t d;
	unsigned dw, ls, hs;
	Opnd a;
	if (!only_type_mods(c, in) || !lw_reg(c, in->ops[0], &d, &dw) || !lw_opnd(c, in->ops[1], &a))
		return false;
	uint32_t lo = word_reg(c, &a, 0, &ls), hi = word_reg(c, &a, 1, &hs);
	uint32_t w = lw_temp(c, 1), f = lw_temp(c, 1), k = lw_temp(c, 1);
	icmp(c, CMP_EQ, w, (int)lo, ls, (int)hi, hs, 0, hi, hs);
	LInsn *flo = lw_emit(c, SF_FLO_R);
	linsn_ref(flo, SR_RD, f, 0, 1, true);
	linsn_ref(flo, SR_RB, w, 0, 1, false);
	linsn_set(flo, SR_SIGNED, 0);
	icmp(c, CMP_NE, k, -1, 0, -1, 0, 0x20, hi, hs);
	LInsn *op = lw_emit(c, SF_IADD3_I);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RA, k, 0, 1, false);
	linsn_set(op, SR_IMM, 0x1f);
	linsn_ref(op, SR_RC, f, 0, 1, false);
	linsn_set(op, SR_NEGC, 1);
	return true;
}

/* ---- bfi.b64 ---- */

/* SHL d.lo, a.lo, s and SHF.L.U64 d.hi, a.lo, s, a.hi (RZ when ahi < 0):
 * a 64-bit left shift, nothing left for a shift of 64 or more */
static void shl64(LowerCtx *c, uint32_t d, uint32_t a, unsigned asub, int ahi, unsigned ahsub, uint32_t s,
                  unsigned ssub)
{
	LInsn *h = lw_emit(c, SF_SHF_L_R);
	linsn_ref(h, SR_RD, d, 1, 1, true);
	linsn_ref(h, SR_RA, a, asub, 1, false);
	linsn_ref(h, SR_RB, s, ssub, 1, false);
	if (ahi < 0)
		linsn_set(h, SR_RC, 255);
	else
		linsn_ref(h, SR_RC, (uint32_t)ahi, ahsub, 1, false);
	linsn_set(h, SR_MAXSHIFT, MAXSHIFT_U64);
	LInsn *l = lw_emit(c, SF_SHL_R);
	linsn_ref(l, SR_RD, d, 0, 1, true);
	linsn_ref(l, SR_RA, a, asub, 1, false);
	linsn_ref(l, SR_RB, s, ssub, 1, false);
}

/* m = (1 << len) - 1 over 64 bits (MOV32I 1; SHL/SHF.L.U64; IADD32I.CC
 * and IADD32I.X of -1): all ones for a length of 64 or more */
static void mask64(LowerCtx *c, uint32_t m, uint32_t len, unsigned ns)
{
	uint32_t one = lw_temp(c, 1);
	lw_mov32i(c, one, 0, 1);
	shl64(c, m, one, 0, -1, 0, len, ns);
	LInsn *lo = lw_emit(c, SF_IADD32I);
	linsn_ref(lo, SR_RD, m, 0, 1, true);
	linsn_ref(lo, SR_RA, m, 0, 1, false);
	linsn_set(lo, SR_IMM, 0xffffffffu);
	linsn_set(lo, SR_CC, 1);
	lo->writes_cc = true;
	LInsn *hi = lw_emit(c, SF_IADD32I);
	linsn_ref(hi, SR_RD, m, 1, 1, true);
	linsn_ref(hi, SR_RA, m, 1, 1, false);
	linsn_set(hi, SR_IMM, 0xffffffffu);
	linsn_set(hi, SR_X, 1);
	hi->reads_cc = true;
	c->k->vregs[m].temp = false;
}

bool lower_bfi64(LowerCtx *c, const Instr *in)
{
	uint32_t d;
	unsigned dw, ps, ns, fs[2], bs[2];
	Opnd o[4];
	if (!only_type_mods(c, in) || !lw_reg(c, in->ops[0], &d, &dw) || !operands(c, in, 1, 4, o))
		return false;
	uint32_t f[2], b[2];
	for (unsigned i = 0; i < 2; i++) {
		f[i] = word_reg(c, &o[0], i, &fs[i]);
		b[i] = word_reg(c, &o[1], i, &bs[i]);
	}
	uint32_t pos = word_reg(c, &o[2], 0, &ps), len = word_reg(c, &o[3], 0, &ns);
	uint32_t m = lw_temp(c, 2), fm = lw_temp(c, 2), ms = lw_temp(c, 2), fsh = lw_temp(c, 2);
	mask64(c, m, len, ns);
	for (unsigned i = 0; i < 2; i++) {
		LInsn *and = lw_emit(c, SF_LOP_R);
		linsn_ref(and, SR_RD, fm, i, 1, true);
		linsn_ref(and, SR_RA, m, i, 1, false);
		linsn_ref(and, SR_RB, f[i], fs[i], 1, false);
		linsn_set(and, SR_LOPOP, LOP_AND);
	}
	c->k->vregs[fm].temp = false;
	shl64(c, ms, m, 0, (int)m, 1, pos, ps);
	shl64(c, fsh, fm, 0, (int)fm, 1, pos, ps);
	c->k->vregs[ms].temp = false;
	c->k->vregs[fsh].temp = false;
	for (unsigned i = 0; i < 2; i++) {
		LInsn *op = lw_emit(c, SF_LOP3_R);
		linsn_ref(op, SR_RD, d, i, 1, true);
		linsn_ref(op, SR_RA, fsh, i, 1, false);
		linsn_ref(op, SR_RB, b[i], bs[i], 1, false);
		linsn_ref(op, SR_RC, ms, i, 1, false);
		linsn_set(op, SR_LUT, LUT_A_OR_B_ANDNOT_C);
	}
	return true;
}

/* ---- sad ---- */

/* IADD d.lo.CC, x.lo, y.lo; IADD.X d.hi, x.hi, y.hi, one side negated
 * (neg: SR_NEG's value, 1 B, 2 A). */
static void sub64(LowerCtx *c, uint32_t d, uint32_t x, uint32_t y, unsigned neg)
{
	for (unsigned w = 0; w < 2; w++) {
		LInsn *op = lw_emit(c, SF_IADD_R);
		linsn_ref(op, SR_RD, d, w, 1, true);
		linsn_ref(op, SR_RA, x, w, 1, false);
		linsn_ref(op, SR_RB, y, w, 1, false);
		linsn_set(op, SR_NEG, neg);
		linsn_set(op, w ? SR_X : SR_CC, 1);
		if (w)
			op->reads_cc = true;
		else
			op->writes_cc = true;
	}
}

/* sad.{u64,s64} d, a, b, c as ptxas 11.8: P = a >= b (IADD RZ.CC +
 * ISETP.GE[.U32].X), both differences (a - b, -a + b) with carry chains,
 * SEL of each word, then c plus the selected difference. */
static bool sad64(LowerCtx *c, const Instr *in, PtxTy t)
{
	uint32_t d;
	unsigned dw;
	Opnd o[3];
	if (!lw_reg(c, in->ops[0], &d, &dw) || !operands(c, in, 1, 3, o))
		return false;
	uint32_t v[3];
	for (unsigned i = 0; i < 3; i++) {
		if (o[i].kind == OPND_REG && o[i].width == 2) {
			v[i] = o[i].vreg;
			continue;
		}
		v[i] = lw_temp(c, 2);
		lw_copy_value(c, v[i], &o[i], 2);
	}
	SetpPreds sp;
	memset(&sp, 0, sizeof sp);
	sp.pd = lkernel_new_vreg(c->k, LRC_PRED, 1, true);
	Opnd b = { .kind = OPND_REG, .vreg = v[1], .width = 2 };
	if (!lw_setp64_order(c, CMP_GE, t.is_signed, &sp, 0, v[0], &b))
		return false;
	uint32_t ab = lw_temp(c, 2), ba = lw_temp(c, 2), diff = lw_temp(c, 2);
	sub64(c, ab, v[0], v[1], 1);
	sub64(c, ba, v[0], v[1], 2);
	for (unsigned w = 0; w < 2; w++) {
		LInsn *sel = lw_emit(c, SF_SEL_R);
		linsn_ref(sel, SR_RD, diff, w, 1, true);
		linsn_ref(sel, SR_RA, ab, w, 1, false);
		linsn_ref(sel, SR_RB, ba, w, 1, false);
		linsn_ref(sel, SR_PC, sp.pd, 0, 1, false);
	}
	sub64(c, d, v[2], diff, 0);
	return true;
}

/* I2I.{U32,S32}.{U16,S16} of word sub of s into a temporary. */
static uint32_t extend16(LowerCtx *c, uint32_t s, unsigned sub, bool is_signed)
{
	uint32_t d = lw_temp(c, 1);
	LInsn *op = lw_emit(c, SF_I2I_R);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_ref(op, SR_RB, s, sub, 1, false);
	linsn_set(op, SR_DTYPE, is_signed ? I2I_S32 : I2I_U32);
	linsn_set(op, SR_STYPE, is_signed ? I2I_S16 : I2I_U16);
	return d;
}

bool lower_sad(LowerCtx *c, const Instr *in)
{
	PtxTy t = lw_instr_type(in);
	if (!only_type_mods(c, in))
		return false;
	if (!t.is_float && t.bits == 64)
		return sad64(c, in, t);
	if (t.is_float || (t.bits != 16 && t.bits != 32))
		return lw_unsupported(c, in->loc, "sad on this type (16-, 32- and 64-bit integers are supported)");
	uint32_t d;
	unsigned dw, as, bs, cs;
	Opnd o[3];
	if (!lw_reg(c, in->ops[0], &d, &dw) || !operands(c, in, 1, 3, o))
		return false;
	uint32_t a = word_reg(c, &o[0], 0, &as), b = word_reg(c, &o[1], 0, &bs), cv = word_reg(c, &o[2], 0, &cs);
	if (t.bits == 16) {
		/* a and b extended to 32 bits first, as ptxas 11.8 -O0 (c's upper
		 * half does not reach the 16 bits of the result) */
		a = extend16(c, a, as, t.is_signed);
		b = extend16(c, b, bs, t.is_signed);
		as = bs = 0;
	}
	/* video: ptxas 11.8's VABSDIFF{.U32.U32|.SD}.ACC (vabsdiff.add) */
	int64_t fmt = t.is_signed ? 14 : 6;
	lw_vabsdiff(c, d, a, as, b, bs, (int)cv, cs, fmt, fmt, 4, t.is_signed);
	return true;
}

/* ---- bfe.b64 with a register position or length ---- */

/* SHF.R.{U64,S64} d.dsub, a.lo, s, hi (hi < 0: RZ; s < 0: the immediate k) */
static void shf_r(LowerCtx *c, bool is_signed, uint32_t d, unsigned dsub, uint32_t a, unsigned asub, int hi,
                  unsigned hsub, int s, unsigned ssub, unsigned k)
{
	LInsn *op = lw_emit(c, s < 0 ? SF_SHF_R_I : SF_SHF_R_R);
	linsn_ref(op, SR_RD, d, dsub, 1, true);
	linsn_ref(op, SR_RA, a, asub, 1, false);
	if (s < 0)
		linsn_set(op, SR_IMM, k);
	else
		linsn_ref(op, SR_RB, (uint32_t)s, ssub, 1, false);
	if (hi < 0)
		linsn_set(op, SR_RC, 255);
	else
		linsn_ref(op, SR_RC, (uint32_t)hi, hsub, 1, false);
	linsn_set(op, SR_MAXSHIFT, is_signed ? MAXSHIFT_S64 : MAXSHIFT_U64);
}

/* SHR{.U32} d.dsub, a.asub, s (s < 0: the immediate k) */
static void shr32(LowerCtx *c, bool is_signed, uint32_t d, unsigned dsub, uint32_t a, unsigned asub, int s,
                  unsigned ssub, unsigned k)
{
	LInsn *op = lw_emit(c, s < 0 ? SF_SHR_I : SF_SHR_R);
	linsn_ref(op, SR_RD, d, dsub, 1, true);
	linsn_ref(op, SR_RA, a, asub, 1, false);
	if (s < 0)
		linsn_set(op, SR_IMM, k);
	else
		linsn_ref(op, SR_RB, (uint32_t)s, ssub, 1, false);
	linsn_set(op, SR_SIGNED, is_signed);
}

/* LOP32I.op d.w, d.w, imm */
static void lop32i_self(LowerCtx *c, unsigned lop, uint32_t d, unsigned w, uint32_t imm)
{
	LInsn *op = lw_emit(c, SF_LOP32I);
	linsn_ref(op, SR_RD, d, w, 1, true);
	linsn_ref(op, SR_RA, d, w, 1, false);
	linsn_set(op, SR_LOPOP, lop);
	linsn_set(op, SR_IMM, imm);
}

/* A predicate: t != 0 over 64 bits (IADD RZ.CC, -RZ, t.lo;
 * ISETP.NE.U32.X.AND p, PT, t.hi, RZ, PT; thi < 0: a zero high word, RZ) */
static uint32_t nonzero64(LowerCtx *c, uint32_t t, int thi)
{
	LInsn *lo = lw_emit(c, SF_IADD_R);
	linsn_set(lo, SR_RD, 255);
	linsn_set(lo, SR_RA, 255);
	linsn_ref(lo, SR_RB, t, 0, 1, false);
	linsn_set(lo, SR_NEG, 2);
	linsn_set(lo, SR_CC, 1);
	lo->writes_cc = true;
	uint32_t p = lw_pred_temp(c);
	LInsn *op = lw_emit(c, SF_ISETP_R);
	linsn_ref(op, SR_PD, p, 0, 1, true);
	if (thi < 0)
		linsn_set(op, SR_RA, 255);
	else
		linsn_ref(op, SR_RA, (uint32_t)thi, 1, 1, false);
	linsn_set(op, SR_RB, 255);
	linsn_set(op, SR_CMP, CMP_NE);
	linsn_set(op, SR_SIGNED, 0);
	linsn_set(op, SR_X, 1);
	op->reads_cc = true;
	return p;
}

/* bfe.{u,s}64 d, a, pos, n with a register position and a constant length
 * n (1..63), as ptxas 11.8 -O3: the funnel shift right by pos (the high
 * word only when the field reaches it), LOP32I.AND of the field's last
 * word; .u64: d.hi = RZ for a field in the low word; .s64: bit n-1 tested
 * (SHF.R.U64 by n-1 with RZ, or SHR.U32 of the high word by n-33) and the
 * bits above the field set under that predicate (@P LOP32I.OR ~mask; a
 * high word above the field: SEL RZ, -1, !P). */
static void bfe64_len_imm(LowerCtx *c, bool sg, uint32_t d, uint32_t av, int pv, unsigned ps, unsigned pk,
                          unsigned n)
{
	unsigned w = n > 32;
	uint32_t mask = n % 32 ? (1u << (n % 32)) - 1 : 0xffffffffu;
	shf_r(c, sg, d, 0, av, 0, (int)av, 1, pv, ps, pk);
	if (w)
		shr32(c, sg, d, 1, av, 1, pv, ps, pk);
	if (mask != 0xffffffffu)
		lop32i_self(c, LOP_AND, d, w, mask);
	if (!sg) {
		if (!w)
			lw_mov_rz(c, d, 1);
		return;
	}
	uint32_t top = lw_temp(c, 1);
	if (w)
		shr32(c, false, top, 0, d, 1, -1, 0, n - 33);
	else
		shf_r(c, false, top, 0, d, 0, -1, 0, -1, 0, n - 1);
	uint32_t p = nonzero64(c, top, -1);
	if (mask != 0xffffffffu) {
		lw_guard(c, (int)p, false);
		lop32i_self(c, LOP_OR, d, w, ~mask);
		lw_guard(c, -1, false);
	}
	if (!w) {
		LInsn *op = lw_emit(c, SF_SEL_I);
		linsn_ref(op, SR_RD, d, 1, 1, true);
		linsn_set(op, SR_RA, 255);
		linsn_set(op, SR_IMM, -1);
		linsn_ref(op, SR_PC, p, 0, 1, false);
		linsn_set(op, SR_PC_NOT, 1);
	}
}

/* bfe.{u,s}64 d, a, pos, len with a register length, as ptxas 11.8 -O3:
 * m = (1 << len) - 1 (mask64), the funnel shift right by pos (pv < 0: the
 * constant pk), LOP.AND with
 * m per word; .s64: bit len-1 of the field tested over 64 bits (shifted
 * down by len-1, IADD32I len, -1) and the bits above it set under that
 * predicate (@P LOP.OR d, d, ~m per word). */
static void bfe64_len_reg(LowerCtx *c, bool sg, uint32_t d, uint32_t av, int pv, unsigned ps, unsigned pk,
                          uint32_t lv, unsigned ls)
{
	uint32_t m = lw_temp(c, 2), l1 = 0;
	mask64(c, m, lv, ls);
	if (sg) {
		l1 = lw_temp(c, 1);
		LInsn *op = lw_emit(c, SF_IADD32I);
		linsn_ref(op, SR_RD, l1, 0, 1, true);
		linsn_ref(op, SR_RA, lv, ls, 1, false);
		linsn_set(op, SR_IMM, 0xffffffffu);
	}
	shf_r(c, sg, d, 0, av, 0, (int)av, 1, pv, ps, pk);
	shr32(c, sg, d, 1, av, 1, pv, ps, pk);
	for (unsigned w = 0; w < 2; w++) {
		LInsn *and = lw_emit(c, SF_LOP_R);
		linsn_ref(and, SR_RD, d, w, 1, true);
		linsn_ref(and, SR_RA, m, w, 1, false);
		linsn_ref(and, SR_RB, d, w, 1, false);
		linsn_set(and, SR_LOPOP, LOP_AND);
	}
	if (!sg)
		return;
	uint32_t top = lw_temp(c, 2);
	c->k->vregs[top].temp = false;
	shf_r(c, false, top, 0, d, 0, (int)d, 1, (int)l1, 0, 0);
	shr32(c, false, top, 1, d, 1, (int)l1, 0, 0);
	uint32_t p = nonzero64(c, top, (int)top);
	lw_guard(c, (int)p, false);
	for (unsigned w = 0; w < 2; w++) {
		LInsn *or = lw_emit(c, SF_LOP_R);
		linsn_ref(or, SR_RD, d, w, 1, true);
		linsn_ref(or, SR_RA, d, w, 1, false);
		linsn_ref(or, SR_RB, m, w, 1, false);
		linsn_set(or, SR_LOPOP, LOP_OR);
		linsn_set(or, SR_INVB, 1);
	}
	lw_guard(c, -1, false);
}

bool lower_bfe64(LowerCtx *c, const Instr *in)
{
	PtxTy t = lw_instr_type(in);
	uint32_t d;
	unsigned dw;
	Opnd a, pos, len;
	if (!lw_reg(c, in->ops[0], &d, &dw) || !lw_opnd(c, in->ops[1], &a) || !lw_opnd(c, in->ops[2], &pos) ||
	    !lw_opnd(c, in->ops[3], &len))
		return false;
	uint32_t av = a.vreg;
	if (a.kind != OPND_REG) {
		/* a constant or parameter word: moved into a pair first */
		av = lw_temp(c, 2);
		for (unsigned w = 0; w < 2; w++) {
			unsigned ws;
			uint32_t v = word_reg(c, &a, w, &ws);
			lw_mov(c, av, w, v, ws);
		}
	}
	if (pos.kind != OPND_IMM || len.kind != OPND_IMM) {
		/* a register position with a constant length or a register length */
		unsigned ps = 0, ls, n = (unsigned)len.imm & 0xff;
		if (len.kind == OPND_IMM && n == 0) {
			lw_mov_rz(c, d, 0);
			lw_mov_rz(c, d, 1);
		} else if (len.kind == OPND_IMM && n >= 64) {
			lw_shift64_reg(c, false, t.is_signed, d, av, &pos);
		} else {
			/* a constant position below 64: the immediate forms of SHF and SHR */
			int pv = -1;
			unsigned pk = (unsigned)pos.imm;
			if (pos.kind != OPND_IMM || pos.imm < 0 || pos.imm > 63)
				pv = (int)word_reg(c, &pos, 0, &ps);
			if (len.kind == OPND_IMM) {
				bfe64_len_imm(c, t.is_signed, d, av, pv, ps, pk, n);
			} else {
				uint32_t lv = word_reg(c, &len, 0, &ls);
				bfe64_len_reg(c, t.is_signed, d, av, pv, ps, pk, lv, ls);
			}
		}
		return true;
	}
	unsigned p = (unsigned)pos.imm & 0xff, n = (unsigned)len.imm & 0xff;
	if (n == 0 || (p > 63 && !t.is_signed)) {
		lw_mov_rz(c, d, 0);
		lw_mov_rz(c, d, 1);
		return true;
	}
	if (p > 63) {
		lw_shift64_imm(c, false, true, d, av, 63);
		return true;
	}
	if (n > 64 - p)
		n = 64 - p;
	uint32_t top = lw_temp(c, 2);
	lw_shift64_imm(c, true, false, top, av, 64 - p - n);
	lw_shift64_imm(c, false, t.is_signed, d, top, 64 - n);
	return true;
}

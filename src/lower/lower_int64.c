/* Lowering of the 64-bit integer forms real compiler PTX uses constantly
 * (size_t indexing, hashing, int64 math) and of a few small gaps next to
 * them, as ptxas 11.8 writes them for sm_50 (-O3 and -O0 alike):
 *   shl.b64 d, a, n:     SHF.L.U64 d.hi, a.lo, n, a.hi; SHL d.lo, a.lo, n
 *   shr.u64 d, a, n:     SHF.R.U64 d.lo, a.lo, n, a.hi; SHR.U32 d.hi, a.hi, n
 *   shr.s64 d, a, n:     SHF.R.S64 d.lo, a.lo, n, a.hi; SHR d.hi, a.hi, n
 *                        (n a register: SHF clamps the amount at 64 and
 *                        SHL/SHR without .W at 32, which is PTX's clamp)
 *   setp.cmp.{s,u}64 p, a, b (lt le gt ge lo ls hi hs):
 *                        IADD RZ.CC, a.lo, -b.lo (IADD32I RZ.CC, a.lo, -imm;
 *                        a zero low word: -RZ, whose carry is always set);
 *                        ISETP.cmp{.U32}.X.bop p{, q}, PT, a.hi, b.hi, c
 *   abs.s32 d, a:        I2I.S32.S32 d, |a|  (abs.s16: I2I.S16.S16)
 *   abs.s16/.s64 d, imm: folded: MOV32I of each word
 *   abs.s64 d, a:        I2I.S32.S32 RZ.CC, a.hi; CSETP.LT.AND p, PT, CC, PT
 *                        (the sign of a); IADD n.lo.CC, RZ, -a.lo;
 *                        IADD.X n.hi, RZ, -a.hi; SEL d, n, a, p per word
 *   activemask.b32 d:    VOTE.ANY d, PT, PT
 *   rcp.approx.ftz.f64:  MUFU.RCP64H d.hi, a.hi; d.lo = RZ */
#include "lower/lower_internal.h"

#include <string.h>

enum { CC_LT = 1 };
enum { MAXSHIFT_U64 = 2, MAXSHIFT_S64 = 3 };
enum { I2I_S16 = 3, I2I_S32 = 5 };
enum { VOTE_ANY = 1 };
enum { MUFU_RCP64H = 6 };

/* ---- shifts by a register amount ---- */

static void funnel(LowerCtx *c, bool left, bool is_signed, uint32_t d, unsigned dsub, uint32_t a, uint32_t n,
                   unsigned ns)
{
	LInsn *op = lw_emit(c, left ? SF_SHF_L_R : SF_SHF_R_R);
	linsn_ref(op, SR_RD, d, dsub, 1, true);
	linsn_ref(op, SR_RA, a, 0, 1, false);
	linsn_ref(op, SR_RB, n, ns, 1, false);
	linsn_ref(op, SR_RC, a, 1, 1, false);
	linsn_set(op, SR_MAXSHIFT, is_signed ? MAXSHIFT_S64 : MAXSHIFT_U64);
}

void lw_shift64_reg(LowerCtx *c, bool left, bool is_signed, uint32_t d, uint32_t a, const Opnd *n)
{
	uint32_t nv;
	unsigned ns;
	lw_opnd_part(c, n, 0, &nv, &ns);
	/* The funnel shift reads both words of a before the word it writes
	 * is read again: d may be a. */
	funnel(c, left, is_signed && !left, d, left ? 1 : 0, a, nv, ns);
	LInsn *op = lw_alu(c, left ? SASS_ALU_FORMS(SHL) : SASS_ALU_FORMS(SHR), d, left ? 0 : 1, a, left ? 0 : 1, n, 0);
	if (!left)
		linsn_set(op, SR_SIGNED, is_signed);
}

/* ---- 64-bit orderings ---- */

LInsn *lw_cmp64_x(LowerCtx *c, SassAluForms forms, uint32_t d, uint32_t a, const Opnd *b)
{
	LInsn *lo;
	uint32_t blo = (uint32_t)b->imm;
	if (b->kind == OPND_IMM && blo != 0) {
		lo = lw_emit(c, SF_IADD32I);
		linsn_set(lo, SR_IMM, (uint32_t)-blo);
	} else if (b->kind == OPND_IMM) {
		lo = lw_emit(c, SF_IADD_R);
		linsn_set(lo, SR_RB, 255);
		linsn_set(lo, SR_NEG, 1);
	} else {
		Opnd neg = *b;
		lo = lw_alu(c, SASS_ALU_FORMS(IADD), LW_NO_DST, 0, a, 0, &neg, 0);
		linsn_set(lo, SR_NEG, 1);
	}
	if (b->kind == OPND_IMM)
		linsn_ref(lo, SR_RA, a, 0, 1, false);
	linsn_set(lo, SR_RD, 255);
	linsn_set(lo, SR_CC, 1);
	lo->writes_cc = true;
	LInsn *op;
	if (b->kind == OPND_IMM && (uint64_t)b->imm >> 32 == 0) {
		op = lw_emit(c, forms.r);       /* a zero high word is RZ, as ptxas */
		if (d != LW_NO_DST)
			linsn_ref(op, SR_RD, d, 0, 1, true);
		linsn_ref(op, SR_RA, a, 1, 1, false);
		linsn_set(op, SR_RB, 255);
	} else {
		op = lw_alu(c, forms, d, 0, a, 1, b, 1);
	}
	linsn_set(op, SR_X, 1);
	op->reads_cc = true;
	return op;
}

bool lw_setp64_order(LowerCtx *c, unsigned cmp, bool is_signed, const SetpPreds *sp, unsigned bop, uint32_t a,
                     const Opnd *b)
{
	LInsn *op = lw_cmp64_x(c, SASS_ALU_FORMS(ISETP), LW_NO_DST, a, b);
	linsn_ref(op, SR_PD, sp->pd, 0, 1, true);
	if (sp->has_q)
		linsn_ref(op, SR_PQ, sp->pq, 0, 1, true);
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_SIGNED, is_signed);
	lw_setp_combine(op, sp, bop);
	return true;
}

/* ---- abs on signed integers ---- */

static void iadd_neg(LowerCtx *c, uint32_t d, unsigned sub, uint32_t a, bool cc, bool x)
{
	LInsn *op = lw_emit(c, SF_IADD_R);
	linsn_ref(op, SR_RD, d, sub, 1, true);
	linsn_set(op, SR_RA, 255);
	linsn_ref(op, SR_RB, a, sub, 1, false);
	linsn_set(op, SR_NEG, 1);
	linsn_set(op, SR_CC, cc);
	linsn_set(op, SR_X, x);
	op->writes_cc = cc;
	op->reads_cc = x;
}

bool lower_abs_int(LowerCtx *c, const Instr *in)
{
	PtxTy t = lw_instr_type(in);
	if (!t.is_signed || (t.bits != 16 && t.bits != 32 && t.bits != 64))
		return lw_unsupported(c, in->loc, "abs on this type (.s16, .s32 and .s64 are supported)");
	uint32_t d, a;
	unsigned dw;
	Opnd o;
	if (!lw_reg(c, in->ops[0], &d, &dw) || !lw_opnd(c, in->ops[1], &o))
		return false;
	if (o.kind == OPND_IMM && t.bits != 32) {
		/* folded, as ptxas 11.8 (-O0 too) writes it: MOV32I of each word;
		 * the most negative value is its own absolute value */
		uint64_t v = (uint64_t)o.imm;
		if (t.bits == 16)
			v = (uint16_t)v & 0x8000 ? (uint16_t)(0x10000 - (uint16_t)v) : (uint16_t)v;
		else if ((int64_t)v < 0)
			v = -v;
		for (unsigned w = 0; w < t.bits / 32 + (t.bits < 32); w++)
			lw_mov32i(c, d, w, (uint32_t)(v >> 32 * w));
		return true;
	}
	unsigned as;
	if (t.bits != 64) {
		lw_opnd_part(c, &o, 0, &a, &as);
		LInsn *op = lw_emit(c, SF_I2I_R);
		linsn_ref(op, SR_RD, d, 0, 1, true);
		linsn_ref(op, SR_RB, a, as, 1, false);
		linsn_set(op, SR_DTYPE, t.bits == 16 ? I2I_S16 : I2I_S32);
		linsn_set(op, SR_STYPE, t.bits == 16 ? I2I_S16 : I2I_S32);
		linsn_set(op, SR_ABS, 1);
		return true;
	}
	a = o.vreg;
	uint32_t p = lkernel_new_vreg(c->k, LRC_PRED, 1, true), n = lw_temp(c, 2);
	LInsn *sign = lw_emit(c, SF_I2I_R);
	linsn_set(sign, SR_RD, 255);
	linsn_ref(sign, SR_RB, a, 1, 1, false);
	linsn_set(sign, SR_DTYPE, I2I_S32);
	linsn_set(sign, SR_STYPE, I2I_S32);
	linsn_set(sign, SR_CC, 1);
	sign->writes_cc = true;
	LInsn *cmp = lw_emit(c, SF_CSETP);
	linsn_ref(cmp, SR_PD, p, 0, 1, true);
	linsn_set(cmp, SR_PQ, 7);
	linsn_set(cmp, SR_COND, CC_LT);
	linsn_set(cmp, SR_PC, 7);
	cmp->reads_cc = true;
	iadd_neg(c, n, 0, a, true, false);
	iadd_neg(c, n, 1, a, false, true);
	c->k->vregs[n].temp = false;
	for (unsigned i = 0; i < 2; i++) {
		LInsn *sel = lw_emit(c, SF_SEL_R);
		linsn_ref(sel, SR_RD, d, i, 1, true);
		linsn_ref(sel, SR_RA, n, i, 1, false);
		linsn_ref(sel, SR_RB, a, i, 1, false);
		linsn_ref(sel, SR_PC, p, 0, 1, false);
	}
	return true;
}

/* ---- activemask, rcp.approx.ftz.f64 ---- */

bool lower_activemask(LowerCtx *c, const Instr *in)
{
	uint32_t d;
	unsigned dw;
	if (!lw_reg(c, in->ops[0], &d, &dw))
		return false;
	LInsn *op = lw_emit(c, SF_VOTE);
	linsn_set(op, SR_VOTEMODE, VOTE_ANY);
	linsn_set(op, SR_PC, 7);
	linsn_ref(op, SR_RD, d, 0, 1, true);
	linsn_set(op, SR_PD, 7);
	return true;
}

bool lower_rcp_approx_f64(LowerCtx *c, const Instr *in)
{
	for (uint32_t i = 0; i < in->nmods; i++)
		if (!lw_streq(in->mods[i], ".approx") && !lw_streq(in->mods[i], ".ftz") &&
		    !lw_streq(in->mods[i], ".f64"))
			return lw_unsupported(c, in->mod_locs[i], "rcp.approx.f64 modifier '%s'", in->mods[i]);
	uint32_t d;
	unsigned dw, as;
	Opnd o;
	if (!lw_reg(c, in->ops[0], &d, &dw) || !lw_opnd(c, in->ops[1], &o))
		return false;
	uint32_t a;
	lw_opnd_part(c, &o, 1, &a, &as);
	LInsn *op = lw_emit(c, SF_MUFU);
	linsn_ref(op, SR_RD, d, 1, 1, true);
	linsn_ref(op, SR_RA, a, as, 1, false);
	linsn_set(op, SR_MUFUOP, MUFU_RCP64H);
	lw_mov_rz(c, d, 0);
	return true;
}

/* Lowering of comparisons, predicates and control flow: setp -> ISETP,
 * predicate logic -> PSETP, selp through guarded moves, bra -> BRA,
 * ret/exit -> EXIT. */
#include "lower/lower_internal.h"

#include <string.h>

/* ---- setp / bra / exit ---------------------------------------------------- */

static const struct { const char *word; unsigned cmp; int sign; } setp_cmps[] = {
	{ ".eq", 2, -1 }, { ".ne", 5, -1 }, { ".lt", 1, -1 }, { ".le", 3, -1 }, { ".gt", 4, -1 },
	{ ".ge", 6, -1 }, { ".lo", 1, 0 }, { ".ls", 3, 0 }, { ".hi", 4, 0 }, { ".hs", 6, 0 },
};

bool lower_setp(LowerCtx *c, const Instr *in)
{
	PtxTy t = lw_instr_type(in);
	int cmp = -1, sign = -1;
	unsigned bop = 0;
	bool has_bop = false;
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		bool known = ptx_type_of_word(w).bits != 0;
		for (size_t j = 0; j < sizeof setp_cmps / sizeof setp_cmps[0]; j++)
			if (strcmp(w, setp_cmps[j].word) == 0) {
				cmp = (int)setp_cmps[j].cmp;
				sign = setp_cmps[j].sign;
				known = true;
			}
		if (strcmp(w, ".and") == 0 || strcmp(w, ".or") == 0 || strcmp(w, ".xor") == 0) {
			bop = w[1] == 'a' ? 0 : w[1] == 'o' ? 1 : 2;
			has_bop = known = true;
		}
		if (!known)
			return lw_unsupported(c, in->mod_locs[i], "setp modifier '%s'", w);
	}
	if (cmp < 0 || t.is_float || t.bits < 16)
		return lw_unsupported(c, in->loc, "setp on this type (16/32-bit integer comparisons, and .eq/.ne "
		                      "on 64-bit integers, are supported)");
	bool is_signed = sign < 0 ? t.is_signed : false;
	SetpPreds sp;
	if (!lw_setp_preds(c, in, has_bop, &sp))
		return false;
	Opnd a, b;
	if (!lw_opnd(c, in->ops[1], &a) || !lw_opnd(c, in->ops[2], &b))
		return false;
	if (a.kind == OPND_IMM && b.kind == OPND_REG && t.bits <= 32) {
		/* ISETP's A is a register: swap the operands and reverse the
		 * comparison (lt <-> gt, le <-> ge), as ptxas 11.8 does */
		Opnd x = a;
		a = b;
		b = x;
		cmp = cmp == 1 ? 4 : cmp == 4 ? 1 : cmp == 3 ? 6 : cmp == 6 ? 3 : cmp;
	} else if (a.kind == OPND_IMM) {
		/* two constants, or a 64-bit one: the first goes through MOV32I,
		 * as ptxas 11.8 -O0 loads it (-O3 folds the comparison) */
		unsigned words = t.bits == 64 ? 2 : 1;
		uint32_t x = lw_temp(c, words);
		for (unsigned q = 0; q < words; q++)
			lw_mov32i(c, x, q, (uint32_t)((uint64_t)a.imm >> (32 * q)));
		a = (Opnd){ .kind = OPND_REG, .vreg = x, .width = words, .imm = 0 };
	}
	/* 64-bit: IADD RZ.CC on the low words, ISETP.X on the high ones (for
	 * .eq/.ne the zero flag ANDed in), as ptxas 11.8; a plain .eq/.ne
	 * without a predicate combination is two ISETPs, as ptxas -O0 */
	if (t.bits == 64 && ((cmp != 2 && cmp != 5) || sp.has_pc || sp.has_q))
		return lw_setp64_order(c, (unsigned)cmp, is_signed, &sp, bop, a.vreg, &b);
	if (t.bits == 16) {
		/* compare the extended values: the upper halves are undefined */
		uint32_t x = lw_temp(c, 1);
		lw_extend32(c, x, a.vreg, 16, is_signed);
		a.vreg = x;
		if (b.kind == OPND_REG) {
			uint32_t y = lw_temp(c, 1);
			lw_extend32(c, y, b.vreg, 16, is_signed);
			b.vreg = y;
		} else {
			b.imm = is_signed ? (int16_t)b.imm : (uint16_t)b.imm;
		}
	}
	unsigned parts = t.bits == 64 ? 2 : 1;
	uint32_t chain = 0;
	for (unsigned p = 0; p < parts; p++) {
		bool last = p + 1 == parts;
		uint32_t dst = last ? sp.pd : lkernel_new_vreg(c->k, LRC_PRED, 1, true);
		LInsn *op = lw_alu(c, SASS_ALU_FORMS(ISETP), LW_NO_DST, 0, a.vreg, p, &b, p);
		linsn_ref(op, SR_PD, dst, 0, 1, true);
		if (last && sp.has_q)
			linsn_ref(op, SR_PQ, sp.pq, 0, 1, true);
		linsn_set(op, SR_CMP, cmp);
		linsn_set(op, SR_SIGNED, is_signed);
		if (p > 0) {
			/* second half of a 64-bit eq/ne: combine with the first */
			linsn_ref(op, SR_PC, chain, 0, 1, false);
			linsn_set(op, SR_BOP, cmp == 2 ? 0 : 1);
		} else if (parts == 1) {
			lw_setp_combine(op, &sp, bop);
		}
		chain = dst;
	}
	return true;
}

bool lower_bra(LowerCtx *c, const Instr *in)
{
	if (in->nops != 1 || in->ops[0]->kind != EX_NAME)
		return lw_unsupported(c, in->loc, "indirect branches");
	const LMapEntry *e = lmap_find(&c->labels, in->ops[0]->text);
	if (e == NULL)
		return lw_unsupported(c, in->ops[0]->loc, "branch to '%s' (not a label of this kernel)",
		                      in->ops[0]->text);
	LInsn *b = lw_emit(c, SF_BRA);
	b->target = (int)e->value;
	return true;
}

bool lower_exit(LowerCtx *c, const Instr *in)
{
	lw_emit(c, SF_EXIT);
	return true;
}

/* ---- selp, neg, predicate logic ------------------------------------------- */

/* selp d, a, b, p: `@p MOV t, a; @!p MOV t, b; MOV d, t` (no SEL in the
 * encoder table). Exactly one of the guarded moves runs, so t is always
 * defined; the final copy usually coalesces away. */
bool lower_selp(LowerCtx *c, const Instr *in)
{
	PtxTy t = lw_instr_type(in);
	if (t.bits < 16 || in->nops != 4)
		return lw_unsupported(c, in->loc, "selp on this type");
	if (c->guard_vreg >= 0)
		return lw_unsupported(c, in->loc, "a guarded selp");
	uint32_t d;
	int p;
	unsigned dw;
	Opnd a, b;
	bool neg;
	if (!lw_reg(c, in->ops[0], &d, &dw) || !lw_opnd(c, in->ops[1], &a) || !lw_opnd(c, in->ops[2], &b) ||
	    !lw_pred_value(c, in->ops[3], &p, &neg))
		return false;
	unsigned parts = t.bits == 64 ? 2 : 1;
	if (p < 0) {
		/* a constant selector: a copy of the operand it picks */
		const Opnd *src = neg ? &b : &a;
		for (unsigned q = 0; q < parts; q++) {
			uint32_t sv;
			unsigned ss;
			lw_opnd_part(c, src, q, &sv, &ss);
			lw_mov(c, d, q, sv, ss);
		}
		return true;
	}
	uint32_t tmp = lw_temp(c, parts);
	for (unsigned pick = 0; pick < 2; pick++) {
		const Opnd *src = pick == 0 ? &a : &b;
		/* materialize immediates before the guard applies */
		uint32_t sv[2];
		unsigned ss[2];
		for (unsigned q = 0; q < parts; q++)
			lw_opnd_part(c, src, q, &sv[q], &ss[q]);
		c->guard_vreg = p;
		c->guard_neg = pick == 0 ? neg : !neg;
		for (unsigned q = 0; q < parts; q++)
			lw_mov(c, tmp, q, sv[q], ss[q]);
		c->guard_vreg = -1;
		c->guard_neg = false;
	}
	/* the two guarded defs of tmp each kill only under their guard: tmp is
	 * not a temporary in the liveness sense */
	c->k->vregs[tmp].temp = false;
	for (unsigned q = 0; q < parts; q++)
		lw_mov(c, d, q, tmp, q);
	return true;
}

enum { BOP_AND = 0, BOP_OR = 1, BOP_XOR = 2, PRED_PT = 7 };

/* A predicate source (lw_pred_value) in fields role and not_role. */
static bool pred_source(LowerCtx *c, LInsn *op, SassRole role, SassRole not_role, const Expr *e)
{
	int p;
	bool negated;
	if (!lw_pred_value(c, e, &p, &negated))
		return false;
	lw_op_pred(op, role, p, false);
	linsn_set(op, not_role, negated);
	return true;
}

/* and/or/xor/not/mov on predicates, as ptxas 11.8 -O0 writes them for
 * sm_50: one PSETP.{AND,OR,XOR}.AND d, PT, a, b, PT; not and mov are
 * PSETP.AND.AND d, PT, [!]a, PT, PT. (-O3 folds them into the ISETPs that
 * define the operands.) A guard applies to the PSETP like to any other
 * instruction. */
bool lower_pred_logic(LowerCtx *c, const Instr *in)
{
	bool is_not = strcmp(in->opcode, "not") == 0, is_mov = strcmp(in->opcode, "mov") == 0;
	uint32_t d;
	if (!lw_pred(c, in->ops[0], &d))
		return false;
	LInsn *op = lw_emit(c, SF_PSETP);
	linsn_ref(op, SR_PD, d, 0, 1, true);
	linsn_set(op, SR_PQ, PRED_PT);
	linsn_set(op, SR_PC, PRED_PT);
	linsn_set(op, SR_PC_NOT, 0);
	linsn_set(op, SR_BOP2, BOP_AND);
	if (!pred_source(c, op, SR_PA, SR_PA_NOT, in->ops[1]))
		return false;
	if (is_not || is_mov) {
		if (is_not)
			linsn_set(op, SR_PA_NOT, !linsn_get(op, SR_PA_NOT, 0));
		linsn_set(op, SR_PB, PRED_PT);
		linsn_set(op, SR_PB_NOT, 0);
		linsn_set(op, SR_BOP, BOP_AND);
		return true;
	}
	linsn_set(op, SR_BOP, in->opcode[0] == 'a' ? BOP_AND : in->opcode[0] == 'o' ? BOP_OR : BOP_XOR);
	return pred_source(c, op, SR_PB, SR_PB_NOT, in->ops[2]);
}

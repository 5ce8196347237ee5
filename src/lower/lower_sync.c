/* Lowering of barriers and memory fences: bar/barrier .sync and
 * .arrive -> BAR.SYNC/BAR.ARV followed by MEMBAR.CTA, membar.cta/.gl/.sys
 * -> MEMBAR.CTA / MEMBAR.GL.IVALLD / MEMBAR.SYS.IVALLD, bar.warp.sync ->
 * nothing (a warp runs in lockstep on sm_50), pmevent -> NOP.TRIG, as
 * ptxas 11.8 emits them.
 * ptxas also pads the code before a BAR with NOPs; those only spend time
 * and are not reproduced. */
#include "lower/lower_internal.h"

enum { BAR_SYNC = 0, BAR_ARV = 1 };
enum { MB_CTA = 0, MB_GL = 1, MB_SYS = 2 };
enum { IVALL_NONE = 0, IVALL_D = 1 };

static void membar(LowerCtx *c, unsigned level, unsigned ivall)
{
	LInsn *op = lw_emit(c, SF_MEMBAR);
	linsn_set(op, SR_MBLEVEL, level);
	linsn_set(op, SR_IVALL, ivall);
}

/* bar{.cta}{.sync,.arrive}{.aligned} a{, b} and barrier{...}, as ptxas
 * 11.8 writes them: an immediate number and count BAR a, b; a register
 * number BAR Ra, b; an immediate number and a register count BAR a, Rb
 * (the count is Rb itself); both in registers BFI t, Rcount, 0xc10, Rid
 * (the count in bits 27:16 of the number's register) then BAR t, t: the
 * register form of both reads the count from bits 27:16 of Rb. */
bool lower_bar(LowerCtx *c, const Instr *in)
{
	unsigned mode = BAR_SYNC;
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		if (lw_streq(w, ".arrive"))
			mode = BAR_ARV;
		else if (lw_streq(w, ".warp"))
			return lw_has_mod(in, ".sync") && in->nops == 1 ? true :
			       lw_unsupported(c, in->loc, "this bar.warp form");
		else if (!lw_streq(w, ".sync") && !lw_streq(w, ".aligned") && !lw_streq(w, ".cta"))
			return lw_unsupported(c, in->mod_locs[i], "%s modifier '%s'", in->opcode, w);
	}
	if (mode == BAR_ARV && in->nops != 2)
		return lw_unsupported(c, in->loc, "%s.arrive without a thread count", in->opcode);
	Opnd id, cnt = { OPND_IMM, 0, 1, 0 };
	if (!lw_opnd(c, in->ops[0], &id) || (in->nops == 2 && !lw_opnd(c, in->ops[1], &cnt)))
		return false;
	if ((id.kind == OPND_IMM && (id.imm < 0 || id.imm > 15)) ||
	    (cnt.kind == OPND_IMM && (cnt.imm < 0 || cnt.imm > 0xfff)))
		return lw_unsupported(c, in->loc, "this barrier number or thread count");
	uint32_t v, cv = 0;
	unsigned s, cs = 0;
	if (cnt.kind != OPND_IMM)
		lw_opnd_part(c, &cnt, 0, &cv, &cs);
	LInsn *op;
	if (id.kind == OPND_IMM) {
		op = lw_emit(c, cnt.kind == OPND_IMM ? SF_BAR_II : SF_BAR_IR);
		linsn_set(op, SR_BARID, id.imm);
	} else if (cnt.kind == OPND_IMM) {
		lw_opnd_part(c, &id, 0, &v, &s);
		op = lw_emit(c, SF_BAR_RI);
		linsn_ref(op, SR_RA, v, s, 1, false);
	} else {
		lw_opnd_part(c, &id, 0, &v, &s);
		uint32_t t = lw_temp(c, 1);
		LInsn *bfi = lw_emit(c, SF_BFI_I);
		linsn_ref(bfi, SR_RD, t, 0, 1, true);
		linsn_ref(bfi, SR_RA, cv, cs, 1, false);
		linsn_set(bfi, SR_IMM, 12 << 8 | 16);
		linsn_ref(bfi, SR_RC, v, s, 1, false);
		op = lw_emit(c, SF_BAR_RR);
		linsn_ref(op, SR_RA, t, 0, 1, false);
		cv = t, cs = 0;
	}
	linsn_set(op, SR_BARMODE, mode);
	if (cnt.kind == OPND_IMM)
		linsn_set(op, SR_BARCNT, cnt.imm);
	else
		linsn_ref(op, SR_RB, cv, cs, 1, false);
	/* ptxas orders memory after every barrier with a CTA fence */
	membar(c, MB_CTA, IVALL_NONE);
	return true;
}

bool lower_membar(LowerCtx *c, const Instr *in)
{
	static const struct { const char *word; unsigned level, ivall; } levels[] = {
		{ ".cta", MB_CTA, IVALL_NONE }, { ".gl", MB_GL, IVALL_D }, { ".sys", MB_SYS, IVALL_D },
	};
	for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
		if (in->nmods == 1 && lw_streq(in->mods[0], levels[i].word)) {
			membar(c, levels[i].level, levels[i].ivall);
			return true;
		}
	return lw_unsupported(c, in->loc, "this membar form (membar.cta, .gl and .sys are supported)");
}

/* pmevent a (an event 0 to 15) and pmevent.mask m (16 bits):
 * NOP.TRIG 1 << a or NOP.TRIG m, as ptxas 11.8 writes them; kept, since
 * the monitors see it though no register does. */
bool lower_pmevent(LowerCtx *c, const Instr *in)
{
	bool mask = lw_has_mod(in, ".mask");
	if (in->nmods > (mask ? 1u : 0u))
		return lw_unsupported(c, in->mod_locs[0], "pmevent modifier '%s'", in->mods[0]);
	Opnd a;
	if (!lw_opnd(c, in->ops[0], &a))
		return false;
	if (a.kind != OPND_IMM || a.imm < 0 || a.imm > (mask ? 0xffff : 15))
		return lw_unsupported(c, in->ops[0]->loc, "this pmevent operand (an event 0 to 15, or a "
		                      "16-bit mask with .mask, is expected)");
	LInsn *op = lw_emit(c, SF_NOP);
	linsn_set(op, SR_TRIG, 1);
	linsn_set(op, SR_IMM, mask ? (uint64_t)a.imm : 1u << a.imm);
	op->keep = true;
	return true;
}

/* ---- ctrl: barrier reductions ----
 * bar{.cta}.red.popc.u32 d, a{, b}, [!]c and bar{.cta}.red.{and,or}.pred
 * p, a{, b}, [!]c (also barrier.red): BAR.RED.op a, b, [!]c, the CTA fence
 * ptxas puts after every barrier, then B2R.RESULT d (popc) or
 * B2R.RESULT RZ, p (and/or), as ptxas 11.8 writes them (it also pads with
 * NOPs, which only spend time). The barrier number and count are
 * immediates, as in every compiler's output we have. */
bool lower_bar_red(LowerCtx *c, const Instr *in)
{
	static const char *const ops[] = { ".popc", ".and", ".or" };
	int op = -1;
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		for (int k = 0; k < 3; k++)
			if (lw_streq(w, ops[k]))
				op = k;
		if (op < 0 && !lw_streq(w, ".red") && !lw_streq(w, ".cta") && !lw_streq(w, ".aligned") &&
		    !lw_streq(w, ".u32") && !lw_streq(w, ".pred"))
			return lw_unsupported(c, in->mod_locs[i], "%s modifier '%s'", in->opcode, w);
	}
	if (op < 0)
		return lw_unsupported(c, in->loc, "%s.red without .popc, .and or .or", in->opcode);
	const Expr *p = in->ops[in->nops - 1];
	bool neg = false;
	if (p->kind == EX_UNARY && p->op == '!') {
		neg = true;
		p = p->lhs;
	}
	Opnd id, cnt = { OPND_IMM, 0, 1, 0 };
	uint32_t pc, d;
	unsigned dw = 1;
	if (!lw_opnd(c, in->ops[1], &id) || (in->nops == 4 && !lw_opnd(c, in->ops[2], &cnt)) || !lw_pred(c, p, &pc))
		return false;
	if (id.kind != OPND_IMM || cnt.kind != OPND_IMM)
		return lw_unsupported(c, in->loc, "a barrier number or thread count in a register with .red");
	if (id.imm < 0 || id.imm > 15 || cnt.imm < 0 || cnt.imm > 0xfff)
		return lw_unsupported(c, in->loc, "this barrier number or thread count");
	if (op == 0 ? !lw_reg(c, in->ops[0], &d, &dw) : !lw_pred(c, in->ops[0], &d))
		return false;
	LInsn *bar = lw_emit(c, SF_BAR_RED);
	linsn_set(bar, SR_BARRED, (unsigned)op);
	linsn_set(bar, SR_BARID, id.imm);
	linsn_set(bar, SR_BARCNT, cnt.imm);
	linsn_ref(bar, SR_PC, pc, 0, 1, false);
	linsn_set(bar, SR_PC_NOT, neg);
	bar->keep = true;
	membar(c, MB_CTA, IVALL_NONE);
	LInsn *r = lw_emit(c, SF_B2R);
	if (op == 0) {
		linsn_ref(r, SR_RD, d, 0, 1, true);
		linsn_set(r, SR_PD, 7);
		if (dw == 2)
			lw_mov_rz(c, d, 1);
	} else {
		linsn_set(r, SR_RD, 255);
		linsn_ref(r, SR_PD, d, 0, 1, true);
	}
	return true;
}

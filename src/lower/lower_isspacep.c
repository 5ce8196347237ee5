/* isspacep (issue 15): whether a generic address lies in a state space's
 * window, as ptxas 11.8 -O0 decides it for sm_50 (its -O3 folds the same
 * tests into fewer instructions).
 *
 * The shared and local windows are the 16 MiB ranges whose top byte the
 * driver puts in c[0x0][0x0] (shared) and c[0x0][0x4] (local), with a high
 * word of 0 (cvta.shared/.local build exactly those addresses):
 *   LOP32I.AND t, lo, 0xff000000
 *   ISETP.EQ.U32.AND q, PT, t, c[0x0][0x0 or 0x4], PT
 *   ISETP.EQ.U32.AND r, PT, hi, RZ, PT
 *   PSETP.AND.AND p, PT, r, q, PT
 * The constant window is [c[0x0][0xd0], + the module's .nv.constant3
 * bytes) (empty without .const data: both compares against the base):
 *   IADD RZ.CC, lo, -c[0x0][0xd0]; ISETP.GE.U32.X.AND q, PT, hi, c[0x0][0xd4], PT
 *   MOV32I e.lo, size; IADD e.lo.CC, e.lo, c[0x0][0xd0]; IADD.X e.hi, RZ, c[0x0][0xd4]
 *   IADD RZ.CC, lo, -e.lo; ISETP.LT.U32.X.AND r, PT, hi, e.hi, PT
 *   PSETP.AND.AND p, PT, q, r, PT
 * .global is none of the three: PSETP.OR.AND t, PT, s, l, PT;
 * PSETP.OR.AND t, PT, t, c, PT; PSETP.AND.AND p, PT, !t, PT, PT.
 * With .address_size 32 the address is its low word alone: the window
 * tests drop the high word's compare (ISETP.EQ.U32 into p), and the
 * constant window's are ISETP.GE.U32 q, a, c[0x0][0xd0]; MOV e,
 * c[0x0][0xd0]; IADD32I e, e, size; ISETP.LT.U32 r, a, e. */
#include "lower/lower_internal.h"

#include <string.h>

enum { PT = 7, SHARED_WINDOW_CWORD = SASS_SHARED_WINDOW_CWORD, LOCAL_WINDOW_CWORD = SASS_LOCAL_WINDOW_CWORD };

static uint32_t new_pred(LowerCtx *c)
{
	return lkernel_new_vreg(c->k, LRC_PRED, 1, true);
}

enum { CMP_LT = 1, CMP_EQ = 2, CMP_GE = 6, BOP_AND = 0, BOP_OR = 1, CONST_WINDOW_CWORD = SASS_CONST_WINDOW_CWORD };

/* p = (pa' bop pb') AND PT; a source < 0 is PT; *_not negates it. */
static void pred_op(LowerCtx *c, uint32_t p, unsigned bop, int pa, bool pa_not, int pb, bool pb_not)
{
	LInsn *op = lw_emit(c, SF_PSETP);
	linsn_ref(op, SR_PD, p, 0, 1, true);
	linsn_set(op, SR_PQ, PT);
	if (pa >= 0)
		linsn_ref(op, SR_PA, (uint32_t)pa, 0, 1, false);
	else
		linsn_set(op, SR_PA, PT);
	linsn_set(op, SR_PA_NOT, pa_not);
	if (pb >= 0)
		linsn_ref(op, SR_PB, (uint32_t)pb, 0, 1, false);
	else
		linsn_set(op, SR_PB, PT);
	linsn_set(op, SR_PB_NOT, pb_not);
	linsn_set(op, SR_PC, PT);
	linsn_set(op, SR_PC_NOT, 0);
	linsn_set(op, SR_BOP, bop);
	linsn_set(op, SR_BOP2, BOP_AND);
}

enum { CMP_RZ = -1, CMP_REG = -2 };

/* ISETP.cmp.U32 q, PT, ra.rsub, B, PT into q, B c[0x0][cword], RZ
 * (CMP_RZ) or rb.bsub (CMP_REG); .X (after an IADD RZ.CC) when x. */
static void compare_into(LowerCtx *c, uint32_t q, unsigned cmp, uint32_t ra, unsigned rsub, int cword,
                         uint32_t rb, unsigned bsub, bool x)
{
	LInsn *op = lw_emit(c, cword >= 0 ? SF_ISETP_C : SF_ISETP_R);
	linsn_ref(op, SR_PD, q, 0, 1, true);
	linsn_set(op, SR_PQ, PT);
	linsn_ref(op, SR_RA, ra, rsub, 1, false);
	if (cword >= 0) {
		linsn_set(op, SR_CBANK, 0);
		linsn_set(op, SR_COFF, (uint32_t)cword / 4);
	} else if (cword == CMP_REG) {
		linsn_ref(op, SR_RB, rb, bsub, 1, false);
	} else {
		linsn_set(op, SR_RB, 255);
	}
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_PC, PT);
	linsn_set(op, SR_BOP, BOP_AND);
	if (x) {
		linsn_set(op, SR_X, 1);
		op->reads_cc = true;
	}
}

/* The same into a new predicate, B c[0x0][cword] or RZ (cword < 0). */
static uint32_t compare(LowerCtx *c, unsigned cmp, uint32_t ra, unsigned rsub, int cword, bool x)
{
	uint32_t q = new_pred(c);
	compare_into(c, q, cmp, ra, rsub, cword < 0 ? CMP_RZ : cword, 0, 0, x);
	return q;
}

/* p = the address a (64-bit, or 32-bit: aw 1) is in the window whose top
 * byte is c[0x0][cword]. */
static void window_test(LowerCtx *c, uint32_t a, unsigned aw, uint32_t cword, uint32_t p)
{
	uint32_t t = lw_temp(c, 1);
	LInsn *and = lw_emit(c, SF_LOP32I);
	linsn_ref(and, SR_RD, t, 0, 1, true);
	linsn_ref(and, SR_RA, a, 0, 1, false);
	linsn_set(and, SR_LOPOP, 0);
	linsn_set(and, SR_IMM, 0xff000000);
	if (aw == 1) {
		compare_into(c, p, CMP_EQ, t, 0, (int)cword, 0, 0, false);
		return;
	}
	uint32_t q = compare(c, CMP_EQ, t, 0, (int)cword, false);
	uint32_t r = compare(c, CMP_EQ, a, 1, -1, false);
	pred_op(c, p, BOP_AND, (int)r, false, (int)q, false);
}

/* IADD RZ.CC, a.lo, -c[0x0][0xd0] (or -e.lo when e is a register): the
 * low words' compare of a 64-bit one. */
static void low_compare(LowerCtx *c, uint32_t a, const uint32_t *e)
{
	LInsn *sub = lw_emit(c, e ? SF_IADD_R : SF_IADD_C);
	linsn_set(sub, SR_RD, 255);
	linsn_ref(sub, SR_RA, a, 0, 1, false);
	if (e) {
		linsn_ref(sub, SR_RB, *e, 0, 1, false);
	} else {
		linsn_set(sub, SR_CBANK, 0);
		linsn_set(sub, SR_COFF, CONST_WINDOW_CWORD / 4);
	}
	linsn_set(sub, SR_NEG, 1);
	linsn_set(sub, SR_CC, 1);
	sub->writes_cc = true;
}

/* e = the constant window's end: base + the .const bytes placed so far
 * (64-bit: MOV32I, IADD.CC, IADD.X; 32-bit: MOV, IADD32I). */
static uint32_t const_end(LowerCtx *c, unsigned aw)
{
	uint32_t e = lw_temp(c, aw);
	if (aw == 1) {
		LInsn *mov = lw_emit(c, SF_MOV_C);
		linsn_ref(mov, SR_RD, e, 0, 1, true);
		linsn_set(mov, SR_CBANK, 0);
		linsn_set(mov, SR_COFF, CONST_WINDOW_CWORD / 4);
		LInsn *add = lw_emit(c, SF_IADD32I);
		linsn_ref(add, SR_RD, e, 0, 1, true);
		linsn_ref(add, SR_RA, e, 0, 1, false);
		linsn_set(add, SR_IMM, c->const_size);
		return e;
	}
	lw_mov32i(c, e, 0, c->const_size);
	lw_add_cword(c, e, 2, (LwWord[2]){ { e, 0 }, { LW_RZ, 0 } }, CONST_WINDOW_CWORD, false);
	return e;
}

/* p = a is in the constant window (empty when the module has no .const
 * data: then ptxas compares the high word against the base twice). */
static void const_test(LowerCtx *c, uint32_t a, unsigned aw, uint32_t p)
{
	uint32_t q = new_pred(c), r = new_pred(c);
	if (aw == 1) {
		compare_into(c, q, CMP_GE, a, 0, CONST_WINDOW_CWORD, 0, 0, false);
		uint32_t e = const_end(c, 1);
		compare_into(c, r, CMP_LT, a, 0, CMP_REG, e, 0, false);
	} else if (c->const_size == 0) {
		low_compare(c, a, NULL);
		compare_into(c, q, CMP_GE, a, 1, CONST_WINDOW_CWORD + 4, 0, 0, true);
		low_compare(c, a, NULL);
		compare_into(c, r, CMP_LT, a, 1, CONST_WINDOW_CWORD + 4, 0, 0, true);
	} else {
		low_compare(c, a, NULL);
		compare_into(c, q, CMP_GE, a, 1, CONST_WINDOW_CWORD + 4, 0, 0, true);
		uint32_t e = const_end(c, 2);
		low_compare(c, a, &e);
		compare_into(c, r, CMP_LT, a, 1, CMP_REG, e, 1, true);
	}
	pred_op(c, p, BOP_AND, (int)q, false, (int)r, false);
}

/* For generic atomics (lower_atom.c): a new predicate that is true when
 * the 64-bit address a is in the shared window. */
uint32_t lw_shared_window_pred(LowerCtx *c, uint32_t a, unsigned aw)
{
	uint32_t p = new_pred(c);
	window_test(c, a, aw, SHARED_WINDOW_CWORD, p);
	return p;
}

/* p = (pa' AND pb'), each source negated when its *_not says so. */
void lw_pred_and(LowerCtx *c, uint32_t p, uint32_t pa, bool pa_not, uint32_t pb, bool pb_not)
{
	pred_op(c, p, BOP_AND, (int)pa, pa_not, (int)pb, pb_not);
}

bool lower_isspacep(LowerCtx *c, const Instr *in)
{
	const char *space = NULL;
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *w = in->mods[i];
		if (strcmp(w, ".global") == 0 || strcmp(w, ".shared") == 0 || strcmp(w, ".local") == 0 ||
		    strcmp(w, ".const") == 0)
			space = w;
		else
			return lw_unsupported(c, in->mod_locs[i], "isspacep modifier '%s' (.global, .shared, "
			                      ".local and .const are supported)", w);
	}
	if (!space)
		return lw_unsupported(c, in->loc, "isspacep without a state space");
	uint32_t p, a;
	unsigned aw;
	if (!lw_pred(c, in->ops[0], &p))
		return false;
	if (in->ops[1]->kind != EX_NAME || in->ops[1]->text[0] != '%')
		return lw_unsupported(c, in->ops[1]->loc, "isspacep of this operand (a register holding "
		                      "a generic address is supported)");
	if (!lw_reg(c, in->ops[1], &a, &aw))
		return false;
	/* a 64-bit register is a 64-bit generic address under either
	 * .address_size (ptxas 11.8 tests both words under 32 too) */
	if (aw == 1 && c->lm->address64)
		return lw_unsupported(c, in->ops[1]->loc, "isspacep of a %u-bit address with .address_size %u",
		                      32 * aw, c->lm->address64 ? 64 : 32);
	if (strcmp(space, ".const") == 0) {
		const_test(c, a, aw, p);
	} else if (strcmp(space, ".shared") == 0) {
		window_test(c, a, aw, SHARED_WINDOW_CWORD, p);
	} else if (strcmp(space, ".local") == 0) {
		window_test(c, a, aw, LOCAL_WINDOW_CWORD, p);
	} else {
		uint32_t qs = new_pred(c), ql = new_pred(c), qc = new_pred(c), any = new_pred(c);
		window_test(c, a, aw, SHARED_WINDOW_CWORD, qs);
		window_test(c, a, aw, LOCAL_WINDOW_CWORD, ql);
		const_test(c, a, aw, qc);
		pred_op(c, any, BOP_OR, (int)qs, false, (int)ql, false);
		pred_op(c, any, BOP_OR, (int)any, false, (int)qc, false);
		pred_op(c, p, BOP_AND, (int)any, true, -1, false);
	}
	return true;
}

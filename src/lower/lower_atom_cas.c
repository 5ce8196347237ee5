/* Atomics sm_50 has no shared-memory form for (atom.shared.add.f32 and
 * the 64-bit add, min, max, and, or, xor), as ptxas 11.8 builds them: the
 * old value from an LDS, then a loop that computes the new value, tries
 * ATOMS.CAS{.64} and, when another thread changed the word meanwhile,
 * starts again from the value the CAS returned:
 *     LDS old, [a]
 *   loop:
 *     new = old op b            FADD (no .FTZ: ptxas's shared path keeps
 *                               denormals, unlike ATOM.E.ADD.F32.FTZ.RN),
 *                               IADD.CC/IADD.X, LOP, or a 64-bit compare
 *                               (IADD RZ.CC + ISETP.X) and two SELs
 *     ATOMS.CAS cur, [a], old, new
 *     p = cur == old            ISETP.EQ.U32 (64-bit: IADD RZ.CC, ISETP.X)
 *     @!p MOV old, cur
 *     @!p BRA loop
 * ptxas also skips the CAS of a min/max that changes nothing; every try
 * here stores, which writes the same value. */
#include "lower/lower_atom.h"

enum { PT = 7, CMP_LT = 1, CMP_EQ = 2, CMP_GT = 4, LOP_AND = 0, LOP_OR = 1, LOP_XOR = 2 };

bool atom_needs_cas_loop(const AtomShape *s)
{
	return s->type == AT_F32 || (s->parts == 2 && s->op != AOP_CAS && s->op != AOP_EXCH);
}

static Opnd reg_opnd(uint32_t v, unsigned width)
{
	return (Opnd){ .kind = OPND_REG, .vreg = v, .width = width };
}

/* d.dsub = a.asub + b.bsub (+ carry when x), setting the carry when cc. */
static void iadd(LowerCtx *c, uint32_t d, unsigned dsub, uint32_t a, unsigned asub, uint32_t b, unsigned bsub,
                 bool cc, bool x, bool neg_b)
{
	Opnd bo = reg_opnd(b, 2);
	LInsn *op = lw_alu(c, SASS_ALU_FORMS(IADD), d, dsub, a, asub, &bo, bsub);
	if (d == LW_NO_DST)
		linsn_set(op, SR_RD, 255);
	linsn_set(op, SR_NEG, neg_b);
	linsn_set(op, SR_CC, cc);
	linsn_set(op, SR_X, x);
	op->writes_cc = cc;
	op->reads_cc = x;
}

/* p = a.hi:a.lo cmp b.hi:b.lo (64-bit: the low words' borrow, then ISETP.X). */
static void compare(LowerCtx *c, uint32_t p, unsigned cmp, bool is_signed, uint32_t a, unsigned asub, uint32_t b,
                    unsigned bsub, unsigned parts)
{
	if (parts == 2)
		iadd(c, LW_NO_DST, 0, a, asub, b, bsub, true, false, true);
	Opnd bo = reg_opnd(b, parts);
	LInsn *op = lw_alu(c, SASS_ALU_FORMS(ISETP), LW_NO_DST, 0, a, asub + parts - 1, &bo, bsub + parts - 1);
	linsn_ref(op, SR_PD, p, 0, 1, true);
	linsn_set(op, SR_PQ, PT);
	linsn_set(op, SR_PC, PT);
	linsn_set(op, SR_CMP, cmp);
	linsn_set(op, SR_SIGNED, is_signed);
	if (parts == 2) {
		linsn_set(op, SR_X, 1);
		op->reads_cc = true;
	}
}

/* data.(parts..2*parts) = data.(0..parts) op b */
static void new_value(LowerCtx *c, const AtomShape *s, uint32_t data, uint32_t b)
{
	unsigned n = s->parts;
	if (s->type == AT_F32) {
		Opnd bo = reg_opnd(b, 1);
		LInsn *op = lw_alu(c, SASS_ALU_FORMS(FADD), data, 1, data, 0, &bo, 0);
		linsn_set(op, SR_RND, 0);
		return;
	}
	switch (s->op) {
	case AOP_ADD:
		iadd(c, data, n, data, 0, b, 0, true, false, false);
		iadd(c, data, n + 1, data, 1, b, 1, false, true, false);
		return;
	case AOP_AND: case AOP_OR: case AOP_XOR:
		for (unsigned p = 0; p < n; p++) {
			Opnd bo = reg_opnd(b, n);
			LInsn *op = lw_alu(c, SASS_ALU_FORMS(LOP), data, n + p, data, p, &bo, p);
			linsn_set(op, SR_LOPOP, s->op == AOP_AND ? LOP_AND : s->op == AOP_OR ? LOP_OR : LOP_XOR);
		}
		return;
	default: {     /* min, max: keep old when it is already the answer */
		uint32_t keep = lkernel_new_vreg(c->k, LRC_PRED, 1, true);
		compare(c, keep, s->op == AOP_MIN ? CMP_LT : CMP_GT, s->type == AT_S64, data, 0, b, 0, n);
		for (unsigned p = 0; p < n; p++) {
			Opnd bo = reg_opnd(b, n);
			LInsn *op = lw_alu(c, SASS_ALU_FORMS(SEL), data, n + p, data, p, &bo, p);
			linsn_ref(op, SR_PC, keep, 0, 1, false);
		}
		return;
	}
	}
}

void lw_atom_cas_loop(LowerCtx *c, const AtomShape *s, int base, int64_t off, uint32_t b, uint32_t dst)
{
	/* a guarded loop would spin on a stale predicate: branch around it */
	int g = c->guard_vreg, skip = -1;
	bool g_neg = c->guard_neg;
	if (g >= 0) {
		skip = lw_label_new(c->k);
		lw_branch(c, g, !g_neg, skip);
		c->guard_vreg = -1;
		c->guard_neg = false;
	}
	unsigned n = s->parts;
	uint32_t data = lw_temp(c, 2 * n), cur = lw_temp(c, n);
	LInsn *ld = lw_emit(c, SF_LDS);
	linsn_ref(ld, SR_RD, data, 0, n, true);
	int64_t loff = off;
	lw_window_base(c, ld, base, &loff);
	linsn_set(ld, SR_SIZE, sass_size_code(4 * n));
	linsn_set(ld, SR_U, 1);
	linsn_set(ld, SR_IMM, loff);
	int loop = lw_label_new(c->k);
	lw_label_place(c->k, loop);
	new_value(c, s, data, b);
	LInsn *cas = lw_emit(c, SF_ATOMS_CAS);
	linsn_ref(cas, SR_RD, cur, 0, n, true);
	int64_t woff = off;
	lw_window_base(c, cas, base, &woff);
	linsn_set(cas, SR_WOFF, woff / 4);
	linsn_set(cas, SR_CAS64, n == 2);
	linsn_ref(cas, SR_RB, data, 0, 2 * n, false);
	cas->keep = true;
	uint32_t same = lkernel_new_vreg(c->k, LRC_PRED, 1, true);
	compare(c, same, CMP_EQ, false, cur, 0, data, 0, n);
	c->guard_vreg = (int)same;
	c->guard_neg = true;
	for (unsigned p = 0; p < n; p++)
		lw_mov(c, data, p, cur, p);
	c->guard_vreg = -1;
	c->guard_neg = false;
	lw_branch(c, (int)same, true, loop);
	if (dst != LW_NO_DST)
		for (unsigned p = 0; p < n; p++)
			lw_mov(c, dst, p, cur, p);
	if (skip >= 0)
		lw_label_place(c->k, skip);
	c->guard_vreg = g;
	c->guard_neg = g_neg;
}

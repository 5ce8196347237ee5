/* The condition-code forms of ptxas 11.8's abs.s64 (int64 helper):
 * I2I.S32.S32 RZ.CC, a (the flags of a 32-bit value: zero and sign, no
 * carry or overflow), CSETP.test.bop Pd, Pq, CC, Pc (BRA's tests on the
 * flags), and the -O0 save and restore of the flags, P2R Rd, CC, Ra, mask
 * and R2P CC, Ra, mask. The flags' bit order in the register (zero, sign,
 * carry, overflow from bit 0; the second carry bit of IADD3.CC is not
 * kept) is the one yuzu's Maxwell recompiler reads; ptxas uses the two only
 * as a pair, so no order shows in its code. Other I2I forms are
 * sim_int.c's.
 *
 * r2p14: P2R and R2P of the predicate register (bit 40 clear): mask bit i
 * stands for Pi (i < 7), the byte selector for the byte of the register
 * that holds them. R2P PR, Ra.Bb, mask sets Pi to bit 8b + i of Ra for
 * each mask bit; P2R.Bb Rd, PR, Ra, mask writes Ra with bits 8b + i of the
 * mask replaced by Pi. ptxas 11.8 -O3 writes R2P PR for predicates that
 * test bits of one register, which pins the bit order (bit i -> Pi); the
 * merge of P2R follows the same layout (yuzu's Maxwell recompiler reads
 * both so). Mask bit 7 (PT, which cannot be written) is not modelled. */
#include "sim.h"

enum { CC_Z = 1, CC_S = 2, CC_C = 4, CC_O = 8 };
enum { I2I_S32 = 5, I2I_U32 = 4 };

static bool no(SimMachine *m, const SimInsn *in, const char *what)
{
	return sim_fail(m, in, "%s is not modelled", what), true;
}

static void set_pred(SimThread *t, int64_t p, bool v)
{
	if (p < SIM_NPREDS)
		t->p[p] = v;
}

static bool bop_combine(int64_t bop, bool r, bool c)
{
	return bop == 0 ? (r && c) : bop == 1 ? (r || c) : (r != c);
}

/* I2I.CC between 32-bit types (no .SAT, no byte select): the value with
 * |x| and -x applied, its zero and sign flags. */
static void exec_i2i_cc(SimMachine *m, const SimInsn *in, SimThread *t)
{
	int64_t st = sim_val(in, SR_STYPE, 4), dt = sim_val(in, SR_DTYPE, 4);
	if ((st != I2I_S32 && st != I2I_U32) || (dt != I2I_S32 && dt != I2I_U32) || sim_val(in, SR_SAT, 0) ||
	    sim_val(in, SR_BYTESEL, 0))
		return (void)no(m, in, "I2I.CC other than between 32-bit types");
	uint32_t b = sim_operand_b(m, in, t);
	int64_t v = st == I2I_S32 ? (int64_t)(int32_t)b : (int64_t)b;
	if (sim_val(in, SR_ABS, 0) && v < 0)
		v = -v;
	if (sim_val(in, SR_NEGB, 0))
		v = -v;
	uint32_t r = (uint32_t)v;
	t->cc.z = r == 0;
	t->cc.s = r >> 31;
	t->cc.c = false;
	t->cc.o = false;
	sim_set(t, sim_val(in, SR_RD, 255), r);
}

static uint32_t cc_bits(const SimThread *t)
{
	return (t->cc.z ? CC_Z : 0u) | (t->cc.s ? CC_S : 0u) | (t->cc.c ? CC_C : 0u) | (t->cc.o ? CC_O : 0u);
}

/* P2R/R2P of P0-P6 (r2p14); false when the form moves the flags */
static bool exec_pr_move(SimMachine *m, const SimInsn *in, SimThread *t)
{
	if (!sass_moves_pr(in->form))
		return false;
	uint32_t mask = (uint32_t)sim_val(in, SR_IMM, 0);
	unsigned shift = 8 * (unsigned)sim_val(in, SR_BYTESEL, 0);
	if (mask >> SIM_NPREDS)
		return no(m, in, "P2R/R2P of mask bit 7 (PT)");
	uint32_t a = sim_reg(t, sim_val(in, SR_RA, 255));
	if (in->form->op == SOP_R2P) {
		for (unsigned i = 0; i < SIM_NPREDS; i++)
			if ((mask >> i) & 1)
				t->p[i] = (a >> (shift + i)) & 1;
		return true;
	}
	uint32_t preds = 0;
	for (unsigned i = 0; i < SIM_NPREDS; i++)
		preds |= (uint32_t)t->p[i] << i;
	sim_set(t, sim_val(in, SR_RD, 255), (a & ~(mask << shift)) | ((preds & mask) << shift));
	return true;
}

bool sim_exec_int64(SimMachine *m, const SimInsn *in, SimThread *t)
{
	if ((in->form->op == SOP_P2R || in->form->op == SOP_R2P) && exec_pr_move(m, in, t))
		return true;
	switch (in->form->op) {
	case SOP_I2I:
		if (!sim_val(in, SR_CC, 0))
			return false;
		exec_i2i_cc(m, in, t);
		return true;
	case SOP_CSETP: {
		int r = sim_cc_test(t, sim_val(in, SR_COND, 0xf));
		if (r < 0)
			return no(m, in, "this CSETP condition-code test");
		bool c = sim_pred(t, sim_val(in, SR_PC, 7), sim_val(in, SR_PC_NOT, 0));
		int64_t bop = sim_val(in, SR_BOP, 0);
		set_pred(t, sim_val(in, SR_PD, 7), bop_combine(bop, r == 1, c));
		set_pred(t, sim_val(in, SR_PQ, 7), bop_combine(bop, r != 1, c));
		return true;
	}
	case SOP_P2R: {
		uint32_t mask = (uint32_t)sim_val(in, SR_IMM, 0);
		uint32_t a = sim_reg(t, sim_val(in, SR_RA, 255));
		sim_set(t, sim_val(in, SR_RD, 255), (a & ~mask) | (cc_bits(t) & mask));
		return true;
	}
	case SOP_R2P: {
		uint32_t mask = (uint32_t)sim_val(in, SR_IMM, 0);
		uint32_t v = (cc_bits(t) & ~mask) | (sim_reg(t, sim_val(in, SR_RA, 255)) & mask);
		t->cc.z = v & CC_Z;
		t->cc.s = v & CC_S;
		t->cc.c = v & CC_C;
		t->cc.o = v & CC_O;
		return true;
	}
	default:
		return false;
	}
}

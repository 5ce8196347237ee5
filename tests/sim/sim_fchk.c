/* The simulator's forms of the IEEE-rounded f32 division (divrn): FCHK,
 * FSET, ISCADD32I (Rd = (Ra << shift) + imm32) and LOP3 with a predicate
 * output; and FCMP (slct with an .f32 selector, legacy2).
 *
 * FCHK.DIVIDE Pd, A, B chooses between the MUFU.RCP + FFMA fast path of
 * div.rn.f32 and its slow path. NVIDIA does not document the hardware's
 * exact test; what the code relies on is that Pd is set whenever the fast
 * path may not give the correctly rounded quotient. The model sets it
 * exactly when the fast path's steps could leave the normal range, which
 * is a superset of the hardware's cases and never needed-but-unset:
 *   - A or B is zero, subnormal, infinite or NaN;
 *   - B's exponent is outside [-125, 125] (1/B or its refinement would be
 *     subnormal or overflow);
 *   - the quotient's exponent, exp(A) - exp(B), is outside [-124, 125];
 *   - A's exponent is below -102 (the residual A - B*q, about A * 2^-24,
 *     could be subnormal and lose bits).
 * The slow path computes the correctly rounded quotient for every input
 * (tests/sim/div-rn-check.sh checks both paths against the host's IEEE
 * division), so the model is safe; the differential tests run ptxas's
 * code and ours through the same model.
 *
 * FSET[.BF].cmp[.FTZ].bop Rd[.CC], A, B, Pc: ((A cmp B) bop Pc) as all
 * ones, or 1.0f with .BF; .CC sets the zero and sign flags by that word. LOP3.LUT.Z/.NZ Pd, Rd, A, B, C, lut: Rd the LOP3
 * result, Pd whether it is zero (.Z) or not (.NZ). */
#include "sim_fp.h"

#include <math.h>

/* The unbiased exponent of a normal f32's bits. */
static int f32_exponent(uint32_t bits)
{
	return (int)(bits >> 23 & 0xff) - 127;
}

static bool fchk_divide(uint32_t a, uint32_t b)
{
	if (!isnormal(sim_f32(a)) || !isnormal(sim_f32(b)))
		return true;
	int ea = f32_exponent(a), eb = f32_exponent(b), eq = ea - eb;
	return eb < -125 || eb > 125 || eq < -124 || eq > 125 || ea < -102;
}

/* LOP3's lookup: bit i of the result is bit (a<<2|b<<1|c) of lut, i.e.
 * the union of the minterms the table selects. */
static uint32_t lop3_minterms(uint32_t a, uint32_t b, uint32_t c, unsigned lut)
{
	uint32_t r = 0;
	for (unsigned k = 0; k < 8; k++)
		if (lut >> k & 1)
			r |= (k & 4 ? a : ~a) & (k & 2 ? b : ~b) & (k & 1 ? c : ~c);
	return r;
}

static bool bop(int64_t op, bool r, bool c)
{
	return op == 0 ? (r && c) : op == 1 ? (r || c) : (r != c);
}

static float fset_source(uint32_t bits, bool neg, bool abs, bool flush)
{
	float x = sim_ftz(sim_f32(bits), flush);
	if (abs)
		x = fabsf(x);
	return neg ? -x : x;
}

static void exec_fset(SimMachine *m, const SimInsn *in, SimThread *t)
{
	bool flush = sim_val(in, SR_FTZ, 0) != 0;
	uint32_t bb = in->form->bkind == SASS_B_IMM ? (uint32_t)sim_val(in, SR_IMM, 0) << 12 : sim_operand_b(m, in, t);
	float x = fset_source(sim_reg(t, sim_val(in, SR_RA, 255)), sim_val(in, SR_NEGA, 0), sim_val(in, SR_ABSA, 0), flush);
	float y = fset_source(bb, sim_val(in, SR_NEGB, 0), sim_val(in, SR_ABSB, 0), flush);
	bool c = sim_pred(t, sim_val(in, SR_PC, 7), sim_val(in, SR_PC_NOT, 0));
	bool r = bop(sim_val(in, SR_BOP, 0), sim_fcmp(x, y, sim_val(in, SR_CMP, 0)), c);
	uint32_t on = sim_val(in, SR_BF, 0) ? 0x3f800000u : 0xffffffffu, v = r ? on : 0;
	sim_set(t, sim_val(in, SR_RD, 255), v);
	if (sim_val(in, SR_CC, 0)) {
		/* ptxas -O3 tests FSET.CC's result with BRA CC.EQ: zero and sign
		 * of the word written; carry and overflow cleared, as a logical
		 * result leaves them */
		t->cc.z = v == 0;
		t->cc.s = v >> 31;
		t->cc.c = false;
		t->cc.o = false;
	}
}

bool sim_exec_fchk(SimMachine *m, const SimInsn *in, SimThread *t)
{
	SassOp op = in->form->op;
	bool lop3_pred = op == SOP_LOP3 && sass_form_field(in->form, SR_LOPTEST) != NULL;
	if (op != SOP_FCHK && op != SOP_FSET && op != SOP_ISCADD32I && op != SOP_FCMP && !lop3_pred)
		return false;
	if (op == SOP_FCMP) {
		/* legacy2: Rd = (Rc cmp 0.0) ? A : B, B a register, constant
		 * word or a float's top 20 bits */
		uint32_t b = in->form->bkind == SASS_B_IMM ? (uint32_t)sim_val(in, SR_IMM, 0) << 12
		                                           : sim_operand_b(m, in, t);
		float cv = fset_source(sim_reg(t, sim_val(in, SR_RC, 255)), false, false, sim_val(in, SR_FTZ, 0) != 0);
		bool r = sim_fcmp(cv, 0.0f, sim_val(in, SR_CMP, 0));
		sim_set(t, sim_val(in, SR_RD, 255), r ? sim_reg(t, sim_val(in, SR_RA, 255)) : b);
		return true;
	}
	if (op == SOP_ISCADD32I) {
		if (sim_val(in, SR_CC, 0))
			return sim_fail(m, in, "ISCADD32I.CC is not modelled"), true;
		uint32_t a = sim_reg(t, sim_val(in, SR_RA, 255));
		sim_set(t, sim_val(in, SR_RD, 255), (a << sim_val(in, SR_SHIFT, 0)) + (uint32_t)sim_val(in, SR_IMM, 0));
		return true;
	}
	if (op == SOP_FSET) {
		exec_fset(m, in, t);
		return true;
	}
	if (sim_val(in, SR_CC, 0))
		return sim_fail(m, in, "LOP3.CC is not modelled"), true;
	uint32_t a = sim_reg(t, sim_val(in, SR_RA, 255));
	bool p;
	if (op == SOP_FCHK) {
		if (sim_val(in, SR_CHKMODE, 0) != 0)
			return sim_fail(m, in, "FCHK check mode %lld is not modelled",
			                (long long)sim_val(in, SR_CHKMODE, 0)), true;
		/* FCHK_I: the divisor is a float's top 20 bits */
		p = fchk_divide(a, in->form->bkind == SASS_B_IMM ? (uint32_t)sim_val(in, SR_IMM, 0) << 12
		                                                 : sim_operand_b(m, in, t));
	} else {
		uint32_t r = lop3_minterms(a, sim_operand_b(m, in, t), sim_reg(t, sim_val(in, SR_RC, 255)),
		                           (unsigned)sim_val(in, SR_LUT, 0));
		sim_set(t, sim_val(in, SR_RD, 255), r);
		p = sim_val(in, SR_LOPTEST, 0) ? r != 0 : r == 0;
	}
	int64_t pd = sim_val(in, SR_PD, 7);
	if (pd < SIM_NPREDS)
		t->p[pd] = p;
	return true;
}

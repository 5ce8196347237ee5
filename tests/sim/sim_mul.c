/* The decoder-only integer forms ptxas emits, in the simulator: IMUL,
 * IMUL32I, IMAD (PTX mul.lo/mul.hi and mad.lo/mad.hi of the encoded
 * signedness), LOP3.LUT, ICMP (PTX slct), PSET and SHFL (PTX shfl of
 * sm_30..sm_6x: lanes exchange the registers sim_run.c read for them).
 * IMAD's carry (.CC, .X) is modelled as IADD's; IMUL's and IMAD.SAT are
 * not: ptxas 11.8's code for the test kernels does not use them. */
#include "sim.h"

static uint64_t product(const SimInsn *in, uint32_t a, uint32_t b)
{
	int64_t x = sim_val(in, SR_SA, 1) ? (int64_t)(int32_t)a : (int64_t)a;
	int64_t y = sim_val(in, SR_SB, 1) ? (int64_t)(int32_t)b : (int64_t)b;
	if (sim_val(in, SR_SA, 1) || sim_val(in, SR_SB, 1))
		return (uint64_t)(x * y);
	return (uint64_t)a * b;
}

/* Bit i of the result is bit (a_i << 2 | b_i << 1 | c_i) of lut. */
static uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, unsigned lut)
{
	uint32_t r = 0;
	for (unsigned i = 0; i < 32; i++) {
		unsigned k = (a >> i & 1) << 2 | (b >> i & 1) << 1 | (c >> i & 1);
		r |= (uint32_t)(lut >> k & 1) << i;
	}
	return r;
}

/* C cmp 0 (F LT EQ LE GT NE GE T), C signed or not */
static bool compare_zero(int64_t cmp, uint32_t c, bool sg)
{
	bool lt = sg && (int32_t)c < 0, eq = c == 0;
	switch (cmp) {
	case 1: return lt;
	case 2: return eq;
	case 3: return lt || eq;
	case 4: return !lt && !eq;
	case 5: return !eq;
	case 6: return !lt;
	case 7: return true;
	default: return false;
	}
}

static bool combine(int64_t bop, bool x, bool y)
{
	return bop == 0 ? (x && y) : bop == 1 ? (x || y) : (x != y);
}

static void exec_pset(SimMachine *m, const SimInsn *in, SimThread *t)
{
	if (sim_val(in, SR_CC, 0))
		return (void)sim_fail(m, in, "PSET.CC is not modelled");
	bool pa = sim_pred(t, sim_val(in, SR_PA, 7), sim_val(in, SR_PA_NOT, 0));
	bool pb = sim_pred(t, sim_val(in, SR_PB, 7), sim_val(in, SR_PB_NOT, 0));
	bool pc = sim_pred(t, sim_val(in, SR_PC, 7), sim_val(in, SR_PC_NOT, 0));
	bool r = combine(sim_val(in, SR_BOP2, 0), combine(sim_val(in, SR_BOP, 0), pa, pb), pc);
	sim_set(t, sim_val(in, SR_RD, 255), !r ? 0 : sim_val(in, SR_BF, 0) ? 0x3f800000u : 0xffffffffu);
}

/* SHFL.mode: the lane j the value comes from, within the segment the
 * mask (c bits 12:8) keeps and up to the clamp (c bits 4:0); a lane out of
 * range keeps its own value and sets the predicate false. */
static void exec_shfl(SimMachine *m, const SimInsn *in, SimThread *t)
{
	/* lane (B) and clamp/mask (C): registers or immediates */
	uint32_t lane = t->lane;
	uint32_t b = (sass_form_field(in->form, SR_RB) ? sim_reg(t, sim_val(in, SR_RB, 255))
	                                               : (uint32_t)sim_val(in, SR_IMM, 0)) & 31;
	uint32_t c = sass_form_field(in->form, SR_RC) ? sim_reg(t, sim_val(in, SR_RC, 255))
	                                              : (uint32_t)sim_val(in, SR_SHFLC, 0);
	uint32_t cval = c & 31, mask = c >> 8 & 31;
	uint32_t max_lane = (lane & mask) | (cval & ~mask), min_lane = lane & mask, j;
	bool ok;
	switch (sim_val(in, SR_SHFLMODE, 0)) {
	case 0: j = min_lane | (b & ~mask); ok = j <= max_lane; break;     /* IDX */
	case 1: j = lane - b; ok = (int32_t)j >= (int32_t)max_lane; break; /* UP */
	case 2: j = lane + b; ok = j <= max_lane; break;                   /* DOWN */
	default: j = lane ^ b; ok = j <= max_lane; break;                  /* BFLY */
	}
	if (!ok || j >= SIM_WARP)
		j = lane;
	sim_set(t, sim_val(in, SR_RD, 255), m->shfl_src[j]);
	int64_t pd = sim_val(in, SR_PD, 7);
	if (pd < SIM_NPREDS)
		t->p[pd] = ok;
}

bool sim_exec_mul(SimMachine *m, const SimInsn *in, SimThread *t)
{
	SassOp op = in->form->op;
	if (op == SOP_PSET)
		return exec_pset(m, in, t), true;
	if (op == SOP_SHFL)
		return exec_shfl(m, in, t), true;
	if (op != SOP_IMUL && op != SOP_IMUL32I && op != SOP_IMAD && op != SOP_LOP3 && op != SOP_ICMP)
		return false;
	int64_t rd = sim_val(in, SR_RD, 255);
	uint32_t a = sim_reg(t, sim_val(in, SR_RA, 255));
	bool rc = in->form->bkind == SASS_B_RC;
	uint32_t b = op == SOP_IMUL32I ? (uint32_t)sim_val(in, SR_IMM, 0)
	           : rc ? sim_reg(t, sim_val(in, SR_RB, 255)) : sim_operand_b(m, in, t);
	uint32_t c = rc ? sim_operand_b(m, in, t) : sim_reg(t, sim_val(in, SR_RC, 255));
	if (op == SOP_ICMP) {
		sim_set(t, rd, compare_zero(sim_val(in, SR_CMP, 0), c, sim_val(in, SR_SIGNED, 0)) ? a : b);
		return true;
	}
	if (op == SOP_LOP3) {
		uint32_t r = lop3(a, b, c, (unsigned)sim_val(in, SR_LUT, 0));
		if (sim_val(in, SR_CC, 0))   /* sim4: zero and sign, as LOP.CC */
			sim_set_cc_result(t, r);
		sim_set(t, rd, r);
		return true;
	}
	bool cc = sim_val(in, SR_CC, 0), x = sim_val(in, SR_X, 0);
	if (sim_val(in, SR_SAT, 0) || (op != SOP_IMAD && (cc || x)))
		return sim_fail(m, in, "IMUL with .CC or .X, and IMAD.SAT are not modelled"), true;
	uint64_t p = product(in, a, b);
	uint32_t r = sim_val(in, SR_HI, 0) ? (uint32_t)(p >> 32) : (uint32_t)p;
	if (op == SOP_IMAD) {
		bool na = sim_val(in, SR_NEGA, 0), nc = sim_val(in, SR_NEGC, 0);
		if ((cc || x) && (na || nc))
			return sim_fail(m, in, "IMAD.CC/.X with a negated operand is not modelled"), true;
		if (na && nc) {
			r = r + c + 1;          /* .PO */
		} else if (cc || x) {
			/* issue 14: ptxas -O0's carry chains (mad.lo.cc, madc.hi):
			 * the product's word plus C plus the carry in (.X); .CC
			 * leaves the carry of that sum as IADD does */
			uint64_t sum = (uint64_t)r + c + (x ? t->cc.c : 0);
			if (cc)
				sim_set_cc(t, r, c, sum, x);
			r = (uint32_t)sum;
		} else {
			r = (na ? -r : r) + (nc ? -c : c);
		}
	}
	sim_set(t, rd, r);
	return true;
}

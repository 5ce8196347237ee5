/* The special-function family of the simulator: MUFU and RRO.
 *
 * The hardware's MUFU results are approximations whose bits NVIDIA does
 * not specify (PTX: sin/cos/lg2 "maximum absolute error", ex2/rcp/rsqrt
 * ulp bounds), so the simulator cannot be bit-exact with a GPU here.
 * Instead it is deterministic and independent of either assembler: each
 * function is the correctly rounded f32 of the exact value (computed in
 * binary64 with the host's libm and rounded to nearest), with the MUFU
 * unit's denormal behaviour -- subnormal inputs and results flushed to
 * zero, which is why both assemblers scale around it -- and the IEEE
 * special cases (rcp(+-0) = +-inf, rsqrt(x<0) = NaN, lg2(0) = -inf,
 * ex2(-inf) = 0, sin/cos(inf) = NaN). Two cubins that compute a value
 * with the same MUFU sequence therefore write identical bytes, and the
 * differential tests compare them exactly; where the two sequences differ
 * the results may differ within the PTX error bounds (docs/simulator.md
 * lists where that needs a tolerance: nowhere in the current tests).
 *
 * RRO's range reduction produces a fixed-point format only MUFU reads;
 * the simulator keeps the float (with RRO's |B| and -B) and lets
 * MUFU.SIN/COS/EX2 take it, so RRO + MUFU computes sin/cos/ex2 of the
 * value. RCP64H and RSQ64H take the high word of an f64 and give the high
 * word of its reciprocal (square root) as a binary64, the seed of the
 * f64 division and square root sequences. */
#include "sim_fp.h"

#include <math.h>

enum { MUFU_COS, MUFU_SIN, MUFU_EX2, MUFU_LG2, MUFU_RCP, MUFU_RSQ, MUFU_RCP64H, MUFU_RSQ64H };

static double mufu_value(int64_t fn, double x)
{
	switch (fn) {
	case MUFU_COS: return cos(x);
	case MUFU_SIN: return sin(x);
	case MUFU_EX2: return exp2(x);
	case MUFU_LG2: return x < 0 ? NAN : log2(x);
	case MUFU_RCP: return 1.0 / x;
	default: return x < 0 ? NAN : 1.0 / sqrt(x);   /* MUFU_RSQ; rsq(-0) = -inf */
	}
}

static uint32_t exec_mufu(SimMachine *m, const SimInsn *in, uint32_t a)
{
	int64_t fn = sim_val(in, SR_MUFUOP, 0);
	if (fn > MUFU_RSQ64H) {
		sim_fail(m, in, "MUFU function %lld is not modelled", (long long)fn);
		return 0;
	}
	if (fn == MUFU_RCP64H || fn == MUFU_RSQ64H) {
		double x = sim_f64((uint64_t)a << 32);
		double r = fn == MUFU_RCP64H ? 1.0 / x : (x < 0 ? NAN : x == 0 ? 1.0 / x : 1.0 / sqrt(x));
		return (uint32_t)(sim_bits64(r) >> 32);
	}
	float x = sim_ftz(sim_f32(a), true);
	if (sim_val(in, SR_ABSA, 0))
		x = fabsf(x);
	if (sim_val(in, SR_NEGA, 0))
		x = -x;
	double v = fn == MUFU_RSQ && x == 0 ? 1.0 / (double)x : mufu_value(fn, (double)x);
	float r = sim_ftz((float)v, true);
	if (sim_val(in, SR_SAT, 0))
		r = isnan(r) ? 0.0f : r < 0.0f ? 0.0f : r > 1.0f ? 1.0f : r;
	return isnan(r) ? 0x7fffffffu : sim_bits32(r);
}

bool sim_exec_sfu(SimMachine *m, const SimInsn *in, SimThread *t)
{
	int64_t rd = sim_val(in, SR_RD, 255);
	switch (in->form->op) {
	case SOP_MUFU:
		sim_set(t, rd, exec_mufu(m, in, sim_reg(t, sim_val(in, SR_RA, 255))));
		return true;
	case SOP_RRO: {
		float x = sim_ftz(sim_f32(sim_operand_b(m, in, t)), true);
		if (sim_val(in, SR_ABSB, 0))
			x = fabsf(x);
		if (sim_val(in, SR_NEGB, 0))
			x = -x;
		sim_set(t, rd, sim_bits32(x));
		return true;
	}
	default:
		return false;
	}
}

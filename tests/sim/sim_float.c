/* The single-precision float and conversion families of the simulator:
 * FADD FMUL FFMA FMNMX FSETP with their operand modifiers, denormal
 * flushing and the four rounding modes (the host's fenv); I2F and F2I are
 * sim_convert.c's. */
#include "sim_fp.h"

#include <fenv.h>
#include <math.h>
#include <string.h>

/* A float source with its modifiers: |x| first, then the negation. */
static float fsrc(uint32_t bits, bool neg, bool abs, bool flush)
{
	float x = sim_ftz(sim_f32(bits), flush);
	if (abs)
		x = fabsf(x);
	return neg ? -x : x;
}

/* Operand B of a float form; a 20-bit immediate holds the top bits. */
static uint32_t float_b(SimMachine *m, const SimInsn *in, const SimThread *t)
{
	if (in->form->bkind == SASS_B_IMM)
		return (uint32_t)sim_val(in, SR_IMM, 0) << 12;
	if (in->form->bkind == SASS_B_RC)
		return sim_reg(t, sim_val(in, SR_RB, 255));
	return sim_operand_b(m, in, t);
}

/* A NaN result is the canonical 0x7fffffff whatever the operands' NaNs
 * (the hardware does not propagate payloads or signs, as MUFU does not):
 * two sequences that reach a NaN through different operand orders, such
 * as ptxas's -O0 and -O3 square-root slow paths, write the same word. */
static float fresult(float r, const SimInsn *in, bool flush)
{
	if (sim_val(in, SR_SAT, 0))
		r = isnan(r) ? 0.0f : r < 0.0f ? 0.0f : r > 1.0f ? 1.0f : r;
	return isnan(r) ? sim_f32(0x7fffffffu) : sim_ftz(r, flush);
}

/* x op y (op: '+', '*', 'f' for fma with z) in the instruction's rounding. */
static float rounded(int64_t rnd, char op, float x, float y, float z)
{
	int saved = fegetround();
	fesetround(sim_fe_round(rnd));
	volatile float vx = x, vy = y, vz = z;
	float r = op == '+' ? vx + vy : op == '*' ? vx * vy : fmaf(vx, vy, vz);
	fesetround(saved);
	return r;
}

/* FMUL.D2/.D4/.D8/.M8/.M4/.M2 (scale 1..6): the product times 2^-1..-3 or
 * 2^3..1, rounded once (the product of two floats and its power-of-two
 * multiple are exact in a double; what ptxas -O3 writes for x * y * 0.5,
 * HeCBench projectile, where rounding once or twice differs only when the
 * result is subnormal). Scale 7 has no name (INVALIDSCALE37): a gap. */
static float scaled_product(int64_t rnd, float x, float y, int64_t scale)
{
	static const int exp2[] = { 0, -1, -2, -3, 3, 2, 1, 0 };
	int saved = fegetround();
	fesetround(sim_fe_round(rnd));
	volatile double p = ldexp((double)x * (double)y, exp2[scale & 7]);
	volatile float r = (float)p;
	fesetround(saved);
	return r;
}

bool sim_exec_float(SimMachine *m, const SimInsn *in, SimThread *t)
{
	SassOp op = in->form->op;
	if (op != SOP_FADD && op != SOP_FADD32I && op != SOP_FMUL && op != SOP_FMUL32I &&
	    op != SOP_FFMA && op != SOP_FMNMX && op != SOP_FSETP && op != SOP_I2F && op != SOP_F2I)
		return false;
	int64_t rd = sim_val(in, SR_RD, 255);
	if (op == SOP_I2F || op == SOP_F2I)
		return sim_exec_conversion(m, in, t);
	if (sim_val(in, SR_CC, 0))
		return sim_fail(m, in, "float ops with .CC are not modelled"), true;
	if (sim_val(in, SR_SCALE, 0) == 7)
		return sim_fail(m, in, "FMUL scale 7 is not modelled"), true;
	if (sim_val(in, SR_FMZ, 0) == 2)
		return sim_fail(m, in, ".FMZ is not modelled"), true;
	bool flush = sim_val(in, SR_FTZ, 0) || sim_val(in, SR_FMZ, 0);
	int64_t rnd = sim_val(in, SR_RND, 0);
	bool c = sim_pred(t, sim_val(in, SR_PC, 7), sim_val(in, SR_PC_NOT, 0));
	float x = fsrc(sim_reg(t, sim_val(in, SR_RA, 255)), sim_val(in, SR_NEGA, 0), sim_val(in, SR_ABSA, 0), flush);
	uint32_t bb = op == SOP_FADD32I || op == SOP_FMUL32I ? (uint32_t)sim_val(in, SR_IMM, 0) : float_b(m, in, t);
	float y = fsrc(bb, sim_val(in, SR_NEGB, 0), sim_val(in, SR_ABSB, 0), flush);
	switch (op) {
	case SOP_FADD: case SOP_FADD32I:
		sim_set(t, rd, sim_bits32(fresult(rounded(rnd, '+', x, y, 0), in, flush)));
		return true;
	case SOP_FMUL: case SOP_FMUL32I: {
		int64_t scale = op == SOP_FMUL ? sim_val(in, SR_SCALE, 0) : 0;
		float r = scale ? scaled_product(rnd, x, y, scale) : rounded(rnd, '*', x, y, 0);
		sim_set(t, rd, sim_bits32(fresult(r, in, flush)));
		return true;
	}
	case SOP_FFMA: {
		uint32_t cb = in->form->bkind == SASS_B_RC ? sim_operand_b(m, in, t)
		                                           : sim_reg(t, sim_val(in, SR_RC, 255));
		float z = fsrc(cb, sim_val(in, SR_NEGC, 0), false, flush);
		sim_set(t, rd, sim_bits32(fresult(rounded(rnd, 'f', x, y, z), in, flush)));
		return true;
	}
	case SOP_FMNMX:
		sim_set(t, rd, sim_bits32(sim_ftz(c ? fminf(x, y) : fmaxf(x, y), flush)));
		return true;
	default:    /* FSETP */
		sim_set_fpred(t, in, sim_fcmp(x, y, sim_val(in, SR_CMP, 0)));
		return true;
	}
}

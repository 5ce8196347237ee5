/* The single-precision float and conversion families of the simulator:
 * FADD FMUL FFMA FMNMX FSETP I2F F2I with their operand modifiers,
 * denormal flushing and the four rounding modes (the host's fenv). */
#include "sim.h"

#include <fenv.h>
#include <math.h>
#include <string.h>

static float f32(uint32_t bits)
{
	float f;
	memcpy(&f, &bits, sizeof f);
	return f;
}

static uint32_t bits32(float f)
{
	uint32_t b;
	memcpy(&b, &f, sizeof b);
	return b;
}

static float ftz(float x, bool on)
{
	return on && fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x;
}

/* A float source with its modifiers: |x| first, then the negation. */
static float fsrc(uint32_t bits, bool neg, bool abs, bool flush)
{
	float x = ftz(f32(bits), flush);
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

static float fresult(float r, const SimInsn *in, bool flush)
{
	if (sim_val(in, SR_SAT, 0))
		r = isnan(r) ? 0.0f : r < 0.0f ? 0.0f : r > 1.0f ? 1.0f : r;
	return ftz(r, flush);
}

static const int rounding[] = { FE_TONEAREST, FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO };

/* x op y (op: '+', '*', 'f' for fma with z) in the instruction's rounding. */
static float rounded(int64_t rnd, char op, float x, float y, float z)
{
	int saved = fegetround();
	fesetround(rounding[rnd & 3]);
	volatile float vx = x, vy = y, vz = z;
	float r = op == '+' ? vx + vy : op == '*' ? vx * vy : fmaf(vx, vy, vz);
	fesetround(saved);
	return r;
}

static bool fcmp(float x, float y, int64_t cmp)
{
	bool un = isnan(x) || isnan(y);
	bool lt = !un && x < y, eq = !un && x == y, gt = !un && x > y;
	switch (cmp & 7) {
	case 0: return cmp == 8 ? un : false;
	case 1: return lt || (cmp > 7 && un);
	case 2: return eq || (cmp > 7 && un);
	case 3: return lt || eq || (cmp > 7 && un);
	case 4: return gt || (cmp > 7 && un);
	case 5: return lt || gt || (cmp > 7 && un);
	case 6: return gt || eq || (cmp > 7 && un);
	default: return cmp == 7 ? !un : true;
	}
}

static int64_t int_of(const SimThread *t, int64_t reg, int64_t type)
{
	uint32_t lo = sim_reg(t, reg);
	bool sg = type & 1;
	switch (type >> 1) {
	case 0: return sg ? (int8_t)lo : (uint8_t)lo;
	case 1: return sg ? (int16_t)lo : (uint16_t)lo;
	case 2: return sg ? (int32_t)lo : (int64_t)lo;
	default: return (int64_t)((uint64_t)sim_reg(t, reg == 255 ? 255 : reg + 1) << 32 | lo);
	}
}

/* float -> integer of type `type` (signed | size << 1), saturated, NaN 0 */
static uint64_t f2i(float x, int64_t type)
{
	unsigned bits = 8u << (type >> 1);
	bool sg = type & 1;
	if (isnan(x))
		return 0;
	double lo = sg ? -ldexp(1.0, (int)bits - 1) : 0.0;
	double hi = sg ? ldexp(1.0, (int)bits - 1) - 1 : ldexp(1.0, (int)bits) - 1;
	double d = x < lo ? lo : x > hi ? hi : x;
	return sg ? (uint64_t)(int64_t)d : (uint64_t)d;
}

static void set_fpred(SimThread *t, const SimInsn *in, bool r, bool c)
{
	int64_t bop = sim_val(in, SR_BOP, 0), d = sim_val(in, SR_PD, 7), q = sim_val(in, SR_PQ, 7);
	if (d < SIM_NPREDS) t->p[d] = bop == 0 ? (r && c) : bop == 1 ? (r || c) : (r != c);
	if (q < SIM_NPREDS) t->p[q] = bop == 0 ? (!r && c) : bop == 1 ? (!r || c) : (!r != c);
}

static bool conversion(SimMachine *m, const SimInsn *in, SimThread *t, int64_t rd)
{
	if (sim_val(in, SR_CC, 0) || sim_val(in, SR_NEGB, 0) || sim_val(in, SR_ABSB, 0) ||
	    sim_val(in, SR_BYTESEL, 0))
		return sim_fail(m, in, "conversions with .CC, -B, |B| or a byte select are not modelled"), true;
	if (in->form->op == SOP_I2F) {
		int64_t st = sim_val(in, SR_STYPE, 4);
		if (sim_val(in, SR_DTYPE, 2) != 2)
			return sim_fail(m, in, "I2F to another format than F32 is not modelled"), true;
		int64_t v = int_of(t, in->form->bkind == SASS_B_REG ? sim_val(in, SR_RB, 255) : 255, st);
		if (in->form->bkind != SASS_B_REG)
			v = (int64_t)(int32_t)sim_operand_b(m, in, t);
		int saved = fegetround();
		fesetround(rounding[sim_val(in, SR_RND, 0) & 3]);
		volatile int64_t vv = v;
		float r = (st & 1) || (st >> 1) < 3 ? (float)vv : (float)(uint64_t)vv;
		fesetround(saved);
		sim_set(t, rd, bits32(r));
		return true;
	}
	if (sim_val(in, SR_STYPE, 2) != 2)
		return sim_fail(m, in, "F2I from another format than F32 is not modelled"), true;
	float s = ftz(f32(in->form->bkind == SASS_B_REG ? sim_reg(t, sim_val(in, SR_RB, 255))
	                                                : sim_operand_b(m, in, t)),
	              sim_val(in, SR_FTZ, 0));
	int64_t rnd = sim_val(in, SR_RND, 0), dt = sim_val(in, SR_DTYPE, 4);
	s = rnd == 0 ? rintf(s) : rnd == 1 ? floorf(s) : rnd == 2 ? ceilf(s) : truncf(s);
	uint64_t r = f2i(s, dt);
	sim_set(t, rd, (uint32_t)r);
	if (dt >> 1 == 3)
		sim_set(t, rd == 255 ? 255 : rd + 1, (uint32_t)(r >> 32));
	return true;
}

bool sim_exec_float(SimMachine *m, const SimInsn *in, SimThread *t)
{
	SassOp op = in->form->op;
	if (op != SOP_FADD && op != SOP_FADD32I && op != SOP_FMUL && op != SOP_FMUL32I &&
	    op != SOP_FFMA && op != SOP_FMNMX && op != SOP_FSETP && op != SOP_I2F && op != SOP_F2I)
		return false;
	int64_t rd = sim_val(in, SR_RD, 255);
	if (op == SOP_I2F || op == SOP_F2I)
		return conversion(m, in, t, rd);
	if (sim_val(in, SR_CC, 0))
		return sim_fail(m, in, "float ops with .CC are not modelled"), true;
	if (sim_val(in, SR_SCALE, 0))
		return sim_fail(m, in, "FMUL result scaling is not modelled"), true;
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
		sim_set(t, rd, bits32(fresult(rounded(rnd, '+', x, y, 0), in, flush)));
		return true;
	case SOP_FMUL: case SOP_FMUL32I:
		sim_set(t, rd, bits32(fresult(rounded(rnd, '*', x, y, 0), in, flush)));
		return true;
	case SOP_FFMA: {
		uint32_t cb = in->form->bkind == SASS_B_RC ? sim_operand_b(m, in, t)
		                                           : sim_reg(t, sim_val(in, SR_RC, 255));
		float z = fsrc(cb, sim_val(in, SR_NEGC, 0), false, flush);
		sim_set(t, rd, bits32(fresult(rounded(rnd, 'f', x, y, z), in, flush)));
		return true;
	}
	case SOP_FMNMX:
		sim_set(t, rd, bits32(ftz(c ? fminf(x, y) : fmaxf(x, y), flush)));
		return true;
	default:    /* FSETP */
		set_fpred(t, in, fcmp(x, y, sim_val(in, SR_CMP, 0)), c);
		return true;
	}
}

/* The conversions of the simulator: I2F, F2I and F2F in every encoded
 * type (integers signed | size << 1: U8 S8 U16 S16 U32 S32 U64 S64;
 * floats 1 F16, 2 F32, 3 F64), with the byte select, |B| and -B, .FTZ,
 * .SAT, the rounding modes and F2F's rounding to an integral value.
 * 64-bit values and F64 are register pairs (or two constant words); an
 * F16 is the low half of a register (.H1: the high half). A float to
 * integer conversion saturates to the type's range and turns NaN into 0;
 * a float result that is NaN is the canonical NaN of its format (PTX cvt). */
#include "sim_fp.h"

#include <fenv.h>
#include <math.h>

/* Operand B as 64 bits: a register pair, two constant words, or an
 * immediate (one word). */
static uint64_t conv_source(SimMachine *m, const SimInsn *in, const SimThread *t, bool wide)
{
	switch (in->form->bkind) {
	case SASS_B_REG: {
		int64_t rb = sim_val(in, SR_RB, 255);
		return wide ? sim_reg64(t, rb) : sim_reg(t, rb);
	}
	case SASS_B_CONST: {
		unsigned bank = (unsigned)sim_val(in, SR_CBANK, 0);
		int64_t off = 4 * (sim_val(in, SR_COFF, 0) & 0x3fff);   /* unsigned to the hardware */
		uint64_t lo = sim_cword(m, in, bank, off);
		return wide ? (uint64_t)sim_cword(m, in, bank, off + 4) << 32 | lo : lo;
	}
	default: return sim_operand_b(m, in, t);
	}
}

/* A float of format ty (1 F16, 2 F32, 3 F64) from its bits, as a double
 * (exact); an F32 subnormal flushed on .FTZ. */
static double float_of(uint64_t bits, int64_t ty, bool flush)
{
	if (ty == 1)
		return sim_half_to_double((uint16_t)bits);
	if (ty == 2)
		return sim_ftz(sim_f32((uint32_t)bits), flush);
	return sim_f64(bits);
}

/* x (exact in a double) in format ty, rounded in mode rnd. */
static uint64_t float_bits(double x, int64_t ty, int64_t rnd, bool flush)
{
	if (ty == 1)
		return sim_double_to_half(x, rnd);
	if (ty == 2)
		return isnan(x) ? 0x7fffffffu : sim_bits32(sim_ftz(sim_double_to_f32(x, rnd), flush));
	return isnan(x) ? 0x7fffffffffffffffull : sim_bits64(x);
}

static void set_typed(SimThread *t, int64_t rd, uint64_t v, bool wide)
{
	if (wide)
		sim_set64(t, rd, v);
	else
		sim_set(t, rd, (uint32_t)v);
}

static void exec_i2f(SimMachine *m, const SimInsn *in, SimThread *t)
{
	int64_t st = sim_val(in, SR_STYPE, 4), dt = sim_val(in, SR_DTYPE, 2), rnd = sim_val(in, SR_RND, 0);
	unsigned bits = 8u << (st >> 1);
	bool sg = st & 1;
	uint64_t raw = conv_source(m, in, t, bits == 64);
	if (bits < 32)
		raw >>= 8 * sim_val(in, SR_BYTESEL, 0);
	bool neg = sim_val(in, SR_NEGB, 0), abs = sim_val(in, SR_ABSB, 0);
	if (bits == 64 && (neg || abs))
		return (void)sim_fail(m, in, "I2F of a 64-bit integer with -B or |B| is not modelled");
	double r;
	int saved = fegetround();
	fesetround(sim_fe_round(dt == 1 ? 0 : rnd));
	if (bits == 64 && !sg) {
		volatile uint64_t v = raw;
		r = dt == 2 ? (double)(float)v : (double)v;
	} else {
		int64_t v = bits == 64 ? (int64_t)raw
		          : sg ? (int64_t)((int64_t)(raw << (64 - bits)) >> (64 - bits))
		          : (int64_t)(raw & ((1ull << bits) - 1));
		if (abs && v < 0)
			v = -v;
		if (neg)
			v = -v;
		volatile int64_t vv = v;
		r = dt == 2 ? (double)(float)vv : (double)vv;
	}
	fesetround(saved);
	/* F16: an integer of up to 2^53 is exact in the double, rounded once */
	set_typed(t, sim_val(in, SR_RD, 255), float_bits(r, dt, rnd, false), dt == 3);
}

/* float -> integer of type `type` (signed | size << 1), saturated, NaN 0 */
static uint64_t saturate_int(double x, int64_t type)
{
	unsigned bits = 8u << (type >> 1);
	bool sg = type & 1;
	if (isnan(x))
		return 0;
	double lo = sg ? -ldexp(1.0, (int)bits - 1) : 0.0;
	double hi = sg ? ldexp(1.0, (int)bits - 1) : ldexp(1.0, (int)bits);
	if (x <= lo)
		return sg ? (uint64_t)(int64_t)lo : 0;
	if (x >= hi)   /* hi itself is not representable: the largest value */
		return sg ? (uint64_t)(((uint64_t)1 << (bits - 1)) - 1) : bits == 64 ? ~0ull : ((uint64_t)1 << bits) - 1;
	return sg ? (uint64_t)(int64_t)x : (uint64_t)x;
}

static double round_integral(double x, int64_t rnd)
{
	return rnd == 0 ? nearbyint(x) : rnd == 1 ? floor(x) : rnd == 2 ? ceil(x) : trunc(x);
}

static double float_source(SimMachine *m, const SimInsn *in, const SimThread *t, int64_t st)
{
	uint64_t raw = conv_source(m, in, t, st == 3);
	if (st == 1 && sim_val(in, SR_HB, 0))
		raw >>= 16;
	double x = float_of(raw, st, sim_val(in, SR_FTZ, 0));
	if (sim_val(in, SR_ABSB, 0))
		x = fabs(x);
	return sim_val(in, SR_NEGB, 0) ? -x : x;
}

static void exec_f2i(SimMachine *m, const SimInsn *in, SimThread *t)
{
	int64_t st = sim_val(in, SR_STYPE, 2), dt = sim_val(in, SR_DTYPE, 4);
	double x = round_integral(float_source(m, in, t, st), sim_val(in, SR_RND, 0));
	uint64_t r = saturate_int(x, dt);
	set_typed(t, sim_val(in, SR_RD, 255), r, dt >> 1 == 3);
}

static void exec_f2f(SimMachine *m, const SimInsn *in, SimThread *t)
{
	int64_t st = sim_val(in, SR_STYPE, 2), dt = sim_val(in, SR_DTYPE, 2), rnd = sim_val(in, SR_RND, 0);
	bool flush = sim_val(in, SR_FTZ, 0);
	double x = float_source(m, in, t, st);
	if (sim_val(in, SR_RNDINT, 0)) {
		x = round_integral(x, rnd);
		rnd = 0;    /* an integral value of the source format converts exactly */
	}
	if (sim_val(in, SR_SAT, 0))
		x = isnan(x) ? 0.0 : x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x;
	uint64_t r = float_bits(x, dt, rnd, flush);
	set_typed(t, sim_val(in, SR_RD, 255), r, dt == 3);
}

bool sim_exec_conversion(SimMachine *m, const SimInsn *in, SimThread *t)
{
	SassOp op = in->form->op;
	if (op != SOP_I2F && op != SOP_F2I && op != SOP_F2F)
		return false;
	if (sim_val(in, SR_CC, 0))
		return sim_fail(m, in, "conversions with .CC are not modelled"), true;
	if (op == SOP_I2F)
		exec_i2f(m, in, t);
	else if (op == SOP_F2I)
		exec_f2i(m, in, t);
	else
		exec_f2f(m, in, t);
	return true;
}

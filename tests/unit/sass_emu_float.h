/* The float, conversion and min/max families for the test interpreter
 * (sass_emu.h): FADD, FMUL, FFMA, FMNMX, FSETP, I2F, F2I, IMNMX, with the
 * operand modifiers the lowering emits. Round-to-nearest only: another
 * rounding mode aborts the test rather than compute a wrong value.
 * Test-only; included by sass_emu.h. */
#ifndef PTXSURF_TEST_SASS_EMU_FLOAT_H
#define PTXSURF_TEST_SASS_EMU_FLOAT_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "sm50/sass_encode.h"
#include "sm50/sass_table.h"

static float emu_f(uint32_t bits)
{
	float f;
	memcpy(&f, &bits, sizeof f);
	return f;
}

static uint32_t emu_bits(float f)
{
	uint32_t b;
	memcpy(&b, &f, sizeof b);
	return b;
}

/* A denormal flushed to a zero of the same sign (.FTZ). */
static float emu_ftz(float x, bool ftz)
{
	return ftz && fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x;
}

/* A float source with its modifiers: |x| first, then the negation. */
static float emu_fsrc(uint32_t bits, bool neg, bool abs, bool ftz)
{
	float x = emu_ftz(emu_f(bits), ftz);
	if (abs)
		x = fabsf(x);
	return neg ? -x : x;
}

static uint32_t emu_fb(const Emu *e, const SassForm *f, const SassValues *v)
{
	if (f->bkind == SASS_B_IMM)
		return (uint32_t)sass_values_get(v, SR_IMM, 0) << 12;
	if (f->bkind == SASS_B_NONE)
		return (uint32_t)sass_values_get(v, SR_IMM, 0);
	if (f->bkind == SASS_B_RC)
		return emu_reg(e, sass_values_get(v, SR_RB, 255));
	return emu_b(e, f, v);
}

static float emu_fresult(float r, const SassValues *v, bool ftz)
{
	if (sass_values_get(v, SR_SAT, 0))
		r = isnan(r) ? 0.0f : r < 0.0f ? 0.0f : r > 1.0f ? 1.0f : r;
	return emu_ftz(r, ftz);
}

static int64_t emu_int_of(const Emu *e, int64_t reg, int64_t type)
{
	uint32_t lo = emu_reg(e, reg);
	bool sg = type & 1;
	switch (type >> 1) {
	case 0: return sg ? (int8_t)lo : (uint8_t)lo;
	case 1: return sg ? (int16_t)lo : (uint16_t)lo;
	case 2: return sg ? (int32_t)lo : (int64_t)lo;
	default: return (int64_t)((uint64_t)emu_reg(e, reg + 1) << 32 | lo);
	}
}

/* float -> integer of I2F/F2I type `type`, saturated, NaN -> 0 */
static uint64_t emu_f2i(float x, int64_t type)
{
	unsigned bits = 8u << (type >> 1);
	bool sg = type & 1;
	if (isnan(x))
		return 0;
	double lo = sg ? -ldexp(1.0, (int)bits - 1) : 0.0;
	double hi = sg ? ldexp(1.0, (int)bits - 1) - 1 : ldexp(1.0, (int)bits) - 1;
	double d = x < lo ? lo : x > hi ? hi : x;
	if (sg)
		return (uint64_t)(int64_t)d;
	return (uint64_t)d;
}

static bool emu_fcmp(float x, float y, int64_t cmp)
{
	bool un = isnan(x) || isnan(y);
	switch (cmp) {
	case 1: return !un && x < y;
	case 2: return !un && x == y;
	case 3: return !un && x <= y;
	case 4: return !un && x > y;
	case 5: return !un && x != y;
	case 6: return !un && x >= y;
	case 7: return !un;
	case 8: return un;
	case 9: return un || x < y;
	case 10: return un || x == y;
	case 11: return un || x <= y;
	case 12: return un || x > y;
	case 13: return un || x != y;
	case 14: return un || x >= y;
	case 15: return true;
	default: return false;
	}
}

/* Runs the float/conversion/min-max instruction f; false when f is none. */
static bool emu_float_op(Emu *e, const SassForm *f, const SassValues *v)
{
	int64_t rd = sass_values_get(v, SR_RD, 255), ra = sass_values_get(v, SR_RA, 255);
	uint32_t a = emu_reg(e, ra);
	uint32_t b = f->op == SOP_IMNMX ? emu_b(e, f, v) : f->op == SOP_I2F || f->op == SOP_F2I ? 0 : emu_fb(e, f, v);
	bool ftz = sass_values_get(v, SR_FTZ, 0) || sass_values_get(v, SR_FMZ, 0);
	bool pc = emu_pred(e, sass_values_get(v, SR_PC, 7)) != (bool)sass_values_get(v, SR_PC_NOT, 0);
	ck_assert_msg(sass_values_get(v, SR_RND, 0) == 0 || f->op == SOP_F2I,
	              "%s: only round-to-nearest is modelled", f->name);
	ck_assert_msg(sass_values_get(v, SR_SCALE, 0) == 0, "%s: FMUL scaling is not modelled", f->name);
	float x = emu_fsrc(a, sass_values_get(v, SR_NEGA, 0), sass_values_get(v, SR_ABSA, 0), ftz);
	float y = emu_fsrc(b, sass_values_get(v, SR_NEGB, 0), sass_values_get(v, SR_ABSB, 0), ftz);
	switch (f->op) {
	case SOP_FADD: case SOP_FADD32I:
		emu_set(e, rd, emu_bits(emu_fresult(x + y, v, ftz)));
		return true;
	case SOP_FMUL: case SOP_FMUL32I:
		emu_set(e, rd, emu_bits(emu_fresult(x * y, v, ftz)));
		return true;
	case SOP_FFMA: {
		uint32_t cb = f->bkind == SASS_B_RC ? cword(e, 4 * (uint32_t)sass_values_get(v, SR_COFF, 0))
		                                    : emu_reg(e, sass_values_get(v, SR_RC, 255));
		float z = emu_fsrc(cb, sass_values_get(v, SR_NEGC, 0), false, ftz);
		emu_set(e, rd, emu_bits(emu_fresult(fmaf(x, y, z), v, ftz)));
		return true;
	}
	case SOP_FMNMX:
		emu_set(e, rd, emu_bits(emu_ftz(pc ? fminf(x, y) : fmaxf(x, y), ftz)));
		return true;
	case SOP_FSETP: {
		bool r = emu_fcmp(x, y, sass_values_get(v, SR_CMP, 0));
		int64_t bop = sass_values_get(v, SR_BOP, 0);
		int64_t d = sass_values_get(v, SR_PD, 7), q = sass_values_get(v, SR_PQ, 7);
		if (d != 7) e->p[d] = bop == 0 ? (r && pc) : bop == 1 ? (r || pc) : (r != pc);
		if (q != 7) e->p[q] = bop == 0 ? (!r && pc) : bop == 1 ? (!r || pc) : (!r != pc);
		return true;
	}
	case SOP_I2F: {
		int64_t st = sass_values_get(v, SR_STYPE, 4), val = emu_int_of(e, sass_values_get(v, SR_RB, 255), st);
		float r = (st & 1) || (st >> 1) < 3 ? (float)val : (float)(uint64_t)val;
		ck_assert_msg(sass_values_get(v, SR_DTYPE, 2) == 2, "I2F: only F32 results are modelled");
		emu_set(e, rd, emu_bits(r));
		return true;
	}
	case SOP_F2I: {
		float s = emu_ftz(emu_f(emu_reg(e, sass_values_get(v, SR_RB, 255))), ftz);
		int64_t rnd = sass_values_get(v, SR_RND, 0), dt = sass_values_get(v, SR_DTYPE, 4);
		s = rnd == 0 ? rintf(s) : rnd == 1 ? floorf(s) : rnd == 2 ? ceilf(s) : truncf(s);
		uint64_t r = emu_f2i(s, dt);
		emu_set(e, rd, (uint32_t)r);
		if (dt >> 1 == 3)
			emu_set(e, rd + 1, (uint32_t)(r >> 32));
		return true;
	}
	case SOP_IMNMX: {
		bool sg = sass_values_get(v, SR_SIGNED, 0);
		bool less = sg ? (int32_t)a < (int32_t)b : a < b;
		/* 64-bit min/max: .XHI.CC passes (high words equal, less) in the
		 * carry flag (bit 1: equal, bit 0: less, the interpreter's own
		 * encoding) to the .XLO of the low words */
		int64_t xmode = sass_values_get(v, SR_XMODE, 0);
		if (xmode == 1 && !(e->cc & 2))
			less = e->cc & 1;
		if (xmode == 3)
			e->cc = (a == b ? 2u : 0u) | (less ? 1u : 0u);
		emu_set(e, rd, pc == less ? a : b);
		return true;
	}
	default:
		return false;
	}
}

#endif

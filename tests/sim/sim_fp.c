/* Float helpers of the simulator (sim_fp.h). The f16 conversions are done
 * by hand, in units of the target's ulp, so that every rounding mode is
 * exact whatever the host offers for half precision. */
#include "sim_fp.h"

#include <fenv.h>
#include <math.h>
#include <string.h>

float sim_f32(uint32_t bits)
{
	float f;
	memcpy(&f, &bits, sizeof f);
	return f;
}

uint32_t sim_bits32(float f)
{
	uint32_t b;
	memcpy(&b, &f, sizeof b);
	return b;
}

double sim_f64(uint64_t bits)
{
	double d;
	memcpy(&d, &bits, sizeof d);
	return d;
}

uint64_t sim_bits64(double d)
{
	uint64_t b;
	memcpy(&b, &d, sizeof b);
	return b;
}

float sim_ftz(float x, bool on)
{
	return on && fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x;
}

int sim_fe_round(int64_t rnd)
{
	static const int modes[] = { FE_TONEAREST, FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO };
	return modes[rnd & 3];
}

bool sim_fcmp(double x, double y, int64_t cmp)
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

void sim_set_fpred(SimThread *t, const SimInsn *in, bool r)
{
	bool c = sim_pred(t, sim_val(in, SR_PC, 7), sim_val(in, SR_PC_NOT, 0));
	int64_t bop = sim_val(in, SR_BOP, 0), d = sim_val(in, SR_PD, 7), q = sim_val(in, SR_PQ, 7);
	if (d < SIM_NPREDS) t->p[d] = bop == 0 ? (r && c) : bop == 1 ? (r || c) : (r != c);
	if (q < SIM_NPREDS) t->p[q] = bop == 0 ? (!r && c) : bop == 1 ? (!r || c) : (!r != c);
}

uint64_t sim_reg64(const SimThread *t, int64_t r)
{
	return (uint64_t)sim_reg(t, r >= SIM_NREGS ? r : r + 1) << 32 | sim_reg(t, r);
}

void sim_set64(SimThread *t, int64_t r, uint64_t v)
{
	sim_set(t, r, (uint32_t)v);
	sim_set(t, r >= SIM_NREGS ? r : r + 1, (uint32_t)(v >> 32));
}

double sim_half_to_double(uint16_t h)
{
	int e = (h >> 10) & 0x1f;
	double mag = e == 0 ? ldexp(h & 0x3ff, -24)
	           : e == 31 ? ((h & 0x3ff) ? NAN : INFINITY)
	           : ldexp((h & 0x3ff) | 0x400, e - 25);
	return (h >> 15) ? -mag : mag;
}

/* q rounded to an integer in mode rnd, for the magnitude of a value of
 * sign `neg` (RM/RP round the magnitude by the value's sign). */
static double round_mag(double q, int64_t rnd, bool neg)
{
	double f = floor(q);
	switch (rnd & 3) {
	case 0: return q - f > 0.5 || (q - f == 0.5 && fmod(f, 2.0) != 0) ? f + 1 : f;
	case 1: return neg && q != f ? f + 1 : f;
	case 2: return !neg && q != f ? f + 1 : f;
	default: return f;
	}
}

uint16_t sim_double_to_half(double x, int64_t rnd)
{
	if (isnan(x))
		return 0x7fff;
	bool neg = signbit(x);
	uint16_t sign = neg ? 0x8000 : 0;
	double a = fabs(x);
	if (isinf(a))
		return sign | 0x7c00;
	int e = a < ldexp(1.0, -14) ? -14 : ilogb(a);
	double q = round_mag(ldexp(a, 10 - e), rnd, neg);  /* units of 2^(e-10) */
	if (q >= 2048) {
		q /= 2;
		e++;
	}
	bool up = (rnd == 0) || (rnd == 1 && neg) || (rnd == 2 && !neg);
	if (e > 15)
		return up ? sign | 0x7c00 : sign | 0x7bff;
	if (q < 1024)   /* subnormal (e == -14) or zero */
		return sign | (uint16_t)q;
	return sign | (uint16_t)((e + 15) << 10) | (uint16_t)((uint32_t)q - 1024);
}

float sim_double_to_f32(double x, int64_t rnd)
{
	int saved = fegetround();
	fesetround(sim_fe_round(rnd));
	volatile double vx = x;
	volatile float r = (float)vx;
	fesetround(saved);
	return r;
}

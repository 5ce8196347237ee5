/* The double-precision family of the simulator: DADD DMUL DFMA DMNMX
 * DSETP, and DSET (set on .f64: its result is one word). Every register
 * operand is an aligned pair {R+1, R}; a constant operand is the two words at its offset; a 20-bit immediate holds the
 * top bits of the f64. Arithmetic is the host's IEEE binary64 in the
 * encoded rounding mode (fenv): the FP64 unit of sm_50 is IEEE-exact,
 * with subnormals (no .FTZ exists for it). */
#include "sim_fp.h"

#include <fenv.h>
#include <math.h>

/* Operand B (REG, CONST, IMM) or, for the RC layout, the register B. */
static uint64_t double_b(SimMachine *m, const SimInsn *in, const SimThread *t)
{
	switch (in->form->bkind) {
	case SASS_B_REG: case SASS_B_RC: return sim_reg64(t, sim_val(in, SR_RB, 255));
	case SASS_B_IMM: return (uint64_t)sim_val(in, SR_IMM, 0) << 44;
	default: {
		unsigned bank = (unsigned)sim_val(in, SR_CBANK, 0);
		int64_t off = 4 * (sim_val(in, SR_COFF, 0) & 0x3fff);   /* unsigned to the hardware */
		uint64_t lo = sim_cword(m, in, bank, off);
		return (uint64_t)sim_cword(m, in, bank, off + 4) << 32 | lo;
	}
	}
}

/* DFMA's addend: register C, or the constant of the RC layout. */
static uint64_t double_c(SimMachine *m, const SimInsn *in, const SimThread *t)
{
	if (in->form->bkind != SASS_B_RC)
		return sim_reg64(t, sim_val(in, SR_RC, 255));
	unsigned bank = (unsigned)sim_val(in, SR_CBANK, 0);
	int64_t off = 4 * (sim_val(in, SR_COFF, 0) & 0x3fff);   /* unsigned to the hardware */
	uint64_t lo = sim_cword(m, in, bank, off);
	return (uint64_t)sim_cword(m, in, bank, off + 4) << 32 | lo;
}

static double dsrc(uint64_t bits, bool neg, bool abs)
{
	double x = sim_f64(bits);
	if (abs)
		x = fabs(x);
	return neg ? -x : x;
}

/* x op y (op '+', '*', or 'f' for fma with z) in rounding mode rnd. */
static double drounded(int64_t rnd, char op, double x, double y, double z)
{
	int saved = fegetround();
	fesetround(sim_fe_round(rnd));
	volatile double vx = x, vy = y, vz = z;
	double r = op == '+' ? vx + vy : op == '*' ? vx * vy : fma(vx, vy, vz);
	fesetround(saved);
	return r;
}

/* min (or max) with the one NaN ignored and -0 below +0, so that the
 * result does not depend on the order of the operands. */
static double dminmax(double x, double y, bool min)
{
	if (isnan(x)) return y;
	if (isnan(y)) return x;
	if (x == y && signbit(x) != signbit(y))
		return min == (bool)signbit(x) ? x : y;
	return min ? (x < y ? x : y) : (x > y ? x : y);
}

bool sim_exec_double(SimMachine *m, const SimInsn *in, SimThread *t)
{
	SassOp op = in->form->op;
	if (op != SOP_DADD && op != SOP_DMUL && op != SOP_DFMA && op != SOP_DMNMX && op != SOP_DSETP &&
	    op != SOP_DSET)
		return false;
	if (sim_val(in, SR_CC, 0))
		return sim_fail(m, in, "double ops with .CC are not modelled"), true;
	int64_t rd = sim_val(in, SR_RD, 255), rnd = sim_val(in, SR_RND, 0);
	double x = dsrc(sim_reg64(t, sim_val(in, SR_RA, 255)), sim_val(in, SR_NEGA, 0), sim_val(in, SR_ABSA, 0));
	double y = dsrc(double_b(m, in, t), sim_val(in, SR_NEGB, 0), sim_val(in, SR_ABSB, 0));
	switch (op) {
	case SOP_DADD: sim_set64(t, rd, sim_bits64(drounded(rnd, '+', x, y, 0))); break;
	case SOP_DMUL: sim_set64(t, rd, sim_bits64(drounded(rnd, '*', x, y, 0))); break;
	case SOP_DFMA: {
		double z = dsrc(double_c(m, in, t), sim_val(in, SR_NEGC, 0), false);
		sim_set64(t, rd, sim_bits64(drounded(rnd, 'f', x, y, z)));
		break;
	}
	case SOP_DMNMX: {
		bool min = sim_pred(t, sim_val(in, SR_PC, 7), sim_val(in, SR_PC_NOT, 0));
		sim_set64(t, rd, sim_bits64(dminmax(x, y, min)));
		break;
	}
	case SOP_DSET: {
		/* legacy2: Rd = ((A cmp B) bop Pc) ? all ones (.BF: 1.0f) : 0 */
		bool c = sim_pred(t, sim_val(in, SR_PC, 7), sim_val(in, SR_PC_NOT, 0));
		bool r = sim_fcmp(x, y, sim_val(in, SR_CMP, 0));
		int64_t bop = sim_val(in, SR_BOP, 0);
		r = bop == 0 ? (r && c) : bop == 1 ? (r || c) : (r != c);
		sim_set(t, rd, !r ? 0 : sim_val(in, SR_BF, 0) ? 0x3f800000u : 0xffffffffu);
		break;
	}
	default:    /* DSETP */
		sim_set_fpred(t, in, sim_fcmp(x, y, sim_val(in, SR_CMP, 0)));
		break;
	}
	return true;
}

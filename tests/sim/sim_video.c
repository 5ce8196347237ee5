/* The scalar video forms (video2: VADD, VMNMX, VSET, VSHL, VSHR, VMAD;
 * sim4: VABSDIFF, |A - B|) as
 * the PTX ISA's video instructions define them: the operands' parts are
 * sign- or zero-extended (sim_video_part; an immediate B is 16 bits, U16
 * or S16), the operation is exact (no 32-bit wrap), .SAT clamps to the
 * signed (.SD) or unsigned 32-bit range, and the second operation with C
 * follows: .ACC adds (modulo 2^32), .MIN/.MAX compare as signed (.SD) or
 * unsigned words. VSET's result (0 or 1) and its second operation are
 * unsigned. VMAD: (A * B, negated by -A) + C (negated by -C; .PO adds 1
 * instead), shifted right by 7 or 15 (.SHR_7/.SHR_15), and .SAT clamps
 * to the signed range when either source is signed or anything is
 * negated. The merges (.MRG_*) and .CC stop the run. */
#include "sim.h"

typedef __int128 Wide;

static bool is_video(SassOp op)
{
	return op == SOP_VADD || op == SOP_VMNMX || op == SOP_VSET || op == SOP_VSHL || op == SOP_VSHR ||
	       op == SOP_VMAD || op == SOP_VABSDIFF;
}

static int64_t operand_b(const SimInsn *in, const SimThread *t)
{
	int64_t fmt = sim_val(in, SR_VFMT_B, 0);
	if (in->form->bkind == SASS_B_IMM) {
		uint16_t imm = (uint16_t)sim_val(in, SR_IMM, 0);
		return fmt == 1 && in->form->op != SOP_VSHL && in->form->op != SOP_VSHR ? (int64_t)(int16_t)imm : imm;
	}
	return sim_video_part(sim_reg(t, sim_val(in, SR_RB, 255)), fmt);
}

static uint32_t saturate(Wide v, bool sat, bool is_signed)
{
	if (sat) {
		Wide lo = is_signed ? INT32_MIN : 0, hi = is_signed ? INT32_MAX : (Wide)UINT32_MAX;
		v = v < lo ? lo : v > hi ? hi : v;
	}
	return (uint32_t)v;
}

/* The second operation with C: 4 .ACC, 5 .MIN, 6 .MAX, 7 none. */
static uint32_t second(int64_t mode, uint32_t r, uint32_t c, bool is_signed)
{
	bool less = is_signed ? (int32_t)r < (int32_t)c : r < c;
	switch (mode) {
	case 4: return r + c;
	case 5: return less ? r : c;
	case 6: return less ? c : r;
	default: return r;
	}
}

static bool compare(int64_t cmp, int64_t a, int64_t b)
{
	switch (cmp) {
	case 0: return false;
	case 1: return a < b;
	case 2: return a == b;
	case 3: return a <= b;
	case 4: return a > b;
	case 5: return a != b;
	case 6: return a >= b;
	default: return true;
	}
}

static uint32_t vmad(const SimInsn *in, int64_t a, int64_t b, uint32_t c)
{
	bool na = sim_val(in, SR_NEGA, 0), nc = sim_val(in, SR_NEGC, 0), po = na && nc;
	bool is_signed = (sim_val(in, SR_VFMT_A, 0) & 8) || (in->form->bkind == SASS_B_IMM ?
	                 sim_val(in, SR_VFMT_B, 0) == 1 : (sim_val(in, SR_VFMT_B, 0) & 8) != 0) || na || nc;
	Wide prod = (Wide)a * b, cw = is_signed ? (Wide)(int32_t)c : (Wide)c;
	Wide tmp = po ? prod + cw + 1 : (na ? -prod : prod) + (nc ? -cw : cw);
	int64_t scale = sim_val(in, SR_VSCALE, 0);
	tmp >>= scale == 1 ? 7 : scale == 2 ? 15 : 0;
	return saturate(tmp, sim_val(in, SR_SAT, 0), is_signed);
}

bool sim_exec_video(SimMachine *m, const SimInsn *in, SimThread *t)
{
	SassOp op = in->form->op;
	if (!is_video(op))
		return false;
	int64_t mode = sim_val(in, SR_VMODE, 7);
	if (sim_val(in, SR_CC, 0) || mode < 4 || sim_val(in, SR_VSCALE, 0) == 3)
		return sim_fail(m, in, "%s with .CC, a merge or scale 3 is not modelled", in->form->name), true;
	int64_t a = sim_video_part(sim_reg(t, sim_val(in, SR_RA, 255)), sim_val(in, SR_VFMT_A, 14));
	int64_t b = operand_b(in, t);
	uint32_t c = sim_reg(t, sim_val(in, SR_RC, 255)), r;
	bool sd = sim_val(in, SR_SD, 0) != 0, sat = sim_val(in, SR_SAT, 0) != 0;
	switch (op) {
	case SOP_VADD: {
		int64_t neg = sim_val(in, SR_NEG, 0);       /* 1 -B, 2 -A, 3 .PO */
		Wide sum = neg == 3 ? (Wide)a + b + 1 : (Wide)(neg == 2 ? -a : a) + (neg == 1 ? -b : b);
		r = second(mode, saturate(sum, sat, sd), c, sd);
		break;
	}
	case SOP_VMNMX: {
		bool max = sim_val(in, SR_VMAX, 0) != 0;
		r = second(mode, saturate(max ? (a > b ? a : b) : (a < b ? a : b), sat, sd), c, sd);
		break;
	}
	case SOP_VABSDIFF:
		r = second(mode, saturate(a > b ? (Wide)a - b : (Wide)b - a, sat, sd), c, sd);
		break;
	case SOP_VSET:
		r = second(mode, compare(sim_val(in, SR_CMP, 0), a, b), c, false);
		break;
	case SOP_VSHL: case SOP_VSHR: {
		int64_t n = sim_val(in, SR_W, 0) ? (b & 31) : (b > 32 ? 32 : b);
		Wide v = op == SOP_VSHL ? (Wide)a * ((Wide)1 << n) : (Wide)(a >> n);
		r = second(mode, saturate(v, sat, sd), c, sd);
		break;
	}
	default:
		r = vmad(in, a, b, c);
		break;
	}
	sim_set(t, sim_val(in, SR_RD, 255), r);
	return true;
}

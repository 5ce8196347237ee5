/* The integer bit operations of the simulator: POPC, FLO and PRMT, as
 * PTX's popc, bfind and prmt define them (docs/encoding.md has the
 * forms); VABSDIFF4 as vabsdiff4 (video; the scalar VABSDIFF is in sim_video.c). */
#include "sim.h"

/* FLO: the position of the most significant one (.S32: of the most
 * significant bit that differs from the sign), 0xffffffff when there is
 * none; .SH gives 31 - position instead. B is inverted first on ~B. */
static uint32_t flo(uint32_t b, bool sg, bool sh)
{
	if (sg && (b >> 31))
		b = ~b;
	if (b == 0)
		return 0xffffffffu;
	uint32_t pos = 31;
	while (!(b >> pos & 1))
		pos--;
	return sh ? 31 - pos : pos;
}

/* PRMT: byte i of the result is byte sel_i of {C, A} (A bytes 0-3, C
 * bytes 4-7). Mode 0 takes sel_i from the selector's nibble i, whose bit
 * 3 replicates the chosen byte's sign; the other modes derive all four
 * from the selector's low two bits (PTX prmt's table). */
static uint32_t prmt(uint32_t a, uint32_t sel, uint32_t c, int64_t mode)
{
	uint64_t bytes = (uint64_t)c << 32 | a;
	unsigned s = sel & 3;
	uint32_t r = 0;
	for (unsigned i = 0; i < 4; i++) {
		unsigned k;
		bool sign = false;
		switch (mode) {
		case 0: k = sel >> (4 * i) & 7; sign = sel >> (4 * i + 3) & 1; break;
		case 1: k = (s + i) & 7; break;                     /* F4E */
		case 2: k = (s - i) & 7; break;                     /* B4E */
		case 3: k = s; break;                               /* RC8 */
		case 4: k = i > s ? i : s; break;                   /* ECL */
		case 5: k = i < s ? i : s; break;                   /* ECR */
		default: k = (s & 1) * 2 + (i & 1); break;          /* RC16 */
		}
		uint32_t byte = (uint32_t)(bytes >> (8 * k)) & 0xff;
		if (sign)
			byte = (byte >> 7) ? 0xff : 0;
		r |= byte << (8 * i);
	}
	return r;
}

/* sim4: one operand of VABSDIFF (and of the scalar video forms, sim_video.c): the part its format selects (bytes 0-3,
 * halves 4-5, the word 6), sign- or zero-extended (+8: signed). */
int64_t sim_video_part(uint32_t r, int64_t fmt)
{
	unsigned sel = (unsigned)(fmt & 7), bits = sel < 4 ? 8 : sel < 6 ? 16 : 32;
	unsigned shift = sel < 4 ? 8 * sel : sel < 6 ? 16 * (sel - 4) : 0;
	uint32_t v = bits == 32 ? r : (r >> shift) & ((1u << bits) - 1);
	if (fmt & 8)
		return bits == 32 ? (int64_t)(int32_t)v : (int64_t)(int32_t)(v << (32 - bits)) >> (32 - bits);
	return (int64_t)v;
}

/* video: VABSDIFF4: per byte lane |A.i - B.i| (zero- or sign-extended by
 * the formats); without .ACC the written lanes take the low byte, the
 * others C's byte; .ACC: C plus the sum of the written lanes' results.
 * The byte selections other than the bytes in order, .SD, .SAT and .CC are
 * not what ptxas writes and stop the run. */
static void exec_vabsdiff4(SimMachine *m, const SimInsn *in, SimThread *t, int64_t rd)
{
	int64_t red = sim_val(in, SR_VRED, 0);
	if (sim_val(in, SR_SAT, 0) || sim_val(in, SR_SD, 0) || sim_val(in, SR_CC, 0) || red > 1 ||
	    sim_val(in, SR_VSEL_A, 4) != 4 || sim_val(in, SR_VSEL_B, 4) != 4)
		return (void)sim_fail(m, in, "VABSDIFF4 with .SD, .SAT, .CC, a byte selection or an invalid mode is not modelled");
	uint32_t a = sim_reg(t, sim_val(in, SR_RA, 255)), b = sim_reg(t, sim_val(in, SR_RB, 255));
	uint32_t c = sim_reg(t, sim_val(in, SR_RC, 255)), lanes = (uint32_t)sim_val(in, SR_VLANES, 0xf);
	int64_t fa = sim_val(in, SR_SA, 0) ? 8 : 0, fb = sim_val(in, SR_SB, 0) ? 8 : 0;
	uint32_t merged = c, sum = c;
	for (unsigned i = 0; i < 4; i++) {
		if (!((lanes >> i) & 1))
			continue;
		int64_t x = sim_video_part(a, fa + i), y = sim_video_part(b, fb + i);
		uint32_t d = (uint32_t)(x > y ? x - y : y - x);
		sum += d;
		merged = (merged & ~(0xffu << (8 * i))) | ((d & 0xff) << (8 * i));
	}
	sim_set(t, rd, red ? sum : merged);
}

bool sim_exec_bits(SimMachine *m, const SimInsn *in, SimThread *t)
{
	int64_t rd = sim_val(in, SR_RD, 255);
	switch (in->form->op) {
	case SOP_VABSDIFF4: exec_vabsdiff4(m, in, t, rd); return true;
	case SOP_POPC: {
		uint32_t b = sim_operand_b(m, in, t);
		if (sim_val(in, SR_INVB, 0))
			b = ~b;
		sim_set(t, rd, (uint32_t)__builtin_popcount(b));
		return true;
	}
	case SOP_FLO: {
		if (sim_val(in, SR_CC, 0))
			return sim_fail(m, in, "FLO.CC is not modelled"), true;
		uint32_t b = sim_operand_b(m, in, t);
		if (sim_val(in, SR_INVB, 0))
			b = ~b;
		sim_set(t, rd, flo(b, sim_val(in, SR_SIGNED, 0), sim_val(in, SR_SH, 0)));
		return true;
	}
	case SOP_PRMT: {
		int64_t mode = sim_val(in, SR_PMODE, 0);
		if (mode > 6)
			return sim_fail(m, in, "PRMT mode %lld is not modelled", (long long)mode), true;
		bool rc = in->form->bkind == SASS_B_RC;
		uint32_t sel = rc ? sim_reg(t, sim_val(in, SR_RB, 255)) : sim_operand_b(m, in, t);
		uint32_t c = rc ? sim_operand_b(m, in, t) : sim_reg(t, sim_val(in, SR_RC, 255));
		sim_set(t, rd, prmt(sim_reg(t, sim_val(in, SR_RA, 255)), sel, c, mode));
		return true;
	}
	default:
		return false;
	}
}

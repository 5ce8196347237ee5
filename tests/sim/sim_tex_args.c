/* sim5: the texture operands beyond coordinates that ptxas 11.8's code
 * uses (goldens tex-bound, tex-multisample): TLD's texel offsets (.AOFFI)
 * and the compact forms' source registers.
 *
 * Rb of TEX/TLD/TLD4 holds, as each is present, the bindless handle, the
 * level, the offsets, the depth reference and the sample index
 * (src/sm50/sass_regs.c). ptxas -O3 folds tex.a2dms's x + 2 into
 * TLD.LZ.AOFFI.MS with 0x2 in the offsets register and the sample index in
 * the next one: the offsets word packs one signed 4-bit texel offset per
 * coordinate, x in bits 3:0, y in 7:4, z in 11:8 (PTX's offsets range
 * -8..7), added to the integer coordinates before they are clamped.
 * TLDS.LZ.AOFFI / TLDS.LL.AOFFI (2D; ptxas and we fold x + imm of a
 * tex.2d fetch) have the same word as the source value after the
 * coordinates and the level. */
#include "sim.h"

static int32_t nibble(uint32_t w, unsigned i)
{
	int32_t v = (int32_t)(w >> (4 * i) & 0xf);
	return v >= 8 ? v - 16 : v;
}

void sim_tex_offset_word(uint32_t w, uint32_t raw[3], unsigned ncoords)
{
	for (unsigned i = 0; i < ncoords && i < 3; i++)
		raw[i] = (uint32_t)((int32_t)raw[i] + nibble(w, i));
}

void sim_tex_offsets(const SimInsn *in, const SimThread *t, uint32_t raw[3], unsigned ncoords)
{
	if (sim_val(in, SR_AOFFI, 0) == 0)
		return;
	SassOp op = in->form->op;
	int64_t rb = sim_val(in, SR_RB, 255);
	int64_t slot = (op == SOP_TLD_B) + (sim_val(in, SR_TEXLOD, 0) == 1);
	sim_tex_offset_word(rb == 255 ? 0 : sim_reg(t, rb + slot), raw, ncoords);
}

/* TEXS/TLDS/TLD4S: n source values fill Ra, then Rb, one each up to two;
 * from three on Ra and Ra+1, then Rb and Rb+1 (ptxas's TEXS.LL CUBE: x, y
 * in Ra, Ra+1, z and the level in Rb, Rb+1). TLDS ARRAY_2D is the
 * exception (src/sm50/sass_regs.c): the layer alone in Ra, x and y in Rb,
 * Rb+1 (ptxas's tex.a2d with integer coordinates on a bound texref). */
void sim_texs_sources(const SimInsn *in, unsigned n, bool tlds_array, int64_t src[4])
{
	int64_t ra = sim_val(in, SR_RA, 255), rb = sim_val(in, SR_RB, 255);
	src[0] = ra;
	src[1] = rb;
	src[2] = src[3] = 255;
	if (tlds_array) {
		src[2] = rb == 255 ? 255 : rb + 1;
		return;
	}
	if (n >= 3) {
		src[1] = ra == 255 ? 255 : ra + 1;
		src[2] = rb;
		src[3] = rb == 255 ? 255 : rb + 1;
	}
}

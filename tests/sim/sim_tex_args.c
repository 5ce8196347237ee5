/* sim5: the texture operands beyond coordinates that ptxas 11.8's code
 * uses (goldens tex-bound, tex-multisample, tex-offset-*): the texel
 * offsets (.AOFFI) and the compact forms' source registers.
 *
 * Rb of TEX/TLD/TLD4 holds, as each is present, the bindless handle, the
 * level, the offsets, the depth reference and the sample index
 * (src/sm50/sass_regs.c). ptxas -O3 folds tex.a2dms's x + 2 into
 * TLD.LZ.AOFFI.MS with 0x2 in the offsets register and the sample index in
 * the next one: the offsets word packs one signed 4-bit texel offset per
 * coordinate, x in bits 3:0, y in 7:4, z in 11:8 (PTX's offsets range
 * -8..7), added to the integer texel coordinates before they are clamped
 * (of a float sample: to the texel it selects; of a gather: to its 2x2
 * footprint, TLD4's fields 6 bits a byte apart).
 * .DC: the depth reference after the offsets word, compared with each
 * result component (sim_tex_depth_compare).
 * TLDS.LZ.AOFFI / TLDS.LL.AOFFI (2D; ptxas and we fold x + imm of a
 * tex.2d fetch) have the same word as the source value after the
 * coordinates and the level. */
#include "sim.h"

#include <string.h>

static int32_t field(uint32_t w, unsigned pos, unsigned bits)
{
	int32_t v = (int32_t)(w >> pos & ((1u << bits) - 1));
	return v >= 1 << (bits - 1) ? v - (1 << bits) : v;
}

void sim_tex_offset_word(uint32_t w, unsigned bits, int32_t off[3], unsigned ncoords)
{
	unsigned stride = bits == 6 ? 8 : 4;
	for (unsigned i = 0; i < 3; i++)
		off[i] = i < ncoords ? field(w, stride * i, bits) : 0;
}

/* TEX/TLD/TLD4: the word in Rb after the bindless handle and the level
 * (TEX .LB/.LL/.LBA/.LLA, TLD .LL); TXD: in Ra after the handle and the
 * coordinates, its 12 bits at bit 16 (ptxas 11.8's tex.grad with offsets:
 * BFI t, w, 0xc10, RZ); TLD4's fields are 6 bits a byte apart. */
void sim_tex_offsets(const SimInsn *in, const SimThread *t, int32_t off[3], unsigned ncoords)
{
	off[0] = off[1] = off[2] = 0;
	if (sim_val(in, SR_AOFFI, 0) != 1)
		return;
	SassOp op = in->form->op;
	if (op == SOP_TXD || op == SOP_TXD_B) {
		int64_t ra = sim_val(in, SR_RA, 255);
		unsigned slot = (op == SOP_TXD_B) + ncoords;
		sim_tex_offset_word(ra == 255 ? 0 : sim_reg(t, ra + slot) >> 16, 4, off, ncoords);
		return;
	}
	bool tld = op == SOP_TLD || op == SOP_TLD_B;
	int64_t lod = sim_val(in, SR_TEXLOD, 0), rb = sim_val(in, SR_RB, 255);
	unsigned slot = (op == SOP_TEX_B || op == SOP_TLD_B || op == SOP_TLD4_B) + (tld ? lod == 1 : lod >= 2);
	bool gather = op == SOP_TLD4 || op == SOP_TLD4_B;
	sim_tex_offset_word(rb == 255 ? 0 : sim_reg(t, rb + slot), gather ? 6 : 4, off, ncoords);
}

/* The depth reference of TEX/TLD4 .DC: in Rb after the bindless handle,
 * the level and the offsets word (ptxas 11.8: TEX.AOFFI.DC R8, R6, R8 has
 * the offsets in R8, the reference in R9). */
uint32_t sim_tex_depth_ref(const SimInsn *in, const SimThread *t)
{
	SassOp op = in->form->op;
	int64_t lod = sim_val(in, SR_TEXLOD, 0), rb = sim_val(in, SR_RB, 255);
	unsigned slot = (op == SOP_TEX_B || op == SOP_TLD4_B) + (lod >= 2) + (sim_val(in, SR_AOFFI, 0) == 1);
	return rb == 255 ? 0 : sim_reg(t, rb + slot);
}

/* The sampler's compare: the CUDA driver's texture and sampler
 * descriptions (CUDA_TEXTURE_DESC, a texref's flags, OpenCL samplers) have
 * no compare function, so the model takes one that reads both operands,
 * "less or equal" (OpenGL's default TEXTURE_COMPARE_FUNC), per component:
 * a misplaced reference or component changes results. NaN compares false. */
void sim_tex_depth_compare(uint32_t ref, uint32_t comp[4])
{
	float r, v;
	memcpy(&r, &ref, 4);
	for (unsigned k = 0; k < 4; k++) {
		memcpy(&v, &comp[k], 4);
		comp[k] = r <= v ? 0x3f800000u : 0;
	}
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

/* Texture results narrowed to the components a kernel reads (texs).
 *
 * A TEX/TLD/TLD4 writes the components of its mask packed into Rd, Rd+1,
 * ...; TEXS/TLDS the first two into the pair Rd and the rest into the pair
 * Rd2 (RZ: none), with a mask code that names the set (sass_texs_mask):
 * one pair R G B A RG RA GA BA, two pairs RGB RGA RBA GBA RGBA. ptxas
 * 11.8 writes only the components that are read (measured at -O0 and -O3:
 * tex.2d read in x alone is `TEXS RZ, R0, ..., R`, in x and z `TEX ...
 * 0x5`). A set the compact code cannot name (R and B, G and B) and a
 * partial TLD4S gather (ptxas: TLD4 with the mask) stay at four
 * components: the same texels, one word other than ptxas's
 * (docs/encoding.md). The lowering gives each instruction fresh
 * destination vregs, so a component's references are the reads of its
 * copy. */
#include "lower/tex_narrow.h"

#include "sm50/sass_table.h"

#include <string.h>

/* A component's place: a part of a destination vreg. */
typedef struct Place {
	uint32_t vreg;
	unsigned sub;
} Place;

static int ref_of(const LInsn *in, SassRole role)
{
	for (unsigned r = 0; r < in->nrefs; r++)
		if (in->refs[r].role == role && in->refs[r].def)
			return (int)r;
	return -1;
}

/* The compact mask code of `mask` with or without the second pair, -1 none. */
static int compact_code(unsigned mask, bool pair2)
{
	for (int code = 0; code < 8; code++)
		if (sass_texs_mask(code, pair2) == mask)
			return code;
	return -1;
}

static unsigned popcount4(unsigned m)
{
	return (m & 1) + (m >> 1 & 1) + (m >> 2 & 1) + (m >> 3 & 1);
}

/* Where the components of `mask` land: rank r in place r of a group
 * (general), or of the pairs d, d2 (compact). */
static void places(const LInsn *in, bool compact, unsigned mask, int d, int d2, Place out[4])
{
	for (unsigned c = 0, r = 0; c < 4; c++) {
		if (!(mask >> c & 1))
			continue;
		const LRegRef *ref = &in->refs[compact && r >= 2 ? d2 : d];
		out[c] = (Place){ ref->vreg, ref->sub + (compact ? r % 2 : r) };
		r++;
	}
}

bool tex_narrow(LKernel *k, size_t i, const Liveness *lv)
{
	LInsn *in = &k->insns[i];
	if (!in->tex_result)
		return false;
	SassOp op = in->form->op;
	bool compact = op == SOP_TEXS || op == SOP_TLDS || op == SOP_TLD4S;
	int d = ref_of(in, SR_RD), d2 = ref_of(in, SR_RD2);
	if (d < 0 || op == SOP_TLD4S)
		return false;
	unsigned mask = compact ? sass_texs_mask(linsn_get(in, SR_TEXSMASK, -1), d2 >= 0)
	                        : (unsigned)linsn_get(in, SR_QMASK, 0);
	Place old[4];
	places(in, compact, mask, d, d2, old);
	unsigned live = 0;
	for (unsigned c = 0; c < 4; c++)
		if (mask >> c & 1 && live_out(lv, lv->first_part[old[c].vreg] + old[c].sub, i))
			live |= 1u << c;
	unsigned n = popcount4(live);
	int code = compact ? compact_code(live, n > 2) : 0;
	if (live == mask || live == 0 || code < 0)
		return false;
	/* every other reference to a component must be a single part */
	for (size_t j = 0; j < k->ninsns; j++)
		for (unsigned r = 0; j != i && r < k->insns[j].nrefs; r++) {
			const LRegRef *ref = &k->insns[j].refs[r];
			bool ours = ref->vreg == in->refs[d].vreg || (d2 >= 0 && ref->vreg == in->refs[d2].vreg);
			if (ours && ref->count != 1)
				return false;
		}
	Place now[4];
	places(in, compact, live, d, d2, now);
	for (size_t j = 0; j < k->ninsns; j++)
		for (unsigned r = 0; j != i && r < k->insns[j].nrefs; r++) {
			LRegRef *ref = &k->insns[j].refs[r];
			for (unsigned c = 0; c < 4; c++)
				if (live >> c & 1 && ref->vreg == old[c].vreg && ref->sub == old[c].sub) {
					ref->vreg = now[c].vreg;
					ref->sub = (uint8_t)now[c].sub;
					break;
				}
		}
	if (!compact) {
		linsn_set(in, SR_QMASK, live);
		in->refs[d].count = (uint8_t)n;
		return true;
	}
	linsn_set(in, SR_TEXSMASK, code);
	in->refs[d].count = (uint8_t)(n < 2 ? n : 2);
	if (n <= 2 && d2 >= 0) {
		memmove(&in->refs[d2], &in->refs[d2 + 1], (in->nrefs - (unsigned)d2 - 1) * sizeof in->refs[0]);
		in->nrefs--;
		linsn_set(in, SR_RD2, 255);
	}
	return true;
}

/* istypep (issue 17): whether a 64-bit handle is a texture, sampler or
 * surface handle, as ptxas 11.8 -O3 lowers it for sm_50.
 *
 * A handle carries its kind in its high word: bit 29 for .texref, bit 30
 * for .samplerref, bit 31 for .surfref. ptxas compares the whole handle,
 * masked, with the mask as a 64-bit equality whose low words are both 0:
 *   IADD RZ.CC, -RZ, RZ                    (the low words' compare: equal)
 *   LOP32I.AND t, hi, mask
 *   ISETP.EQ.U32.X.AND p, PT, t, c[0x2][slot], PT
 * with the mask as a .nv.constant2 word (first use first). */
#include "lower/lower_internal.h"

#include <string.h>

static const struct { const char *word; uint32_t mask; } handle_kinds[] = {
	{ ".texref", 0x20000000 }, { ".samplerref", 0x40000000 }, { ".surfref", 0x80000000 },
};

bool lower_istypep(LowerCtx *c, const Instr *in)
{
	uint32_t mask = 0;
	for (uint32_t i = 0; i < in->nmods; i++) {
		bool known = false;
		for (size_t j = 0; j < sizeof handle_kinds / sizeof handle_kinds[0]; j++)
			if (strcmp(in->mods[i], handle_kinds[j].word) == 0) {
				mask = handle_kinds[j].mask;
				known = true;
			}
		if (!known)
			return lw_unsupported(c, in->mod_locs[i], "istypep modifier '%s'", in->mods[i]);
	}
	if (!mask)
		return lw_unsupported(c, in->loc, "istypep without .texref, .samplerref or .surfref");
	uint32_t p, h;
	unsigned hw;
	if (!lw_pred(c, in->ops[0], &p))
		return false;
	if (in->ops[1]->kind != EX_NAME || in->ops[1]->text[0] != '%')
		return lw_unsupported(c, in->ops[1]->loc, "istypep of this operand (a 64-bit register holding "
		                      "a handle is supported)");
	if (!lw_reg(c, in->ops[1], &h, &hw))
		return false;
	if (hw != 2)
		return lw_unsupported(c, in->ops[1]->loc, "istypep of a 32-bit register (handles are 64-bit)");
	LInsn *lo = lw_emit(c, SF_IADD_R);
	linsn_set(lo, SR_RD, 255);
	linsn_set(lo, SR_RA, 255);
	linsn_set(lo, SR_RB, 255);
	linsn_set(lo, SR_NEG, 2);
	linsn_set(lo, SR_CC, 1);
	lo->writes_cc = true;
	uint32_t t = lw_temp(c, 1);
	LInsn *and = lw_emit(c, SF_LOP32I);
	linsn_ref(and, SR_RD, t, 0, 1, true);
	linsn_ref(and, SR_RA, h, 1, 1, false);
	linsn_set(and, SR_LOPOP, 0);
	linsn_set(and, SR_IMM, mask);
	uint32_t slot = lkernel_const2_slot(c->k, mask);
	LInsn *cmp = lw_emit(c, SF_ISETP_C);
	linsn_ref(cmp, SR_PD, p, 0, 1, true);
	linsn_ref(cmp, SR_RA, t, 0, 1, false);
	linsn_set(cmp, SR_CBANK, LK_CONST2_BANK);
	linsn_set(cmp, SR_COFF, slot / 4);
	linsn_set(cmp, SR_CMP, 2);
	linsn_set(cmp, SR_X, 1);
	cmp->reads_cc = true;
	return true;
}

/* The operands and modifiers of the video instructions, read alike by
 * the whole-word forms (lower_video.c), the scalar ones
 * (lower_video_scalar.c) and the SIMD lanes (lower_video_simd.c): a
 * register with its selector, a part's format, the .op2 mode, the types'
 * signedness and vset's comparison. */
#include "lower/lower_internal.h"

#include <string.h>

bool lw_video_reg(LowerCtx *c, const Expr *e, uint32_t *vreg, const char **sel)
{
	unsigned width;
	*sel = NULL;
	if (e->kind == EX_NAME && e->component) {
		Expr plain = *e;
		plain.component = NULL;
		*sel = e->component;
		return lw_reg(c, &plain, vreg, &width);
	}
	Opnd o;
	unsigned rsub;
	if (!lw_opnd(c, e, &o))
		return false;
	lw_opnd_part(c, &o, 0, vreg, &rsub);
	return true;
}

int64_t lw_video_format(const char *sel, bool is_signed)
{
	static const char *const parts[] = { ".b0", ".b1", ".b2", ".b3", ".h0", ".h1" };
	int64_t part = 6;
	if (sel != NULL) {
		part = -1;
		for (int64_t i = 0; i < 6; i++)
			if (strcmp(sel, parts[i]) == 0)
				part = i;
		if (part < 0)
			return -1;
	}
	return part + (is_signed ? 8 : 0);
}

int64_t lw_video_mode(const Instr *in)
{
	return lw_has_mod(in, ".add") ? 4 : lw_has_mod(in, ".min") ? 5 : lw_has_mod(in, ".max") ? 6 : 7;
}

bool lw_video_signs(const Instr *in, unsigned want, bool sg[3])
{
	unsigned n = 0;
	for (uint32_t i = 0; i < in->nmods; i++) {
		PtxTy ty = ptx_type_of_word(in->mods[i]);
		if (ty.bits == 0)
			continue;
		if (n == want)
			return false;
		sg[n++] = ty.is_signed;
	}
	return n == want;
}

int64_t lw_video_cmp(const Instr *in)
{
	static const char *const cmps[] = { NULL, ".lt", ".eq", ".le", ".gt", ".ne", ".ge" };
	for (int64_t i = 1; i < 7; i++)
		if (lw_has_mod(in, cmps[i]))
			return i;
	return -1;
}

/* b as the 16-bit immediate ptxas writes: a constant in 0..0xffff
 * (unsigned b) or 0..0x7fff (signed); *imm gets it. */
bool lw_video_imm(LowerCtx *c, const Expr *e, bool is_signed, int64_t *imm)
{
	Opnd o;
	if (e->kind == EX_NAME || !lw_opnd(c, e, &o) || o.kind != OPND_IMM)
		return false;
	*imm = o.imm;
	return o.imm >= 0 && o.imm <= (is_signed ? 0x7fff : 0xffff);
}

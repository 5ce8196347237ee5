/* The texel offsets operand of tex and tld4 (PTX ISA: tex.geom ... d,
 * [a, c] {, e} {, f}; e is a vector of .s32 offsets, one per coordinate),
 * as ptxas 13 (-arch=sm_75) takes it, measured:
 *  - its size follows the geometry: 1d/a1d any of 1, 2, 4 elements,
 *    2d/a2d/2dms/a2dms 2 or 4, 3d 4 ("Operand vector size doesn't match
 *    geometry"); 3 elements are no vector size ("Illegal vector size: 3");
 *  - a cube map has no offsets: "Illegal modifier '.cube'";
 *  - elements are 32-bit registers or integers: no float immediate, no
 *    16- or 64-bit register, no sink; the registers join as a coordinate
 *    vector's do ({%f1, %f2} is refused, {%r1, %f2} is .b32 and taken).
 *    Immediates of any value are taken (the hardware reads the low 4 bits,
 *    6 for tld4).
 * A lone scalar after the fixed operands is the depth reference f (ptxas
 * 11.8 writes TEXS.DC for tex.1d/.2d ..., %r1 as for ..., %f1); a 3D or
 * multisample texture has none: "Illegal modifier '.3d'" (also after an
 * offsets vector). */
#include "check/check_internal.h"

#include <string.h>

static bool has_mod(const Instr *in, const char *w)
{
	for (uint32_t i = 0; i < in->nmods; i++)
		if (strcmp(in->mods[i], w) == 0)
			return true;
	return false;
}

/* The geometry word, the fewest offsets it takes (0: none allowed) and
 * whether it has a depth reference. */
static const char *geometry(const Instr *in, unsigned *need, bool *depth)
{
	static const struct { const char *word; unsigned need; bool depth; } geoms[] = {
		{ ".1d", 1, true }, { ".a1d", 1, true }, { ".2d", 2, true }, { ".a2d", 2, true }, { ".2dms", 2, false },
		{ ".a2dms", 2, false }, { ".3d", 4, false }, { ".cube", 0, true }, { ".acube", 0, true },
	};
	for (uint32_t i = 0; i < in->nmods; i++)
		for (size_t g = 0; g < sizeof geoms / sizeof geoms[0]; g++)
			if (strcmp(in->mods[i], geoms[g].word) == 0) {
				*need = geoms[g].need;
				*depth = geoms[g].depth;
				return geoms[g].word;
			}
	return NULL;
}

static void check_elements(CheckCtx *c, const Instr *in, const Expr *e)
{
	bool any_float = false, all_float = true;
	const Expr *first_float = NULL;
	for (uint32_t i = 0; i < e->nelems; i++) {
		const Expr *el = e->elems[i];
		if (check_is_sink(el)) {
			check_error(c, el->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction '%s' (the offsets "
				"vector holds no sink '_')", in->opcode);
			return;
		}
		if (el->kind == EX_FLOAT || (el->kind == EX_UNARY && el->lhs && el->lhs->kind == EX_FLOAT)) {
			check_error(c, el->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction '%s' (float offset "
				"'%s'; texel offsets are .s32)", in->opcode, check_expr_text(c, el));
			return;
		}
		if (check_is_immediate(el)) {
			all_float = false;
			continue;
		}
		if (el->kind != EX_NAME || el->component)
			continue;
		const Symbol *sym = check_lookup(c, el);
		if (!sym || sym->kind != SYM_REG || sym->vec)
			return;
		const TypeInfo *ti = type_info(sym->type);
		if (ti->bits != 32) {
			check_error(c, el->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction '%s' (offset '%s' is "
				"%s; texel offsets are 32-bit)", in->opcode, el->text, ti->word);
			return;
		}
		if (ti->cls == TC_FLOAT) {
			any_float = true;
			if (!first_float)
				first_float = el;
		} else {
			all_float = false;
		}
	}
	if (any_float && all_float)
		check_error(c, first_float->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction '%s' (offset "
			"'%s' is .f32; texel offsets are .s32)", in->opcode, first_float->text);
}

void check_texture_offsets(CheckCtx *c, const Instr *in)
{
	unsigned fixed = 2 + has_mod(in, ".level") + 2 * has_mod(in, ".grad");
	if (in->nops <= fixed)
		return;
	unsigned need = 1;
	bool depth = true;
	const char *gw = geometry(in, &need, &depth);
	if (gw == NULL)
		return;
	bool has_e = in->ops[fixed]->kind == EX_VECTOR;
	if (!depth && in->nops > fixed + has_e) {
		const Expr *f = in->ops[fixed + has_e];
		check_error(c, f->loc, RULE_OPERAND_TYPE, "Illegal modifier '%s' for instruction '%s' (%s takes no "
			"depth reference: '%s' after the %s)", gw, in->opcode, gw, check_expr_text(c, f),
			has_e ? "offsets" : "coordinates");
		return;
	}
	if (!has_e)
		return;
	const Expr *e = in->ops[fixed];
	if (need == 0) {
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Illegal modifier '%s' for instruction '%s' (a cube map takes "
			"no texel offsets)", gw, in->opcode);
		return;
	}
	if (e->nelems == 3) {
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Illegal vector size: 3 (texel offsets are a vector of 1, 2 "
			"or 4)");
		return;
	}
	if (e->nelems < need) {
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Operand vector size doesn't match geometry for instruction '%s' "
			"(%s takes %u texel offsets, got %u)", in->opcode, gw, need, e->nelems);
		return;
	}
	check_elements(c, in, e);
}

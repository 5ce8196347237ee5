/* mov that packs scalars into one register or unpacks one ({a, b}):
 * ptxas 13 takes it only with a bit type (.b16, .b32, .b64, .b128), two or
 * four elements, and registers that together are exactly the type's width
 * (immediates fit any element). A .vN mov copies vectors instead. */
#include "check/check_internal.h"

#include <string.h>

static void check_pack(CheckCtx *c, const Expr *v, PtxType type)
{
	const TypeInfo *ti = type_info(type);
	if (v->nelems != 2 && v->nelems != 4) {
		check_error(c, v->loc, "operand-type", "Illegal vector size: %u (mov packs 2 or 4 elements)", v->nelems);
		return;
	}
	if (ti->cls != TC_BIT) {
		check_error(c, v->loc, "operand-type", "Arguments mismatch for instruction 'mov' (packing {...} needs a "
			".bN type, not %s)", ti->word);
		return;
	}
	for (uint32_t i = 0; i < v->nelems; i++) {
		const Expr *el = v->elems[i];
		if (el->kind != EX_NAME || check_is_sink(el))
			continue;
		PtxType t = check_register_type(c, el);
		if (t == TY_NONE || type_info(t)->bits * (int)v->nelems == ti->bits)
			continue;
		check_error(c, el->loc, "operand-type", "Arguments mismatch for instruction 'mov' ('%s' is %s: %u "
			"elements of %s make %d bits, not %d)", check_expr_text(c, el), type_info(t)->word, v->nelems,
			type_info(t)->word, type_info(t)->bits * (int)v->nelems, ti->bits);
		return;
	}
}

void check_mov_pack(CheckCtx *c, const Instr *in)
{
	PtxType type = TY_NONE;
	for (uint32_t i = 0; i < in->nmods; i++) {
		if (in->mods[i][1] == 'v' && in->mods[i][2] >= '0' && in->mods[i][2] <= '9')
			return;
		PtxType t = type_from_word(in->mods[i]);
		if (t != TY_NONE)
			type = t;
	}
	if (type == TY_NONE || in->nops != 2)
		return;
	for (uint32_t i = 0; i < 2; i++)
		if (in->ops[i]->kind == EX_VECTOR)
			check_pack(c, in->ops[i], type);
}

/* Rule operand-type, mov's vector operands as ptxas 13 judges them:
 *   packing   mov.bN between one register and {a, b} (or a register
 *             declared .v2/.v4) whose elements together are N bits
 *   copies    mov.vN between .vN registers and {...} of N elements,
 *             each element of the type's width
 * A vector on both sides of a packing mov, or a .vN register where the
 * copy has another N, is refused; check_body.c calls check_mov_pack. */
#include "check/check_internal.h"

#include <stdlib.h>
#include <string.h>

/* A register declared .v2/.v4 named whole (no .x), else NULL. */
static const Symbol *vector_register(CheckCtx *c, const Expr *e)
{
	const Symbol *s = e->kind == EX_NAME && !e->component ? check_lookup(c, e) : NULL;
	return s && s->kind == SYM_REG && s->vec ? s : NULL;
}

/* ---- packing ---- */
/* ptxas 13 takes it only with a bit type (.b16, .b32, .b64, .b128), one,
 * two or four elements, and registers that together are exactly the
 * type's width (immediates fit any element). */
static void check_pack(CheckCtx *c, const Expr *v, PtxType type)
{
	const TypeInfo *ti = type_info(type);
	/* ptxas 13 takes {x} as x itself: an immediate or a register of the
	 * type's full width (mov.b32 a, {0} in nvcc's inline half code) */
	if (v->nelems != 1 && v->nelems != 2 && v->nelems != 4) {
		check_error(c, v->loc, RULE_OPERAND_TYPE, "Illegal vector size: %u (mov packs 2 or 4 elements, or "
			"takes one of the full width)", v->nelems);
		return;
	}
	if (ti->cls != TC_BIT) {
		check_error(c, v->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction 'mov' (packing {...} needs a "
			".bN type, not %s)", ti->word);
		return;
	}
	/* {%r}: ptxas 13 takes a register as itself; the PTX ISA's mov packs
	 * two or four elements */
	if (v->nelems == 1 && v->elems[0]->kind == EX_NAME && check_register_type(c, v->elems[0]) != TY_NONE)
		check_strict(c, v->loc, RULE_OPERAND_TYPE, "PTX ISA 9.7.9.1 mov: a vector operand packs {a, b} or "
			"{a, b, c, d}", "Register '%s' in braces of one element: write it without the braces",
			check_expr_text(c, v->elems[0]));
	for (uint32_t i = 0; i < v->nelems; i++) {
		const Expr *el = v->elems[i];
		if (el->kind != EX_NAME || check_is_sink(el))
			continue;
		PtxType t = check_register_type(c, el);
		if (t == TY_NONE || type_info(t)->bits * (int)v->nelems == ti->bits)
			continue;
		check_error(c, el->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction 'mov' ('%s' is %s: %u "
			"elements of %s make %d bits, not %d)", check_expr_text(c, el), type_info(t)->word, v->nelems,
			type_info(t)->word, type_info(t)->bits * (int)v->nelems, ti->bits);
		return;
	}
}

/* A .v2/.v4 register packs as a {...} of its elements does
 * (mov.b64 %rd1, %v with %v a .v2 .b32: accepted; as .v4 .b32, or with
 * mov.u64: "Arguments mismatch"). */
static void check_pack_register(CheckCtx *c, const Expr *e, const Symbol *s, PtxType type)
{
	const TypeInfo *ti = type_info(type), *ei = type_info(s->type);
	int bits = ei->bits * s->vec;
	if (ti->cls == TC_BIT && bits == ti->bits)
		return;
	if (ti->cls != TC_BIT)
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction 'mov' ('%s' is a .v%d %s "
			"register: packing it into one register needs a .bN type, not %s)", e->text, s->vec, ei->word,
			ti->word);
	else
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction 'mov' ('%s' is a .v%d %s "
			"register, %d bits, not the %d of mov%s)", e->text, s->vec, ei->word, bits, ti->bits, ti->word);
}

/* ---- .vN copies ---- */
/* Each element is exactly the type's width; a float type takes integer
 * registers too, an integer type no float ones (mov.v2.f32 of a .v2 .u32
 * register: accepted; mov.v2.u32 of .v2 .f32: "Arguments mismatch"). */
static bool copy_element_fits(PtxType type, PtxType reg)
{
	return type_info(reg)->bits == type_info(type)->bits && type_register_fits(type, reg, FIT_VECTOR);
}

static void check_copy_elements(CheckCtx *c, const Instr *in, const Expr *v, const char *vmod, PtxType type)
{
	for (uint32_t i = 0; i < v->nelems; i++) {
		const Symbol *s = vector_register(c, v->elems[i]);
		if (s) {
			check_error(c, v->elems[i]->loc, RULE_OPERAND_TYPE, "Illegal expression '%s' (a .v%d register is no "
				"element of {...}: name one of its elements, %s.x)", v->elems[i]->text, s->vec, v->elems[i]->text);
			return;
		}
	}
	if (!check_vector_elements(c, in, v, "mov's {...}") || type == TY_NONE)
		return;
	for (uint32_t i = 0; i < v->nelems; i++) {
		const Expr *el = v->elems[i];
		if (el->kind != EX_NAME || check_is_sink(el))
			continue;
		const Symbol *s = check_lookup(c, el);
		if (!s || s->kind != SYM_REG || (el->component && !s->vec) || copy_element_fits(type, s->type))
			continue;
		check_error(c, el->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction 'mov' ('%s' is %s; each "
			"element of mov%s%s is one %s)", check_expr_text(c, el), type_info(s->type)->word, vmod,
			type_info(type)->word, type_info(type)->word);
		return;
	}
}

static void check_copy_operand(CheckCtx *c, const Instr *in, const Expr *e, bool dest, const char *vmod,
	PtxType type)
{
	uint32_t n = (uint32_t)atoi(vmod + 2);
	const Symbol *s = vector_register(c, e);
	if (s && s->vec != n)
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Argument vector size mismatch for instruction 'mov' ('%s' is a "
			".v%d register, mov%s copies %u elements)", e->text, s->vec, vmod, n);
	else if (s && type != TY_NONE && !copy_element_fits(type, s->type))
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction 'mov' ('%s' is .v%d %s; each "
			"element of mov%s%s is one %s)", e->text, s->vec, type_info(s->type)->word, vmod,
			type_info(type)->word, type_info(type)->word);
	else if (e->kind == EX_VECTOR && e->nelems != n)
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Argument vector size mismatch for instruction 'mov' ({...} has "
			"%u elements, %s copies %u)", e->nelems, vmod, n);
	else if (e->kind == EX_VECTOR)
		check_copy_elements(c, in, e, vmod, type);
	else if (dest && !s && e->kind == EX_NAME && !check_is_sink(e))
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Result vector expected for 'mov%s' ('%s' is one register: write "
			"a .v%u register or {...} of %u)", vmod, check_expr_text(c, e), n, n);
}

void check_mov_pack(CheckCtx *c, const Instr *in)
{
	PtxType type = TY_NONE;
	int vec_at = -1;
	for (uint32_t i = 0; i < in->nmods; i++) {
		if (in->mods[i][1] == 'v' && in->mods[i][2] >= '0' && in->mods[i][2] <= '9')
			vec_at = (int)i;
		PtxType t = type_from_word(in->mods[i]);
		if (t != TY_NONE)
			type = t;
	}
	if (in->nops != 2)
		return;
	if (vec_at >= 0) {
		for (uint32_t k = 0; k < 2; k++)
			check_copy_operand(c, in, in->ops[k], k == 0, in->mods[vec_at], type);
		return;
	}
	if (type == TY_NONE)
		return;
	const Symbol *reg[2] = { vector_register(c, in->ops[0]), vector_register(c, in->ops[1]) };
	if ((reg[0] || in->ops[0]->kind == EX_VECTOR) && (reg[1] || in->ops[1]->kind == EX_VECTOR)) {
		check_error(c, in->ops[1]->loc, RULE_OPERAND_TYPE, "Illegal vector-vector operands for vector-scalar or "
			"scalar-vector mov instruction (mov%s packs a vector into one register or unpacks one; copy "
			"vectors with mov.vN)", type_info(type)->word);
		return;
	}
	for (uint32_t i = 0; i < 2; i++) {
		if (in->ops[i]->kind == EX_VECTOR)
			check_pack(c, in->ops[i], type);
		else if (reg[i])
			check_pack_register(c, in->ops[i], reg[i], type);
	}
}

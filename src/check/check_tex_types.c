/* The types of tex and tld4's operands, as ptxas 13 (-arch=sm_75)
 * judges them, measured one line at a time:
 *  - the vector width follows the result type: .v2 for .f16x2, .v4 for
 *    the others ("Instruction 'tex.f32' requires .v4 type");
 *  - tld4 with .s32 coordinates is "Unexpected instruction types";
 *  - tex.level's level of detail is of the coordinates' kind: with .f32
 *    ones an .f32 or .b32 register or a float constant, with .s32 ones an
 *    integer or .b32 register or an integer constant; the other kind or
 *    another width is "Arguments mismatch".
 * The registers of the braced result and coordinates:
 *  - the registers are one width ("Incompatible elements of vector
 *    expression") and, for a 32-bit type, 32 bits: a result of other
 *    registers is refused the same way, coordinates in 16- or 64-bit
 *    registers are "Arguments mismatch";
 *  - a float register next to an integer one (.s32 or .u32) is "Vector
 *    with elements of different types are not allowed in tex instruction";
 *    only neighbours are compared, so a .bN register between them parts
 *    them ({%f1, %b2, %u3} is taken, {%b1, %f2, %u3} is not);
 *  - with no .bN register among them, float registers for an integer type
 *    are "Arguments mismatch" ({%f1, %f2} as .s32 coordinates or an .s32
 *    result); integer registers for an .f32 type are taken, and one .bN
 *    register makes any of them fit;
 *  - the first coordinate of an array texture (a1d, a2d, acube, a2dms) is
 *    the layer: a float register there is "Array index in the 'tex'
 *    instruction has unexpected type. Expecting type .u32"; the other
 *    coordinates are compared with each other only, not with the type
 *    (tex.a2d.v4.f32.s32 [t, {%s1, %f2, %f3, %f4}] is taken). */
#include "check/check_internal.h"

#include <string.h>

static bool is_int_class(TypeClass cls)
{
	return cls == TC_SIGNED || cls == TC_UNSIGNED;
}

/* The type word of the result (first) or the coordinates (last). */
static PtxType type_word(const Instr *in, bool last)
{
	PtxType t = TY_NONE;
	for (uint32_t i = 0; i < in->nmods; i++) {
		PtxType w = type_from_word(in->mods[i]);
		if (w != TY_NONE) {
			t = w;
			if (!last)
				break;
		}
	}
	return t;
}

static bool is_array_geometry(const Instr *in)
{
	static const char *const arrays[] = { ".a1d", ".a2d", ".acube", ".a2dms" };
	for (uint32_t i = 0; i < in->nmods; i++)
		for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++)
			if (strcmp(in->mods[i], arrays[a]) == 0)
				return true;
	return false;
}

/* Judges the registers of v against type (32-bit .f32/.s32/.u32),
 * from element `from` on; what names the vector in messages. Returns
 * false after an error. */
static bool judge_elements(CheckCtx *c, const Instr *in, const Expr *v, uint32_t from, PtxType type, bool against_type,
	const char *what)
{
	const TypeInfo *dt = type_info(type), *prev = NULL;
	const Expr *first_float = NULL;
	bool any_bit = false, any_int = false;
	for (uint32_t i = from; i < v->nelems; i++) {
		const Expr *el = v->elems[i];
		const TypeInfo *ti = check_scalar_register(c, el);
		if (!ti)
			continue;
		if ((ti->cls == TC_FLOAT && prev && is_int_class(prev->cls)) ||
		    (is_int_class(ti->cls) && prev && prev->cls == TC_FLOAT)) {
			check_error(c, el->loc, RULE_OPERAND_TYPE, "Vector with elements of different types are not allowed in "
				"%s instruction ('%s' is %s, the element before it %s; a .bN register between them would "
				"join them)", in->opcode, el->text, ti->word, prev->word);
			return false;
		}
		prev = ti;
		any_bit |= ti->cls == TC_BIT;
		any_int |= is_int_class(ti->cls);
		if (ti->cls == TC_FLOAT && !first_float)
			first_float = el;
	}
	if (against_type && first_float && !any_bit && !any_int && is_int_class(dt->cls)) {
		check_error(c, first_float->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction '%s' ('%s' is %s; "
			"%s %s need integer or .b32 registers)", in->opcode, first_float->text,
			type_info(check_register_type(c, first_float))->word, dt->word, what);
		return false;
	}
	return true;
}

static void check_result(CheckCtx *c, const Instr *in, const Expr *v, PtxType dtype)
{
	for (uint32_t i = 0; i < v->nelems; i++) {
		const TypeInfo *ti = check_scalar_register(c, v->elems[i]);
		if (ti && ti->bits != 32) {
			check_error(c, v->elems[i]->loc, RULE_OPERAND_TYPE, "Incompatible elements of vector expression ('%s' "
				"is %s; %s returns 32-bit values)", v->elems[i]->text, ti->word, in->opcode);
			return;
		}
	}
	judge_elements(c, in, v, 0, dtype, true, "results");
}

static void check_coordinates(CheckCtx *c, const Instr *in, const Expr *v, PtxType ctype)
{
	int bits = 0;
	for (uint32_t i = 0; i < v->nelems; i++) {
		const TypeInfo *ti = check_scalar_register(c, v->elems[i]);
		if (!ti)
			continue;
		if (bits && ti->bits != bits) {
			check_error(c, v->elems[i]->loc, RULE_OPERAND_TYPE, "Incompatible elements of vector expression ('%s' "
				"is %s; the other coordinates are %d-bit)", v->elems[i]->text, ti->word, bits);
			return;
		}
		bits = ti->bits;
	}
	if (bits && bits != 32) {
		check_error(c, v->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction '%s' (%d-bit coordinates; "
			"%s coordinates are 32-bit registers)", in->opcode, bits, type_info(ctype)->word);
		return;
	}
	bool array = is_array_geometry(in);
	if (array && v->nelems) {
		const TypeInfo *ti = check_scalar_register(c, v->elems[0]);
		if (ti && ti->cls == TC_FLOAT) {
			check_error(c, v->elems[0]->loc, RULE_OPERAND_TYPE, "Array index in the '%s' instruction has unexpected "
				"type. Expecting type .u32 ('%s' is %s)", in->opcode, v->elems[0]->text, ti->word);
			return;
		}
	}
	judge_elements(c, in, v, array ? 1 : 0, ctype, !array, "coordinates");
}

static bool has_mod(const Instr *in, const char *w)
{
	for (uint32_t i = 0; i < in->nmods; i++)
		if (strcmp(in->mods[i], w) == 0)
			return true;
	return false;
}

static void check_vector_width(CheckCtx *c, const Instr *in, PtxType dtype)
{
	int vec_at = modifier_of_class(in, "vector");
	if (vec_at < 0 || dtype == TY_NONE)
		return;
	const char *need = dtype == TY_F16X2 ? ".v2" : ".v4";
	if (strcmp(in->mods[vec_at], need) != 0)
		check_error(c, in->loc, RULE_OPERAND_TYPE, "Instruction '%s%s' requires %s type (not %s)", in->opcode,
			type_info(dtype)->word, need, in->mods[vec_at]);
}

static void check_level_of_detail(CheckCtx *c, const Instr *in, PtxType ctype)
{
	if (in->nops < 3)
		return;
	const Expr *lod = in->ops[2];
	const TypeInfo *ti = check_scalar_register(c, lod);
	bool float_coords = type_info(ctype)->cls == TC_FLOAT;
	bool float_constant = lod->kind == EX_FLOAT || (lod->kind == EX_UNARY && lod->lhs && lod->lhs->kind == EX_FLOAT);
	bool constant_kind_wrong = check_is_immediate(lod) && float_constant != float_coords;
	bool register_kind_wrong = ti && (ti->bits != 32 || (float_coords ? is_int_class(ti->cls) : ti->cls == TC_FLOAT));
	if (constant_kind_wrong || register_kind_wrong)
		check_error(c, lod->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction '%s' (level of detail '%s' "
			"is %s; with %s coordinates it is %s)", in->opcode, check_expr_text(c, lod),
			ti ? ti->word : float_constant ? "a float constant" : "an integer constant", type_info(ctype)->word,
			float_coords ? "an .f32 or .b32 register or a float constant" :
				       "an integer or .b32 register or an integer constant");
}

void check_texture_types(CheckCtx *c, const Instr *in)
{
	bool tld4 = opcode_is(in, "tld4");
	if (!opcode_is(in, "tex") && !tld4)
		return;
	PtxType dtype = type_word(in, false), ctype = type_word(in, true);
	check_vector_width(c, in, dtype);
	if (ctype == TY_S32 && tld4)
		check_error(c, in->loc, RULE_OPERAND_TYPE, "Unexpected instruction types specified for '%s' (its "
			"coordinates are .f32)", in->opcode);
	if (!tld4 && has_mod(in, ".level") && ctype != TY_NONE)
		check_level_of_detail(c, in, ctype);
	const TypeInfo *dt = type_info(dtype), *ct = type_info(ctype);
	if (in->nops && in->ops[0]->kind == EX_VECTOR && dtype != TY_NONE && dt->bits == 32 &&
	    (dt->cls == TC_FLOAT || is_int_class(dt->cls)))
		check_result(c, in, in->ops[0], dtype);
	if (in->nops < 2 || in->ops[1]->kind != EX_ADDRESS || in->ops[1]->nelems < 2)
		return;
	const Expr *coords = in->ops[1]->elems[in->ops[1]->nelems - 1];
	if (coords->kind == EX_VECTOR && ctype != TY_NONE && ct->bits == 32 && (ct->cls == TC_FLOAT || is_int_class(ct->cls)))
		check_coordinates(c, in, coords, ctype);
}

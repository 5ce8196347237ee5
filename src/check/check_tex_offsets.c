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
 * A 3D or multisample texture has no depth reference f: "Illegal
 * modifier '.3d'" (also after an offsets vector).
 * Scalars after the fixed operands, as ptxas 13 judges them and ptxas 11.8
 * compiles them (measured on every pairing of .f32, .b32, .s32, .b16 and
 * .b64 registers and integer and float constants, float and integer
 * coordinates; docs/rules-strict-vs-ptxas.md):
 *  - alone, with float coordinates: an .f32 or .b32 register or a float
 *    constant is f (TEXS.DC); an .s32/.u32 register or an integer constant
 *    is taken and ignored; with integer coordinates (a texel fetch, which
 *    has no compare) an integer or .b32 one is taken and ignored, a float
 *    one refused;
 *  - after a vector e or a scalar: f must be .f32, .b32 or a float
 *    constant, and the coordinates floats; a scalar before it must be an
 *    integer or .b32 register or an integer constant (ptxas 11.8 then
 *    compares against a .b32 scalar and ignores f, and ignores both after
 *    an integer one);
 *  - any other width: "Arguments mismatch".
 * The PTX ISA has e only as a vector and f only as .f32, so what ptxas
 * takes and ignores is refused in strict mode. */
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
		const TypeInfo *ti = check_scalar_register(c, el);
		if (!ti)
			return;
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

/* What a scalar operand after the coordinates is to ptxas: a float one
 * (an .f32 register, a 0f/decimal constant), a .b32 register (either), an
 * integer one (.s32/.u32 register, an integer constant), another width,
 * or not known here (a vector, an undeclared name: judged elsewhere). */
typedef enum TrailKind { TRAIL_FLOAT, TRAIL_BITS, TRAIL_INT, TRAIL_OTHER, TRAIL_UNKNOWN } TrailKind;

static TrailKind trail_kind(CheckCtx *c, const Expr *x)
{
	const Expr *v = x->kind == EX_UNARY && x->lhs ? x->lhs : x;
	if (v->kind == EX_FLOAT)
		return v->text[0] == '0' && (v->text[1] == 'd' || v->text[1] == 'D') ? TRAIL_OTHER : TRAIL_FLOAT;
	if (check_is_immediate(x))
		return TRAIL_INT;
	const TypeInfo *ti = check_scalar_register(c, x);
	if (!ti)
		return TRAIL_UNKNOWN;
	if (ti->bits != 32)
		return TRAIL_OTHER;
	return ti->cls == TC_FLOAT ? TRAIL_FLOAT : ti->cls == TC_BIT ? TRAIL_BITS : TRAIL_INT;
}

static bool float_coordinates(const Instr *in)
{
	/* the last type word is the coordinates' (tex.2d.v4.f32.s32) */
	for (uint32_t i = in->nmods; i-- > 0;) {
		const TypeInfo *ti = type_info(type_from_word(in->mods[i]));
		if (ti->cls != TC_NONE)
			return ti->cls == TC_FLOAT;
	}
	return true;
}

static void mismatch(CheckCtx *c, const Instr *in, const Expr *x, const char *why)
{
	check_error(c, x->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction '%s' ('%s' %s)", in->opcode,
		check_expr_text(c, x), why);
}

/* The depth reference f after a vector or a scalar e. */
static bool check_depth_after(CheckCtx *c, const Instr *in, const Expr *f, bool fl)
{
	TrailKind k = f->kind == EX_VECTOR ? TRAIL_OTHER : trail_kind(c, f);
	if (k == TRAIL_UNKNOWN)
		return true;
	if (k != TRAIL_FLOAT && k != TRAIL_BITS) {
		mismatch(c, in, f, "after the offsets is no depth reference: it is one .f32 value");
		return false;
	}
	if (!fl) {
		mismatch(c, in, f, "is a depth reference: a texel fetch (integer coordinates) has none");
		return false;
	}
	return true;
}

/* Scalars where ptxas reads e or f (header comment); false when refused. */
static bool check_trailing_scalars(CheckCtx *c, const Instr *in, unsigned fixed)
{
	const Expr *x = in->ops[fixed];
	bool fl = float_coordinates(in), two = in->nops > fixed + 1;
	if (x->kind == EX_VECTOR)
		return !two || check_depth_after(c, in, in->ops[fixed + 1], fl);
	TrailKind k = trail_kind(c, x);
	if (k == TRAIL_UNKNOWN)
		return true;
	if (k == TRAIL_OTHER || (k == TRAIL_FLOAT && (two || !fl))) {
		mismatch(c, in, x, k == TRAIL_OTHER ? "is neither texel offsets nor a depth reference (32 bits)"
			: two ? "before the depth reference is no texel offsets: they are .s32"
			: "is a depth reference: a texel fetch (integer coordinates) has none");
		return false;
	}
	if (two && !check_depth_after(c, in, in->ops[fixed + 1], fl))
		return false;
	if (two || k == TRAIL_INT || !fl)
		check_strict(c, x->loc, RULE_OPERAND_TYPE, "PTX ISA: tex/tld4 texel offsets e are a vector of .s32, the "
			"depth reference f one .f32 value", "'%s' after the coordinates is neither: ptxas takes it and %s",
			check_expr_text(c, x), two ? (k == TRAIL_BITS ? "compares against it, ignoring the operand after it"
			: "ignores it and the operand after it") : "ignores it");
	return true;
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
	if (!check_trailing_scalars(c, in, fixed) || !has_e)
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

/* Variable initializers: the forms of their terms and the types they
 * initialize, as ptxas 13 judges them (probed one declaration at a time).
 *
 * - An address term is `sym`, `generic(sym)`, or either followed by `+`
 *   and an integer constant expression (ptxas's grammar reads `sym + e`,
 *   so `v + 4 - 2` is v + (4 - 2)). `v - 4`, `4 + v`, `-v`, `(v)`,
 *   `v * 2`, `v + w` and `generic(v + 4)` are syntax errors there. A
 *   function is named alone: `generic(fn)` is "Invalid initial value
 *   expression", `fn + 4` a type mismatch. mask() takes the same terms,
 *   its mask selects one byte of the address (0xFF shifted by whole
 *   bytes: "Invalid mask value '0x12' used in initializer"), and it
 *   initializes .u8, .u32 or .u64 variables only (ptxas 13 and 11.8 refuse
 *   every other type, .b8 and .s8 too: "Initial value type mismatch").
 * - Address terms initialize .u32 and .u64 variables only (.s64, .b64,
 *   .b32, .u8, .f32, .f64: "Initial value type mismatch").
 * - An integer constant does not initialize a float variable (.f32 f = 1
 *   is a mismatch), a float literal no signed or unsigned one (.b types
 *   take both); an operator between an integer and a float is "Constant
 *   expression type mismatch", `!` of a float "Integer constant expression
 *   expected", and a 0f literal stands alone (`-0f3f800000`,
 *   `0f3f800000 + 1` do not parse; 0d literals take a sign).
 * - .f16 variables take no initializer, .f16x2 and .pred ones none of
 *   either kind.
 * - The braces follow the declaration: one level per array dimension with
 *   at most that many elements ("Greater number of elements in array
 *   initializer"; a flat list for x[2][2] counts against the first
 *   dimension), then for a .vN variable exactly N ("Incorrect number of
 *   elements in vector initializer"), then scalars; braces where a scalar
 *   belongs, or a scalar where braces do, are a type mismatch. */
#include "check/check_internal.h"

#include <string.h>

typedef enum TermKind { TERM_INT, TERM_FLOAT, TERM_ADDRESS, TERM_BAD } TermKind;

static bool is_0f_literal(const Expr *e)
{
	return e->kind == EX_FLOAT && e->text && e->text[0] == '0' && (e->text[1] == 'f' || e->text[1] == 'F');
}

static bool has_name(const Expr *e)
{
	if (!e)
		return false;
	switch (e->kind) {
	case EX_NAME: return true;
	case EX_UNARY: return has_name(e->lhs);
	case EX_BINARY: return has_name(e->lhs) || has_name(e->rhs);
	case EX_VECTOR: case EX_LIST: case EX_CALL: case EX_ADDRESS:
		for (uint32_t i = 0; i < e->nelems; i++)
			if (has_name(e->elems[i]))
				return true;
		return false;
	default: return false;
	}
}

static bool is_generic_of_name(const Expr *e)
{
	return e->kind == EX_CALL && e->text && strcmp(e->text, "generic") == 0 && e->nelems == 1 &&
	       e->elems[0]->kind == EX_NAME && !e->elems[0]->component;
}

static bool is_function(CheckCtx *c, const Expr *name)
{
	const Symbol *s = check_lookup(c, name);
	return s && s->kind == SYM_FUNC;
}

/* The base (`sym` or `generic(sym)`) of an address term, or NULL when e
 * is not one; *offset: a `+ e` follows. */
static const Expr *address_base(const Expr *e, bool *offset)
{
	*offset = false;
	/* left-deep: ((base + a) - b) ... with the first operator `+` */
	while (e->kind == EX_BINARY && e->lhs->kind == EX_BINARY && !has_name(e->rhs))
		e = e->lhs;
	if (e->kind == EX_BINARY) {
		if (e->op != '+' || has_name(e->rhs))
			return NULL;
		*offset = true;
		e = e->lhs;
	}
	if ((e->kind == EX_NAME && !e->component) || is_generic_of_name(e))
		return e;
	return NULL;
}

/* The kind of a constant term without names; TERM_BAD when diagnosed. */
static TermKind constant_kind(CheckCtx *c, const Expr *e)
{
	switch (e->kind) {
	case EX_INT: return TERM_INT;
	case EX_FLOAT: return TERM_FLOAT;
	case EX_LIST: return e->nelems == 1 ? constant_kind(c, e->elems[0]) : TERM_INT;
	case EX_UNARY: {
		if (is_0f_literal(e->lhs)) {
			check_error(c, e->loc, RULE_INITIALIZER, "Parsing error: a 0f float literal takes no operator "
				"(write the negated value's bits, e.g. 0fbf800000 for -1.0)");
			return TERM_BAD;
		}
		TermKind k = constant_kind(c, e->lhs);
		if (k == TERM_FLOAT && e->op != '-' && e->op != '+') {
			check_error(c, e->loc, RULE_INITIALIZER, "Integer constant expression expected (operator '%c' of "
				"a float)", e->op);
			return TERM_BAD;
		}
		return k;
	}
	case EX_BINARY: {
		if (is_0f_literal(e->lhs) || is_0f_literal(e->rhs)) {
			check_error(c, e->loc, RULE_INITIALIZER, "Parsing error: a 0f float literal takes no operator "
				"(write the value's bits, or use a decimal float)");
			return TERM_BAD;
		}
		TermKind l = constant_kind(c, e->lhs), r = constant_kind(c, e->rhs);
		if (l == TERM_BAD || r == TERM_BAD)
			return TERM_BAD;
		if (l != r) {
			check_error(c, e->loc, RULE_INITIALIZER, "Constant expression type mismatch: an integer and a "
				"float operand (write both as floats, e.g. 1.0 + 2.0)");
			return TERM_BAD;
		}
		return l;
	}
	default: return TERM_INT;
	}
}

static const char *type_word(PtxType t)
{
	return type_info(t)->word;
}

/* A term (a scalar element) of the initializer of a `type` variable. */
static void check_term(CheckCtx *c, const Expr *e, PtxType type)
{
	if (expr_is_mask_call(e)) {
		uint64_t v = 0;
		bool one_byte = false;
		if (int_literal_value(e->text, &v))
			for (int shift = 0; shift < 64 && !one_byte; shift += 8)
				one_byte = v == (uint64_t)0xFF << shift;
		bool offset;
		if (!one_byte)
			check_error(c, e->loc, RULE_INITIALIZER, "Invalid mask value '%s' used in initializer (a mask selects "
				"one byte of the address: 0xFF, 0xFF00, 0xFF0000, ...)", e->text);
		else if (type != TY_U8 && type != TY_U32 && type != TY_U64)
			check_error(c, e->loc, RULE_INITIALIZER, "Initial value type mismatch: a mask() term initializes a "
				"%s variable (it needs .u8, .u32 or .u64)", type_word(type));
		else if (!address_base(e->elems[0], &offset))
			check_error(c, e->elems[0]->loc, RULE_INITIALIZER, "Parsing error in a mask() term: it takes `sym`, "
				"`generic(sym)` or either + an integer constant");
		return;
	}
	TypeClass cls = type_info(type)->cls;
	if (has_name(e)) {
		bool offset;
		const Expr *base = address_base(e, &offset);
		if (!base) {
			check_error(c, e->loc, RULE_INITIALIZER, "Parsing error: an address in an initializer is `sym`, "
				"`generic(sym)` or either + an integer constant");
			return;
		}
		const Expr *name = base->kind == EX_NAME ? base : base->elems[0];
		if (is_function(c, name) && base->kind != EX_NAME) {
			check_error(c, base->loc, RULE_INITIALIZER, "Invalid initial value expression: generic() of "
				"function '%s' (name the function alone)", name->text);
			return;
		}
		if (type != TY_U32 && type != TY_U64)
			check_error(c, e->loc, RULE_INITIALIZER, "Initial value type mismatch: an address initializes a "
				"%s variable (it needs .u32 or .u64)", type_word(type));
		else if (offset && is_function(c, name))
			check_error(c, e->loc, RULE_INITIALIZER, "Initial value type mismatch: function '%s' plus an offset "
				"(name the function alone)", name->text);
		return;
	}
	TermKind k = constant_kind(c, e);
	if (k == TERM_BAD)
		return;
	if (k == TERM_INT && cls == TC_FLOAT)
		check_error(c, e->loc, RULE_INITIALIZER, "Initial value type mismatch: an integer constant initializes "
			"a %s variable (write a float, e.g. 1.0 or 0f3f800000)", type_word(type));
	else if (k == TERM_FLOAT && (cls == TC_SIGNED || cls == TC_UNSIGNED))
		check_error(c, e->loc, RULE_INITIALIZER, "Initial value type mismatch: a float constant initializes "
			"a %s variable (write an integer)", type_word(type));
}

static void check_terms(CheckCtx *c, const Expr *e, PtxType type, int depth)
{
	if (e->kind == EX_VECTOR && depth < EXPR_MAX_DEPTH) {
		for (uint32_t i = 0; i < e->nelems; i++)
			check_terms(c, e->elems[i], type, depth + 1);
		return;
	}
	check_term(c, e, type);
}

/* The braces of level `level` (dims, then the vector, then scalars);
 * false after the first mismatch, which ptxas stops at. */
static bool check_shape(CheckCtx *c, const Expr *e, const Declarator *dc, int vec, uint32_t level)
{
	bool vector_level = level == dc->ndims && vec > 1;
	if (level > dc->ndims || (level == dc->ndims && !vector_level)) {
		if (e->kind != EX_VECTOR)
			return true;
		check_error(c, e->loc, RULE_INITIALIZER, "Initial value type mismatch: braces where a scalar of '%s' "
			"belongs", dc->name);
		return false;
	}
	if (e->kind != EX_VECTOR) {
		check_error(c, e->loc, RULE_INITIALIZER, "Initial value type mismatch: a scalar where '%s' takes "
			"braces (%s)", dc->name, vector_level ? "its vector's elements" : "an array's elements");
		return false;
	}
	if (vector_level && e->nelems != (uint32_t)vec) {
		check_error(c, e->loc, RULE_INITIALIZER, "Incorrect number of elements in vector initializer: %u for "
			".v%d", e->nelems, vec);
		return false;
	}
	if (!vector_level && dc->dims[level] >= 0 && e->nelems > dc->dims[level]) {
		check_error(c, e->loc, RULE_INITIALIZER, "Greater number of elements in array initializer: %u for "
			"dimension %u of '%s' (%lld)", e->nelems, level + 1, dc->name, (long long)dc->dims[level]);
		return false;
	}
	for (uint32_t i = 0; i < e->nelems; i++)
		if (!check_shape(c, e->elems[i], dc, vec, level + 1))
			return false;
	return true;
}

void check_initializer(CheckCtx *c, const Declarator *dc, PtxType type, int vec)
{
	const Expr *init = dc->init;
	if (!check_shape(c, init, dc, vec, 0))
		return;
	if (type == TY_F16) {
		check_error(c, init->loc, RULE_INITIALIZER, "No initial value is allowed for .f16 type (declare it .b16 "
			"and write the bits)");
		return;
	}
	if (type == TY_F16X2) {
		check_error(c, init->loc, RULE_INITIALIZER, "Initial value type mismatch: a .f16x2 variable takes no "
			"initializer (declare it .b32 and write the bits)");
		return;
	}
	if (type == TY_PRED) {
		check_error(c, init->loc, RULE_INITIALIZER, "Initial value type mismatch: a .pred variable takes no "
			"initializer");
		return;
	}
	check_terms(c, init, type, 0);
}

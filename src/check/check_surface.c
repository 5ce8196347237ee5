/* suld.b, sust.b, sust.p, sured.b, sured.p and suq: modifiers, operand
 * shapes and types, and their version/target gates; and a .surfref or
 * other opaque variable where another instruction names it (rule
 * surface-operand has this file alone).
 *
 * The order of work follows ptxas: modifiers are classified first (unknown,
 * illegal, duplicated, missing), then the "template" (types and operand
 * kinds) is matched, and only an instruction whose template matches gets its
 * feature gates evaluated — ptxas skips all gates for an instruction it could
 * not match, and so do we, to keep one finding per real problem. */
#include "check/check_internal.h"
#include "isa/opcodes.h"
#include "base/word_index.h"

#include <stdio.h>
#include <string.h>

typedef enum SurfInsn { SI_SULD, SI_SUST, SI_SURED, SI_SUQ } SurfInsn;

typedef enum ModClass {
	MC_MODE, MC_GEOM, MC_COP, MC_VEC, MC_TYPE, MC_CLAMP, MC_REDOP, MC_QUERY, MC_OTHER, MC_COUNT,
	MC_NONE = -1    /* a word of the table that is no surface word */
} ModClass;

enum { MODE_B = 1, MODE_P };
enum { G_1D = 1, G_2D, G_3D, G_A1D, G_A2D, G_1D_BUFFER, G_4D, G_CUBE, G_ACUBE, G_2DMS, G_A2DMS };
enum { COP_CA = 1, COP_CG, COP_CS, COP_CV, COP_WB, COP_WT, COP_LU };
enum { CL_TRAP = 1, CL_CLAMP, CL_ZERO, CL_WRAP };
enum { OP_ADD = 1, OP_MIN, OP_MAX, OP_AND, OP_OR, OP_INC, OP_DEC, OP_EXCH, OP_XOR, OP_POPC, OP_CAS };

typedef struct SurfWord {
	const char *word;
	ModClass cls;
	int value;
} SurfWord;

/* The SU columns of isa/surface_words.def. */
static const SurfWord surf_words[] = {
#define SW(word, su, st, sass) { word, su },
#define SU(cls, value) MC_##cls, value
#define SQ(word, gate, texture_only, txq, desc_offset)
#include "isa/surface_words.def"
#undef SW
#undef SU
#undef SQ
};

/* suq queries: documented surface queries and the texture-only ones ptxas
 * names (and rejects) on suq. */
typedef struct SurfQuery {
	const char *word;
	bool has_gate;
	int gate;               /* ReqId when has_gate */
	bool texture_only;
} SurfQuery;

static const SurfQuery surf_queries[] = {
#define SW(word, su, st, sass)
#define SQ(word, gate, texture_only, txq, desc_offset) { word, (gate) >= 0, gate, texture_only },
#include "isa/surface_words.def"
#undef SW
#undef SQ
};

/* Where each modifier class stands in the document's syntax line. */
typedef struct SurfSyntax {
	const char *syntax;
	signed char rank[MC_COUNT];   /* -1: the class has no place */
} SurfSyntax;

static const SurfSyntax syntax_ldst = {
	"geom{.cop}.vec.type.clamp", { 0, 1, 2, 3, 4, 5, -1, -1, -1 } };
static const SurfSyntax syntax_red = {
	"op.geom.ctype.clamp", { 0, 2, -1, -1, 3, 4, 1, -1, -1 } };
static const SurfSyntax syntax_suq = {
	"query.b32", { -1, -1, -1, -1, 1, -1, -1, 0, -1 } };

typedef struct SurfCheck {
	CheckCtx *c;
	const Instr *in;
	SurfInsn insn;
	char name[16];          /* "suld.b" */
	int val[MC_COUNT];      /* 0: absent */
	int pos[MC_COUNT];
	PtxType type;
	const SurfQuery *query;
	bool template_failed;   /* ptxas would stop before the gates */
	bool indirect;
	bool order_reported;
	int max_rank;
} SurfCheck;

static SrcLoc mod_loc(const SurfCheck *s, int i)
{
	return check_mod_loc(s->in, i);
}

static SrcLoc class_loc(const SurfCheck *s, ModClass cls)
{
	return s->val[cls] ? mod_loc(s, s->pos[cls]) : s->in->opcode_loc;
}

static const SurfWord *find_word(const char *w)
{
	if (!*w)
		return NULL;
	/* This runs for every modifier of every surface instruction. */
	static WordIndex ix;
	int i = WORD_INDEX_FIND(&ix, surf_words, SurfWord, word, w);
	return i >= 0 && surf_words[i].cls != MC_NONE ? &surf_words[i] : NULL;
}

static const SurfQuery *find_query(const char *w)
{
	if (!*w)
		return NULL;
	for (size_t i = 0; i < sizeof surf_queries / sizeof surf_queries[0]; i++)
		if (surf_queries[i].word[1] == w[1] && strcmp(surf_queries[i].word, w) == 0)
			return &surf_queries[i];
	return NULL;
}

#define fail(s, loc, rule, ...) check_template_error((s)->c, &(s)->template_failed, loc, rule, __VA_ARGS__)

static const SurfSyntax *syntax_of(const SurfCheck *s)
{
	return s->insn == SI_SURED ? &syntax_red : s->insn == SI_SUQ ? &syntax_suq : &syntax_ldst;
}

static void check_order(SurfCheck *s, ModClass cls, int i)
{
	int rank = syntax_of(s)->rank[cls];
	if (rank < 0)
		return;
	if (rank < s->max_rank && !s->order_reported) {
		s->order_reported = true;
		check_strict(s->c, mod_loc(s, i), RULE_SURFACE_ORDER,
			"PTX ISA 9.7.11: modifiers follow the syntax line's order",
			"Modifier '%s' is out of the order '%s.%s'", s->in->mods[i], s->name, syntax_of(s)->syntax);
	}
	if (rank > s->max_rank)
		s->max_rank = rank;
}

static const char *multiple_message(ModClass cls)
{
	switch (cls) {
	case MC_GEOM: return "Multiple dimension modifiers specified";
	case MC_COP: return "Multiple cache operation modifiers specified";
	case MC_VEC: return "Multiple vector modifiers specified";
	case MC_CLAMP: return "Multiple clamp modifiers specified";
	case MC_REDOP: return "Multiple instruction post-operation flags set";
	case MC_QUERY: return "Multiple query modifiers specified";
	default: return "Multiple modifiers specified";
	}
}

/* Is a known word of class cls allowed on this instruction? Reports and
 * returns false if not. */
static bool class_allowed(SurfCheck *s, const SurfWord *w, int i)
{
	SrcLoc loc = mod_loc(s, i);
	const char *word = s->in->mods[i];
	switch (w->cls) {
	case MC_MODE:
		if (s->insn == SI_SUQ || w->value == s->val[MC_MODE]) {
			fail(s, loc, RULE_SURFACE_MODIFIER, "Illegal modifier 'Component' for instruction '%s' ('%s')", s->name, word);
			return false;
		}
		fail(s, loc, RULE_SURFACE_MODIFIER, "Unknown modifier '%s' (the mode is already %s)", word, s->name);
		return false;
	case MC_GEOM:
		if (s->insn == SI_SUQ) {
			fail(s, loc, RULE_SURFACE_MODIFIER, "Illegal modifier 'dimension' for instruction 'suq' ('%s')", word);
			return false;
		}
		if (w->value == G_2DMS || w->value == G_A2DMS) {
			fail(s, loc, RULE_SURFACE_MODIFIER,
				"Illegal modifier 'Multi-sample geometry' for instruction '%s' ('%s')", s->name, word);
			return false;
		}
		if (w->value == G_CUBE || w->value == G_ACUBE ||
		    (s->insn == SI_SURED && (w->value == G_A1D || w->value == G_A2D))) {
			fail(s, loc, RULE_SURFACE_MODIFIER, "Illegal modifier '%s' for instruction '%s'", word, s->name);
			if (w->value == G_A1D || w->value == G_A2D)
				check_gate(s->c, REQ_ARRAY_GEOMETRY, loc, s->name);
			return false;
		}
		return true;
	case MC_COP: {
		bool ok = (s->insn == SI_SULD && w->value >= COP_CA && w->value <= COP_CV) ||
			  (s->insn == SI_SUST && (w->value == COP_WB || w->value == COP_CG ||
						  w->value == COP_CS || w->value == COP_WT));
		if (!ok)
			fail(s, loc, RULE_SURFACE_MODIFIER, "Illegal modifier '%s' for instruction '%s'", word, s->name);
		return ok;
	}
	case MC_VEC:
		if (s->insn == SI_SURED || s->insn == SI_SUQ) {
			fail(s, loc, RULE_SURFACE_MODIFIER, "Vector qualifier is not allowed for instruction '%s'", s->name);
			return false;
		}
		if (w->value == 8) {
			fail(s, loc, RULE_SURFACE_MODIFIER, "Illegal vector size: 8 (surface instructions take .v2 or .v4)");
			return false;
		}
		return true;
	case MC_CLAMP:
		if (s->insn == SI_SUQ) {
			fail(s, loc, RULE_SURFACE_MODIFIER, "Illegal modifier 'Clamp' for instruction 'suq' ('%s')", word);
			return false;
		}
		if (w->value == CL_WRAP) {
			fail(s, loc, RULE_SURFACE_MODIFIER, "Illegal modifier 'Clamp' for instruction '%s' ('%s')", s->name, word);
			return false;
		}
		return true;
	case MC_REDOP:
		if (s->insn != SI_SURED || w->value == OP_CAS) {
			fail(s, loc, RULE_SURFACE_MODIFIER, "Illegal modifier '%s' for instruction '%s'", word, s->name);
			return false;
		}
		return true;
	default:
		fail(s, loc, RULE_SURFACE_MODIFIER, "Illegal modifier '%s' for instruction '%s'", word, s->name);
		return false;
	}
}

static void classify_mods(SurfCheck *s, uint32_t first)
{
	const Instr *in = s->in;
	for (uint32_t i = first; i < in->nmods; i++) {
		const char *word = in->mods[i];
		SrcLoc loc = mod_loc(s, i);
		ModClass cls;
		int value;
		PtxType t = type_from_word(word);
		const SurfQuery *q = NULL;
		if (t != TY_NONE && !type_is_opaque(t)) {
			cls = MC_TYPE;
			value = (int)t;
		} else if (s->insn == SI_SUQ && (q = find_query(word)) != NULL) {
			cls = MC_QUERY;
			value = (int)(q - surf_queries) + 1;
		} else {
			const SurfWord *w = find_word(word);
			if (!w && find_query(word)) {
				fail(s, loc, RULE_SURFACE_MODIFIER, "Illegal modifier '%s' for instruction '%s'", word, s->name);
				continue;
			}
			if (!w) {
				const char *hint = modifier_suggest(opcode_lookup(in->opcode), word);
				if (hint)
					fail(s, loc, RULE_SURFACE_MODIFIER, "Unknown modifier '%s'; did you mean '%s'?", word, hint);
				else
					fail(s, loc, RULE_SURFACE_MODIFIER, "Unknown modifier '%s'", word);
				continue;
			}
			if (!class_allowed(s, w, i))
				continue;
			cls = w->cls;
			value = w->value;
		}
		if (s->val[cls]) {
			if (cls == MC_TYPE)
				fail(s, loc, RULE_SURFACE_TYPE, "Unexpected instruction types specified for '%s' (second type '%s')",
					s->name, word);
			else
				fail(s, loc, RULE_SURFACE_MODIFIER, "%s ('%s' after '%s')", multiple_message(cls), word,
					in->mods[s->pos[cls]]);
			continue;
		}
		s->val[cls] = value;
		s->pos[cls] = (int)i;
		if (cls == MC_TYPE)
			s->type = t;
		if (cls == MC_QUERY)
			s->query = q;
		check_order(s, cls, i);
	}
	/* ptxas wants .vN immediately before the type (a warning only). */
	if (s->val[MC_VEC] && s->val[MC_TYPE] && s->pos[MC_TYPE] != s->pos[MC_VEC] + 1)
		check_warning(s->c, class_loc(s, MC_VEC), RULE_SURFACE_MODIFIER,
			"Vector Type not specified properly ('%s' is not directly followed by the type)",
			in->mods[s->pos[MC_VEC]]);
}

static void check_missing(SurfCheck *s)
{
	SrcLoc loc = s->in->opcode_loc;
	if (s->insn == SI_SUQ) {
		if (!s->val[MC_QUERY])
			fail(s, loc, RULE_SURFACE_MODIFIER, "Query modifier required for instruction 'suq'");
	} else {
		if (s->insn == SI_SURED && !s->val[MC_REDOP])
			fail(s, loc, RULE_SURFACE_MODIFIER, "Reduction operation is required for instruction '%s'", s->name);
		if (!s->val[MC_GEOM])
			fail(s, loc, RULE_SURFACE_MODIFIER, "Geometry modifier required for instruction '%s'", s->name);
		if (!s->val[MC_CLAMP])
			fail(s, loc, RULE_SURFACE_MODIFIER, "Clamp modifier required for instruction '%s'", s->name);
	}
	if (!s->val[MC_TYPE])
		fail(s, loc, RULE_SURFACE_TYPE, "Unexpected instruction types specified for '%s' (no type given)", s->name);
}

/* sured op/type combinations (identical in the document and ptxas 13). */
typedef enum RedVerdict { RED_OK, RED_INCORRECT, RED_UNEXPECTED, RED_GATE64 } RedVerdict;

static RedVerdict sured_combo(int mode, int op, PtxType t)
{
	if (mode == MODE_P) {
		if (t != TY_B32 && t != TY_B64)
			return RED_UNEXPECTED;
		if (t == TY_B32)
			return RED_OK;
		return (op == OP_MIN || op == OP_MAX) ? RED_GATE64 : RED_INCORRECT;
	}
	switch (t) {
	case TY_U32: case TY_S32:
		return (op == OP_AND || op == OP_OR) ? RED_INCORRECT : RED_OK;
	case TY_U64:
		return op == OP_ADD ? RED_OK : (op == OP_MIN || op == OP_MAX) ? RED_GATE64 : RED_INCORRECT;
	case TY_S64:
		return (op == OP_MIN || op == OP_MAX) ? RED_GATE64 : RED_INCORRECT;
	case TY_B32:
		return (op == OP_AND || op == OP_OR) ? RED_OK : RED_INCORRECT;
	default:
		return RED_UNEXPECTED;
	}
}

static bool is_crashing_op(int op)
{
	return op == OP_INC || op == OP_DEC || op == OP_EXCH || op == OP_XOR || op == OP_POPC;
}

static void check_type(SurfCheck *s)
{
	PtxType t = s->type;
	if (!t)
		return;
	SrcLoc loc = class_loc(s, MC_TYPE);
	const char *tw = type_info(t)->word;
	switch (s->insn) {
	case SI_SULD:
	case SI_SUST:
		if (s->val[MC_MODE] == MODE_P ? t != TY_B32 : (t != TY_B8 && t != TY_B16 && t != TY_B32 && t != TY_B64))
			fail(s, loc, RULE_SURFACE_TYPE, "Unexpected instruction types specified for '%s' ('%s'; expected %s)",
				s->name, tw, s->val[MC_MODE] == MODE_P ? ".b32" : ".b8, .b16, .b32 or .b64");
		return;
	case SI_SUQ:
		if (t != TY_B32)
			fail(s, loc, RULE_SURFACE_TYPE, "Unexpected instruction types specified for 'suq' ('%s'; expected .b32)", tw);
		return;
	case SI_SURED:
		break;
	}
	int op = s->val[MC_REDOP];
	RedVerdict v = sured_combo(s->val[MC_MODE], op, t);
	if (v == RED_UNEXPECTED) {
		fail(s, loc, RULE_SURFACE_TYPE, "Unexpected instruction types specified for '%s' ('%s'; expected %s)", s->name,
			tw, s->val[MC_MODE] == MODE_P ? ".b32 or .b64" : ".u32, .s32, .u64, .s64 or .b32");
		return;
	}
	if (op && is_crashing_op(op)) {
		/* ptxas 13 crashes (SIGSEGV) on these; they are atom/red ops, not sured ops. */
		check_error(s->c, class_loc(s, MC_REDOP), RULE_SURFACE_MODIFIER,
			"Illegal reduction operation '%s' for instruction '%s' (sured takes .add, .min, .max, .and, .or; "
			"ptxas 13 crashes on this input)", s->in->mods[s->pos[MC_REDOP]], s->name);
		s->template_failed = true;
	}
}

/* Emitted after the gates, as ptxas does. */
static void check_type_combination(SurfCheck *s)
{
	int op = s->val[MC_REDOP];
	if (s->insn != SI_SURED || !op || !s->type || is_crashing_op(op))
		return;
	if (sured_combo(s->val[MC_MODE], op, s->type) == RED_INCORRECT)
		check_error(s->c, class_loc(s, MC_TYPE), RULE_SURFACE_TYPE,
			"Incorrect type '%s' for operation '%s' in instruction '%s'", type_info(s->type)->word,
			s->in->mods[s->pos[MC_REDOP]], s->name);
}

/* ---- operands ---- */

static bool is_int32_register(PtxType t)
{
	return t == TY_B32 || t == TY_U32 || t == TY_S32;
}

static void check_handle(SurfCheck *s, const Expr *e, int argno)
{
	CheckCtx *c = s->c;
	if (check_is_immediate(e)) {
		fail(s, e->loc, RULE_SURFACE_OPERAND, "Argument %d of instruction '%s': .surfref or .u64 register expected",
			argno, s->name);
		return;
	}
	if (e->kind != EX_NAME) {
		fail(s, e->loc, RULE_SURFACE_OPERAND, "Arguments mismatch for instruction '%s' (the surface must be a "
			".surfref or a .u64 register)", s->name);
		return;
	}
	const Symbol *sym = check_lookup(c, e);
	if (!sym) {
		s->template_failed = true;
		return;
	}
	if (sym->kind == SYM_VAR && sym->type == TY_SURFREF) {
		if (sym->is_array)
			fail(s, e->loc, RULE_SURFACE_OPERAND, "Arguments mismatch for instruction '%s' ('%s' is an array of "
				".surfref)", s->name, sym->name);
		return;
	}
	if (sym->kind == SYM_VAR && (type_is_opaque(sym->type) || sym->space == SP_PARAM)) {
		fail(s, e->loc, RULE_SURFACE_OPERAND, "Argument %d of instruction '%s': .surfref or .u64 register expected "
			"('%s' is a %s%s)", argno, s->name, sym->name, sym->space == SP_PARAM ? ".param " : "",
			type_info(sym->type)->word);
		return;
	}
	if (sym->kind == SYM_REG && (sym->type == TY_U64 || sym->type == TY_B64 || sym->type == TY_S64)) {
		/* The document says ".u64 register", but its operand-type rules make
		 * .b64 (and same-size integer) registers compatible, and nvcc itself
		 * emits .b64 handles: accepted in both modes. */
		s->indirect = true;
		return;
	}
	fail(s, e->loc, RULE_SURFACE_OPERAND, "Arguments mismatch for instruction '%s' ('%s' is a %s %s; the surface must "
		"be a .surfref or a .u64 register)", s->name, e->text, type_info(sym->type)->word,
		sym->kind == SYM_REG ? "register" : sym->kind == SYM_VAR ? "variable" : "name");
}

static int geometry_coords(int geom)
{
	switch (geom) {
	case G_1D: return 1;
	case G_2D: return 2;
	case G_A1D: return 2;
	case G_3D: return 4;
	case G_A2D: return 4;
	default: return 0;   /* .1d_buffer/.4d: ptxas accepts any count */
	}
}

static bool legal_vector_size(uint32_t n)
{
	return n == 1 || n == 2 || n == 4;
}

static void check_coordinates(SurfCheck *s, const Expr *e)
{
	CheckCtx *c = s->c;
	int geom = s->val[MC_GEOM];
	int need = geometry_coords(geom);
	const char *gw = geom ? s->in->mods[s->pos[MC_GEOM]] : "";
	if (e->kind == EX_NAME) {
		PtxType t = check_register_type(c, e);
		if (check_is_sink(e)) {
			fail(s, e->loc, RULE_SURFACE_OPERAND, "Sink '_' not allowed as a source operand");
			return;
		}
		const Symbol *sym = check_lookup(c, e);
		if (!sym) {
			s->template_failed = true;
			return;
		}
		if (sym->kind == SYM_SPECIAL) {
			/* as a vector element ({%tid.x}) ptxas takes it like a register */
			fail(s, e->loc, RULE_SURFACE_OPERAND, "Special register argument not allowed for instruction '%s' ('%s' "
				"as the coordinate; write {%s} or copy it with mov)", s->name, check_expr_text(c, e),
				check_expr_text(c, e));
			return;
		}
		if (!is_int32_register(t)) {
			fail(s, e->loc, RULE_SURFACE_OPERAND, "Arguments mismatch for instruction '%s' (coordinate '%s' must be "
				"a .b32/.u32/.s32 register)", s->name, e->text);
			return;
		}
		if (need > 1 && s->insn != SI_SULD && s->insn != SI_SUQ) {
			/* ptxas 13 accepts this for suld but dies with SIGSEGV on
			 * sust and sured, so both modes reject those. */
			Diag *d = fail(s, e->loc, RULE_SURFACE_OPERAND, "Scalar coordinate '%s' for geometry '%s' (expected a "
				"%d-element vector; ptxas 13 crashes on this input)", e->text, gw, need);
			diag_note(c->sink, d, e->loc, "PTX ISA 9.7.11: only 1d coordinates may be a scalar");
		} else if (need > 1) {
			check_strict(c, e->loc, RULE_SURFACE_OPERAND, "PTX ISA 9.7.11: only 1d coordinates may be a scalar",
				"Scalar coordinate '%s' for geometry '%s' (expected a %d-element vector)", e->text, gw, need);
		}
		return;
	}
	if (e->kind != EX_VECTOR) {
		fail(s, e->loc, RULE_SURFACE_OPERAND, "Arguments mismatch for instruction '%s' (coordinates must be a "
			"register or a vector {...})", s->name);
		return;
	}
	if (!legal_vector_size(e->nelems)) {
		fail(s, e->loc, RULE_SURFACE_OPERAND, "Illegal vector size: %u", e->nelems);
		return;
	}
	/* ptxas 13 joins the elements' types: the widths must agree
	 * ("Incompatible elements"), the kinds too, a .bN register agreeing
	 * with any ("different types": .u32 with .f32), and the joined type
	 * must be a 32-bit integer or bit type ({%f1, %b2} is .b32 and
	 * accepted, {%f1, %f2} is not). */
	int first_bits = 0;
	const Expr *first_el = NULL;
	TypeClass kind = TC_BIT;
	bool mixed = false, any_bit = false;
	for (uint32_t i = 0; i < e->nelems; i++) {
		const Expr *el = e->elems[i];
		if (check_is_sink(el)) {
			fail(s, el->loc, RULE_SURFACE_OPERAND, "Sink '_' not allowed as a source operand");
			continue;
		}
		if (el->kind == EX_FLOAT || (el->kind == EX_UNARY && el->lhs && el->lhs->kind == EX_FLOAT)) {
			fail(s, el->loc, RULE_SURFACE_OPERAND, "Arguments mismatch for instruction '%s' (float coordinate '%s')",
				s->name, check_expr_text(c, el));
			continue;
		}
		if (check_is_immediate(el))
			continue;
		if (el->kind != EX_NAME) {
			fail(s, el->loc, RULE_SURFACE_OPERAND, "Illegal expression in coordinate vector");
			continue;
		}
		const Symbol *sym = check_lookup(c, el);
		if (!sym) {
			s->template_failed = true;
			continue;
		}
		if (sym->kind != SYM_REG && sym->kind != SYM_SPECIAL) {
			fail(s, el->loc, RULE_SURFACE_OPERAND, "Illegal expression '%s' (coordinates must be registers or "
				"integers)", el->text);
			continue;
		}
		const TypeInfo *ti = type_info(sym->type);
		TypeClass cls = ti->cls == TC_SIGNED ? TC_UNSIGNED : ti->cls;
		if (!first_el) {
			first_el = el;
			first_bits = ti->bits;
			if (ti->bits != 32)
				fail(s, el->loc, RULE_SURFACE_OPERAND, "Arguments mismatch for instruction '%s' (coordinate '%s' "
					"is %s; coordinates are .b32/.u32/.s32)", s->name, el->text, ti->word);
		} else if (ti->bits != first_bits) {
			fail(s, el->loc, RULE_SURFACE_OPERAND, "Incompatible elements of vector expression ('%s' is %s)",
				el->text, ti->word);
			continue;
		}
		if (cls == TC_BIT) {
			any_bit = true;
			continue;
		}
		if (kind != TC_BIT && cls != kind && !mixed) {
			mixed = true;
			fail(s, el->loc, RULE_SURFACE_OPERAND, "Vector with elements of different types are not allowed in %s "
				"instruction ('%s' is %s: coordinates share one kind, or are .b32)", s->name, el->text, ti->word);
		}
		if (kind == TC_BIT)
			kind = cls;
	}
	if (first_el && first_bits == 32 && !mixed && !any_bit && kind != TC_BIT && kind != TC_UNSIGNED)
		fail(s, first_el->loc, RULE_SURFACE_OPERAND, "Arguments mismatch for instruction '%s' (coordinate '%s' is %s; "
			"coordinates are .b32/.u32/.s32)", s->name, first_el->text, type_info(check_register_type(c, first_el))->word);
	if (!need)
		return;
	if ((int)e->nelems < need)
		fail(s, e->loc, RULE_SURFACE_OPERAND, "Operand vector size doesn't match geometry for instruction '%s' "
			"(%s takes %d coordinates, got %u)", s->name, gw, need, e->nelems);
	else if ((int)e->nelems > need)
		check_strict(c, e->loc, RULE_SURFACE_OPERAND, "PTX ISA 9.7.11: the coordinate vector length is fixed by "
			"the geometry", "Coordinate vector has %u elements; %s takes %d", e->nelems, gw, need);
}

/* A {...} data operand. With .vN each element is one value of the
 * instruction type; without it ptxas takes the braces as one packed value
 * that must be at least as wide as the type. Elements must share a width. */
static void check_data_vector(SurfCheck *s, const Expr *e, bool is_dest, int vec, PtxType t, FitRule rule)
{
	CheckCtx *c = s->c;
	int first_bits = 0, total_bits = 0;
	bool all_registers = true;
	for (uint32_t i = 0; i < e->nelems; i++) {
		const Expr *el = e->elems[i];
		if (check_is_sink(el)) {
			if (!is_dest)
				fail(s, el->loc, RULE_SURFACE_OPERAND, "Sink '_' not allowed as a source operand");
			all_registers = false;
			continue;
		}
		if (check_is_immediate(el)) {
			if (is_dest)
				fail(s, el->loc, RULE_SURFACE_OPERAND, "Result register required for instruction '%s'", s->name);
			else if (!check_immediate_fits(el, t))
				fail(s, el->loc, RULE_SURFACE_OPERAND, "Arguments mismatch for instruction '%s' (float immediate "
					"'%s' for %s)", s->name, check_expr_text(c, el), type_info(t)->word);
			all_registers = false;
			continue;
		}
		const Symbol *sym = check_lookup(c, el);
		if (!sym) {
			s->template_failed = true;
			return;
		}
		if (sym->kind != SYM_REG) {
			fail(s, el->loc, RULE_SURFACE_OPERAND, "Arguments mismatch for instruction '%s' ('%s' is not a register)",
				s->name, el->text);
			return;
		}
		int bits = type_info(sym->type)->bits;
		if (first_bits && bits != first_bits) {
			fail(s, el->loc, RULE_SURFACE_OPERAND, "Incompatible elements of vector expression ('%s' is %s)", el->text,
				type_info(sym->type)->word);
			return;
		}
		first_bits = bits;
		total_bits += bits;
		if (vec && !type_register_fits(t, sym->type, rule))
			fail(s, el->loc, RULE_SURFACE_OPERAND, "Arguments mismatch for instruction '%s' ('%s' is %s, "
				"instruction type %s)", s->name, el->text, type_info(sym->type)->word, type_info(t)->word);
		if (type_info(sym->type)->cls == TC_PRED) {
			fail(s, el->loc, RULE_SURFACE_OPERAND, "Arguments mismatch for instruction '%s' (predicate '%s')",
				s->name, el->text);
			return;
		}
	}
	if (!vec && all_registers && total_bits < type_info(t)->bits)
		fail(s, e->loc, RULE_SURFACE_OPERAND, "Arguments mismatch for instruction '%s' ({...} holds %d bits, "
			"instruction type %s)", s->name, total_bits, type_info(t)->word);
}

/* Destination (suld, suq) or source (sust, sured) data operand. */
static void check_data(SurfCheck *s, const Expr *e, bool is_dest)
{
	CheckCtx *c = s->c;
	int vec = s->val[MC_VEC];
	PtxType t = s->type;
	FitRule rule = s->insn == SI_SUQ ? FIT_SIZE_EXACT : FIT_RELAXED;
	if (!t)
		return;
	if (e->kind == EX_VECTOR) {
		if (s->insn == SI_SURED || s->insn == SI_SUQ) {
			fail(s, e->loc, RULE_SURFACE_OPERAND, "Vector operand is not allowed for instruction '%s'", s->name);
			return;
		}
		if (!legal_vector_size(e->nelems)) {
			fail(s, e->loc, RULE_SURFACE_OPERAND, "Illegal vector size: %u", e->nelems);
			return;
		}
		if (vec && (int)e->nelems != vec)
			fail(s, e->loc, RULE_SURFACE_OPERAND, "Argument vector size mismatch for instruction '%s' (.v%d takes "
				"%d elements, got %u)", s->name, vec, vec, e->nelems);
		else if (!vec && e->nelems > 1)
			check_strict(c, e->loc, RULE_SURFACE_OPERAND, "PTX ISA 9.7.11: a vector operand needs the .v2/.v4 "
				"modifier", "Vector operand of %u elements without a .v%u modifier", e->nelems, e->nelems);
		check_data_vector(s, e, is_dest, vec, t, rule);
		return;
	}
	if (check_is_sink(e)) {
		if (is_dest)
			fail(s, e->loc, RULE_SURFACE_OPERAND, "Result discard mode is not allowed for instruction '%s'", s->name);
		else
			fail(s, e->loc, RULE_SURFACE_OPERAND, "Sink '_' not allowed as a source operand");
		return;
	}
	if (check_is_immediate(e)) {
		if (is_dest)
			fail(s, e->loc, RULE_SURFACE_OPERAND, "Result register required for instruction '%s'", s->name);
		else if (!check_immediate_fits(e, t))
			fail(s, e->loc, RULE_SURFACE_OPERAND, "Arguments mismatch for instruction '%s' (float immediate '%s' for "
				"%s)", s->name, check_expr_text(c, e), type_info(t)->word);
		return;
	}
	if (e->kind != EX_NAME) {
		fail(s, e->loc, RULE_SURFACE_OPERAND, "Arguments mismatch for instruction '%s'", s->name);
		return;
	}
	const Symbol *sym = check_lookup(c, e);
	if (!sym) {
		s->template_failed = true;
		return;
	}
	if (sym->kind != SYM_REG) {
		if (s->insn == SI_SUST)
			fail(s, e->loc, RULE_SURFACE_OPERAND, "Argument 2 of instruction '%s': must be register ('%s')",
				s->name, e->text);
		else
			fail(s, e->loc, RULE_SURFACE_OPERAND, "Arguments mismatch for instruction '%s' ('%s' is not a register)",
				s->name, e->text);
		return;
	}
	if (vec && is_dest) {
		fail(s, e->loc, RULE_SURFACE_OPERAND, "Result vector expected: argument vector size mismatch for instruction "
			"'%s' (.v%d needs {...} of %d registers)", s->name, vec, vec);
		return;
	}
	if (vec) {
		/* Only sust gets here (suld's case is above, sured has no
		 * vectors). ptxas 13 rejects a register narrower than one
		 * element; sust.b with one exactly as wide, and sust.p with one
		 * at least as wide, it accepts and then dies with SIGSEGV. */
		int reg_bits = type_info(sym->type)->bits, elem_bits = type_info(t)->bits;
		bool crashes = s->val[MC_MODE] == MODE_P ? reg_bits >= elem_bits : reg_bits == elem_bits;
		if (reg_bits < elem_bits) {
			fail(s, e->loc, RULE_SURFACE_OPERAND, "Arguments mismatch for instruction '%s' ('%s' is %s, narrower than "
				"one %s element of .v%d)", s->name, e->text, type_info(sym->type)->word, type_info(t)->word, vec);
		} else if (crashes) {
			Diag *d = fail(s, e->loc, RULE_SURFACE_OPERAND, "Scalar register '%s' where .v%d expects a %d-element "
				"vector (ptxas 13 crashes on this input)", e->text, vec, vec);
			diag_note(c->sink, d, e->loc, "PTX ISA 9.7.11: .v2/.v4 data is a vector operand");
		} else {
			check_strict(c, e->loc, RULE_SURFACE_OPERAND, "PTX ISA 9.7.11: .v2/.v4 data is a vector operand",
				"Scalar register '%s' where .v%d expects a %d-element vector", e->text, vec, vec);
		}
		return;
	}
	if (!type_register_fits(t, sym->type, rule))
		fail(s, e->loc, RULE_SURFACE_OPERAND, "Arguments mismatch for instruction '%s' ('%s' is %s, instruction type "
			"%s)", s->name, e->text, type_info(sym->type)->word, type_info(t)->word);
}

static void check_operands(SurfCheck *s)
{
	const Instr *in = s->in;
	bool addr_first = s->insn == SI_SUST || s->insn == SI_SURED;
	uint32_t addr_elems = s->insn == SI_SUQ ? 1 : 2;
	int addr_arg = addr_first ? 0 : 1;
	if (in->nops != 2) {
		fail(s, in->loc, RULE_SURFACE_OPERAND, "Arguments mismatch for instruction '%s' (%u operands, expected 2)",
			s->name, in->nops);
		return;
	}
	const Expr *addr = in->ops[addr_arg];
	const Expr *data = in->ops[addr_first ? 1 : 0];
	if (addr->kind != EX_ADDRESS) {
		fail(s, addr->loc, RULE_SURFACE_OPERAND, "Address expected for argument %d of instruction '%s'", addr_arg,
			s->name);
		return;
	}
	if (addr->nelems != addr_elems) {
		fail(s, addr->loc, RULE_SURFACE_OPERAND, "Illegal Addressing Mode in instruction '%s' (expected [%s])", s->name,
			addr_elems == 1 ? "surface" : "surface, coordinates");
		return;
	}
	check_handle(s, addr->elems[0], addr_arg);
	if (addr_elems == 2 && s->val[MC_GEOM])
		check_coordinates(s, addr->elems[1]);
	check_data(s, data, !addr_first);
}

static ReqId insn_gate(const SurfCheck *s)
{
	switch (s->insn) {
	case SI_SULD: return REQ_SULD_B;
	case SI_SUST: return s->val[MC_MODE] == MODE_P ? REQ_SUST_P : REQ_SUST_B;
	case SI_SURED: return s->val[MC_MODE] == MODE_P ? REQ_SURED_P : REQ_SURED_B;
	case SI_SUQ: return REQ_SUQ;
	}
	return REQ_SUQ;
}

static void check_gates(SurfCheck *s)
{
	CheckCtx *c = s->c;
	const char *n = s->name;
	SrcLoc op = s->in->opcode_loc;
	check_gate(c, insn_gate(s), op, n);
	if (s->val[MC_VEC] && s->type && s->val[MC_VEC] * type_info(s->type)->bits > 128)
		check_error(c, class_loc(s, MC_VEC), RULE_SURFACE_MODIFIER,
			"Vector type too large, exceeds 128 bit limit (.v%d%s is %d bits)", s->val[MC_VEC],
			type_info(s->type)->word, s->val[MC_VEC] * type_info(s->type)->bits);
	if (s->val[MC_COP]) {
		check_gate(c, REQ_CACHE_OPERATION, class_loc(s, MC_COP), n);
		if (s->val[MC_MODE] == MODE_P)
			check_strict(c, class_loc(s, MC_COP), RULE_SURFACE_MODIFIER,
				"PTX ISA 9.7.11.2: sust.p.{1d,2d,3d}.vec.b32.clamp has no cache operation",
				"Cache operation '%s' on sust.p", s->in->mods[s->pos[MC_COP]]);
	}
	if (s->insn == SI_SURED && s->type) {
		RedVerdict v = sured_combo(s->val[MC_MODE], s->val[MC_REDOP], s->type);
		if (s->val[MC_MODE] == MODE_P && s->type == TY_B64)
			check_gate(c, REQ_SURED_P_B64, class_loc(s, MC_TYPE), n);
		else if (v == RED_GATE64)
			check_gate(c, REQ_SURED_B_MINMAX64, class_loc(s, MC_TYPE), n);
	}
	check_type_combination(s);
	int g = s->val[MC_GEOM];
	SrcLoc gl = class_loc(s, MC_GEOM);
	if (g == G_3D) {
		check_gate(c, s->insn == SI_SURED ? REQ_SURED_3D : REQ_SURF_3D, gl, n);
	} else if (g == G_A1D || g == G_A2D) {
		if (s->val[MC_MODE] == MODE_P && s->insn == SI_SUST) {
			check_gate(c, REQ_SUST_P_ARRAY, gl, n);
			check_strict(c, gl, RULE_SURFACE_MODIFIER, "PTX ISA 9.7.11.2: sust.p takes .1d, .2d or .3d",
				"Array geometry '%s' on sust.p", s->in->mods[s->pos[MC_GEOM]]);
		} else {
			check_gate(c, REQ_SURF_ARRAY, gl, n);
		}
		check_gate(c, REQ_ARRAY_GEOMETRY, gl, n);
		/* ptxas 13 reads the undocumented .5d as .a1d. */
		if (strcmp(s->in->mods[s->pos[MC_GEOM]], ".5d") == 0)
			check_strict(c, gl, RULE_SURFACE_MODIFIER, "PTX ISA 9.7.11: .geom is one of .1d, .2d, .3d, .a1d, .a2d",
				"Undocumented geometry '.5d' (ptxas 13 treats it as .a1d)");
	} else if (g == G_1D_BUFFER || g == G_4D) {
		check_gate(c, REQ_SURF_1D_BUFFER, gl, n);
		check_strict(c, gl, RULE_SURFACE_MODIFIER, "PTX ISA 9.7.11: .geom is one of .1d, .2d, .3d, .a1d, .a2d",
			"Undocumented geometry '%s'", s->in->mods[s->pos[MC_GEOM]]);
	}
	switch (s->val[MC_CLAMP]) {
	case CL_TRAP:
		check_gate(c, REQ_CLAMP_TRAP, class_loc(s, MC_CLAMP), n);
		break;
	case CL_CLAMP:
		check_gate(c, REQ_CLAMP_CLAMP, class_loc(s, MC_CLAMP), n);
		check_gate(c, REQ_CLAMP_CLAMP_TARGET, class_loc(s, MC_CLAMP), n);
		break;
	case CL_ZERO:
		check_gate(c, REQ_CLAMP_ZERO, class_loc(s, MC_CLAMP), n);
		check_gate(c, REQ_CLAMP_ZERO_TARGET, class_loc(s, MC_CLAMP), n);
		break;
	}
	if (s->query) {
		if (s->query->has_gate)
			check_gate(c, s->query->gate, class_loc(s, MC_QUERY), n);
	}
	if (s->indirect) {
		const Expr *addr = s->in->ops[s->insn == SI_SUST || s->insn == SI_SURED ? 0 : 1];
		check_gate(c, REQ_INDIRECT_SURFACE, addr->elems[0]->loc, n);
	}
}

static const Symbol *opaque_symbol(CheckCtx *c, const Expr *e);

/* txq reads the same descriptor attributes as suq, under the same gates
 * (the SQ rows of isa/surface_words.def). .force_unnormalized_coords is a
 * sampler's: ptxas 13 (and 11.8) refuse it on a .texref name ("Argument 1
 * of instruction 'txq': .samplerref expected"); a .u64 handle may hold
 * either. */
void check_txq_attributes(CheckCtx *c, const Instr *in)
{
	for (uint32_t i = 0; i < in->nmods; i++) {
		const SurfQuery *q = find_query(in->mods[i]);
		if (q && q->has_gate)
			check_gate(c, q->gate, check_mod_loc(in, (int)i), NULL);
		if (q && strcmp(q->word, ".force_unnormalized_coords") == 0 && in->nops == 2 &&
		    in->ops[1]->kind == EX_ADDRESS) {
			const Expr *base = check_address_base(in->ops[1]);
			const Symbol *s = base ? opaque_symbol(c, base) : NULL;
			if (s && s->type == TY_TEXREF)
				check_error(c, base->loc, RULE_SURFACE_OPERAND, "Argument 1 of instruction 'txq': .samplerref "
					"expected (.force_unnormalized_coords is a sampler attribute; '%s' is a .texref)", s->name);
		}
	}
}

/* ---- opaque variables outside the surface instructions ---- */
static const Symbol *opaque_symbol(CheckCtx *c, const Expr *e)
{
	const Symbol *s = check_lookup(c, e);
	return s && s->kind == SYM_VAR && type_is_opaque(s->type) ? s : NULL;
}

/* mov.u64 %rd, surfref takes the address of a surface descriptor: that
 * already is indirect surface access for ptxas, and only .u64 may hold it. */
void check_surface_mov(CheckCtx *c, const Instr *in)
{
	if (in->nops != 2)
		return;
	const Symbol *s = opaque_symbol(c, in->ops[1]);
	if (!s || s->type != TY_SURFREF)
		return;
	bool u64 = false;
	for (uint32_t i = 0; i < in->nmods; i++)
		if (strcmp(in->mods[i], ".u64") == 0)
			u64 = true;
	if (!u64) {
		check_error(c, in->ops[1]->loc, RULE_SURFACE_OPERAND,
			"Indirect access to surface requires .u64 type (mov of '%s')", s->name);
		return;
	}
	check_gate(c, REQ_INDIRECT_SURFACE, in->ops[1]->loc, NULL);
}

/* Instructions that may name an opaque variable as an operand. */
static bool takes_opaque_operands(const Instr *in)
{
	static const char *const names[] = {
		"suld", "sust", "sured", "suq", "tex", "tld4", "txq", "istypep", "mov", "cvta", "call",
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (opcode_is(in, names[i]))
			return true;
	return false;
}

/* Every other instruction names an opaque variable at most inside an
 * address, which is no surface access either. */
void check_opaque_operands(CheckCtx *c, const Instr *in)
{
	if (takes_opaque_operands(in) || opcode_is(in, "st"))
		return;
	for (uint32_t i = 0; i < in->nops; i++) {
		const Expr *op = in->ops[i];
		bool in_address = op->kind == EX_ADDRESS && op->nelems == 1;
		const Expr *e = in_address ? op->elems[0] : op;
		const Symbol *s = opaque_symbol(c, e);
		if (!s)
			continue;
		if (in_address)
			check_error(c, e->loc, RULE_SURFACE_OPERAND, "Illegal operand type to instruction '%s' ('%s' is a %s)",
				in->opcode, s->name, type_info(s->type)->word);
		else
			check_error(c, e->loc, RULE_SURFACE_OPERAND,
				"Arguments mismatch for instruction '%s' ('%s' is a %s, not a value)", in->opcode, s->name,
				type_info(s->type)->word);
	}
}

void check_surface_instr(CheckCtx *c, const Instr *in)
{
	SurfCheck s;
	memset(&s, 0, sizeof s);
	s.c = c;
	s.in = in;
	uint32_t first = 0;
	if (strcmp(in->opcode, "suq") == 0) {
		s.insn = SI_SUQ;
		snprintf(s.name, sizeof s.name, "suq");
	} else {
		s.insn = strcmp(in->opcode, "suld") == 0 ? SI_SULD : strcmp(in->opcode, "sust") == 0 ? SI_SUST : SI_SURED;
		const SurfWord *w = in->nmods ? find_word(in->mods[0]) : NULL;
		if (!w || w->cls != MC_MODE || (s.insn == SI_SULD && w->value == MODE_P)) {
			SrcLoc loc = in->nmods ? mod_loc(&s, 0) : in->opcode_loc;
			if (in->nmods && !w && type_from_word(in->mods[0]) == TY_NONE)
				check_error(c, loc, RULE_SURFACE_MODIFIER, "Unknown modifier '%s'", in->mods[0]);
			if (w && w->cls == MC_MODE)
				check_error(c, in->opcode_loc, RULE_SURFACE_MODIFIER,
					"Not a name of any known instruction: '%s%s' (suld has only the .b mode)", in->opcode,
					in->mods[0]);
			else
				check_error(c, in->opcode_loc, RULE_SURFACE_MODIFIER,
					"Not a name of any known instruction: '%s' (the first modifier must be the mode %s)",
					in->opcode, s.insn == SI_SULD ? ".b" : ".b or .p");
			return;
		}
		s.val[MC_MODE] = w->value;
		s.pos[MC_MODE] = 0;
		check_concat(s.name, sizeof s.name, in->opcode, in->mods[0]);
		first = 1;
	}
	classify_mods(&s, first);
	if (s.query && s.query->texture_only) {
		check_error(c, class_loc(&s, MC_QUERY), RULE_SURFACE_MODIFIER,
			"Illegal query modifier for instruction 'suq' ('%s' is a texture query)", s.query->word);
		if (s.query->has_gate)
			check_gate(c, s.query->gate, class_loc(&s, MC_QUERY), "suq");
		s.template_failed = true;
		s.query = NULL;
	}
	check_missing(&s);
	check_type(&s);
	if (s.type)
		check_operands(&s);
	if (!s.template_failed)
		check_gates(&s);
}

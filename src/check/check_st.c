/* st in every state space: modifiers (state space, cache operator, memory
 * ordering and scope, .mmio, L1/L2 eviction priorities, .L2::cache_hint),
 * vector widths, data and address operands, and their gates. */
#include "check/check_internal.h"
#include "isa/opcodes.h"
#include "base/word_index.h"

#include <stdio.h>
#include <string.h>

typedef enum StClass {
	SC_SPACE, SC_COP, SC_SEM, SC_SCOPE, SC_MMIO, SC_L1, SC_L2EVICT, SC_L2HINT, SC_VEC, SC_TYPE, SC_COUNT,
	SC_OTHER = SC_COUNT,    /* a word of no class st has */
	SC_NONE = -1            /* a word of the table that is no st word */
} StClass;

enum { SPACE_GLOBAL = 1, SPACE_SHARED, SPACE_SHARED_CTA, SPACE_SHARED_CLUSTER, SPACE_LOCAL, SPACE_PARAM };
enum { SEM_WEAK = 1, SEM_RELAXED, SEM_RELEASE, SEM_VOLATILE };
enum { SCOPE_CTA = 1, SCOPE_CLUSTER, SCOPE_GPU, SCOPE_SYS };

typedef struct StWord {
	const char *word;
	StClass cls;
	int value;
	bool has_gate;
	int gate;       /* ReqId when has_gate */
	bool illegal;   /* a PTX word st does not take */
} StWord;

/* The ST columns of isa/surface_words.def. */
static const StWord st_words[] = {
#define SW(word, su, st, sass) { word, st },
#define ST(cls, value, gate) SC_##cls, value, (gate) >= 0, gate, (value) == 0
#define SQ(word, gate, texture_only, txq, desc_offset)
#include "isa/surface_words.def"
#undef SW
#undef ST
#undef SQ
};

typedef struct StCheck {
	CheckCtx *c;
	const Instr *in;
	const StWord *w[SC_COUNT];
	int pos[SC_COUNT];
	PtxType type;
	bool template_failed;
} StCheck;

static SrcLoc st_loc(const StCheck *s, int i)
{
	return check_mod_loc(s->in, i);
}

static SrcLoc class_loc(const StCheck *s, StClass cls)
{
	return s->w[cls] ? st_loc(s, s->pos[cls]) : s->in->opcode_loc;
}

static const char *word_of(const StCheck *s, StClass cls)
{
	return s->in->mods[s->pos[cls]];
}

/* ".L1::evict_last" -> ".evict_last": ptxas names the priority alone. */
static const char *short_word(CheckCtx *c, const char *w)
{
	const char *p = strstr(w, "::");
	if (!p)
		return w;
	char *r = arena_alloc(&c->item_arena, strlen(p + 2) + 2);
	r[0] = '.';
	strcpy(r + 1, p + 2);
	return r;
}

#define st_fail(s, loc, rule, ...) check_template_error((s)->c, &(s)->template_failed, loc, rule, __VA_ARGS__)

static const StWord *find_st_word(const char *w)
{
	if (!*w)
		return NULL;
	static WordIndex ix;
	int i = WORD_INDEX_FIND(&ix, st_words, StWord, word, w);
	return i >= 0 && st_words[i].cls != SC_NONE ? &st_words[i] : NULL;
}

static bool legal_st_type(PtxType t)
{
	const TypeInfo *ti = type_info(t);
	return (ti->cls == TC_BIT || ti->cls == TC_UNSIGNED || ti->cls == TC_SIGNED) ||
	       t == TY_F32 || t == TY_F64;
}

static void classify(StCheck *s)
{
	const Instr *in = s->in;
	for (uint32_t i = 0; i < in->nmods; i++) {
		const char *word = in->mods[i];
		SrcLoc loc = st_loc(s, i);
		PtxType t = type_from_word(word);
		const StWord *w = NULL;
		StClass cls;
		if (t != TY_NONE) {
			cls = SC_TYPE;
		} else {
			w = find_st_word(word);
			if (!w) {
				const char *hint = modifier_suggest(opcode_lookup("st"), word);
				if (hint)
					st_fail(s, loc, RULE_ST_MODIFIER, "Unknown modifier '%s'; did you mean '%s'?", word, hint);
				else
					st_fail(s, loc, RULE_ST_MODIFIER, "Unknown modifier '%s'", word);
				continue;
			}
			if (w->illegal) {
				if (w->cls == SC_SPACE)
					st_fail(s, loc, RULE_ST_MODIFIER, "State space incorrect for instruction 'st' (%s is read-only "
						"for st)", word);
				else
					st_fail(s, loc, RULE_ST_MODIFIER, "Illegal modifier '%s' for instruction 'st'", word);
				continue;
			}
			cls = w->cls;
		}
		if (s->w[cls] || (cls == SC_TYPE && s->type)) {
			const char *prev = in->mods[s->pos[cls]];
			switch (cls) {
			case SC_TYPE:
				st_fail(s, loc, RULE_ST_MODIFIER, "Unexpected instruction types specified for 'st' ('%s' after '%s')",
					word, prev);
				break;
			case SC_SPACE:
				st_fail(s, loc, RULE_ST_MODIFIER, "Unexpected number of state spaces specified in instruction 'st' "
					"('%s' after '%s')", word, prev);
				break;
			case SC_COP:
				st_fail(s, loc, RULE_ST_MODIFIER, "Multiple cache operation modifiers specified ('%s' after '%s')",
					word, prev);
				break;
			case SC_VEC:
				st_fail(s, loc, RULE_ST_MODIFIER, "Multiple vector modifiers specified ('%s' after '%s')", word,
					prev);
				break;
			case SC_SCOPE:
				st_fail(s, loc, RULE_ST_MODIFIER, "Multiple scope modifiers specified ('%s' after '%s')", word, prev);
				break;
			case SC_SEM:
				st_fail(s, loc, RULE_ST_MODIFIER, "Duplicate %s modifier (memory ordering already given by '%s')",
					word, prev);
				break;
			case SC_L1:
				st_fail(s, loc, RULE_ST_MODIFIER, "Duplicate '.L1::eviction_priority' modifier specified for "
					"instruction 'st' ('%s' after '%s')", word, prev);
				break;
			default:
				st_fail(s, loc, RULE_ST_MODIFIER, "Duplicate modifier '%s' (after '%s')", word, prev);
				break;
			}
			continue;
		}
		s->pos[cls] = (int)i;
		if (cls == SC_TYPE)
			s->type = t;
		else
			s->w[cls] = w;
	}
	if (s->w[SC_VEC] && s->type && s->pos[SC_TYPE] != s->pos[SC_VEC] + 1)
		check_warning(s->c, class_loc(s, SC_VEC), RULE_ST_MODIFIER,
			"Vector Type not specified properly ('%s' is not directly followed by the type)", word_of(s, SC_VEC));
}

static int vec_bits(const StCheck *s)
{
	int n = s->w[SC_VEC] ? s->w[SC_VEC]->value : 1;
	return n * type_info(s->type)->bits;
}

static void check_modifier_combinations(StCheck *s)
{
	CheckCtx *c = s->c;
	const StWord *sem = s->w[SC_SEM], *scope = s->w[SC_SCOPE], *cop = s->w[SC_COP];
	const StWord *l1 = s->w[SC_L1], *mmio = s->w[SC_MMIO], *space = s->w[SC_SPACE];
	if (sem && (sem->value == SEM_RELAXED || sem->value == SEM_RELEASE) && !scope)
		check_error(c, class_loc(s, SC_SEM), RULE_ST_MODIFIER, "Modifier '%s' requires scope with 'st' instruction",
			sem->word);
	if (sem && (sem->value == SEM_WEAK || sem->value == SEM_VOLATILE) && scope)
		check_error(c, class_loc(s, SC_SCOPE), RULE_ST_MODIFIER, "Modifier '%s' cannot be combined with modifier '%s'",
			sem->word, scope->word);
	if (scope && !sem && !mmio && !s->template_failed)
		check_error(c, class_loc(s, SC_SCOPE), RULE_ST_MODIFIER,
			"Modifier '%s' requires memory order with 'st' instruction (.relaxed or .release)", scope->word);
	if (sem && cop && sem->value != SEM_WEAK)
		check_error(c, class_loc(s, SC_COP), RULE_ST_MODIFIER, "Modifier '%s' cannot be combined with modifier '%s'",
			sem->word, cop->word);
	if (mmio) {
		if (!sem || sem->value != SEM_RELAXED)
			check_error(c, class_loc(s, SC_MMIO), RULE_ST_MODIFIER,
				"Modifier '.mmio' requires modifier '.relaxed' for instruction 'st'");
		if (!scope)
			check_error(c, class_loc(s, SC_MMIO), RULE_ST_MODIFIER, "Modifier '.mmio' requires scope with 'st' "
				"instruction (.sys)");
		else if (scope->value != SCOPE_SYS)
			check_error(c, class_loc(s, SC_SCOPE), RULE_ST_MODIFIER, "Modifier '.mmio' cannot be combined with "
				"modifier '%s' (only .sys)", scope->word);
		if (l1)
			check_error(c, class_loc(s, SC_L1), RULE_ST_MODIFIER, "Modifier '%s' cannot be combined with modifier "
				"'.mmio'", short_word(c, l1->word));
	}
	if (l1 && cop)
		check_error(c, class_loc(s, SC_L1), RULE_ST_MODIFIER, "Modifier '%s' cannot be combined with modifier '%s'",
			short_word(c, l1->word), cop->word);
	if (space && space->value == SPACE_LOCAL) {
		if (sem && sem->value != SEM_WEAK)
			check_error(c, class_loc(s, SC_SEM), RULE_ST_MODIFIER, "Modifier '%s' cannot be applied to '.local' space",
				sem->word);
		if (mmio)
			check_error(c, class_loc(s, SC_MMIO), RULE_ST_MODIFIER, "Modifier '.mmio' cannot be applied to '.local' "
				"space");
	}
	if (s->w[SC_L2EVICT] && s->type && vec_bits(s) != 256)
		check_error(c, class_loc(s, SC_L2EVICT), RULE_ST_MODIFIER,
			"Instruction 'st' requires '.v8.b32/.v4.b64' type with '%s' modifier.", s->w[SC_L2EVICT]->word);
}

static void check_vector_width(StCheck *s)
{
	CheckCtx *c = s->c;
	if (!s->w[SC_VEC] || !s->type)
		return;
	int bits = vec_bits(s), n = s->w[SC_VEC]->value, tbits = type_info(s->type)->bits;
	bool wide_form = (n == 8 && tbits == 32) || (n == 4 && tbits == 64);
	if (bits > 256 || (bits == 256 && !wide_form)) {
		check_error(c, class_loc(s, SC_VEC), RULE_ST_MODIFIER, "Vector type too large, exceeds 128 bit limit "
			"(.v%d%s is %d bits)", n, type_info(s->type)->word, bits);
		return;
	}
	if (bits == 256) {
		check_gate(c, REQ_ST_256BIT, class_loc(s, SC_VEC), "st");
		if (!s->w[SC_SPACE] || s->w[SC_SPACE]->value != SPACE_GLOBAL)
			check_error(c, class_loc(s, SC_VEC), RULE_ST_MODIFIER,
				"global state space expected for feature '256 bit wide load/store'");
	} else if (n == 8) {
		check_strict(c, class_loc(s, SC_VEC), RULE_ST_MODIFIER,
			"PTX ISA 9.7.9.10 st: .v8 is supported only for .b32, .u32, .s32 and .f32",
			".v8 with %s (%d bits)", type_info(s->type)->word, bits);
	}
}

/* name+imm as st data: ptxas 13 takes it whatever the name (a register
 * of any width, a variable's address, WARP_SZ) unless the name is a
 * predicate; name-imm and, inside {...}, name+imm are syntax errors to it
 * (name+-1 is the way to subtract). */
static bool is_name_offset(CheckCtx *c, const Expr *e)
{
	if (e->kind != EX_BINARY || e->op != '+' || e->lhs->kind != EX_NAME ||
	    e->lhs->component || !check_is_immediate(e->rhs))
		return false;
	const Symbol *sym = check_lookup(c, e->lhs);
	return sym && (sym->kind == SYM_VAR || sym->is_constant || (sym->kind == SYM_REG && sym->type != TY_PRED &&
		!sym->vec));
}

/* One data value (scalar operand or vector element). Returns the register
 * type, or TY_NONE for immediates. ptxas 13 refuses a special register as
 * the data operand but takes one as a vector element, like a register. */
static PtxType check_value(StCheck *s, const Expr *e, bool in_vector)
{
	CheckCtx *c = s->c;
	if (check_is_sink(e)) {
		st_fail(s, e->loc, RULE_ST_OPERAND, "Sink '_' not allowed as a source operand");
		return TY_NONE;
	}
	if (check_is_immediate(e)) {
		/* ptxas 13 stores no integer literal as a float (0f3F800000 or 1.0). */
		const Expr *lit = e;
		while (lit->kind == EX_UNARY)
			lit = lit->lhs;
		if (lit->kind == EX_INT && type_info(s->type)->cls == TC_FLOAT)
			st_fail(s, e->loc, RULE_ST_OPERAND, "Arguments mismatch for instruction 'st' (integer immediate '%s' for "
				"%s; write it as a float)", check_expr_text(c, e), type_info(s->type)->word);
		else if (!check_immediate_fits(e, s->type))
			st_fail(s, e->loc, RULE_ST_OPERAND, "Arguments mismatch for instruction 'st' (float immediate '%s' for "
				"%s)", check_expr_text(c, e), type_info(s->type)->word);
		return TY_NONE;
	}
	if (!in_vector && is_name_offset(c, e))
		return TY_NONE;
	const Symbol *sym = check_lookup(c, e);
	if (e->kind != EX_NAME || !sym) {
		if (e->kind != EX_NAME)
			st_fail(s, e->loc, RULE_ST_OPERAND, "Arguments mismatch for instruction 'st' (data must be a register or "
				"an immediate)");
		s->template_failed = true;
		return TY_NONE;
	}
	if (sym->is_constant) {
		if (type_info(s->type)->cls == TC_FLOAT)
			st_fail(s, e->loc, RULE_ST_OPERAND, "Arguments mismatch for instruction 'st' ('%s' is an integer constant, "
				"instruction type %s)", e->text, type_info(s->type)->word);
		return sym->type;
	}
	if (sym->vec && !e->component) {
		st_fail(s, e->loc, RULE_ST_OPERAND, "Illegal expression '%s' (a .v%d register is the whole data operand "
			"or one element, %s.x)", e->text, sym->vec, e->text);
		return TY_NONE;
	}
	if (sym->kind == SYM_SPECIAL && !in_vector) {
		st_fail(s, e->loc, RULE_ST_OPERAND, "Special register argument not allowed for instruction 'st' ('%s')",
			sym->name);
		return TY_NONE;
	}
	if (sym->kind != SYM_REG && sym->kind != SYM_SPECIAL) {
		st_fail(s, e->loc, RULE_ST_OPERAND, "Arguments mismatch for instruction 'st' ('%s' is not a register)",
			e->text);
		return TY_NONE;
	}
	if (!type_register_fits(s->type, sym->type, in_vector ? FIT_VECTOR : FIT_RELAXED))
		st_fail(s, e->loc, RULE_ST_OPERAND, "Arguments mismatch for instruction 'st' ('%s' is %s, instruction type %s)",
			e->text, type_info(sym->type)->word, type_info(s->type)->word);
	return sym->type;
}

/* ptxas 13 joins the elements' types first: one .bN register among them
 * makes the whole {...} a .bN value of their width, whatever the kinds of
 * the others ({%f1, %b2} and {%f1, %b1, %r1, %r2} for .u32). Returns
 * false when no element is a .bN register (the caller judges the rest). */
static bool joined_bits(StCheck *s, const Expr *e)
{
	CheckCtx *c = s->c;
	bool any_bit = false;
	for (uint32_t i = 0; i < e->nelems; i++) {
		const Expr *el = e->elems[i];
		const Symbol *sym = el->kind == EX_NAME && !el->component ? check_lookup(c, el) : NULL;
		any_bit |= sym && sym->kind == SYM_REG && !sym->vec && type_info(sym->type)->cls == TC_BIT;
	}
	if (!any_bit)
		return false;
	int width = 0;
	for (uint32_t i = 0; i < e->nelems; i++) {
		const Expr *el = e->elems[i];
		const Symbol *sym = el->kind == EX_NAME && !el->component ? check_lookup(c, el) : NULL;
		if (!sym || sym->kind != SYM_REG || sym->vec) {
			check_value(s, el, true);
			continue;
		}
		const TypeInfo *ti = type_info(sym->type);
		if (width && ti->bits != width) {
			st_fail(s, el->loc, RULE_ST_OPERAND, "Incompatible elements of vector expression ('%s' is %s, the "
				"first element %d bits wide)", el->text, ti->word, width);
			continue;
		}
		if (width)
			continue;
		width = ti->bits;
		if (!type_register_fits(s->type, check_bit_type(width), FIT_VECTOR))
			st_fail(s, el->loc, RULE_ST_OPERAND, "Arguments mismatch for instruction 'st' ({...} is .b%d, "
				"instruction type %s)", width, type_info(s->type)->word);
	}
	return true;
}

static void check_data(StCheck *s, const Expr *e)
{
	CheckCtx *c = s->c;
	int n = s->w[SC_VEC] ? s->w[SC_VEC]->value : 0;
	if (e->kind != EX_VECTOR) {
		if (check_vector_register(c, &s->template_failed, e, n, s->type, "st", RULE_ST_OPERAND))
			return;
		if (n) {
			st_fail(s, e->loc, RULE_ST_OPERAND, "Argument vector size mismatch for instruction 'st' (.v%d needs {...} "
				"of %d values)", n, n);
			return;
		}
		check_value(s, e, false);
		return;
	}
	/* Triton's one-element braces, st.global.b32 [a], {%r4}: one value. */
	if (!n && e->nelems == 1) {
		check_value(s, e->elems[0], true);
		return;
	}
	if ((int)e->nelems != n) {
		st_fail(s, e->loc, RULE_ST_OPERAND, "Argument vector size mismatch for instruction 'st' (%u values, %s)",
			e->nelems, n ? "expected as many as .vN says" : "no .vN modifier");
		return;
	}
	if (joined_bits(s, e))
		return;
	/* ptxas types a vector by its first register; the others only have to
	 * match it in width, and a float/integer mix needs a bit-typed first. */
	PtxType first = TY_NONE;
	for (uint32_t i = 0; i < e->nelems; i++) {
		const Expr *el = e->elems[i];
		if (first != TY_NONE && el->kind == EX_NAME && !check_is_sink(el)) {
			PtxType t = check_register_type(c, el);
			const TypeInfo *ti = type_info(t), *fi = type_info(first);
			if (t == TY_NONE)
				check_value(s, el, true);
			else if (ti->bits != fi->bits)
				st_fail(s, el->loc, RULE_ST_OPERAND, "Incompatible elements of vector expression ('%s' is %s, "
					"the first element %s)", el->text, ti->word, fi->word);
			else if (fi->cls != TC_BIT && ti->cls != fi->cls && (ti->cls == TC_FLOAT || fi->cls == TC_FLOAT))
				st_fail(s, el->loc, RULE_ST_OPERAND, "Vector with elements of different types are not allowed in "
					"st instruction ('%s' is %s, the first element %s)", el->text, ti->word, fi->word);
			continue;
		}
		PtxType t = check_value(s, el, true);
		if (first == TY_NONE)
			first = t;
	}
}

static StateSpace st_space(const StCheck *s)
{
	if (!s->w[SC_SPACE])
		return SP_NONE;
	switch (s->w[SC_SPACE]->value) {
	case SPACE_GLOBAL: return SP_GLOBAL;
	case SPACE_LOCAL: return SP_LOCAL;
	case SPACE_PARAM: return SP_PARAM;
	default: return SP_SHARED;
	}
}

/* st.param through a register inside a kernel: the document has no such
 * store (kernel parameters are read-only), ptxas 13 rejects it below sm_20,
 * accepts it up to sm_89 and crashes from sm_90 on. */
static void check_param_in_kernel(StCheck *s, const Expr *e)
{
	CheckCtx *c = s->c;
	const TargetInfo *crash_from = ptx_target_lookup("sm_90");
	if (c->rules == RULES_STRICT) {
		check_error(c, e->loc, RULE_ST_OPERAND, "st.param inside an .entry: kernel parameters are read-only "
			"(PTX ISA 9.7.9.10 st: st.param writes device-function parameters)");
		return;
	}
	if (check_gate_fails(c, REQ_ST_PARAM_KERNEL)) {
		Diag *d = check_error(c, e->loc, RULE_ST_OPERAND, "State space incorrect for instruction 'st' (st.param in a "
			"kernel needs .target sm_%d or higher; the file declares .target %s)",
			req_row(REQ_ST_PARAM_KERNEL)->min_sm, c->target_name);
		check_note_target(c, d);
	} else if (c->target && c->target->sm >= crash_from->sm) {
		Diag *d = check_error(c, e->loc, RULE_ST_OPERAND, "st.param through a register inside an .entry (ptxas 13 "
			"crashes on it for .target %s and newer)", crash_from->name);
		check_note_target(c, d);
	}
}

static void check_address_register(StCheck *s, const Expr *e, const Symbol *sym)
{
	CheckCtx *c = s->c;
	const TypeInfo *ti = type_info(sym->type);
	if (ti->cls == TC_FLOAT || ti->cls == TC_PRED || ti->cls == TC_PACKED) {
		st_fail(s, e->loc, RULE_ST_OPERAND, "Illegal to use symbol '%s' of type %s as address operand. Use integer or "
			"bit only.", e->text, ti->word);
		return;
	}
	StateSpace sp = st_space(s);
	if (sp == SP_PARAM && c->func && c->func->is_entry)
		check_param_in_kernel(s, e);
	if ((sp == SP_GLOBAL || sp == SP_NONE) && ti->bits < c->address_bits) {
		/* ptxas 13 notices this after parsing and then refuses 32-bit code
		 * (a 16-bit address only gets the warning). */
		if (ti->bits == 32) {
			check_addr32(c, e->loc, RULE_ST_ADDRESS, "Program uses 32-bit address '%s' which is conflicting with "
				".address_size %d (ptxas 13: 32-Bit compilation is no longer supported)", e->text,
				c->address_bits);
		} else {
			check_warning(c, e->loc, RULE_ST_ADDRESS, "Program uses %d-bit address '%s' which is conflicting with "
				".address_size %d", ti->bits, e->text, c->address_bits);
		}
	}
}

/* A float anywhere in an offset: ptxas 13 wants an integer constant. */
static bool has_float_literal(const Expr *e)
{
	if (!e)
		return false;
	if (e->kind == EX_FLOAT)
		return true;
	return (e->kind == EX_UNARY || e->kind == EX_BINARY) && (has_float_literal(e->lhs) ||
		(e->kind == EX_BINARY && has_float_literal(e->rhs)));
}

static void check_address(StCheck *s, const Expr *addr)
{
	CheckCtx *c = s->c;
	if (addr->kind != EX_ADDRESS || addr->nelems != 1) {
		st_fail(s, addr->loc, RULE_ST_OPERAND, "Address expected for argument 0 of instruction 'st'");
		return;
	}
	const Expr *e = addr->elems[0];
	const Expr *base = e;
	if (addr->kind == EX_ADDRESS && addr->nelems == 1 && has_float_literal(addr->elems[0])) {
		st_fail(s, addr->elems[0]->loc, RULE_ST_OPERAND, "Integer constant expression expected in the address of 'st' "
			"(the offset is a float)");
		return;
	}
	/* [reg+imm+imm]: ptxas 13 adds up the offsets. */
	while (base->kind == EX_BINARY) {
		if (base->op != '+' || !check_is_immediate(base->rhs)) {
			st_fail(s, e->loc, RULE_ST_OPERAND, "Illegal address expression (expected [reg], [reg+imm], [var] or "
				"[var+imm]; write [x+-4] for a negative offset)");
			return;
		}
		base = base->lhs;
	}
	if (check_is_immediate(base)) {
		if (st_space(s) != SP_LOCAL)
			st_fail(s, base->loc, RULE_ST_OPERAND, "Immediate addresses allowed only for .local state space");
		return;
	}
	if (base->kind != EX_NAME) {
		st_fail(s, base->loc, RULE_ST_OPERAND, "Illegal address expression");
		return;
	}
	const Symbol *sym = check_lookup(c, base);
	if (!sym) {
		s->template_failed = true;
		return;
	}
	if (sym->kind == SYM_SPECIAL) {
		/* ptxas 13 parses "[%clock64]" and then dies with SIGSEGV; "[%tid]"
		 * is an illegal type to it and "[%tid.x]" a syntax error. */
		st_fail(s, base->loc, RULE_ST_OPERAND, "Special register '%s' as the address of 'st' (ptxas 13 rejects or crashes on "
			"this input; copy it into a register with mov first)", check_expr_text(c, base));
		return;
	}
	if (sym->kind == SYM_REG) {
		check_address_register(s, base, sym);
		return;
	}
	if (sym->kind == SYM_VAR && type_is_opaque(sym->type)) {
		st_fail(s, base->loc, RULE_ST_OPERAND, "Illegal operand type to instruction 'st' ('%s' is a %s)", sym->name,
			type_info(sym->type)->word);
		return;
	}
	StateSpace sp = st_space(s);
	if (sym->kind == SYM_VAR && sp != SP_NONE && sym->space != SP_NONE && sym->space != sp) {
		st_fail(s, base->loc, RULE_ST_OPERAND, "State space mismatch between instruction and address in instruction "
			"'st' ('%s' is in %s)", sym->name, sym->space == SP_GLOBAL ? ".global" : sym->space == SP_SHARED ?
			".shared" : sym->space == SP_LOCAL ? ".local" : sym->space == SP_CONST ? ".const" : "another space");
		return;
	}
	if (sym->kind == SYM_VAR && sym->is_input_param && sym->space == SP_PARAM) {
		/* PTX ISA (parameter state space): a function reads its input parameters
		 * with ld.param and writes only its return parameters. */
		check_error(c, base->loc, RULE_ST_OPERAND, "Illegal to write to function input parameter '%s' (st.param writes "
			"return parameters and call arguments only)", sym->name);
		return;
	}
	if (sym->kind != SYM_VAR)
		st_fail(s, base->loc, RULE_ST_OPERAND, "Arguments mismatch for instruction 'st' ('%s' is no variable or "
			"address register)", sym->name);
}

static void check_operands(StCheck *s)
{
	CheckCtx *c = s->c;
	const Instr *in = s->in;
	bool hint = s->w[SC_L2HINT] != NULL;
	if (in->nops == 3 && !hint) {
		st_fail(s, in->ops[2]->loc, RULE_ST_OPERAND, ".L2::cache_hint modifier required for instruction 'st' with 3 "
			"arguments");
		return;
	}
	if (in->nops != (hint ? 3u : 2u)) {
		st_fail(s, in->loc, RULE_ST_OPERAND, "Arguments mismatch for instruction 'st' (%u operands, expected %d)",
			in->nops, hint ? 3 : 2);
		return;
	}
	check_address(s, in->ops[0]);
	check_data(s, in->ops[1]);
	if (hint) {
		PtxType pt = check_register_type(c, in->ops[2]);
		if (type_info(pt)->bits != 64 || type_info(pt)->cls == TC_FLOAT)
			st_fail(s, in->ops[2]->loc, RULE_ST_OPERAND, "Arguments mismatch for instruction 'st' (the cache policy "
				"must be a 64-bit register)");
	}
}

static void check_gates(StCheck *s)
{
	CheckCtx *c = s->c;
	for (int cls = 0; cls < SC_COUNT; cls++) {
		const StWord *w = s->w[cls];
		if (w && w->has_gate)
			check_gate(c, w->gate, class_loc(s, (StClass)cls), "st");
	}
	if (s->w[SC_COP])
		check_gate(c, REQ_CACHE_OPERATION, class_loc(s, SC_COP), "st");
	if (s->type == TY_B128)
		check_gate(c, REQ_ST_B128, class_loc(s, SC_TYPE), "st");
	if (!s->w[SC_SPACE])
		check_gate(c, REQ_GENERIC_ADDRESSING, s->in->opcode_loc, "st");
}

void check_st_instr(CheckCtx *c, const Instr *in)
{
	/* st.async and st.bulk are separate instructions with their own
	 * operand forms; this checker covers the plain store. */
	for (uint32_t i = 0; i < in->nmods; i++)
		if (strcmp(in->mods[i], ".async") == 0 || strcmp(in->mods[i], ".bulk") == 0)
			return;
	StCheck s;
	memset(&s, 0, sizeof s);
	s.c = c;
	s.in = in;
	classify(&s);
	if (!s.type) {
		st_fail(&s, in->opcode_loc, RULE_ST_MODIFIER, "Unexpected instruction types specified for 'st' (no type given)");
		return;
	}
	if (!legal_st_type(s.type)) {
		st_fail(&s, class_loc(&s, SC_TYPE), RULE_ST_MODIFIER, "Unexpected instruction types specified for 'st' ('%s')",
			type_info(s.type)->word);
		return;
	}
	check_modifier_combinations(&s);
	check_operands(&s);
	if (s.template_failed)
		return;
	check_vector_width(&s);
	check_gates(&s);
}

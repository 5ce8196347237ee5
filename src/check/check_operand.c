/* What the rule files ask about operands: name resolution (declared
 * symbols, labels and the predefined special registers), register types,
 * immediates, address bases, message texts, and the .vN register test
 * st and ld share. Diagnostics here carry the caller's rule. */
#include "check/check_internal.h"
#include "base/once.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Predefined identifiers. A `family` entry also names <prefix><digits>
 * (%envreg0 .. %envreg31, %pm0 .. %pm7). A `constant` is no register:
 * ptxas 13 substitutes its value, so it stands wherever an integer
 * immediate may (st data, add operands), but not for a float. A .v4 one
 * (vec 4) is read one component at a time (%tid.x) or whole by mov.v4. */
typedef struct Special {
	const char *name;
	PtxType type;
	bool family;
	bool constant;
	uint8_t vec;
} Special;

static const Special specials[] = {
	{ "%tid", TY_U32, false, false, 4 }, { "%ntid", TY_U32, false, false, 4 }, { "%ctaid", TY_U32, false, false, 4 },
	{ "%nctaid", TY_U32, false, false, 4 }, { "%laneid", TY_U32, false, false, 0 }, { "%warpid", TY_U32, false, false, 0 },
	{ "%nwarpid", TY_U32, false, false, 0 }, { "%smid", TY_U32, false, false, 0 }, { "%nsmid", TY_U32, false, false, 0 },
	{ "%gridid", TY_U64, false, false, 0 }, { "%lanemask_eq", TY_U32, false, false, 0 }, { "%lanemask_le", TY_U32, false, false, 0 },
	{ "%lanemask_lt", TY_U32, false, false, 0 }, { "%lanemask_ge", TY_U32, false, false, 0 }, { "%lanemask_gt", TY_U32, false, false, 0 },
	{ "%clock", TY_U32, false, false, 0 }, { "%clock_hi", TY_U32, false, false, 0 }, { "%clock64", TY_U64, false, false, 0 },
	{ "%globaltimer", TY_U64, false, false, 0 }, { "%globaltimer_lo", TY_U32, false, false, 0 },
	{ "%globaltimer_hi", TY_U32, false, false, 0 }, { "%total_smem_size", TY_U32, false, false, 0 },
	{ "%dynamic_smem_size", TY_U32, false, false, 0 }, { "%aggr_smem_size", TY_U32, false, false, 0 },
	{ "%reserved_smem_offset_begin", TY_B32, false, false, 0 }, { "%reserved_smem_offset_end", TY_B32, false, false, 0 },
	{ "%reserved_smem_offset_cap", TY_B32, false, false, 0 }, { "%reserved_smem_offset_", TY_B32, true, false, 0 },
	{ "%is_explicit_cluster", TY_PRED, false, false, 0 }, { "%clusterid", TY_U32, false, false, 4 },
	{ "%nclusterid", TY_U32, false, false, 4 }, { "%cluster_ctaid", TY_U32, false, false, 4 },
	{ "%cluster_nctaid", TY_U32, false, false, 4 }, { "%cluster_ctarank", TY_U32, false, false, 0 },
	{ "%cluster_nctarank", TY_U32, false, false, 0 }, { "%current_graph_exec", TY_U64, false, false, 0 },
	{ "%envreg", TY_B32, true, false, 0 }, { "%pm", TY_U32, true, false, 0 }, { "WARP_SZ", TY_U32, false, true, 0 },
};

/* Filled once and then only read: contexts on other threads share them. */
static Symbol special_symbols[sizeof specials / sizeof specials[0]];
static OnceFlag special_symbols_filled;

static void fill_special_symbols(void)
{
	for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++) {
		Symbol *sym = &special_symbols[i];
		sym->kind = SYM_SPECIAL;
		sym->name = specials[i].name;
		sym->space = SP_SREG;
		sym->type = specials[i].type;
		sym->range = -1;
		sym->is_constant = specials[i].constant;
		sym->vec = specials[i].vec;
	}
}

static const Symbol *lookup_special(const char *name)
{
	for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++) {
		const Special *s = &specials[i];
		/* the first two bytes tell most apart (all names have two) */
		if (name[0] != s->name[0] || name[1] != s->name[1])
			continue;
		size_t n = strlen(s->name);
		if (s->family) {
			if (strncmp(name, s->name, n) != 0 || !isdigit((unsigned char)name[n]))
				continue;
			const char *p = name + n;
			while (isdigit((unsigned char)*p))
				p++;
			if (*p && strcmp(p, "_64") != 0)
				continue;
		} else if (strcmp(name, s->name) != 0) {
			continue;
		}
		ONCE(&special_symbols_filled, fill_special_symbols());
		return &special_symbols[i];
	}
	return NULL;
}

/* check_lookup for a statement checked late (CheckCtx.visible_seq). */
static const Symbol *lookup_visible(const CheckCtx *c, const char *name)
{
	const Symbol *s = scope_lookup_before(c->scope, name, c->visible_seq);
	if (s)
		return s;
	s = c->labels ? scope_lookup(c->labels, name) : NULL;
	return s ? s : lookup_special(name);
}

const Symbol *check_lookup(CheckCtx *c, const Expr *name)
{
	if (!name || name->kind != EX_NAME || !name->text)
		return NULL;
	/* Names are arena strings: 16-byte aligned, the low bits carry nothing. */
	size_t slot = ((uintptr_t)name->text >> 4) % LOOKUP_MEMO;
	LookupMemo *m = &c->memo[slot];
	if (m->name == name->text && m->scope == c->scope && m->labels == c->labels && m->visible_seq == c->visible_seq)
		return m->sym;
	/* A statement checked late resolves each name several times too:
	 * its answers are kept under its visible_seq (they change only with
	 * a declaration, which forgets them as any other). */
	const Symbol *s;
	if (c->visible_seq) {
		s = lookup_visible(c, name->text);
	} else {
		s = scope_lookup(c->scope, name->text);
		if (!s && c->labels)
			s = scope_lookup(c->labels, name->text);
		if (!s)
			s = lookup_special(name->text);
	}
	*m = (LookupMemo){ name->text, c->scope, c->labels, c->visible_seq, s };
	c->memo_live |= (uint64_t)1 << slot;
	return s;
}

void check_forget_lookups(CheckCtx *c)
{
	if (c->memo_live)
		memset(c->memo, 0, sizeof c->memo);
	c->memo_live = 0;
}

/* A plain name changes only the lookups of that very name; a range
 * (%r<N>) those of every %rK, so it forgets them all. A function with a
 * label every eight statements would otherwise resolve its registers
 * anew after each label. */
static void forget_lookups_of(CheckCtx *c, const Symbol *sym)
{
	if (sym->range >= 0) {
		check_forget_lookups(c);
		return;
	}
	const char *name = sym->name;
	for (uint64_t live = c->memo_live; live; live &= live - 1) {
		int i = __builtin_ctzll(live);
		LookupMemo *m = &c->memo[i];
		if (m->name == name || (m->name[0] == name[0] && strcmp(m->name, name) == 0)) {
			*m = (LookupMemo){ 0 };
			c->memo_live &= ~((uint64_t)1 << i);
		}
	}
}

Symbol *check_declare(CheckCtx *c, Scope *s, Symbol *sym)
{
	forget_lookups_of(c, sym);
	sym->seq = ++c->decl_seq;
	return scope_add(s, sym);
}

PtxType check_register_type(CheckCtx *c, const Expr *e)
{
	const Symbol *s = check_lookup(c, e);
	if (!s || (s->kind != SYM_REG && s->kind != SYM_SPECIAL))
		return TY_NONE;
	return s->type;
}

bool check_is_sink(const Expr *e)
{
	return e && e->kind == EX_NAME && e->text[0] == '_' && e->text[1] == 0;
}

const TypeInfo *check_scalar_register(CheckCtx *c, const Expr *e)
{
	if (e->kind != EX_NAME || e->component || check_is_sink(e))
		return NULL;
	const Symbol *sym = check_lookup(c, e);
	if (!sym || sym->kind != SYM_REG || sym->vec)
		return NULL;
	return type_info(sym->type);
}

bool check_is_immediate(const Expr *e)
{
	if (!e)
		return false;
	if (e->kind == EX_INT || e->kind == EX_FLOAT)
		return true;
	if (e->kind == EX_UNARY)
		return check_is_immediate(e->lhs);
	if (e->kind == EX_BINARY)
		return check_is_immediate(e->lhs) && check_is_immediate(e->rhs);
	return false;
}

static const Expr *float_literal(const Expr *e)
{
	while (e && e->kind == EX_UNARY)
		e = e->lhs;
	return e && e->kind == EX_FLOAT ? e : NULL;
}

bool check_immediate_fits(const Expr *e, PtxType t)
{
	const Expr *f = float_literal(e);
	if (!f)
		return true;
	const TypeInfo *ti = type_info(t);
	if (ti->cls == TC_FLOAT)
		return true;
	bool single = f->text && f->text[0] == '0' && (f->text[1] == 'f' || f->text[1] == 'F');
	return ti->cls == TC_BIT && ti->bits == (single ? 32 : 64);
}

const char *check_expr_text(CheckCtx *c, const Expr *e)
{
	char buf[256];
	if (!e)
		return "?";
	switch (e->kind) {
	case EX_NAME:
		if (e->component) {
			snprintf(buf, sizeof buf, "%s%s", e->text, e->component);
			return arena_strdup(&c->item_arena, buf);
		}
		return e->text;
	case EX_INT:
	case EX_FLOAT:
		return e->text ? e->text : "?";
	case EX_UNARY:
		snprintf(buf, sizeof buf, "%c%s", e->op, check_expr_text(c, e->lhs));
		return arena_strdup(&c->item_arena, buf);
	case EX_BINARY:
		snprintf(buf, sizeof buf, "%s%c%s", check_expr_text(c, e->lhs), e->op, check_expr_text(c, e->rhs));
		return arena_strdup(&c->item_arena, buf);
	case EX_ADDRESS:
	case EX_LIST:
		if (e->nelems != 1)
			return "expression";
		snprintf(buf, sizeof buf, e->kind == EX_LIST ? "(%s)" : "[%s]", check_expr_text(c, e->elems[0]));
		return arena_strdup(&c->item_arena, buf);
	default:
		return "expression";
	}
}

const Expr *check_address_base(const Expr *e)
{
	if (e->kind != EX_ADDRESS || e->nelems != 1)
		return NULL;
	e = e->elems[0];
	while (e && e->kind == EX_BINARY)
		e = e->lhs;
	return e && e->kind == EX_NAME ? e : NULL;
}

/* Registers declared .v2/.v4 as the data of st or the result of ld and
 * ldu: ptxas 13 takes one for the whole {...} when its width is the
 * instruction's .vN, with element types by the vector rule (FIT_VECTOR). */
bool check_vector_register(CheckCtx *c, bool *template_failed, const Expr *e, int n, PtxType type,
	const char *opcode, RuleId rule)
{
	const Symbol *sym = e->kind == EX_NAME && !e->component ? check_lookup(c, e) : NULL;
	if (!sym || sym->kind != SYM_REG || !sym->vec)
		return false;
	if (sym->vec != n && n)
		check_template_error(c, template_failed, e->loc, rule, "Argument vector size mismatch for instruction "
			"'%s' ('%s' is a .v%d register, instruction .v%d)", opcode, e->text, sym->vec, n);
	else if (sym->vec != n)
		check_template_error(c, template_failed, e->loc, rule, "Argument vector size mismatch for instruction "
			"'%s' ('%s' is a .v%d register, no .vN modifier)", opcode, e->text, sym->vec);
	else if (type != TY_NONE && !type_register_fits(type, sym->type, FIT_VECTOR))
		check_template_error(c, template_failed, e->loc, rule, "Arguments mismatch for instruction '%s' ('%s' is "
			".v%d%s, instruction type %s)", opcode, e->text, n, type_info(sym->type)->word, type_info(type)->word);
	return true;
}

/* Module items and function bodies: scopes, labels, name resolution
 * (undefined symbols) and dispatch of instructions to their checkers. */
#include "check/check_internal.h"
#include "check/check_isa.h"
#include "base/once.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Predefined identifiers. A `family` entry also names <prefix><digits>
 * (%envreg0 .. %envreg31, %pm0 .. %pm7). A `constant` is no register:
 * ptxas 13 substitutes its value, so it stands wherever an integer
 * immediate may (st data, add operands), but not for a float. */
typedef struct Special {
	const char *name;
	PtxType type;
	bool family;
	bool constant;
} Special;

static const Special specials[] = {
	{ "%tid", TY_U32, false, false }, { "%ntid", TY_U32, false, false }, { "%ctaid", TY_U32, false, false },
	{ "%nctaid", TY_U32, false, false }, { "%laneid", TY_U32, false, false }, { "%warpid", TY_U32, false, false },
	{ "%nwarpid", TY_U32, false, false }, { "%smid", TY_U32, false, false }, { "%nsmid", TY_U32, false, false },
	{ "%gridid", TY_U64, false, false }, { "%lanemask_eq", TY_U32, false, false }, { "%lanemask_le", TY_U32, false, false },
	{ "%lanemask_lt", TY_U32, false, false }, { "%lanemask_ge", TY_U32, false, false }, { "%lanemask_gt", TY_U32, false, false },
	{ "%clock", TY_U32, false, false }, { "%clock_hi", TY_U32, false, false }, { "%clock64", TY_U64, false, false },
	{ "%globaltimer", TY_U64, false, false }, { "%globaltimer_lo", TY_U32, false, false },
	{ "%globaltimer_hi", TY_U32, false, false }, { "%total_smem_size", TY_U32, false, false },
	{ "%dynamic_smem_size", TY_U32, false, false }, { "%aggr_smem_size", TY_U32, false, false },
	{ "%reserved_smem_offset_begin", TY_B32, false, false }, { "%reserved_smem_offset_end", TY_B32, false, false },
	{ "%reserved_smem_offset_cap", TY_B32, false, false }, { "%reserved_smem_offset_", TY_B32, true, false },
	{ "%is_explicit_cluster", TY_PRED, false, false }, { "%clusterid", TY_U32, false, false },
	{ "%nclusterid", TY_U32, false, false }, { "%cluster_ctaid", TY_U32, false, false },
	{ "%cluster_nctaid", TY_U32, false, false }, { "%cluster_ctarank", TY_U32, false, false },
	{ "%cluster_nctarank", TY_U32, false, false }, { "%current_graph_exec", TY_U64, false, false },
	{ "%envreg", TY_B32, true, false }, { "%pm", TY_U32, true, false }, { "WARP_SZ", TY_U32, false, true },
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
	}
}

static const Symbol *lookup_special(const char *name)
{
	for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++) {
		const Special *s = &specials[i];
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

const Symbol *check_lookup(CheckCtx *c, const Expr *name)
{
	if (!name || name->kind != EX_NAME || !name->text)
		return NULL;
	/* Names are arena strings: 16-byte aligned, the low bits carry nothing. */
	LookupMemo *m = &c->memo[((uintptr_t)name->text >> 4) % LOOKUP_MEMO];
	if (m->name == name->text && m->scope == c->scope && m->labels == c->labels)
		return m->sym;
	const Symbol *s = scope_lookup(c->scope, name->text);
	if (!s && c->labels)
		s = scope_lookup(c->labels, name->text);
	if (!s)
		s = lookup_special(name->text);
	*m = (LookupMemo){ name->text, c->scope, c->labels, s };
	return s;
}

static void forget_lookups(CheckCtx *c)
{
	memset(c->memo, 0, sizeof c->memo);
}

Symbol *check_declare(CheckCtx *c, Scope *s, Symbol *sym)
{
	forget_lookups(c);
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
	default:
		return "expression";
	}
}

/* Every name an instruction uses must be declared. */
static void resolve_name(void *ctx, const Expr *e)
{
	CheckCtx *c = ctx;
	if (!check_is_sink(e) && !check_lookup(c, e))
		check_error(c, e->loc, "undefined-symbol", "Unknown symbol '%s'", e->text);
}

static void resolve_names(CheckCtx *c, const Expr *e)
{
	expr_for_each_name(e, resolve_name, c);
}

/* Called a dozen times per instruction with different names: comparing
 * the first letter first leaves strcmp to the few that share it. */
static inline bool opcode_is(const Instr *in, const char *name)
{
	return in->opcode[0] == name[0] && strcmp(in->opcode, name) == 0;
}

static const Symbol *opaque_symbol(CheckCtx *c, const Expr *e)
{
	const Symbol *s = check_lookup(c, e);
	return s && s->kind == SYM_VAR && type_is_opaque(s->type) ? s : NULL;
}

/* mov.u64 %rd, surfref takes the address of a surface descriptor: that
 * already is indirect surface access for ptxas, and only .u64 may hold it. */
static void check_mov(CheckCtx *c, const Instr *in)
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
		check_error(c, in->ops[1]->loc, "surface-operand",
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

static void check_opaque_misuse(CheckCtx *c, const Instr *in)
{
	for (uint32_t i = 0; i < in->nops; i++) {
		const Expr *op = in->ops[i];
		bool in_address = op->kind == EX_ADDRESS && op->nelems == 1;
		const Expr *e = in_address ? op->elems[0] : op;
		const Symbol *s = opaque_symbol(c, e);
		if (!s)
			continue;
		if (in_address)
			check_error(c, e->loc, "surface-operand", "Illegal operand type to instruction '%s' ('%s' is a %s)",
				in->opcode, s->name, type_info(s->type)->word);
		else
			check_error(c, e->loc, "surface-operand",
				"Arguments mismatch for instruction '%s' ('%s' is a %s, not a value)", in->opcode, s->name,
				type_info(s->type)->word);
	}
}

/* txq reads the same descriptor attributes as suq and the opaque
 * initializers, under the same gates (requirements.def ATTR_* rows). */
static void check_txq_attributes(CheckCtx *c, const Instr *in)
{
	static const struct { const char *mod; ReqId req; } attrs[] = {
		{ ".channel_data_type", REQ_ATTR_CHANNEL_DATA_TYPE },
		{ ".channel_order", REQ_ATTR_CHANNEL_ORDER },
		{ ".array_size", REQ_ATTR_ARRAY_SIZE },
		{ ".memory_layout", REQ_ATTR_MEMORY_LAYOUT },
		{ ".force_unnormalized_coords", REQ_ATTR_FORCE_UNNORMALIZED },
		{ ".num_mipmap_levels", REQ_ATTR_NUM_MIPMAP_LEVELS },
		{ ".num_samples", REQ_ATTR_NUM_SAMPLES },
	};
	for (uint32_t i = 0; i < in->nmods; i++)
		for (size_t k = 0; k < sizeof attrs / sizeof attrs[0]; k++)
			if (strcmp(in->mods[i], attrs[k].mod) == 0)
				check_gate(c, attrs[k].req, in->mod_locs[i], NULL);
}

/* Naming an .entry as a value (mov.u64 %rd, kernel) takes its address,
 * which dynamic parallelism needs and ptxas gates. */
static void check_kernel_address(void *ctx, const Expr *e)
{
	CheckCtx *c = ctx;
	const Symbol *sym = check_lookup(c, e);
	if (sym && sym->kind == SYM_FUNC && sym->is_kernel)
		check_gate(c, REQ_KERNEL_FUNC_ADDR, e->loc, NULL);
}

/* A cvt between integer types is the one conversion ptxas lets read a
 * special register (cvt.u64.u32 %rd1, %tid.x); float ones are refused. */
static bool cvt_is_integer(const Instr *in)
{
	for (uint32_t i = 0; i < in->nmods; i++) {
		PtxType t = type_from_word(in->mods[i]);
		if (t && type_info(t)->cls != TC_BIT && type_info(t)->cls != TC_UNSIGNED &&
		    type_info(t)->cls != TC_SIGNED)
			return false;
	}
	return true;
}

const Expr *check_address_base(const Expr *e)
{
	if (e->kind != EX_ADDRESS || e->nelems != 1)
		return NULL;
	e = e->elems[0];
	if (e->kind == EX_BINARY)
		e = e->lhs;
	return e && e->kind == EX_NAME ? e : NULL;
}

/* ptxas 13 takes a special register as the address of a scalar ld or ldu
 * only; atom, red, prefetch and vector ld accept it and then die with
 * SIGSEGV (st: see check_st.c). */
static void check_special_address(CheckCtx *c, const Instr *in, const Expr *base)
{
	bool vector = false;
	for (uint32_t i = 0; i < in->nmods; i++)
		vector |= in->mods[i][1] == 'v' && isdigit((unsigned char)in->mods[i][2]);
	if ((opcode_is(in, "ld") || opcode_is(in, "ldu")) && !vector)
		return;
	check_error(c, base->loc, "operand-type", "Special register '%s' as the address of '%s' (ptxas 13 crashes on "
		"this input; only a scalar ld or ldu takes one: copy it into a register with mov first)",
		check_expr_text(c, base), in->opcode);
}

/* The type a source operand is read as: the last type word (cvt's source
 * type; the only one for most opcodes). */
static PtxType source_type(const Instr *in)
{
	PtxType t = TY_NONE;
	for (uint32_t i = 0; i < in->nmods; i++) {
		PtxType m = type_from_word(in->mods[i]);
		if (m != TY_NONE)
			t = m;
	}
	return t;
}

/* WARP_SZ is an integer immediate to ptxas 13: any instruction reads it,
 * except as a float (add.f32 %f1, WARP_SZ, %f2 is an argument mismatch). */
static void check_constant_operand(CheckCtx *c, const Instr *in, const Expr *e)
{
	PtxType t = source_type(in);
	if (type_info(t)->cls == TC_FLOAT)
		check_error(c, e->loc, "operand-type", "Arguments mismatch for instruction '%s' ('%s' is an integer "
			"constant, instruction type %s)", in->opcode, e->text, type_info(t)->word);
}

/* ptxas 13 reads special registers only through mov and integer cvt, and
 * never writes them; as vector elements they count as plain registers.
 * The surface and st checkers word their own cases. */
static void check_special_operands(CheckCtx *c, const Instr *in)
{
	bool is_mov = opcode_is(in, "mov"), is_cvt = opcode_is(in, "cvt");
	bool reads = is_mov || (is_cvt && cvt_is_integer(in));
	for (uint32_t i = 0; i < in->nops; i++) {
		const Expr *e = in->ops[i], *base = check_address_base(e);
		const Symbol *b = base ? check_lookup(c, base) : NULL;
		if (b && b->kind == SYM_SPECIAL)
			check_special_address(c, in, base);
		const Symbol *s = e->kind == EX_NAME ? check_lookup(c, e) : NULL;
		if (!s || s->kind != SYM_SPECIAL)
			continue;
		if (s->is_constant && !((is_mov || is_cvt) && i == 0)) {
			check_constant_operand(c, in, e);
			continue;
		}
		if ((is_mov || is_cvt) && i == 0)
			check_error(c, e->loc, "operand-type", "Read-only special register cannot be destination argument "
				"('%s')", check_expr_text(c, e));
		else if (!reads)
			check_error(c, e->loc, "operand-type", "Special register argument not allowed for instruction '%s' "
				"('%s': copy it into a register with mov first)", in->opcode, check_expr_text(c, e));
	}
}

void check_instr(CheckCtx *c, const Instr *in)
{
	if (in->has_guard && in->guard) {
		if (!check_lookup(c, in->guard))
			check_error(c, in->guard->loc, "undefined-symbol", "Unknown symbol '%s'", in->guard->text);
		else if (check_register_type(c, in->guard) != TY_PRED)
			check_error(c, in->guard->loc, "operand-type", "Predicate expression expected (guard '%s')",
				in->guard->text);
	}
	for (uint32_t i = 0; i < in->nops; i++)
		resolve_names(c, in->ops[i]);
	/* Version/target gates of the whole ISA (isa_gates.def); surfaces and
	 * st have theirs in requirements.def, applied by their own checkers. */
	check_isa_instr(c, in);
	check_sync_required(c, in);
	check_param_read(c, in);
	check_destination(c, in);
	check_load_vector(c, in);
	check_load_width(c, in);
	check_memory_order(c, in);
	check_modifier_classes(c, in);
	if (!opcode_is(in, "call"))
		for (uint32_t i = 0; i < in->nops; i++)
			expr_for_each_name(in->ops[i], check_kernel_address, c);
	/* The surface instructions and st check their operand counts with
	 * their forms; every other opcode's count is in operand_counts.def. */
	if (opcode_is(in, "suld") || opcode_is(in, "sust") || opcode_is(in, "sured") || opcode_is(in, "suq"))
		check_surface_instr(c, in);
	else if (opcode_is(in, "st"))
		check_st_instr(c, in);
	else {
		check_operand_count(c, in);
		check_special_operands(c, in);
	}
	if (opcode_is(in, "mov")) {
		check_mov(c, in);
		check_mov_pack(c, in);
	}
	else if (opcode_is(in, "txq"))
		check_txq_attributes(c, in);
	if (!takes_opaque_operands(in) && !opcode_is(in, "st"))
		check_opaque_misuse(c, in);
}

/* Labels are scoped like declarations (ptxas: a label defined in a nested
 * block is unknown outside it, and sibling blocks may reuse a name), but a
 * branch may name a label further down its block: so each block's labels
 * are entered before its statements are checked. */
static void enter_labels(CheckCtx *c, const Stmt *s)
{
	for (; s; s = s->next) {
		if (s->kind != ST_LABEL)
			continue;
		Symbol *sym = ARENA_NEW(&c->item_arena, Symbol);
		sym->kind = SYM_LABEL;
		sym->name = s->u.label;
		sym->loc = s->loc;
		sym->range = -1;
		Symbol *old = check_declare(c, c->labels, sym);
		if (old != sym) {
			Diag *d = check_error(c, s->loc, "duplicate-symbol", "Duplicate definition of label '%s'", s->u.label);
			diag_note(c->sink, d, old->loc, "previous definition of '%s' is here", old->name);
		}
	}
}

static void check_stmts(CheckCtx *c, const Stmt *s)
{
	enter_labels(c, s);
	for (; s; s = s->next) {
		switch (s->kind) {
		case ST_INSTR:
			check_instr(c, &s->u.instr);
			break;
		case ST_DECL:
			check_var_decl(c, &s->u.decl, DECL_BODY, c->scope);
			break;
		case ST_PROTO:
			check_proto_dirs(c, &s->u.proto);
			break;
		case ST_BLOCK: {
			Scope *outer = c->scope, *outer_labels = c->labels;
			c->scope = scope_new(&c->item_arena, outer);
			c->labels = scope_new(&c->item_arena, outer_labels);
			check_stmts(c, s->u.block);
			c->scope = outer;
			c->labels = outer_labels;
			break;
		}
		default:
			break;
		}
	}
}

static void declare_func(CheckCtx *c, const Func *f)
{
	Symbol *sym = ARENA_NEW(&c->arena, Symbol);
	sym->kind = SYM_FUNC;
	sym->name = f->name;
	sym->loc = f->name_loc;
	sym->range = -1;
	sym->is_kernel = f->is_entry;
	sym->has_body = f->has_body;
	Symbol *old = check_declare(c, c->module_scope, sym);
	if (old == sym)
		return;
	if (old->kind == SYM_FUNC && !(old->has_body && f->has_body)) {
		old->has_body = old->has_body || f->has_body;
		return;
	}
	Diag *d = check_error(c, f->name_loc, "duplicate-symbol", "Duplicate definition of %s '%s'",
		old->kind == SYM_FUNC ? "function" : "symbol", f->name);
	diag_note(c->sink, d, old->loc, "previous definition of '%s' is here", old->name);
}

static void check_func(CheckCtx *c, const Func *f)
{
	declare_func(c, f);
	Scope *fscope = scope_new(&c->item_arena, c->module_scope);
	c->func = f;
	for (uint32_t i = 0; i < f->nrets; i++)
		check_var_decl(c, &f->rets[i], DECL_FUNC_RET, fscope);
	for (uint32_t i = 0; i < f->nparams; i++)
		check_var_decl(c, &f->params[i], f->is_entry ? DECL_ENTRY_PARAM : DECL_FUNC_PARAM, fscope);
	check_isa_func(c, f);
	check_func_dirs(c, f);
	if (f->has_body) {
		c->labels = scope_new(&c->item_arena, NULL);
		c->scope = fscope;
		check_stmts(c, f->body);
	}
	c->scope = c->module_scope;
	c->labels = NULL;
	c->func = NULL;
	/* Registers, labels and scopes of the function die with it; what later
	 * functions may see (its name) lives in the module scope. */
	arena_reset(&c->item_arena);
}

void check_item(CheckCtx *c, const Item *it)
{
	/* The memo is keyed by name pointers, and the previous item's names
	 * and scopes may have been freed and their addresses reused. */
	forget_lookups(c);
	if (it->kind == IT_VAR)
		check_var_decl(c, &it->u.var, DECL_MODULE, c->module_scope);
	else if (it->kind == IT_FUNC)
		check_func(c, &it->u.func);
}

void check_module_items(CheckCtx *c)
{
	check_isa_module(c);
	for (const Item *it = c->m->items; it; it = it->next)
		check_item(c, it);
}

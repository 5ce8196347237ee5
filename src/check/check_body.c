/* Module items and function bodies: the walk (scopes, labels, undefined
 * names) and the dispatch of each instruction to the rule files, in the
 * order their diagnostics are emitted. */
#include "check/check_internal.h"
#include "check/check_isa.h"

#include <string.h>

/* Every name an instruction uses must be declared. */
static void resolve_name(void *ctx, const Expr *e)
{
	CheckCtx *c = ctx;
	if (!check_is_sink(e) && !check_lookup(c, e))
		check_error(c, e->loc, RULE_UNDEFINED_SYMBOL, "Unknown symbol '%s'", e->text);
}

static void resolve_names(CheckCtx *c, const Expr *e)
{
	expr_for_each_name(e, resolve_name, c);
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
			check_error(c, e->loc, RULE_SURFACE_OPERAND, "Illegal operand type to instruction '%s' ('%s' is a %s)",
				in->opcode, s->name, type_info(s->type)->word);
		else
			check_error(c, e->loc, RULE_SURFACE_OPERAND,
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

void check_instr(CheckCtx *c, const Instr *in)
{
	if (in->has_guard && in->guard && !check_lookup(c, in->guard))
		check_error(c, in->guard->loc, RULE_UNDEFINED_SYMBOL, "Unknown symbol '%s'", in->guard->text);
	check_guard_type(c, in);
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
			Diag *d = check_error(c, s->loc, RULE_DUPLICATE_SYMBOL, "Duplicate definition of label '%s'", s->u.label);
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
	Diag *d = check_error(c, f->name_loc, RULE_DUPLICATE_SYMBOL, "Duplicate definition of %s '%s'",
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
	check_forget_lookups(c);
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

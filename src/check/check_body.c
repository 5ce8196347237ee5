/* Module items and function bodies: the walk (scopes, labels, undefined
 * names) and the dispatch of each instruction to the rule files, in the
 * order their diagnostics are emitted. */
#include "check/check_internal.h"
#include "check/check_isa.h"

#include <string.h>

/* Every name an instruction uses must be declared. The walk also notes
 * whether a name could be a kernel's or an opaque variable's (such a
 * symbol, or the sink `_`, which it does not look up), or another
 * variable's, or a component (%r1.x) or a .v4 special register: without
 * one, the kernel-address walk, check_variable_sources,
 * check_operand_components and check_opaque_operands after the other checks,
 * which look the same names up in the same scopes, have nothing to
 * find. */
typedef struct NameWalk {
	CheckCtx *c;
	bool kernel_named, opaque_named, var_named;
	bool component_named;   /* a name with a component, or a .v4 special register */
} NameWalk;

static void resolve_name(void *arg, const Expr *e)
{
	NameWalk *w = arg;
	if (check_is_sink(e)) {
		w->kernel_named = w->opaque_named = true;
		return;
	}
	const Symbol *sym = check_lookup(w->c, e);
	w->component_named |= e->component || (sym && sym->kind == SYM_SPECIAL && sym->vec);
	if (!sym)
		check_error(w->c, e->loc, RULE_UNDEFINED_SYMBOL, "Unknown symbol '%s'", e->text);
	else if (sym->kind == SYM_FUNC && sym->is_kernel)
		w->kernel_named = true;
	else if (sym->kind == SYM_VAR && type_is_opaque(sym->type))
		w->opaque_named = true;
	else if (sym->kind == SYM_VAR)
		w->var_named = true;
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
	/* Checks of the shape alone run once per shape while they find
	 * nothing (check_shape.c); the order of the calls is the order of
	 * the diagnostics either way. */
	unsigned *clean = check_shape_clean(c, in);
	if (in->has_guard && in->guard && !check_lookup(c, in->guard))
		check_error(c, in->guard->loc, RULE_UNDEFINED_SYMBOL, "Unknown symbol '%s'", in->guard->text);
	check_guard_type(c, in);
	/* a stream's header rules are judged at its end (check_stream_end) */
	if (c->assembling && !c->builtin_routine)
		c->builtin_routine = check_builtin_routine(in);
	NameWalk names = { c, false, false, false, false };
	for (uint32_t i = 0; i < in->nops; i++)
		expr_for_each_name(in->ops[i], resolve_name, &names);
	/* Version/target gates of the whole ISA (isa_gates.def); surfaces and
	 * st have theirs in requirements.def, applied by their own checkers. */
	check_shape_run(c, clean, SHAPE_ISA_ROWS, check_isa_instr, in);
	check_isa_instr_sregs(c, in);
	check_shape_run(c, clean, SHAPE_SYNC, check_sync_required, in);
	check_barrier_operands(c, in);
	check_param_read(c, in);
	check_param_guard(c, in);
	check_destination(c, in);
	if (names.var_named)
		check_variable_sources(c, in);
	if (in->opcode[0] == 'c' || (names.var_named && in->opcode[0] == 'm'))
		check_address_conversion(c, in, names.var_named);
	check_initializer_forms(c, in);
	check_load_vector(c, in);
	check_vector_sizes(c, in);
	check_packed_operands(c, in);
	check_shape_run(c, clean, SHAPE_LOAD_WIDTH, check_load_width, in);
	check_shape_run(c, clean, SHAPE_ORDER, check_memory_order, in);
	check_shape_run(c, clean, SHAPE_MOD_CLASSES, check_modifier_classes, in);
	if (names.kernel_named && !opcode_is(in, "call"))
		for (uint32_t i = 0; i < in->nops; i++)
			expr_for_each_name(in->ops[i], check_kernel_address, c);
	/* The surface instructions and st check their operand counts with
	 * their forms; every other opcode's count is in operand_counts.def. */
	if (opcode_is(in, "suld") || opcode_is(in, "sust") || opcode_is(in, "sured") || opcode_is(in, "suq"))
		check_surface_instr(c, in);
	else if (opcode_is(in, "st"))
		check_st_instr(c, in);
	else {
		check_shape_run(c, clean, SHAPE_OPERAND_COUNT, check_operand_count, in);
		check_special_operands(c, in);
		check_operand_operators(c, in);
		if (names.component_named)
			check_operand_components(c, in);
		check_operand_signature(c, in, clean);
		if (in->opcode[0] == 'v')
			check_video_form(c, in);
		else if (opcode_is(in, "atom") || opcode_is(in, "red"))
			check_atomic_form(c, in);
		check_memory_address(c, in);
		if (in->opcode[0] == 'c' && opcode_is(in, "call"))
			check_call_arguments(c, in);
	}
	if (opcode_is(in, "mov")) {
		check_surface_mov(c, in);
		check_mov_pack(c, in);
	}
	else if (opcode_is(in, "txq"))
		check_txq_attributes(c, in);
	if (names.opaque_named)
		check_opaque_operands(c, in);
}

void check_stmt(CheckCtx *c, const Stmt *s)
{
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
	case ST_DIRECTIVE:
		if (!c->has_loc && strcmp(s->u.dir.name, ".loc") == 0) {
			c->has_loc = true;
			c->first_loc = s->loc;
		}
		break;
	default:
		break;
	}
}

static void check_stmts(CheckCtx *c, const Stmt *s)
{
	check_label_decls(c, s);
	for (; s; s = s->next) {
		if (s->kind == ST_BLOCK) {
			Scope *outer = c->scope, *outer_labels = c->labels;
			c->scope = scope_new(&c->item_arena, outer);
			c->labels = scope_new(&c->item_arena, outer_labels);
			check_stmts(c, s->u.block);
			c->scope = outer;
			c->labels = outer_labels;
		} else {
			check_stmt(c, s);
		}
	}
}

void check_func_begin(CheckCtx *c, const Func *f, DiagSink *decl, DiagSink *gates, DiagSink *dirs)
{
	c->sink = decl;
	check_func_decl(c, f);
	Scope *fscope = scope_new(&c->item_arena, c->module_scope);
	c->func = f;
	for (uint32_t i = 0; i < f->nrets; i++)
		check_var_decl(c, &f->rets[i], DECL_FUNC_RET, fscope);
	for (uint32_t i = 0; i < f->nparams; i++)
		check_var_decl(c, &f->params[i], f->is_entry ? DECL_ENTRY_PARAM : DECL_FUNC_PARAM, fscope);
	c->sink = gates;
	check_isa_func(c, f);
	c->sink = dirs;
	check_func_dirs(c, f);
	c->labels = scope_new(&c->item_arena, NULL);
	c->scope = fscope;
}

void check_func_end(CheckCtx *c)
{
	c->scope = c->module_scope;
	c->labels = NULL;
	c->func = NULL;
	/* Registers, labels and scopes of the function die with it; what later
	 * functions may see (its name) lives in the module scope. */
	arena_reset(&c->item_arena);
}

static void check_func(CheckCtx *c, const Func *f)
{
	DiagSink *sink = c->sink;
	check_func_begin(c, f, sink, sink, sink);
	c->sink = sink;
	if (f->has_body)
		check_stmts(c, f->body);
	check_func_end(c);
}

void check_item(CheckCtx *c, const Item *it)
{
	/* The memo is keyed by name pointers, and the previous item's names
	 * and scopes may have been freed and their addresses reused. */
	check_forget_lookups(c);
	if (it->kind == IT_DIRECTIVE && strcmp(it->u.dir.name, ".file") == 0)
		c->has_file = true;
	if (it->kind == IT_DIRECTIVE && strcmp(it->u.dir.name, ".alias") == 0)
		check_alias_defines(c, &it->u.dir);
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
	check_loc_file(c);
	check_undefined_funcs(c);
}

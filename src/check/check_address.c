/* Rule operand-type, memory addresses of ld, ldu, atom, red and prefetch
 * (st has its own in check_st.c, the surface instructions in
 * check_surface.c), and the first element of every other instruction's
 * [...] operands: the forms ptxas 13's grammar has,
 * [reg], [reg+imm], [var], [var+imm], [imm] (.local only), where imm is an
 * integer constant expression ([reg+4+4] and [reg+-4] too); and the state
 * space of the variable an address names against the instruction's
 * ("State space mismatch between instruction and address"). */
#include "check/check_internal.h"

#include <string.h>

static bool has_name(const Expr *e)
{
	if (!e)
		return false;
	if (e->kind == EX_NAME || e->kind == EX_ADDRESS || e->kind == EX_VECTOR)
		return true;
	if (e->kind == EX_UNARY)
		return has_name(e->lhs);
	if (e->kind == EX_BINARY)
		return has_name(e->lhs) || has_name(e->rhs);
	return false;
}

static bool has_float(const Expr *e)
{
	if (!e)
		return false;
	if (e->kind == EX_FLOAT)
		return true;
	if (e->kind == EX_UNARY)
		return has_float(e->lhs);
	if (e->kind == EX_BINARY)
		return has_float(e->lhs) || has_float(e->rhs);
	return false;
}

/* The instruction's state space: SP_NONE for generic, SP_TEX for a
 * qualified word this rule does not judge (.shared::cluster, .param::func...). */
StateSpace check_instr_space(const Instr *in)
{
	static const struct { const char *word; StateSpace sp; } spaces[] = {
		{ ".global", SP_GLOBAL }, { ".shared", SP_SHARED }, { ".shared::cta", SP_SHARED }, { ".local", SP_LOCAL },
		{ ".const", SP_CONST }, { ".param", SP_PARAM },
	};
	for (uint32_t i = 0; i < in->nmods; i++) {
		for (size_t k = 0; k < sizeof spaces / sizeof spaces[0]; k++)
			if (strcmp(in->mods[i], spaces[k].word) == 0)
				return spaces[k].sp;
		if (strncmp(in->mods[i], ".shared::", 9) == 0 || strncmp(in->mods[i], ".param::", 8) == 0 ||
		    strncmp(in->mods[i], ".const[", 7) == 0)
			return SP_TEX;
	}
	return SP_NONE;
}

const char *check_space_word(StateSpace sp)
{
	switch (sp) {
	case SP_GLOBAL: return ".global";
	case SP_SHARED: return ".shared";
	case SP_LOCAL: return ".local";
	case SP_CONST: return ".const";
	case SP_PARAM: return ".param";
	default: return "generic";
	}
}

static void check_space(CheckCtx *c, const Instr *in, const Expr *base, StateSpace sp)
{
	const Symbol *sym = check_lookup(c, base);
	if (!sym || sym->kind != SYM_VAR || sp == SP_TEX)
		return;
	StateSpace vs = sym->space;
	if (vs != SP_GLOBAL && vs != SP_SHARED && vs != SP_LOCAL && vs != SP_CONST && vs != SP_PARAM)
		return;
	/* A generic address may name any variable but a kernel's .param. */
	bool bad = sp == SP_NONE ? vs == SP_PARAM && c->func && c->func->is_entry : sp != vs;
	if (bad)
		check_error(c, base->loc, RULE_OPERAND_TYPE, "State space mismatch between instruction and address in "
			"instruction '%s' ('%s' is a %s variable, the instruction %s: write %s.%s)", in->opcode, sym->name,
			check_space_word(vs), sp == SP_NONE ? "generic" : check_space_word(sp), in->opcode, check_space_word(vs) + 1);
}

/* The form of one address's first element e (the whole address of ld,
 * the handle or base of tex, cp.async, mbarrier...): its base name, or
 * NULL after a diagnostic or for an immediate address. immediate_space is
 * the instruction's space when an immediate address is judged (SP_TEX:
 * not judged). */
static const Expr *address_form(CheckCtx *c, const Instr *in, const Expr *e, StateSpace immediate_space)
{
	const char *op = in->opcode;
	if (e->kind == EX_ADDRESS) {
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Illegal address expression in instruction '%s' ([[...]]: an "
			"address holds a register or variable and an integer offset)", op);
		return NULL;
	}
	if (has_float(e)) {
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Integer constant expression expected in the address of '%s' "
			"(the offset is a float)", op);
		return NULL;
	}
	/* [base+imm+imm...]: only '+' between a name and integer constants. */
	const Expr *base = e;
	while (base->kind == EX_BINARY && base->op == '+' && !has_name(base->rhs))
		base = base->lhs;
	StateSpace sp = immediate_space;
	if (!has_name(base)) {
		if (has_name(e))
			check_error(c, e->loc, RULE_OPERAND_TYPE, "Illegal address expression in instruction '%s' (the register "
				"or variable comes first: [x+imm])", op);
		else if (sp != SP_LOCAL && sp != SP_TEX)
			check_error(c, e->loc, RULE_OPERAND_TYPE, "Immediate addresses allowed only for .local state space "
				"('%s.%s' with an immediate address)", op, sp == SP_NONE ? "generic" : check_space_word(sp) + 1);
		return NULL;
	}
	if (base->kind != EX_NAME) {
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Illegal address expression in instruction '%s' (expected [reg], "
			"[reg+imm], [var] or [var+imm]; write [x+-4] for a negative offset)", op);
		return NULL;
	}
	return base;
}

/* A texture or sampler handle in a register is a 64-bit value. */
static void check_texture_handle(CheckCtx *c, const Instr *in, const Expr *e, const Symbol *sym)
{
	const TypeInfo *ti = type_info(sym->type);
	if (ti->bits != 64 && c->address_bits == 64)
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction '%s' ('%s' is %s; a texture "
			"or sampler handle register is .b64/.u64)", in->opcode, e->text, ti->word);
}

/* Every other instruction's [...] operands (tex, tld4, txq, cp.async,
 * mbarrier, ldmatrix...): ptxas 13's one address grammar, first element
 * only (the rest are samplers and coordinate vectors); spaces and
 * immediate addresses are left to the instruction's own rules, but for
 * wmma, which has no .local form. */
static void check_other_addresses(CheckCtx *c, const Instr *in)
{
	bool texture = opcode_is(in, "tex") || opcode_is(in, "tld4") || opcode_is(in, "txq");
	for (uint32_t i = 0; i < in->nops; i++) {
		const Expr *a = in->ops[i];
		if (a->kind != EX_ADDRESS || a->nelems < 1 || a->elems[0]->kind == EX_VECTOR)
			continue;
		/* wmma has no .local form: ptxas 13 refuses its [imm] */
		const Expr *base = address_form(c, in, a->elems[0], opcode_is(in, "wmma") ? check_instr_space(in) : SP_TEX);
		if (texture && !has_name(a->elems[0]) && !has_float(a->elems[0])) {
			check_error(c, a->elems[0]->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction '%s' (an "
				"immediate is no texture handle: name a .texref or a .b64 register)", in->opcode);
			continue;
		}
		if (texture && base && base != a->elems[0]) {
			check_error(c, a->elems[0]->loc, RULE_OPERAND_TYPE, "Argument %u of instruction '%s': .texref or .u64 "
				"register expected (a texture handle takes no offset: [%s])", i, in->opcode, base->text);
			continue;
		}
		const Symbol *sym = base && !base->component ? check_lookup(c, base) : NULL;
		/* a .tex .u32/.u64 variable is PTX 1.x's texture reference */
		if (texture && sym && sym->kind == SYM_VAR && !type_is_opaque(sym->type) && sym->space != SP_TEX) {
			check_error(c, base->loc, RULE_OPERAND_TYPE, "Arguments mismatch for instruction '%s' ('%s' is a %s "
				"variable; name a .texref or a .b64 register holding a handle)", in->opcode, base->text,
				type_info(sym->type)->word);
			continue;
		}
		if (!sym || sym->kind != SYM_REG || sym->vec)
			continue;
		const TypeInfo *ti = type_info(sym->type);
		if (ti->cls == TC_FLOAT || ti->cls == TC_PRED || ti->cls == TC_PACKED)
			check_error(c, base->loc, RULE_OPERAND_TYPE, "Illegal to use symbol '%s' of type %s as address operand. "
				"Use integer or bit only.", base->text, ti->word);
		else if (texture)
			check_texture_handle(c, in, base, sym);
		/* tex [texture, sampler, {...}]: the sampler is a handle too. */
		if (texture && a->nelems == 3 && a->elems[1]->kind == EX_NAME && !a->elems[1]->component) {
			const Symbol *sampler = check_lookup(c, a->elems[1]);
			if (sampler && sampler->kind == SYM_REG && !sampler->vec)
				check_texture_handle(c, in, a->elems[1], sampler);
		}
	}
}

void check_memory_address(CheckCtx *c, const Instr *in)
{
	bool ld = opcode_is(in, "ld") || opcode_is(in, "ldu");
	if (!ld && !opcode_is(in, "atom") && !opcode_is(in, "red") && !opcode_is(in, "prefetch")) {
		check_other_addresses(c, in);
		return;
	}
	uint32_t at = ld || opcode_is(in, "atom") ? 1 : 0;
	if (in->nops <= at || in->ops[at]->kind != EX_ADDRESS || in->ops[at]->nelems != 1)
		return;
	StateSpace sp = check_instr_space(in);
	const Expr *base = address_form(c, in, in->ops[at]->elems[0], sp);
	if (!base || base->component)
		return;
	const Symbol *sym = check_lookup(c, base);
	if (sym && sym->kind == SYM_REG && !sym->vec) {
		const TypeInfo *ti = type_info(sym->type);
		if (ti->cls == TC_FLOAT || ti->cls == TC_PRED || ti->cls == TC_PACKED)
			check_error(c, base->loc, RULE_OPERAND_TYPE, "Illegal to use symbol '%s' of type %s as address operand. "
				"Use integer or bit only.", base->text, ti->word);
		/* ptxas 13 notices a 32-bit global or generic address after parsing
		 * and then refuses 32-bit code altogether (st: check_st.c). */
		else if (ti->bits == 32 && c->address_bits == 64 && (sp == SP_GLOBAL || sp == SP_NONE))
			check_addr32(c, base->loc, RULE_OPERAND_TYPE, "Program uses 32-bit address '%s' which is conflicting with "
				".address_size 64 (ptxas 13: 32-Bit compilation is no longer supported; use a .b64/.u64 register)",
				base->text);
		return;
	}
	check_space(c, in, base, sp);
}

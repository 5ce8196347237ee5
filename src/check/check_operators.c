/* Rule operand-type: the operators an instruction operand may apply to a
 * name (a register, variable, function or label), as ptxas 13 parses and
 * checks them (probed one form at a time):
 *   - a name takes constant offsets after '+' only: %r1+1, arr+8+4 and
 *     arr+-8 are read, arr-8, 8+arr and %r1*2 are syntax errors;
 *   - '-' negates only vmad's sources, in the combinations its hardware
 *     has ("Operand negation limited to either (source A xor source B) or
 *     source C"; with .po only -a with -b, which cancel); anywhere else a
 *     negated register is "Operand negation not allowed for instruction"
 *     and a negated variable "Illegal argument to unary minus";
 *   - '!' negates predicates only ("Illegal argument to predicate
 *     negation");
 *   - no other operator applies to a name, and none applies to a name
 *     inside another operator or a {...} vector (~%r1, -(%r1), --%r1,
 *     -%r1+1, {-%r1, %r2} are ptxas syntax errors);
 *   - parentheses hold constant expressions only: (%r1), (gv+4) and
 *     {(%r1), %r2} are ptxas syntax errors (call's argument lists are
 *     lists, not parentheses).
 * Constant expressions (-1, ~0, -(1+2), WARP_SZ) are free; d|p result
 * pairs are their signatures' (check_signature.c), and addresses
 * ([%rd1-4]) have their own forms (check_address.c). */
#include "check/check_internal.h"
#include "isa/vmad_negation.h"

#include <stdbool.h>
#include <string.h>

/* A name that stands for a value only known at run time or link time;
 * unknown names are undefined-symbol's (check_body.c). */
static bool is_runtime_name(CheckCtx *c, const Expr *e)
{
	if (e->kind != EX_NAME || check_is_sink(e))
		return false;
	const Symbol *s = check_lookup(c, e);
	return s && !s->is_constant;
}

static bool has_runtime_name(CheckCtx *c, const Expr *e)
{
	if (!e)
		return false;
	switch (e->kind) {
	case EX_NAME: return is_runtime_name(c, e);
	case EX_UNARY: return has_runtime_name(c, e->lhs);
	case EX_BINARY: return has_runtime_name(c, e->lhs) || has_runtime_name(c, e->rhs);
	case EX_LIST:
		for (uint32_t i = 0; i < e->nelems; i++)
			if (has_runtime_name(c, e->elems[i]))
				return true;
		return false;
	default: return false;
	}
}

/* The first parentheses around a run-time name in e, or NULL. */
static const Expr *parenthesized_name(CheckCtx *c, const Expr *e)
{
	switch (e->kind) {
	case EX_LIST: return has_runtime_name(c, e) ? e : NULL;
	case EX_UNARY: return parenthesized_name(c, e->lhs);
	case EX_BINARY: {
		const Expr *l = parenthesized_name(c, e->lhs);
		return l ? l : parenthesized_name(c, e->rhs);
	}
	case EX_VECTOR:
		for (uint32_t i = 0; i < e->nelems; i++) {
			const Expr *p = parenthesized_name(c, e->elems[i]);
			if (p)
				return p;
		}
		return NULL;
	default: return NULL;
	}
}

static bool is_register(CheckCtx *c, const Expr *e)
{
	const Symbol *s = check_lookup(c, e);
	return s && s->kind == SYM_REG;
}

/* name, name + constant, (name + constant) + constant ... */
static bool is_name_offset(CheckCtx *c, const Expr *e)
{
	if (e->kind == EX_NAME)
		return true;
	return e->kind == EX_BINARY && e->op == '+' && !has_runtime_name(c, e->rhs) && is_name_offset(c, e->lhs);
}

typedef struct VmadNegs {
	bool neg[4];
} VmadNegs;

static void check_negation(CheckCtx *c, const Instr *in, const Expr *e, unsigned i, VmadNegs *vmad)
{
	const char *text = check_expr_text(c, e);
	if (!is_register(c, e->lhs))
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Illegal argument to unary minus ('%s': an address or a special "
			"register cannot be negated; only vmad negates its register sources)", text);
	else if (vmad && i == 0)
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Operand negation limited to either (source A xor source B) or "
			"source C ('%s': vmad's destination cannot be negated)", text);
	else if (vmad && i < 4)
		vmad->neg[i] = true;
	else if (vmad)
		return;
	else
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Operand negation not allowed for instruction '%s' ('%s': only "
			"vmad negates its sources; negate with neg first)", in->opcode, text);
}

static void check_operand(CheckCtx *c, const Instr *in, const Expr *e, unsigned i, bool in_vector, VmadNegs *vmad)
{
	if (e->kind == EX_VECTOR) {
		for (uint32_t k = 0; k < e->nelems; k++)
			check_operand(c, in, e->elems[k], i, true, vmad);
		return;
	}
	if ((e->kind != EX_UNARY && e->kind != EX_BINARY) || !has_runtime_name(c, e))
		return;
	/* d|p: the two results of setp, shfl, tex's {...}|p ... (check_signature.c
	 * judges which instructions take them: PREDOUT rows) */
	if (i == 0 && e->kind == EX_BINARY && e->op == '|' && (e->lhs->kind == EX_NAME || e->lhs->kind == EX_VECTOR) &&
	    e->rhs->kind == EX_NAME)
		return;
	const char *text = check_expr_text(c, e);
	if (in_vector)
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Operator in a vector operand ('%s': the elements of {...} are "
			"registers or constants; compute the value with an instruction first)", text);
	else if (e->kind == EX_BINARY && !is_name_offset(c, e))
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Illegal operand expression '%s' (a register or variable takes "
			"constant offsets after '+' only: name+8 or name+-8; compute anything else with an instruction)", text);
	else if (e->kind == EX_BINARY)
		return;
	else if (e->lhs->kind != EX_NAME)
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Illegal operand expression '%s' (the operator '%c' applies "
			"directly to a register, not to an expression holding one)", text, e->op);
	else if (e->op == '-')
		check_negation(c, in, e, i, vmad);
	else if (e->op == '!') {
		if (!is_register(c, e->lhs) || check_register_type(c, e->lhs) != TY_PRED)
			check_error(c, e->loc, RULE_OPERAND_TYPE, "Illegal argument to predicate negation ('%s': '!' "
				"negates a predicate register; use not for the bits of a register)", text);
	} else
		check_error(c, e->loc, RULE_OPERAND_TYPE, "Illegal operand expression '%s' (the operator '%c' applies to "
			"constants only; use not for the bits of a register)", text, e->op);
}

/* vmad's hardware negates the product or c (isa/vmad_negation.c). */
static void check_vmad_negations(CheckCtx *c, const Instr *in, const VmadNegs *v)
{
	bool po = false;
	for (uint32_t k = 0; k < in->nmods; k++)
		po |= strcmp(in->mods[k], ".po") == 0;
	VmadNegation fault = vmad_negation(po, v->neg[1], v->neg[2], v->neg[3]);
	if (fault == VMAD_NEG_PRODUCT_AND_C)
		check_error(c, in->loc, RULE_OPERAND_TYPE, "%s (vmad negates the product or c, not both)",
			vmad_negation_ptxas_message(fault));
	else if (fault == VMAD_NEG_WITH_PO)
		check_error(c, in->loc, RULE_OPERAND_TYPE, "%s (vmad.po adds 1 to the product: negate both a and b or "
			"neither, and not c)", vmad_negation_ptxas_message(fault));
}

void check_operand_operators(CheckCtx *c, const Instr *in)
{
	VmadNegs negs = { { false } }, *vmad = opcode_is(in, "vmad") ? &negs : NULL;
	bool call = in->opcode[0] == 'c' && opcode_is(in, "call");
	for (uint32_t i = 0; i < in->nops; i++) {
		const Expr *e = in->ops[i];
		const Expr *paren = call && e->kind == EX_LIST ? NULL : parenthesized_name(c, e);
		if (paren)
			check_error(c, paren->loc, RULE_OPERAND_TYPE, "Illegal operand expression '%s' (ptxas: syntax error; "
				"parentheses hold constant expressions only: write the register or variable without them)",
				check_expr_text(c, paren));
		else
			check_operand(c, in, e, i, false, vmad);
	}
	if (vmad)
		check_vmad_negations(c, in, vmad);
}

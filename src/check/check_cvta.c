/* Rule operand-type: the addresses cvta converts and mov copies, as
 * ptxas 13 (and 11.8) check them (probed one form at a time):
 *   - in a 64-bit module every cvta is .u64, whatever its operand
 *     (cvta.global.u32 %r2, %r1: "Program uses 32-bit address ... which
 *     is conflicting with .address_size 64"); a 32-bit module takes both;
 *   - cvta.SPACE of a variable (or variable+offset) converts that
 *     variable's address, so the variable is in SPACE (cvta.shared of a
 *     .global variable, cvta.global of a kernel's name: "State space
 *     mismatch between instruction and address in instruction 'cvta'");
 *   - mov of a .global variable's bare name into a 32-bit register in a
 *     64-bit module is that 32-bit address too. The .shared, .const,
 *     .local and .param windows are 32-bit and fit, and ptxas takes
 *     gv+4 (an immediate it truncates), so only the bare name is refused.
 * A 32-bit address is an error for ptxas 13 and a warning when assembling
 * for sm_50, which CUDA 11.8's ptxas compiles (check_addr32).
 * cvta.to's operand is a register (check_variable_sources). */
#include "check/check_internal.h"

#include <stdbool.h>
#include <string.h>

/* ptxas 13 notices a 32-bit address after parsing and then refuses 32-bit
 * code altogether; CUDA 11.8's ptxas warns and compiles (check_addr32). */
#define ADDRESS32 "Program uses 32-bit address which is conflicting with .address_size 64"
#define NO_32BIT "ptxas 13: 32-Bit compilation is no longer supported"

/* The variable or function an address operand names: name or name+offset. */
static const Expr *address_name(const Expr *e)
{
	while (e->kind == EX_BINARY && e->op == '+')
		e = e->lhs;
	return e->kind == EX_NAME && !e->component ? e : NULL;
}

static void check_cvta(CheckCtx *c, const Instr *in)
{
	StateSpace space = check_instr_space(in);
	bool to = false, u32 = false;
	for (uint32_t m = 0; m < in->nmods; m++) {
		to |= strcmp(in->mods[m], ".to") == 0;
		u32 |= strcmp(in->mods[m], ".u32") == 0;
	}
	if (u32 && c->address_bits == 64) {
		check_addr32(c, in->loc, RULE_OPERAND_TYPE, ADDRESS32 " (a 64-bit module's cvta converts 64-bit addresses: "
			"write cvta.u64 with 64-bit registers; " NO_32BIT ")");
		return;
	}
	if (to || space == SP_NONE || space == SP_TEX || in->nops < 2)
		return;
	const Expr *name = address_name(in->ops[1]);
	const Symbol *sym = name ? check_lookup(c, name) : NULL;
	if (!sym || (sym->kind != SYM_VAR && sym->kind != SYM_FUNC) || type_is_opaque(sym->type))
		return;
	if (sym->kind == SYM_FUNC)
		check_error(c, name->loc, RULE_OPERAND_TYPE, "State space mismatch between instruction and address in "
			"instruction 'cvta' ('%s' is a function: take its address with mov)", sym->name);
	else if (sym->space != space)
		check_error(c, name->loc, RULE_OPERAND_TYPE, "State space mismatch between instruction and address in "
			"instruction 'cvta' ('%s' is a %s variable: convert it with cvta.%s)", sym->name,
			check_space_word(sym->space), check_space_word(sym->space) + 1);
}

static void check_mov_address(CheckCtx *c, const Instr *in)
{
	if (c->address_bits != 64 || in->nops != 2 || in->ops[1]->kind != EX_NAME || in->ops[1]->component)
		return;
	bool b32 = false;
	for (uint32_t m = 0; m < in->nmods; m++)
		b32 |= strcmp(in->mods[m], ".u32") == 0 || strcmp(in->mods[m], ".s32") == 0 ||
		       strcmp(in->mods[m], ".b32") == 0;
	const Symbol *sym = b32 ? check_lookup(c, in->ops[1]) : NULL;
	if (sym && sym->kind == SYM_VAR && sym->space == SP_GLOBAL && !type_is_opaque(sym->type))
		check_addr32(c, in->ops[1]->loc, RULE_OPERAND_TYPE, ADDRESS32 " ('%s' is a .global variable: its address "
			"takes mov.u64 and a 64-bit register; " NO_32BIT ")", sym->name);
}

void check_address_conversion(CheckCtx *c, const Instr *in, bool var_named)
{
	if (opcode_is(in, "cvta"))
		check_cvta(c, in);
	else if (var_named && opcode_is(in, "mov"))
		check_mov_address(c, in);
}

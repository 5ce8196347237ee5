/* A bare variable name in the first operand position: every instruction
 * that names one there writes it, and ptxas 13 writes registers only
 * ("Argument 0 of instruction 'ld': must be register"). Instructions that
 * write memory take an [address] there, calls a (list), branches a label. */
#include "check/check_internal.h"

void check_destination(CheckCtx *c, const Instr *in)
{
	if (in->nops == 0 || in->ops[0]->kind != EX_NAME)
		return;
	const Symbol *sym = check_lookup(c, in->ops[0]);
	if (sym && sym->kind == SYM_VAR)
		check_error(c, in->ops[0]->loc, "operand-type", "Argument 0 of instruction '%s': must be register ('%s' is "
			"a %s variable)", in->opcode, sym->name, sym->space == SP_PARAM ? ".param" : "memory");
}

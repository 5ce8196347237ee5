/* ld.param inside an .entry from a .param variable the body declares:
 * ptxas 13 takes it when the variable receives a call's return value and
 * crashes (SIGSEGV, every target) when nothing but st.param writes it, so
 * such a file never assembles. A .func may use the same scratch freely. */
#include "check/check_internal.h"

#include <string.h>

/* True if some call in the statements names `name` in its return list:
 * call (ret), f, (args) has the list first and the callee second. */
static bool returned_into(const Stmt *s, const char *name)
{
	for (; s; s = s->next) {
		if (s->kind == ST_BLOCK && returned_into(s->u.block, name))
			return true;
		if (s->kind != ST_INSTR || strcmp(s->u.instr.opcode, "call") != 0)
			continue;
		const Instr *in = &s->u.instr;
		if (in->nops < 2 || in->ops[0]->kind != EX_LIST || in->ops[1]->kind != EX_NAME)
			continue;
		for (uint32_t i = 0; i < in->ops[0]->nelems; i++) {
			const Expr *r = in->ops[0]->elems[i];
			if (r->kind == EX_NAME && strcmp(r->text, name) == 0)
				return true;
		}
	}
	return false;
}

void check_param_read(CheckCtx *c, const Instr *in)
{
	if (!c->func || !c->func->is_entry || !c->func->has_body || strcmp(in->opcode, "ld") != 0 || in->nops < 2)
		return;
	bool param = false;
	for (uint32_t i = 0; i < in->nmods; i++)
		param |= strcmp(in->mods[i], ".param") == 0;
	const Expr *base = param ? check_address_base(in->ops[1]) : NULL;
	const Symbol *sym = base ? check_lookup(c, base) : NULL;
	if (!sym || sym->kind != SYM_VAR || sym->space != SP_PARAM || sym->is_input_param ||
	    returned_into(c->func->body, sym->name))
		return;
	check_error(c, base->loc, "operand-type", "ld.param from '%s', a .param variable of the kernel body that no "
		"call returns into (ptxas 13 crashes on this input; keep the value in a register)", sym->name);
}

/* Variadic functions (issue 15), as llc writes them and ptxas 11.8 runs
 * them on sm_50:
 *
 *   .func (.param .b32 r) f(.param .b32 a, .param .align 8 .b8 f_vararg[])
 *   { ... mov.u64 %rd1, f_vararg; ld.local.u32 %r2, [%rd1]; ... }
 *   ... .param .align 8 .b8 param1[28]; st.param.b32 [param1+0], %r1; ...
 *       call.uni (retval0), f, (param0, param1);
 *
 * The caller's block of variadic arguments lives in its stack frame and
 * the callee's `f_vararg` is its address in the local window: ptxas
 * stores the words at [R1+off] of the caller's frame (STL) and the callee
 * reads them through R1 + its own frame (IADD32I R0, R1, frame; LDL [R0]).
 *
 * Here the callee's f_vararg is one word, that address, passed as any
 * other parameter word. A call linked into a kernel (lower_call.c) gives
 * each call site its own area of the kernel's frame: the words st.param
 * wrote are stored there before the CAL and the callee's word is R1 +
 * the area's offset. A JCAL (-c: an external function or a function of
 * its own) follows the ABI instead, which other objects' code shares:
 * the block goes on the stack after the other stack arguments, at the
 * next offset its alignment allows, even while registers are free, and
 * the callee's f_vararg is its incoming R1 + that offset (lower_extern.c,
 * measured on ptxas 11.8 -c). A call may leave the block out (ptxas
 * accepts it): the callee's address then points at no bytes. */
#include "lower/lower_internal.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

void lw_vararg_declare(LowerCtx *c, const VarDecl *d, uint32_t **order, uint32_t *n)
{
	uint32_t v = lkernel_new_vreg(c->k, LRC_GPR, 1, false);
	c->vararg_name = d->decls[0].name;
	c->vararg_vreg = v;
	*order = xrealloc(*order, (*n + 2) * sizeof **order);
	(*order)[(*n)++] = v;
	(*order)[(*n)++] = 1;
}

int lw_vararg_operand(LowerCtx *c, const Expr *e, Opnd *o)
{
	int64_t off = 0;
	const Expr *name = e;
	if (e->kind == EX_BINARY && (e->op == '+' || e->op == '-') && expr_const_int(e->rhs, &off)) {
		name = e->lhs;
		off = e->op == '-' ? -off : off;
	}
	if (!c->vararg_name || name->kind != EX_NAME || name->component || strcmp(name->text, c->vararg_name) != 0)
		return 0;
	o->kind = OPND_REG;
	o->width = 1;
	o->vreg = c->vararg_vreg;
	if (off) {
		/* f_vararg+8: the address of a later argument */
		o->vreg = lw_temp(c, 1);
		LInsn *add = lw_emit(c, SF_IADD32I);
		linsn_ref(add, SR_RD, o->vreg, 0, 1, true);
		linsn_ref(add, SR_RA, c->vararg_vreg, 0, 1, false);
		linsn_set(add, SR_IMM, (uint32_t)off);
	}
	return 1;
}

void lw_vararg_bind(LKernel *k, const LCallSite *cs, uint32_t j, uint32_t callee_word, const bool *written)
{
	uint32_t words = j < cs->nargs ? cs->vregs[2 * j + 1] : 0;
	uint32_t off = (k->frame_size + LFRAME_ALIGN - 1) / LFRAME_ALIGN * LFRAME_ALIGN;
	k->frame_size = off + 4 * words;
	/* only the words st.param wrote, as ptxas stores them: an unwritten
	 * one would hold a register from the kernel's start to the call */
	for (uint32_t q = 0; q < words; q++) {
		uint32_t v = cs->vregs[2 * j] + q;
		if (written[v])
			lw_stack_word(k, cs->insn, false, false, v, UINT32_MAX, off + 4 * q, LSTACK_READ, cs->loc);
	}
	lw_stack_address(k, cs->insn, false, callee_word, off, LSTACK_READ, cs->loc);
}

/* An operand as lowering handlers take it (lw_opnd): a register, an
 * integer or float-bit constant, or an address -- of a shared or local
 * variable, module data (lower_data.c), a kernel (-c) or an address-taken
 * function (lower_fnptr.c). Apart from lower_ctx.c's helpers because it
 * reaches those files, which use the helpers themselves. */
#include "lower/lower_internal.h"
#include "lower/regalloc.h"

#include <stdlib.h>
#include <string.h>

bool lw_opnd(LowerCtx *c, const Expr *e, Opnd *o)
{
	int64_t v;
	o->imm = 0;
	if (e->kind == EX_FLOAT && e->text && e->text[0] == '0' && strchr("fFdD", e->text[1])) {
		/* 0f + 8 or 0d + 16 hex digits: the bits of the float */
		o->kind = OPND_IMM;
		o->imm = (int64_t)strtoull(e->text + 2, NULL, 16);
		o->width = 2;
		return true;
	}
	if (e->kind == EX_NAME && !e->component && strcmp(e->text, "WARP_SZ") == 0 &&
	    !lmap_find(&c->vars, e->text) && lw_reg_bits(c, e) == 0) {
		/* PTX's predefined constant: the warp size, an immediate as
		 * ptxas 11.8 reads it */
		o->kind = OPND_IMM;
		o->imm = 32;
		o->width = 2;
		return true;
	}
	if (e->kind != EX_NAME && expr_const_int(e, &v)) {
		o->kind = OPND_IMM;
		o->imm = v;
		o->width = 2;
		return true;
	}
	if (lw_vararg_operand(c, e, o))          /* a variadic block's address */
		return true;
	/* A variable's name is its address: a shared one an immediate in its
	 * window, a local one R1 + offset (the window is 32 bits wide). */
	int space;
	if (lw_var_address(c, e, &v, &space) && space == LVAR_SHARED) {
		o->kind = OPND_IMM;
		o->imm = v;
		o->width = 2;
		return true;
	}
	if (lw_var_address(c, e, &v, &space) && space == LVAR_SHARED_SYM) {
		/* in a function: MOV32I of the offset the linking kernel gives
		 * it, as ptxas 11.8 writes it there */
		o->kind = OPND_REG;
		o->vreg = lw_shared_sym_reg(c, lw_var_shared_sym(c, e), v);
		o->width = 1;
		return true;
	}
	if (lw_var_address(c, e, &v, &space)) {
		o->kind = OPND_REG;
		o->vreg = lw_temp(c, 1);
		o->width = 1;
		LInsn *add = lw_emit(c, SF_IADD32I);
		linsn_ref(add, SR_RD, o->vreg, 0, 1, true);
		linsn_set(add, SR_RA, REGALLOC_STACK_REG);
		add->stack_reg = LSTACK_READ;
		linsn_set(add, SR_IMM, (uint32_t)v);
		return true;
	}
	int data = lw_data_operand(c, e, o);
	if (data)
		return data > 0;
	int fn = lw_kernel_address(c, e, o);     /* a kernel's address (-c) */
	if (fn)
		return fn > 0;
	if (lw_fnaddr_operand(c, e, o))          /* a function's address (-c): relocated */
		return true;
	fn = lw_fnptr_address(c, e, &v);         /* a function's address: its id */
	if (fn) {
		o->kind = OPND_IMM;
		o->imm = v;
		o->width = 2;
		return fn > 0;
	}
	if (e->kind == EX_BINARY && (e->op == '+' || e->op == '-') && e->lhs->kind == EX_NAME &&
	    lw_reg_bits(c, e->lhs) > 1 && expr_const_int(e->rhs, &v)) {
		/* a register plus a constant as a value (`st.u64 [a], %rd + 1`):
		 * ptxas 11.8 adds it first (IADD32I, .CC/.X for 64 bits) */
		o->kind = OPND_REG;
		if (!lw_reg(c, e->lhs, &o->vreg, &o->width))
			return false;
		if (e->op == '-')
			v = -v;
		o->vreg = lw_fold_offset(c, o->vreg, o->width, &v, 1);
		return true;
	}
	o->kind = OPND_REG;
	return lw_reg(c, e, &o->vreg, &o->width);
}

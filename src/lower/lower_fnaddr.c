/* A .func called or whose address is taken in a relocatable object (-c,
 * issue 15), as ptxas 11.8 writes it: every call a JCAL of the function's
 * symbol (lower_call.c), its address
 *
 *   mov.u64 %rd, f             MOV32I Rlo, 32@lo(f)   R_CUDA_ABS32_LO_32 (0x2b)
 *                              MOV32I Rhi, 32@hi(f)   R_CUDA_ABS32_HI_32 (0x2c)
 *   .u64 ops[2] = {f, g};      R_CUDA_32 (1) per word in .rel.nv.global.init
 *
 * against f's symbol (lower_fnptr.c writes these): the FUNC symbol of f's
 * own .text.f when the module has its body, else an undefined one (as an
 * external function's). This file compiles that .text.f. The linker puts
 * f's absolute address there, which a pointer from any module
 * holds, so f is also compiled as a function of its own with the calling
 * convention of external calls (lower_extern.c): arguments from R4,
 * results from R4, RET. Its code is a wrapper that copies the arguments,
 * CALs f's body (linked after it, as a kernel links a callee) and copies
 * the results; it may use R0, R3..R15 and R32 up (its callers keep values
 * in R2 and R16..R31, as ptxas's do; abi_save.c saves the R16..R31 it
 * needs across an external call). A function with .local variables (its own or its callees': the
 * frame lw_link_calls lays out below R1) makes its frame below its
 * caller's stack pointer, as ptxas 11.8 -c does (FRAME_SIZE in .nv.info):
 *
 *   IADD32I R1, R1, -frame ; ... CAL body ... ; IADD32I R1, R1, frame ; RET
 *
 * Its body's calls are JCALs again (a recursive call too: ptxas calls its
 * own entry with a relative CAL instead). A call through a register
 * compares the pointer with these relocated addresses (lower_fnptr.c) and
 * JCALs the function it names; ptxas calls the pointer with PRET + JMX
 * instead. */
#include "lower/lower_internal.h"
#include "lower/regalloc.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* The placeholders {first vreg, words} of f's parameters, then results. */
static uint32_t *placeholders(LKernel *k, const LFunc *f)
{
	uint32_t nargs = f->nparams / 2, n = nargs + f->nrets / 2;
	uint32_t *v = xcalloc(2 * n + 1, sizeof *v);
	for (uint32_t j = 0; j < n; j++) {
		v[2 * j] = (uint32_t)k->nvregs;
		v[2 * j + 1] = j < nargs ? f->params[2 * j + 1] : f->rets[2 * (j - nargs) + 1];
		for (uint32_t q = 0; q < v[2 * j + 1]; q++)
			lkernel_new_vreg(k, LRC_GPR, 1, false);
	}
	return v;
}

static void copies(LKernel *k, SrcLoc loc, const uint32_t *to, const uint32_t *from, uint32_t first, uint32_t n)
{
	for (uint32_t j = first; j < first + n; j++)
		for (uint32_t q = 0; q < to[2 * j + 1]; q++) {
			LInsn *m = lkernel_append(k, SF_MOV_R, loc);
			linsn_ref(m, SR_RD, to[2 * j] + q, 0, 1, true);
			linsn_ref(m, SR_RB, from[2 * j] + q, 0, 1, false);
		}
}

/* Inserts R1 += delta before instruction `at` (labels on it and after
 * move along); the wrapper's call sites are linked already. */
static void stack_adjust(LKernel *k, size_t at, int32_t delta, SrcLoc loc)
{
	LInsn *in = lkernel_append(k, SF_IADD32I, loc);
	linsn_set(in, SR_RD, REGALLOC_STACK_REG);
	linsn_set(in, SR_RA, REGALLOC_STACK_REG);
	linsn_set(in, SR_IMM, (uint32_t)delta);
	in->stack_reg = LSTACK_READ | LSTACK_WRITE;
	in->keep = true;
	LInsn adjust = *in;
	memmove(k->insns + at + 1, k->insns + at, (k->ninsns - 1 - at) * sizeof *k->insns);
	k->insns[at] = adjust;
	for (size_t l = 0; l < k->nlabels; l++)
		if (k->label_pos[l] >= at)
			k->label_pos[l]++;
}

bool lw_fnaddr_function(LowerCtx *c, const LFunc *f, LKernel *k)
{
	memset(k, 0, sizeof *k);
	k->name = f->name;
	k->loc = f->loc;
	k->local_symbol = !f->visible;
	k->weak_symbol = f->weak;
	k->abi_func = true;
	k->label_pos = xcalloc(1, sizeof *k->label_pos);
	uint32_t nargs = f->nparams / 2, nrets = f->nrets / 2;
	uint32_t *abi = placeholders(k, f), *v = placeholders(k, f);
	/* the entry defines the argument registers, the RET reads the results */
	size_t entry = k->ninsns;
	lkernel_append(k, SF_NOP, f->loc)->keep = true;
	copies(k, f->loc, v, abi, 0, nargs);
	LInsn *cal = lkernel_append(k, SF_CAL, f->loc);
	cal->keep = true;
	k->calls = xcalloc(1, sizeof *k->calls);
	k->calls_cap = 1;
	k->calls[k->ncalls++] = (LCallSite){ k->ninsns - 1, f->name, f->loc, v, nargs, nrets, false, true };
	copies(k, f->loc, abi, v, nargs, nrets);
	size_t ret = k->ninsns;
	lkernel_append(k, SF_RET, f->loc)->keep = true;
	LCallSite site = { entry, f->name, f->loc, abi, nargs, nrets, false, true };
	bool ok = lw_abi_entry(c, k, &site, ret) && lw_link_calls(c, k, true);
	free(abi);
	/* ptxas -c relocates the header index into such a function's TEX/SULD
	 * words; ours are c[0x0] slots of a kernel, which it has none of */
	if (ok && k->nslots)
		ok = lw_unsupported(c, f->loc, "the address of function '%s' in a relocatable object: it names "
		                    "bound textures or surfaces (their header index would be relocated into its "
		                    "code)", f->name);
	/* the loads and stores of stack arguments moved the wrapper's RET:
	 * it is the first one (the body is linked after it) */
	while (ret < k->ninsns && k->insns[ret].form->op != SOP_RET)
		ret++;
	if (ok && k->frame_size) {
		stack_adjust(k, ret, (int32_t)k->frame_size, f->loc);
		stack_adjust(k, entry + 1, -(int32_t)k->frame_size, f->loc);
	}
	return ok;
}

void lw_fnaddr_externs(LowerCtx *c)
{
	for (size_t i = 0; i < c->lm->nfunc_addrs; i++) {
		size_t j = 0;
		while (j < c->nfuncs && strcmp(c->funcs[j].name, c->lm->func_addrs[i]) != 0)
			j++;
		if (j == c->nfuncs)     /* no body: an undefined symbol */
			lw_extern_index(c->lm, c->lm->func_addrs[i]);
	}
}

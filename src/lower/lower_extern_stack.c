/* Arguments and results beyond R4..R15 (issue 15): the stack part of the
 * calling convention of external calls and functions of their own, as
 * ptxas 11.8 (-arch=sm_50, -O0 and -O3, with and without -c) writes it.
 *
 * The caller passes an argument that does not fit the registers left in
 * an outgoing area at the bottom of its frame, [R1+0x0] up, each at the
 * next offset its alignment allows (.b32 4, .b64 8, .align N .b8[] N),
 * and the callee reads it from R1 + its own frame + offset. A result that
 * does not fit R4..R15 is returned through memory: the caller puts the
 * address of a result area (after the arguments, at the next offset the
 * result's alignment allows) in R4, the arguments then starting at R5,
 * and loads the result from it after the call; the callee stores through
 * R4. The frame (EIATTR_FRAME_SIZE) grows by the area, rounded up to 8:
 *
 *   IADD32I R1, R1, -0x40 ; ... STL.64 [R1], R2 ... ; IADD32I R4, R1, 0x8 ;
 *   JCAL `(ext) ; LDL.64 R20, [R1+0x8] ...
 *
 * lower_extern.c decides where each word goes; this file keeps the
 * stores, loads and result pointers it needs as pending operations while
 * linking goes on (the instructions' positions are the call sites'), then
 * puts them around their JCAL, entry or RET in one pass, and moves the
 * frame's other contents (the .local variables of the kernel and of its
 * functions) up above the outgoing area. */
#include "lower/lower_internal.h"

#include "base/xalloc.h"
#include "lower/regalloc.h"

#include <stdlib.h>
#include <string.h>

enum { AREA_ALIGN = 8, LOCAL_ALIGN = 16 };

typedef struct LStackOp {
	size_t at;      /* the instruction it goes next to */
	bool after;     /* after it (else before) */
	LInsn in;
} LStackOp;

static LInsn op_insn(SassFormId form, SrcLoc loc)
{
	LInsn in;
	memset(&in, 0, sizeof in);
	in.form = &sass_forms[form];
	in.target = -1;
	in.loc = loc;
	in.keep = true;
	return in;
}

static void add(LKernel *k, size_t at, bool after, const LInsn *in)
{
	k->stack_ops = xrealloc(k->stack_ops, (k->nstack_ops + 1) * sizeof *k->stack_ops);
	k->stack_ops[k->nstack_ops++] = (LStackOp){ at, after, *in };
}

void lw_stack_word(LKernel *k, size_t at, bool after, bool load, uint32_t vreg, uint32_t base, uint32_t offset,
                   uint8_t stack_reg, SrcLoc loc)
{
	LInsn in = op_insn(load ? SF_LDL : SF_STL, loc);
	in.keep = !load;     /* a load of a word nothing reads goes */
	linsn_ref(&in, load ? SR_RD : SR_RB, vreg, 0, 1, load);
	if (base == UINT32_MAX) {
		linsn_set(&in, SR_RA, REGALLOC_STACK_REG);
		in.stack_reg = stack_reg;
	} else {
		linsn_ref(&in, SR_RA, base, 0, 1, false);
	}
	linsn_set(&in, SR_SIZE, sass_size_code(4));
	linsn_set(&in, SR_IMM, offset);
	add(k, at, after, &in);
}

void lw_stack_address(LKernel *k, size_t at, bool after, uint32_t vreg, uint32_t offset, uint8_t stack_reg,
                      SrcLoc loc)
{
	LInsn in = op_insn(SF_IADD32I, loc);
	linsn_ref(&in, SR_RD, vreg, 0, 1, true);
	linsn_set(&in, SR_RA, REGALLOC_STACK_REG);
	linsn_set(&in, SR_IMM, offset);
	in.stack_reg = stack_reg;
	add(k, at, after, &in);
}

void lw_stack_copy(LKernel *k, size_t at, uint32_t to, uint32_t from, SrcLoc loc)
{
	LInsn in = op_insn(SF_MOV_R, loc);
	linsn_ref(&in, SR_RD, to, 0, 1, true);
	linsn_ref(&in, SR_RB, from, 0, 1, false);
	add(k, at, true, &in);
}

void lw_stack_ops_rename(LKernel *k, uint32_t from, uint32_t to, unsigned sub)
{
	for (size_t i = 0; i < k->nstack_ops; i++)
		for (unsigned r = 0; r < k->stack_ops[i].in.nrefs; r++) {
			LRegRef *ref = &k->stack_ops[i].in.refs[r];
			if (ref->vreg == from) {
				ref->vreg = to;
				ref->sub = (uint8_t)(ref->sub + sub);
			}
		}
}

/* Every R1 + offset of the frame but the outgoing area's moves up by delta. */
static void move_frame(LKernel *k, uint32_t delta)
{
	for (size_t i = 0; i < k->ninsns; i++) {
		LInsn *in = &k->insns[i];
		if ((in->stack_reg & LSTACK_READ) && !(in->stack_reg & (LSTACK_WRITE | LSTACK_OUT | LSTACK_IN)))
			linsn_set(in, SR_IMM, linsn_get(in, SR_IMM, 0) + delta);
	}
}

void lw_stack_ops_place(LKernel *k)
{
	if (k->nstack_ops) {
		size_t n = k->ninsns + k->nstack_ops;
		LInsn *ins = xcalloc(n + 1, sizeof *ins);
		size_t *newpos = xcalloc(k->ninsns + 1, sizeof *newpos), o = 0;
		for (size_t i = 0; i < k->ninsns; i++) {
			newpos[i] = o;
			for (size_t s = 0; s < k->nstack_ops; s++)
				if (k->stack_ops[s].at == i && !k->stack_ops[s].after)
					ins[o++] = k->stack_ops[s].in;
			ins[o++] = k->insns[i];
			for (size_t s = 0; s < k->nstack_ops; s++)
				if (k->stack_ops[s].at == i && k->stack_ops[s].after)
					ins[o++] = k->stack_ops[s].in;
		}
		/* a label on the instruction after a call stays on it, after the loads */
		for (size_t l = 0; l < k->nlabels; l++)
			k->label_pos[l] = k->label_pos[l] < k->ninsns ? newpos[k->label_pos[l]] : o;
		for (size_t c = 0; c < k->ncalls; c++)
			k->calls[c].insn = newpos[k->calls[c].insn];
		free(k->insns);
		free(newpos);
		k->insns = ins;
		k->ninsns = o;
		k->cap = n + 1;
		free(k->stack_ops);
		k->stack_ops = NULL;
		k->nstack_ops = 0;
	}
	if (k->call_area) {
		/* the .local variables keep their alignment (up to 16) above it */
		uint32_t delta = k->frame_size ? (k->call_area + LOCAL_ALIGN - 1) / LOCAL_ALIGN * LOCAL_ALIGN
		                               : (k->call_area + AREA_ALIGN - 1) / AREA_ALIGN * AREA_ALIGN;
		move_frame(k, delta);
		k->frame_size += delta;
		k->call_area = 0;
	}
}

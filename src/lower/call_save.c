/* Stack frames for calls of recursive functions (issue 15).
 *
 * A recursive function is placed once in the kernel's code, so a call of
 * it from itself reuses the registers of the calling invocation. Every CAL
 * of a recursive function (LInsn.save_live) therefore saves the values
 * live after it on the stack and loads them back when it returns, in a
 * frame of its own below R1:
 *
 *   IADD32I R1, R1, -S ; STL [R1+F+4j], v ... ; CAL f ;
 *   LDL v, [R1+F+4j] ... ; IADD32I R1, R1, S
 *
 * where F is the kernel's frame of .local variables (rounded up to 16
 * bytes: the callee's own variables lie at R1+offset in the new frame, below
 * the caller's) and S = F + the save area (16-byte aligned). ptxas 11.8
 * saves its callee-saved registers in the callee instead (STL [R1] after
 * IADD32I R1, R1, -8); the frame per call level is the same idea. The
 * function's results, which the call defines, are not saved. A predicate
 * live across such a call went through a general register around it
 * before (pred_save_across_calls), which is saved here like the others;
 * ptxas 11.8 computes such a predicate again after the call instead. */
#include "lower/call_save.h"

#include "lower/liveness.h"
#include "lower/regalloc.h"

#include "base/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FRAME_ALIGN = 16, SIZE_32 = 4 };

/* One saved 32-bit part: vreg and part index. */
typedef struct SavedPart {
	uint32_t vreg;
	uint8_t sub;
} SavedPart;

static uint32_t align16(uint32_t x)
{
	return (x + FRAME_ALIGN - 1) / FRAME_ALIGN * FRAME_ALIGN;
}

static LInsn stack_adjust(const LInsn *at, int32_t delta)
{
	LInsn in;
	memset(&in, 0, sizeof in);
	in.form = &sass_forms[SF_IADD32I];
	in.target = -1;
	in.loc = at->loc;
	linsn_set(&in, SR_RD, REGALLOC_STACK_REG);
	linsn_set(&in, SR_RA, REGALLOC_STACK_REG);
	linsn_set(&in, SR_IMM, (uint32_t)delta);
	in.stack_reg = LSTACK_READ | LSTACK_WRITE;
	in.call_frame = true;
	return in;
}

static LInsn stack_access(const LInsn *at, bool load, SavedPart p, uint32_t offset)
{
	LInsn in;
	memset(&in, 0, sizeof in);
	in.form = &sass_forms[load ? SF_LDL : SF_STL];
	in.target = -1;
	in.loc = at->loc;
	linsn_ref(&in, load ? SR_RD : SR_RB, p.vreg, p.sub, 1, load);
	linsn_set(&in, SR_RA, REGALLOC_STACK_REG);
	linsn_set(&in, SR_SIZE, SIZE_32);
	linsn_set(&in, SR_IMM, offset);
	in.stack_reg = LSTACK_READ;
	in.call_frame = true;
	return in;
}

/* The parts live when the call at i returns, its results left out; -1 when
 * a predicate is among them. */
static long live_after(const LKernel *k, const Liveness *lv, size_t i, SavedPart **out)
{
	size_t n = 0;
	*out = NULL;
	for (size_t v = 0; v < k->nvregs; v++) {
		const LVReg *r = &k->vregs[v];
		if (r->call_result || r->fixed)
			continue;
		for (unsigned p = 0; p < r->width; p++) {
			if (!live_set_has(&lv->in[lv->first_part[v] + p], i + 1))
				continue;
			if (r->cls == LRC_PRED) {
				free(*out);
				*out = NULL;
				return -1;
			}
			*out = xrealloc(*out, (n + 1) * sizeof **out);
			(*out)[n++] = (SavedPart){ (uint32_t)v, (uint8_t)p };
		}
	}
	return (long)n;
}

int call_save_live(LKernel *k, char *err, size_t errlen)
{
	size_t ncalls = 0;
	for (size_t i = 0; i + 1 < k->ninsns; i++)
		ncalls += k->insns[i].save_live;
	if (ncalls == 0)
		return 0;
	Liveness lv;
	liveness_compute(k, &lv);
	SavedPart **saved = xcalloc(k->ninsns + 1, sizeof *saved);
	long *nsaved = xcalloc(k->ninsns + 1, sizeof *nsaved);
	size_t extra = 0;
	int rc = 1;
	for (size_t i = 0; i + 1 < k->ninsns && rc > 0; i++) {
		if (!k->insns[i].save_live)
			continue;
		nsaved[i] = live_after(k, &lv, i, &saved[i]);
		if (nsaved[i] < 0) {
			snprintf(err, errlen, "kernel '%s' keeps a predicate live across a call of a recursive "
			         "function", k->name);
			rc = -1;
		}
		extra += 2 * (size_t)(nsaved[i] > 0 ? nsaved[i] : 0) + 2;
	}
	liveness_free(&lv);
	size_t old = k->ninsns;
	if (rc > 0) {
		uint32_t fsave = align16(k->frame_size);
		k->call_save_base = fsave;
		LInsn *ins = xcalloc(k->ninsns + extra + 1, sizeof *ins);
		size_t *newpos = xcalloc(k->ninsns + 1, sizeof *newpos), n = 0;
		for (size_t i = 0; i < k->ninsns; i++) {
			const LInsn *at = &k->insns[i];
			newpos[i] = n;
			if (!at->save_live || i + 1 >= k->ninsns) {
				ins[n++] = *at;
				continue;
			}
			int32_t frame = (int32_t)(fsave + align16(4 * (uint32_t)nsaved[i]));
			ins[n++] = stack_adjust(at, -frame);
			for (long j = 0; j < nsaved[i]; j++)
				ins[n++] = stack_access(at, false, saved[i][j], fsave + 4 * (uint32_t)j);
			ins[n] = *at;
			ins[n++].save_live = false;
			for (long j = 0; j < nsaved[i]; j++)
				ins[n++] = stack_access(at, true, saved[i][j], fsave + 4 * (uint32_t)j);
			ins[n++] = stack_adjust(at, frame);
		}
		/* a label on the instruction after the call stays on it, after the loads */
		for (size_t l = 0; l < k->nlabels; l++)
			k->label_pos[l] = k->label_pos[l] < k->ninsns ? newpos[k->label_pos[l]] : n;
		free(k->insns);
		k->insns = ins;
		k->ninsns = n;
		k->cap = k->ninsns + extra + 1;
		free(newpos);
	}
	for (size_t i = 0; i < old; i++)
		free(saved[i]);
	free(saved);
	free(nsaved);
	return rc;
}

/* Spill slots added after call_save_live grew the .local frame: every
 * call's frame (pushed by S, its save area at F + 4j) moves down by the
 * growth, so that each invocation of the recursive function has the
 * kernel's whole frame, its spill slots included, above its save area
 * (ptxas 11.8 spills inside its recursive functions' own frames too). A
 * spill slot's access between a call's push and pop (a saved value
 * reloaded from its slot to be saved, or stored back after) reaches the
 * caller's frame, S above the pushed R1. */
void call_save_shift(LKernel *k)
{
	uint32_t base = align16(k->frame_size);
	if (base <= k->call_save_base)
		return;
	uint32_t grow = base - k->call_save_base;
	int32_t pushed = 0;
	for (size_t i = 0; i < k->ninsns; i++) {
		LInsn *in = &k->insns[i];
		int32_t imm = (int32_t)linsn_get(in, SR_IMM, 0);
		if (!in->call_frame) {
			if (pushed && in->stack_reg == LSTACK_READ &&
			    (in->form == &sass_forms[SF_LDL] || in->form == &sass_forms[SF_STL]))
				linsn_set(in, SR_IMM, (uint32_t)(imm + pushed));
			continue;
		}
		if (in->form == &sass_forms[SF_IADD32I]) {
			imm += imm < 0 ? -(int32_t)grow : (int32_t)grow;
			pushed = imm < 0 ? -imm : 0;
		} else {
			imm += (int32_t)grow;
		}
		linsn_set(in, SR_IMM, (uint32_t)imm);
	}
	k->call_save_base = base;
}

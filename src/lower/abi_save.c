/* Registers a function of its own keeps for its callers (fnaddr, -c).
 *
 * The callers of an address-taken .func (any module's code, through a
 * JCAL or a call through a register) keep their values in R2 and R16..R31
 * across the call, as ptxas 11.8 -c's code does: its functions use R0,
 * R3..R15 and R32 up without saving them (a -c function of ptxas's with
 * twenty values live at once uses R32..R51, register count 52, frame 0).
 * Register allocation gives such a function R16..R31 only for values live
 * across a call of an external function (which keeps them), and its
 * wrapper saves those in a frame of its own above the body's:
 *
 *   NOP ; IADD32I R1, R1, -S ; STL [R1+4j], Rj' ... ;
 *   ... the wrapper: frame, argument copies, CAL body, result copies ... ;
 *   LDL Rj', [R1+4j] ... ; IADD32I R1, R1, S ; RET
 *
 * (S: 4 bytes a register, rounded up to 8; ptxas's own save is STL [R1]
 * after IADD32I R1, R1, -8). FRAME_SIZE counts S too. */
#include "lower/abi_save.h"

#include "lower/regalloc.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

enum { SAVE_ALIGN = 8, WORD = 4 };

static LInsn save_insn(const LInsn *at, SassFormId form)
{
	LInsn in;
	memset(&in, 0, sizeof in);
	in.form = &sass_forms[form];
	in.target = -1;
	in.loc = at->loc;
	in.keep = true;
	return in;
}

/* Inserts n instructions before index at (labels on it and after move). */
static void insert(LKernel *k, size_t at, const LInsn *ins, size_t n)
{
	if (k->ninsns + n + 1 > k->cap) {
		k->cap = k->ninsns + n + 1;
		k->insns = xrealloc(k->insns, k->cap * sizeof *k->insns);
	}
	memmove(k->insns + at + n, k->insns + at, (k->ninsns - at) * sizeof *k->insns);
	memcpy(k->insns + at, ins, n * sizeof *ins);
	k->ninsns += n;
	for (size_t l = 0; l < k->nlabels; l++)
		if (k->label_pos[l] >= at)
			k->label_pos[l] += n;
}

static void adjust(LInsn *in, int32_t delta)
{
	linsn_set(in, SR_RD, REGALLOC_STACK_REG);
	linsn_set(in, SR_RA, REGALLOC_STACK_REG);
	linsn_set(in, SR_IMM, (uint32_t)delta);
	in->stack_reg = LSTACK_READ | LSTACK_WRITE;
}

/* STL [R1+off], Rr or LDL Rr, [R1+off]; vreg is fixed to Rr, so that the
 * scheduler sees the register (its reads and writes come from refs) */
static void access(LInsn *in, bool load, uint32_t vreg, int r, uint32_t off)
{
	linsn_ref(in, load ? SR_RD : SR_RB, vreg, 0, 1, load);
	linsn_set(in, load ? SR_RD : SR_RB, (uint32_t)r);
	linsn_set(in, SR_RA, REGALLOC_STACK_REG);
	linsn_set(in, SR_SIZE, WORD);
	linsn_set(in, SR_IMM, off);
	in->stack_reg = LSTACK_READ;
}

bool abi_kept_range(int b, unsigned w)
{
	return b <= ABI_KEPT_LAST && b + (int)w - 1 > ABI_SCRATCH_LAST;
}

uint32_t abi_kept_mask(int b, unsigned w)
{
	uint32_t m = 0;
	for (int r = b; r < b + (int)w; r++)
		if (r > ABI_SCRATCH_LAST && r <= ABI_KEPT_LAST)
			m |= 1u << (r - ABI_SCRATCH_LAST - 1);
	return m;
}

void abi_save_kept(LKernel *k, uint32_t used)
{
	size_t ret = 0;
	while (ret < k->ninsns && k->insns[ret].form->op != SOP_RET)
		ret++;
	if (ret == k->ninsns || used == 0)
		return;
	int regs[ABI_KEPT_LAST - ABI_SCRATCH_LAST];
	size_t n = 0;
	for (int r = ABI_SCRATCH_LAST + 1; r <= ABI_KEPT_LAST; r++)
		if (used >> (r - ABI_SCRATCH_LAST - 1) & 1)
			regs[n++] = r;
	uint32_t size = ((uint32_t)n * WORD + SAVE_ALIGN - 1) / SAVE_ALIGN * SAVE_ALIGN;
	uint32_t vregs[ABI_KEPT_LAST - ABI_SCRATCH_LAST];
	for (size_t j = 0; j < n; j++) {
		vregs[j] = (uint32_t)lkernel_new_vreg(k, LRC_GPR, 1, false);
		k->vregs[vregs[j]].fixed = true;
		k->vregs[vregs[j]].phys = regs[j];
	}
	LInsn *ins = xcalloc(n + 1, sizeof *ins);
	/* before the RET: the loads, then the frame goes */
	for (size_t j = 0; j < n; j++) {
		ins[j] = save_insn(&k->insns[ret], SF_LDL);
		access(&ins[j], true, vregs[j], regs[j], WORD * (uint32_t)j);
	}
	ins[n] = save_insn(&k->insns[ret], SF_IADD32I);
	adjust(&ins[n], (int32_t)size);
	insert(k, ret, ins, n + 1);
	/* after the entry: the frame, then the stores */
	ins[0] = save_insn(&k->insns[0], SF_IADD32I);
	adjust(&ins[0], -(int32_t)size);
	for (size_t j = 0; j < n; j++) {
		ins[j + 1] = save_insn(&k->insns[0], SF_STL);
		access(&ins[j + 1], false, vregs[j], regs[j], WORD * (uint32_t)j);
	}
	insert(k, 1, ins, n + 1);
	free(ins);
	k->frame_size += size;
}

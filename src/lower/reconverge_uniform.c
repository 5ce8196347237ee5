/* Which conditional branches can split a warp (reconverge.c): ptxas 11.8
 * -O0 gives a loop whose exits every thread of a warp takes together (a
 * trip count from a parameter) no SSY (measured: docs/encoding.md), and so
 * do we. A value is varying when a thread may hold another one than its
 * warp's other threads: the registers S2R reads (but the block index), a
 * load from local memory or a generic address, atomics, shuffles, votes,
 * calls, a function's parameters; every value computed from a varying one (the guard and the
 * condition code count); every value written where only some threads of a
 * warp run, i.e. between a varying branch and its post-dominator (for a
 * loop's exit that is the whole loop: threads leave at different
 * iterations). A load from a global, shared or constant address every
 * thread shares reads one value. Iterated to a fixed point over the
 * kernel, flow-insensitively (a register is varying when any write of it
 * is), so an answer of "uniform" holds on every path. */
#include "lower/reconverge_cfg.h"
#include "lower/liveness.h"
#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* S2R's block index registers (SR_CTAID.X, .Y, .Z; sass_table.c e_sreg) */
enum { SREG_CTAID_X = 0x25, SREG_CTAID_Z = 0x27 };

/* Ops whose results depend on their operands only (and on constant-bank
 * words, the same for the whole warp): uniform operands, uniform result. */
static bool is_pure(const LInsn *in)
{
	switch (in->form->op) {
	case SOP_LDC: case SOP_MOV: case SOP_MOV32I: case SOP_IADD: case SOP_IADD32I: case SOP_ISCADD:
	case SOP_ISCADD32I: case SOP_SHL: case SOP_SHR: case SOP_LOP: case SOP_LOP32I: case SOP_LOP3:
	case SOP_ISETP: case SOP_XMAD: case SOP_BFE: case SOP_BFI: case SOP_IMNMX: case SOP_SEL:
	case SOP_SHF_L: case SOP_SHF_R: case SOP_LEA: case SOP_LEA_HI: case SOP_IADD3: case SOP_I2I:
	case SOP_PSETP: case SOP_FADD: case SOP_FADD32I: case SOP_FMUL: case SOP_FMUL32I: case SOP_FFMA:
	case SOP_FMNMX: case SOP_FSETP: case SOP_I2F: case SOP_F2I: case SOP_POPC: case SOP_FLO:
	case SOP_PRMT: case SOP_DADD: case SOP_DMUL: case SOP_DFMA: case SOP_DMNMX: case SOP_DSETP:
	case SOP_F2F: case SOP_MUFU: case SOP_RRO: case SOP_IMUL: case SOP_IMUL32I: case SOP_IMAD:
	case SOP_ICMP: case SOP_PSET: case SOP_ISET: case SOP_CSETP: case SOP_P2R: case SOP_R2P:
	case SOP_VABSDIFF: case SOP_VABSDIFF4: case SOP_FCHK: case SOP_FSET: case SOP_DSET: case SOP_FCMP:
	case SOP_VADD: case SOP_VMNMX: case SOP_VSET: case SOP_VSHL: case SOP_VSHR: case SOP_VMAD:
	/* one address for every thread: one value (the address is an operand) */
	case SOP_LDG: case SOP_LDS:
		return true;
	case SOP_S2R: {
		int64_t sr = linsn_get(in, SR_SREG, -1);
		return sr >= SREG_CTAID_X && sr <= SREG_CTAID_Z;
	}
	default:
		return false;
	}
}

/* Per block, the last walk of mark_influence that met it (b + 1: the walk
 * from branch b; each branch walks once), and that walk's work list. */
typedef struct Walk {
	size_t *seen, *work;
} Walk;

/* Marks the blocks between block b and its post-dominator (b's branch
 * decides whether they run). */
static bool mark_influence(const Cfg *g, size_t b, bool *divergent, Walk *w)
{
	size_t join = g->ipdom[b], nw = 0, *work = w->work;
	bool changed = false;
	work[nw++] = b;
	w->seen[b] = b + 1;
	while (nw > 0) {
		size_t x = work[--nw];
		for (unsigned s = 0; s < g->nsucc[x]; s++) {
			size_t q = g->succ[x][s];
			if (q == join || q == g->nblocks || w->seen[q] == b + 1)
				continue;
			w->seen[q] = b + 1;
			changed |= !divergent[q];
			divergent[q] = true;
			work[nw++] = q;
		}
	}
	return changed;
}

bool *cfg_varying_branches(const LKernel *k, const Cfg *g, bool **divergent_out)
{
	bool *varying = xcalloc(k->nvregs + 1, sizeof *varying), cc = false;
	bool *divergent = xcalloc(g->nblocks + 1, sizeof *divergent);      /* runs under a split warp */
	bool *branch = xcalloc(g->nblocks + 1, sizeof *branch);
	Walk w = { .seen = xcalloc(g->nblocks + 1, sizeof *w.seen), .work = xcalloc(g->nblocks + 1, sizeof *w.work) };
	/* a register read but never written here is a function's parameter
	 * or a call's result (linking renames them): varying */
	for (size_t v = 0; v < k->nvregs; v++)
		varying[v] = true;
	for (size_t i = 0; i < k->ninsns; i++)
		for (unsigned r = 0; r < k->insns[i].nrefs; r++)
			if (k->insns[i].refs[r].def && k->insns[i].refs[r].vreg < k->nvregs)
				varying[k->insns[i].refs[r].vreg] = false;
	for (bool changed = true; changed;) {
		changed = false;
		for (size_t i = 0; i < k->ninsns; i++) {
			const LInsn *in = &k->insns[i];
			bool v = !is_pure(in) || divergent[g->block_of[i]] || (in->reads_cc && cc);
			for (unsigned r = 0; r < in->nrefs && !v; r++)
				v = !in->refs[r].def && in->refs[r].vreg < k->nvregs && varying[in->refs[r].vreg];
			if (!v)
				continue;
			for (unsigned r = 0; r < in->nrefs; r++)
				if (in->refs[r].def && in->refs[r].vreg < k->nvregs && !varying[in->refs[r].vreg])
					changed = varying[in->refs[r].vreg] = true;
			if (in->writes_cc && !cc)
				changed = cc = true;
		}
		for (size_t b = 0; b < g->nblocks; b++) {
			const LInsn *in = &k->insns[g->start[b + 1] - 1];
			if (!branch[b] && in->form->op == SOP_BRX) {
				/* brx: a jump table may send each thread elsewhere; ptxas
				 * 11.8 wraps every BRX in SSY/SYNC, and so do we */
				branch[b] = true;
				changed |= mark_influence(g, b, divergent, &w) || true;
				continue;
			}
			if (branch[b] || in->form->op != SOP_BRA || linsn_is_unconditional_jump(in) || g->nsucc[b] < 2)
				continue;
			bool v = (in->reads_cc || linsn_get(in, SR_COND, 0xf) != 0xf) && cc;
			for (unsigned r = 0; r < in->nrefs && !v; r++)
				v = in->refs[r].vreg < k->nvregs && varying[in->refs[r].vreg];
			if (v) {
				branch[b] = true;
				changed |= mark_influence(g, b, divergent, &w) || true;
			}
		}
	}
	free(varying);
	if (divergent_out)
		*divergent_out = divergent;
	else
		free(divergent);
	free(w.seen);
	free(w.work);
	return branch;
}

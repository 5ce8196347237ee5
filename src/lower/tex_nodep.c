/* The .NODEP bit of texture instructions (issue 17).
 *
 * ptxas 11.8 -O3 (never -O0) marks a TEX/TLD/TLD4/TXD/TXQ (and .B) or
 * TEXS/TLDS/TLD4S .NODEP when what it computes goes only into surface
 * instructions, measured on probes: a result that reaches SUST or SURED
 * (as data or coordinate) or the coordinate of a SULD whose own result
 * does the same, through any moves, arithmetic, comparisons and selects,
 * is .NODEP; one that also reaches a global, shared or local load or
 * store (address or data), an atomic, another texture instruction (even
 * TLD or an explicit level), a shuffle, a branch, the guard of a surface
 * instruction (ptxas branches around it), a call or return, is not; the
 * guard of arithmetic (selp as two guarded moves) passes it on. The bit does not change what the instruction computes
 * (the simulator ignores it), so a result we cannot follow is left
 * without it: values are followed per register part, and a part defined
 * from the result anywhere counts as derived from it everywhere (a PTX
 * register reused for an unrelated value can only hide a .NODEP). */
#include "lower/tex_nodep.h"

#include "base/xalloc.h"
#include "sm50/sass_table.h"

#include <stdlib.h>

static bool is_texture(SassOp op)
{
	switch (op) {
	case SOP_TEX: case SOP_TEX_B: case SOP_TLD: case SOP_TLD_B: case SOP_TLD4: case SOP_TLD4_B:
	case SOP_TXD: case SOP_TXD_B: case SOP_TXQ: case SOP_TXQ_B: case SOP_TEXS: case SOP_TLDS:
	case SOP_TLD4S:
		return true;
	default:
		return false;
	}
}

/* Where a derived value stops being one .NODEP allows. */
static bool blocks(SassOp op)
{
	switch (op) {
	case SOP_STG: case SOP_LDG: case SOP_LDC: case SOP_LDS: case SOP_STS: case SOP_LDL: case SOP_STL:
	case SOP_LD: case SOP_ST: case SOP_CCTL: case SOP_CCTLL:
	case SOP_ATOM: case SOP_ATOM_CAS: case SOP_RED: case SOP_ATOMS: case SOP_ATOMS_CAS:
	case SOP_SHFL: case SOP_VOTE: case SOP_BAR: case SOP_BAR_RED: case SOP_MEMBAR:
	case SOP_BRA: case SOP_BRX: case SOP_JMX: case SOP_CAL: case SOP_JCAL: case SOP_RET: case SOP_EXIT:
	case SOP_SSY: case SOP_PBK: case SOP_SYNC: case SOP_BRK: case SOP_PRET: case SOP_BPT:
		return true;
	default:
		return is_texture(op);
	}
}

/* The instructions reading each register part (CSR: part p's readers are
 * insn[start[p] .. start[p + 1])). */
typedef struct Readers {
	size_t *first;      /* vreg -> its first part */
	size_t *start;
	uint32_t *insn;
} Readers;

static void readers_build(const LKernel *k, Readers *rd)
{
	rd->first = xcalloc(k->nvregs + 1, sizeof *rd->first);
	for (size_t v = 0; v < k->nvregs; v++)
		rd->first[v + 1] = rd->first[v] + k->vregs[v].width;
	size_t nparts = rd->first[k->nvregs];
	rd->start = xcalloc(nparts + 2, sizeof *rd->start);
	for (size_t i = 0; i < k->ninsns; i++)
		for (unsigned r = 0; r < k->insns[i].nrefs; r++) {
			const LRegRef *ref = &k->insns[i].refs[r];
			for (unsigned p = 0; !ref->def && p < ref->count; p++)
				rd->start[rd->first[ref->vreg] + ref->sub + p + 2]++;
		}
	for (size_t p = 2; p < nparts + 2; p++)
		rd->start[p] += rd->start[p - 1];
	rd->insn = xcalloc(rd->start[nparts + 1] + 1, sizeof *rd->insn);
	for (size_t i = 0; i < k->ninsns; i++)
		for (unsigned r = 0; r < k->insns[i].nrefs; r++) {
			const LRegRef *ref = &k->insns[i].refs[r];
			for (unsigned p = 0; !ref->def && p < ref->count; p++)
				rd->insn[rd->start[rd->first[ref->vreg] + ref->sub + p + 1]++] = (uint32_t)i;
		}
}

static void readers_free(Readers *rd)
{
	free(rd->first);
	free(rd->start);
	free(rd->insn);
}

/* The follow of one texture instruction's results: parts seen (stamped
 * with its index + 1) and a stack of parts still to follow. */
typedef struct Follow {
	uint32_t *stamp;
	size_t *stack;
	size_t n;
	uint32_t mark;
} Follow;

static void push_defs(const Readers *rd, Follow *f, const LInsn *in)
{
	for (unsigned r = 0; r < in->nrefs; r++) {
		const LRegRef *ref = &in->refs[r];
		for (unsigned p = 0; ref->def && p < ref->count; p++) {
			size_t part = rd->first[ref->vreg] + ref->sub + p;
			if (f->stamp[part] != f->mark) {
				f->stamp[part] = f->mark;
				f->stack[f->n++] = part;
			}
		}
	}
}

/* Whether instruction i reads `part` under its guard. */
static bool guarded_by(const Readers *rd, const LInsn *in, size_t part)
{
	for (unsigned r = 0; r < in->nrefs; r++) {
		const LRegRef *ref = &in->refs[r];
		if (!ref->def && ref->role == SR_PG && rd->first[ref->vreg] + ref->sub == part)
			return true;
	}
	return false;
}

/* Whether everything derived from texture instruction t reaches only
 * surface instructions. */
static bool only_surfaces(const LKernel *k, const Readers *rd, Follow *f, size_t t)
{
	f->mark = (uint32_t)t + 1;
	f->n = 0;
	push_defs(rd, f, &k->insns[t]);
	while (f->n > 0) {
		size_t part = f->stack[--f->n];
		for (size_t x = rd->start[part]; x < rd->start[part + 1]; x++) {
			const LInsn *in = &k->insns[rd->insn[x]];
			SassOp op = in->form->op;
			if (blocks(op))
				return false;
			for (unsigned r = 0; r < in->nrefs; r++)
				if (in->refs[r].role == LROLE_ABI)
					return false;
			/* a guard: arithmetic under it selects (selp), a surface
			 * instruction under it is one ptxas branches around */
			bool store = op == SOP_SUST_D || op == SOP_SUST_P || op == SOP_SURED_D || op == SOP_SURED_P;
			if ((store || op == SOP_SULD_D || op == SOP_SULD_P) && guarded_by(rd, in, part))
				return false;
			/* SUST/SURED end the chain; SULD passes it on, as arithmetic does */
			if (!store)
				push_defs(rd, f, in);
		}
	}
	return true;
}

void tex_nodep(LKernel *k)
{
	Readers rd;
	readers_build(k, &rd);
	size_t nparts = rd.first[k->nvregs];
	Follow f = { .stamp = xcalloc(nparts + 1, sizeof *f.stamp), .stack = xcalloc(nparts + 1, sizeof *f.stack) };
	for (size_t i = 0; i < k->ninsns; i++) {
		LInsn *in = &k->insns[i];
		if (is_texture(in->form->op) && sass_form_field(in->form, SR_NODEP))
			linsn_set(in, SR_NODEP, only_surfaces(k, &rd, &f, i));
	}
	free(f.stamp);
	free(f.stack);
	readers_free(&rd);
}

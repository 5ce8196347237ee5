/* Spilling general registers to the stack frame (see spill.h).
 *
 * The slot lies above the kernel's .local variables and the frames of the
 * functions it calls (k->frame_size grows by it), at R1 + offset like
 * ptxas 11.8's spill slots (STL [R1+0x78], R2 at -O0). A vreg of 1, 2 or 4
 * parts moves with one LDL/STL of 32, 64 or 128 bits, its slot aligned to
 * its size; other widths move word by word. Each instruction gets its own
 * vreg for the value, live only from the load to the instruction (or from
 * the instruction to the store), so the allocator can always place it. */
#include "lower/spill.h"

#include "lower/liveness.h"
#include "lower/regalloc.h"

#include "base/xalloc.h"
#include "sm50/sass_table.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static LInsn memory_op(const LInsn *at, bool load, uint32_t vreg, unsigned sub, unsigned count, uint32_t offset)
{
	LInsn in;
	memset(&in, 0, sizeof in);
	in.form = &sass_forms[load ? SF_LDL : SF_STL];
	in.target = -1;
	in.loc = at->loc;
	linsn_ref(&in, load ? SR_RD : SR_RB, vreg, sub, count, load);
	linsn_set(&in, SR_RA, REGALLOC_STACK_REG);
	linsn_set(&in, SR_SIZE, (uint32_t)sass_size_code(4 * count));
	linsn_set(&in, SR_IMM, offset);
	in.stack_reg = LSTACK_READ;
	return in;
}

/* Appends the moves of the whole vreg t to or from the slot at offset. */
static size_t moves(LInsn *out, const LInsn *at, bool load, uint32_t t, unsigned width, uint32_t offset)
{
	if (width == 1 || width == 2 || width == 4) {
		out[0] = memory_op(at, load, t, 0, width, offset);
		return 1;
	}
	for (unsigned p = 0; p < width; p++)
		out[p] = memory_op(at, load, t, p, 1, offset + 4 * p);
	return width;
}

/* The slot of each spilled vreg (UINT32_MAX: none). */
static uint32_t *assign_slots(LKernel *k, const uint32_t *v, size_t n)
{
	uint32_t *slot = xmalloc((k->nvregs + 1) * sizeof *slot);
	memset(slot, 0xff, (k->nvregs + 1) * sizeof *slot);
	for (size_t x = 0; x < n; x++) {
		unsigned width = k->vregs[v[x]].width;
		uint32_t align = width == 1 ? 4 : width == 2 ? 8 : 16;
		slot[v[x]] = (k->frame_size + align - 1) / align * align;
		k->frame_size = slot[v[x]] + 4 * width;
	}
	return slot;
}

/* Rewrites one instruction's references of the spilled vreg sv (slot at
 * offset) to a new vreg, or to `reuse` (UINT32_MAX: none), the one of the
 * instruction just before, which still holds the value: no load then. Appends
 * the loads before it to pre, the stores after it to post; returns the vreg. */
static uint32_t rewrite_refs(LKernel *k, LInsn *at, uint32_t sv, uint32_t offset, uint32_t reuse, LInsn *pre,
                             size_t *npre, LInsn *post, size_t *npost)
{
	unsigned width = k->vregs[sv].width;
	bool reads = false, writes = false;
	for (unsigned r = 0; r < at->nrefs; r++) {
		const LRegRef *ref = &at->refs[r];
		if (ref->vreg != sv)
			continue;
		writes |= ref->def;
		/* a guarded or partial write keeps the other value: load it first */
		reads |= !ref->def || linsn_is_guarded(at) || ref->count < width;
	}
	uint32_t t = reuse != UINT32_MAX ? reuse : lkernel_new_vreg(k, LRC_GPR, width, false);
	for (unsigned r = 0; r < at->nrefs; r++)
		if (at->refs[r].vreg == sv)
			at->refs[r].vreg = t;
	if (reads && reuse == UINT32_MAX)
		*npre += moves(pre + *npre, at, true, t, width, offset);
	if (writes)
		*npost += moves(post + *npost, at, false, t, width, offset);
	return t;
}

/* Whether every path through the code runs forward: no branch to a label
 * at or before it, no call, return or indirect jump (a linked function's
 * body runs once per call: its RET goes back). */
static bool runs_forward(const LKernel *k)
{
	for (size_t i = 0; i < k->ninsns; i++) {
		const LInsn *in = &k->insns[i];
		SassOp op = in->form->op;
		if (op == SOP_CAL || op == SOP_JCAL || op == SOP_RET || op == SOP_BRX || op == SOP_JMX || op == SOP_PRET)
			return false;
		if (in->target >= 0 && (size_t)in->target < k->nlabels && k->label_pos[in->target] <= i)
			return false;
	}
	return true;
}

/* ptxas reads the last use of a slot with LDL.LU (last use: the line need
 * not stay cached). Where every path runs forward, the last reload of a
 * slot in code order is the last on every path: it becomes .LU. is_reload
 * marks this round's reloads (each slot's reloads all come from one
 * round: the vregs a round makes are never spilled again). */
enum { LDL_COP_LU = 1 };
static void mark_last_reloads(LKernel *k, const bool *is_reload)
{
	if (!runs_forward(k))
		return;
	uint32_t *seen = xmalloc((k->ninsns + 1) * sizeof *seen);
	size_t nseen = 0;
	for (size_t i = k->ninsns; i-- > 0;) {
		if (!is_reload[i])
			continue;
		uint32_t off = (uint32_t)linsn_get(&k->insns[i], SR_IMM, 0);
		size_t s = 0;
		while (s < nseen && seen[s] != off)
			s++;
		if (s < nseen)
			continue;
		seen[nseen++] = off;
		linsn_set(&k->insns[i], SR_COP, LDL_COP_LU);
	}
	free(seen);
}

void spill_vregs(LKernel *k, const uint32_t *v, size_t nv)
{
	size_t nslots = k->nvregs;      /* the vregs rewriting makes have no slot */
	uint32_t *slot = assign_slots(k, v, nv);
	/* per spilled vreg, its vreg in the instruction last rewritten, and
	 * that instruction: the next one, unless a label leads to it, reads
	 * the value from there (the three XMADs of one multiply, say) */
	uint32_t *last_t = xmalloc((nslots + 1) * sizeof *last_t);
	size_t *last_i = xmalloc((nslots + 1) * sizeof *last_i);
	bool *labelled = xcalloc(k->ninsns + 1, sizeof *labelled);
	for (size_t l = 0; l < k->nlabels; l++)
		if (k->label_pos[l] < k->ninsns)
			labelled[k->label_pos[l]] = true;
	size_t extra = 0;
	for (size_t i = 0; i < k->ninsns; i++)
		for (unsigned r = 0; r < k->insns[i].nrefs; r++) {
			uint32_t sv = k->insns[i].refs[r].vreg;
			extra += slot[sv] != UINT32_MAX ? 2 * (size_t)k->vregs[sv].width : 0;
			last_i[sv] = SIZE_MAX;
		}
	LInsn *ins = xcalloc(k->ninsns + extra + 1, sizeof *ins);
	bool *is_reload = xcalloc(k->ninsns + extra + 1, sizeof *is_reload);
	LInsn *post = xcalloc(extra + 1, sizeof *post);
	size_t *newpos = xcalloc(k->ninsns + 1, sizeof *newpos), n = 0, old = k->ninsns;
	for (size_t i = 0; i < k->ninsns; i++) {
		LInsn at = k->insns[i];
		size_t npost = 0, npre = 0;
		newpos[i] = n;
		for (unsigned r = 0; r < at.nrefs; r++) {
			uint32_t sv = at.refs[r].vreg;
			if (sv >= nslots || slot[sv] == UINT32_MAX)
				continue;
			bool follows = i > 0 && last_i[sv] == i - 1 && !labelled[i];
			last_t[sv] = rewrite_refs(k, &at, sv, slot[sv], follows ? last_t[sv] : UINT32_MAX, ins + n, &npre,
			                          post, &npost);
			last_i[sv] = i;
		}
		for (size_t p = 0; p < npre; p++)
			is_reload[n + p] = true;
		n += npre;
		ins[n++] = at;
		memcpy(ins + n, post, npost * sizeof *post);
		n += npost;
	}
	free(last_t);
	free(last_i);
	free(labelled);
	/* a label stays on the loads before its instruction; one after a store
	 * stays on the instruction it named */
	for (size_t l = 0; l < k->nlabels; l++)
		k->label_pos[l] = k->label_pos[l] < k->ninsns ? newpos[k->label_pos[l]] : n;
	free(k->insns);
	k->insns = ins;
	k->ninsns = n;
	k->cap = old + extra + 1;
	free(newpos);
	free(post);
	free(slot);
	mark_last_reloads(k, is_reload);
	free(is_reload);
}

/* The kernel starts MOV R1, c[0x0][0x20] (driver/assemble.c), then
 * IADD32I R1, R1, -frame when it had a frame before spilling. */

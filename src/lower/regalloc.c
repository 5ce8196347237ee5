/* Dead-code removal, copy coalescing and linear-scan register allocation
 * over the liveness of liveness.c. */
#include "lower/regalloc.h"

#include "lower/abi_save.h"
#include "lower/call_save.h"
#include "lower/liveness.h"
#include "lower/pred_spill.h"
#include "lower/regalloc_exact.h"
#include "lower/spill.h"
#include "lower/tex_narrow.h"
#include "lower/tex_nodep.h"

#include "base/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- dead code ------------------------------------------------------------ */

/* Drops the instructions marked in dead[], keeping labels on the
 * instruction that follows. */
static void delete_marked(LKernel *k, const bool *dead)
{
	size_t *newpos = xcalloc(k->ninsns + 1, sizeof *newpos);
	size_t j = 0;
	for (size_t i = 0; i < k->ninsns; i++) {
		newpos[i] = j;
		if (!dead[i]) {
			if (j != i)
				k->insns[j] = k->insns[i];
			j++;
		}
	}
	newpos[k->ninsns] = j;
	for (size_t l = 0; l < k->nlabels; l++)
		k->label_pos[l] = newpos[k->label_pos[l]];
	k->ninsns = j;
	free(newpos);
}

enum { REG_RZ = 255 };     /* the zero register, a fixed field value */

/* Whether a later instruction may read the condition code instruction i
 * writes: scanning its straight run of code, a reader comes before an
 * unguarded writer, or the thread ends (EXIT). A label or another
 * control-flow instruction ends the scan with `beyond` (the code may go on
 * elsewhere: yes for an RZ.CC, whose flag is all it computes; no for a
 * dead sum, as a carry chain does not cross a branch). The lowering places
 * other instructions between a CC write and its reader (ISETP.X after
 * operands moved into registers, subc's LOP ~b after a sub.cc), so the
 * next instruction alone does not decide. */
static bool cc_read_later(const LKernel *k, size_t i, const bool *label_at, bool beyond)
{
	for (size_t j = i + 1; j < k->ninsns; j++) {
		const LInsn *in = &k->insns[j];
		if (in->form->op == SOP_EXIT && !linsn_is_guarded(in) && !label_at[j])
			return false;
		if (in->reads_cc && !label_at[j])
			return true;
		if (label_at[j] || in->form->cls == SASS_CLASS_FLOW)
			return beyond;
		if (in->writes_cc && !linsn_is_guarded(in))
			return false;
	}
	return false;
}

static bool has_side_effects(const LKernel *k, size_t i, const bool *label_at)
{
	const LInsn *in = &k->insns[i];
	switch (in->form->op) {
	case SOP_STG: case SOP_SUST_D: case SOP_SUST_P: case SOP_SURED_D: case SOP_SURED_P: case SOP_BRA: case SOP_EXIT: case SOP_NOP: case SOP_DEPBAR:
		return true;
	case SOP_CAL: case SOP_RET: case SOP_BPT: case SOP_JCAL:
		return true;
	case SOP_STS: case SOP_STL: case SOP_ST:
		return true;
	default:
		break;
	}
	/* a carry a later instruction of the run reads keeps its writer,
	 * however dead the sum (sub.cc whose difference is unused, before
	 * subc's LOP ~b) */
	if (in->keep || (in->writes_cc && ((i + 1 < k->ninsns && k->insns[i + 1].reads_cc) ||
	                                   cc_read_later(k, i, label_at, false))))
		return true;
	for (unsigned r = 0; r < in->nrefs; r++)
		if (in->refs[r].def)
			return false;
	/* RZ.CC: only its condition code can be used (the IADD RZ.CC ending
	 * an unused 64-bit mul.hi or compare is not) */
	if (in->writes_cc && !in->stack_reg && sass_form_field(in->form, SR_RD) && linsn_get(in, SR_RD, 0) == REG_RZ)
		return cc_read_later(k, i, label_at, true);
	return true;    /* writes only fixed registers (MOV R1) */
}

/* A vector SULD whose last elements are never read loads less, as ptxas
 * 11.8 does (at -O0 too): the size becomes the smallest of 32, 64 and 128
 * bits that covers the last element read (a dead SULD is removed like any
 * other load). The destination is its first def reference. Returns whether
 * the size changed. */
static bool narrow_suld(LInsn *in, size_t i, const Liveness *lv)
{
	if (!in->narrow_parts || in->nrefs == 0)
		return false;
	LRegRef *d = NULL;
	for (unsigned r = 0; r < in->nrefs && !d; r++)
		if (in->refs[r].def)
			d = &in->refs[r];
	if (!d || d->count < 2)
		return false;
	unsigned need = 0;
	for (unsigned p = 0; p < d->count; p++)
		if (live_out(lv, lv->first_part[d->vreg] + d->sub + p, i))
			need = p + 1;
	need = (need + in->narrow_parts - 1) / in->narrow_parts * in->narrow_parts;
	unsigned parts = need <= 1 ? 1 : need <= 2 ? 2 : 4;
	if (need == 0 || parts >= d->count)
		return false;
	d->count = (uint8_t)parts;
	linsn_set(in, SR_SIZE, parts == 1 ? 4 : 5);     /* 32 or 64 bits */
	return true;
}

/* Removes the instructions whose results lv (the kernel's liveness) shows
 * unread and narrows vector SULDs and texture results; returns whether anything changed (lv is
 * then out of date). */
static bool remove_dead(LKernel *k, const Liveness *lv)
{
	bool *dead = xcalloc(k->ninsns + 1, sizeof *dead), *label_at = xcalloc(k->ninsns + 1, sizeof *label_at);
	for (size_t l = 0; l < k->nlabels; l++)
		if (k->label_pos[l] <= k->ninsns)
			label_at[k->label_pos[l]] = true;
	bool any = false;
	for (size_t i = 0; i < k->ninsns; i++) {
		if (has_side_effects(k, i, label_at))
			continue;
		const LInsn *in = &k->insns[i];
		bool live = false;
		for (unsigned r = 0; r < in->nrefs && !live; r++)
			if (in->refs[r].def)
				for (unsigned p = 0; p < in->refs[r].count; p++)
					live |= live_out(lv, lv->first_part[in->refs[r].vreg] + in->refs[r].sub + p, i);
		dead[i] = !live;
		any |= dead[i] || (live && (narrow_suld(&k->insns[i], i, lv) || tex_narrow(k, i, lv)));
	}
	if (any)
		delete_marked(k, dead);
	free(dead);
	free(label_at);
	return any;
}


/* ---- live intervals ------------------------------------------------------ */

typedef struct Interval {
	long start, end;        /* half-steps: 2i = read at i, 2i+1 = write at i */
	uint32_t vreg;
} Interval;

static int by_start(const void *a, const void *b)
{
	const Interval *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->vreg < y->vreg ? -1 : x->vreg > y->vreg;
}

static void extend(Interval *x, long pos)
{
	if (x->start < 0 || pos < x->start)
		x->start = pos;
	if (pos > x->end)
		x->end = pos;
}

/* Extends x over the first and last instruction of a live set; odd: an out set. */
static void extend_set(Interval *x, const LiveSet *set, int odd)
{
	if (set->n == 0)
		return;
	extend(x, 2 * (long)set->r[0].lo + odd);
	extend(x, 2 * ((long)set->r[set->n - 1].hi - 1) + odd);
}

/* Each vreg's interval covers every point where one of its parts is live
 * and every reference. */
static void build_intervals(const LKernel *k, const Liveness *lv, Interval *iv)
{
	for (size_t v = 0; v < k->nvregs; v++) {
		iv[v] = (Interval){ -1, -1, (uint32_t)v };
		for (unsigned p = 0; p < k->vregs[v].width; p++) {
			size_t b = lv->first_part[v] + p;
			extend_set(&iv[v], &lv->in[b], 0);
			extend_set(&iv[v], &lv->out[b], 1);
		}
	}
	for (size_t i = 0; i < k->ninsns; i++) {
		const LInsn *in = &k->insns[i];
		for (unsigned r = 0; r < in->nrefs; r++) {
			const LRegRef *ref = &in->refs[r];
			extend(&iv[ref->vreg], ref->def ? (long)(2 * i + 1) : (long)(2 * i));
		}
	}
}

/* ---- copy coalescing ------------------------------------------------------ */

static unsigned alignment_of(unsigned width);

static const SassForm *copy_form(void)
{
	return &sass_forms[SF_MOV_R];
}

/* Whether the instruction is MOV_R a <- b, unguarded, between general
 * registers. Renaming one vreg to another of the same class keeps the
 * answer, so a coalescing round works it out once per instruction. */
static bool is_copy(const LKernel *k, const LInsn *in)
{
	if (in->form != copy_form() || linsn_is_guarded(in) || in->nrefs != 2)
		return false;
	const LRegRef *d = &in->refs[0], *s = &in->refs[1];
	if (d->role != SR_RD || s->role != SR_RB || !d->def || s->def)
		return false;
	return k->vregs[d->vreg].cls == LRC_GPR && k->vregs[s->vreg].cls == LRC_GPR;
}

/* A recursive function's parameter or result word (lower_call.c). */
static bool frame_word(const LKernel *k, uint32_t v)
{
	return k->vregs[v].call_param || k->vregs[v].call_result;
}

/* The parts a copy writes (a) and reads (b). */
static void copy_parts(const Liveness *lv, const LInsn *in, size_t *a, size_t *b)
{
	*a = lv->first_part[in->refs[0].vreg] + in->refs[0].sub;
	*b = lv->first_part[in->refs[1].vreg] + in->refs[1].sub;
}

/* Per part, the instructions that define it, so that an interference
 * test looks only at the definitions of one part inside the other's
 * interval instead of the whole kernel. A merge joins the sets as it joins
 * the parts' liveness. */
typedef struct DefSites {
	size_t nparts;
	LiveSet *defs;
} DefSites;

static void def_sites_build(const LKernel *k, const Liveness *lv, DefSites *ds)
{
	ds->nparts = lv->nparts;
	ds->defs = xcalloc(lv->nparts + 1, sizeof *ds->defs);
	for (size_t i = 0; i < k->ninsns; i++)
		for (unsigned r = 0; r < k->insns[i].nrefs; r++) {
			const LRegRef *ref = &k->insns[i].refs[r];
			if (ref->def && k->vregs[ref->vreg].cls == LRC_GPR)
				for (unsigned p = 0; p < ref->count; p++)
					live_set_append(&ds->defs[lv->first_part[ref->vreg] + ref->sub + p], (uint32_t)i,
					                (uint32_t)i + 1);
		}
}

static void def_sites_free(DefSites *ds)
{
	for (size_t b = 0; b < ds->nparts; b++)
		live_set_free(&ds->defs[b]);
	free(ds->defs);
}

/* Whether instruction i defines part `a` and, unless it is a copy between a
 * and b, leaves b live (or defines b as well). */
static bool def_clashes(const LKernel *k, const Liveness *lv, const bool *copy, size_t i, size_t a, size_t b)
{
	const LInsn *in = &k->insns[i];
	for (unsigned r = 0; r < in->nrefs; r++) {
		const LRegRef *ref = &in->refs[r];
		if (!ref->def || k->vregs[ref->vreg].cls != LRC_GPR)
			continue;
		size_t first = lv->first_part[ref->vreg] + ref->sub;
		if (b >= first && b < first + ref->count)
			return true;
	}
	if (copy[i]) {
		size_t ca, cb;
		copy_parts(lv, in, &ca, &cb);
		/* a copy between the two, or one left behind by a merge (x <- x), defines nothing new */
		if ((ca == a && cb == b) || (ca == b && cb == a) || ca == cb)
			return false;
	}
	return live_out(lv, b, i);
}

/* Chaitin's test: parts a and b interfere when one is defined while the
 * other is live afterwards, unless the definition is a copy between them.
 * Only definitions of a inside span_b, the interval of b's vreg (which
 * covers every reference of b and every point where it is live), can clash
 * with b. */
static bool defs_clash(const LKernel *k, const Liveness *lv, const DefSites *ds, const bool *copy,
                       size_t a, size_t b, const Interval *span_b)
{
	if (span_b->start < 0)
		return false;
	/* the instructions whose write half-step 2i + 1 lies in the span */
	size_t lo = (size_t)span_b->start / 2, hi = (size_t)(span_b->end + 1) / 2;
	const LiveSet *d = &ds->defs[a];
	/* the first range ending after lo */
	size_t x = 0, h = d->n;
	while (x < h) {
		size_t mid = (x + h) / 2;
		if (d->r[mid].hi <= lo)
			x = mid + 1;
		else
			h = mid;
	}
	for (; x < d->n && d->r[x].lo < hi; x++)
		for (size_t i = d->r[x].lo > lo ? d->r[x].lo : lo; i < d->r[x].hi && i < hi; i++)
			if (def_clashes(k, lv, copy, i, a, b))
				return true;
	return false;
}

static bool parts_interfere(const LKernel *k, const Liveness *lv, const DefSites *ds, const bool *copy,
                            size_t a, const Interval *span_a, size_t b, const Interval *span_b)
{
	return defs_clash(k, lv, ds, copy, a, b, span_b) || defs_clash(k, lv, ds, copy, b, a, span_a);
}

/* Part src joins part dst: dst is live wherever either was, and has the
 * definitions of both (the liveness stays exact for non-interfering parts). */
static void merge_parts(Liveness *lv, DefSites *ds, size_t dst, size_t src)
{
	live_set_union(&lv->in[dst], &lv->in[src], &lv->scratch);
	live_set_union(&lv->out[dst], &lv->out[src], &lv->scratch);
	live_set_union(&ds->defs[dst], &ds->defs[src], &lv->scratch);
}

/* Where each vreg is referenced: one list per vreg of (instruction,
 * operand) nodes, so that a merge renames exactly the references of its
 * source, and the lists join as the vregs do. */
typedef struct RefLists {
	uint32_t *head, *tail;  /* vreg -> first / last node, NO_NODE when none */
	uint32_t *next;         /* node -> next node of the same vreg */
	uint32_t *insn;         /* node -> instruction */
	uint8_t *slot;          /* node -> index in its refs[] */
} RefLists;

enum { NO_NODE = UINT32_MAX };

static void ref_lists_build(const LKernel *k, RefLists *rl)
{
	size_t nodes = 0;
	for (size_t i = 0; i < k->ninsns; i++)
		nodes += k->insns[i].nrefs;
	rl->head = xmalloc((k->nvregs + 1) * sizeof *rl->head);
	rl->tail = xmalloc((k->nvregs + 1) * sizeof *rl->tail);
	rl->next = xmalloc((nodes + 1) * sizeof *rl->next);
	rl->insn = xmalloc((nodes + 1) * sizeof *rl->insn);
	rl->slot = xmalloc(nodes + 1);
	for (size_t v = 0; v < k->nvregs; v++)
		rl->head[v] = rl->tail[v] = NO_NODE;
	uint32_t x = 0;
	for (size_t i = 0; i < k->ninsns; i++)
		for (unsigned r = 0; r < k->insns[i].nrefs; r++, x++) {
			uint32_t v = k->insns[i].refs[r].vreg;
			rl->insn[x] = (uint32_t)i;
			rl->slot[x] = (uint8_t)r;
			rl->next[x] = NO_NODE;
			if (rl->head[v] == NO_NODE)
				rl->head[v] = x;
			else
				rl->next[rl->tail[v]] = x;
			rl->tail[v] = x;
		}
}

static void ref_lists_free(RefLists *rl)
{
	free(rl->head);
	free(rl->tail);
	free(rl->next);
	free(rl->insn);
	free(rl->slot);
}

/* Renames every use of src to parts [off, off + width) of dst. */
static void rename_vreg(LKernel *k, RefLists *rl, uint32_t src, uint32_t dst, unsigned off)
{
	if (rl->head[src] != NO_NODE) {
		for (uint32_t x = rl->head[src]; x != NO_NODE; x = rl->next[x]) {
			LRegRef *ref = &k->insns[rl->insn[x]].refs[rl->slot[x]];
			ref->vreg = dst;
			ref->sub = (uint8_t)(ref->sub + off);
		}
		if (rl->head[dst] == NO_NODE)
			rl->head[dst] = rl->head[src];
		else
			rl->next[rl->tail[dst]] = rl->head[src];
		rl->tail[dst] = rl->tail[src];
		rl->head[src] = rl->tail[src] = NO_NODE;
	}
	k->vregs[dst].temp = k->vregs[dst].temp && k->vregs[src].temp;
}

/* One round over lv, the kernel's liveness, and span, its intervals:
 * merges the source of every copy into its destination when no part of
 * the two interferes (a copy into a coordinate or data group makes the
 * source live in the group directly). Liveness and definitions are
 * updated per merge, so chains of copies merge in one round. Returns
 * whether anything merged; lv and span are then out of date. */
static bool coalesce_round(LKernel *k, Liveness *lv, Interval *span)
{
	DefSites ds;
	def_sites_build(k, lv, &ds);
	RefLists rl;
	ref_lists_build(k, &rl);
	bool *copy = xcalloc(k->ninsns + 1, sizeof *copy);
	for (size_t i = 0; i < k->ninsns; i++)
		copy[i] = is_copy(k, &k->insns[i]);
	bool merged = false;
	for (size_t i = 0; i < k->ninsns; i++) {
		const LInsn *in = &k->insns[i];
		if (!copy[i])
			continue;
		uint32_t d = in->refs[0].vreg, s = in->refs[1].vreg;
		int off = (int)in->refs[0].sub - (int)in->refs[1].sub;
		unsigned sw = k->vregs[s].width;
		/* the calling convention's registers keep their own short ranges,
		 * and so do a recursive function's parameter and result words: they
		 * pass between frames R1 apart and must never spill
		 * (regalloc_exact.c), so what lives longer on either side does not
		 * become one of them */
		if (k->vregs[d].fixed || k->vregs[s].fixed || (k->recursive && (frame_word(k, d) || frame_word(k, s))))
			continue;
		if (d == s || off < 0 || (unsigned)off + sw > k->vregs[d].width ||
		    off % (int)alignment_of(sw) != 0)
			continue;
		bool clash = false;
		for (unsigned p = 0; p < sw && !clash; p++)
			clash = parts_interfere(k, lv, &ds, copy, lv->first_part[d] + (unsigned)off + p, &span[d],
			                        lv->first_part[s] + p, &span[s]);
		if (clash)
			continue;
		for (unsigned p = 0; p < sw; p++)
			merge_parts(lv, &ds, lv->first_part[d] + (unsigned)off + p, lv->first_part[s] + p);
		rename_vreg(k, &rl, s, d, (unsigned)off);
		if (span[s].start >= 0) {
			extend(&span[d], span[s].start);
			extend(&span[d], span[s].end);
		}
		merged = true;
	}
	ref_lists_free(&rl);
	def_sites_free(&ds);
	free(copy);
	if (!merged)
		return false;
	/* the copies are now MOV x <- x */
	bool *dead = xcalloc(k->ninsns + 1, sizeof *dead);
	for (size_t i = 0; i < k->ninsns; i++) {
		const LInsn *in = &k->insns[i];
		dead[i] = in->form == copy_form() && !linsn_is_guarded(in) && in->nrefs == 2 &&
		          in->refs[0].vreg == in->refs[1].vreg && in->refs[0].sub == in->refs[1].sub;
	}
	delete_marked(k, dead);
	free(dead);
	return true;
}

/* After allocation: a copy whose source got its destination's register
 * (a recursive function's parameter or result word and the value on the
 * other side, which are not coalesced) does nothing. */
static void drop_self_copies(LKernel *k)
{
	bool *dead = NULL;
	for (size_t i = 0; i < k->ninsns; i++) {
		const LInsn *in = &k->insns[i];
		if (in->form != copy_form() || linsn_is_guarded(in) ||
		    linsn_get(in, SR_RD, REG_RZ) != linsn_get(in, SR_RB, REG_RZ))
			continue;
		if (!dead)
			dead = xcalloc(k->ninsns + 1, sizeof *dead);
		dead[i] = true;
	}
	if (dead)
		delete_marked(k, dead);
	free(dead);
}

/* ---- allocation ----------------------------------------------------------- */

static unsigned alignment_of(unsigned width)
{
	return width == 1 ? 1 : width == 2 ? 2 : 4;
}

/* ---- the calling convention of external functions (issue 15) ----
 * A JCAL's arguments and results are vregs fixed to R4..R15; the callee
 * may change R0 and R2..R15 and every predicate, so a value live across a
 * JCAL takes a register from R16 up. */

typedef struct FixedRanges {
	Interval *fixed;        /* intervals of the fixed vregs */
	size_t nfixed;
	long *calls;            /* write half-steps of the JCALs */
	size_t ncalls;
} FixedRanges;

static void fixed_ranges_build(const LKernel *k, const Interval *iv, FixedRanges *fr)
{
	memset(fr, 0, sizeof *fr);
	for (size_t n = 0; n < k->nvregs; n++)
		if (k->vregs[iv[n].vreg].fixed && iv[n].start >= 0) {
			fr->fixed = xrealloc(fr->fixed, (fr->nfixed + 1) * sizeof *fr->fixed);
			fr->fixed[fr->nfixed++] = iv[n];
		}
	for (size_t i = 0; i < k->ninsns; i++)
		if (k->insns[i].form->op == SOP_JCAL) {
			fr->calls = xrealloc(fr->calls, (fr->ncalls + 1) * sizeof *fr->calls);
			fr->calls[fr->ncalls++] = 2 * (long)i + 1;
		}
}

static bool crosses_call(const FixedRanges *fr, const Interval *x)
{
	for (size_t c = 0; c < fr->ncalls; c++)
		if (x->start < fr->calls[c] && x->end > fr->calls[c])
			return true;
	return false;
}

/* Whether registers [b, b + w) are free of fixed vregs over x. */
static bool clear_of_fixed(const LKernel *k, const FixedRanges *fr, const Interval *x, int b, unsigned w)
{
	for (size_t f = 0; f < fr->nfixed; f++) {
		const Interval *y = &fr->fixed[f];
		const LVReg *v = &k->vregs[y->vreg];
		if (v->cls == LRC_GPR && v->phys < b + (int)w && v->phys + (int)v->width > b &&
		    y->start <= x->end && x->start <= y->end)
			return false;
	}
	return true;
}

/* The kernel's liveness and intervals, computed again only after a pass
 * changed the instructions: removing dead code until none is left, and
 * coalescing until a round merges nothing, each end with a pass that
 * changed nothing and whose liveness the next one takes over. */
typedef struct Analysis {
	bool valid;
	Liveness lv;
	Interval *iv;
} Analysis;

static void analysis_update(const LKernel *k, Analysis *a)
{
	if (a->valid)
		return;
	liveness_compute(k, &a->lv);
	a->iv = xcalloc(k->nvregs + 1, sizeof *a->iv);
	build_intervals(k, &a->lv, a->iv);
	a->valid = true;
}

static void analysis_drop(Analysis *a)
{
	if (!a->valid)
		return;
	liveness_free(&a->lv);
	free(a->iv);
	a->valid = false;
}

/* Moves predicates into general registers until at most seven are live at
 * once (pred_spill.c); when even the rest do not fit, allocation reports it. */
static void spill_predicates(LKernel *k, Analysis *an)
{
	size_t first_temp = k->nvregs;
	for (;;) {
		analysis_update(k, an);
		long *start = xcalloc(k->nvregs + 1, sizeof *start), *end = xcalloc(k->nvregs + 1, sizeof *end);
		for (size_t v = 0; v < k->nvregs; v++) {
			start[v] = an->iv[v].start;
			end[v] = an->iv[v].end;
		}
		long n = pred_spill(k, start, end, first_temp);
		free(start);
		free(end);
		if (n <= 0)
			return;
		analysis_drop(an);
	}
}

/* Why a kernel cannot be allocated in R0..R<top>: past the 255 registers
 * of sm_50, or past its limit (k->maxreg_count, named after the directive
 * it comes from). Returns REGALLOC_OVER_LIMIT or -1. */
static int cannot_fit(const LKernel *k, int top, const char *why, char *err, size_t errlen)
{
	if (top == REGALLOC_MAX_GPR) {
		snprintf(err, errlen, "kernel '%s' needs more than %d general registers at once (%s)", k->name,
		         REGALLOC_MAX_GPR + 1, why);
		return -1;
	}
	snprintf(err, errlen, "kernel '%s' cannot keep within its limit of %d registers (from %s): %s", k->name,
	         top + 1, k->maxreg_from, why);
	return REGALLOC_OVER_LIMIT;
}

/* When the linear scan finds no general register in R0..R<top>:
 * allocation by exact live sets over the scoped liveness of calls
 * (regalloc_exact.c), keeping the values it names in local memory
 * (spill.c) while even that does not fit. In a kernel that calls a
 * recursive function the calls' frames then move down past the slots
 * (call_save_shift), so every invocation has slots of its own. */
static int allocate_exact(LKernel *k, int top, char *err, size_t errlen)
{
	uint32_t floor = (uint32_t)k->nvregs;
	for (bool spilled = false;; spilled = true) {
		ExactResult res;
		int rc = regalloc_exact(k, floor, top, &res, err, errlen);
		if (rc == 0 && spilled) {
			/* ptxas 11.8 rounds a frame with spill slots up to 8 bytes
			 * (356 bytes of spill stores: a 360-byte frame) */
			k->frame_size = (k->frame_size + 7) / 8 * 8;
			lkernel_frame_adjust(k);
			if (k->recursive)
				call_save_shift(k);
		}
		if (rc == 0) {
			regalloc_apply(k, res.max_gpr);
			drop_self_copies(k);
		}
		if (rc == 1 && res.stuck_frame_words)
			rc = cannot_fit(k, top, "the argument and result words of a call of a recursive function, "
			                "passed in registers between call frames, need more at once than that leaves",
			                err, errlen);
		else if (rc == 1 && res.stuck)
			rc = cannot_fit(k, top, "one instruction needs more at once than that leaves, even with every "
			                "other value in local memory", err, errlen);
		if (rc == 1)
			spill_vregs(k, res.victims, res.nvictims);
		free(res.victims);
		if (rc <= 0)
			return rc;
	}
}

int regalloc_kernel(LKernel *k, char *err, size_t errlen)
{
	Analysis an = { .valid = false };
	for (;;) {
		analysis_update(k, &an);
		if (!remove_dead(k, &an.lv))
			break;
		analysis_drop(&an);
	}
	if (tex_general(k))
		analysis_drop(&an);
	tex_nodep(k);
	analysis_update(k, &an);
	if (pred_save_across_calls(k, &an.lv) > 0)
		analysis_drop(&an);
	int saved = call_save_live(k, err, errlen);
	if (saved != 0)
		analysis_drop(&an);
	if (saved < 0)
		return -1;
	for (int round = 0; round < 16; round++) {
		analysis_update(k, &an);
		if (!coalesce_round(k, &an.lv, an.iv))
			break;
		analysis_drop(&an);
	}
	spill_predicates(k, &an);
	analysis_update(k, &an);
	Interval *iv = an.iv;
	an.iv = NULL;
	analysis_drop(&an);
	qsort(iv, k->nvregs, sizeof *iv, by_start);

	long busy_gpr[REGALLOC_MAX_GPR + 1], busy_pred[REGALLOC_MAX_PRED + 1];
	for (int r = 0; r <= REGALLOC_MAX_GPR; r++)
		busy_gpr[r] = -1;
	for (int r = 0; r <= REGALLOC_MAX_PRED; r++)
		busy_pred[r] = -1;
	busy_gpr[REGALLOC_STACK_REG] = (long)1 << 60;
	/* fnaddr: a function of its own keeps its callers' R2, and R16..R31
	 * (abi_save.c) */
	int top_gpr = k->maxreg_count ? (int)k->maxreg_count - 1 : REGALLOC_MAX_GPR;
	if (k->abi_func)
		busy_gpr[2] = (long)1 << 60;
	int max_gpr = REGALLOC_STACK_REG;
	uint32_t kept_used = 0;
	FixedRanges fr;
	fixed_ranges_build(k, iv, &fr);
	for (size_t n = 0; n < k->nvregs; n++) {
		Interval *x = &iv[n];
		LVReg *v = &k->vregs[x->vreg];
		if (x->start < 0)
			continue;
		bool pred = v->cls == LRC_PRED;
		long *busy = pred ? busy_pred : busy_gpr;
		int top = pred ? REGALLOC_MAX_PRED : top_gpr;
		unsigned w = pred ? 1 : v->width, al = pred ? 1 : alignment_of(w);
		/* a predicate's interval may span a JCAL, but pred_save_across_calls
		 * left none live at one: its register is free to change there */
		bool across = !pred && crosses_call(&fr, x);
		int found = v->fixed ? v->phys : -1;
		for (int b = across ? ABI_SCRATCH_LAST + 1 : 0; b + (int)w - 1 <= top && found < 0; b += (int)al) {
			/* fnaddr: R16..R31 only for what a call must not change (saved) */
			bool ok = pred || (clear_of_fixed(k, &fr, x, b, w) &&
			                   (!k->abi_func || across || !abi_kept_range(b, w)));
			for (unsigned p = 0; p < w && ok; p++)
				ok = busy[b + (int)p] < x->start;
			if (ok)
				found = b;
		}
		if (found < 0 && !pred && !k->abi_func) {
			free(fr.fixed);
			free(fr.calls);
			free(iv);
			return allocate_exact(k, top_gpr, err, errlen);
		}
		if (found < 0) {
			free(fr.fixed);
			free(fr.calls);
			snprintf(err, errlen, "kernel '%s' needs more than %d %s registers at once", k->name,
				         top + 1, pred ? "predicate" : "general");
			free(iv);
			return -1;
		}
		for (unsigned p = 0; p < w; p++)
			busy[found + (int)p] = x->end;
		if (!pred && k->abi_func)
			kept_used |= abi_kept_mask(found, w);
		v->phys = found;
		if (!pred && found + (int)w - 1 > max_gpr)
			max_gpr = found + (int)w - 1;
	}
	free(fr.fixed);
	free(fr.calls);
	free(iv);
	regalloc_apply(k, max_gpr);
	drop_self_copies(k);
	if (k->abi_func)
		abi_save_kept(k, kept_used);
	return 0;
}

/* Spilling predicates into general registers (issue 15/17).
 *
 * sm_50 has seven predicates P0..P6. When more are live at once, the
 * allocator keeps some of them in a general register instead, as ptxas
 * 11.8 -O0 does: every definition writes a short-lived predicate that
 *
 *   PSET.AND.AND g, t, PT, PT          (g = t ? 0xffffffff : 0)
 *
 * stores right after, and every use reads a predicate loaded just before
 * from the register:
 *
 *   ISETP.NE.AND t, PT, g, RZ, PT
 *
 * (ptxas -O3 reorders the comparisons instead so that fewer are live; we
 * do not reorder). A guarded definition may leave the old value, so its
 * predicate is loaded first as well. The predicates to spill are chosen
 * over the live intervals as in linear scan (Poletto and Sarkar): where
 * more than seven overlap, the one that ends last goes to a register. */
#include "lower/pred_spill.h"

#include "lower/liveness.h"
#include "lower/regalloc.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

enum { CMP_NE = 5, BOP_AND = 0, RZ = 255, PT = 7 };

typedef struct Span {
	long start;
	uint32_t vreg;
} Span;

static int by_start(const void *a, const void *b)
{
	const Span *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->vreg < y->vreg ? -1 : x->vreg > y->vreg;
}

/* Marks in spill[] the predicates (below `first_temp`, not fixed) to keep
 * in registers so that at most REGALLOC_MAX_PRED + 1 intervals overlap.
 * Returns how many were marked, or -1 when the ones that cannot be
 * spilled overlap too much on their own. */
static long choose(const LKernel *k, const long *start, const long *end, size_t first_temp, bool *spill)
{
	Span *order = xcalloc(k->nvregs + 1, sizeof *order);
	size_t n = 0;
	for (size_t v = 0; v < k->nvregs; v++)
		if (k->vregs[v].cls == LRC_PRED && start[v] >= 0)
			order[n++] = (Span){ start[v], (uint32_t)v };
	qsort(order, n, sizeof *order, by_start);
	uint32_t active[REGALLOC_MAX_PRED + 2];
	unsigned nactive = 0;
	long count = 0;
	for (size_t i = 0; i < n && count >= 0; i++) {
		uint32_t v = order[i].vreg;
		unsigned j = 0;
		for (unsigned a = 0; a < nactive; a++)
			if (end[active[a]] >= start[v])
				active[j++] = active[a];
		nactive = j;
		active[nactive++] = v;
		if (nactive <= REGALLOC_MAX_PRED + 1)
			continue;
		int pick = -1;
		for (unsigned a = 0; a < nactive; a++) {
			uint32_t w = active[a];
			if (w >= first_temp || k->vregs[w].fixed)
				continue;
			if (pick < 0 || end[w] > end[active[pick]])
				pick = (int)a;
		}
		if (pick < 0) {
			count = -1;
			break;
		}
		spill[active[pick]] = true;
		active[pick] = active[--nactive];
		count++;
	}
	free(order);
	return count;
}

static LInsn blank_insn(SassFormId form, SrcLoc loc)
{
	LInsn in;
	memset(&in, 0, sizeof in);
	in.form = &sass_forms[form];
	in.target = LIR_NO_LABEL;
	in.loc = loc;
	return in;
}

/* ISETP.NE.AND p, PT, w, RZ, PT: p = w != 0 */
void pred_word_load(LInsn *in, uint32_t p, uint32_t w)
{
	linsn_ref(in, SR_PD, p, 0, 1, true);
	linsn_set(in, SR_PQ, PT);
	linsn_ref(in, SR_RA, w, 0, 1, false);
	linsn_set(in, SR_RB, RZ);
	linsn_set(in, SR_CMP, CMP_NE);
	linsn_set(in, SR_SIGNED, 1);
	linsn_set(in, SR_BOP, BOP_AND);
	linsn_set(in, SR_PC, PT);
}

/* PSET.AND.AND w, p, PT, PT: w = p ? 0xffffffff : 0 */
void pred_word_store(LInsn *in, uint32_t w, uint32_t p)
{
	linsn_ref(in, SR_RD, w, 0, 1, true);
	linsn_ref(in, SR_PA, p, 0, 1, false);
	linsn_set(in, SR_PB, PT);
	linsn_set(in, SR_PC, PT);
	linsn_set(in, SR_BOP, BOP_AND);
	linsn_set(in, SR_BOP2, BOP_AND);
}

static LInsn load_insn(SrcLoc loc, uint32_t t, uint32_t g)
{
	LInsn in = blank_insn(SF_ISETP_R, loc);
	pred_word_load(&in, t, g);
	return in;
}

static LInsn store_insn(SrcLoc loc, uint32_t g, uint32_t t)
{
	LInsn in = blank_insn(SF_PSET, loc);
	pred_word_store(&in, g, t);
	return in;
}

typedef struct Code {
	LInsn *insns;
	size_t n, cap;
} Code;

static void put(Code *c, LInsn in)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 64;
		c->insns = xrealloc(c->insns, c->cap * sizeof *c->insns);
	}
	c->insns[c->n++] = in;
}

/* Instruction `in` with every reference to a spilled predicate renamed to
 * a new one per predicate, loaded before and stored after it as needed. */
static void rewrite(LKernel *k, Code *out, LInsn in, const uint32_t *home)
{
	uint32_t spilled[LIR_MAX_REFS], temp[LIR_MAX_REFS];
	bool load[LIR_MAX_REFS], store[LIR_MAX_REFS];
	unsigned n = 0;
	bool guarded = linsn_is_guarded(&in);
	for (unsigned r = 0; r < in.nrefs; r++) {
		LRegRef *ref = &in.refs[r];
		if (home[ref->vreg] == UINT32_MAX)
			continue;
		unsigned s = 0;
		while (s < n && spilled[s] != ref->vreg)
			s++;
		if (s == n) {
			spilled[n] = ref->vreg;
			/* not a temporary: a guarded definition keeps the loaded value */
			temp[n] = lkernel_new_vreg(k, LRC_PRED, 1, false);
			load[n] = store[n] = false;
			n++;
		}
		load[s] |= !ref->def || guarded;
		store[s] |= ref->def;
		ref->vreg = temp[s];
	}
	for (unsigned s = 0; s < n; s++)
		if (load[s])
			put(out, load_insn(in.loc, temp[s], home[spilled[s]]));
	put(out, in);
	for (unsigned s = 0; s < n; s++)
		if (store[s])
			put(out, store_insn(in.loc, home[spilled[s]], temp[s]));
}

/* The rewritten code in place of the kernel's (newpos: each old
 * instruction's new index, for the labels). */
static void install(LKernel *k, Code *out, const size_t *newpos)
{
	for (size_t l = 0; l < k->nlabels; l++)
		k->label_pos[l] = newpos[k->label_pos[l]];
	free(k->insns);
	k->insns = out->insns;
	k->ninsns = out->n;
	k->cap = out->cap;
}

/* Rewrites the kernel with the predicates of spill[] in new registers. */
static void spill_marked(LKernel *k, const bool *spill)
{
	size_t nv = k->nvregs;
	uint32_t *home = xmalloc((nv + 1) * sizeof *home);
	for (size_t v = 0; v < nv; v++)
		home[v] = spill[v] ? lkernel_new_vreg(k, LRC_GPR, 1, false) : UINT32_MAX;
	Code out = { NULL, 0, 0 };
	size_t *newpos = xcalloc(k->ninsns + 1, sizeof *newpos);
	for (size_t i = 0; i < k->ninsns; i++) {
		newpos[i] = out.n;
		rewrite(k, &out, k->insns[i], home);
	}
	newpos[k->ninsns] = out.n;
	install(k, &out, newpos);
	free(newpos);
	free(home);
}

long pred_spill(LKernel *k, const long *start, const long *end, size_t first_temp)
{
	bool *spill = xcalloc(k->nvregs + 1, sizeof *spill);
	long n = choose(k, start, end, first_temp, spill);
	if (n > 0)
		spill_marked(k, spill);
	free(spill);
	return n;
}

/* A predicate live across a JCAL (an external function, which may change
 * every predicate, and whose code we do not see): PSET into a new general
 * register before the call and ISETP back right after it. The register is
 * live across the call, so the allocator keeps it in R16 and up, which
 * the callee preserves, as ptxas 11.8 keeps predicates across its JCALs
 * in saved general registers. The same pair goes around a CAL of a
 * recursive function (save_live), whose invocations share the registers:
 * call_save.c then saves the general register on the stack with the
 * other values live across that call. */
long pred_save_across_calls(LKernel *k, const Liveness *lv)
{
	/* without such a call nothing changes: no copy of the code (a big
	 * kernel's peak memory was here) */
	bool calls = false;
	for (size_t i = 0; i < k->ninsns && !calls; i++)
		calls = k->insns[i].form->op == SOP_JCAL || (k->insns[i].save_live && i + 1 < k->ninsns);
	if (!calls)
		return 0;
	size_t nv = k->nvregs;
	long count = 0;
	Code out = { NULL, 0, 0 };
	size_t *newpos = xcalloc(k->ninsns + 1, sizeof *newpos);
	uint32_t *across = xmalloc((nv + 1) * sizeof *across), *word = xmalloc((nv + 1) * sizeof *word);
	for (size_t i = 0; i < k->ninsns; i++) {
		newpos[i] = out.n;
		LInsn in = k->insns[i];
		unsigned n = 0;
		/* a CAL's successor in the liveness is the callee's entry: what
		 * lives across it is what lives into the instruction after it */
		bool recursive = in.save_live && i + 1 < k->ninsns;
		if (in.form->op == SOP_JCAL || recursive)
			for (size_t v = 0; v < nv; v++)
				if (k->vregs[v].cls == LRC_PRED &&
				    (recursive ? live_set_has(&lv->in[lv->first_part[v]], i + 1)
				               : live_set_has(&lv->out[lv->first_part[v]], i)))
					across[n++] = (uint32_t)v;
		for (unsigned s = 0; s < n; s++) {
			word[s] = lkernel_new_vreg(k, LRC_GPR, 1, false);
			put(&out, store_insn(in.loc, word[s], across[s]));
		}
		put(&out, in);
		for (unsigned s = 0; s < n; s++)
			put(&out, load_insn(in.loc, across[s], word[s]));
		count += n;
	}
	newpos[k->ninsns] = out.n;
	if (count > 0)
		install(k, &out, newpos);
	else
		free(out.insns);
	free(newpos);
	free(across);
	free(word);
	return count;
}

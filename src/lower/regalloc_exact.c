/* Register allocation by exact live sets (see regalloc_exact.h).
 *
 * Positions are half-steps: 2i before instruction i (its reads), 2i + 1
 * after it (its writes). A part occupies its register at every half-step it
 * is live in or out and where it is written; two parts may share a
 * register when their sets do not meet. Vregs are placed in order of their
 * first half-step, each in the lowest aligned run of registers free over
 * its whole set.
 *
 * A value live across a call of a device function is not live in the
 * function's body (the scoped liveness); instead its register stays out of
 * every register the function and its callees use. Per function region and
 * register class, `used` holds the registers of the values live in it and
 * `across` those of the values live across its calls; each placement checks
 * one against the other, so the order of placement does not matter. */
#include "lower/regalloc_exact.h"

#include "lower/call_scope.h"
#include "lower/liveness.h"
#include "lower/regalloc.h"

#include "base/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ABI_SCRATCH_LAST = 15 };         /* a JCAL's callee may change R0, R2..R15 */

static int by_lo(const void *a, const void *b)
{
	const LiveRange *x = a, *y = b;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Per part, its half-steps: live in, live out, written. */
static LiveSet *occupancy(const LKernel *k, const Liveness *lv)
{
	LiveSet *defs = xcalloc(lv->nparts + 1, sizeof *defs);
	for (size_t i = 0; i < k->ninsns; i++)
		for (unsigned r = 0; r < k->insns[i].nrefs; r++) {
			const LRegRef *ref = &k->insns[i].refs[r];
			if (ref->def)
				for (unsigned p = 0; p < ref->count; p++)
					live_set_append(&defs[lv->first_part[ref->vreg] + ref->sub + p], (uint32_t)(2 * i + 1),
					                (uint32_t)(2 * i + 2));
		}
	LiveSet *occ = xcalloc(lv->nparts + 1, sizeof *occ);
	LiveRange *buf = NULL;
	size_t cap = 0;
	for (size_t b = 0; b < lv->nparts; b++) {
		size_t n = (size_t)lv->in[b].n + lv->out[b].n + defs[b].n, x = 0;
		if (n > cap) {
			cap = n;
			buf = xrealloc(buf, cap * sizeof *buf);
		}
		for (uint32_t j = 0; j < lv->in[b].n; j++)
			buf[x++] = (LiveRange){ 2 * lv->in[b].r[j].lo, 2 * lv->in[b].r[j].hi - 1 };
		for (uint32_t j = 0; j < lv->out[b].n; j++)
			buf[x++] = (LiveRange){ 2 * lv->out[b].r[j].lo + 1, 2 * lv->out[b].r[j].hi };
		for (uint32_t j = 0; j < defs[b].n; j++)
			buf[x++] = defs[b].r[j];
		if (x > 1)   /* buf is still NULL while every part so far was empty */
			qsort(buf, x, sizeof *buf, by_lo);
		for (size_t j = 0; j < x; j++)
			live_set_append(&occ[b], buf[j].lo, buf[j].hi);
		live_set_free(&defs[b]);
	}
	free(buf);
	free(defs);
	return occ;
}

/* Whether sets a and r share a half-step. */
static bool sets_meet(const LiveSet *a, const LiveSet *r)
{
	for (uint32_t x = 0; x < a->n; x++) {
		size_t lo = 0, hi = r->n;
		while (lo < hi) {       /* the first range of r ending after a's start */
			size_t mid = (lo + hi) / 2;
			if (r->r[mid].hi <= a->r[x].lo)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < r->n && r->r[lo].lo < a->r[x].hi)
			return true;
	}
	return false;
}

typedef struct Order {
	uint32_t start, end, vreg;
} Order;

static int by_start(const void *a, const void *b)
{
	const Order *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->vreg < y->vreg ? -1 : x->vreg > y->vreg;
}

/* Each vreg's first and last half-step; vregs that occupy nothing are left out. */
static size_t order_vregs(const LKernel *k, const Liveness *lv, const LiveSet *occ, Order *ord)
{
	size_t n = 0;
	for (size_t v = 0; v < k->nvregs; v++) {
		Order o = { UINT32_MAX, 0, (uint32_t)v };
		for (size_t b = lv->first_part[v]; b < lv->first_part[v + 1]; b++)
			if (occ[b].n) {
				if (occ[b].r[0].lo < o.start)
					o.start = occ[b].r[0].lo;
				if (occ[b].r[occ[b].n - 1].hi > o.end)
					o.end = occ[b].r[occ[b].n - 1].hi;
			}
		if (o.start != UINT32_MAX)
			ord[n++] = o;
	}
	qsort(ord, n, sizeof *ord, by_start);
	return n;
}

static bool crosses_jcal(const LKernel *k, const Liveness *lv, const LiveSet *occ, uint32_t v)
{
	for (size_t i = 0; i < k->ninsns; i++)
		if (k->insns[i].form->op == SOP_JCAL)
			for (size_t b = lv->first_part[v]; b < lv->first_part[v + 1]; b++)
				if (live_set_has(&occ[b], 2 * i + 1))
					return true;
	return false;
}

/* The spillable vreg live at half-step at, not chosen before, that
 * spilling costs least for the room it frees: the longest extent per
 * reference (each reference becomes an LDL or STL), so that a value read
 * everywhere (a base address) stays in its register. */
static uint32_t choose_victim(const LKernel *k, const Liveness *lv, const LiveSet *occ, const Order *ord,
                              size_t n, uint32_t at, uint32_t spill_floor, const bool *chosen,
                              const uint32_t *nrefs, bool *frame_words)
{
	uint32_t best = UINT32_MAX;
	uint64_t best_len = 0, best_refs = 1;
	for (size_t x = 0; x < n && ord[x].start <= at; x++) {
		uint32_t v = ord[x].vreg;
		const LVReg *r = &k->vregs[v];
		if (v >= spill_floor || r->fixed || r->cls != LRC_GPR || ord[x].end <= at || chosen[v])
			continue;
		/* an argument or result of a recursive function: the caller and
		 * the callee run in different frames (call_save.c), R1 apart by the
		 * caller's push, so a spill slot one stores is not the one the other
		 * loads; it keeps its register (a value that merely lives across
		 * the call is stored and loaded by the caller alone, and spills) */
		if (k->recursive && (r->call_result || r->call_param)) {
			*frame_words = true;
			continue;
		}
		bool live = false;
		for (size_t b = lv->first_part[v]; b < lv->first_part[v + 1] && !live; b++)
			live = live_set_has(&occ[b], at);
		uint64_t len = ord[x].end - ord[x].start, refs = nrefs[v] ? nrefs[v] : 1;
		if (live && len * best_refs > best_len * refs) {
			best = v;
			best_len = len;
			best_refs = refs;
		}
	}
	return best;
}

enum { MASK_WORDS = (REGALLOC_MAX_GPR + 64) / 64 };

typedef struct RegMask {
	uint64_t w[MASK_WORDS];
} RegMask;

/* The calls' register constraints: per region and class (GPR, predicate). */
typedef struct CallMasks {
	const CallScope *cs;
	size_t nregions;
	RegMask *used[2], *across[2];
	uint32_t *cal_steps;    /* the write half-step 2c + 1 of each CAL, ascending */
	uint32_t *cal_region;   /* its callee's region */
	size_t ncals;
	uint64_t *hv;           /* scratch: the regions a vreg is live in */
	uint32_t *uv, *fv;      /* scratch: the regions it is used by / lives across calls of */
	size_t nuv, nfv;
} CallMasks;

static void call_masks_build(const LKernel *k, const CallScope *cs, CallMasks *cm)
{
	memset(cm, 0, sizeof *cm);
	cm->cs = cs;
	cm->nregions = cs->nentries + 1;
	for (int c = 0; c < 2; c++) {
		cm->used[c] = xcalloc(cm->nregions, sizeof *cm->used[c]);
		cm->across[c] = xcalloc(cm->nregions, sizeof *cm->across[c]);
	}
	cm->cal_steps = xmalloc((k->ninsns + 1) * sizeof *cm->cal_steps);
	cm->cal_region = xmalloc((k->ninsns + 1) * sizeof *cm->cal_region);
	for (size_t i = 0; i < k->ninsns; i++)
		if (k->insns[i].form->op == SOP_CAL && k->insns[i].target >= 0) {
			cm->cal_steps[cm->ncals] = (uint32_t)(2 * i + 1);
			cm->cal_region[cm->ncals++] = call_scope_region_at(cs, k->label_pos[k->insns[i].target]);
		}
	cm->hv = xcalloc(cs->words + 1, sizeof *cm->hv);
	cm->uv = xmalloc((cm->nregions + 1) * sizeof *cm->uv);
	cm->fv = xmalloc((cm->nregions + 1) * sizeof *cm->fv);
}

static void call_masks_free(CallMasks *cm)
{
	for (int c = 0; c < 2; c++) {
		free(cm->used[c]);
		free(cm->across[c]);
	}
	free(cm->cal_steps);
	free(cm->cal_region);
	free(cm->hv);
	free(cm->uv);
	free(cm->fv);
}

static void add_region(uint32_t *list, size_t *n, uint32_t f)
{
	for (size_t x = 0; x < *n; x++)
		if (list[x] == f)
			return;
	list[(*n)++] = f;
}

/* The regions whose code runs while vreg v (parts `parts`, w of them) is
 * live, beyond the kernel's own (uv), and the callees of the calls it lives
 * across without being touched by them (fv). */
static void vreg_regions(CallMasks *cm, uint32_t v, const LiveSet *parts, unsigned w)
{
	const CallScope *cs = cm->cs;
	memset(cm->hv, 0, cs->words * sizeof *cm->hv);
	cm->nuv = cm->nfv = 0;
	for (unsigned p = 0; p < w; p++)
		for (uint32_t j = 0; j < parts[p].n; j++) {
			LiveRange r = parts[p].r[j];
			for (uint32_t f = call_scope_region_at(cs, r.lo / 2), z = call_scope_region_at(cs, (r.hi - 1) / 2);
			     f <= z; f++)
				cm->hv[f / 64] |= (uint64_t)1 << (f % 64);
			size_t lo = 0, hi = cm->ncals;
			while (lo < hi) {
				size_t mid = (lo + hi) / 2;
				if (cm->cal_steps[mid] < r.lo)
					lo = mid + 1;
				else
					hi = mid;
			}
			for (; lo < cm->ncals && cm->cal_steps[lo] < r.hi; lo++)
				if (!call_scope_touches(cs, v, cm->cal_region[lo]))
					add_region(cm->fv, &cm->nfv, cm->cal_region[lo]);
		}
	for (uint32_t f = 1; f < cm->nregions; f++)
		for (size_t x = 0; x < cs->words; x++)
			if (cs->reach[(size_t)f * cs->words + x] & cm->hv[x]) {
				cm->uv[cm->nuv++] = f;
				break;
			}
}

static bool mask_has(const RegMask *m, int r)
{
	return m->w[r / 64] >> (r % 64) & 1;
}

/* The registers v must keep out of: those of values live across calls of
 * the regions it is live in, and those of the regions it lives across. */
static RegMask avoid_mask(const CallMasks *cm, int cls)
{
	RegMask m;
	memset(&m, 0, sizeof m);
	for (size_t x = 0; x < cm->nuv; x++)
		for (int j = 0; j < MASK_WORDS; j++)
			m.w[j] |= cm->across[cls][cm->uv[x]].w[j];
	for (size_t x = 0; x < cm->nfv; x++)
		for (int j = 0; j < MASK_WORDS; j++)
			m.w[j] |= cm->used[cls][cm->fv[x]].w[j];
	return m;
}

static void mark_regs(CallMasks *cm, int cls, int first, unsigned w)
{
	for (unsigned p = 0; p < w; p++) {
		int r = first + (int)p;
		for (size_t x = 0; x < cm->nuv; x++)
			cm->used[cls][cm->uv[x]].w[r / 64] |= (uint64_t)1 << (r % 64);
		for (size_t x = 0; x < cm->nfv; x++)
			cm->across[cls][cm->fv[x]].w[r / 64] |= (uint64_t)1 << (r % 64);
	}
}

/* The allocation state of one round: per register, the union of the
 * half-steps of the parts placed in it. */
typedef struct Placement {
	const LKernel *k;
	const Liveness *lv;
	const LiveSet *occ;
	LiveSet gpr[REGALLOC_MAX_GPR + 1], pred[REGALLOC_MAX_PRED + 1], scratch;
	bool *placed;
} Placement;

/* The lowest aligned run of registers in [first, top] free over v's parts
 * and outside avoid; -1: none. */
static int find_run(const Placement *pl, uint32_t v, int first, int top, const RegMask *avoid)
{
	const LVReg *r = &pl->k->vregs[v];
	const LiveSet *regs = r->cls == LRC_PRED ? pl->pred : pl->gpr;
	const LiveSet *parts = &pl->occ[pl->lv->first_part[v]];
	unsigned w = r->width, al = w == 1 ? 1 : w == 2 ? 2 : 4;
	for (int b = first; b + (int)w - 1 <= top; b += (int)al) {
		bool ok = true;
		for (unsigned p = 0; p < w && ok; p++)
			ok = !mask_has(avoid, b + (int)p) && !sets_meet(&parts[p], &regs[b + (int)p]);
		if (ok)
			return b;
	}
	return -1;
}

/* Frees the general registers of the placed vreg v (a spill victim) for
 * the rest of the round: each is rebuilt from the other parts placed in it. */
static void unplace(Placement *pl, uint32_t v)
{
	const LKernel *k = pl->k;
	pl->placed[v] = false;
	for (unsigned p = 0; p < k->vregs[v].width; p++) {
		int reg = k->vregs[v].phys + (int)p;
		live_set_free(&pl->gpr[reg]);     /* never R1: nothing is placed over it */
		for (size_t u = 0; u < k->nvregs; u++) {
			const LVReg *x = &k->vregs[u];
			if (pl->placed[u] && x->cls == LRC_GPR && x->phys <= reg && reg < x->phys + (int)x->width)
				live_set_union(&pl->gpr[reg], &pl->occ[pl->lv->first_part[u] + (unsigned)(reg - x->phys)],
				               &pl->scratch);
		}
	}
}

/* The calls' constraints again from the vregs still placed, after a
 * victim left its registers. */
static void call_masks_rebuild(CallMasks *cm, const Placement *pl)
{
	const LKernel *k = pl->k;
	for (int c = 0; c < 2; c++) {
		memset(cm->used[c], 0, cm->nregions * sizeof *cm->used[c]);
		memset(cm->across[c], 0, cm->nregions * sizeof *cm->across[c]);
	}
	for (size_t u = 0; u < k->nvregs; u++)
		if (pl->placed[u]) {
			const LVReg *x = &k->vregs[u];
			vreg_regions(cm, (uint32_t)u, &pl->occ[pl->lv->first_part[u]], x->width);
			mark_regs(cm, x->cls == LRC_PRED ? 1 : 0, x->phys, x->width);
		}
}

int regalloc_exact(LKernel *k, uint32_t spill_floor, int top_gpr, ExactResult *res, char *err, size_t errlen)
{
	CallScope cs;
	call_scope_build(k, &cs);
	CallMasks cm;
	call_masks_build(k, &cs, &cm);
	Liveness lv;
	liveness_compute_scoped(k, &lv, &cs);
	Placement pl;
	memset(&pl, 0, sizeof pl);
	pl.k = k;
	pl.lv = &lv;
	LiveSet *occ = occupancy(k, &lv);
	pl.occ = occ;
	pl.placed = xcalloc(k->nvregs + 1, sizeof *pl.placed);
	Order *ord = xmalloc((k->nvregs + 1) * sizeof *ord);
	size_t n = order_vregs(k, &lv, occ, ord);
	live_set_append(&pl.gpr[REGALLOC_STACK_REG], 0, UINT32_MAX);
	*res = (ExactResult){ .max_gpr = REGALLOC_STACK_REG };
	bool *chosen = xcalloc(k->nvregs + 1, sizeof *chosen);
	uint32_t *nrefs = xcalloc(k->nvregs + 1, sizeof *nrefs);
	for (size_t i = 0; i < k->ninsns; i++)
		for (unsigned r = 0; r < k->insns[i].nrefs; r++)
			nrefs[k->insns[i].refs[r].vreg]++;
	int rc = 0;
	for (size_t pass = 0; pass < 2 && rc >= 0 && !res->stuck; pass++)    /* the fixed vregs first */
		for (size_t x = 0; x < n && rc >= 0 && !res->stuck; x++) {
			uint32_t v = ord[x].vreg;
			LVReg *r = &k->vregs[v];
			if (r->fixed != (pass == 0) || chosen[v])    /* a victim of this round stays unplaced */
				continue;
			bool is_pred = r->cls == LRC_PRED;
			LiveSet *regs = is_pred ? pl.pred : pl.gpr;
			int top = is_pred ? REGALLOC_MAX_PRED : top_gpr;
			unsigned w = r->width;
			const LiveSet *parts = &occ[lv.first_part[v]];
			bool across = !r->fixed && crosses_jcal(k, &lv, occ, v);
			if (is_pred && across) {
				snprintf(err, errlen, "kernel '%s' keeps a predicate live across a call of an external "
				         "function (it may change every predicate)", k->name);
				rc = -1;
				break;
			}
			int cls = is_pred ? 1 : 0;
			if (cs.returns)
				vreg_regions(&cm, v, parts, w);
			RegMask avoid = avoid_mask(&cm, cls);
			int first = across ? ABI_SCRATCH_LAST + 1 : 0;
			int found = r->fixed ? r->phys : find_run(&pl, v, first, top, &avoid);
			if (found < 0 && is_pred) {
				snprintf(err, errlen, "kernel '%s' needs more than %d predicate registers at once", k->name,
				         top + 1);
				rc = -1;
			}
			/* no register: spill the value live here that lives longest
			 * (perhaps v itself), freeing its registers, until v fits */
			while (found < 0 && !is_pred && !res->stuck) {
				bool frame_words = false;
				uint32_t victim = choose_victim(k, &lv, occ, ord, n, ord[x].start, spill_floor, chosen, nrefs,
				                                &frame_words);
				rc = 1;
				res->stuck = victim == UINT32_MAX;
				res->stuck_frame_words = res->stuck && frame_words;
				if (res->stuck)
					break;
				chosen[victim] = true;
				res->victims = xrealloc(res->victims, (res->nvictims + 1) * sizeof *res->victims);
				res->victims[res->nvictims++] = victim;
				if (victim == v)
					break;
				if (pl.placed[victim])
					unplace(&pl, victim);
				if (cs.returns) {
					call_masks_rebuild(&cm, &pl);
					vreg_regions(&cm, v, parts, w);
					avoid = avoid_mask(&cm, cls);
				}
				found = find_run(&pl, v, first, top, &avoid);
			}
			if (found >= 0) {
				for (unsigned p = 0; p < w; p++)
					live_set_union(&regs[found + (int)p], &parts[p], &pl.scratch);
				mark_regs(&cm, cls, found, w);
				r->phys = found;
				pl.placed[v] = true;
				if (!is_pred && found + (int)w - 1 > res->max_gpr)
					res->max_gpr = found + (int)w - 1;
			}
		}
	for (int r = 0; r <= REGALLOC_MAX_GPR; r++)
		live_set_free(&pl.gpr[r]);
	for (int r = 0; r <= REGALLOC_MAX_PRED; r++)
		live_set_free(&pl.pred[r]);
	live_set_free(&pl.scratch);
	for (size_t b = 0; b < lv.nparts; b++)
		live_set_free(&occ[b]);
	free(occ);
	free(ord);
	free(chosen);
	free(nrefs);
	free(pl.placed);
	liveness_free(&lv);
	call_masks_free(&cm);
	call_scope_free(&cs);
	return rc;
}

void regalloc_apply(LKernel *k, int max_gpr)
{
	for (size_t i = 0; i < k->ninsns; i++) {
		LInsn *in = &k->insns[i];
		for (unsigned r = 0; r < in->nrefs; r++) {
			const LRegRef *ref = &in->refs[r];
			if (ref->role != LROLE_ABI)
				linsn_set(in, ref->role, k->vregs[ref->vreg].phys + ref->sub);
		}
	}
	k->regcount = (uint32_t)max_gpr + 1;
}

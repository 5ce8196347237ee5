/* Reconvergence for sm_50 (issue 14/15): on Maxwell a warp whose threads
 * took different sides of a branch joins again only through the CRS stack
 * (SSY pushes the join point, SYNC ends a path there; PBK and BRK the same
 * for breaks; NVIDIA's SASS reference for SPA 5.0). Plain BRAs never join:
 * one group runs to EXIT, then the other, so a bar.sync, shfl or vote
 * after a divergent branch sees half a warp. As ptxas 11.8 -O0 does, this
 * pass gives each conditional branch whose immediate post-dominator J is a
 * block (not the kernel's EXIT) a region: the blocks its head reaches
 * before J. Its head is the branch's block, with `SSY J` before the
 * branch, or, when the branch is inside a loop that J is not in (the
 * loop's exit or back edge), the header of the outermost such loop, with
 * `SSY J` on the edges entering the loop (before the header's label: the
 * back edges jump past it). Every edge into J from the region becomes SYNC:
 * a branch to J becomes `[@p] SYNC`, a fall-through into J gets a SYNC
 * before J; back edges stay BRAs.
 *
 * A branch inside a region with the same join adds no region of its own
 * (its edges into J SYNC to the enclosing SSY: a loop's several exits, an
 * if/else-if). Regions nest, so the innermost region of a block is the
 * innermost SSY on the stack when it runs. A loop region is PBK/BRK
 * instead when the loop is left towards blocks other than J or a nested
 * region's block goes straight to J (a break out of an inner loop: BRK
 * passes the inner SSYs, SYNC would stop at the innermost), as ptxas does.
 * Shapes no placement fits (overlapping regions, a branch whose paths go
 * round a loop before they join) get an encoder-unsupported diagnostic in
 * an acyclic kernel; a kernel with loops is then left without
 * reconvergence, as are irreducible ones. Runs on the lowered IR, before
 * linking, liveness and allocation; reconverge_cfg.c builds the graph. */
#include "lower/reconverge_cfg.h"
#include "lower/liveness.h"
#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

typedef struct Region {
	size_t head, join;          /* blocks */
	bool *in;                   /* per block */
	size_t size;
	bool loop;                  /* head is a loop's header: the SSY sits on the edges entering it */
	bool brk;                   /* PBK/BRK rather than SSY/SYNC */
} Region;

static bool is_cond_branch(const LInsn *in)
{
	return (in->form->op == SOP_BRA && !linsn_is_unconditional_jump(in)) || in->form->op == SOP_BRX;
}

/* The blocks h reaches before join, and h. */
static void region_fill(const Cfg *g, Region *r)
{
	size_t *work = xcalloc(g->nblocks + 1, sizeof *work), nw = 0;
	r->in = xcalloc(g->nblocks + 1, sizeof *r->in);
	r->in[r->head] = true;
	r->size = 1;
	work[nw++] = r->head;
	while (nw > 0) {
		size_t b = work[--nw];
		for (unsigned s = 0; s < g->nsucc[b]; s++) {
			size_t q = g->succ[b][s];
			if (q == r->join || q == g->nblocks || r->in[q])
				continue;
			r->in[q] = true;
			r->size++;
			work[nw++] = q;
		}
	}
	free(work);
}

/* The innermost region holding block b (of the PBK ones when brk_only), or -1. */
static long innermost(const Region *rs, size_t n, size_t b, bool brk_only)
{
	long best = -1;
	for (size_t i = 0; i < n; i++)
		if (rs[i].in[b] && (!brk_only || rs[i].brk) &&
		    (best < 0 || rs[i].size < rs[(size_t)best].size))
			best = (long)i;
	return best;
}

static int label_new_at(LKernel *k, size_t pos)
{
	int l = lw_label_new(k);
	k->label_pos[l] = pos;
	return l;
}

/* A label naming instruction pos: an existing one, else a new id. */
static int label_at(LKernel *k, size_t pos)
{
	for (size_t l = 0; l < k->nlabels; l++)
		if (k->label_pos[l] == pos)
			return (int)l;
	return label_new_at(k, pos);
}

static LInsn made(SassFormId form, SrcLoc loc, int target)
{
	LInsn in;
	memset(&in, 0, sizeof in);
	in.form = &sass_forms[form];
	in.loc = loc;
	in.target = target;
	in.keep = true;
	return in;
}

/* What the pass puts before instruction i: a SYNC/BRK ending the previous
 * block's fall-through (before i's labels), a loop's entry (its own label,
 * then SSY/PBK, still before i's labels: the back edges jump past it), and
 * the SSY of a branch at the end of i's block (after i's labels). -1: none. */
typedef struct Seam {
	int sync, entry, entry_target, ssy;
	bool sync_brk, entry_pbk;
} Seam;

/* Rebuilds k->insns with the seams' instructions. Moves the labels (an
 * entry label to its SSY/PBK) and the call sites' instruction indices. */
static void rebuild(LKernel *k, const Seam *seam, size_t nold_labels)
{
	size_t extra = 0;
	for (size_t i = 0; i <= k->ninsns; i++)
		extra += (seam[i].sync >= 0) + (seam[i].entry >= 0) + (seam[i].ssy >= 0);
	LInsn *out = xcalloc(k->ninsns + extra + 1, sizeof *out);
	size_t *newpos = xcalloc(k->ninsns + 1, sizeof *newpos), *newinsn = xcalloc(k->ninsns + 1, sizeof *newinsn);
	size_t j = 0;
	for (size_t i = 0; i <= k->ninsns; i++) {
		SrcLoc loc = i < k->ninsns ? k->insns[i].loc : k->loc;
		if (seam[i].sync >= 0)
			out[j++] = made(seam[i].sync_brk ? SF_BRK : SF_SYNC, i > 0 ? k->insns[i - 1].loc : loc,
			                seam[i].sync);
		if (seam[i].entry >= 0) {
			k->label_pos[seam[i].entry] = SIZE_MAX - j;     /* placed below */
			out[j++] = made(seam[i].entry_pbk ? SF_PBK : SF_SSY, loc, seam[i].entry_target);
		}
		newpos[i] = j;
		if (seam[i].ssy >= 0)
			out[j++] = made(SF_SSY, loc, seam[i].ssy);
		newinsn[i] = j;
		if (i < k->ninsns)
			out[j++] = k->insns[i];
	}
	for (size_t l = 0; l < k->nlabels; l++)
		k->label_pos[l] = l < nold_labels ? newpos[k->label_pos[l]] : SIZE_MAX - k->label_pos[l];
	for (size_t c = 0; c < k->ncalls; c++)
		k->calls[c].insn = newinsn[k->calls[c].insn];
	free(k->insns);
	k->insns = out;
	k->cap = k->ninsns + extra + 1;     /* what out holds */
	k->ninsns = j;
	free(newpos);
	free(newinsn);
}

/* Where an edge of block b into s goes: the region whose join s is and
 * that b's SYNC or BRK reaches (*brk: by BRK); -1 for a plain edge, -2
 * for an edge into the join of a region the CRS stack cannot reach. */
static long edge_region(const Region *rs, size_t nr, size_t b, size_t s, bool *brk)
{
	long r = innermost(rs, nr, b, false), o = innermost(rs, nr, b, true);
	*brk = false;
	if (r < 0)
		return -1;
	if (s == rs[r].join) {
		*brk = rs[r].brk;
		return r;
	}
	if (o >= 0 && s == rs[o].join) {      /* BRK passes the SSYs inside the PBK */
		*brk = true;
		return o;
	}
	for (size_t x = 0; x < nr; x++)
		if (rs[x].in[b] && rs[x].join == s)
			return -2;
	return -1;
}

static bool fail(LowerCtx *c, bool report, SrcLoc loc, const char *what)
{
	return report ? lw_unsupported(c, loc, "%s", what) : false;
}

/* ---- brx: brx.idx's BRX has a successor per target (reconverge_cfg.c);
 * its SSY and SYNCs are placed as for a BRA, but a table target cannot
 * become a SYNC in the BRX's place ---- */
static bool brx_fits(LowerCtx *c, bool report, const LKernel *k, const Cfg *g, const Region *rs, size_t nr)
{
	for (size_t b = 0; b < g->nblocks; b++) {
		size_t last = g->start[b + 1] - 1;
		const LInsn *in = &k->insns[last];
		if (in->form->op != SOP_BRX)
			continue;
		bool brk, guarded = !linsn_is_unconditional_jump(in);
		for (unsigned s = 0; s < g->nsucc[b]; s++) {
			size_t to = g->succ[b][s];
			if (guarded && last + 1 < k->ninsns && to == g->block_of[last + 1])
				continue;           /* the guard's rest falls through: a SYNC before it */
			if (edge_region(rs, nr, b, to, &brk) >= 0)
				return fail(c, report, in->loc, "a brx.idx target that is the join point of its own "
				            "targets (write the join's code in a block of its own)");
		}
	}
	return true;
}
/* ---- end brx ---- */

/* Every edge into a join reaches its region's SSY/PBK, every SSY runs once
 * per entry of its region (a cycle inside a region is a loop that lies
 * in it whole, or the region's own loop), and a loop header starts one
 * loop region at most. */
static bool regions_fit(LowerCtx *c, bool report, const LKernel *k, const Cfg *g, const Region *rs, size_t nr)
{
	for (size_t b = 0; b < g->nblocks; b++) {
		SrcLoc loc = k->insns[g->start[b + 1] - 1].loc;
		bool brk;
		for (unsigned s = 0; s < g->nsucc[b]; s++)
			if (edge_region(rs, nr, b, g->succ[b][s], &brk) == -2)
				return fail(c, report, loc, "a branch out of a divergent region into another branch's "
				            "join point (no SSY/SYNC nesting fits it)");
	}
	for (size_t r = 0; r < nr; r++) {
		SrcLoc loc = k->insns[g->start[rs[r].head + 1] - 1].loc;
		for (size_t q = 0; q < nr; q++)
			if (q != r && rs[q].loop && rs[r].loop && rs[q].head == rs[r].head)
				return fail(c, report, loc, "a loop left divergently towards two join points");
		for (size_t u = 0; u < g->nblocks; u++) {
			if (!rs[r].in[u])
				continue;
			for (unsigned s = 0; s < g->nsucc[u]; s++) {
				size_t h = g->succ[u][s];
				if (h == g->nblocks || g->rank[h] > g->rank[u])
					continue;           /* not a back edge */
				bool fits = h == rs[r].head ? rs[r].loop : rs[r].in[h];
				for (size_t l = 0; l < g->nloops && fits; l++)
					if (g->loops[l].header == h && h != rs[r].head)
						for (size_t x = 0; x < g->nblocks && fits; x++)
							fits = !g->loops[l].in[x] || rs[r].in[x];
				if (!fits)
					return fail(c, report, loc, "a divergent branch whose paths go round a loop "
					            "before they join (no SSY/SYNC placement reconverges them)");
			}
		}
	}
	/* two regions that share a block hold one another's head */
	for (size_t a = 0; a < nr; a++)
		for (size_t b = a + 1; b < nr; b++) {
			if (rs[a].in[rs[b].head] || rs[b].in[rs[a].head])
				continue;
			for (size_t x = 0; x < g->nblocks; x++)
				if (rs[a].in[x] && rs[b].in[x])
					return fail(c, report, k->insns[g->start[rs[b].head + 1] - 1].loc,
					            "two divergent branches whose paths overlap without nesting "
					            "(no SSY/SYNC placement reconverges them)");
		}
	return true;
}

/* Turns the edges into each region's join into SYNC/BRK and places the
 * SSY/PBKs. */
static void rewrite(LKernel *k, const Cfg *g, const Region *rs, size_t nr)
{
	Seam *seam = xcalloc(k->ninsns + 1, sizeof *seam);
	int *join_label = xcalloc(nr + 1, sizeof *join_label), *entry_label = xcalloc(nr + 1, sizeof *entry_label);
	for (size_t i = 0; i <= k->ninsns; i++)
		seam[i] = (Seam){ .sync = -1, .entry = -1, .entry_target = -1, .ssy = -1 };
	for (size_t r = 0; r < nr; r++)
		join_label[r] = label_at(k, g->start[rs[r].join]);
	size_t nold = k->nlabels;
	for (size_t r = 0; r < nr; r++)
		entry_label[r] = rs[r].loop ? label_new_at(k, g->start[rs[r].head]) : -1;
	/* a join at a loop's header, reached from outside the loop, is the
	 * loop's entry: its SSY/PBK runs too */
	for (size_t r = 0; r < nr; r++)
		for (size_t q = 0; q < nr; q++)
			if (rs[q].loop && rs[q].head == rs[r].join && !rs[q].in[rs[r].head])
				join_label[r] = entry_label[q];
	for (size_t q = 0; q < nr; q++) {
		if (!rs[q].loop) {
			seam[g->start[rs[q].head + 1] - 1].ssy = join_label[q];
			continue;
		}
		Seam *e = &seam[g->start[rs[q].head]];
		e->entry = entry_label[q];
		e->entry_target = join_label[q];
		e->entry_pbk = rs[q].brk;
		for (size_t b = 0; b < g->nblocks; b++) {     /* branches from outside enter at the SSY */
			LInsn *in = &k->insns[g->start[b + 1] - 1];
			if (!rs[q].in[b] && in->form->op == SOP_BRA && in->target >= 0 && (size_t)in->target < nold &&
			    k->label_pos[in->target] == g->start[rs[q].head])
				in->target = entry_label[q];
		}
	}
	for (size_t b = 0; b < g->nblocks; b++) {
		size_t last = g->start[b + 1] - 1;
		LInsn *in = &k->insns[last];
		bool brk;
		if (in->form->op == SOP_BRA && in->target >= 0) {
			long r = edge_region(rs, nr, b, g->block_of[k->label_pos[in->target]], &brk);
			if (r >= 0) {
				LRegRef guard = { 0 };
				for (unsigned q = 0; q < in->nrefs; q++)
					if (in->refs[q].role == SR_PG)
						guard = in->refs[q];
				LInsn sync = made(brk ? SF_BRK : SF_SYNC, in->loc, join_label[r]);
				if (linsn_is_guarded(in)) {
					linsn_ref(&sync, SR_PG, guard.vreg, 0, 1, false);
					linsn_set(&sync, SR_PG_NOT, linsn_get(in, SR_PG_NOT, 0));
				}
				*in = sync;
			}
		}
		if (linsn_is_unconditional_jump(&k->insns[last]) || last + 1 >= k->ninsns)
			continue;
		long r = edge_region(rs, nr, b, g->block_of[last + 1], &brk);
		if (r >= 0) {
			seam[last + 1].sync = join_label[r];
			seam[last + 1].sync_brk = brk;
		}
	}
	rebuild(k, seam, nold);
	free(seam);
	free(join_label);
	free(entry_label);
}

/* A join that is the kernel's EXIT needs no SSY: the threads end there
 * (ptxas -O0 branches to it with a plain BRA). */
static bool joins_at_exit(const LKernel *k, const Cfg *g, size_t join)
{
	const LInsn *first = &k->insns[g->start[join]];
	return first->form->op == SOP_EXIT && linsn_is_unconditional_jump(first);
}

/* The innermost loop holding block b, or -1. */
static long loop_of(const Cfg *g, size_t b)
{
	long best = -1;
	for (size_t l = 0; l < g->nloops; l++)
		if (g->loops[l].in[b] && (best < 0 || g->loops[l].size < g->loops[(size_t)best].size))
			best = (long)l;
	return best;
}

/* The nearest block that post-dominates every block of set (SIZE_MAX: none). */
static size_t common_ipdom(const Cfg *g, const bool *set)
{
	bool *mark = xcalloc(g->nblocks + 1, sizeof *mark);
	size_t j = SIZE_MAX;
	for (size_t t = 0; t <= g->nblocks; t++) {
		if (!set[t])
			continue;
		size_t x = t;
		if (j != SIZE_MAX)
			while (x != SIZE_MAX && !mark[x])
				x = g->ipdom[x] == x ? SIZE_MAX : g->ipdom[x];
		if (x == SIZE_MAX) {
			j = SIZE_MAX;
			break;
		}
		memset(mark, 0, (g->nblocks + 1) * sizeof *mark);
		j = x;
		for (; x != SIZE_MAX; x = g->ipdom[x] == x ? SIZE_MAX : g->ipdom[x])
			mark[x] = true;
	}
	free(mark);
	return j;
}

/* Loop l as a region, or false when it needs none (every branch that
 * leaves it is uniform, as ptxas finds: reconverge_uniform.c). Its exits into the
 * join of an enclosing loop region are breaks out of that loop too (that
 * region becomes PBK/BRK); the other exits join at their common
 * post-dominator, PBK/BRK when they leave towards other blocks (ptxas
 * 11.8: one SSY for a loop left at one place, PBK for several). */
static bool loop_region(const Cfg *g, const bool *varying, size_t l, Region *rs, size_t nr, Region *out)
{
	const CfgLoop *lp = &g->loops[l];
	bool splits = false;        /* a branch that may split the warp leaves the loop */
	for (size_t b = 0; b < g->nblocks && !splits; b++)
		splits = lp->in[b] && varying[b] && (g->ipdom[b] == SIZE_MAX || !lp->in[g->ipdom[b]]);
	if (!splits)
		return false;
	bool *targets = xcalloc(g->nblocks + 1, sizeof *targets), any = false, several = false;
	size_t first = SIZE_MAX;
	long outer = -1;
	for (size_t r = 0; r < nr; r++)
		if (rs[r].loop && rs[r].in[lp->header] && (outer < 0 || rs[r].size < rs[(size_t)outer].size))
			outer = (long)r;
	for (size_t u = 0; u < g->nblocks; u++)
		for (unsigned s = 0; lp->in[u] && s < g->nsucc[u]; s++) {
			size_t q = g->succ[u][s];
			if (lp->in[q])
				continue;
			if (outer >= 0 && q == rs[outer].join) {
				rs[outer].brk = true;
				continue;
			}
			targets[q] = true;
			several |= any && q != first;
			if (!any)
				first = q;
			any = true;
		}
	size_t join = any ? common_ipdom(g, targets) : SIZE_MAX;
	free(targets);
	if (join == SIZE_MAX || join == g->nblocks)
		return false;
	*out = (Region){ .head = lp->header, .join = join, .loop = true, .brk = several || first != join };
	return true;
}

/* The regions, enclosing ones first (by the heads' ranks, a loop before
 * the branch at its header): one per loop that is left (loop_region), one
 * per other conditional branch whose join is a block of its own loop (or
 * of no loop) other than the kernel's EXIT. */
static size_t regions_find(const LKernel *k, const Cfg *g, const bool *varying, Region *rs)
{
	size_t *order = xcalloc(g->nblocks + 1, sizeof *order), m = 0, nr = 0;
	for (size_t b = 0; b < g->nblocks; b++)
		if (g->rank[b] != SIZE_MAX)
			order[m++] = b;
	for (size_t i = 1; i < m; i++)
		for (size_t j = i; j > 0 && g->rank[order[j - 1]] > g->rank[order[j]]; j--) {
			size_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (size_t i = 0; i < m; i++) {
		size_t b = order[i];
		for (size_t l = 0; l < g->nloops; l++) {
			Region cand;
			if (g->loops[l].header != b || !loop_region(g, varying, l, rs, nr, &cand))
				continue;
			long enclosing = innermost(rs, nr, b, false);
			if (enclosing >= 0 && rs[enclosing].join == cand.join)
				continue;
			rs[nr] = cand;
			region_fill(g, &rs[nr++]);
		}
		size_t join = g->ipdom[b];
		const LInsn *br = &k->insns[g->start[b + 1] - 1];
		if (!is_cond_branch(br) || join == g->nblocks || join == SIZE_MAX || g->nsucc[b] < 2 ||
		    joins_at_exit(k, g, join))
			continue;
		long loop = loop_of(g, b);
		if (loop >= 0 && !g->loops[loop].in[join])
			continue;           /* it leaves its loop: the loop's region */
		long enclosing = innermost(rs, nr, b, false);
		if (enclosing >= 0 && rs[enclosing].join == join)
			continue;
		rs[nr] = (Region){ .head = b, .join = join };
		region_fill(g, &rs[nr++]);
	}
	free(order);
	return nr;
}

bool lw_reconverge(LowerCtx *c, LKernel *k)
{
	if (k->ninsns == 0)
		return true;
	Cfg g;
	memset(&g, 0, sizeof g);
	cfg_build(k, &g);
	bool acyclic = cfg_analyse(&g), ok = true;
	/* an irreducible graph (a cycle entered at two places) is left as it is */
	if (cfg_loops(&g)) {
		Region *rs = xcalloc(g.nblocks + 1, sizeof *rs);
		bool *varying = cfg_varying_branches(k, &g);
		size_t nr = regions_find(k, &g, varying, rs);
		free(varying);
		/* a kernel with loops whose shape no placement fits is left as it
		 * was before loops were handled (docs/encoding.md) */
		ok = regions_fit(c, acyclic, k, &g, rs, nr) && brx_fits(c, acyclic, k, &g, rs, nr);
		if (ok && nr > 0)
			rewrite(k, &g, rs, nr);
		for (size_t b = 0; b < g.nblocks && ok; b++) {
			uint32_t depth = 0;
			for (size_t r = 0; r < nr; r++)
				depth += rs[r].in[b];
			k->crs_nesting = depth > k->crs_nesting ? depth : k->crs_nesting;
		}
		for (size_t r = 0; r < nr && ok; r++)
			k->crs_loop |= rs[r].loop;
		for (size_t r = 0; r < nr; r++)
			free(rs[r].in);
		free(rs);
		ok = ok || !acyclic;
	}
	cfg_free(&g);
	return ok;
}

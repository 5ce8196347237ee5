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
	size_t first, size;         /* its blocks: Regions.pool[first .. first + size) */
	bool loop;                  /* head is a loop's header: the SSY sits on the edges entering it */
	bool brk;                   /* PBK/BRK rather than SSY/SYNC */
} Region;

/* The regions and what is asked of them per block, each found once:
 * memory and time grow with the sum of the regions' sizes (a block counts
 * once per region around it), not with regions x blocks. */
typedef struct Regions {
	Region *rs;
	size_t nr;
	size_t *pool, npool, cap;   /* the regions' blocks */
	size_t *mark;               /* per block: r + 1 while region r is filled */
	long *inner, *inner_loop;   /* per block: the innermost region (loop region) so far */
	long *inner_brk;            /* per block: the innermost PBK region (once all are found) */
	size_t *of_off, *of;        /* regions holding block b: of[of_off[b] .. of_off[b + 1]), ascending */
	size_t *loop_at;            /* per block: a loop region it heads, the last (SIZE_MAX: none) */
} Regions;

static bool is_cond_branch(const LInsn *in)
{
	return (in->form->op == SOP_BRA && !linsn_is_unconditional_jump(in)) || in->form->op == SOP_BRX;
}

/* Adds region r (rs[nr]): the blocks its head reaches before its join,
 * and its head; the innermost regions of its blocks as innermost() of
 * the regions so far picks them (the smallest, the first of equals). */
static void region_add(const Cfg *g, Regions *R, Region r)
{
	size_t id = R->nr++, mark = id + 1;
	if (R->npool + g->nblocks + 1 > R->cap) {
		R->cap = 2 * R->cap + g->nblocks + 1;
		R->pool = xrealloc(R->pool, R->cap * sizeof *R->pool);
	}
	size_t *blocks = R->pool + R->npool, n = 0;
	R->mark[r.head] = mark;
	blocks[n++] = r.head;
	for (size_t at = 0; at < n; at++) {
		size_t b = blocks[at];
		for (unsigned s = 0; s < g->nsucc[b]; s++) {
			size_t q = g->succ[b][s];
			if (q == r.join || q == g->nblocks || R->mark[q] == mark)
				continue;
			R->mark[q] = mark;
			blocks[n++] = q;
		}
	}
	r.first = R->npool;
	r.size = n;
	R->npool += n;
	R->rs[id] = r;
	for (size_t i = 0; i < n; i++) {
		size_t b = blocks[i];
		if (R->inner[b] < 0 || n < R->rs[R->inner[b]].size)
			R->inner[b] = (long)id;
		if (r.loop && (R->inner_loop[b] < 0 || n < R->rs[R->inner_loop[b]].size))
			R->inner_loop[b] = (long)id;
	}
}

/* Once every region is found: per block the regions holding it (in
 * ascending order), its innermost PBK region, and the loop regions per
 * head. */
static void regions_index(const Cfg *g, Regions *R)
{
	size_t n = g->nblocks + 1;
	R->of_off = xcalloc(n + 1, sizeof *R->of_off);
	R->of = xcalloc(R->npool + 1, sizeof *R->of);
	R->inner_brk = xcalloc(n, sizeof *R->inner_brk);
	R->loop_at = xcalloc(n, sizeof *R->loop_at);
	for (size_t b = 0; b < n; b++) {
		R->inner_brk[b] = -1;
		R->loop_at[b] = SIZE_MAX;
	}
	for (size_t i = 0; i < R->npool; i++)
		R->of_off[R->pool[i] + 1]++;
	for (size_t b = 0; b < n; b++)
		R->of_off[b + 1] += R->of_off[b];
	size_t *fill = xcalloc(n, sizeof *fill);
	for (size_t r = 0; r < R->nr; r++) {
		const Region *x = &R->rs[r];
		for (size_t i = x->first; i < x->first + x->size; i++) {
			size_t b = R->pool[i];
			R->of[R->of_off[b] + fill[b]++] = r;
			if (x->brk && (R->inner_brk[b] < 0 || x->size < R->rs[R->inner_brk[b]].size))
				R->inner_brk[b] = (long)r;
		}
		if (x->loop)
			R->loop_at[x->head] = r;
	}
	free(fill);
}

/* Region r holds block b. */
static bool region_has(const Regions *R, size_t r, size_t b)
{
	size_t lo = R->of_off[b], hi = R->of_off[b + 1];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (R->of[mid] == r)
			return true;
		if (R->of[mid] < r)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static void regions_free(Regions *R)
{
	free(R->rs);
	free(R->pool);
	free(R->mark);
	free(R->inner);
	free(R->inner_loop);
	free(R->inner_brk);
	free(R->of_off);
	free(R->of);
	free(R->loop_at);
}

static int label_new_at(LKernel *k, size_t pos)
{
	int l = lw_label_new(k);
	k->label_pos[l] = pos;
	return l;
}

/* A label naming instruction pos: the first existing one, else a new id
 * (first: per instruction, the first label naming it, or -1). */
static int label_at(LKernel *k, int *first, size_t pos)
{
	if (first[pos] < 0)
		first[pos] = label_new_at(k, pos);
	return first[pos];
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

/* What the pass puts into block b: a SYNC/BRK ending the previous
 * block's fall-through (before b's labels), a BRA to b's own label when
 * that fall-through is a back edge of the loop b heads (a rotated loop,
 * `bra cond; body: ...; cond: ...; @p bra body`, whose body falls into its
 * header: without it every trip would run the entry's SSY/PBK again and
 * push one more token, overflowing the warp's CRS stack), a loop's entry
 * (its own label, then SSY/PBK, still before b's labels: the back edges
 * jump past it), and the SSY of a branch at b's end (before its last
 * instruction). -1: none. */
typedef struct Seam {
	int sync, skip, entry, entry_target, ssy;
	bool sync_brk, entry_pbk;
} Seam;

/* Where instruction i of block b goes once the seams are in (at: where
 * b's first instruction goes). */
static size_t moved_to(const Cfg *g, const Seam *seam, const size_t *at, size_t b, size_t i)
{
	return at[b] + (i - g->start[b]) + (i + 1 == g->start[b + 1] && seam[b].ssy >= 0);
}

/* Rebuilds k->insns with the seams' instructions. Moves the labels (an
 * entry label to its SSY/PBK) and the call sites' instruction indices.
 * In place, from the end: an instruction only moves down, so the array
 * grows once instead of being copied (the IR is the largest structure of
 * a big kernel). */
static void rebuild(LKernel *k, const Cfg *g, const Seam *seam, size_t nold_labels)
{
	size_t nb = g->nblocks, j = 0, *at = xcalloc(nb + 1, sizeof *at);
	for (size_t b = 0; b <= nb; b++) {      /* nb: the kernel's end */
		j += seam[b].sync >= 0;
		j += seam[b].skip >= 0;
		if (seam[b].entry >= 0)
			k->label_pos[seam[b].entry] = SIZE_MAX - j++;     /* placed below */
		at[b] = j;
		if (b < nb)
			j += g->start[b + 1] - g->start[b] + (seam[b].ssy >= 0);
	}
	k->insns = xrealloc(k->insns, (j + 1) * sizeof *k->insns);
	memset(&k->insns[j], 0, sizeof *k->insns);
	for (size_t b = nb + 1; b-- > 0;) {
		size_t first = g->start[b], end = b < nb ? g->start[b + 1] : first;
		SrcLoc loc_first = b < nb ? k->insns[first].loc : k->loc, loc_last = loc_first;
		if (b < nb)
			loc_last = k->insns[end - 1].loc;
		for (size_t i = end; i-- > first;)
			k->insns[moved_to(g, seam, at, b, i)] = k->insns[i];
		if (b < nb && seam[b].ssy >= 0)
			k->insns[at[b] + (end - 1 - first)] = made(SF_SSY, loc_last, seam[b].ssy);
		size_t p = at[b];
		if (seam[b].entry >= 0)
			k->insns[--p] = made(seam[b].entry_pbk ? SF_PBK : SF_SSY, loc_first, seam[b].entry_target);
		if (seam[b].skip >= 0)      /* the previous block's last instruction has not moved yet */
			k->insns[--p] = made(SF_BRA, first > 0 ? k->insns[first - 1].loc : loc_first, seam[b].skip);
		if (seam[b].sync >= 0)      /* the previous block's last instruction has not moved yet */
			k->insns[--p] = made(seam[b].sync_brk ? SF_BRK : SF_SYNC, first > 0 ? k->insns[first - 1].loc : loc_first,
			                     seam[b].sync);
	}
	for (size_t l = 0; l < k->nlabels; l++)     /* labels name blocks' first instructions */
		k->label_pos[l] = l < nold_labels ? at[g->block_of[k->label_pos[l]]] : SIZE_MAX - k->label_pos[l];
	for (size_t c = 0; c < k->ncalls; c++) {
		size_t i = k->calls[c].insn;
		k->calls[c].insn = moved_to(g, seam, at, g->block_of[i], i);
	}
	k->cap = j + 1;             /* what k->insns holds */
	k->ninsns = j;
	free(at);
}

/* Where an edge of block b into s goes: the region whose join s is and
 * that b's SYNC or BRK reaches (*brk: by BRK); -1 for a plain edge, -2
 * for an edge into the join of a region the CRS stack cannot reach. */
static long edge_region(const Regions *R, size_t b, size_t s, bool *brk)
{
	const Region *rs = R->rs;
	long r = R->inner[b], o = R->inner_brk[b];
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
	for (size_t i = R->of_off[b]; i < R->of_off[b + 1]; i++)
		if (rs[R->of[i]].join == s)
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
static bool brx_fits(LowerCtx *c, bool report, const LKernel *k, const Cfg *g, const Regions *R)
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
			if (edge_region(R, b, to, &brk) >= 0)
				return fail(c, report, in->loc, "a brx.idx target that is the join point of its own "
				            "targets (write the join's code in a block of its own)");
		}
	}
	return true;
}
/* ---- end brx ---- */

/* Loop l lies in region r whole (checked: per loop, r + 1 once it fits). */
static bool loop_inside(const Cfg *g, const Regions *R, size_t r, size_t l, size_t *checked)
{
	if (checked[l] == r + 1)
		return true;
	for (size_t i = 0; i < g->loops[l].size; i++)
		if (!region_has(R, r, g->loops[l].blocks[i]))
			return false;
	checked[l] = r + 1;
	return true;
}

/* Two regions that share a block without one holding the other's head:
 * the first such pair (by the first region, then the second), as a scan
 * of all pairs finds it; only regions that share a block are paired. */
static long overlap_without_nesting(const Cfg *g, const Regions *R)
{
	size_t best_a = SIZE_MAX, best_b = SIZE_MAX;
	for (size_t x = 0; x < g->nblocks; x++)
		for (size_t i = R->of_off[x]; i < R->of_off[x + 1]; i++)
			for (size_t j = i + 1; j < R->of_off[x + 1]; j++) {
				size_t a = R->of[i], b = R->of[j];
				if (a > best_a || (a == best_a && b >= best_b))
					continue;
				if (region_has(R, a, R->rs[b].head) || region_has(R, b, R->rs[a].head))
					continue;
				best_a = a;
				best_b = b;
			}
	return best_b == SIZE_MAX ? -1 : (long)best_b;
}

/* Every edge into a join reaches its region's SSY/PBK, every SSY runs once
 * per entry of its region (a cycle inside a region is a loop that lies
 * in it whole, or the region's own loop), and a loop header starts one
 * loop region at most. */
static bool regions_fit(LowerCtx *c, bool report, const LKernel *k, const Cfg *g, const Regions *R)
{
	const Region *rs = R->rs;
	for (size_t b = 0; b < g->nblocks; b++) {
		SrcLoc loc = k->insns[g->start[b + 1] - 1].loc;
		bool brk;
		for (unsigned s = 0; s < g->nsucc[b]; s++)
			if (edge_region(R, b, g->succ[b][s], &brk) == -2)
				return fail(c, report, loc, "a branch out of a divergent region into another branch's "
				            "join point (no SSY/SYNC nesting fits it)");
	}
	size_t *loops_at = xcalloc(g->nblocks + 1, sizeof *loops_at);     /* loop regions per head */
	size_t *checked = xcalloc(g->nloops + 1, sizeof *checked);
	for (size_t r = 0; r < R->nr; r++)
		loops_at[rs[r].head] += rs[r].loop;
	const char *why = NULL;
	size_t r = 0;
	for (; r < R->nr && !why; r++) {
		if (rs[r].loop && loops_at[rs[r].head] > 1) {
			why = "a loop left divergently towards two join points";
			break;
		}
		for (size_t i = rs[r].first; i < rs[r].first + rs[r].size && !why; i++) {
			size_t u = R->pool[i];
			for (unsigned s = 0; s < g->nsucc[u] && !why; s++) {
				size_t h = g->succ[u][s];
				if (h == g->nblocks || g->rank[h] > g->rank[u])
					continue;           /* not a back edge */
				bool fits = h == rs[r].head ? rs[r].loop : region_has(R, r, h);
				if (fits && h != rs[r].head && g->loop_at[h] != SIZE_MAX)
					fits = loop_inside(g, R, r, g->loop_at[h], checked);
				if (!fits)
					why = "a divergent branch whose paths go round a loop "
					      "before they join (no SSY/SYNC placement reconverges them)";
			}
		}
		if (why)
			break;
	}
	free(loops_at);
	free(checked);
	if (why)
		return fail(c, report, k->insns[g->start[rs[r].head + 1] - 1].loc, why);
	long b = overlap_without_nesting(g, R);
	if (b >= 0)
		return fail(c, report, k->insns[g->start[rs[b].head + 1] - 1].loc,
		            "two divergent branches whose paths overlap without nesting "
		            "(no SSY/SYNC placement reconverges them)");
	return true;
}

/* Turns the edges into each region's join into SYNC/BRK and places the
 * SSY/PBKs. */
static void rewrite(LKernel *k, const Cfg *g, const Regions *R)
{
	const Region *rs = R->rs;
	size_t nr = R->nr;
	Seam *seam = xcalloc(g->nblocks + 1, sizeof *seam);
	int *join_label = xcalloc(nr + 1, sizeof *join_label), *entry_label = xcalloc(nr + 1, sizeof *entry_label);
	int *first_label = xcalloc(k->ninsns + 1, sizeof *first_label);
	for (size_t b = 0; b <= g->nblocks; b++)
		seam[b] = (Seam){ .sync = -1, .skip = -1, .entry = -1, .entry_target = -1, .ssy = -1 };
	for (size_t i = 0; i <= k->ninsns; i++)
		first_label[i] = -1;
	for (size_t l = k->nlabels; l-- > 0;)
		if (k->label_pos[l] <= k->ninsns)
			first_label[k->label_pos[l]] = (int)l;
	for (size_t r = 0; r < nr; r++)
		join_label[r] = label_at(k, first_label, g->start[rs[r].join]);
	for (size_t r = 0; r < nr; r++) {
		size_t h = rs[r].head;
		if (rs[r].loop && h > 0 && region_has(R, r, h - 1) &&
		    !linsn_is_unconditional_jump(&k->insns[g->start[h] - 1]))
			seam[h].skip = label_at(k, first_label, g->start[h]);
	}
	free(first_label);
	size_t nold = k->nlabels;
	for (size_t r = 0; r < nr; r++)
		entry_label[r] = rs[r].loop ? label_new_at(k, g->start[rs[r].head]) : -1;
	/* a join at a loop's header, reached from outside the loop, is the
	 * loop's entry: its SSY/PBK runs too (regions_fit: one loop region
	 * per header) */
	for (size_t r = 0; r < nr; r++) {
		size_t q = R->loop_at[rs[r].join];
		if (q != SIZE_MAX && !region_has(R, q, rs[r].head))
			join_label[r] = entry_label[q];
	}
	for (size_t q = 0; q < nr; q++) {
		if (!rs[q].loop) {
			seam[rs[q].head].ssy = join_label[q];
			continue;
		}
		Seam *e = &seam[rs[q].head];
		e->entry = entry_label[q];
		e->entry_target = join_label[q];
		e->entry_pbk = rs[q].brk;
		size_t h = rs[q].head;
		for (size_t e = g->pred_off[h]; e < g->pred_off[h + 1]; e++) {     /* branches from outside enter at the SSY */
			size_t b = g->pred[e];
			LInsn *in = &k->insns[g->start[b + 1] - 1];
			if (!region_has(R, q, b) && in->form->op == SOP_BRA && in->target >= 0 && (size_t)in->target < nold &&
			    k->label_pos[in->target] == g->start[rs[q].head])
				in->target = entry_label[q];
		}
	}
	for (size_t b = 0; b < g->nblocks; b++) {
		size_t last = g->start[b + 1] - 1;
		LInsn *in = &k->insns[last];
		bool brk;
		if (in->form->op == SOP_BRA && in->target >= 0) {
			long r = edge_region(R, b, g->block_of[k->label_pos[in->target]], &brk);
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
		long r = edge_region(R, b, g->block_of[last + 1], &brk);
		if (r >= 0) {
			seam[b + 1].sync = join_label[r];
			seam[b + 1].sync_brk = brk;
		}
	}
	rebuild(k, g, seam, nold);
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

/* Scratch of the loop regions: per block a generation mark, reused
 * without clearing, and its depth in the post-dominator forest. */
typedef struct Scratch {
	size_t *mark, gen;
	size_t *depth;
	size_t *list;
} Scratch;

static size_t ipdom_up(const Cfg *g, size_t x)
{
	return g->ipdom[x] == x || g->ipdom[x] == SIZE_MAX ? SIZE_MAX : g->ipdom[x];
}

/* Depths in the post-dominator forest (the exit and the blocks that never
 * reach it are roots), each found once (path: room for every block). */
static void ipdom_depths(const Cfg *g, size_t *depth, size_t *path)
{
	size_t n = g->nblocks + 1;
	for (size_t b = 0; b < n; b++)
		depth[b] = SIZE_MAX;
	for (size_t b = 0; b < n; b++) {
		size_t np = 0, x = b;
		while (x != SIZE_MAX && depth[x] == SIZE_MAX) {
			path[np++] = x;
			x = ipdom_up(g, x);
		}
		size_t d = x == SIZE_MAX ? 0 : depth[x] + 1;
		while (np > 0)
			depth[path[--np]] = d++;
	}
}

/* The nearest block that post-dominates every block of set (SIZE_MAX:
 * none, they lie in different trees): pairwise nearest common ancestors,
 * each climbing from the deeper block. */
static size_t common_ipdom(const Cfg *g, const size_t *set, size_t n, const Scratch *s)
{
	if (n == 0)
		return SIZE_MAX;
	size_t j = set[0];
	for (size_t i = 1; i < n && j != SIZE_MAX; i++) {
		size_t x = set[i];
		while (x != SIZE_MAX && s->depth[x] > s->depth[j])
			x = ipdom_up(g, x);
		while (x != SIZE_MAX && s->depth[j] > s->depth[x])
			j = ipdom_up(g, j);
		while (x != SIZE_MAX && j != SIZE_MAX && x != j) {
			x = ipdom_up(g, x);
			j = ipdom_up(g, j);
		}
		if (x != j)
			j = SIZE_MAX;
	}
	return j;
}

/* Loop l as a region, or false when it needs none (every branch that
 * leaves it is uniform, as ptxas finds: reconverge_uniform.c). Its exits into the
 * join of an enclosing loop region are breaks out of that loop too (that
 * region becomes PBK/BRK); the other exits join at their common
 * post-dominator, PBK/BRK when they leave towards other blocks (ptxas
 * 11.8: one SSY for a loop left at one place, PBK for several). */
static bool loop_region(const Cfg *g, const bool *varying, size_t l, Regions *R, Scratch *sc, Region *out)
{
	const CfgLoop *lp = &g->loops[l];
	size_t in = ++sc->gen;      /* the loop's blocks */
	for (size_t i = 0; i < lp->size; i++)
		sc->mark[lp->blocks[i]] = in;
	bool splits = false;        /* a branch that may split the warp leaves the loop */
	for (size_t i = 0; i < lp->size && !splits; i++) {
		size_t b = lp->blocks[i];
		splits = varying[b] && (g->ipdom[b] == SIZE_MAX || sc->mark[g->ipdom[b]] != in);
	}
	if (!splits)
		return false;
	bool any = false, several = false;
	size_t first = SIZE_MAX, ntargets = 0, seen = ++sc->gen;
	long outer = R->inner_loop[lp->header];
	for (size_t i = 0; i < lp->size; i++) {
		size_t u = lp->blocks[i];
		for (unsigned s = 0; s < g->nsucc[u]; s++) {
			size_t q = g->succ[u][s];
			if (sc->mark[q] == in || sc->mark[q] == seen)
				continue;
			if (outer >= 0 && q == R->rs[outer].join) {
				R->rs[outer].brk = true;
				continue;
			}
			sc->mark[q] = seen;
			sc->list[ntargets++] = q;
			several |= any && q != first;
			if (!any)
				first = q;
			any = true;
		}
	}
	size_t join = common_ipdom(g, sc->list, ntargets, sc);
	if (join == SIZE_MAX || join == g->nblocks)
		return false;
	*out = (Region){ .head = lp->header, .join = join, .loop = true, .brk = several || first != join };
	return true;
}

/* The regions, enclosing ones first (by the heads' ranks, a loop before
 * the branch at its header): one per loop that is left (loop_region), one
 * per other conditional branch whose join is a block of its own loop (or
 * of no loop) other than the kernel's EXIT. */
static void regions_find(const LKernel *k, const Cfg *g, const bool *varying, Regions *R)
{
	size_t n = g->nblocks + 1, *order = xcalloc(n, sizeof *order);
	Scratch sc = { .mark = xcalloc(n, sizeof *sc.mark), .depth = xcalloc(n, sizeof *sc.depth),
	               .list = xcalloc(n, sizeof *sc.list) };
	ipdom_depths(g, sc.depth, sc.list);
	for (size_t b = 0; b < n; b++)
		order[b] = SIZE_MAX;
	for (size_t b = 0; b < g->nblocks; b++)
		if (g->rank[b] != SIZE_MAX)
			order[g->rank[b]] = b;      /* ranks number the reached blocks (and the exit) from 0 */
	for (size_t i = 0; i < n; i++) {
		size_t b = order[i], l = b == SIZE_MAX ? SIZE_MAX : g->loop_at[b];
		if (b == SIZE_MAX)
			continue;
		Region cand;
		if (l != SIZE_MAX && loop_region(g, varying, l, R, &sc, &cand)) {
			long enclosing = R->inner[b];
			if (!(enclosing >= 0 && R->rs[enclosing].join == cand.join))
				region_add(g, R, cand);
		}
		size_t join = g->ipdom[b];
		const LInsn *br = &k->insns[g->start[b + 1] - 1];
		if (!is_cond_branch(br) || join == g->nblocks || join == SIZE_MAX || g->nsucc[b] < 2 ||
		    joins_at_exit(k, g, join))
			continue;
		size_t loop = g->loop_of[b];
		if (loop != SIZE_MAX && !cfg_in_loop(g, loop, join))
			continue;           /* it leaves its loop: the loop's region */
		long enclosing = R->inner[b];
		if (enclosing >= 0 && R->rs[enclosing].join == join)
			continue;
		region_add(g, R, (Region){ .head = b, .join = join });
	}
	free(order);
	free(sc.mark);
	free(sc.depth);
	free(sc.list);
}

bool lw_reconverge(LowerCtx *c, LKernel *k)
{
	if (k->ninsns == 0)
		return true;
	/* the IR's growth room goes before the graph is built: a big kernel's
	 * peak memory is here (the syntax tree is still held) */
	k->insns = xrealloc(k->insns, (k->ninsns + 1) * sizeof *k->insns);
	k->cap = k->ninsns + 1;
	Cfg g;
	memset(&g, 0, sizeof g);
	cfg_build(k, &g);
	bool acyclic = cfg_analyse(&g), ok = true;
	/* an irreducible graph (a cycle entered at two places) is left as it is */
	if (cfg_loops(&g)) {
		size_t n = g.nblocks + 1;
		Regions R = { .rs = xcalloc(2 * n, sizeof *R.rs),     /* a loop's region and its header's */ .mark = xcalloc(n, sizeof *R.mark),
		              .inner = xcalloc(n, sizeof *R.inner), .inner_loop = xcalloc(n, sizeof *R.inner_loop) };
		for (size_t b = 0; b < n; b++)
			R.inner[b] = R.inner_loop[b] = -1;
		bool *divergent = NULL;
		bool *varying = cfg_varying_branches(k, &g, k->ncalls ? &divergent : NULL);
		/* a call only some of a warp's threads make (ptxas reserves CRS
		 * stack for it when the callee is not linked in: lower_call.c) */
		for (size_t i = 0; i < k->ncalls; i++)
			k->calls[i].divergent = divergent[g.block_of[k->calls[i].insn]];
		free(divergent);
		regions_find(k, &g, varying, &R);
		free(varying);
		regions_index(&g, &R);
		/* a kernel with loops whose shape no placement fits is left as it
		 * was before loops were handled (docs/encoding.md) */
		ok = regions_fit(c, acyclic, k, &g, &R) && brx_fits(c, acyclic, k, &g, &R);
		if (ok && R.nr > 0)
			rewrite(k, &g, &R);
		for (size_t b = 0; b < g.nblocks && ok; b++) {
			uint32_t depth = (uint32_t)(R.of_off[b + 1] - R.of_off[b]);
			k->crs_nesting = depth > k->crs_nesting ? depth : k->crs_nesting;
		}
		for (size_t r = 0; r < R.nr && ok; r++)
			k->crs_loop |= R.rs[r].loop;
		regions_free(&R);
		ok = ok || !acyclic;
	}
	cfg_free(&g);
	return ok;
}

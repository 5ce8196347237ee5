/* Reconvergence for sm_50 (issue 14/15): on Maxwell a warp whose threads
 * took different sides of a branch joins again only through the CRS stack
 * (SSY pushes the join point, SYNC ends a path there; NVIDIA's SASS
 * reference for SPA 5.0). Plain BRAs never join: one group runs to EXIT,
 * then the other, so a bar.sync, shfl or vote after a divergent branch
 * sees half a warp. As ptxas 11.8 -O0 does for an if, this pass puts
 * `SSY J` before each conditional branch whose immediate post-dominator J
 * is a block (not the kernel's EXIT) and turns every edge into J from the
 * branch's region (the blocks it reaches before J) into SYNC: a branch to J
 * becomes `[@p] SYNC`, a fall-through into J gets a SYNC before J.
 *
 * A branch inside a region with the same join adds no SSY of its own (its
 * edges into J SYNC to the enclosing SSY, as ptxas's one PBK for an
 * if/else-if does). In an acyclic control-flow graph the regions then nest,
 * so the innermost region of a block is the innermost SSY on the stack when
 * it runs. Kernels with a loop are left as they are (ptxas uses PBK/BRK and
 * a single latch there; not done yet: docs/encoding.md), and overlapping
 * regions (gotos into the middle of another branch's region) get an
 * encoder-unsupported diagnostic. Runs on the lowered IR, before linking,
 * liveness and allocation. */
#include "lower/lower_internal.h"
#include "lower/liveness.h"
#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

typedef struct Cfg {
	size_t nblocks;             /* blocks 0..nblocks-1; nblocks is the virtual exit */
	size_t *start;              /* first instruction of each block (start[nblocks] = ninsns) */
	size_t *block_of;           /* instruction -> block */
	size_t **succ;              /* per block, into succ_pool (a BRX has more than two) */
	size_t *succ_pool;
	unsigned *nsucc;
	size_t *ipdom;
	size_t *rank;               /* topological position (the exit last) */
} Cfg;

static bool is_cond_branch(const LInsn *in)
{
	return (in->form->op == SOP_BRA && !linsn_is_unconditional_jump(in)) || in->form->op == SOP_BRX;
}

/* ---- brx: brx.idx's BRX has a successor per target (and the next
 * block when guarded); its SSY and SYNCs are placed as for a BRA ---- */
static size_t brx_succ_room(const LKernel *k, const LInsn *last)
{
	return last->form->op == SOP_BRX && last->target >= 0 ? k->brx[last->target].n + 1 : 2;
}

/* The block successors of a BRX block b; false when it is no BRX. */
static bool brx_block_succ(const LKernel *k, Cfg *g, size_t b)
{
	size_t last = g->start[b + 1] - 1;
	const LInsn *in = &k->insns[last];
	if (in->form->op != SOP_BRX)
		return false;
	size_t *to = xcalloc(LK_MAX_SUCC, sizeof *to);
	unsigned n = 0, m = lkernel_successors(k, last, to);
	for (unsigned j = 0; j < m; j++) {
		size_t q = to[j] < k->ninsns ? g->block_of[to[j]] : g->nblocks, e = 0;
		while (e < n && g->succ[b][e] != q)
			e++;
		if (e == n)
			g->succ[b][n++] = q;
	}
	g->nsucc[b] = n;
	free(to);
	return true;
}

/* A BRX straight to its region's join would need a SYNC in its place. */
static bool brx_into_join(LowerCtx *c, const LKernel *k, const Cfg *g, size_t b, size_t join)
{
	const LInsn *in = &k->insns[g->start[b + 1] - 1];
	for (unsigned s = 0; in->form->op == SOP_BRX && s < g->nsucc[b]; s++)
		if (g->succ[b][s] == join)
			return lw_unsupported(c, in->loc, "a brx.idx target that is the join point of its own "
			                      "targets (write the join's code in a block of its own)");
	return true;
}
/* ---- end brx ---- */

/* The block successors of b (the virtual exit for EXIT and RET). */
static void block_succ(const LKernel *k, Cfg *g, size_t b)
{
	size_t last = g->start[b + 1] - 1, exit = g->nblocks;
	const LInsn *in = &k->insns[last];
	unsigned n = 0;
	if (brx_block_succ(k, g, b))
		return;
	SassOp op = in->form->op;
	if (op == SOP_BRA && in->target >= 0)
		g->succ[b][n++] = g->block_of[k->label_pos[in->target]];
	if (!linsn_is_unconditional_jump(in))
		g->succ[b][n++] = last + 1 < k->ninsns ? g->block_of[last + 1] : exit;
	else if (op == SOP_EXIT || op == SOP_RET)
		g->succ[b][n++] = exit;
	if (n == 2 && g->succ[b][0] == g->succ[b][1])
		n = 1;
	g->nsucc[b] = n;
}

static void cfg_build(const LKernel *k, Cfg *g)
{
	bool *leader = xcalloc(k->ninsns + 1, sizeof *leader);
	leader[0] = true;
	for (size_t l = 0; l < k->nlabels; l++)
		leader[k->label_pos[l]] = true;
	for (size_t i = 0; i < k->ninsns; i++) {
		SassOp op = k->insns[i].form->op;
		if (op == SOP_BRA || op == SOP_EXIT || op == SOP_RET || op == SOP_BRX)
			leader[i + 1] = true;
	}
	g->block_of = xcalloc(k->ninsns + 1, sizeof *g->block_of);
	g->start = xcalloc(k->ninsns + 2, sizeof *g->start);
	g->nblocks = 0;
	for (size_t i = 0; i < k->ninsns; i++) {
		if (leader[i])
			g->start[g->nblocks++] = i;
		g->block_of[i] = g->nblocks - 1;
	}
	g->start[g->nblocks] = k->ninsns;
	g->block_of[k->ninsns] = g->nblocks;
	free(leader);
	g->succ = xcalloc(g->nblocks + 1, sizeof *g->succ);
	size_t room = 0;
	for (size_t b = 0; b < g->nblocks; b++)
		room += brx_succ_room(k, &k->insns[g->start[b + 1] - 1]);
	g->succ_pool = xcalloc(room + 1, sizeof *g->succ_pool);
	for (size_t b = 0, at = 0; b < g->nblocks; b++) {
		g->succ[b] = g->succ_pool + at;
		at += brx_succ_room(k, &k->insns[g->start[b + 1] - 1]);
	}
	g->nsucc = xcalloc(g->nblocks + 1, sizeof *g->nsucc);
	for (size_t b = 0; b < g->nblocks; b++)
		block_succ(k, g, b);
}

/* Topological ranks by a depth-first search from the entry; false when the
 * graph has a cycle. Unreachable blocks get no rank (SIZE_MAX). */
static bool cfg_rank(Cfg *g)
{
	size_t n = g->nblocks + 1, next = n;
	uint8_t *state = xcalloc(n, 1);         /* 0 new, 1 on the stack, 2 done */
	size_t *stack = xcalloc(n, sizeof *stack), *edge = xcalloc(n, sizeof *edge), sp = 0;
	bool acyclic = true;
	g->rank = xcalloc(n, sizeof *g->rank);
	for (size_t b = 0; b < n; b++)
		g->rank[b] = SIZE_MAX;
	stack[sp++] = 0;
	state[0] = 1;
	while (sp > 0 && acyclic) {
		size_t b = stack[sp - 1];
		if (b < g->nblocks && edge[b] < g->nsucc[b]) {
			size_t s = g->succ[b][edge[b]++];
			if (state[s] == 1)
				acyclic = false;
			else if (state[s] == 0) {
				state[s] = 1;
				stack[sp++] = s;
			}
			continue;
		}
		state[b] = 2;
		g->rank[b] = --next;        /* reverse post-order: successors rank higher */
		sp--;
	}
	free(state);
	free(stack);
	free(edge);
	return acyclic;
}

/* Immediate post-dominators of an acyclic graph, successors first
 * (Cooper, Harvey and Kennedy's intersection on the topological ranks). */
static void cfg_ipdom(Cfg *g)
{
	size_t n = g->nblocks + 1;
	size_t *order = xcalloc(n, sizeof *order), m = 0;
	g->ipdom = xcalloc(n, sizeof *g->ipdom);
	for (size_t b = 0; b < n; b++) {
		g->ipdom[b] = SIZE_MAX;
		if (g->rank[b] != SIZE_MAX)
			order[m++] = b;
	}
	/* highest rank first: every successor is done before its block */
	for (size_t i = 1; i < m; i++)
		for (size_t j = i; j > 0 && g->rank[order[j - 1]] < g->rank[order[j]]; j--) {
			size_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	g->ipdom[g->nblocks] = g->nblocks;
	for (size_t i = 0; i < m; i++) {
		size_t b = order[i];
		if (b == g->nblocks)
			continue;
		size_t p = SIZE_MAX;
		for (unsigned s = 0; s < g->nsucc[b]; s++) {
			size_t q = g->succ[b][s];
			if (p == SIZE_MAX) {
				p = q;
				continue;
			}
			while (p != q) {
				while (g->rank[p] < g->rank[q])
					p = g->ipdom[p];
				while (g->rank[q] < g->rank[p])
					q = g->ipdom[q];
			}
		}
		g->ipdom[b] = p == SIZE_MAX ? g->nblocks : p;
	}
	free(order);
}

static void cfg_free(Cfg *g)
{
	free(g->start);
	free(g->block_of);
	free(g->succ);
	free(g->succ_pool);
	free(g->nsucc);
	free(g->ipdom);
	free(g->rank);
}

typedef struct Region {
	size_t head, join;          /* blocks */
	bool *in;                   /* per block */
	size_t size;
} Region;

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

/* The innermost region holding block b, or -1. */
static long innermost(const Region *rs, size_t n, size_t b)
{
	long best = -1;
	for (size_t i = 0; i < n; i++)
		if (rs[i].in[b] && (best < 0 || rs[i].size < rs[(size_t)best].size))
			best = (long)i;
	return best;
}

/* A label naming instruction pos: an existing one, else a new id. */
static int label_at(LKernel *k, size_t pos)
{
	for (size_t l = 0; l < k->nlabels; l++)
		if (k->label_pos[l] == pos)
			return (int)l;
	k->label_pos = xrealloc(k->label_pos, (k->nlabels + 1) * sizeof *k->label_pos);
	k->label_pos[k->nlabels] = pos;
	return (int)k->nlabels++;
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

/* Rebuilds k->insns with `SSY ssy_at[i]` (a label id, or -1) before
 * instruction i, where i's labels stay, and `SYNC` (to sync_before[i], or
 * none for -1) before i's labels. Moves the call sites' instruction
 * indices. */
static void rebuild(LKernel *k, const int *ssy_at, const int *sync_before)
{
	size_t extra = 0;
	for (size_t i = 0; i <= k->ninsns; i++)
		extra += (ssy_at[i] >= 0) + (sync_before[i] >= 0);
	LInsn *out = xcalloc(k->ninsns + extra + 1, sizeof *out);
	size_t *newpos = xcalloc(k->ninsns + 1, sizeof *newpos), *newinsn = xcalloc(k->ninsns + 1, sizeof *newinsn);
	size_t j = 0;
	for (size_t i = 0; i <= k->ninsns; i++) {
		SrcLoc loc = i < k->ninsns ? k->insns[i].loc : k->loc;
		if (sync_before[i] >= 0)
			out[j++] = made(SF_SYNC, i > 0 ? k->insns[i - 1].loc : loc, sync_before[i]);
		newpos[i] = j;
		if (ssy_at[i] >= 0)
			out[j++] = made(SF_SSY, loc, ssy_at[i]);
		newinsn[i] = j;
		if (i < k->ninsns)
			out[j++] = k->insns[i];
	}
	for (size_t l = 0; l < k->nlabels; l++)
		k->label_pos[l] = newpos[k->label_pos[l]];
	for (size_t c = 0; c < k->ncalls; c++)
		k->calls[c].insn = newinsn[k->calls[c].insn];
	free(k->insns);
	k->insns = out;
	k->cap = k->ninsns + extra + 1;     /* what out holds */
	k->ninsns = j;
	free(newpos);
	free(newinsn);
}

/* Turns the edges into each region's join into SYNCs and places the SSYs. */
static bool rewrite(LowerCtx *c, LKernel *k, const Cfg *g, const Region *rs, size_t nr)
{
	int *ssy_at = xcalloc(k->ninsns + 1, sizeof *ssy_at);
	int *sync_before = xcalloc(k->ninsns + 1, sizeof *sync_before);
	bool ok = true;
	int *join_label = xcalloc(nr ? nr : 1, sizeof *join_label);
	for (size_t i = 0; i <= k->ninsns; i++)
		ssy_at[i] = sync_before[i] = -1;
	for (size_t r = 0; r < nr; r++)
		join_label[r] = label_at(k, g->start[rs[r].join]);
	for (size_t r = 0; r < nr; r++)
		ssy_at[g->start[rs[r].head + 1] - 1] = join_label[r];
	for (size_t b = 0; b < g->nblocks && ok; b++) {
		long r = innermost(rs, nr, b);
		if (r < 0)
			continue;
		size_t join = rs[r].join, last = g->start[b + 1] - 1;
		LInsn *in = &k->insns[last];
		ok = ok && brx_into_join(c, k, g, b, join);
		for (size_t o = 0; o < nr; o++)
			for (unsigned s = 0; s < g->nsucc[b]; s++)
				if ((long)o != r && rs[o].in[b] && g->succ[b][s] == rs[o].join && rs[o].join != join) {
					ok = lw_unsupported(c, in->loc, "a branch out of a divergent region into another "
					                    "branch's join point (no SSY/SYNC nesting fits it)");
				}
		bool branches_to_join = in->form->op == SOP_BRA && in->target >= 0 &&
		                        g->block_of[k->label_pos[in->target]] == join;
		if (branches_to_join) {
			bool guarded = linsn_is_guarded(in);
			int64_t pg_not = linsn_get(in, SR_PG_NOT, 0);
			LRegRef guard = { 0 };
			for (unsigned q = 0; q < in->nrefs; q++)
				if (in->refs[q].role == SR_PG)
					guard = in->refs[q];
			LInsn sync = made(SF_SYNC, in->loc, join_label[r]);
			if (guarded) {
				linsn_ref(&sync, SR_PG, guard.vreg, 0, 1, false);
				linsn_set(&sync, SR_PG_NOT, pg_not);
			}
			*in = sync;
		}
		if (!linsn_is_unconditional_jump(&k->insns[last]) && last + 1 < k->ninsns &&
		    g->block_of[last + 1] == join)
			sync_before[last + 1] = join_label[r];
	}
	if (ok)
		rebuild(k, ssy_at, sync_before);
	free(ssy_at);
	free(sync_before);
	free(join_label);
	return ok;
}

/* Regions must nest: two that share a block hold one another's head. */
static bool regions_nest(LowerCtx *c, const LKernel *k, const Cfg *g, const Region *rs, size_t nr)
{
	for (size_t a = 0; a < nr; a++)
		for (size_t b = a + 1; b < nr; b++) {
			if (rs[a].in[rs[b].head] || rs[b].in[rs[a].head])
				continue;
			for (size_t x = 0; x < g->nblocks; x++)
				if (rs[a].in[x] && rs[b].in[x])
					return lw_unsupported(c, k->insns[g->start[rs[b].head + 1] - 1].loc,
					                      "two divergent branches whose paths overlap without nesting "
					                      "(no SSY/SYNC placement reconverges them)");
		}
	return true;
}

/* A join that is the kernel's EXIT needs no SSY: the threads end there
 * (ptxas -O0 branches to it with a plain BRA). */
static bool joins_at_exit(const LKernel *k, const Cfg *g, size_t join)
{
	const LInsn *first = &k->insns[g->start[join]];
	return first->form->op == SOP_EXIT && linsn_is_unconditional_jump(first);
}

bool lw_reconverge(LowerCtx *c, LKernel *k)
{
	if (k->ninsns == 0)
		return true;
	Cfg g;
	memset(&g, 0, sizeof g);
	cfg_build(k, &g);
	bool ok = true;
	if (cfg_rank(&g)) {
		cfg_ipdom(&g);
		Region *rs = xcalloc(g.nblocks + 1, sizeof *rs);
		size_t nr = 0;
		/* heads in topological order: an enclosing region is known first */
		size_t *order = xcalloc(g.nblocks + 1, sizeof *order), m = 0;
		for (size_t b = 0; b < g.nblocks; b++)
			if (g.rank[b] != SIZE_MAX)
				order[m++] = b;
		for (size_t i = 1; i < m; i++)
			for (size_t j = i; j > 0 && g.rank[order[j - 1]] > g.rank[order[j]]; j--) {
				size_t t = order[j];
				order[j] = order[j - 1];
				order[j - 1] = t;
			}
		for (size_t i = 0; i < m; i++) {
			size_t b = order[i];
			const LInsn *br = &k->insns[g.start[b + 1] - 1];
			if (!is_cond_branch(br) || g.ipdom[b] == g.nblocks || g.nsucc[b] < 2 ||
			    joins_at_exit(k, &g, g.ipdom[b]))
				continue;
			long enclosing = innermost(rs, nr, b);
			if (enclosing >= 0 && rs[enclosing].join == g.ipdom[b])
				continue;
			rs[nr] = (Region){ .head = b, .join = g.ipdom[b] };
			region_fill(&g, &rs[nr++]);
		}
		free(order);
		ok = regions_nest(c, k, &g, rs, nr) && (nr == 0 || rewrite(c, k, &g, rs, nr));
		for (size_t b = 0; b < g.nblocks; b++) {
			uint32_t depth = 0;
			for (size_t r = 0; r < nr; r++)
				depth += rs[r].in[b];
			k->crs_nesting = depth > k->crs_nesting ? depth : k->crs_nesting;
		}
		for (size_t r = 0; r < nr; r++)
			free(rs[r].in);
		free(rs);
	}
	cfg_free(&g);
	return ok;
}

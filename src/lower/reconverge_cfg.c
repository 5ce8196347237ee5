/* The block graph of a lowered kernel for reconverge.c: blocks, their
 * successors and predecessors (EXIT and RET go to a virtual exit block),
 * depth-first ranks, dominators and post-dominators by Cooper, Harvey and
 * Kennedy's iteration (correct on cyclic graphs too, and on an acyclic one
 * the same tree as the one-pass intersection), and natural loops: a back
 * edge u -> h is one whose target dominates its source; the loop of h is h
 * and every block that reaches a back edge's source without passing h. */
#include "lower/reconverge_cfg.h"
#include "lower/liveness.h"
#include "base/xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- brx: brx.idx's BRX has a successor per target of its table (and
 * the next block when guarded) ---- */
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

static void preds_build(Cfg *g)
{
	size_t n = g->nblocks + 1;
	g->pred_off = xcalloc(n + 1, sizeof *g->pred_off);
	for (size_t b = 0; b < g->nblocks; b++)
		for (unsigned s = 0; s < g->nsucc[b]; s++)
			g->pred_off[g->succ[b][s] + 1]++;
	for (size_t b = 0; b < n; b++)
		g->pred_off[b + 1] += g->pred_off[b];
	size_t *fill = xcalloc(n, sizeof *fill);
	g->pred = xcalloc(g->pred_off[n] + 1, sizeof *g->pred);
	for (size_t b = 0; b < g->nblocks; b++)
		for (unsigned s = 0; s < g->nsucc[b]; s++) {
			size_t q = g->succ[b][s];
			g->pred[g->pred_off[q] + fill[q]++] = b;
		}
	free(fill);
}

void cfg_build(const LKernel *k, Cfg *g)
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
	preds_build(g);
}

/* One direction of the graph: forward from the entry (successors) or
 * backward from the exit (predecessors). */
typedef struct Dir {
	const Cfg *g;
	bool backward;
} Dir;

static size_t dir_count(Dir d, size_t b)
{
	if (d.backward)
		return d.g->pred_off[b + 1] - d.g->pred_off[b];
	return b < d.g->nblocks ? d.g->nsucc[b] : 0;
}

static size_t dir_next(Dir d, size_t b, size_t i)
{
	return d.backward ? d.g->pred[d.g->pred_off[b] + i] : d.g->succ[b][i];
}

/* The edges into b in direction d: the other direction's edges out of b. */
static Dir dir_reversed(Dir d)
{
	return (Dir){ .g = d.g, .backward = !d.backward };
}

/* Post-order numbers of a depth-first search from root (SIZE_MAX:
 * unreached); true when no edge goes back to a block on the stack. */
static bool dfs_post(Dir d, size_t root, size_t *post)
{
	size_t n = d.g->nblocks + 1, next = 0;
	uint8_t *state = xcalloc(n, 1);         /* 0 new, 1 on the stack, 2 done */
	size_t *stack = xcalloc(n, sizeof *stack), *edge = xcalloc(n, sizeof *edge), sp = 0;
	bool acyclic = true;
	for (size_t b = 0; b < n; b++)
		post[b] = SIZE_MAX;
	stack[sp++] = root;
	state[root] = 1;
	while (sp > 0) {
		size_t b = stack[sp - 1];
		if (edge[b] < dir_count(d, b)) {
			size_t s = dir_next(d, b, edge[b]++);
			if (state[s] == 1)
				acyclic = false;
			else if (state[s] == 0) {
				state[s] = 1;
				stack[sp++] = s;
			}
			continue;
		}
		state[b] = 2;
		post[b] = next++;
		sp--;
	}
	free(state);
	free(stack);
	free(edge);
	return acyclic;
}

/* Immediate dominators in direction d from root (Cooper, Harvey and
 * Kennedy: iterate in reverse post-order until nothing changes). */
static void dominators(Dir d, size_t root, size_t *idom)
{
	size_t n = d.g->nblocks + 1, m = 0;
	size_t *post = xcalloc(n, sizeof *post), *order = xcalloc(n, sizeof *order);
	dfs_post(d, root, post);
	for (size_t b = 0; b < n; b++) {
		idom[b] = SIZE_MAX;
		if (post[b] != SIZE_MAX)
			order[post[b]] = b;
		m += post[b] != SIZE_MAX;
	}
	Dir in = dir_reversed(d);
	idom[root] = root;
	for (bool changed = true; changed;) {
		changed = false;
		for (size_t i = m; i-- > 0;) {
			size_t b = order[i], p = SIZE_MAX;
			if (b == root)
				continue;
			for (size_t e = 0; e < dir_count(in, b); e++) {
				size_t q = dir_next(in, b, e);
				if (idom[q] == SIZE_MAX)
					continue;
				if (p == SIZE_MAX) {
					p = q;
					continue;
				}
				while (p != q) {
					while (post[p] < post[q])
						p = idom[p];
					while (post[q] < post[p])
						q = idom[q];
				}
			}
			if (p != idom[b]) {
				idom[b] = p;
				changed = true;
			}
		}
	}
	free(post);
	free(order);
}

bool cfg_analyse(Cfg *g)
{
	size_t n = g->nblocks + 1;
	Dir fwd = { .g = g, .backward = false }, bwd = { .g = g, .backward = true };
	g->rank = xcalloc(n, sizeof *g->rank);
	bool acyclic = dfs_post(fwd, 0, g->rank);
	size_t reached = 0;
	for (size_t b = 0; b < n; b++)
		reached += g->rank[b] != SIZE_MAX;
	for (size_t b = 0; b < n; b++)      /* reverse post-order: successors rank higher */
		if (g->rank[b] != SIZE_MAX)
			g->rank[b] = reached - 1 - g->rank[b];
	g->idom = xcalloc(n, sizeof *g->idom);
	g->ipdom = xcalloc(n, sizeof *g->ipdom);
	dominators(fwd, 0, g->idom);
	dominators(bwd, g->nblocks, g->ipdom);
	return acyclic;
}

static bool dominates(const Cfg *g, size_t h, size_t b)
{
	while (b != h && g->idom[b] != SIZE_MAX && g->idom[b] != b)
		b = g->idom[b];
	return b == h;
}

/* The body of loop l: h and every block reaching one of its back edges'
 * sources without passing h (mark: per block, l + 1 once it is in; work:
 * room for every block, shared by the loops). */
static void loop_body(Cfg *g, size_t l, const size_t *src, size_t nsrc, size_t *mark, size_t *work)
{
	CfgLoop *lp = &g->loops[l];
	size_t nw = 0;              /* the work list is the body: each block enters it once */
	mark[lp->header] = l + 1;
	work[nw++] = lp->header;
	for (size_t i = 0; i < nsrc; i++)
		if (mark[src[i]] != l + 1) {
			mark[src[i]] = l + 1;
			work[nw++] = src[i];
		}
	for (size_t at = 1; at < nw; at++) {
		size_t b = work[at];
		for (size_t e = g->pred_off[b]; e < g->pred_off[b + 1]; e++) {
			size_t p = g->pred[e];
			if (mark[p] == l + 1 || g->rank[p] == SIZE_MAX)
				continue;
			mark[p] = l + 1;
			work[nw++] = p;
		}
	}
	lp->size = nw;
	lp->blocks = xcalloc(nw, sizeof *lp->blocks);
	memcpy(lp->blocks, work, nw * sizeof *work);
}

typedef struct LoopKey {
	size_t size, loop;
} LoopKey;

static int loop_larger_first(const void *a, const void *b)
{
	const LoopKey *x = a, *y = b;
	if (x->size != y->size)
		return (x->size < y->size) - (x->size > y->size);
	return (x->loop > y->loop) - (x->loop < y->loop);
}

/* Parents and innermost loops: larger loops first, so a loop's parent is
 * the innermost one seen so far around its header (natural loops with
 * different headers nest or are disjoint). */
static void loop_tree(Cfg *g)
{
	LoopKey *order = xcalloc(g->nloops + 1, sizeof *order);
	for (size_t l = 0; l < g->nloops; l++)
		order[l] = (LoopKey){ .size = g->loops[l].size, .loop = l };
	qsort(order, g->nloops, sizeof *order, loop_larger_first);
	for (size_t i = 0; i < g->nloops; i++) {
		CfgLoop *lp = &g->loops[order[i].loop];
		lp->parent = g->loop_of[lp->header];
		for (size_t j = 0; j < lp->size; j++)
			g->loop_of[lp->blocks[j]] = order[i].loop;
	}
	free(order);
}

bool cfg_in_loop(const Cfg *g, size_t l, size_t b)
{
	for (size_t x = g->loop_of[b]; x != SIZE_MAX; x = g->loops[x].parent)
		if (x == l)
			return true;
	return false;
}

/* A loop per header of a back edge u -> h (one whose target dominates its
 * source), numbered in the order of the blocks' first back edges. */
bool cfg_loops(Cfg *g)
{
	size_t n = g->nblocks + 1, nedges = 0;
	g->loops = xcalloc(n, sizeof *g->loops);
	g->nloops = 0;
	g->loop_of = xcalloc(n, sizeof *g->loop_of);
	g->loop_at = xcalloc(n, sizeof *g->loop_at);
	for (size_t b = 0; b < n; b++)
		g->loop_of[b] = g->loop_at[b] = SIZE_MAX;
	size_t *edge_src = xcalloc(g->pred_off[n] + 1, sizeof *edge_src);
	size_t *edge_loop = xcalloc(g->pred_off[n] + 1, sizeof *edge_loop);
	for (size_t u = 0; u < g->nblocks; u++) {
		if (g->rank[u] == SIZE_MAX)
			continue;
		for (unsigned s = 0; s < g->nsucc[u]; s++) {
			size_t h = g->succ[u][s];
			if (h == g->nblocks || g->rank[h] > g->rank[u])
				continue;
			if (!dominates(g, h, u)) {
				free(edge_src);
				free(edge_loop);
				return false;       /* a retreating edge into the middle of a cycle */
			}
			if (g->loop_at[h] == SIZE_MAX) {
				g->loop_at[h] = g->nloops;
				g->loops[g->nloops++] = (CfgLoop){ .header = h, .parent = SIZE_MAX };
			}
			edge_src[nedges] = u;
			edge_loop[nedges++] = g->loop_at[h];
		}
	}
	/* the back edges grouped by loop, in their order */
	size_t *off = xcalloc(g->nloops + 2, sizeof *off), *src = xcalloc(nedges + 1, sizeof *src);
	for (size_t e = 0; e < nedges; e++)
		off[edge_loop[e] + 1]++;
	for (size_t l = 0; l < g->nloops; l++)
		off[l + 1] += off[l];
	size_t *fill = xcalloc(g->nloops + 1, sizeof *fill), *mark = xcalloc(n, sizeof *mark);
	size_t *work = xcalloc(n, sizeof *work);
	for (size_t e = 0; e < nedges; e++)
		src[off[edge_loop[e]] + fill[edge_loop[e]]++] = edge_src[e];
	for (size_t l = 0; l < g->nloops; l++)
		loop_body(g, l, src + off[l], off[l + 1] - off[l], mark, work);
	loop_tree(g);
	free(off);
	free(src);
	free(fill);
	free(mark);
	free(work);
	free(edge_src);
	free(edge_loop);
	return true;
}

void cfg_free(Cfg *g)
{
	free(g->start);
	free(g->block_of);
	free(g->succ);
	free(g->succ_pool);
	free(g->nsucc);
	free(g->pred_off);
	free(g->pred);
	free(g->rank);
	free(g->idom);
	free(g->ipdom);
	for (size_t i = 0; i < g->nloops; i++)
		free(g->loops[i].blocks);
	free(g->loops);
	free(g->loop_of);
	free(g->loop_at);
}

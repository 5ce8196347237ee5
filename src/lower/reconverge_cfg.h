/* The block graph reconverge.c places SSY/SYNC and PBK/BRK on
 * (reconverge_cfg.c): blocks of the lowered IR, their depth-first ranks,
 * dominators, immediate post-dominators and natural loops. Cyclic graphs
 * are fine; an irreducible one (a cycle entered at two blocks) reports
 * false from cfg_loops. */
#ifndef PTXSURF_LOWER_RECONVERGE_CFG_H
#define PTXSURF_LOWER_RECONVERGE_CFG_H

#include "lower/lower_internal.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct CfgLoop {
	size_t header;
	size_t *blocks;             /* the natural loop's body, the header too */
	size_t size;
	size_t parent;              /* the innermost loop around it (SIZE_MAX: none) */
} CfgLoop;

typedef struct Cfg {
	size_t nblocks;             /* blocks 0..nblocks-1; nblocks is the virtual exit */
	size_t *start;              /* first instruction of each block (start[nblocks] = ninsns) */
	size_t *block_of;           /* instruction -> block */
	size_t **succ;              /* per block, into succ_pool (a BRX has more than two) */
	size_t *succ_pool;
	unsigned *nsucc;
	size_t *pred_off, *pred;    /* predecessors of b: pred[pred_off[b] .. pred_off[b + 1]) */
	size_t *rank;               /* reverse post-order from the entry (SIZE_MAX: unreachable) */
	size_t *idom;               /* immediate dominators (SIZE_MAX: unreachable) */
	size_t *ipdom;              /* immediate post-dominators (SIZE_MAX: never reaches the exit) */
	CfgLoop *loops;             /* natural loops nest (the graph is reducible) */
	size_t nloops;
	size_t *loop_of;            /* per block: the innermost loop holding it (SIZE_MAX: none) */
	size_t *loop_at;            /* per block: the loop it heads (SIZE_MAX: none) */
} Cfg;

void cfg_build(const LKernel *k, Cfg *g);
/* Ranks, dominators and post-dominators; true when the graph is acyclic. */
bool cfg_analyse(Cfg *g);
/* The natural loops, one per header; false for an irreducible graph. */
bool cfg_loops(Cfg *g);
/* Block b (the virtual exit too) is in loop l: l is loop_of[b] or one
 * around it. */
bool cfg_in_loop(const Cfg *g, size_t l, size_t b);
void cfg_free(Cfg *g);
/* Per block: its conditional branch may split a warp (reconverge_uniform.c;
 * the caller frees it). With divergent non-NULL, also per block whether it
 * may run with only some of a warp's threads (a varying branch decides
 * whether it runs; the caller frees that too). */
bool *cfg_varying_branches(const LKernel *k, const Cfg *g, bool **divergent);

#endif

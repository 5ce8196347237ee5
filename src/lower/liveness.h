/* Control flow and liveness of a lowered kernel, per 32-bit register part.
 *
 * A part's live points are kept as sorted ranges of instructions, not as a
 * bit per instruction: a kernel of n instructions and p parts then needs
 * memory for the ranges that exist (about one per read, kill and block the
 * part is live through) instead of p x n bits, which made one big unrolled
 * kernel quadratic in time and memory. */
#ifndef PTXSURF_LIVENESS_H
#define PTXSURF_LIVENESS_H

#include "lower/call_scope.h"
#include "lower/lower.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Successors of instruction i in k (fall-through and branch target, or a
 * BRX's table of targets); returns how many (0..LK_MAX_SUCC). */
enum { LK_MAX_SUCC = LBRX_MAX_TARGETS + 1 };
unsigned lkernel_successors(const LKernel *k, size_t i, size_t succ[LK_MAX_SUCC]);
/* Whether instruction i always leaves its block (unguarded BRA / EXIT). */
bool linsn_is_unconditional_jump(const LInsn *in);
/* Whether the instruction has a guard predicate operand. */
bool linsn_is_guarded(const LInsn *in);

/* Instructions [lo, hi). */
typedef struct LiveRange {
	uint32_t lo, hi;
} LiveRange;

/* A set of instructions: sorted ranges, neither overlapping nor touching.
 * cap == 0: r points into storage the set does not own (the pool of the
 * Liveness that built it); the first change copies it out. */
typedef struct LiveSet {
	LiveRange *r;
	uint32_t n, cap;
} LiveSet;

bool live_set_has(const LiveSet *s, size_t i);
/* Adds [lo, hi) to a set built in ascending order (lo at or after the start
 * of its last range), joining it with that range when they overlap or touch. */
void live_set_append(LiveSet *s, uint32_t lo, uint32_t hi);
/* dst |= src. Only the ranges of dst that src's first and last range span
 * are rebuilt, so merging a short set into a long one costs the short one
 * (plus moving the long one's tail). scratch is a buffer the call may grow
 * and keeps for the next. */
void live_set_union(LiveSet *dst, const LiveSet *src, LiveSet *scratch);
void live_set_free(LiveSet *s);

typedef struct Liveness {
	size_t nparts;
	size_t *first_part;     /* vreg -> its first part (nvregs + 1 entries) */
	/* per part: instructions before which (in) and after which (out) it is live */
	LiveSet *in, *out;
	LiveRange *pool;        /* the ranges liveness_compute built */
	LiveSet scratch;        /* for live_set_union */
} Liveness;

/* The least solution of in = use | (out & ~kill), out = the union of the
 * successors' in. A def kills the part unless it is guarded (temporaries,
 * read only under the guard of their defs, are killed by guarded defs too). */
void liveness_compute(const LKernel *k, Liveness *lv);
/* The same with each call's own return: a part the callee (and what it
 * calls) never references goes from the CAL straight to its return site and
 * through the callee's body, but not from the callee's entry back to its
 * other calls (call_scope.h). Used when the plain solution, which lets a
 * value live across one call live back from every call of the function,
 * needs more registers than there are (regalloc_exact.c). */
void liveness_compute_scoped(const LKernel *k, Liveness *lv, const CallScope *scope);
void liveness_free(Liveness *lv);

static inline bool live_out(const Liveness *lv, size_t part, size_t i)
{
	return live_set_has(&lv->out[part], i);
}

#endif

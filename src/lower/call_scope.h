/* Which function regions of a linked kernel reference which vregs, for the
 * scoped liveness of calls (liveness_compute_scoped).
 *
 * Linking places each called function's body after the kernel's code
 * (lower_call.c): region 0 is the kernel's code, region f (1..n) the body
 * starting at the f-th lowest CAL target. A vreg is touched by f when f or
 * a function f calls (transitively) references it. */
#ifndef PTXSURF_CALL_SCOPE_H
#define PTXSURF_CALL_SCOPE_H

#include "lower/lower.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct CallScope {
	/* whether the edges from a RET to its return sites carry only what the
	 * function touches too: then a value live across a call is not live in
	 * the callee's body, and allocation keeps it out of the callee's
	 * registers (regalloc_exact.c); not when a recursive function is
	 * called (its calls save what lives across them, call_save.c) */
	bool returns;
	size_t nentries;
	uint32_t *entry;        /* sorted instruction index of each region's entry (region 1 + index) */
	size_t words;           /* 64-bit words per reach row */
	uint64_t *reach;        /* region f's row: the regions f runs (itself and its callees) */
	size_t *ref_start;      /* vreg -> its regions: ref_region[ref_start[v] .. ref_start[v + 1]) */
	uint32_t *ref_region;
} CallScope;

void call_scope_build(const LKernel *k, CallScope *cs);
void call_scope_free(CallScope *cs);
/* The region whose code instruction i is. */
uint32_t call_scope_region_at(const CallScope *cs, size_t i);
/* Whether region f or a region it calls references vreg v. */
bool call_scope_touches(const CallScope *cs, uint32_t v, uint32_t f);

#endif

/* Register allocation by exact live sets, for the kernels the linear scan
 * over whole intervals (regalloc.c) cannot fit into R0..R254.
 *
 * Liveness is the scoped solution of calls (liveness_compute_scoped), and
 * each vreg occupies only the half-steps where one of its parts is live or
 * written, so a register is reused in the holes of a value's life (between
 * the calls of a device function, say) as ptxas reuses it. */
#ifndef PTXSURF_REGALLOC_EXACT_H
#define PTXSURF_REGALLOC_EXACT_H

#include "lower/lower.h"

#include <stddef.h>
#include <stdint.h>

typedef struct ExactResult {
	int max_gpr;            /* the highest general register assigned */
	uint32_t failed;        /* a general vreg that found no register */
	uint32_t victim;        /* the vreg to keep in memory instead (UINT32_MAX: none) */
} ExactResult;

/* Assigns every vreg's phys. Vregs from spill_floor up are never chosen as
 * victims (they are the short temporaries of earlier spills). Returns 0,
 * 1 when a general vreg found no register (*res says which and what to
 * spill), or -1 with a message (predicates that do not fit, or one live
 * across a JCAL). */
int regalloc_exact(LKernel *k, uint32_t spill_floor, ExactResult *res, char *err, size_t errlen);

/* Writes each vreg's phys into the register fields and sets k->regcount. */
void regalloc_apply(LKernel *k, int max_gpr);

#endif

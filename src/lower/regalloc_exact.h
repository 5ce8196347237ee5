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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ExactResult {
	int max_gpr;            /* the highest general register assigned */
	uint32_t *victims;      /* the vregs to keep in memory, one per general vreg that found
	                         * no register (the caller frees the array) */
	size_t nvictims;
	bool stuck;             /* a general vreg found no register and nothing to spill instead */
	bool stuck_frame_words; /* ...where only a recursive function's argument or result words,
	                         * which never spill, were live besides */
} ExactResult;

/* Assigns every vreg's phys, general ones in R0..R<top_gpr>. A general vreg that finds no register names a
 * victim, and allocation goes on, so that one round finds every spill it
 * needs. Vregs from spill_floor up are never victims (they are the short
 * temporaries of earlier spills). Returns 0, 1 when general vregs found
 * no register (*res lists the victims, or is stuck), or -1 with a message
 * (predicates that do not fit, or one live across a JCAL). */
int regalloc_exact(LKernel *k, uint32_t spill_floor, int top_gpr, ExactResult *res, char *err, size_t errlen);

/* Writes each vreg's phys into the register fields and sets k->regcount. */
void regalloc_apply(LKernel *k, int max_gpr);

#endif

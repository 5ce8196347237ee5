/* Spilling predicates into general registers when more than sm_50's
 * seven are live at once (see pred_spill.c). */
#ifndef PTXSURF_PRED_SPILL_H
#define PTXSURF_PRED_SPILL_H

#include "lower/lower.h"

#include <stddef.h>

/* start/end: each vreg's live interval in half-steps (start < 0: never
 * live); vregs from first_temp on were made by an earlier round and are
 * not spilled again. Moves the predicates that do not fit into new
 * general registers, rewriting the instructions (liveness is then out of
 * date). Returns how many moved (0: they fit), or -1 when they cannot fit. */
long pred_spill(LKernel *k, const long *start, const long *end, size_t first_temp);

#endif

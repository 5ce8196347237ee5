/* Spilling predicates into general registers when more than sm_50's
 * seven are live at once (see pred_spill.c). */
#ifndef PTXSURF_PRED_SPILL_H
#define PTXSURF_PRED_SPILL_H

#include "lower/liveness.h"
#include "lower/lower.h"

#include <stddef.h>

/* start/end: each vreg's live interval in half-steps (start < 0: never
 * live); vregs from first_temp on were made by an earlier round and are
 * not spilled again. Moves the predicates that do not fit into new
 * general registers, rewriting the instructions (liveness is then out of
 * date). Returns how many moved (0: they fit), or -1 when they cannot fit. */
/* The pair that moves a predicate through a general register (ptxas
 * 11.8 -O0's spill and reload, measured), filled into a fresh SF_PSET /
 * SF_ISETP_R instruction: PSET.AND.AND w, p, PT, PT (w = p ? ~0 : 0) and
 * ISETP.NE.AND p, PT, w, RZ, PT (p = w != 0). The calling convention
 * passes .pred parameters with the same pair (lower_call.c). */
void pred_word_store(LInsn *in, uint32_t w, uint32_t p);
void pred_word_load(LInsn *in, uint32_t p, uint32_t w);

long pred_spill(LKernel *k, const long *start, const long *end, size_t first_temp);

/* Before allocation: every predicate live across a JCAL or a CAL of a
 * recursive function (lv: the kernel's liveness) goes through a new
 * general register around the call (PSET before, ISETP after), which the
 * callee preserves or call_save.c saves. Returns how many (liveness is
 * then out of date). */
long pred_save_across_calls(LKernel *k, const Liveness *lv);

#endif

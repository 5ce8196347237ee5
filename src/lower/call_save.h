/* Stack frames for calls of recursive functions (issue 15): every CAL
 * marked save_live saves the values live after it below R1 and loads them
 * back after it returns. */
#ifndef PTXSURF_CALL_SAVE_H
#define PTXSURF_CALL_SAVE_H

#include "lower/lower.h"

#include <stddef.h>

/* Returns 1 when code was added, 0 when k has no such call, -1 with the
 * reason in err when a predicate lives across one. */
int call_save_live(LKernel *k, char *err, size_t errlen);

/* After spilling grew k's frame: moves every call's frame and save area
 * down by the growth (the slots of each invocation lie above them). */
void call_save_shift(LKernel *k);

#endif

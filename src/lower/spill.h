/* General registers kept in local memory when a kernel has more values
 * live at once than R0..R254 hold (as ptxas does past its register limit). */
#ifndef PTXSURF_SPILL_H
#define PTXSURF_SPILL_H

#include "lower/lower.h"

/* Moves each of the n vregs v[] to a new slot of the kernel's stack frame:
 * each instruction that reads one (or writes only some of its parts, or
 * writes it under a guard) gets an LDL into a new vreg before it, each that
 * writes one an STL after it, and its references name the new vreg. */
void spill_vregs(LKernel *k, const uint32_t *v, size_t n);

#endif

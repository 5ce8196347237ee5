/* Register allocation for a lowered kernel: removes instructions whose
 * results are never read, computes liveness per 32-bit part over the
 * control-flow graph, and assigns every virtual register an aligned run of
 * physical registers (groups of 2 at even, 3/4 at multiples of 4; R1 is the
 * stack pointer and never allocated) by linear scan over live intervals;
 * a kernel that does not fit that way is allocated by exact live sets
 * (regalloc_exact.h), spilling to the stack frame if need be (spill.h). */
#ifndef PTXSURF_REGALLOC_H
#define PTXSURF_REGALLOC_H

#include "lower/lower.h"

#include <stddef.h>

enum { REGALLOC_STACK_REG = 1, REGALLOC_MAX_GPR = 254, REGALLOC_MAX_PRED = 6, REGALLOC_OVER_LIMIT = -2 };

/* Removes dead instructions, allocates, rewrites every register field with
 * the physical register and sets k->regcount. General registers stay below
 * the kernel's limit (k->maxreg_count, else the 255 of sm_50), values
 * spilling to local memory past it. Returns 0, REGALLOC_OVER_LIMIT with a
 * message when even spilling cannot keep within k->maxreg_count, or -1 with
 * a message when the kernel cannot be allocated otherwise. */
int regalloc_kernel(LKernel *k, char *err, size_t errlen);

#endif

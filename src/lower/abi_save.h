/* A function of its own (fnaddr, -c: lower_fnaddr.c) that needs the
 * registers its callers keep values in saves them on the stack. */
#ifndef PTXSURF_ABI_SAVE_H
#define PTXSURF_ABI_SAVE_H

#include "lower/lower.h"

/* Registers up to this one may change in a call of an external function
 * (R0..R15; R1 is the stack pointer, R2 is kept: regalloc.c never gives
 * it to such a function). R16..R31 are kept by the callee too, R32 up may
 * change: ptxas 11.8 -c's functions use R32 up without saving them and
 * leave R16..R31 alone. */
enum { ABI_SCRATCH_LAST = 15, ABI_KEPT_LAST = 31 };

/* Whether registers b..b+w-1 meet R16..R31; their bits (bit j: R16+j). */
bool abi_kept_range(int b, unsigned w);
uint32_t abi_kept_mask(int b, unsigned w);

/* After register allocation: saves the registers of R16..R31 in `used`
 * (bit j: R16+j) after the entry NOP and loads them back before the
 * wrapper's RET (the function's first), growing its frame. */
void abi_save_kept(LKernel *k, uint32_t used);

#endif

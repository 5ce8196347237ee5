/* The .NODEP bit of texture instructions, as ptxas 11.8 -O3 sets it. */
#ifndef PTXSURF_LOWER_TEX_NODEP_H
#define PTXSURF_LOWER_TEX_NODEP_H

#include "lower/lower.h"

/* Sets .NODEP (bit 49) on each texture instruction of k (TEX, TLD, TLD4,
 * TXD, TXQ, their .B forms, TEXS, TLDS, TLD4S) whose results, through any
 * chain of arithmetic, reach only surface instructions (SUST/SURED data
 * and coordinates, SULD coordinates). Run on the kernel after dead code
 * is gone; the bit changes no result (tex_nodep.c). */
void tex_nodep(LKernel *k);

#endif

/* 32-bit addressing (issue 15): what .address_size 32 -- and a module
 * without .address_size, which ptxas 11.8 reads as 32-bit at every PTX
 * version ("64 Bit host architecture ... mismatches with .address_size of
 * 32 bits") -- changes in the code, read from ptxas 11.8's sm_50 cubins.
 *
 * The width of an address is the width of its register, in either
 * module: a 32-bit register addresses through LDG/STG/ATOM/RED and
 * generic LD/ST without .E, a 64-bit one with .E, as in a 64-bit module.
 * Only a 64-bit module refuses 32-bit address registers (ptxas 13 and the
 * checker reject them there). A 32-bit generic access is
 *   LEA P, t, a, RZ; LD/ST [t + off], P
 * (the 64-bit pair LEA.CC + LEA.HI.X reduced to its low word). A module
 * .global variable's address is one MOV32I relocated R_CUDA_ABS32_20
 * (lower_ctx.c, beside the 64-bit pair). */
#include "lower/lower_internal.h"

bool lw_address_width(LowerCtx *c, SrcLoc loc, unsigned bw)
{
	if (bw == 2 || !c->lm->address64)
		return true;
	return lw_unsupported(c, loc, "a %u-bit address register with .address_size 64", 32 * bw);
}

void lw_generic_address32(LowerCtx *c, uint32_t base, uint32_t t, uint32_t pred)
{
	LInsn *lea = lw_emit(c, SF_LEA_R);
	linsn_ref(lea, SR_RD, t, 0, 1, true);
	linsn_ref(lea, SR_RA, base, 0, 1, false);
	linsn_set(lea, SR_RB, 255);
	linsn_ref(lea, SR_PD, pred, 0, 1, true);
}

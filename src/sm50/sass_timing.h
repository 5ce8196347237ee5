/* The sm_50 timing model: one set of numbers for everything that schedules
 * or checks control words (lower/sched.c for PTX, sasm/sass_asm_sched.c for
 * SASS text, sm50/sched_verify.c for finished code), as ptxas -O3 schedules:
 *
 *  - fixed-latency results (ALU ops, MOV, XMAD, ISETP, ...) are ready
 *    SCHED_ALU_LATENCY cycles after issue, predicates SCHED_PRED_LATENCY,
 *    the carry flag SCHED_CC_LATENCY; the stall counts in between must add
 *    up to that;
 *  - variable-latency producers (S2R, LDC, LDG, SULD, TXQ) set a write
 *    scoreboard barrier (one of SCHED_NBARRIERS); an instruction that reads
 *    or overwrites their result waits on it;
 *  - variable-latency instructions read their register sources late: a
 *    later writer of one waits on the reader's read barrier;
 *  - operations on one barrier complete in issue order (DEPBAR.LE, which
 *    stalls SCHED_DEPBAR_STALL); EXIT and BRA stall SCHED_FLOW_STALL.
 *
 * Hazards are tracked per resource, numbered the same way everywhere:
 * R0..R254, then P0..P6, then CC. */
#ifndef PTXSURF_SASS_TIMING_H
#define PTXSURF_SASS_TIMING_H

#include <stdio.h>

enum {
	SCHED_ALU_LATENCY = 6,
	SCHED_PRED_LATENCY = 13,
	SCHED_CC_LATENCY = 6,
	SCHED_FLOW_STALL = 15,      /* ptxas: EXIT and BRA always stall 15 */
	SCHED_NBARRIERS = 6,
	SCHED_DEPBAR_STALL = 3,     /* ptxas: DEPBAR.LE stalls 3 */
	SCHED_SYNC_STALL = 15,      /* ptxas: BAR and MEMBAR.GL/.SYS stall 15 (kept for MEMBAR.CTA too) */
};

/* Hazard resources: general registers, predicates, the carry flag. */
enum {
	SASS_RES_NGPR = 255,
	SASS_RES_PRED = SASS_RES_NGPR,          /* P0 */
	SASS_RES_NPRED = 7,
	SASS_RES_CC = SASS_RES_PRED + SASS_RES_NPRED,
	SASS_RES_COUNT = SASS_RES_CC + 1,
};

/* Cycles until a fixed-latency write of resource r is ready. */
static inline int sass_res_latency(unsigned r)
{
	return r == SASS_RES_CC ? SCHED_CC_LATENCY : r >= SASS_RES_PRED ? SCHED_PRED_LATENCY : SCHED_ALU_LATENCY;
}

/* "R12", "P3" or "CC" into buf (12 bytes hold any unsigned). */
static inline const char *sass_res_name(unsigned r, char *buf, size_t n)
{
	if (r == SASS_RES_CC)
		snprintf(buf, n, "CC");
	else if (r >= SASS_RES_PRED)
		snprintf(buf, n, "P%u", r - SASS_RES_PRED);
	else
		snprintf(buf, n, "R%u", r);
	return buf;
}

#endif

/* Control words for an allocated kernel, and the hazard verifier.
 *
 * Timing model (sm_50, as ptxas -O3 schedules it):
 *  - fixed-latency results (ALU ops, MOV, XMAD, ISETP, ...) are ready
 *    SCHED_ALU_LATENCY cycles after issue, predicates SCHED_PRED_LATENCY,
 *    the carry flag SCHED_CC_LATENCY; the stall counts in between must add
 *    up to that;
 *  - variable-latency producers (S2R, LDC, LDG, SULD, TXQ) set a write
 *    scoreboard barrier; an instruction that reads or overwrites their
 *    result waits on it;
 *  - variable-latency instructions read their register sources late: when
 *    a later instruction of the block overwrites one, the reader sets a
 *    read barrier and the writer waits on it;
 *  - operations on one barrier complete in issue order (DEPBAR.LE);
 *  - the scheduler drains at block boundaries: the first instruction of
 *    every block that can be entered by a branch or after a guarded exit
 *    waits on all barriers, and the last instruction of a block stalls until
 *    every fixed-latency result is ready. The verifier does not rely on
 *    this convention: it propagates hazard state over the control-flow
 *    graph. */
#ifndef PTXSURF_SCHED_H
#define PTXSURF_SCHED_H

#include "lower/lower.h"
#include "sm50/sass_ctrl.h"

#include <stddef.h>

enum {
	SCHED_ALU_LATENCY = 6,
	SCHED_PRED_LATENCY = 13,
	SCHED_CC_LATENCY = 6,
	SCHED_FLOW_STALL = 15,      /* ptxas: EXIT and BRA always stall 15 */
	SCHED_NBARRIERS = 6,
	SCHED_DEPBAR_STALL = 3,     /* ptxas: DEPBAR.LE stalls 3 */
};

/* Schedules the allocated kernel k: *ctrl = malloc'd control slots, one per
 * instruction. When more than six variable-latency operations are in
 * flight, producers share a barrier, and a consumer of one that is not the
 * youngest on it gets `DEPBAR.LE SBn, k` inserted before it (k = younger
 * operations on n it need not wait for), as ptxas does; k->insns and the
 * label positions are updated for the inserted instructions. */
void sched_kernel(LKernel *k, SassCtrl **ctrl);

/* Encodes k with ctrl and runs sched_verify_code() (sched_verify.h) on the
 * result: every consumer waits for its producer and every overwrite of a
 * variable-latency source for its read barrier, along every path of the
 * control-flow graph, with the slot values nvdisasm accepts. Returns 0, or
 * -1 with the first violation in err. */
int sched_verify(const LKernel *k, const SassCtrl *ctrl, char *err, size_t errlen);

#endif

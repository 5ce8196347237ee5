/* Control words for an allocated kernel.
 *
 * The timing model and the drain convention are sm50/sass_timing.h's: the
 * scheduler drains at block boundaries (the first instruction of every block
 * that can be entered by a branch or after a guarded exit waits on all
 * barriers, and the last instruction of a block stalls until every
 * fixed-latency result is ready). The verifier does not rely on this
 * convention: it propagates hazard state over the control-flow graph. */
#ifndef PTXSURF_SCHED_H
#define PTXSURF_SCHED_H

#include "lower/lower.h"
#include "sm50/sass_ctrl.h"
#include "sm50/sass_timing.h"

#include <stddef.h>

/* Schedules the allocated kernel k: *ctrl = malloc'd control slots, one per
 * instruction. When more than six variable-latency operations are in
 * flight, producers share a barrier, and a consumer of one that is not the
 * youngest on it gets `DEPBAR.LE SBn, k` inserted before it (k = younger
 * operations on n it need not wait for), as ptxas does; k->insns and the
 * label positions are updated for the inserted instructions. */
void sched_kernel(LKernel *k, SassCtrl **ctrl);

#endif

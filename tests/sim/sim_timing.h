/* Scheduling as semantics: the simulator's model of the latency contract
 * the control words express (docs/simulator.md). Per warp it follows the
 * issue cycles the stall counts give and the scoreboard barriers; a
 * register read before its fixed-latency producer's stall count elapsed,
 * or before its variable-latency producer's barrier was waited on, reads
 * poison, which then flows through the thread's computation. Poison used
 * as an address, stored to memory or deciding control flow, and a register
 * overwritten while an earlier instruction may still read it, fail the
 * run with the offending pair of instructions. Test-only. */
#ifndef PTXSURF_TEST_SIM_TIMING_H
#define PTXSURF_TEST_SIM_TIMING_H

#include "sim.h"

int sim_timing_new(SimMachine *m);
void sim_timing_free(SimMachine *m);
/* The state of warp `warp` of the block becomes the current one. */
void sim_timing_select(SimMachine *m, unsigned warp);
/* The current warp starts: nothing is pending. */
void sim_timing_warp_start(SimMachine *m);
/* Before instruction `pc` executes for the threads of w at it. */
void sim_timing_issue(SimMachine *m, const SimInsn *in, SimThread *w, unsigned n, size_t pc);
/* After it executed: results and their poison, then the stall. */
void sim_timing_retire(SimMachine *m, const SimInsn *in, SimThread *w, unsigned n, size_t pc);

#endif

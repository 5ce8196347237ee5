/* The hazard verifier of finished sm_50 code (--verify-sched).
 *
 * It reads what will be written -- the instruction words and the control
 * words of a kernel's .text -- and nothing of the pass that produced them,
 * so it checks the scheduler (sched.c), the SASS front end and hand-written
 * control words alike. Each word is decoded with the form table and its
 * register footprint taken from sass_regs.h; the hazard state is propagated
 * over the control-flow graph (branch targets, fall-through, guarded EXIT)
 * to a fixed point, then every reachable instruction is checked against the
 * state before it. The timing model is the one of sched.h:
 *
 *  - a fixed-latency result (ALU, MOV, XMAD, ...) is ready SCHED_ALU_LATENCY
 *    cycles after issue, predicates SCHED_PRED_LATENCY, CC SCHED_CC_LATENCY;
 *    the stall counts of the instructions in between must add up to that;
 *  - a variable-latency producer (S2R, LDC, LDG, SULD, TXQ, ...) must set a
 *    write barrier, and every reader or overwriter of its result must wait
 *    on it first (wait mask, DEPBAR {n}, or DEPBAR.LE SBn, k once at most k
 *    younger operations on barrier n can still be outstanding: operations
 *    on one barrier are taken to complete in issue order, as ptxas assumes);
 *    a load (LDG, TXQ, SULD) without a barrier is covered by the barrier of
 *    a later load, loads returning in issue order (ptxas relies on this);
 *  - a variable-latency instruction reads its register sources after issue:
 *    a later writer of one of them must wait on the reader's read barrier
 *    (or, for a producer, its write barrier); and those sources may still
 *    be VARLAT_READ_SLACK cycles from ready when it issues (ptxas 11.8
 *    issues LDG two cycles after the IADD.X computing its address).
 * Control slots must also be ones nvdisasm accepts for the form. */
#ifndef PTXSURF_SCHED_VERIFY_H
#define PTXSURF_SCHED_VERIFY_H

#include "base/diag.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct SchedVerifyKernel {
	const char *name;
	SrcLoc loc;                 /* of the kernel: used when an instruction has none */
	const uint8_t *code;        /* .text from offset 0: control word + 3 instructions per 32 bytes */
	size_t size;
	/* Source of instruction i (byte offset 32*(i/3) + 8*(i%3+1)); NULL, or
	 * nlocs entries (later instructions, e.g. the padding, have none). */
	const SrcLoc *insn_locs;
	size_t nlocs;
	/* Hazards are errors of rule "sched-hazard" (--verify-sched: the code
	 * must be proven safe before it is written); as warnings of rule
	 * "sass-hazard" they are advice on hand-scheduled SASS text. */
	bool as_warning;
} SchedVerifyKernel;

enum { SCHED_VERIFY_MAX_REPORTS = 50 };

/* Reports every hazard (at most SCHED_VERIFY_MAX_REPORTS) as an error or a
 * warning (SchedVerifyKernel.as_warning), naming the instruction's byte
 * offset; returns how many were reported. */
unsigned sched_verify_code(const SchedVerifyKernel *k, DiagSink *d);

#endif

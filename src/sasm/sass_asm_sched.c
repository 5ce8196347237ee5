/* Control slots for SASS input (--schedule=auto). The timing model is the
 * one of sm50/sass_timing.h (ptxas -O3 on sm_50): fixed-latency results are
 * ready SCHED_ALU_LATENCY cycles after issue (predicates
 * SCHED_PRED_LATENCY), variable-latency results release a write barrier,
 * variable-latency sources a read barrier; control flow stalls
 * SCHED_FLOW_STALL. lower/sched.c works on the lowering IR; SASS text has
 * no IR, so this file applies the same model to the register footprint of
 * matched table forms. What either produced, and hand-written control
 * words, are checked by the one hazard verifier, sm50/sched_verify.c.
 *
 * The scheduler is deliberately simple and safe: in order, every stall just
 * long enough, every variable-latency producer a barrier of its own (the
 * least recently used one, waited for first if still pending), and a drain
 * at each label: the instruction before waits out all latencies and the
 * labelled one waits on every pending barrier. */
#include "sasm/sass_asm_internal.h"

#include "sm50/sass_timing.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { NGPR = SASS_RES_NGPR, NPRED = SASS_RES_NPRED, CC_INDEX = SASS_RES_CC, NSTATE = SASS_RES_COUNT };

/* Per register (GPRs, then predicates, then CC): when its value is ready
 * and which barriers guard it. */
typedef struct RegState {
	long ready;             /* cycle the fixed-latency result is ready */
	unsigned wbar_mask;     /* barriers that release a pending write */
	unsigned rbar_mask;     /* barriers that release a pending read */
} RegState;

typedef struct Footprint {
	unsigned short reads[NSTATE];
	unsigned short writes[NSTATE];
	size_t nreads, nwrites;
} Footprint;

static void footprint(const SasmInsn *in, Footprint *fp, SassRegUse *u)
{
	sasm_insn_regs(in, u);
	fp->nreads = fp->nwrites = 0;
	for (unsigned r = 0; r < NGPR; r++) {
		if ((u->reads[r / 64] >> (r % 64)) & 1)
			fp->reads[fp->nreads++] = (unsigned short)r;
		if ((u->writes[r / 64] >> (r % 64)) & 1)
			fp->writes[fp->nwrites++] = (unsigned short)r;
	}
	for (unsigned p = 0; p < NPRED; p++) {
		if ((u->pred_reads >> p) & 1)
			fp->reads[fp->nreads++] = (unsigned short)(NGPR + p);
		if ((u->pred_writes >> p) & 1)
			fp->writes[fp->nwrites++] = (unsigned short)(NGPR + p);
	}
	if (u->cc_read)
		fp->reads[fp->nreads++] = CC_INDEX;
	if (u->cc_write)
		fp->writes[fp->nwrites++] = CC_INDEX;
}

static bool is_flow(const SasmInsn *in)
{
	return in->form->op == SOP_BRA || in->form->op == SOP_EXIT || in->form->op == SOP_CAL ||
	       in->form->op == SOP_RET || in->form->op == SOP_JCAL;
}

/* Waiting on `mask` releases every register guarded by those barriers. */
static void release(RegState *st, unsigned mask)
{
	for (unsigned r = 0; r < NSTATE; r++) {
		if (st[r].wbar_mask & mask)
			st[r].wbar_mask = 0;
		st[r].rbar_mask &= ~mask;
	}
}

static unsigned pending_barriers(const RegState *st)
{
	unsigned m = 0;
	for (unsigned r = 0; r < NSTATE; r++)
		m |= st[r].wbar_mask | st[r].rbar_mask;
	return m;
}

/* The least recently set barrier; *wait gets it when still pending. */
static unsigned take_barrier(const RegState *st, const long *last_set, unsigned *wait)
{
	unsigned pending = pending_barriers(st) & ~*wait, best = 0;
	for (unsigned b = 1; b < SCHED_NBARRIERS; b++)
		if (((pending >> b) & 1) < ((pending >> best) & 1) ||
		    (((pending >> b) & 1) == ((pending >> best) & 1) && last_set[b] < last_set[best]))
			best = b;
	if ((pending >> best) & 1)
		*wait |= 1u << best;
	return best;
}

void sasm_sched_auto(const SasmKernelText *k, uint32_t *slots)
{
	RegState st[NSTATE];
	memset(st, 0, sizeof st);
	long last_set[SCHED_NBARRIERS] = { 0 };
	SassCtrl *c = calloc(k->ninsns, sizeof *c);
	long issue_prev = 0;
	for (size_t i = 0; i < k->ninsns; i++) {
		const SasmInsn *in = &k->insns[i];
		Footprint fp;
		SassRegUse u;
		footprint(in, &fp, &u);
		c[i] = sass_ctrl_default(1);
		long need = i > 0 ? issue_prev + 1 : 0;
		unsigned wait = 0;
		if (k->block_start[i] || (i > 0 && is_flow(&k->insns[i - 1]))) {
			for (unsigned r = 0; r < NSTATE; r++)
				if (st[r].ready > need)
					need = st[r].ready;
			wait |= pending_barriers(st);
		}
		for (size_t j = 0; j < fp.nreads; j++) {
			RegState *s = &st[fp.reads[j]];
			wait |= s->wbar_mask;
			if (s->ready > need)
				need = s->ready;
		}
		for (size_t j = 0; j < fp.nwrites; j++)
			wait |= st[fp.writes[j]].wbar_mask | st[fp.writes[j]].rbar_mask;
		release(st, wait);
		long issue = 0;
		if (i > 0) {
			long gap = need - issue_prev;
			c[i - 1].stall = gap < 1 ? 1 : gap > 15 ? 15 : (unsigned)gap;
			if (is_flow(&k->insns[i - 1]))
				c[i - 1].stall = SCHED_FLOW_STALL;
			issue = issue_prev + c[i - 1].stall;
		}
		c[i].wait = wait;
		if (u.varlat && fp.nreads > 0 && in->form->op != SOP_S2R) {
			unsigned b = take_barrier(st, last_set, &c[i].wait);
			release(st, c[i].wait);
			c[i].rbar = b;
			last_set[b] = (long)i + 1;
			for (size_t j = 0; j < fp.nreads; j++)
				if (fp.reads[j] < NGPR)
					st[fp.reads[j]].rbar_mask |= 1u << b;
		}
		if (u.varlat && fp.nwrites > 0) {
			unsigned b = take_barrier(st, last_set, &c[i].wait);
			release(st, c[i].wait);
			c[i].wbar = b;
			last_set[b] = (long)i + 1;
			for (size_t j = 0; j < fp.nwrites; j++)
				st[fp.writes[j]].wbar_mask = 1u << b;
		} else {
			for (size_t j = 0; j < fp.nwrites; j++) {
				st[fp.writes[j]].ready = issue + sass_res_latency(fp.writes[j]);
				st[fp.writes[j]].wbar_mask = 0;
			}
		}
		issue_prev = issue;
	}
	if (k->ninsns > 0) {
		SassCtrl *last = &c[k->ninsns - 1];
		last->stall = is_flow(&k->insns[k->ninsns - 1]) ? SCHED_FLOW_STALL : 15;
	}
	for (size_t i = 0; i < k->ninsns; i++)
		sass_ctrl_pack_slot(&c[i], &slots[i]);
	free(c);
}

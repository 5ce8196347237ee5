/* Control slots for SASS input and the hazard verifier. The timing model is
 * the one of sched.h (ptxas -O3 on sm_50): fixed-latency results are ready
 * SCHED_ALU_LATENCY cycles after issue (predicates SCHED_PRED_LATENCY),
 * variable-latency results release a write barrier, variable-latency
 * sources a read barrier; control flow stalls SCHED_FLOW_STALL. sched.c
 * works on the lowering IR; SASS text has no IR, so this file applies the
 * same model to the register footprint of matched table forms.
 *
 * The scheduler is deliberately simple and safe: in order, every stall just
 * long enough, every variable-latency producer a barrier of its own (the
 * least recently used one, waited for first if still pending), and a drain
 * at each label: the instruction before waits out all latencies and the
 * labelled one waits on every pending barrier. */
#include "sasm/sass_asm_internal.h"

#include "lower/sched.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { NGPR = 255, NPRED = 7, CC_INDEX = NGPR + NPRED, NSTATE = CC_INDEX + 1 };

/* Per register (GPRs, then predicates, then CC): when its value is ready
 * and which barriers guard it. */
typedef struct RegState {
	long ready;             /* cycle the fixed-latency result is ready */
	unsigned wbar_mask;     /* barriers that release a pending write */
	unsigned rbar_mask;     /* barriers that release a pending read */
	size_t writer;          /* instruction that wrote it last (verifier) */
	size_t reader;          /* variable-latency instruction that reads it (verifier) */
} RegState;

typedef struct Footprint {
	unsigned short reads[NSTATE];
	unsigned short writes[NSTATE];
	size_t nreads, nwrites;
} Footprint;

static void footprint(const SassAsmInsn *in, Footprint *fp, SassRegUse *u)
{
	sass_insn_regs(in, u);
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

static long latency(unsigned reg)
{
	if (reg == CC_INDEX)
		return SCHED_CC_LATENCY;
	return reg >= NGPR ? SCHED_PRED_LATENCY : SCHED_ALU_LATENCY;
}

static bool is_flow(const SassAsmInsn *in)
{
	return in->form->op == SOP_BRA || in->form->op == SOP_EXIT;
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

void sass_sched_auto(const SassKernelText *k, uint32_t *slots)
{
	RegState st[NSTATE];
	memset(st, 0, sizeof st);
	long last_set[SCHED_NBARRIERS] = { 0 };
	SassCtrl *c = calloc(k->ninsns, sizeof *c);
	long issue_prev = 0;
	for (size_t i = 0; i < k->ninsns; i++) {
		const SassAsmInsn *in = &k->insns[i];
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
				st[fp.writes[j]].ready = issue + latency(fp.writes[j]);
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

/* ---- the verifier ----------------------------------------------------------- */

static void reg_name(unsigned r, char *buf, size_t n)
{
	if (r < NGPR)
		snprintf(buf, n, "R%u", r);
	else if (r < CC_INDEX)
		snprintf(buf, n, "P%u", r - NGPR);
	else
		snprintf(buf, n, "CC");
}

static void hazard(DiagSink *d, const SassKernelText *k, size_t i, unsigned reg, const char *fmt, size_t other)
{
	char name[8];
	reg_name(reg, name, sizeof name);
	diag_add(d, SEV_WARNING, k->insns[i].stmt->loc, RULE_SASS_HAZARD, fmt, name,
	         sass_form_stem(k->insns[other].form), k->insns[other].addr);
}

/* Replays the slots in order. State carries over labels on fall-through;
 * after an unconditional branch or exit it starts fresh, since the code
 * that jumps to the label cannot be known without a control-flow graph
 * (ptxas drains barriers at such labels anyway). DEPBAR.LE SBn, k releases
 * barrier n for all but the k most recent producers on it. */
unsigned sass_sched_verify(const SassKernelText *k, const uint32_t *slots, DiagSink *d)
{
	RegState st[NSTATE];
	memset(st, 0, sizeof st);
	size_t *producers[SCHED_NBARRIERS];
	size_t nproducers[SCHED_NBARRIERS] = { 0 };
	for (unsigned b = 0; b < SCHED_NBARRIERS; b++)
		producers[b] = calloc(k->ninsns + 1, sizeof **producers);
	unsigned found = 0;
	long t = 0;
	for (size_t i = 0; i < k->ninsns; i++) {
		const SassAsmInsn *in = &k->insns[i];
		bool fresh = i > 0 && is_flow(&k->insns[i - 1]) && !k->insns[i - 1].stmt->has_guard;
		if (fresh) {
			memset(st, 0, sizeof st);
			memset(nproducers, 0, sizeof nproducers);
		}
		SassCtrl c;
		sass_ctrl_unpack_slot(slots[i], &c);
		release(st, c.wait);
		for (unsigned b = 0; b < SCHED_NBARRIERS; b++)
			if ((c.wait >> b) & 1)
				nproducers[b] = 0;
		Footprint fp;
		SassRegUse u;
		footprint(in, &fp, &u);
		for (size_t j = 0; j < fp.nreads && found < 50; j++) {
			const RegState *s = &st[fp.reads[j]];
			if (s->wbar_mask)
				found++, hazard(d, k, i, fp.reads[j], "%s is read before the %s at 0x%04" PRIx64
				                " that writes it has released its barrier: wait on it", s->writer);
			else if (s->ready > t)
				found++, hazard(d, k, i, fp.reads[j], "%s is read before the %s at 0x%04" PRIx64
				                " that writes it is done: stall longer", s->writer);
		}
		for (size_t j = 0; j < fp.nwrites && found < 50; j++) {
			const RegState *s = &st[fp.writes[j]];
			if (s->rbar_mask)
				found++, hazard(d, k, i, fp.writes[j], "%s is overwritten before the %s at 0x%04" PRIx64
				                " has read it: give it a read barrier and wait on it", s->reader);
		}
		/* A variable-latency instruction reads its sources late: without a
		 * read barrier nothing tells a later writer when it is safe. */
		if (u.varlat)
			for (size_t j = 0; j < fp.nreads; j++)
				if (fp.reads[j] < NGPR) {
					st[fp.reads[j]].rbar_mask |= c.rbar < SCHED_NBARRIERS ? 1u << c.rbar
					                                                      : 1u << SCHED_NBARRIERS;
					st[fp.reads[j]].reader = i;
				}
		for (size_t j = 0; j < fp.nwrites; j++) {
			RegState *s = &st[fp.writes[j]];
			s->writer = i;
			s->wbar_mask = 0;
			s->ready = u.varlat ? t : t + latency(fp.writes[j]);
			if (u.varlat)
				s->wbar_mask = c.wbar < SCHED_NBARRIERS ? 1u << c.wbar : 1u << SCHED_NBARRIERS;
		}
		if (u.varlat && c.wbar < SCHED_NBARRIERS)
			producers[c.wbar][nproducers[c.wbar]++] = i;
		if (in->form->op == SOP_DEPBAR && sass_values_get(&in->vals, SR_LE, 0)) {
			unsigned b = (unsigned)sass_values_get(&in->vals, SR_SCOREBOARD, 0);
			size_t keep = (size_t)sass_values_get(&in->vals, SR_CNT, 0);
			if (b < SCHED_NBARRIERS && nproducers[b] > keep) {
				size_t done = nproducers[b] - keep;
				for (unsigned r = 0; r < NSTATE; r++)
					for (size_t p = 0; p < done; p++)
						if (st[r].wbar_mask == 1u << b && st[r].writer == producers[b][p])
							st[r].wbar_mask = 0;
			}
		}
		if (in->form->op == SOP_DEPBAR)
			release(st, (unsigned)sass_values_get(&in->vals, SR_WMASK, 0));
		t += c.stall;
	}
	for (unsigned b = 0; b < SCHED_NBARRIERS; b++)
		free(producers[b]);
	return found;
}

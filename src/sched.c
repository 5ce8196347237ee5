/* Control-word scheduling (see sched.h); sched_verify.c checks the result. */
#include "sched.h"

#include "regalloc.h"
#include "sass_disasm.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Hazard resources: general registers R0..R254, predicates P0..P6, CC. */
enum { RES_PRED = 255, RES_CC = RES_PRED + 7, NRES = RES_CC + 1, MAX_ACC = 24 };

typedef struct Access {
	int reads[MAX_ACC], writes[MAX_ACC], late[MAX_ACC];  /* late: sources a varlat op reads after issue */
	unsigned nreads, nwrites, nlate;
} Access;

static bool is_varlat(const LInsn *in)
{
	return in->form->cls == SASS_CLASS_VARLAT;
}

static bool is_flow(const LInsn *in)
{
	return in->form->op == SOP_BRA || in->form->op == SOP_EXIT;
}

static void accesses(const LKernel *k, const LInsn *in, Access *a)
{
	memset(a, 0, sizeof *a);
	for (unsigned r = 0; r < in->nrefs; r++) {
		const LRegRef *ref = &in->refs[r];
		const LVReg *v = &k->vregs[ref->vreg];
		for (unsigned p = 0; p < ref->count; p++) {
			int res = v->cls == LRC_PRED ? RES_PRED + v->phys : v->phys + ref->sub + (int)p;
			if (ref->def) {
				a->writes[a->nwrites++] = res;
			} else {
				a->reads[a->nreads++] = res;
				if (is_varlat(in) && v->cls == LRC_GPR)
					a->late[a->nlate++] = res;
			}
		}
	}
	if (in->reads_cc)
		a->reads[a->nreads++] = RES_CC;
	if (in->writes_cc)
		a->writes[a->nwrites++] = RES_CC;
}

static int latency_of(int res)
{
	return res == RES_CC ? SCHED_CC_LATENCY : res >= RES_PRED ? SCHED_PRED_LATENCY : SCHED_ALU_LATENCY;
}

/* Hazard state before an instruction issues. */
typedef struct HState {
	int8_t rem[NRES];       /* cycles until a fixed-latency result is ready */
	uint8_t pw[NRES];       /* barriers of outstanding variable-latency writes */
	uint8_t pr[NRES];       /* barriers of outstanding late reads */
	uint8_t unguarded[NRES];/* late read without a read barrier: never safe to overwrite */
} HState;

static void apply_wait(HState *s, unsigned wait)
{
	if (wait == 0)
		return;
	for (int r = 0; r < NRES; r++) {
		s->pw[r] &= (uint8_t)~wait;
		s->pr[r] &= (uint8_t)~wait;
	}
}

/* The effects of issuing an instruction, then `stall` cycles passing. */
static void apply_issue(HState *s, const LInsn *in, const Access *a, const SassCtrl *c)
{
	bool vl = is_varlat(in);
	for (unsigned i = 0; i < a->nwrites; i++) {
		int r = a->writes[i];
		if (vl) {
			s->rem[r] = 0;
			if (c->wbar < SCHED_NBARRIERS)
				s->pw[r] |= (uint8_t)(1u << c->wbar);
		} else {
			s->rem[r] = (int8_t)latency_of(r);
		}
		s->unguarded[r] = 0;
	}
	for (unsigned i = 0; i < a->nlate; i++) {
		int r = a->late[i];
		/* sources are read before the result is written: a producer's
		 * write barrier also covers its own late reads */
		if (c->rbar < SCHED_NBARRIERS)
			s->pr[r] |= (uint8_t)(1u << c->rbar);
		else if (c->wbar < SCHED_NBARRIERS && a->nwrites > 0)
			s->pr[r] |= (uint8_t)(1u << c->wbar);
		else
			s->unguarded[r] = 1;
	}
	for (int r = 0; r < NRES; r++) {
		int v = s->rem[r] - (int)c->stall;
		s->rem[r] = (int8_t)(v > 0 ? v : 0);
	}
}

static int max_rem(const HState *s)
{
	int m = 0;
	for (int r = 0; r < NRES; r++)
		if (s->rem[r] > m)
			m = s->rem[r];
	return m;
}

static uint8_t barriers_in_use(const HState *s)
{
	uint8_t m = 0;
	for (int r = 0; r < NRES; r++)
		m |= s->pw[r] | s->pr[r];
	return m;
}

/* ---- scheduler ------------------------------------------------------------ */

static bool *block_starts(const LKernel *k)
{
	bool *start = xcalloc(k->ninsns + 1, sizeof *start);
	for (size_t l = 0; l < k->nlabels; l++)
		start[k->label_pos[l]] = true;
	for (size_t i = 0; i + 1 < k->ninsns; i++)
		if (is_flow(&k->insns[i]))
			start[i + 1] = true;
	start[0] = false;
	return start;
}

/* How many instructions of k write each resource. */
static unsigned *writer_counts(const LKernel *k)
{
	unsigned *n = xcalloc(NRES, sizeof *n);
	for (size_t i = 0; i < k->ninsns; i++) {
		Access a;
		accesses(k, &k->insns[i], &a);
		for (unsigned w = 0; w < a.nwrites; w++)
			n[a.writes[w]]++;
	}
	return n;
}

/* Whether an instruction other than the one with accesses `self` writes res. */
static bool overwritten_elsewhere(const unsigned *writers, const Access *self, int res)
{
	unsigned own = 0;
	for (unsigned w = 0; w < self->nwrites; w++)
		own += self->writes[w] == res;
	return writers[res] > own;
}

static unsigned pick_barrier(uint8_t in_use, unsigned avoid, unsigned *rr)
{
	for (unsigned n = 0; n < SCHED_NBARRIERS; n++) {
		unsigned b = (*rr + n) % SCHED_NBARRIERS;
		if (b != avoid && !(in_use & (1u << b))) {
			*rr = (b + 1) % SCHED_NBARRIERS;
			return b;
		}
	}
	/* all busy: share one (waiting on it then waits for every op on it) */
	unsigned b = *rr % SCHED_NBARRIERS;
	if (b == avoid)
		b = (b + 1) % SCHED_NBARRIERS;
	*rr = (b + 1) % SCHED_NBARRIERS;
	return b;
}

void sched_kernel(const LKernel *k, SassCtrl *ctrl)
{
	bool *start = block_starts(k);
	unsigned *writers = writer_counts(k);
	HState *s = xcalloc(1, sizeof *s);
	unsigned rr = 0;
	for (size_t j = 0; j < k->ninsns; j++) {
		const LInsn *in = &k->insns[j];
		SassCtrl *c = &ctrl[j];
		*c = sass_ctrl_default(1);
		Access a;
		accesses(k, in, &a);
		if (start[j]) {
			/* predecessors drained fixed latencies; wait for every barrier */
			c->wait = (1u << SCHED_NBARRIERS) - 1;
			memset(s, 0, sizeof *s);
		}
		for (unsigned i = 0; i < a.nreads; i++)
			c->wait |= s->pw[a.reads[i]];
		for (unsigned i = 0; i < a.nwrites; i++)
			c->wait |= s->pw[a.writes[i]] | s->pr[a.writes[i]];
		apply_wait(s, c->wait);
		int need = 0;
		for (unsigned i = 0; i < a.nreads; i++)
			if (s->rem[a.reads[i]] > need)
				need = s->rem[a.reads[i]];
		if (need > 0 && j > 0) {
			/* stretch the previous stall; rem <= 13 < 15 so one slot suffices */
			unsigned add = (unsigned)need;
			if (ctrl[j - 1].stall + add > 15)
				add = 15 - ctrl[j - 1].stall;
			ctrl[j - 1].stall += add;
			for (int r = 0; r < NRES; r++)
				s->rem[r] = (int8_t)(s->rem[r] > (int)add ? s->rem[r] - (int)add : 0);
		}
		if (is_varlat(in)) {
			uint8_t used = barriers_in_use(s);
			if (a.nwrites > 0) {
				c->wbar = pick_barrier(used, SASS_CTRL_NO_BARRIER, &rr);
				used |= (uint8_t)(1u << c->wbar);
			}
			bool need_rbar = false;
			for (unsigned i = 0; i < a.nlate && !need_rbar; i++)
				need_rbar = overwritten_elsewhere(writers, &a, a.late[i]);
			if (need_rbar)
				c->rbar = pick_barrier(used, c->wbar, &rr);
		}
		if (is_flow(in)) {
			c->stall = SCHED_FLOW_STALL;
			c->yield = in->form->op == SOP_BRA ? 0 : 1;
		}
		bool block_end = j + 1 == k->ninsns || start[j + 1] || is_flow(in);
		apply_issue(s, in, &a, &(SassCtrl){ 0, 1, c->wbar, c->rbar, 0, 0 });
		if (block_end && (unsigned)max_rem(s) > c->stall)
			c->stall = (unsigned)max_rem(s);
		for (int r = 0; r < NRES; r++)
			s->rem[r] = (int8_t)(s->rem[r] > (int)c->stall ? s->rem[r] - (int)c->stall : 0);
	}
	free(s);
	free(writers);
	free(start);
}

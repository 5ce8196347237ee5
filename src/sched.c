/* Control-word scheduling and hazard verification (see sched.h). */
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

/* Whether any other instruction of k writes register res. */
static bool overwritten_elsewhere(const LKernel *k, size_t self, int res)
{
	for (size_t i = 0; i < k->ninsns; i++) {
		if (i == self)
			continue;
		Access a;
		accesses(k, &k->insns[i], &a);
		for (unsigned w = 0; w < a.nwrites; w++)
			if (a.writes[w] == res)
				return true;
	}
	return false;
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
				need_rbar = overwritten_elsewhere(k, j, a.late[i]);
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
	free(start);
}

/* ---- verifier ------------------------------------------------------------- */

static void merge(HState *into, const HState *from, bool *changed)
{
	for (int r = 0; r < NRES; r++) {
		if (from->rem[r] > into->rem[r]) {
			into->rem[r] = from->rem[r];
			*changed = true;
		}
		uint8_t w = into->pw[r] | from->pw[r], p = into->pr[r] | from->pr[r];
		uint8_t u = into->unguarded[r] | from->unguarded[r];
		if (w != into->pw[r] || p != into->pr[r] || u != into->unguarded[r]) {
			into->pw[r] = w;
			into->pr[r] = p;
			into->unguarded[r] = u;
			*changed = true;
		}
	}
}

static const char *res_name(int r, char *buf, size_t n)
{
	if (r == RES_CC)
		snprintf(buf, n, "CC");
	else if (r >= RES_PRED)
		snprintf(buf, n, "P%d", r - RES_PRED);
	else
		snprintf(buf, n, "R%d", r);
	return buf;
}

/* Checks instruction j against the state before it; returns -1 with a message. */
static int check_insn(const LKernel *k, size_t j, const SassCtrl *c, HState *s, char *err, size_t errlen)
{
	const LInsn *in = &k->insns[j];
	char rn[16];
	uint32_t slot;
	if (sass_ctrl_pack_slot(c, &slot) != 0 || !sass_slot_allowed(in->form, slot)) {
		snprintf(err, errlen, "instruction %zu (%s): control slot not allowed for this form", j,
		         in->form->name);
		return -1;
	}
	if (c->stall == 0) {
		snprintf(err, errlen, "instruction %zu (%s): stall 0 (dual issue) is not modelled", j, in->form->name);
		return -1;
	}
	if ((c->wbar != 7 && c->wbar >= SCHED_NBARRIERS) || (c->rbar != 7 && c->rbar >= SCHED_NBARRIERS)) {
		snprintf(err, errlen, "instruction %zu (%s): barrier number out of range", j, in->form->name);
		return -1;
	}
	Access a;
	accesses(k, in, &a);
	if (is_varlat(in) && a.nwrites > 0 && c->wbar == 7) {
		snprintf(err, errlen, "instruction %zu (%s): variable-latency result without a write barrier", j,
		         in->form->name);
		return -1;
	}
	apply_wait(s, c->wait);
	for (unsigned i = 0; i < a.nreads; i++) {
		int r = a.reads[i];
		if (s->pw[r]) {
			snprintf(err, errlen, "instruction %zu (%s) reads %s before its variable-latency producer "
			         "is waited for (barrier mask 0x%02x)", j, in->form->name, res_name(r, rn, sizeof rn),
			         s->pw[r]);
			return -1;
		}
		if (s->rem[r] > 0) {
			snprintf(err, errlen, "instruction %zu (%s) reads %s %d cycle(s) too early", j,
			         in->form->name, res_name(r, rn, sizeof rn), s->rem[r]);
			return -1;
		}
	}
	for (unsigned i = 0; i < a.nwrites; i++) {
		int r = a.writes[i];
		if (s->pw[r] || s->pr[r] || s->unguarded[r]) {
			snprintf(err, errlen, "instruction %zu (%s) overwrites %s while a variable-latency %s of it "
			         "is outstanding", j, in->form->name, res_name(r, rn, sizeof rn),
			         s->pw[r] ? "write" : "read");
			return -1;
		}
	}
	apply_issue(s, in, &a, c);
	return 0;
}

int sched_verify(const LKernel *k, const SassCtrl *ctrl, char *err, size_t errlen)
{
	size_t n = k->ninsns;
	if (n == 0)
		return 0;
	HState *in_state = xcalloc(n, sizeof *in_state);
	bool *reached = xcalloc(n, sizeof *reached);
	bool *queued = xcalloc(n, sizeof *queued);
	size_t *work = xcalloc(n + 1, sizeof *work);
	size_t nwork = 0;
	reached[0] = queued[0] = true;
	work[nwork++] = 0;
	HState *tmp = xcalloc(1, sizeof *tmp);
	int rc = 0;
	while (nwork > 0 && rc == 0) {
		size_t j = work[--nwork];
		queued[j] = false;
		*tmp = in_state[j];
		/* propagate without reporting: violations are reported below */
		const LInsn *in = &k->insns[j];
		Access a;
		accesses(k, in, &a);
		apply_wait(tmp, ctrl[j].wait);
		apply_issue(tmp, in, &a, &ctrl[j]);
		size_t succ[2];
		unsigned ns = lkernel_successors(k, j, succ);
		for (unsigned q = 0; q < ns; q++) {
			size_t t = succ[q];
			bool changed = !reached[t];
			reached[t] = true;
			merge(&in_state[t], tmp, &changed);
			if (changed && !queued[t]) {
				queued[t] = true;
				work[nwork++] = t;
			}
		}
	}
	for (size_t j = 0; j < n && rc == 0; j++)
		if (reached[j])
			rc = check_insn(k, j, &ctrl[j], &in_state[j], err, errlen);
	free(tmp);
	free(work);
	free(queued);
	free(reached);
	free(in_state);
	return rc;
}

/* Control-word scheduling (see sched.h); sched_verify.c checks the result. */
#include "lower/sched.h"

#include "lower/regalloc.h"
#include "sm50/sass_disasm.h"
#include "sm50/sass_regs.h"
#include "base/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Hazard resources as sass_timing.h numbers them: R0..R254, P0..P6, CC. */
enum { RES_PRED = SASS_RES_PRED, RES_CC = SASS_RES_CC, NRES = SASS_RES_COUNT, MAX_ACC = 24 };

typedef struct Access {
	int reads[MAX_ACC], writes[MAX_ACC], late[MAX_ACC];  /* late: sources a varlat op reads after issue */
	unsigned nreads, nwrites, nlate;
} Access;

static bool is_varlat(const LInsn *in)
{
	return sass_varlat(in->form, linsn_get(in, SR_VFMT_A, 0), linsn_get(in, SR_VFMT_B, 0));
}

static bool is_flow(const LInsn *in)
{
	return in->form->op == SOP_BRA || in->form->op == SOP_EXIT || in->form->op == SOP_CAL ||
	       in->form->op == SOP_RET || in->form->op == SOP_JCAL || in->form->op == SOP_SYNC ||
	       in->form->op == SOP_SSY || in->form->op == SOP_BRK || in->form->op == SOP_PBK ||
	       in->form->op == SOP_BRX;
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
	if (in->stack_reg & LSTACK_READ) {
		a->reads[a->nreads++] = REGALLOC_STACK_REG;
		if (is_varlat(in))
			a->late[a->nlate++] = REGALLOC_STACK_REG;
	}
	if (in->stack_reg & LSTACK_WRITE)
		a->writes[a->nwrites++] = REGALLOC_STACK_REG;
	if (in->reads_cc)
		a->reads[a->nreads++] = RES_CC;
	if (in->writes_cc)
		a->writes[a->nwrites++] = RES_CC;
}

/* Hazard state before an instruction issues. Barriers count: issued[b]
 * operations were put on barrier b, the first done[b] of them are known
 * complete (a wait drains b; DEPBAR.LE SBb, k leaves the k youngest). */
typedef struct HState {
	int32_t now;            /* cycles so far (only differences are read) */
	int32_t ready[NRES];    /* cycle a fixed-latency result is ready */
	int32_t last_ready;     /* the latest of them */
	uint8_t pw[NRES];       /* barrier of an outstanding variable-latency write */
	uint8_t pr[NRES];       /* barriers of outstanding late reads */
	uint32_t wseq[NRES];    /* the write's operation number on its barrier */
	uint32_t rseq[NRES][SCHED_NBARRIERS];   /* youngest late read per barrier */
	uint32_t issued[SCHED_NBARRIERS], done[SCHED_NBARRIERS];
	/* kinds of the operations on each barrier since it was last drained:
	 * DEPBAR.LE is only sound when they complete in issue order, which
	 * loads (LDG, SULD, TXQ) do; S2R, LDC and store reads may not */
	uint8_t kinds[SCHED_NBARRIERS];
	/* the resources with a pw or pr bit: retiring and the barriers in use
	 * visit these instead of all NRES */
	uint64_t pending[(NRES + 63) / 64];
} HState;

enum { KIND_LOAD = 1, KIND_OTHER = 2 };

static uint8_t kind_of(const LInsn *in)
{
	switch (in->form->op) {
	case SOP_LDG: case SOP_SULD_D: case SOP_SULD_P: case SOP_TXQ: case SOP_TXQ_B: return KIND_LOAD;
	case SOP_LDS: case SOP_LDL: case SOP_LD: return KIND_LOAD;
	default: return KIND_OTHER;
	}
}

static uint8_t loads_only(const HState *s)
{
	uint8_t m = 0;
	for (unsigned b = 0; b < SCHED_NBARRIERS; b++)
		if (s->kinds[b] == KIND_LOAD)
			m |= (uint8_t)(1u << b);
	return m;
}

static void mark_pending(HState *s, int r)
{
	s->pending[r / 64] |= UINT64_C(1) << (r % 64);
}

/* Clears what the completed operations (done[]) released. */
static void retire(HState *s)
{
	for (unsigned w = 0; w < sizeof s->pending / sizeof s->pending[0]; w++)
		for (uint64_t bits = s->pending[w]; bits; bits &= bits - 1) {
			int r = (int)(64 * w + (unsigned)__builtin_ctzll(bits));
			for (unsigned b = 0; b < SCHED_NBARRIERS; b++) {
				uint8_t m = (uint8_t)(1u << b);
				if ((s->pw[r] & m) && s->wseq[r] < s->done[b])
					s->pw[r] &= (uint8_t)~m;
				if ((s->pr[r] & m) && s->rseq[r][b] < s->done[b])
					s->pr[r] &= (uint8_t)~m;
			}
			if (!(s->pw[r] | s->pr[r]))
				s->pending[w] &= ~(UINT64_C(1) << (r % 64));
		}
}

static void apply_wait(HState *s, unsigned wait)
{
	if (wait == 0)
		return;
	for (unsigned b = 0; b < SCHED_NBARRIERS; b++)
		if ((wait >> b) & 1) {
			s->done[b] = s->issued[b];
			s->kinds[b] = 0;
		}
	retire(s);
}

/* The effects of issuing an instruction (no cycles pass). */
static void apply_issue(HState *s, const LInsn *in, const Access *a, const SassCtrl *c)
{
	bool vl = is_varlat(in), wbar = c->wbar < SCHED_NBARRIERS, rbar = c->rbar < SCHED_NBARRIERS;
	uint32_t wseq = wbar ? s->issued[c->wbar] : 0, rseq = rbar ? s->issued[c->rbar] : 0;
	for (unsigned i = 0; i < a->nwrites; i++) {
		int r = a->writes[i];
		s->ready[r] = vl ? s->now : s->now + sass_res_latency((unsigned)r);
		if (s->ready[r] > s->last_ready)
			s->last_ready = s->ready[r];
		if (vl && wbar) {
			s->pw[r] = (uint8_t)(1u << c->wbar);
			s->wseq[r] = wseq;
			mark_pending(s, r);
		}
	}
	for (unsigned i = 0; i < a->nlate; i++) {
		int r = a->late[i];
		/* sources are read before the result is written: a producer's
		 * write barrier also covers its own late reads */
		if (rbar || (wbar && a->nwrites > 0)) {
			unsigned b = rbar ? c->rbar : c->wbar;
			s->pr[r] |= (uint8_t)(1u << b);
			s->rseq[r][b] = rbar ? rseq : wseq;
			mark_pending(s, r);
		}
	}
	if (vl && wbar) {
		s->issued[c->wbar]++;
		s->kinds[c->wbar] |= kind_of(in);
	}
	if (vl && rbar && (!wbar || c->rbar != c->wbar)) {
		s->issued[c->rbar]++;
		s->kinds[c->rbar] |= KIND_OTHER;
	}
}

static void pass_cycles(HState *s, unsigned cycles)
{
	s->now += (int32_t)cycles;
}

/* Cycles until register r is ready (0: now). */
static int rem_of(const HState *s, int r)
{
	return s->ready[r] > s->now ? s->ready[r] - s->now : 0;
}

/* Cycles until every fixed-latency result is ready. */
static int max_rem(const HState *s)
{
	return s->last_ready > s->now ? s->last_ready - s->now : 0;
}

static uint8_t barriers_in_use(const HState *s)
{
	uint8_t m = 0;
	for (unsigned w = 0; w < sizeof s->pending / sizeof s->pending[0]; w++)
		for (uint64_t bits = s->pending[w]; bits; bits &= bits - 1) {
			unsigned r = 64 * w + (unsigned)__builtin_ctzll(bits);
			m |= s->pw[r] | s->pr[r];
		}
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

/* A free barrier, round robin; when all six are busy, a shared one: for a
 * load, preferably one that only loads use (its consumers can then use
 * DEPBAR.LE instead of waiting for every operation on it). */
static unsigned pick_barrier(uint8_t in_use, unsigned avoid, unsigned *rr, uint8_t loads_only)
{
	for (unsigned n = 0; n < SCHED_NBARRIERS; n++) {
		unsigned b = (*rr + n) % SCHED_NBARRIERS;
		if (b != avoid && !(in_use & (1u << b))) {
			*rr = (b + 1) % SCHED_NBARRIERS;
			return b;
		}
	}
	for (unsigned n = 0; n < SCHED_NBARRIERS; n++) {
		unsigned b = (*rr + n) % SCHED_NBARRIERS;
		if (b != avoid && ((loads_only >> b) & 1)) {
			*rr = (b + 1) % SCHED_NBARRIERS;
			return b;
		}
	}
	unsigned b = *rr % SCHED_NBARRIERS;
	if (b == avoid)
		b = (b + 1) % SCHED_NBARRIERS;
	*rr = (b + 1) % SCHED_NBARRIERS;
	return b;
}

/* The output of the scheduler: a control slot per instruction with the
 * DEPBARs inserted, and the DEPBARs themselves; the kernel's instructions
 * are moved apart for them only at the end (and not at all when there are
 * none), instead of copying every instruction. */
typedef struct Inserted {
	size_t before;          /* the kernel instruction it precedes */
	LInsn insn;
} Inserted;

typedef struct Out {
	SassCtrl *ctrl;
	size_t n, cap;
	Inserted *ins;
	size_t nins, inscap;
} Out;

static SassCtrl *out_push(Out *o)
{
	if (o->n == o->cap) {
		o->cap = o->cap ? 2 * o->cap : 64;
		o->ctrl = xrealloc(o->ctrl, o->cap * sizeof *o->ctrl);
	}
	return &o->ctrl[o->n++];
}

/* The most operations DEPBAR.LE can leave running: its count field's
 * largest value. A barrier with more younger loads outstanding waits for
 * some of them too (hadamard's clang -O2 kernels: 119 and 123). */
static uint32_t depbar_keep_max(void)
{
	const SassField *f = sass_form_field(&sass_forms[SF_DEPBAR], SR_CNT);
	return (UINT32_C(1) << (f->width + f->hi_width)) - 1;
}

/* DEPBAR.LE SBb, keep before instruction `at` (index j): waits until at
 * most `keep` operations on b are outstanding (ptxas: stall 3). */
static void emit_depbar(Out *o, const LInsn *at, size_t j, unsigned b, unsigned keep)
{
	if (o->nins == o->inscap) {
		o->inscap = o->inscap ? 2 * o->inscap : 16;
		o->ins = xrealloc(o->ins, o->inscap * sizeof *o->ins);
	}
	Inserted *x = &o->ins[o->nins++];
	x->before = j;
	LInsn *d = &x->insn;
	memset(d, 0, sizeof *d);
	d->form = &sass_forms[SF_DEPBAR];
	d->target = LIR_NO_LABEL;
	d->loc = at->loc;
	linsn_set(d, SR_LE, 1);
	linsn_set(d, SR_SCOREBOARD, b);
	linsn_set(d, SR_CNT, keep);
	linsn_set(d, SR_WMASK, 0);
	linsn_fill_defaults(d);
	*out_push(o) = sass_ctrl_default(SCHED_DEPBAR_STALL);
}

/* Moves the kernel's instructions apart for the inserted DEPBARs, from the
 * end backwards, in place. */
static void place_inserted(LKernel *k, const Out *o)
{
	if (o->nins == 0)
		return;
	size_t total = k->ninsns + o->nins;
	if (k->cap < total) {
		k->insns = xrealloc(k->insns, total * sizeof *k->insns);
		k->cap = total;
	}
	size_t dst = total, x = o->nins;
	for (size_t j = k->ninsns; j-- > 0;) {
		k->insns[--dst] = k->insns[j];
		while (x > 0 && o->ins[x - 1].before == j)
			k->insns[--dst] = o->ins[--x].insn;
	}
	k->ninsns = total;
}

/* The state at a block's start: nothing in flight. What a clear of the
 * whole HState (36 KB: a tenth of a big kernel's scheduling when blocks
 * are short) would give, touching only what the block before set: the
 * pending resources' barrier bits (pw/pr are zero elsewhere, and wseq and
 * rseq are read only under them), the barrier counters, and the clock
 * moved past every fixed-latency result (only now - ready is read). */
static void block_reset(HState *s)
{
	for (unsigned w = 0; w < sizeof s->pending / sizeof s->pending[0]; w++)
		for (uint64_t bits = s->pending[w]; bits; bits &= bits - 1) {
			unsigned r = 64 * w + (unsigned)__builtin_ctzll(bits);
			s->pw[r] = s->pr[r] = 0;
		}
	memset(s->pending, 0, sizeof s->pending);
	memset(s->issued, 0, sizeof s->issued);
	memset(s->done, 0, sizeof s->done);
	memset(s->kinds, 0, sizeof s->kinds);
	if (s->last_ready > s->now)
		s->now = s->last_ready;
}

/* What instruction a must wait for: per barrier, the youngest operation
 * number it needs complete, or -1. */
static void needed_ops(const HState *s, const Access *a, int64_t need[SCHED_NBARRIERS])
{
	for (unsigned b = 0; b < SCHED_NBARRIERS; b++)
		need[b] = -1;
	for (unsigned i = 0; i < a->nreads + a->nwrites; i++) {
		bool write = i >= a->nreads;
		int r = write ? a->writes[i - a->nreads] : a->reads[i];
		for (unsigned b = 0; b < SCHED_NBARRIERS; b++) {
			if (((s->pw[r] >> b) & 1) && (int64_t)s->wseq[r] > need[b])
				need[b] = s->wseq[r];
			if (write && ((s->pr[r] >> b) & 1) && (int64_t)s->rseq[r][b] > need[b])
				need[b] = s->rseq[r][b];
		}
	}
}

void sched_kernel(LKernel *k, SassCtrl **ctrl_out)
{
	bool *start = block_starts(k);
	unsigned *writers = writer_counts(k);
	size_t *newpos = xcalloc(k->ninsns + 1, sizeof *newpos);
	HState *s = xcalloc(1, sizeof *s);
	/* room for the instructions and a few DEPBARs: no regrowth in the common case */
	Out o = { .cap = k->ninsns + k->ninsns / 8 + 8 };
	o.ctrl = xmalloc(o.cap * sizeof *o.ctrl);
	unsigned rr = 0;
	for (size_t j = 0; j < k->ninsns; j++) {
		const LInsn *in = &k->insns[j];
		Access a;
		accesses(k, in, &a);
		SassCtrl c = sass_ctrl_default(1);
		if (start[j]) {
			/* predecessors drained fixed latencies; wait for every barrier */
			c.wait = (1u << SCHED_NBARRIERS) - 1;
			block_reset(s);
		}
		int64_t need[SCHED_NBARRIERS];
		needed_ops(s, &a, need);
		for (unsigned b = 0; b < SCHED_NBARRIERS; b++) {
			if (need[b] < 0)
				continue;
			/* the youngest operation on b: wait it out; an older one on a
			 * shared barrier: DEPBAR.LE leaves the younger ones running */
			uint32_t keep = s->issued[b] - (uint32_t)need[b] - 1;
			if (keep == 0 || s->kinds[b] != KIND_LOAD) {
				c.wait |= 1u << b;
			} else {
				if (keep > depbar_keep_max())
					keep = depbar_keep_max();
				emit_depbar(&o, in, j, b, keep);
				s->done[b] = s->issued[b] - keep;
				retire(s);
				pass_cycles(s, SCHED_DEPBAR_STALL);
			}
		}
		/* an external function may read or save any register: nothing
		 * may still be in flight when it starts */
		if (in->form->op == SOP_JCAL)
			c.wait = (1u << SCHED_NBARRIERS) - 1;
		apply_wait(s, c.wait);
		int late = 0;
		for (unsigned i = 0; i < a.nreads; i++)
			if (rem_of(s, a.reads[i]) > late)
				late = rem_of(s, a.reads[i]);
		if (late > 0 && o.n > 0) {
			/* stretch the previous stall; rem <= 13 < 15 so one slot suffices */
			unsigned add = (unsigned)late;
			if (o.ctrl[o.n - 1].stall + add > 15)
				add = 15 - o.ctrl[o.n - 1].stall;
			o.ctrl[o.n - 1].stall += add;
			pass_cycles(s, add);
		}
		if (is_varlat(in)) {
			uint8_t used = barriers_in_use(s);
			if (a.nwrites > 0) {
				c.wbar = pick_barrier(used, SASS_CTRL_NO_BARRIER, &rr,
				                      kind_of(in) == KIND_LOAD ? loads_only(s) : 0);
				used |= (uint8_t)(1u << c.wbar);
			}
			bool need_rbar = false;
			for (unsigned i = 0; i < a.nlate && !need_rbar; i++)
				need_rbar = overwritten_elsewhere(writers, &a, a.late[i]);
			if (need_rbar)
				c.rbar = pick_barrier(used, c.wbar, &rr, 0);
		}
		if (is_flow(in)) {
			c.stall = SCHED_FLOW_STALL;
			/* the branch-like ones as ptxas writes them (Y) */
			c.yield = in->form->op == SOP_BRA || in->form->op == SOP_SSY || in->form->op == SOP_SYNC ||
			          in->form->op == SOP_PBK || in->form->op == SOP_BRK ? 0 : 1;
		}
		if (in->form->op == SOP_BAR || in->form->op == SOP_MEMBAR)
			c.stall = SCHED_SYNC_STALL;
		bool block_end = j + 1 == k->ninsns || start[j + 1] || is_flow(in);
		apply_issue(s, in, &a, &c);
		if (block_end && (unsigned)max_rem(s) > c.stall)
			c.stall = (unsigned)max_rem(s);
		pass_cycles(s, c.stall);
		newpos[j] = o.n;
		*out_push(&o) = c;
	}
	for (size_t l = 0; l < k->nlabels; l++)
		k->label_pos[l] = newpos[k->label_pos[l]];
	place_inserted(k, &o);
	free(o.ins);
	*ctrl_out = o.ctrl;
	free(s);
	free(newpos);
	free(writers);
	free(start);
}

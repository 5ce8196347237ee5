/* Hazard verification of finished code (see sched_verify.h). */
#include "sm50/sched_verify.h"

#include "sm50/sass_ctrl.h"
#include "sm50/sass_disasm.h"
#include "sm50/sass_encode.h"
#include "sm50/sass_regs.h"
#include "sm50/sass_timing.h"
#include "base/xalloc.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Resources as sass_timing.h numbers them: R0..R254, P0..P6, CC. */
enum { NGPR = SASS_RES_NGPR, RES_PRED = SASS_RES_PRED, RES_CC = SASS_RES_CC, NRES = SASS_RES_COUNT, MAX_RES = 64 };
enum { AGE_MAX = 255 };

/* Loads return in issue order, and ptxas 11.8 relies on it: a global or
 * texture-path load (LDG, TXQ, SULD) may go without a write barrier when a
 * later one sets one (ptxas waits for TXQs through a later LDG.E.CI). Such
 * a pending write carries MARK_LOAD until that later load issues, then
 * takes its barrier (and age). The masks hold barriers 0-5 in their low
 * bits and these unit marks above them. */
enum { MARK_LOAD = 0x40 };

/* The conversions I2F, F2I and I2I complete in issue order too: ptxas
 * 11.8 leaves the first of two back-to-back F2Is without a barrier and
 * waits for both on the second's; with two s32 divisions in one kernel
 * (golden idiv) it leaves an F2I and an I2I without one and waits on a
 * later I2I's or F2I's barrier. */
enum { MARK_CONV = 0x80 };

/* Shared memory is a unit of its own: ptxas 11.8 -O3 leaves a TXQ without
 * a write barrier, sets SB0 on an LDS after it and SB5 on a SULD after
 * that, and reads the TXQ's result after waiting on SB5 only (random
 * kernel gen_kernels --defined --whole 138). Grouping LDS with the loads
 * would call that wait too short; the simulator (tests/sim/sim_timing.c)
 * runs the same units. */
enum { MARK_SHARED = 0x100 };

static uint16_t unit_mark(const SassForm *f)
{
	switch (f->op) {
	case SOP_LDG: case SOP_TXQ: case SOP_TXQ_B: case SOP_SULD_D: case SOP_SULD_P: return MARK_LOAD;
	case SOP_TEX: case SOP_TEX_B: case SOP_TLD: case SOP_TLD_B: case SOP_TLD4: case SOP_TLD4_B:
	case SOP_TXD: case SOP_TXD_B: case SOP_TEXS: case SOP_TLDS: case SOP_TLD4S: return MARK_LOAD;
	case SOP_LDL: case SOP_LD: return MARK_LOAD;
	case SOP_LDS: return MARK_SHARED;
	case SOP_I2F: case SOP_F2I: case SOP_I2I: return MARK_CONV;
	default: return 0;
	}
}

/* The units whose pending writes a write with a barrier carries: its own,
 * and for MUFU the conversions' (they complete in order: ptxas 11.8 -O3's
 * __cuda_sm20_div_u16 leaves an I2F without a write barrier and reads its
 * result after waiting on the barrier of a later MUFU.RCP). A MUFU without
 * a barrier must still set one (it has no unit of its own). */
static uint16_t carried_marks(const SassForm *f)
{
	return f->op == SOP_MUFU ? MARK_CONV : unit_mark(f);
}

/* A variable-latency instruction reads its register sources a few cycles
 * after issue: ptxas 11.8 issues an LDG 2 cycles after the IADD.X that
 * computes its address (ALU latency 6), so such reads tolerate this much. */
enum { VARLAT_READ_SLACK = 4 };

/* The hazard state before an instruction issues. A pending write or late
 * read is guarded by a mask of barriers (more than one bit after a merge of
 * paths that used different barriers: all must be waited for) and an age,
 * the number of younger operations on that barrier (for DEPBAR.LE). */
typedef struct VState {
	int8_t rem[NRES];           /* cycles until a fixed-latency result is ready */
	uint16_t wmask[NRES];
	uint8_t wage[NRES];
	uint16_t rmask[NRES];
	uint8_t rage[NRES];
	uint8_t unguarded[NRES];    /* late read without any barrier */
	uint32_t writer[NRES];      /* instruction index of the last write, for messages */
	uint32_t reader[NRES];      /* ... of the last late read */
	int8_t maxrem;
} VState;

typedef struct Insn {
	const SassForm *form;       /* NULL: not decodable */
	SassValues vals;
	SassCtrl ctrl;
	uint32_t slot;
	uint16_t reads[MAX_RES], writes[MAX_RES];
	uint8_t nreads, nwrites, nlate;   /* the first nlate reads are read late */
	bool varlat;
} Insn;

typedef struct Verifier {
	const SchedVerifyKernel *k;
	DiagSink *d;
	Insn *in;
	size_t n;
	unsigned reports;
	/* Calls and returns: a function starts at a CAL target (fstart,
	 * sorted); a RET belongs to the function with the nearest start at or
	 * before it and returns to the instruction after each CAL of that
	 * start: sites[site_first[f] .. site_first[f + 1]). */
	size_t *fstart, nfuncs, *site_first, *sites;
	size_t *succ;    /* successors() fills it: room for 2 + every site */
} Verifier;

static void add_set(uint16_t *list, uint8_t *n, const uint64_t set[4])
{
	for (unsigned r = 0; r < NGPR; r++)
		if (((set[r / 64] >> (r % 64)) & 1) && *n < MAX_RES)
			list[(*n)++] = (uint16_t)r;
}

static void add_preds(uint16_t *list, uint8_t *n, uint8_t preds, bool cc)
{
	for (unsigned p = 0; p < 7; p++)
		if ((preds >> p) & 1)
			list[(*n)++] = (uint16_t)(RES_PRED + p);
	if (cc)
		list[(*n)++] = RES_CC;
}

static void decode(Verifier *v)
{
	for (size_t i = 0; i < v->n; i++) {
		Insn *x = &v->in[i];
		uint32_t slots[3];
		sass_ctrl_unpack_word(sass_load_word(v->k->code + 32 * (i / 3)), slots);
		x->slot = slots[i % 3];
		sass_ctrl_unpack_slot(x->slot, &x->ctrl);
		x->form = sass_decode(sass_load_word(v->k->code + sass_insn_addr(i)), &x->vals);
		if (x->form == NULL)
			continue;
		SassRegUse u;
		sass_form_regs(x->form, &x->vals, &u);
		x->varlat = u.varlat;
		add_set(x->reads, &x->nreads, u.reads);
		x->nlate = x->varlat ? x->nreads : 0;
		add_preds(x->reads, &x->nreads, u.pred_reads, u.cc_read);
		add_set(x->writes, &x->nwrites, u.writes);
		add_preds(x->writes, &x->nwrites, u.pred_writes, u.cc_write);
	}
}

static bool unguarded_insn(const Insn *x)
{
	return sass_values_get(&x->vals, SR_PG, 7) == 7 && sass_values_get(&x->vals, SR_PG_NOT, 0) == 0;
}

/* The instruction a BRA or CAL at i goes to, or SIZE_MAX when it is not
 * one in the code. */
static size_t branch_target(const Verifier *v, size_t i)
{
	const Insn *x = &v->in[i];
	int64_t target = (int64_t)sass_insn_addr(i) + 8 + sass_values_get(&x->vals, SR_IMM, 0);
	if (target >= 8 && target % 8 == 0 && target % 32 != 0) {
		size_t t = (size_t)(target / 32) * 3 + (size_t)(target % 32) / 8 - 1;
		if (t < v->n)
			return t;
	}
	return SIZE_MAX;
}

static int compare_index(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return (x > y) - (x < y);
}

/* The function whose code holds instruction i (SIZE_MAX: none, the kernel's). */
static size_t function_of(const Verifier *v, size_t i)
{
	size_t lo = 0, hi = v->nfuncs;   /* the first start above i */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (v->fstart[mid] <= i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo == 0 ? SIZE_MAX : lo - 1;
}

/* The call edges: every CAL goes to its function, and every RET of the
 * function back to the instruction after each of those CALs, so what a
 * callee leaves pending reaches its callers' next instructions and what a
 * caller leaves pending ages by the callee's cycles (a CAL's fall-through
 * edge would skip them). A CAL whose target is not in the code keeps the
 * fall-through edge. */
static void plan_calls(Verifier *v)
{
	size_t ncals = 0;
	for (size_t i = 0; i < v->n; i++)
		ncals += v->in[i].form->op == SOP_CAL && branch_target(v, i) != SIZE_MAX;
	v->fstart = xmalloc((ncals ? ncals : 1) * sizeof *v->fstart);
	v->sites = xmalloc((ncals ? ncals : 1) * sizeof *v->sites);
	v->site_first = xcalloc(ncals + 1, sizeof *v->site_first);
	v->succ = xmalloc((ncals + 2) * sizeof *v->succ);
	for (size_t i = 0; i < v->n; i++)
		if (v->in[i].form->op == SOP_CAL && branch_target(v, i) != SIZE_MAX)
			v->fstart[v->nfuncs++] = branch_target(v, i);
	qsort(v->fstart, v->nfuncs, sizeof *v->fstart, compare_index);
	size_t u = 0;
	for (size_t f = 0; f < v->nfuncs; f++)
		if (u == 0 || v->fstart[u - 1] != v->fstart[f])
			v->fstart[u++] = v->fstart[f];
	v->nfuncs = u;
	/* counting sort of the return sites by function */
	for (size_t i = 0; i < v->n; i++)
		if (v->in[i].form->op == SOP_CAL && branch_target(v, i) != SIZE_MAX && i + 1 < v->n)
			v->site_first[function_of(v, branch_target(v, i)) + 1]++;
	for (size_t f = 0; f < v->nfuncs; f++)
		v->site_first[f + 1] += v->site_first[f];
	size_t *fill = xmalloc((v->nfuncs ? v->nfuncs : 1) * sizeof *fill);
	for (size_t f = 0; f < v->nfuncs; f++)
		fill[f] = v->site_first[f];
	for (size_t i = 0; i < v->n; i++)
		if (v->in[i].form->op == SOP_CAL && branch_target(v, i) != SIZE_MAX && i + 1 < v->n)
			v->sites[fill[function_of(v, branch_target(v, i))]++] = i + 1;
	free(fill);
}

/* Successors of instruction i, in v->succ; returns how many. */
static size_t successors(const Verifier *v, size_t i)
{
	const Insn *x = &v->in[i];
	size_t n = 0, *succ = v->succ;
	bool always = unguarded_insn(x);
	if (x->form && (x->form->op == SOP_BRA || x->form->op == SOP_CAL)) {
		size_t t = branch_target(v, i);
		if (t != SIZE_MAX)
			succ[n++] = t;
		if (x->form->op == SOP_CAL && t != SIZE_MAX && always)
			return n;     /* it comes back through the callee's RETs */
		if (x->form->op == SOP_BRA && always && sass_values_get(&x->vals, SR_COND, 0xf) == 0xf)
			return n;
	} else if (x->form && x->form->op == SOP_RET) {
		size_t f = function_of(v, i);
		if (f != SIZE_MAX)
			for (size_t s = v->site_first[f]; s < v->site_first[f + 1]; s++)
				succ[n++] = v->sites[s];
		if (always)
			return n;
	} else if (x->form && x->form->op == SOP_EXIT && always) {
		return 0;
	}
	if (i + 1 < v->n)
		succ[n++] = i + 1;
	return n;
}

static void report(Verifier *v, size_t i, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void report(Verifier *v, size_t i, const char *fmt, ...)
{
	if (v->d == NULL || v->reports++ >= SCHED_VERIFY_MAX_REPORTS)
		return;
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	const SchedVerifyKernel *k = v->k;
	SrcLoc loc = k->loc;
	if (k->insn_locs && i < k->nlocs && k->insn_locs[i].first_line > 0)
		loc = k->insn_locs[i];
	const SassForm *f = v->in[i].form;
	diag_add(v->d, k->as_warning ? SEV_WARNING : SEV_ERROR, loc, k->as_warning ? RULE_SASS_HAZARD : RULE_SCHED_HAZARD,
	         "kernel '%s', instruction at 0x%04" PRIx64 " (%s): %s", k->name, sass_insn_addr(i), f ? sass_op_mnemonic(f->op) : "?", msg);
}

static void clear_waited(VState *s, unsigned wait)
{
	if (wait == 0)
		return;
	for (unsigned r = 0; r < NRES; r++) {
		if (s->wmask[r] && !(s->wmask[r] & ~wait))
			s->wmask[r] = 0;
		if (s->rmask[r] && !(s->rmask[r] & ~wait))
			s->rmask[r] = 0;
	}
}

/* DEPBAR.LE SBb, keep: all but the `keep` youngest operations on b are done. */
static void depbar_le(VState *s, unsigned b, unsigned keep)
{
	uint16_t m = (uint16_t)(1u << b);
	for (unsigned r = 0; r < NRES; r++) {
		if (s->wmask[r] == m && s->wage[r] >= keep)
			s->wmask[r] = 0;
		if (s->rmask[r] == m && s->rage[r] >= keep)
			s->rmask[r] = 0;
	}
}

/* A new operation on barrier b: everything already on b gets older. */
static void age_barrier(VState *s, unsigned b)
{
	uint16_t m = (uint16_t)(1u << b);
	for (unsigned r = 0; r < NRES; r++) {
		if (s->wmask[r] == m && s->wage[r] < AGE_MAX)
			s->wage[r]++;
		if (s->rmask[r] == m && s->rage[r] < AGE_MAX)
			s->rage[r]++;
	}
}

/* A reader or writer of r while a variable-latency write of it is pending. */
static bool report_pending_write(Verifier *v, size_t i, const VState *s, unsigned r, const char *what)
{
	if (!s->wmask[r])
		return false;
	char rn[12];
	report(v, i, "%s %s before the variable-latency %s at 0x%04" PRIx64 " that writes it is waited "
	       "for (barrier mask 0x%02x)", what, sass_res_name(r, rn, sizeof rn), sass_op_mnemonic(v->in[s->writer[r]].form->op),
	       sass_insn_addr(s->writer[r]), s->wmask[r]);
	return true;
}

static void check_insn(Verifier *v, size_t i, const VState *s)
{
	const Insn *x = &v->in[i];
	char rn[12];
	if (!sass_slot_allowed(x->form, x->slot))
		report(v, i, "control slot 0x%06" PRIx32 " is not allowed for this form (a fixed-latency "
		       "instruction sets no barrier)", x->slot);
	if ((x->ctrl.wbar != SASS_CTRL_NO_BARRIER && x->ctrl.wbar >= SCHED_NBARRIERS) ||
	    (x->ctrl.rbar != SASS_CTRL_NO_BARRIER && x->ctrl.rbar >= SCHED_NBARRIERS))
		report(v, i, "barrier number out of range (0-%d)", SCHED_NBARRIERS - 1);
	if (x->varlat && x->nwrites > 0 && x->ctrl.wbar == SASS_CTRL_NO_BARRIER && !unit_mark(x->form))
		report(v, i, "variable-latency result without a write barrier: its readers cannot wait for it");
	for (unsigned j = 0; j < x->nreads; j++) {
		unsigned r = x->reads[j];
		if (!report_pending_write(v, i, s, r, "reads") && s->rem[r] > (j < x->nlate ? VARLAT_READ_SLACK : 0))
			report(v, i, "reads %s %d cycle(s) before the %s at 0x%04" PRIx64 " that writes it is "
			       "done: the stalls in between are too short", sass_res_name(r, rn, sizeof rn), s->rem[r],
			       sass_op_mnemonic(v->in[s->writer[r]].form->op), sass_insn_addr(s->writer[r]));
	}
	for (unsigned j = 0; j < x->nwrites; j++) {
		unsigned r = x->writes[j];
		if (report_pending_write(v, i, s, r, "overwrites"))
			continue;
		if (s->rmask[r] || s->unguarded[r])
			report(v, i, "overwrites %s before the %s at 0x%04" PRIx64 " has read it (%s)",
			       sass_res_name(r, rn, sizeof rn), sass_op_mnemonic(v->in[s->reader[r]].form->op), sass_insn_addr(s->reader[r]),
			       s->unguarded[r] ? "that reader has no read barrier" : "wait on its read barrier");
	}
}

/* Instruction i: the wait, the checks (when reporting), the issue, the stall. */
static void step(Verifier *v, size_t i, VState *s, bool check)
{
	const Insn *x = &v->in[i];
	const SassCtrl *c = &x->ctrl;
	clear_waited(s, c->wait);
	if (check)
		check_insn(v, i, s);
	bool wbar = c->wbar < SCHED_NBARRIERS, rbar = c->rbar < SCHED_NBARRIERS;
	uint16_t mark = x->nwrites > 0 ? unit_mark(x->form) : 0;
	uint16_t carried = x->nwrites > 0 ? carried_marks(x->form) : 0;
	if (x->varlat) {
		if (wbar)
			age_barrier(s, c->wbar);
		if (wbar && carried)
			for (unsigned r = 0; r < NRES; r++)
				if (s->wmask[r] & carried) {
					s->wmask[r] = (uint16_t)((s->wmask[r] & ~carried) | (1u << c->wbar));
					s->wage[r] = 0;
				}
		if (rbar && (!wbar || c->rbar != c->wbar))
			age_barrier(s, c->rbar);
		for (unsigned j = 0; j < x->nlate; j++) {
			unsigned r = x->reads[j];
			s->reader[r] = (uint32_t)i;
			/* sources are read before the result is written: a producer's
			 * write barrier also covers its own late reads */
			if (rbar || (wbar && x->nwrites > 0)) {
				s->rmask[r] = (uint16_t)(1u << (rbar ? c->rbar : c->wbar));
				s->rage[r] = 0;
			} else {
				s->unguarded[r] = 1;
			}
		}
	}
	for (unsigned j = 0; j < x->nwrites; j++) {
		unsigned r = x->writes[j];
		s->writer[r] = (uint32_t)i;
		s->unguarded[r] = 0;
		s->rmask[r] = 0;
		if (x->varlat) {
			s->rem[r] = 0;
			s->wmask[r] = wbar ? (uint16_t)(1u << c->wbar) : mark;
			s->wage[r] = 0;
		} else {
			s->wmask[r] = 0;
			s->rem[r] = (int8_t)sass_res_latency(r);
			if (s->rem[r] > s->maxrem)
				s->maxrem = s->rem[r];
		}
	}
	if (x->form->op == SOP_DEPBAR) {
		if (sass_values_get(&x->vals, SR_LE, 0))
			depbar_le(s, (unsigned)sass_values_get(&x->vals, SR_SCOREBOARD, 0) % 8,
			          (unsigned)sass_values_get(&x->vals, SR_CNT, 0));
		clear_waited(s, (unsigned)sass_values_get(&x->vals, SR_WMASK, 0));
	}
	if (s->maxrem > 0) {
		int8_t m = 0;
		for (unsigned r = 0; r < NRES; r++) {
			int left = s->rem[r] - (int)c->stall;
			s->rem[r] = (int8_t)(left > 0 ? left : 0);
			if (s->rem[r] > m)
				m = s->rem[r];
		}
		s->maxrem = m;
	}
}

/* One pending access (mask, age, instruction) of `from` joins `into`:
 * the masks unite, the age is the younger count. True when into changed. */
static bool merge_pending(uint16_t *mask, uint8_t *age, uint32_t *who, uint16_t fmask, uint8_t fage,
                          uint32_t fwho)
{
	if (!fmask)
		return false;
	uint8_t a = *mask && *age < fage ? *age : fage;
	if ((*mask | fmask) == *mask && a == *age)
		return false;
	if (!*mask)
		*who = fwho;
	*mask |= fmask;
	*age = a;
	return true;
}

/* into |= from; true when into changed. */
static bool merge(VState *into, const VState *from)
{
	bool changed = false;
	for (unsigned r = 0; r < NRES; r++) {
		if (from->rem[r] > into->rem[r]) {
			into->rem[r] = from->rem[r];
			into->writer[r] = from->writer[r];
			changed = true;
		}
		changed |= merge_pending(&into->wmask[r], &into->wage[r], &into->writer[r], from->wmask[r],
		                         from->wage[r], from->writer[r]);
		changed |= merge_pending(&into->rmask[r], &into->rage[r], &into->reader[r], from->rmask[r],
		                         from->rage[r], from->reader[r]);
		if (from->unguarded[r] && !into->unguarded[r]) {
			into->unguarded[r] = 1;
			into->reader[r] = from->reader[r];
			changed = true;
		}
	}
	if (from->maxrem > into->maxrem)
		into->maxrem = from->maxrem;
	return changed;
}

unsigned sched_verify_code(const SchedVerifyKernel *k, DiagSink *d)
{
	Verifier v = { .k = k, .d = d, .n = k->size / 32 * 3 };
	if (v.n == 0)
		return 0;
	v.in = xcalloc(v.n, sizeof *v.in);
	decode(&v);
	for (size_t i = 0; i < v.n; i++)
		if (v.in[i].form == NULL) {
			report(&v, i, "the word 0x%016" PRIx64 " is no sm_50 instruction form the verifier knows",
			       sass_load_word(k->code + sass_insn_addr(i)));
			free(v.in);
			return v.reports;
		}
	/* basic blocks: the entry, branch targets, and what follows a branch or EXIT */
	bool *leader = xcalloc(v.n + 1, sizeof *leader);
	leader[0] = true;
	plan_calls(&v);
	for (size_t i = 0; i < v.n; i++) {
		size_t ns = successors(&v, i);
		for (size_t q = 0; q < ns; q++)
			if (v.succ[q] != i + 1)
				leader[v.succ[q]] = true;
		if (v.in[i].form->op == SOP_BRA || v.in[i].form->op == SOP_EXIT || v.in[i].form->op == SOP_CAL ||
		    v.in[i].form->op == SOP_RET || v.in[i].form->op == SOP_JCAL)
			leader[i + 1] = true;
	}
	size_t *block_of = xcalloc(v.n, sizeof *block_of), nblocks = 0;
	for (size_t i = 0; i < v.n; i++)
		if (leader[i])
			block_of[i] = nblocks++;
	size_t *start = xcalloc(nblocks, sizeof *start);
	for (size_t i = 0; i < v.n; i++)
		if (leader[i])
			start[block_of[i]] = i;
	VState *entry = xcalloc(nblocks, sizeof *entry);
	bool *reached = xcalloc(nblocks, sizeof *reached), *queued = xcalloc(nblocks, sizeof *queued);
	size_t *work = xcalloc(nblocks, sizeof *work), nwork = 0;
	reached[0] = queued[0] = true;
	work[nwork++] = 0;
	VState *s = xcalloc(1, sizeof *s);
	while (nwork > 0) {
		size_t b = work[--nwork];
		queued[b] = false;
		*s = entry[b];
		for (size_t i = start[b]; i < v.n; i++) {
			step(&v, i, s, false);
			if (i + 1 < v.n && !leader[i + 1])
				continue;
			size_t ns = successors(&v, i);
			for (size_t q = 0; q < ns; q++) {
				size_t t = block_of[v.succ[q]];
				bool changed = !reached[t];
				reached[t] = true;
				changed |= merge(&entry[t], s);
				if (changed && !queued[t]) {
					queued[t] = true;
					work[nwork++] = t;
				}
			}
			break;
		}
	}
	for (size_t b = 0; b < nblocks; b++) {
		if (!reached[b])
			continue;
		*s = entry[b];
		for (size_t i = start[b]; i < v.n && (i == start[b] || !leader[i]); i++)
			step(&v, i, s, true);
	}
	free(s);
	free(work);
	free(queued);
	free(reached);
	free(entry);
	free(start);
	free(block_of);
	free(leader);
	free(v.fstart);
	free(v.site_first);
	free(v.sites);
	free(v.succ);
	free(v.in);
	return v.reports;
}

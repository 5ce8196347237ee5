/* The latency contract of the control words, run dynamically (see
 * sim_timing.h). The rules are those of the static verifier
 * (src/sm50/sched_verify.c, --verify-sched) so the two check each other:
 * fixed-latency results are ready SCHED_*_LATENCY cycles after issue;
 * variable-latency results when their write barrier is waited on (wait
 * mask, DEPBAR {..}, DEPBAR.LE); a variable-latency instruction reads its
 * sources late, up to VARLAT_READ_SLACK cycles before they are ready, and
 * its read barrier (or write barrier) guards them against overwriting; a
 * load or conversion without a barrier joins the barrier of the next one
 * of its unit that sets one (they complete in issue order). */
#include "sim_timing.h"
#include "lower/sched.h"
#include "sm50/sass_regs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	RES_PRED = SIM_NREGS,
	RES_CC = SIM_NREGS + SIM_NPREDS,
	NRES = RES_CC + 1,
	NBARRIERS = 6,
	VARLAT_READ_SLACK = 4,
	MARK_LOAD = 1 << 6,         /* pending without a barrier: joins the next load's */
	MARK_CONV = 1 << 7,
	MARK_SHARED = 1 << 8,
	OP_RING = 64,
};

struct SimTiming {
	int rem[NRES];              /* cycles until a fixed-latency result is ready */
	uint16_t wmask[NRES];          /* barriers, or the marks of a pending write without one */
	uint8_t rmask[NRES];
	uint32_t wage[NRES], rage[NRES];  /* operations on the barrier when it was set */
	bool unguarded[NRES];       /* late read with no barrier at all */
	uint32_t writer[NRES], reader[NRES];   /* instruction addresses */
	uint32_t ops[NBARRIERS];    /* operations issued on each barrier */
	/* in-order pipes: per barrier and pipe, the pipe's issue count at
	 * the latest operation of that pipe on the barrier (a wait on the
	 * barrier completes every operation issued on it, so also the earlier
	 * ones of their pipes); a late read's pipe issue count */
	uint32_t bar_seq[NBARRIERS][4], pipe_seq[4];
	uint8_t rpipe[NRES];        /* the pipe of a pending late read */
	uint8_t wpipe[NRES];        /* the pipe of a pending variable-latency write */
	uint32_t useq[NRES];        /* ... and its issue count in that pipe */
	/* per barrier, the pipe and pipe issue count of its latest OP_RING
	 * operations (DEPBAR.LE completes a prefix of them) */
	uint8_t op_pipe[NBARRIERS][OP_RING];
	uint32_t op_seq[NBARRIERS][OP_RING];
	uint32_t lane_poison[SIM_WARP];
	bool lane_ran[SIM_WARP];
	/* the lanes that ran the pending reader / variable-latency writer of
	 * each resource: registers are per lane, so after a divergent branch
	 * the other lanes may reuse them at once */
	uint32_t rlanes[NRES], wlanes[NRES];
	SassRegUse use;
};

/* One state per warp of a block: warps interleave at barriers. */
enum { MAX_WARPS = SIM_MAX_BLOCK_THREADS / SIM_WARP };

int sim_timing_new(SimMachine *m)
{
	m->timing_states = calloc(MAX_WARPS, sizeof *m->timing_states);
	m->timing = m->timing_states;
	if (!m->timing)
		snprintf(m->error, sizeof m->error, "out of memory");
	return m->timing ? 0 : -1;
}

void sim_timing_free(SimMachine *m)
{
	free(m->timing_states);
	m->timing_states = m->timing = NULL;
}

void sim_timing_select(SimMachine *m, unsigned warp)
{
	m->timing = &m->timing_states[warp % MAX_WARPS];
}

void sim_timing_warp_start(SimMachine *m)
{
	memset(m->timing, 0, sizeof *m->timing);
}

/* The unit of a variable-latency write without a barrier: a later write
 * of the same unit with a barrier carries it (in-order completion). */
static uint16_t unit_mark(const SassForm *f)
{
	switch (f->op) {
	case SOP_LDG: case SOP_TXQ: case SOP_TXQ_B: case SOP_SULD_D: case SOP_SULD_P: return MARK_LOAD;
	case SOP_LDL: case SOP_LD: return MARK_LOAD;
	/* shared memory is a unit of its own: ptxas 11.8 -O3 leaves a TXQ
	 * without a write barrier, sets SB0 on an LDS after it and SB5 on a
	 * SULD after that, and reads the TXQ's result after waiting on SB5
	 * only (random kernel gen_kernels --defined --whole 138) */
	case SOP_LDS: return MARK_SHARED;
	case SOP_TEX: case SOP_TEX_B: case SOP_TLD: case SOP_TLD_B: case SOP_TLD4: case SOP_TLD4_B:
	case SOP_TXD: case SOP_TXD_B: return MARK_LOAD;
	/* I2I too: ptxas 11.8 -O3 leaves an F2I and an I2I without a write
	 * barrier and reads them after waiting on a later I2I's or F2I's
	 * barrier (golden idiv: two s32 divisions in one kernel) */
	case SOP_I2F: case SOP_F2I: case SOP_I2I: return MARK_CONV;
	default: return 0;
	}
}

/* The units whose pending writes a write with a barrier carries: its own,
 * and for MUFU the conversions' (they complete in order: ptxas 11.8 -O3's
 * __cuda_sm20_div_u16 leaves an I2F without a write barrier and reads its
 * result after waiting on the barrier of a later MUFU.RCP). A MUFU without
 * a barrier stays untracked, as before. */
static uint16_t carried_marks(const SassForm *f)
{
	return f->op == SOP_MUFU ? MARK_CONV : unit_mark(f);
}

/* A pipe handles its operations in issue order: the late reads of one are
 * done before a later operation of the same pipe writes its result, and
 * when a barrier of a later operation of the pipe is waited on. ptxas 11.8
 * -O3 relies on both: a SULD overwrites the address register of an earlier
 * SUST that has no read barrier; a MOV overwrites an LDG's address after
 * waiting only on the read barrier of a later LDG. */
static uint8_t pipe_of(const SassForm *f)
{
	switch (f->op) {
	case SOP_LDG: case SOP_STG: case SOP_SULD_D: case SOP_SULD_P: case SOP_SUST_D:
	case SOP_SUST_P: case SOP_SURED_D: case SOP_SURED_P: case SOP_TXQ: case SOP_TXQ_B:
	case SOP_LDS: case SOP_STS: case SOP_LDL: case SOP_STL: case SOP_LD: case SOP_ST:
	case SOP_ATOM: case SOP_ATOM_CAS: case SOP_RED: case SOP_ATOMS: case SOP_ATOMS_CAS:
	/* textures (sim5): ptxas -O3's TEXS overwrites the data registers of
	 * an STG just before it that has no read barrier (golden tex-bound) */
	case SOP_TEX: case SOP_TEX_B: case SOP_TLD: case SOP_TLD_B: case SOP_TLD4: case SOP_TLD4_B:
	case SOP_TXD: case SOP_TXD_B: case SOP_TEXS: case SOP_TLDS: case SOP_TLD4S:
	case SOP_CCTL: case SOP_CCTLL:     /* texcache: prefetches read their address late */
		return 1;
	/* the conversions and MUFU (they complete in order, see
	 * carried_marks): ptxas 11.8 -O3 overwrites the source of an I2I
	 * without a read barrier after waiting only on a later MUFU.RCP's
	 * write barrier (golden tex-cube); POPC and FLO go through the same
	 * multi-function unit: ptxas 11.8 -O3 overwrites a POPC's source with
	 * a later POPC without a read barrier (golden fns-offset) */
	case SOP_I2F: case SOP_F2I: case SOP_I2I: case SOP_MUFU: case SOP_POPC: case SOP_FLO:
		return 2;
	default:
		return 3;
	}
}

static bool has(const uint64_t set[4], unsigned r) { return set[r / 64] >> (r % 64) & 1; }

/* Calls fn for every resource of the read (or write) set of u. */
#define FOR_RES(u, which, r) \
	for (unsigned r = 0; r < NRES; r++) \
		if (r < SIM_NREGS ? has((u)->which##s, r) \
		    : r < RES_CC ? ((u)->pred_##which##s >> (r - RES_PRED) & 1) : (u)->cc_##which)

/* Waiting on a barrier also completes the late reads of the operations of
 * each pipe issued up to the pipe's latest operation on the barrier: ptxas
 * 11.8 -O3 overwrites the data of an STG.128 without a read barrier after
 * waiting on the barrier of the next STG.128, which LDCs had set again
 * meanwhile (golden ld-const-vec-subword). */
static void clear_waited(SimTiming *s, unsigned wait, bool pipe_order)
{
	for (unsigned r = 0; wait && r < NRES; r++) {
		if (s->wmask[r] && !(s->wmask[r] & ~wait))
			s->wmask[r] = 0;
		if (s->rmask[r] && !(s->rmask[r] & ~wait))
			s->rmask[r] = 0;
		for (unsigned b = 0; pipe_order && (s->rmask[r] || s->unguarded[r]) && b < NBARRIERS; b++)
			if ((wait >> b & 1) && s->useq[r] <= s->bar_seq[b][s->rpipe[r]])
				s->rmask[r] = 0, s->unguarded[r] = false;
	}
}

static bool memory_or_flow(SassOp op)
{
	switch (op) {
	case SOP_STG: case SOP_LDG: case SOP_LDC: case SOP_SUST_D: case SOP_SUST_P:
	case SOP_SULD_D: case SOP_SULD_P: case SOP_SURED_D: case SOP_SURED_P:
	case SOP_TXQ: case SOP_TXQ_B: case SOP_BRA: case SOP_EXIT:
	case SOP_CAL: case SOP_RET:
	case SOP_LDS: case SOP_STS: case SOP_LDL: case SOP_STL: case SOP_LD: case SOP_ST:
	case SOP_ATOM: case SOP_ATOM_CAS: case SOP_RED: case SOP_ATOMS: case SOP_ATOMS_CAS:
	case SOP_VOTE: case SOP_CCTL: case SOP_CCTLL:
		return true;
	default:
		return false;
	}
}

static void res_name(unsigned r, char *buf, size_t n)
{
	if (r == RES_CC) snprintf(buf, n, "CC");
	else if (r >= RES_PRED) snprintf(buf, n, "P%u", r - RES_PRED);
	else snprintf(buf, n, "R%u", r);
}

void sim_timing_issue(SimMachine *m, const SimInsn *in, SimThread *w, unsigned n, size_t pc)
{
	SimTiming *s = m->timing;
	SassRegUse *u = &s->use;
	char rn[8];
	clear_waited(s, in->ctrl.wait, m->launch.pipe_order);
	sass_form_regs(in->form, &in->v, u);
	/* a VMAD with a 32-bit operand is variable latency (sass_varlat);
	 * any other VMAD given a write barrier runs as one too, its sources
	 * read late: ptxas 11.8 issues a VMAD 4 cycles after the LOP32I that
	 * writes its B (gen_kernels --defined --video 49) */
	if (in->form->op == SOP_VMAD && in->ctrl.wbar < NBARRIERS)
		u->varlat = true;
	/* the guard predicate is a source of every instruction */
	int64_t pg = sim_val(in, SR_PG, 7);
	uint32_t ran = 0;
	for (unsigned i = 0; i < n; i++) {
		s->lane_poison[i] = 0;
		s->lane_ran[i] = false;
		if (w[i].state != SIM_RUNNING || w[i].pc != pc)
			continue;
		/* the guard decides whether the lane runs: it must be sound */
		uint32_t gp = 0;
		if (pg < SIM_NPREDS && (s->wmask[RES_PRED + pg] || s->rem[RES_PRED + pg] > 0))
			gp = s->writer[RES_PRED + pg] << 16 | in->addr;
		if (pg < SIM_NPREDS && !gp)
			gp = w[i].poison[RES_PRED + pg];
		if (gp) {
			sim_fail(m, in, "a poisoned guard predicate: produced at 0x%04x, read too early at 0x%04x "
			         "(the control words do not wait long enough)", gp >> 16, gp & 0xffff);
			return;
		}
		s->lane_ran[i] = sim_pred(&w[i], pg, sim_val(in, SR_PG_NOT, 0));
		if (!s->lane_ran[i])
			continue;
		ran |= 1u << i;
		/* a source read too early: the pair producer -> reader. A pending
		 * write, fixed or variable latency, only in the lanes that ran it:
		 * a register is per lane (ptxas 11.8 -O3 reads R4 under @!P0 right
		 * after an @P0 write of it; its f64 slow paths read a MUFU result
		 * in lanes that never ran the MUFU, after a divergent branch). */
		uint32_t p = 0;
		FOR_RES(u, read, r) {
			int slack = u->varlat && r < SIM_NREGS ? VARLAT_READ_SLACK : 0;
			if (!p && (s->wmask[r] || s->rem[r] > slack) && (s->wlanes[r] >> i & 1))
				p = s->writer[r] << 16 | in->addr;
		}
		FOR_RES(u, read, r)
			if (!p)
				p = w[i].poison[r];
		s->lane_poison[i] = p;
		if (p && memory_or_flow(in->form->op)) {
			sim_fail(m, in, "a poisoned value reaches memory or control flow: produced at 0x%04x, "
			         "read too early at 0x%04x (the control words do not wait long enough)",
			         p >> 16, p & 0xffff);
			return;
		}
	}
	FOR_RES(u, write, r) {
		/* a later write of the same in-order pipe lands after the pending one */
		bool same_pipe = m->launch.pipe_order && u->varlat && s->wpipe[r] == pipe_of(in->form) &&
		                 s->wpipe[r] != 3;
		if (s->wmask[r] && !same_pipe && (s->wlanes[r] & ran)) {
			res_name(r, rn, sizeof rn);
			sim_fail(m, in, "overwrites %s before the variable-latency write at 0x%04x was waited on",
			         rn, s->writer[r]);
			return;
		}
		bool in_order = m->launch.pipe_order && u->varlat && s->rpipe[r] == pipe_of(in->form) &&
		                s->rpipe[r] != 3;
		if ((s->rmask[r] || s->unguarded[r]) && !in_order && (s->rlanes[r] & ran)) {
			res_name(r, rn, sizeof rn);
			sim_fail(m, in, "overwrites %s while the instruction at 0x%04x may still read it",
			         rn, s->reader[r]);
			return;
		}
	}
}

static void age(SimTiming *s, unsigned b, uint8_t pipe)
{
	s->ops[b]++;
	s->op_pipe[b][s->ops[b] % OP_RING] = pipe;
	s->op_seq[b][s->ops[b] % OP_RING] = s->pipe_seq[pipe];
}

void sim_timing_retire(SimMachine *m, const SimInsn *in, SimThread *w, unsigned n, size_t pc)
{
	SimTiming *s = m->timing;
	const SassRegUse *u = &s->use;
	const SassCtrl *c = &in->ctrl;
	uint32_t ran = 0;
	for (unsigned i = 0; i < n; i++)
		if (s->lane_ran[i]) {
			ran |= 1u << i;
			FOR_RES(u, write, r)
				w[i].poison[r] = s->lane_poison[i];
		}
	bool wbar = c->wbar < NBARRIERS, rbar = c->rbar < NBARRIERS;
	bool writes = false;
	FOR_RES(u, write, r)
		writes = true;
	uint16_t mark = writes ? unit_mark(in->form) : 0, carried = writes ? carried_marks(in->form) : 0;
	uint8_t pipe = pipe_of(in->form);
	if (u->varlat) {
		s->pipe_seq[pipe]++;
		for (unsigned b = 0; b < NBARRIERS; b++)
			if (b == c->wbar || b == c->rbar)
				s->bar_seq[b][pipe] = s->pipe_seq[pipe];
		if (wbar)
			age(s, c->wbar, pipe);
		if (wbar && carried)
			for (unsigned r = 0; r < NRES; r++)
				if (s->wmask[r] & carried) {
					s->wmask[r] = (uint16_t)((s->wmask[r] & ~carried) | (1u << c->wbar));
					s->wage[r] = s->ops[c->wbar];
				}
		if (rbar && (!wbar || c->rbar != c->wbar))
			age(s, c->rbar, pipe);
		FOR_RES(u, read, r) {
			if (r >= SIM_NREGS)
				continue;
			s->rlanes[r] = (s->rmask[r] || s->unguarded[r] ? s->rlanes[r] : 0) | ran;
			s->reader[r] = in->addr;
			s->rpipe[r] = pipe;
			s->useq[r] = s->pipe_seq[pipe];
			if (rbar || (wbar && writes)) {
				unsigned b = rbar ? c->rbar : c->wbar;
				s->rmask[r] = (uint8_t)(1u << b);
				s->rage[r] = s->ops[b];
			} else {
				s->unguarded[r] = true;
			}
		}
	}
	FOR_RES(u, write, r) {
		s->writer[r] = in->addr;
		s->unguarded[r] = false;
		s->rmask[r] = 0;
		if (u->varlat) {
			s->rem[r] = 0;
			s->wlanes[r] = (s->wmask[r] ? s->wlanes[r] : 0) | ran;
			s->wpipe[r] = pipe;
			s->wmask[r] = wbar ? (uint16_t)(1u << c->wbar) : mark;
			if (wbar)
				s->wage[r] = s->ops[c->wbar];
		} else {
			s->wmask[r] = 0;
			s->wlanes[r] = ran;
			s->rem[r] = r == RES_CC ? SCHED_CC_LATENCY : r >= RES_PRED ? SCHED_PRED_LATENCY
			                                                          : SCHED_ALU_LATENCY;
		}
	}
	if (in->form->op == SOP_DEPBAR) {
		if (sim_val(in, SR_LE, 0)) {
			/* all but the `keep` youngest operations on barrier b are done */
			unsigned b = (unsigned)sim_val(in, SR_SCOREBOARD, 0) % NBARRIERS;
			uint32_t keep = (uint32_t)sim_val(in, SR_CNT, 0);
			uint8_t bm = (uint8_t)(1u << b);
			for (unsigned r = 0; r < NRES; r++) {
				if (s->wmask[r] == bm && s->ops[b] - s->wage[r] >= keep)
					s->wmask[r] = 0;
				if (s->rmask[r] == bm && s->ops[b] - s->rage[r] >= keep)
					s->rmask[r] = 0;
			}
			/* in-order pipes: the youngest operation done completes the
			 * late reads of its pipe issued up to it */
			uint32_t done = s->ops[b] - keep;
			if (m->launch.pipe_order && keep < s->ops[b] && keep < OP_RING) {
				uint8_t pipe = s->op_pipe[b][done % OP_RING];
				for (unsigned r = 0; r < NRES; r++)
					if ((s->rmask[r] || s->unguarded[r]) && s->rpipe[r] == pipe && pipe != 3 &&
					    s->useq[r] <= s->op_seq[b][done % OP_RING])
						s->rmask[r] = 0, s->unguarded[r] = false;
			}
		}
		clear_waited(s, (unsigned)sim_val(in, SR_WMASK, 0), m->launch.pipe_order);
	}
	/* Issue 14: BAR.SYNC waits for the warp's memory operations before it
	 * (the barrier makes their effects visible to the block), so their
	 * late register reads are done: ptxas 11.8 -O3 overwrites the data
	 * register of an STS right after the BAR.SYNC that follows it, with
	 * no read barrier. */
	/* bar-reg-count: a BAR.SYNC has read its own registers (the number
	 * and count) when it releases: ptxas 11.8 -O3 overwrites them after
	 * it with no read barrier */
	if (in->form->op == SOP_BAR) {
		bool waits = sim_val(in, SR_BARMODE, 0) == 0;
		for (unsigned r = 0; r < NRES; r++)
			if ((s->rmask[r] || s->unguarded[r]) && (s->rpipe[r] == 1 || (waits && s->reader[r] == in->addr)))
				s->rmask[r] = 0, s->unguarded[r] = false;
	}
	for (unsigned r = 0; r < NRES; r++)
		s->rem[r] = s->rem[r] > (int)c->stall ? s->rem[r] - (int)c->stall : 0;
}

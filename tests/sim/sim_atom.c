/* Issue 14: atomics, reductions and warp votes in the simulator.
 *
 * ATOM, ATOM.CAS and RED take a generic address (sim_window.c: the shared
 * and local windows, else global memory); ATOMS and ATOMS.CAS a shared
 * one. Atomics of a launch run in one fixed order -- blocks, then warps,
 * then lanes, as sim_run.c issues them -- the same for both cubins of a
 * PTX file, and the race records let two threads' atomics meet on a byte
 * (never an atomic and a plain write). Where the order could still
 * matter (two cubins may lay out diverged paths differently, and return
 * values of a contended atomic depend on the order), the differential
 * kernels are written so that results do not depend on it (docs/simulator.md).
 *
 * VOTE reads the predicate of every lane that runs it (sim_run.c gathers
 * the ballot before any lane writes). CS2R and S2R read the clock and the
 * global timer as deterministic per-thread values (sim_clock_value): a
 * real clock would differ between any two runs, so both cubins must see
 * the same "time" for their outputs to be compared. */
#include "sim.h"

#include <math.h>
#include <string.h>

/* S2R/CS2R special register numbers (e_sreg). */
enum { SREG_PM0 = 0x04, SREG_PM7 = 0x0b, SREG_PM_HI0 = 0x48, SREG_PM_HI7 = 0x4f, SREG_CLOCKLO = 0x50,
       SREG_CLOCKHI = 0x51, SREG_GTIMERLO = 0x52, SREG_GTIMERHI = 0x53 };

/* The clocks, the global timer and the performance counters %pm0..%pm7
 * (SR_PM0..SR_PM7: counter n reads 0x1000 n + the thread's index; the
 * high words of %pm0_64..%pm7_64, SR_PM_HI0..SR_PM_HI7: 0x100 + n) as
 * fixed functions of the thread, so that two runs agree. */
uint32_t sim_clock_value(const SimThread *t, int64_t sreg)
{
	if (sreg >= SREG_PM0 && sreg <= SREG_PM7)
		return 0x1000u * (uint32_t)(sreg - SREG_PM0) + t->flat;
	if (sreg >= SREG_PM_HI0 && sreg <= SREG_PM_HI7)
		return 0x100u + (uint32_t)(sreg - SREG_PM_HI0);
	switch (sreg) {
	case SREG_CLOCKLO: return 0x10000u + 0x100u * t->flat;
	case SREG_CLOCKHI: return 0x2a;
	case SREG_GTIMERLO: return 0x3b9aca00u + t->flat;
	default: return 0x1;    /* SREG_GTIMERHI */
	}
}

static bool is_clock(int64_t sreg)
{
	return (sreg >= SREG_CLOCKLO && sreg <= SREG_GTIMERHI) || (sreg >= SREG_PM0 && sreg <= SREG_PM7) ||
	       (sreg >= SREG_PM_HI0 && sreg <= SREG_PM_HI7);
}

/* ATOM/RED data types (e_atomsize): U32 S32 U64 F32.FTZ.RN U128 S64;
 * ATOMS (e_atomssize): U32 S32 U64 S64. */
enum { AT_U32, AT_S32, AT_U64, AT_F32, AT_U128, AT_S64 };

static float ftz(float f) { return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f; }

/* old op d for the ATOM operations (e_atomop): the reductions, EXCH (8);
 * F32 adds with subnormals flushed, rounded to nearest. */
static uint64_t atom_apply(int64_t op, int type, uint64_t old, uint64_t d)
{
	if (op == 8)
		return d;
	if (type == AT_F32) {
		float a, b;
		uint32_t oa = (uint32_t)old, db = (uint32_t)d, r;
		memcpy(&a, &oa, 4);
		memcpy(&b, &db, 4);
		float s = ftz(ftz(a) + ftz(b));
		memcpy(&r, &s, 4);
		return r;
	}
	bool wide = type == AT_U64 || type == AT_S64;
	uint64_t v = sim_reduce(op, type == AT_S32 || type == AT_S64, wide, old, d);
	return wide ? v : (uint32_t)v;
}

static uint64_t reg_pair(const SimThread *t, int64_t r, bool wide)
{
	uint64_t v = sim_reg(t, r);
	if (wide)
		v |= (uint64_t)sim_reg(t, r == 255 ? 255 : r + 1) << 32;
	return v;
}

static void set_pair(SimThread *t, int64_t r, bool wide, uint64_t v)
{
	sim_set(t, r, (uint32_t)v);
	if (wide)
		sim_set(t, r == 255 ? 255 : r + 1, (uint32_t)(v >> 32));
}

static void exec_atomic(SimMachine *m, const SimInsn *in, SimThread *t)
{
	SassOp op = in->form->op;
	bool shared = op == SOP_ATOMS || op == SOP_ATOMS_CAS;
	bool cas = op == SOP_ATOM_CAS || op == SOP_ATOMS_CAS;
	int64_t aop = cas ? -1 : sim_val(in, SR_ATOMOP, 0);
	int type;
	if (cas) {
		type = sim_val(in, SR_CAS64, 0) ? AT_U64 : AT_U32;
	} else if (shared) {
		static const int atoms_type[] = { AT_U32, AT_S32, AT_U64, AT_S64 };
		type = atoms_type[sim_val(in, SR_ATOMSIZE, 0) & 3];
	} else {
		type = (int)sim_val(in, SR_ATOMSIZE, 0);
	}
	if (type == AT_U128 || type > AT_S64 || aop > 8 ||
	    (type == AT_F32 && aop != 0) || ((aop == 3 || aop == 4) && type != AT_U32))
		return (void)sim_fail(m, in, "this atomic operation and type are not modelled");
	bool wide = type == AT_U64 || type == AT_S64;
	uint32_t n = wide ? 8 : 4;
	int64_t ra = sim_val(in, SR_RA, 255), rb = sim_val(in, SR_RB, 255);
	SimRegion *r = NULL;
	uint32_t *writer = NULL;
	uint8_t *p;
	if (shared) {
		uint64_t off = (uint32_t)(sim_reg(t, ra) + 4 * (uint32_t)sim_val(in, SR_WOFF, 0));
		p = sim_shared(m, in, off, n, &writer);
	} else {
		uint64_t a = sim_reg(t, ra);
		if (sim_val(in, SR_E, 0))
			a |= (uint64_t)sim_reg(t, ra == 255 ? 255 : ra + 1) << 32;
		p = sim_generic(m, in, t, a + (uint64_t)sim_val(in, SR_IMM, 0), n, &r, &writer);
	}
	if (!p)
		return;
	uint64_t old = 0, nv;
	memcpy(&old, p, n);
	if (cas) {
		/* compare in Rb (.64: Rb, Rb+1), the new value after it */
		uint64_t cmp = reg_pair(t, rb, wide);
		uint64_t val = reg_pair(t, rb == 255 ? 255 : rb + (wide ? 2 : 1), wide);
		nv = old == cmp ? val : old;
	} else {
		nv = atom_apply(aop, type, old, reg_pair(t, rb, wide));
	}
	memcpy(p, &nv, n);
	if (r) {
		sim_region_touch(r, (uint64_t)(p - r->bytes), n);
		sim_note_record(m, in, r->name, r->writer, (size_t)(p - r->bytes), n, t, true);
	}
	else if (writer)
		sim_note_record(m, in, "shared", m->shared_writer, (size_t)(writer - m->shared_writer), n,
		                t, true);
	if (op != SOP_RED)
		set_pair(t, sim_val(in, SR_RD, 255), wide, old);
}

/* VOTE.ALL/ANY/EQ Pd, Rd, Pc: Rd gets the ballot of the lanes that run it. */
static void exec_vote(SimMachine *m, const SimInsn *in, SimThread *t)
{
	uint32_t act = m->vote_active, bal = m->vote_ballot;
	bool r;
	switch (sim_val(in, SR_VOTEMODE, 0)) {
	case 0: r = bal == act; break;
	case 1: r = bal != 0; break;
	case 2: r = bal == 0 || bal == act; break;
	default: sim_fail(m, in, "VOTE mode %lld is not modelled", (long long)sim_val(in, SR_VOTEMODE, 0)); return;
	}
	int64_t pd = sim_val(in, SR_PD, 7);
	if (pd < SIM_NPREDS)
		t->p[pd] = r;
	sim_set(t, sim_val(in, SR_RD, 255), bal);
}

bool sim_exec_atom(SimMachine *m, const SimInsn *in, SimThread *t)
{
	switch (in->form->op) {
	case SOP_ATOM: case SOP_ATOM_CAS: case SOP_RED: case SOP_ATOMS: case SOP_ATOMS_CAS:
		exec_atomic(m, in, t);
		return true;
	case SOP_VOTE:
		exec_vote(m, in, t);
		return true;
	case SOP_CS2R: {
		int64_t sr = sim_val(in, SR_SREG, 0);
		if (!is_clock(sr))
			return sim_fail(m, in, "CS2R of special register %lld is not modelled", (long long)sr), true;
		sim_set(t, sim_val(in, SR_RD, 255), sim_clock_value(t, sr));
		return true;
	}
	default:
		return false;
	}
}

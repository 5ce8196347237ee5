/* Running a loaded kernel over a grid. Blocks run one after the other;
 * a block's warps run one after the other, each until it ends or reaches
 * a barrier (BAR.SYNC); when every warp of the block waits at the barrier
 * or has exited (an exited warp counts as arrived), all go on, in warp
 * order again. The memory is sequentially consistent, so MEMBAR has
 * nothing to order. Inside a warp, two models of divergence (SIM_DIVERGENCE):
 * "ideal" (the default) reconverges the threads that diverged by always
 * issuing the lowest pc any running thread is at, with the threads at it,
 * so paths join wherever they meet, with or without SSY/SYNC; "hw-taken"
 * and "hw-fallthrough" model the hardware's CRS stack (crs_* below): the
 * warp runs one pc with one active mask, and only SSY/SYNC, PBK/BRK and
 * CAL/RET join its groups again. The order in which a divergent BRA's two
 * groups run is not documented, so either can be chosen; code that is
 * correct on the hardware passes both.
 *
 * c[0x0] is laid out as the CUDA driver lays it out for sm_50 (checked
 * against the addresses ptxas 11.8 reads): ntid.{x,y,z} at 0x8, 0xc, 0x10,
 * nctaid.{x,y,z} at 0x14, 0x18, 0x1c, the initial stack pointer at 0x20,
 * parameters from 0x140 (SASS_PARAM_CBANK_BASE), then the surface slots.
 * The caller fills the parameters and slots. */
#include "sim.h"
#include "sim_timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	SIM_CB_NTID = 0x8,
	SIM_CB_NCTAID = 0x14,
	SIM_CB_STACK = 0x20,
	SIM_CB_WINDOWS = 0x0,       /* the shared and local windows' generic addresses */
	SIM_DEFAULT_MAX_STEPS = 1 << 22,
};

/* S2R special registers (nvdisasm's numbering, sass_table.c e_sreg). */
enum { SREG_LANEID = 0x00, SREG_TID_X = 0x21, SREG_CTAID_X = 0x25, SREG_SMEMSZ = 0x32, SREG_LMEMHIOFF = 0x37,
       SREG_EQMASK = 0x38, SREG_GEMASK = 0x3c };

/* %lanemask_eq, _lt, _le, _gt, _ge of a lane (SR_EQMASK .. SR_GEMASK). */
static uint32_t lane_mask(int64_t sr, uint32_t lane)
{
	uint32_t eq = 1u << lane, lt = eq - 1;
	switch (sr - SREG_EQMASK) {
	case 0: return eq;
	case 1: return lt;
	case 2: return lt | eq;
	case 3: return ~(lt | eq);
	default: return ~lt;
	}
}

/* BAR{.SYNC,.ARV} id, count: the whole warp arrives when any of its
 * threads executes it (sm_6x and below), so its threads must agree. The
 * register forms hold what ptxas 11.8 puts in them: BAR id, Rb has the
 * count in Rb; BAR Ra, Rb (ptxas passes one register twice, made by BFI
 * t, count, 0xc10, id) the number in the low half of Ra and the count in
 * bits 27:16 of Rb. */
static void exec_bar(SimMachine *m, const SimInsn *in, SimThread *t)
{
	bool reg_id = !sass_values_has(&in->v, SR_BARID), reg_count = !sass_values_has(&in->v, SR_BARCNT);
	uint32_t ra = sim_reg(t, sim_val(in, SR_RA, 255)), rb = sim_reg(t, sim_val(in, SR_RB, 255));
	int64_t id = !reg_id ? sim_val(in, SR_BARID, 0) : reg_count ? (ra & 0xffff) : ra;
	int64_t count = !reg_count ? sim_val(in, SR_BARCNT, 0) : reg_id ? (rb >> 16 & 0xfff) : (rb & 0xfff);
	bool arrive = sim_val(in, SR_BARMODE, 0) != 0;
	if (id > 15)
		return (void)sim_fail(m, in, "barrier number %lld (0 to 15 exist)", (long long)id);
	if (count % SIM_WARP)
		return (void)sim_fail(m, in, "thread count %lld is not a multiple of the warp size", (long long)count);
	if (arrive && count == 0)
		return (void)sim_fail(m, in, "BAR.ARV without a thread count");
	if (m->at_barrier && (m->barrier_id != id || m->barrier_count != count))
		return (void)sim_fail(m, in, "the threads of a warp give BAR different numbers or counts");
	m->at_barrier = true;
	m->barrier_id = id;
	m->barrier_count = count;
	m->barrier_arrive = arrive;
}

/* A branch to a control word's address enters its group at the first
 * instruction (ptxas -O0 branches to group starts). */
static size_t index_of(uint32_t addr)
{
	if (addr % 32 == 0)
		addr += 8;
	return (addr / 32) * 3 + (addr % 32) / 8 - 1;
}

size_t sim_code_index(uint32_t addr)
{
	return index_of(addr);
}

/* A condition-code test of BRA (e_cond's numbering) on the integer CC an
 * IADD/ISETP-style compare left: 1 true, 0 false, -1 not modelled (the
 * float tests NUM NAN LTU ... and the special ones). Signed tests use
 * sign != overflow, unsigned ones the carry (no borrow). */
int sim_cc_test(const SimThread *t, int64_t cond)
{
	bool z = t->cc.z, lt = t->cc.s != t->cc.o, c = t->cc.c;
	/* sim4: the sign flag alone (SFF, SFT) and zero hold after any writer.
	 * EQU and NEU are EQ and NE with an unordered float compare counted
	 * in; an integer result is never unordered, and ptxas -O3 branches on
	 * CC.NEU after ISET.CC to mean "the result is not zero" (HeCBench
	 * bitpacking's loop test). */
	switch (cond) {
	case 0x0: case 0x2: case 0x5: case 0xa: case 0xd: case 0xf: case 0x12: case 0x15: break;
	default: if (t->cc.co_unknown) return -1;
	}
	switch (cond) {
	case 0x0: return 0;             /* F */
	case 0x1: return lt;            /* LT */
	case 0x2: return z;             /* EQ */
	case 0x3: return lt || z;       /* LE */
	case 0x4: return !lt && !z;     /* GT */
	case 0x5: return !z;            /* NE */
	case 0x6: return !lt;           /* GE */
	case 0xa: return z;             /* EQU */
	case 0xd: return !z;            /* NEU */
	case 0xf: return 1;             /* T */
	case 0x11: return !c;           /* LO */
	case 0x12: return !t->cc.s;     /* SFF */
	case 0x13: return !c || z;      /* LS */
	case 0x14: return c && !z;      /* HI */
	case 0x15: return t->cc.s;      /* SFT */
	case 0x16: return c;            /* HS */
	default: return -1;
	}
}

/* A branch-like target: its index, or SIZE_MAX after a failure. */
static size_t branch_target(SimMachine *m, const SimInsn *in)
{
	int64_t target = (int64_t)in->addr + 8 + sim_val(in, SR_IMM, 0);
	if (target < 0 || target % 8 || index_of((uint32_t)target) >= m->ninsns) {
		sim_fail(m, in, "branch target 0x%llx is not an instruction", (long long)target);
		return SIZE_MAX;
	}
	return index_of((uint32_t)target);
}

/* SSY/PBK push their target; SYNC goes to the innermost SSY's, BRK to the
 * innermost PBK's (leaving the SSY entries inside it). Each thread keeps
 * its own stack: the warp reconverges because the lowest pc issues first
 * (sim_run.c's header), so the hardware's waiting at the target needs no
 * model of its own. */
static void exec_sync(SimMachine *m, const SimInsn *in, SimThread *t, size_t *next)
{
	SassOp op = in->form->op;
	if (op == SOP_SSY || op == SOP_PBK) {
		size_t target = branch_target(m, in);
		if (target == SIZE_MAX)
			return;
		if (t->sync_depth == SIM_SYNC_DEPTH) {
			sim_fail(m, in, "more than %d SSY/PBK entries pending", SIM_SYNC_DEPTH);
			return;
		}
		t->sync_target[t->sync_depth] = (uint32_t)target;
		t->sync_is_break[t->sync_depth++] = op == SOP_PBK;
		return;
	}
	if (sim_val(in, SR_COND, 0xf) != 0xf) {
		sim_fail(m, in, "conditional-code SYNC/BRK is not modelled");
		return;
	}
	bool brk = op == SOP_BRK;
	while (t->sync_depth > 0 && t->sync_is_break[t->sync_depth - 1] != brk)
		t->sync_depth--;
	if (t->sync_depth == 0) {
		sim_fail(m, in, "%s with no pending %s", brk ? "BRK" : "SYNC", brk ? "PBK" : "SSY");
		return;
	}
	*next = t->sync_target[--t->sync_depth];
}

/* Control flow and special registers; false when the op is none of them. */
static bool exec_flow(SimMachine *m, const SimInsn *in, SimThread *t, size_t *next)
{
	switch (in->form->op) {
	case SOP_BRA: {
		int taken = sim_cc_test(t, sim_val(in, SR_COND, 0xf));
		if (taken < 0)
			return sim_fail(m, in, "this condition-code test is not modelled"), true;
		if (!taken)
			return true;
		size_t target = branch_target(m, in);
		if (target != SIZE_MAX)
			*next = target;
		return true;
	}
	case SOP_SSY: case SOP_PBK: case SOP_SYNC: case SOP_BRK:
		exec_sync(m, in, t, next);
		return true;
	case SOP_EXIT:
		t->state = SIM_EXITED;
		return true;
	/* ---- issue 15: calls: a per-thread stack of return addresses ---- */
	case SOP_CAL: {
		int64_t target = (int64_t)in->addr + 8 + sim_val(in, SR_IMM, 0);
		if (target < 0 || target % 8 || index_of((uint32_t)target) >= m->ninsns)
			return sim_fail(m, in, "call target 0x%llx is not an instruction", (long long)target), true;
		if (t->ncalls == SIM_CALL_DEPTH)
			return sim_fail(m, in, "calls nested deeper than %d", SIM_CALL_DEPTH), true;
		t->calls[t->ncalls++] = *next;
		*next = index_of((uint32_t)target);
		return true;
	}
	case SOP_BPT:
		return sim_fail(m, in, "BPT.TRAP 0x%llx: the kernel traps", (long long)sim_val(in, SR_IMM, 0)), true;
	case SOP_RET:
		if (t->ncalls == 0)
			return sim_fail(m, in, "RET with no CAL to return to"), true;
		*next = t->calls[--t->ncalls];
		return true;
	case SOP_NOP: case SOP_DEPBAR: case SOP_MEMBAR:
		return true;        /* timing only: sim_timing.c */
	case SOP_CCTL: case SOP_CCTLL:
		return true;        /* texcache: a prefetch moves data between caches only */
	case SOP_BAR:
		exec_bar(m, in, t);
		return true;
	case SOP_S2R: {
		int64_t sr = sim_val(in, SR_SREG, 0);
		uint32_t v;
		if (sr >= SREG_TID_X && sr < SREG_TID_X + 3)
			v = t->tid[sr - SREG_TID_X];
		else if (sr >= SREG_CTAID_X && sr < SREG_CTAID_X + 3)
			v = m->ctaid[sr - SREG_CTAID_X];
		else if (sr == SREG_LANEID)
			v = t->lane;
		else if (sr == SREG_SMEMSZ)       /* %total_smem_size: the block's shared memory */
			v = m->shared_size;
		else if (sr == SREG_LMEMHIOFF)    /* the lowest address of the thread's local memory */
			v = SIM_STACK_TOP - m->local_size;
		else if (sr >= SREG_EQMASK && sr <= SREG_GEMASK)
			v = lane_mask(sr, t->lane);
		else if (sr >= 0x50 && sr <= 0x53)
			v = sim_clock_value(t, sr);
		else
			return sim_fail(m, in, "special register %lld is not modelled", (long long)sr), true;
		sim_set(t, sim_val(in, SR_RD, 255), v);
		return true;
	}
	default:
		return sim_exec_indirect(m, in, t, next);     /* fnptr: PRET, BRX */
	}
}

/* Runs `in` for thread t; false when its guard is off. */
static bool exec_one(SimMachine *m, const SimInsn *in, SimThread *t)
{
	size_t next = (size_t)(in - m->insns) + 1;
	bool on = sim_pred(t, sim_val(in, SR_PG, 7), sim_val(in, SR_PG_NOT, 0));
	if (on) {
		if (!exec_flow(m, in, t, &next) && !sim_exec_int64(m, in, t) && !sim_exec_fchk(m, in, t) &&
		    !sim_exec_int(m, in, t) &&
		    !sim_exec_float(m, in, t) && !sim_exec_mem(m, in, t) &&
		    !sim_exec_conversion(m, in, t) && !sim_exec_double(m, in, t) &&
		    !sim_exec_sfu(m, in, t) && !sim_exec_bits(m, in, t) && !sim_exec_video(m, in, t) &&
		    !sim_exec_mul(m, in, t) && !sim_exec_window(m, in, t) &&
		    !sim_exec_atom(m, in, t) && !sim_exec_tex(m, in, t) && !sim_exec_branch(m, in, t) &&
		    !sim_exec_extern(m, in, t))
			sim_fail(m, in, "the simulator does not model %s", in->form->name);
	}
	if (t->state == SIM_RUNNING && next >= m->ninsns)
		sim_fail(m, in, "ran off the end of the code");
	t->pc = next;
	return on;
}

/* SHFL and VOTE read every lane of the warp before any lane writes: SHFL
 * the source register (a lane not at the SHFL gives what its register
 * holds), VOTE the lanes at it whose guard holds and their predicate. */
static void capture_warp_sources(SimMachine *m, const SimInsn *in, const SimThread *w, unsigned n,
                                 size_t pc)
{
	if (in->form->op == SOP_SHFL)
		for (unsigned i = 0; i < SIM_WARP; i++)
			m->shfl_src[i] = i < n ? sim_reg(&w[i], sim_val(in, SR_RA, 255)) : 0;
	if (in->form->op == SOP_VOTE) {
		m->vote_active = m->vote_ballot = 0;
		for (unsigned i = 0; i < n; i++)
			if (w[i].state == SIM_RUNNING && w[i].pc == pc &&
			    sim_pred(&w[i], sim_val(in, SR_PG, 7), sim_val(in, SR_PG_NOT, 0))) {
				m->vote_active |= 1u << i;
				if (sim_pred(&w[i], sim_val(in, SR_PC, 7), sim_val(in, SR_PC_NOT, 0)))
					m->vote_ballot |= 1u << i;
			}
	}
}

/* The instruction a warp issues at pc, counted against the step limit;
 * NULL after a failure (both divergence models' steppers). */
static const SimInsn *fetch(SimMachine *m, size_t pc)
{
	if (pc >= m->ninsns)
		return sim_fail(m, NULL, "%s: ran off the end of the code", m->kernel), NULL;
	const SimInsn *in = &m->insns[pc];
	if (++m->steps > m->launch.max_steps)
		return sim_fail(m, in, "more than %llu instructions issued: an endless loop?",
		                (unsigned long long)m->launch.max_steps), NULL;
	if (!in->form)
		return sim_fail(m, in, "no form of the table matches this word"), NULL;
	return in;
}

/* After the warp ran `in`: the trace line (which lanes ran it) and the
 * timing model's retirement. False when the run failed. */
static bool retire(SimMachine *m, const SimInsn *in, SimThread *w, unsigned n, size_t pc, const char *lanes)
{
	if (m->launch.trace) {
		char ctrl[16] = "?";
		sass_ctrl_format(&in->ctrl, ctrl, sizeof ctrl);
		fprintf(stderr, "%s+%04x %s %s %s\n", m->kernel, in->addr, ctrl, in->form->name, lanes);
	}
	if (m->timing && !m->failed)
		sim_timing_retire(m, in, w, n, pc);
	return !m->failed;
}

/* ---- diverge: the hardware's reconvergence (CRS) stack ----
 * NVIDIA's SASS reference for SPA 5.0: SSY pushes a CRS_TYPE_SSY token with
 * the warp's active mask and the sync-up point; a BRA that splits the
 * active threads pushes a CRS_TYPE_DIV token (one group's mask and pc) and
 * runs the other group; SYNC runs through the DIV tokens above the SSY and
 * then restores the SSY's mask at its target; PBK/BRK do the same for
 * loops (the threads that BRK wait until the PBK token pops), CAL/RET for
 * calls. Here the threads that leave their path (SYNC, BRK, RET, EXIT)
 * drop out of the active mask and out of every token above the one that
 * will resume them; when no thread is left active the top token pops. */
typedef enum DivergenceModel { DIV_IDEAL, DIV_HW_TAKEN_FIRST, DIV_HW_FALLTHROUGH_FIRST } DivergenceModel;
typedef enum CrsKind { CRS_SSY, CRS_DIV, CRS_PBK, CRS_CAL } CrsKind;
static const char *const crs_name[] = { "SSY", "DIV", "PBK", "CAL" };

typedef struct CrsToken {
	CrsKind kind;
	uint32_t mask;
	size_t pc;
} CrsToken;

typedef struct WarpCrs {
	uint32_t active;            /* the lanes running the current path */
	size_t pc;
	unsigned depth;
	CrsToken tok[SIM_SYNC_DEPTH];
} WarpCrs;

/* A thread parked in a token has no pc of its own (sim_timing.c and the
 * SHFL/VOTE reads look for threads at the issued pc). */
#define CRS_PARKED (SIZE_MAX - 1)

enum { SIM_NBARS = 16, SIM_MAX_WARPS = SIM_MAX_BLOCK_THREADS / SIM_WARP };

/* A barrier's current phase: the warps that arrived (a mask, and a count:
 * BAR.ARV may arrive twice) and the thread count they gave (0: the block) */
typedef struct BarPhase {
	uint32_t mask, arrived;
	int64_t count;
} BarPhase;

typedef struct Warps {
	DivergenceModel model;
	WarpCrs warp[SIM_MAX_WARPS];
	BarPhase bar[SIM_NBARS];
	int8_t waits[SIM_MAX_WARPS];    /* the barrier a warp waits at, or -1 */
	uint32_t ended;                 /* warps with no thread left running */
} Warps;

static DivergenceModel divergence_model(SimMachine *m)
{
	const char *e = getenv("SIM_DIVERGENCE");
	if (!e || !*e || !strcmp(e, "ideal"))
		return DIV_IDEAL;
	if (!strcmp(e, "hw-taken"))
		return DIV_HW_TAKEN_FIRST;
	if (!strcmp(e, "hw-fallthrough"))
		return DIV_HW_FALLTHROUGH_FIRST;
	snprintf(m->error, sizeof m->error,
	         "SIM_DIVERGENCE=%s: expected ideal, hw-taken or hw-fallthrough", e);
	m->failed = true;
	return DIV_IDEAL;
}

static uint32_t live_lanes(const SimThread *w, unsigned n)
{
	uint32_t live = 0;
	for (unsigned i = 0; i < n; i++)
		if (w[i].state == SIM_RUNNING)
			live |= 1u << i;
	return live;
}

static void crs_push(SimMachine *m, const SimInsn *in, WarpCrs *c, CrsKind kind, uint32_t mask, size_t pc)
{
	if (c->depth == SIM_SYNC_DEPTH) {
		sim_fail(m, in, "more than %d reconvergence tokens pending", SIM_SYNC_DEPTH);
		return;
	}
	c->tok[c->depth++] = (CrsToken){ .kind = kind, .mask = mask, .pc = pc };
}

/* No lane is active: the top tokens pop until one holds a live lane. */
static void crs_resume(SimMachine *m, const SimInsn *in, WarpCrs *c, const SimThread *w, unsigned n)
{
	uint32_t live = live_lanes(w, n);
	while (c->depth > 0) {
		const CrsToken *k = &c->tok[--c->depth];
		if (k->mask & live) {
			c->active = k->mask & live;
			c->pc = k->pc;
			return;
		}
	}
	c->active = 0;
	if (live)
		sim_fail(m, in, "lanes 0x%08x wait for a reconvergence token that is gone: they never run again",
		         live);
}

/* The lanes `leave` stop here and wait for the innermost token of kind:
 * SYNC for the SSY, BRK for the PBK, RET for the CAL. */
static void crs_leave(SimMachine *m, const SimInsn *in, WarpCrs *c, const SimThread *w, unsigned n,
                      uint32_t leave, CrsKind kind)
{
	int j = (int)c->depth - 1;
	while (j >= 0 && c->tok[j].kind != kind)
		j--;
	if (j < 0) {
		sim_fail(m, in, "%s with no %s token on the reconvergence stack: the warp never reconverges",
		         in->form->name, crs_name[kind]);
		return;
	}
	for (unsigned i = (unsigned)j + 1; i < c->depth; i++)
		c->tok[i].mask &= ~leave;
	c->active &= ~leave;
	if (!c->active)
		crs_resume(m, in, c, w, n);
}

/* The lanes of the active mask whose guard (and condition-code test) holds. */
static uint32_t crs_taken(SimMachine *m, const SimInsn *in, const WarpCrs *c, const SimThread *w,
                          unsigned n)
{
	uint32_t taken = 0;
	for (unsigned i = 0; i < n; i++) {
		if (!(c->active >> i & 1) ||
		    !sim_pred(&w[i], sim_val(in, SR_PG, 7), sim_val(in, SR_PG_NOT, 0)))
			continue;
		int cc = sim_cc_test(&w[i], sim_val(in, SR_COND, 0xf));
		if (cc < 0) {
			sim_fail(m, in, "this condition-code test is not modelled");
			return 0;
		}
		if (cc)
			taken |= 1u << i;
	}
	return taken;
}

static bool crs_op(SassOp op)
{
	return op == SOP_BRA || op == SOP_SSY || op == SOP_PBK || op == SOP_SYNC || op == SOP_BRK ||
	       op == SOP_CAL || op == SOP_RET || op == SOP_PRET || op == SOP_BRX || op == SOP_JMX;
}

/* BRX for the lanes `taken`: the group of one target runs (the lowest
 * lane's, or the highest's for the fall-through-first order), every other
 * group waits in a DIV token at its target. */
static void crs_brx(SimMachine *m, const SimInsn *in, WarpCrs *c, const SimThread *w, unsigned n,
                    uint32_t taken, DivergenceModel model)
{
	size_t target[SIM_WARP];
	for (unsigned i = 0; i < n; i++)
		if (taken >> i & 1 && !sim_brx_target(m, in, &w[i], &target[i]))
			return;
	if (c->active & ~taken)
		crs_push(m, in, c, CRS_DIV, c->active & ~taken, c->pc);
	unsigned run = 0;
	for (unsigned i = 0; i < n; i++)
		if (taken >> i & 1 && (model == DIV_HW_FALLTHROUGH_FIRST || !(taken & ((1u << i) - 1))))
			run = i;
	for (uint32_t left = taken; left && !m->failed;) {
		unsigned lo = 0;
		while (!(left >> lo & 1))
			lo++;
		uint32_t group = 0;
		for (unsigned i = lo; i < n; i++)
			if (left >> i & 1 && target[i] == target[lo])
				group |= 1u << i;
		left &= ~group;
		if (group >> run & 1) {
			c->active = group;
			c->pc = target[lo];
		} else {
			crs_push(m, in, c, CRS_DIV, group, target[lo]);
		}
	}
}

/* Runs a control-flow instruction for the whole warp. */
static void crs_flow(SimMachine *m, const SimInsn *in, WarpCrs *c, const SimThread *w, unsigned n,
                     DivergenceModel model)
{
	SassOp op = in->form->op;
	size_t here = (size_t)(in - m->insns), next = here + 1;
	uint32_t taken = crs_taken(m, in, c, w, n), rest = c->active & ~taken;
	if (m->failed)
		return;
	if (op == SOP_BRX || op == SOP_JMX)
		return crs_brx(m, in, c, w, n, taken, model);
	if (op == SOP_SYNC || op == SOP_BRK || op == SOP_RET) {
		c->pc = next;
		if (taken)
			crs_leave(m, in, c, w, n, taken, op == SOP_SYNC ? CRS_SSY : op == SOP_BRK ? CRS_PBK : CRS_CAL);
		return;
	}
	if (op == SOP_BRX) {
		c->pc = next;
		return crs_brx(m, in, c, w, n, taken, model);
	}
	size_t target = branch_target(m, in);
	if (target == SIZE_MAX)
		return;
	if (op != SOP_BRA && taken && rest)
		return (void)sim_fail(m, in, "a guarded %s that splits the warp is not modelled", in->form->name);
	c->pc = next;
	if (!taken)
		return;
	if (op == SOP_SSY || op == SOP_PBK)
		return crs_push(m, in, c, op == SOP_SSY ? CRS_SSY : CRS_PBK, c->active, target);
	if (op == SOP_PRET)             /* fnptr: the callee's RET returns to target */
		return crs_push(m, in, c, CRS_CAL, c->active, target);
	if (op == SOP_CAL) {
		crs_push(m, in, c, CRS_CAL, c->active, next);
		c->pc = target;
		return;
	}
	if (!rest) {                                    /* a uniform branch */
		c->pc = target;
		return;
	}
	if (model == DIV_HW_TAKEN_FIRST) {
		crs_push(m, in, c, CRS_DIV, rest, next);
		c->active = taken;
		c->pc = target;
	} else {
		crs_push(m, in, c, CRS_DIV, taken, target);
		c->active = rest;
	}
}

/* Issues the warp's pc for its active lanes (the CRS model). False when
 * the warp has ended or the run failed. */
static bool step_warp_crs(SimMachine *m, WarpCrs *c, DivergenceModel model, SimThread *w, unsigned n)
{
	if (!c->active)
		return false;
	size_t pc = c->pc;
	const SimInsn *in = fetch(m, pc);
	if (!in)
		return false;
	for (unsigned i = 0; i < n; i++)
		w[i].pc = c->active >> i & 1 ? pc : CRS_PARKED;
	if (m->timing)
		sim_timing_issue(m, in, w, n, pc);
	if (m->failed)
		return false;
	capture_warp_sources(m, in, w, n, pc);
	uint32_t before = c->active;
	if (crs_op(in->form->op)) {
		crs_flow(m, in, c, w, n, model);
	} else {
		for (unsigned i = 0; i < n && !m->failed; i++)
			if (c->active >> i & 1)
				exec_one(m, in, &w[i]);
		c->pc = pc + 1;
		c->active &= live_lanes(w, n);
		if (!c->active && !m->failed)
			crs_resume(m, in, c, w, n);
	}
	char lanes[24];
	snprintf(lanes, sizeof lanes, "active=0x%08x", before);
	return retire(m, in, w, n, pc, lanes);
}
/* ---- end diverge ---- */

/* Issues the instruction at the lowest pc of the warp's running threads,
 * for the threads at that pc, in lane order. False when none runs. */
static bool step_warp(SimMachine *m, SimThread *w, unsigned n)
{
	size_t pc = SIZE_MAX;
	for (unsigned i = 0; i < n; i++)
		if (w[i].state == SIM_RUNNING && w[i].pc < pc)
			pc = w[i].pc;
	if (pc == SIZE_MAX)
		return false;
	const SimInsn *in = fetch(m, pc);
	if (!in)
		return false;
	if (m->timing)
		sim_timing_issue(m, in, w, n, pc);
	capture_warp_sources(m, in, w, n, pc);
	unsigned on = 0;
	for (unsigned i = 0; i < n && !m->failed; i++)
		if (w[i].state == SIM_RUNNING && w[i].pc == pc)
			on += exec_one(m, in, &w[i]);
	char lanes[24];
	snprintf(lanes, sizeof lanes, "lanes=%u", on);
	return retire(m, in, w, n, pc, lanes);
}

/* Releases barrier b when its phase is complete: a thread count is
 * reached when that many threads' warps arrived (a warp counts as 32
 * threads), the whole block when every warp arrived. An ended warp counts
 * as arrived at every barrier (so a racy launch's one-thread reruns pass
 * the barriers the block's other warps would have reached). Its waiting
 * warps go on. */
static void bar_try_release(SimMachine *m, Warps *ws, unsigned nwarps, unsigned b)
{
	BarPhase *p = &ws->bar[b];
	uint32_t all = nwarps == 32 ? ~0u : (1u << nwarps) - 1, gone = ws->ended & ~p->mask & all;
	unsigned ngone = 0;
	for (; gone; gone &= gone - 1)
		ngone++;
	bool done = p->arrived && (p->count ? (int64_t)(p->arrived + ngone) * SIM_WARP >= p->count
	                                     : ((p->mask | ws->ended) & all) == all);
	if (!done)
		return;
	for (unsigned w = 0; w < nwarps; w++)
		if (ws->waits[w] == (int8_t)b)
			ws->waits[w] = -1;
	*p = (BarPhase){ 0 };
	sim_window_barrier(m);
	sim_branch_barrier(m);
}

/* Warp w arrives at the barrier its BAR named (m->barrier_*) */
static void bar_arrive(SimMachine *m, Warps *ws, unsigned nwarps, unsigned w)
{
	BarPhase *p = &ws->bar[m->barrier_id];
	if (p->arrived && p->count != m->barrier_count) {
		sim_fail(m, NULL, "%s: barrier %lld reached with thread counts %lld and %lld", m->kernel,
		         (long long)m->barrier_id, (long long)p->count, (long long)m->barrier_count);
		return;
	}
	p->count = m->barrier_count;
	p->mask |= 1u << w;
	p->arrived++;
	if (!m->barrier_arrive)
		ws->waits[w] = (int8_t)m->barrier_id;
	bar_try_release(m, ws, nwarps, (unsigned)m->barrier_id);
}

/* Runs warp w of the block until it ends or waits at a barrier (BAR.ARV
 * arrives and goes on); false when it has ended. */
static bool run_warp(SimMachine *m, Warps *ws, SimThread *threads, uint32_t nthreads, unsigned w)
{
	unsigned w0 = w * SIM_WARP, n = nthreads - w0 < SIM_WARP ? nthreads - w0 : SIM_WARP;
	unsigned nwarps = (nthreads + SIM_WARP - 1) / SIM_WARP;
	if (m->timing)
		sim_timing_select(m, w);
	m->at_barrier = false;
	while (ws->model == DIV_IDEAL ? step_warp(m, threads + w0, n)
	                              : step_warp_crs(m, &ws->warp[w], ws->model, threads + w0, n)) {
		if (!m->at_barrier || m->failed)
			continue;
		m->at_barrier = false;
		bar_arrive(m, ws, nwarps, w);
		if (!m->barrier_arrive)
			return true;
	}
	return false;
}

static void run_block(SimMachine *m, Warps *ws, SimThread *threads, uint32_t nthreads)
{
	unsigned nwarps = (nthreads + SIM_WARP - 1) / SIM_WARP;
	if (sim_window_block(m, nthreads))
		return;
	memset(&m->red, 0, sizeof m->red);    /* ctrl: no reduction yet */
	memset(ws->bar, 0, sizeof ws->bar);
	ws->ended = 0;
	for (unsigned w = 0; w < nwarps; w++) {
		unsigned w0 = w * SIM_WARP, n = nthreads - w0 < SIM_WARP ? nthreads - w0 : SIM_WARP;
		ws->warp[w] = (WarpCrs){ .active = live_lanes(threads + w0, n), .pc = 0, .depth = 0 };
		ws->waits[w] = -1;
	}
	for (unsigned w = 0; m->timing && w < nwarps; w++) {
		sim_timing_select(m, w);
		sim_timing_warp_start(m);
	}
	for (;;) {
		bool ran = false;
		for (unsigned w = 0; w < nwarps && !m->failed; w++) {
			if (ws->waits[w] >= 0 || (ws->ended >> w & 1))
				continue;
			ran = true;
			if (!run_warp(m, ws, threads, nthreads, w)) {
				ws->ended |= 1u << w;
				for (unsigned b = 0; b < SIM_NBARS; b++)
					bar_try_release(m, ws, nwarps, b);
			}
		}
		if (m->failed)
			return;
		if (ran)
			continue;
		for (unsigned w = 0; w < nwarps; w++)
			if (ws->waits[w] >= 0) {
				sim_fail(m, NULL, "%s: warp %u waits at barrier %d, which no warp left can complete: a deadlock",
				         m->kernel, w, ws->waits[w]);
				return;
			}
		return;
	}
}

int sim_run(SimMachine *m, const SimLaunch *l)
{
	m->launch = *l;
	if (!m->launch.max_steps)
		m->launch.max_steps = SIM_DEFAULT_MAX_STEPS;
	uint32_t nthreads = l->block[0] * l->block[1] * l->block[2];
	if (nthreads == 0 || nthreads > SIM_MAX_BLOCK_THREADS ||
	    l->grid[0] * l->grid[1] * l->grid[2] == 0) {
		snprintf(m->error, sizeof m->error, "bad launch shape");
		m->failed = true;
		return -1;
	}
	for (int d = 0; d < 3; d++) {
		memcpy(m->cbank[0] + SIM_CB_NTID + 4 * d, &l->block[d], 4);
		memcpy(m->cbank[0] + SIM_CB_NCTAID + 4 * d, &l->grid[d], 4);
	}
	uint32_t sp = SIM_STACK_TOP, windows[2] = { SIM_SHARED_WINDOW, SIM_LOCAL_WINDOW };
	memcpy(m->cbank[0] + SIM_CB_STACK, &sp, 4);
	memcpy(m->cbank[0] + SIM_CB_WINDOWS, windows, 8);
	sim_const_window_set(m);
	SimThread *threads = calloc(nthreads, sizeof *threads);
	Warps *ws = calloc(1, sizeof *ws);
	if (ws)
		ws->model = divergence_model(m);
	if (!threads || !ws) {
		free(threads);
		free(ws);
		snprintf(m->error, sizeof m->error, "out of memory");
		m->failed = true;
		return -1;
	}
	if (l->timing && sim_timing_new(m))
		m->failed = true;
	uint32_t block_id = 0;
	for (uint32_t z = 0; z < l->grid[2] && !m->failed; z++)
		for (uint32_t y = 0; y < l->grid[1] && !m->failed; y++)
			for (uint32_t x = 0; x < l->grid[0] && !m->failed; x++, block_id++) {
				m->ctaid[0] = x, m->ctaid[1] = y, m->ctaid[2] = z;
				m->steps = 0;
				memset(threads, 0, nthreads * sizeof *threads);
				for (uint32_t i = 0; i < nthreads; i++) {
					SimThread *t = &threads[i];
					t->tid[0] = i % l->block[0];
					t->tid[1] = i / l->block[0] % l->block[1];
					t->tid[2] = i / (l->block[0] * l->block[1]);
					t->lane = i % SIM_WARP;
					t->flat = block_id * nthreads + i;
					t->state = l->only_thread < 0 || t->flat == l->only_thread ? SIM_RUNNING
					                                                         : SIM_EXITED;
				}
				run_block(m, ws, threads, nthreads);
			}
	free(threads);
	free(ws);
	sim_timing_free(m);
	sim_window_free(m);
	return m->failed ? -1 : 0;
}

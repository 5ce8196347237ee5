/* ctrl (issues 15/17): barrier reductions in the simulator.
 *
 * BAR.RED.op id, [!]Pc is a BAR.SYNC of the whole block (sim_run.c: a
 * warp arrives when its threads at the BAR.RED execute it, and waits)
 * that also counts, over every thread that executes it, those whose Pc
 * holds. When the block goes on past the barrier (sim_branch_barrier,
 * called where sim_run.c releases it) the count becomes the block's
 * result, and B2R.RESULT Rd, Pd reads it: Rd the number of threads whose
 * Pc held, Pd .AND: all of them, .OR: any (the .POPC reduction leaves Pd
 * as .OR would; ptxas writes PT there). A barrier of a thread count is
 * not modelled, as for BAR.SYNC. (P2R/R2P, of the condition code and of
 * the predicates, are sim_int64.c's.) */
#include "sim.h"

enum { RED_POPC = 0, RED_AND = 1, RED_OR = 2 };

bool sim_exec_branch(SimMachine *m, const SimInsn *in, SimThread *t)
{
	switch (in->form->op) {
	case SOP_BAR_RED: {
		if (sim_val(in, SR_BARCNT, 0) != 0)
			return sim_fail(m, in, "BAR.RED of a thread count is not modelled"), true;
		int64_t op = sim_val(in, SR_BARRED, 0);
		if (m->red.arrived == 0)
			m->red.op = op;
		else if (m->red.op != op)
			return sim_fail(m, in, "BAR.RED .%lld and .%lld meet at one barrier", (long long)m->red.op,
			                (long long)op), true;
		m->red.arrived++;
		m->red.count += sim_pred(t, sim_val(in, SR_PC, 7), sim_val(in, SR_PC_NOT, 0) != 0);
		m->at_barrier = true;
		m->barrier_id = sim_val(in, SR_BARID, 0);
		m->barrier_count = 0;
		m->barrier_arrive = false;
		return true;
	}
	case SOP_B2R: {
		if (!m->red.has_result)
			return sim_fail(m, in, "B2R.RESULT before any BAR.RED"), true;
		bool all = m->red.result == m->red.result_arrived, any = m->red.result != 0;
		int64_t pd = sim_val(in, SR_PD, 7);
		if (pd < SIM_NPREDS)
			t->p[pd] = m->red.result_op == RED_AND ? all : any;
		sim_set(t, sim_val(in, SR_RD, 255), m->red.result);
		return true;
	}
	default:
		return false;
	}
}

void sim_branch_barrier(SimMachine *m)
{
	if (m->red.arrived == 0)
		return;
	m->red.result = m->red.count;
	m->red.result_arrived = m->red.arrived;
	m->red.result_op = m->red.op;
	m->red.has_result = true;
	m->red.arrived = 0;
	m->red.count = 0;
}

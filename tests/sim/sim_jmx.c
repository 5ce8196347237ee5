/* ptxas 11.8's call through a register (fnptr): `PRET ret; BRX Rt off`
 * (under -c `PRET ret; JMX Rt`: JMX jumps to Rt + off, reloc2).
 * PRET pushes its target (pc + 8 + offset; a control word's address
 * stands for the first instruction of its group) on the thread's call
 * stack, as CAL pushes the next instruction; BRX jumps to Ra + pc + 8 +
 * offset (ptxas's offset -(pc + 8) makes that Ra, the callee's offset in
 * the .text section, read from its c[0x2] table or a function pointer);
 * the callee's RET pops the PRET's target. In the hardware model of
 * divergence (sim_run.c's CRS stack) PRET pushes a CAL token and a BRX
 * whose threads' targets differ splits the warp: one group runs, the
 * others wait in DIV tokens. */
#include "sim.h"

static bool code_address(SimMachine *m, const SimInsn *in, int64_t target, size_t *index)
{
	if (target < 0 || target % 8 || sim_code_index((uint32_t)target) >= m->ninsns)
		return sim_fail(m, in, "%s target 0x%llx is not an instruction", in->form->name, (long long)target);
	*index = sim_code_index((uint32_t)target);
	return true;
}

bool sim_brx_target(SimMachine *m, const SimInsn *in, const SimThread *t, size_t *index)
{
	if (sim_val(in, SR_COND, 0xf) != 0xf)
		return sim_fail(m, in, "a conditional BRX is not modelled");
	/* reloc2: JMX (ptxas -c) jumps to the absolute address Ra + offset */
	int64_t pc8 = in->form->op == SOP_JMX ? 0 : (int64_t)in->addr + 8;
	return code_address(m, in, (int64_t)sim_reg(t, sim_val(in, SR_RA, 255)) + pc8 + sim_val(in, SR_IMM, 0),
	                    index);
}

bool sim_exec_indirect(SimMachine *m, const SimInsn *in, SimThread *t, size_t *next)
{
	size_t at;
	switch (in->form->op) {
	case SOP_PRET:
		if (!code_address(m, in, (int64_t)in->addr + 8 + sim_val(in, SR_IMM, 0), &at))
			return true;
		if (t->ncalls == SIM_CALL_DEPTH)
			return sim_fail(m, in, "calls nested deeper than %d", SIM_CALL_DEPTH), true;
		t->calls[t->ncalls++] = at;
		return true;
	case SOP_BRX: case SOP_JMX:
		if (sim_brx_target(m, in, t, &at))
			*next = at;
		return true;
	default:
		return false;
	}
}

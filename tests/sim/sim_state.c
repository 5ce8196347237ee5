/* The machine state every instruction family reads: stopping a run,
 * registers, predicates, field values, constant banks, operand B. The leaf
 * of the simulator's files: it calls none of them. */
#include "sim.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool sim_fail(SimMachine *m, const SimInsn *in, const char *fmt, ...)
{
	if (m->failed)
		return false;
	m->failed = true;
	int n = 0;
	if (in)
		n = snprintf(m->error, sizeof m->error, "%s+0x%04x (%s, 0x%016llx): ", m->kernel,
		             in->addr, in->form ? in->form->name : "no form", (unsigned long long)in->word);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m->error + n, sizeof m->error - (size_t)n, fmt, ap);
	va_end(ap);
	return false;
}

uint32_t sim_reg(const SimThread *t, int64_t r) { return r >= SIM_NREGS ? 0 : t->r[r]; }
void sim_set(SimThread *t, int64_t r, uint32_t v) { if (r < SIM_NREGS) t->r[r] = v; }

bool sim_pred(const SimThread *t, int64_t p, bool negate)
{
	return (p >= SIM_NPREDS ? true : t->p[p]) != negate;
}

int64_t sim_val(const SimInsn *in, SassRole r, int64_t dflt)
{
	return sass_values_get(&in->v, r, dflt);
}

uint32_t sim_operand_b(SimMachine *m, const SimInsn *in, const SimThread *t)
{
	switch (in->form->bkind) {
	case SASS_B_REG: return sim_reg(t, sim_val(in, SR_RB, 255));
	case SASS_B_CONST: case SASS_B_RC:
		/* the 14-bit word offset is unsigned to the hardware (0..0xfffc;
		 * the decoder, like nvdisasm, reads it signed) */
		return sim_cword(m, in, (unsigned)sim_val(in, SR_CBANK, 0), 4 * (sim_val(in, SR_COFF, 0) & 0x3fff));
	default: return (uint32_t)sim_val(in, SR_IMM, 0);
	}
}

uint32_t sim_cword(SimMachine *m, const SimInsn *in, unsigned bank, int64_t off)
{
	if (bank >= SIM_CBANKS || off < 0 || off % 4 || off + 4 > (int64_t)m->cbank_size[bank]) {
		sim_fail(m, in, "constant c[0x%x][0x%llx] is outside the bank", bank, (long long)off);
		return 0;
	}
	uint32_t v;
	memcpy(&v, m->cbank[bank] + off, 4);
	return v;
}

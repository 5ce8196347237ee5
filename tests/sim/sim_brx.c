/* brx: a BRX on the hardware's divergence model (SIM_DIVERGENCE=hw-taken,
 * hw-fallthrough; sim_run.c's CRS stack). brx.idx's BRX reads its target
 * from a register, so the lanes of a warp may land on as many targets as
 * its table has: like a divergent BRA, the warp runs one group and leaves
 * a DIV token for each of the others, which the SYNCs of the targets'
 * paths run in turn before the SSY's join. Here the lanes are grouped by
 * target in lane order (the group of the lowest lane first); the order the
 * hardware picks is not documented, and code that reconverges correctly
 * gives the same results in any order. (The ideal model needs nothing of
 * this: each thread takes its own target, sim_jmx.c.) */
#include "sim.h"

unsigned sim_brx_groups(SimMachine *m, const SimInsn *in, const SimThread *w, unsigned n, uint32_t lanes,
                        uint32_t *masks, size_t *pcs)
{
	unsigned groups = 0;
	if (sim_val(in, SR_COND, 0xf) != 0xf) {
		sim_fail(m, in, "a conditional BRX is not modelled");
		return 0;
	}
	for (unsigned i = 0; i < n; i++) {
		if (!(lanes >> i & 1))
			continue;
		int64_t to = (int64_t)sim_reg(&w[i], sim_val(in, SR_RA, 255)) + (int64_t)in->addr + 8 +
		             sim_val(in, SR_IMM, 0);
		if (to < 0 || to % 8 || sim_code_index((uint32_t)to) >= m->ninsns) {
			sim_fail(m, in, "BRX target 0x%llx of lane %u is not an instruction", (long long)to, i);
			return 0;
		}
		size_t pc = sim_code_index((uint32_t)to);
		unsigned g = 0;
		while (g < groups && pcs[g] != pc)
			g++;
		if (g == groups) {
			pcs[groups] = pc;
			masks[groups++] = 0;
		}
		masks[g] |= 1u << i;
	}
	return groups;
}

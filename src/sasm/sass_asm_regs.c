/* The register footprint of a SASS text instruction and the register count
 * of a kernel, from the form footprints of sm50/sass_regs.h: the input of
 * the text scheduler and of the cubin's register count. */
#include "sasm/sass_asm_internal.h"
#include "sm50/sass_regs.h"

void sasm_insn_regs(const SasmInsn *in, SassRegUse *u)
{
	sass_form_regs(in->form, &in->vals, u);
}

uint32_t sasm_kernel_regcount(const SasmKernelText *k)
{
	int top = -1;
	for (size_t i = 0; i < k->ninsns; i++) {
		SassRegUse u;
		sasm_insn_regs(&k->insns[i], &u);
		for (int r = 254; r > top; r--)
			if (((u.reads[r / 64] | u.writes[r / 64]) >> (r % 64)) & 1) {
				top = r;
				break;
			}
	}
	return (uint32_t)(top + 1);
}

/* sim5: code in several .text sections (ptxas -O0 -g writes each function
 * in a section of its own and calls it with JCAL and an R_CUDA_ABS32_20
 * relocation of the function's symbol; the driver loads every section of
 * the module and writes the callee's absolute address into the JCAL).
 *
 * When any kernel of the module calls across sections, the simulator
 * loads every other code section after the kernel's own, in section
 * order, each at the next offset (sections are whole groups of 32 bytes),
 * applies each section's descriptor-size relocations, and turns each
 * linked JCAL into the CAL of the same target (a JCAL of an absolute
 * address is a CAL of that address relative to the next instruction: the
 * call stack and the divergence models treat both alike).
 *
 * A -c object's address-taken .func (issue 15) is a code section of its
 * own too: the MOV32I pair of its address (R_CUDA_ABS32_LO_32/HI_32) gets
 * the offset the section is loaded at (the high word 0), and so does each
 * R_CUDA_32 word of .nv.global.init (sim_globals.c, from section_base):
 * the address a JMX or BRX of ptxas's code jumps to.
 *
 * A -c object's operands of the kernel's .nv.constant2 pool are
 * relocations too (R_CUDA_CONST_FIELD19_20 against a symbol of the
 * operand's bytes; the word holds c[0x0][0x0]): the driver writes the
 * bank and the offset into the word (sim_link_const2); the pool of a
 * function in a section of its own (ptxas -c: .nv.constant2.<f>) is
 * placed after the kernel's, as a linker merges them. A brx.idx jump
 * table's LDC c[0x0][Ri] (after IADD32I Ri, Ri, 0x8000) gets the table's
 * byte offset - 0x8000 (R_CUDA_CONST_FIELD21_20, its RELA addend). */
#include "sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(SimMachine *m, const char *what, uint32_t off)
{
	snprintf(m->error, sizeof m->error, "%s at 0x%04x", what, off);
	m->failed = true;
	return -1;
}

static int link_call(SimMachine *m, uint32_t at, uint32_t target)
{
	size_t i = (at / 32) * 3 + (at % 32) / 8 - 1;
	if (at % 8 || at % 32 == 0 || i >= m->ninsns || !m->insns[i].form || m->insns[i].form->op != SOP_JCAL)
		return fail(m, "a call relocation not on a JCAL", at);
	const SassForm *cal = sass_form_by_name("CAL");
	SimInsn *in = &m->insns[i];
	SassValues v = in->v;
	sass_values_set(&v, SR_IMM, (int64_t)target - (int64_t)(at + 8));
	uint64_t word;
	if (!cal || sass_encode(cal, &v, &word, m->error, sizeof m->error) != 0) {
		m->failed = true;
		return -1;
	}
	in->form = cal;
	in->v = v;
	in->word = word;
	return 0;
}

/* The MOV32I at `at` loads half of a function's address `target`. */
static int link_address(SimMachine *m, uint32_t at, uint32_t target, bool hi)
{
	size_t i = (at / 32) * 3 + (at % 32) / 8 - 1;
	if (at % 8 || at % 32 == 0 || i >= m->ninsns || !m->insns[i].form || m->insns[i].form->op != SOP_MOV32I)
		return fail(m, "a function address relocation not on a MOV32I", at);
	SimInsn *in = &m->insns[i];
	sass_values_set(&in->v, SR_IMM, hi ? 0 : target);
	if (sass_encode(in->form, &in->v, &in->word, m->error, sizeof m->error) != 0) {
		m->failed = true;
		return -1;
	}
	return 0;
}

/* The code at .text offset base reads its pool at c[0x2][pool_base]. */
static int link_const2(SimMachine *m, uint32_t base, const CubinKernel *k, uint32_t pool_base)
{
	for (size_t r = 0; r < k->nconst2_refs; r++) {
		uint32_t at = base + k->const2_refs[r].offset;
		size_t i = (at / 32) * 3 + (at % 32) / 8 - 1;
		if (at % 8 || at % 32 == 0 || i >= m->ninsns || !m->insns[i].form ||
		    !sass_form_field(m->insns[i].form, SR_CBANK))
			return fail(m, "a pool operand relocation not on a constant operand", at);
		SimInsn *in = &m->insns[i];
		uint32_t at_pool = pool_base + k->const2_refs[r].pool_offset;
		if (k->const2_refs[r].table && in->form->op != SOP_LDC)
			return fail(m, "a jump-table relocation not on an LDC", at);
		sass_values_set(&in->v, SR_CBANK, 2);
		/* a jump table's LDC: the byte offset plus the addend (its index
		 * had 0x8000 added); an operand: the word */
		sass_values_set(&in->v, SR_COFF, k->const2_refs[r].table ? (int64_t)at_pool + CUBIN_BRX_TABLE_ADDEND
		                                                          : (int64_t)(at_pool / 4));
		if (sass_encode(in->form, &in->v, &in->word, m->error, sizeof m->error) != 0) {
			m->failed = true;
			return -1;
		}
	}
	return 0;
}

int sim_link_const2(SimMachine *m, const CubinKernel *k)
{
	return link_const2(m, 0, k, 0);
}

/* Another section's pool goes after what c[0x2] holds (8-aligned, as its
 * FP64 pairs want), its operands relocated there, as a linker merges them. */
static int link_section_pool(SimMachine *m, uint32_t base, const CubinKernel *k)
{
	if (k->nconst2_refs == 0)
		return 0;
	uint32_t at = (m->cbank_size[2] + 7) & ~7u;
	if (at + 4 * k->ndesc_fields > SIM_CBANK2_BYTES)
		return fail(m, "the code sections' .nv.constant2 pools do not fit c[0x2]", base);
	memcpy(m->cbank[2] + at, k->desc_fields, 4 * k->ndesc_fields);
	m->cbank_size[2] = at + 4 * (uint32_t)k->ndesc_fields;
	return link_const2(m, base, k, at);
}

int sim_link_sections(SimMachine *m, const CubinImage *img, const CubinReadKernel *rk)
{
	bool calls = img->nfunc_inits > 0;
	for (size_t j = 0; j < img->nkernels; j++)
		calls |= img->kernels[j].nsection_calls > 0 || img->kernels[j].nsection_addrs > 0;
	if (!calls)
		return 0;
	/* the sections' places: the kernel's first, then the others */
	uint32_t *base = calloc(img->nkernels, sizeof *base);
	if (!base)
		return fail(m, "out of memory", 0);
	size_t total = rk->k.code_size;
	for (size_t j = 0; j < img->nkernels; j++) {
		const CubinKernel *k = &img->kernels[j].k;
		if (&img->kernels[j] == rk)
			continue;
		if (k->code_size % 32 || total + k->code_size > UINT32_MAX / 2) {
			free(base);
			return fail(m, "a code section of a partial group", (uint32_t)total);
		}
		base[j] = (uint32_t)total;
		total += k->code_size;
	}
	SimInsn *insns = realloc(m->insns, total / 32 * 3 * sizeof *insns);
	if (!insns) {
		free(base);
		return fail(m, "out of memory", 0);
	}
	m->insns = insns;
	int rc = 0;
	for (size_t j = 0; j < img->nkernels && rc == 0; j++) {
		const CubinKernel *k = &img->kernels[j].k;
		if (&img->kernels[j] == rk)
			continue;
		sim_decode_code(m->insns + base[j] / 32 * 3, k->code, k->code_size, base[j]);
		for (size_t i = 0; i < k->code_size / 32 * 3; i++)
			m->insns[base[j] / 32 * 3 + i].ext = SIM_EXT_NONE;
		m->ninsns = (base[j] + k->code_size) / 32 * 3;
		for (size_t i = 0; i < k->ndesc_size_offsets && rc == 0; i++)
			rc = sim_patch_desc_size(m, base[j] + k->desc_size_offsets[i], k->desc_size_kinds[i]);
		if (rc == 0)
			rc = link_section_pool(m, base[j], k);
	}
	m->ninsns = total / 32 * 3;
	for (size_t j = 0; j < img->nkernels && rc == 0; j++) {
		const CubinReadKernel *caller = &img->kernels[j];
		for (size_t c = 0; c < caller->nsection_calls && rc == 0; c++) {
			const CubinDataFixup *f = &caller->section_calls[c];
			rc = link_call(m, base[j] + f->offset, base[f->var]);
		}
		for (size_t c = 0; c < caller->nsection_addrs && rc == 0; c++) {
			const CubinDataFixup *f = &caller->section_addrs[c];
			rc = link_address(m, base[j] + f->offset, base[f->var], f->hi);
		}
	}
	free(m->section_base);
	m->section_base = base;
	return rc;
}

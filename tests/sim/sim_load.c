/* Loading a kernel for the simulator: its words decoded once with the form
 * table, the relocations the driver would apply, its constant banks. */
#include "sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The byte size of one surface descriptor (.nv.surfrefDescSize) and of one
 * texture descriptor (.nv.unified.texrefDescSize), which the driver patches
 * into the MOV32I of every suq / txq descriptor lookup. Any values up to
 * the table's entry size do; they differ so that a MOV32I relocated
 * against the wrong symbol reads another descriptor's word. */
static const uint32_t sim_desc_size[CUBIN_DESC_KINDS] = { 0x40, 0x20 };

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int b = 7; b >= 0; b--)
		v = v << 8 | p[b];
	return v;
}

void sim_decode_code(SimInsn *insns, const uint8_t *code, size_t size, uint32_t base)
{
	for (size_t g = 0; g < size / 32; g++) {
		uint32_t slots[3];
		sass_ctrl_unpack_word(le64(code + 32 * g), slots);
		for (size_t s = 0; s < 3; s++) {
			SimInsn *in = &insns[3 * g + s];
			uint32_t off = (uint32_t)(32 * g + 8 * (s + 1));
			in->addr = base + off;
			in->word = le64(code + off);
			in->form = sass_decode(in->word, &in->v);
			sass_ctrl_unpack_slot(slots[s], &in->ctrl);
		}
	}
}

static const CubinReadKernel *find_kernel(SimMachine *m, const CubinImage *img, const char *name)
{
	const CubinReadKernel *only = NULL;
	size_t nentries = 0;
	for (size_t i = 0; i < img->nkernels; i++) {
		const CubinReadKernel *k = &img->kernels[i];
		if (name && strcmp(k->k.name, name) == 0)
			return k;
		if (k->is_entry) {
			only = k;
			nentries++;
		}
	}
	if (name)
		snprintf(m->error, sizeof m->error, "the cubin has no kernel '%s'", name);
	else if (nentries != 1)
		snprintf(m->error, sizeof m->error, "the cubin has %zu entries: name one", nentries);
	else
		return only;
	m->failed = true;
	return NULL;
}

/* The driver's relocation R_CUDA_ABS32_20: the descriptor size into the
 * 32-bit immediate (bits 51:20) of the MOV32I at `off`. */
int sim_patch_desc_size(SimMachine *m, uint32_t off, uint8_t kind)
{
	size_t i = (off / 32) * 3 + (off % 32) / 8 - 1;
	if (off % 8 || off % 32 == 0 || i >= m->ninsns || !m->insns[i].form ||
	    m->insns[i].form->op != SOP_MOV32I) {
		snprintf(m->error, sizeof m->error,
		         "descriptor-size relocation at 0x%04x: a word other than MOV32I is not modelled", off);
		m->failed = true;
		return -1;
	}
	SimInsn *in = &m->insns[i];
	sass_values_set(&in->v, SR_IMM, sim_desc_size[kind]);
	if (sass_encode(in->form, &in->v, &in->word, m->error, sizeof m->error) != 0) {
		m->failed = true;
		return -1;
	}
	return 0;
}

int sim_load(SimMachine *m, const CubinImage *img, const char *kernel)
{
	const CubinReadKernel *rk = find_kernel(m, img, kernel);
	if (!rk)
		return -1;
	const CubinKernel *k = &rk->k;
	if (img->sm != 50) {
		snprintf(m->error, sizeof m->error, "the cubin is for sm_%d, not sm_50", img->sm);
		m->failed = true;
		return -1;
	}
	if (k->code_size % 32) {
		snprintf(m->error, sizeof m->error, "code size %zu is not a multiple of 32", k->code_size);
		m->failed = true;
		return -1;
	}
	m->kernel = k->name;
	m->regcount = k->regcount;
	m->shared_static = k->shared_size;
	m->frame_size = k->frame_size;
	m->ninsns = k->code_size / 32 * 3;
	m->insns = calloc(m->ninsns ? m->ninsns : 1, sizeof *m->insns);
	if (!m->insns) {
		snprintf(m->error, sizeof m->error, "out of memory");
		m->failed = true;
		return -1;
	}
	sim_decode_code(m->insns, k->code, k->code_size, 0);
	for (size_t i = 0; i < k->ndesc_size_offsets; i++)
		if (sim_patch_desc_size(m, k->desc_size_offsets[i], k->desc_size_kinds[i]))
			return -1;
	/* c[0x2]: ptxas's constant pool (.nv.constant2.<kernel>), before the
	 * linked sections' pools (sim_link_sections) */
	if (k->ndesc_fields * 4 > SIM_CBANK2_BYTES) {
		snprintf(m->error, sizeof m->error, ".nv.constant2 has %zu words: too many", k->ndesc_fields);
		m->failed = true;
		return -1;
	}
	for (size_t i = 0; i < k->ndesc_fields; i++)
		memcpy(m->cbank[2] + 4 * i, &k->desc_fields[i], 4);
	m->cbank_size[2] = (uint32_t)(4 * k->ndesc_fields);
	if (sim_link_const2(m, k) || sim_link_sections(m, img, rk))
		return -1;
	m->cbank_size[0] = SIM_CBANK_BYTES;
	/* c[0x3]: the module's .const variables (.nv.constant3), zero where
	 * a variable has no initialiser */
	for (size_t i = 0; i < img->nvars; i++) {
		const CubinVar *v = &img->vars[i];
		if (!v->is_const)
			continue;
		if ((uint64_t)v->offset + v->size > SIM_CBANK3_BYTES) {
			snprintf(m->error, sizeof m->error, ".nv.constant3 variable %s ends past 0x%x", v->name,
			         (unsigned)SIM_CBANK3_BYTES);
			m->failed = true;
			return -1;
		}
		if (v->init)
			memcpy(m->cbank[3] + v->offset, v->init, v->size);
		if (v->offset + v->size > m->cbank_size[3])
			m->cbank_size[3] = v->offset + v->size;
	}
	return 0;
}

void sim_free(SimMachine *m)
{
	free(m->insns);
	m->insns = NULL;
	free(m->section_base);
	m->section_base = NULL;
	free(m->heap_used);
	m->heap_used = NULL;
	m->heap = NULL;
	for (size_t i = 0; i < m->nregions; i++)
		sim_region_free(&m->regions[i]);
	m->nregions = 0;
}

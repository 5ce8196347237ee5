/* sim5: a module's .global variables in the simulator (the driver loads
 * .nv.global and .nv.global.init with the module and relocates the code
 * that addresses them).
 *
 * Each variable is a global buffer of its own, named "global NAME", in
 * slots of SIM_GLOBAL_STRIDE from SIM_GLOBALS_BASE in the order of their
 * names (a variable takes as many whole slots as its size needs: rodinia's
 * binomialOptions has one of 16 MiB; one past the 240 MiB of slots, such as
 * a 4.5 GiB one, lies from 1 TiB up, sparse: sim_memory.c): ptxas's cubin and ours may order
 * and align the variables differently, and the runs compare by name. A variable holds its
 * initialiser (zero without one); an R_CUDA_G64 initialiser word the
 * generic address of its target plus the addend (4 bytes of it in a
 * 32-bit module: the variables lie below 4 GiB; one byte, the k-th, for
 * a mask() one, R_CUDA_G8_<8k>); a .const variable's such words are
 * patched into c[0x3] the same way; the MOV32I pair of a
 * mov of a variable's address (R_CUDA_ABS32_LO_32/HI_32, addend in the
 * word) the low and high word of that address plus the addend. A
 * variable is output only when the run writes it: an initialiser may hold
 * function addresses (call-indirect's table), which differ between the
 * cubins; under -c (R_CUDA_32 of a .func, issue 15) the word gets the
 * offset sim_link.c loaded the function's section at. */
#include "sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIM_GLOBALS_BASE 0x70000000ull
enum {
	SIM_GLOBAL_STRIDE = 0x100000,
	SIM_GLOBAL_SLOTS = 240,         /* up to the descriptor table at 0x7f000000 */
};
/* A variable larger than the slots (SIM_SPARSE_MIN_BYTES) lies from 1 TiB
 * up, in name order too, each at a 4 GiB boundary: a sparse region. */
#define SIM_HUGE_GLOBALS_BASE (1ull << 40)
#define SIM_HUGE_GLOBAL_STRIDE (1ull << 32)

static bool is_huge(const CubinVar *v)
{
	return v->size > SIM_SPARSE_MIN_BYTES;
}

static int by_var_name(const void *a, const void *b)
{
	const CubinVar *x = *(const CubinVar *const *)a, *y = *(const CubinVar *const *)b;
	return strcmp(x->name ? x->name : "", y->name ? y->name : "");
}

/* The whole slots a variable takes (at least one): of SIM_GLOBAL_STRIDE,
 * or of SIM_HUGE_GLOBAL_STRIDE for a huge one. */
static uint64_t var_slots(const CubinVar *v)
{
	uint64_t stride = is_huge(v) ? SIM_HUGE_GLOBAL_STRIDE : SIM_GLOBAL_STRIDE;
	return v->size ? (v->size + stride - 1) / stride : 1;
}

/* The address the simulated driver gives vars[v]: after the slots of the
 * variables of its kind (huge or not) whose names sort before its name. */
static uint64_t var_address(const CubinImage *img, uint32_t v)
{
	uint64_t slots = 0;
	const CubinVar *me = &img->vars[v];
	for (size_t i = 0; i < img->nvars; i++)
		if (!img->vars[i].is_const && is_huge(&img->vars[i]) == is_huge(me) &&
		    by_var_name(&(const CubinVar *){ &img->vars[i] }, &(const CubinVar *){ me }) < 0)
			slots += var_slots(&img->vars[i]);
	return is_huge(me) ? SIM_HUGE_GLOBALS_BASE + slots * SIM_HUGE_GLOBAL_STRIDE
	                   : SIM_GLOBALS_BASE + slots * SIM_GLOBAL_STRIDE;
}

static int fail(SimMachine *m, const char *fmt, const char *name)
{
	snprintf(m->error, sizeof m->error, fmt, name ? name : "?");
	m->failed = true;
	return -1;
}

static int patch_address(SimMachine *m, const CubinImage *img, const CubinDataFixup *f)
{
	size_t i = (f->offset / 32) * 3 + (f->offset % 32) / 8 - 1;
	if (f->func)
		return 0;   /* a kernel's address: the fnptr code's own model */
	if (f->offset % 8 || f->offset % 32 == 0 || i >= m->ninsns || !m->insns[i].form ||
	    m->insns[i].form->op != SOP_MOV32I || f->var >= img->nvars || img->vars[f->var].is_const)
		return fail(m, "the relocation of variable %s is not on a MOV32I", f->var < img->nvars ?
		            img->vars[f->var].name : NULL);
	SimInsn *in = &m->insns[i];
	uint64_t addr = var_address(img, f->var) + (uint32_t)sim_val(in, SR_IMM, 0);
	sass_values_set(&in->v, SR_IMM, f->hi ? (uint32_t)(addr >> 32) : (uint32_t)addr);
	if (sass_encode(in->form, &in->v, &in->word, m->error, sizeof m->error) != 0) {
		m->failed = true;
		return -1;
	}
	return 0;
}

/* An R_CUDA_32 word of .nv.global.init: the function's section offset. */
static int patch_func_init(SimMachine *m, const CubinImage *img, const CubinVar *const *sorted,
                           const uint64_t *bases, size_t n, const CubinDataFixup *f)
{
	for (size_t j = 0; j < n; j++) {
		const CubinVar *v = sorted[j];
		/* R_CUDA_32: the 32-bit address; R_CUDA_8_<8k> (mask()): its byte k */
		if (!v->init || f->offset < v->offset || (uint64_t)f->offset + (f->byte ? 1 : 4) > (uint64_t)v->offset + v->size)
			continue;
		SimRegion *r = NULL;
		for (size_t q = 0; q < m->nregions && !r; q++)
			if (m->regions[q].base == bases[j])
				r = &m->regions[q];
		if (!r || !m->section_base || f->var >= img->nkernels)
			break;
		if (f->byte)
			r->bytes[f->offset - v->offset] = (uint8_t)((uint64_t)m->section_base[f->var] >> (8 * (f->byte - 1)));
		else
			memcpy(r->bytes + (f->offset - v->offset), &m->section_base[f->var], 4);
		return 0;
	}
	return fail(m, "a function address in an initialiser (of %s) is not modelled",
	            f->var < img->nkernels ? img->kernels[f->var].k.name : NULL);
}

/* Variable v's address words into its bytes (room of them from its
 * start): the generic address of the target plus the addend. A 32-bit
 * module's word is 4 bytes (ptxas 11.8 still relocates it R_CUDA_G64):
 * the loader fills the word, whose neighbours are other data of the
 * variable; a mask() one (R_CUDA_G8_<8k>) byte k of the address. */
static int apply_init_relocs(SimMachine *m, const CubinImage *img, const CubinVar *v, uint8_t *bytes, uint64_t room)
{
	size_t word = img->address64 ? 8 : 4;
	for (size_t e = 0; e < v->nrelocs; e++) {
		const CubinInitReloc *ir = &v->relocs[e];
		size_t n = ir->byte ? 1 : word;
		if (ir->var >= img->nvars || img->vars[ir->var].is_const || ir->func || (uint64_t)ir->offset + n > room)
			return fail(m, "an initialiser relocation of %s is not modelled", v->name);
		uint64_t a = var_address(img, ir->var) + (uint64_t)ir->addend;
		if (ir->byte)
			a >>= 8 * (ir->byte - 1);
		memcpy(bytes + ir->offset, &a, n);   /* little-endian: the low bytes first */
	}
	return 0;
}

int sim_load_globals(SimMachine *m, const CubinImage *img, const CubinKernel *k)
{
	const CubinVar **sorted = calloc(img->nvars + 1, sizeof *sorted);
	uint64_t *bases = calloc(img->nvars + 1, sizeof *bases);
	if (!sorted || !bases) {
		free(sorted);
		free(bases);
		return fail(m, "out of memory%s", "");
	}
	size_t n = 0;
	for (size_t i = 0; i < img->nvars; i++)
		if (!img->vars[i].is_const)
			sorted[n++] = &img->vars[i];
	qsort(sorted, n, sizeof *sorted, by_var_name);
	int rc = 0;
	uint64_t slots = 0;
	for (size_t j = 0; j < n && rc == 0; j++) {
		const CubinVar *v = sorted[j];
		char name[48];
		snprintf(name, sizeof name, "global %s", v->name ? v->name : "?");
		bases[j] = var_address(img, (uint32_t)(v - img->vars));
		slots += is_huge(v) ? 0 : var_slots(v);
		if (slots > SIM_GLOBAL_SLOTS) {
			rc = fail(m, "the variables up to %s take more than the simulator's 240 MiB", v->name);
			break;
		}
		SimRegion *r = sim_add_region(m, SIM_BUFFER, name, bases[j], v->size);
		if (!r) {
			rc = -1;
			break;
		}
		r->output_if_written = true;
		if (v->init) {
			memcpy(r->bytes, v->init, v->size);
			sim_region_touch(r, 0, v->size);
		}
		rc = apply_init_relocs(m, img, v, r->bytes, v->size);
	}
	/* a .const variable's address words, in c[0x3] (.rel.nv.constant3) */
	for (size_t i = 0; i < img->nvars && rc == 0; i++)
		if (img->vars[i].is_const && img->vars[i].offset <= m->cbank_size[3])
			rc = apply_init_relocs(m, img, &img->vars[i], m->cbank[3] + img->vars[i].offset,
			                       m->cbank_size[3] - img->vars[i].offset);
	for (size_t i = 0; i < img->nfunc_inits && rc == 0; i++)
		rc = patch_func_init(m, img, sorted, bases, n, &img->func_inits[i]);
	free(sorted);
	free(bases);
	for (size_t i = 0; i < k->ndata_fixups && rc == 0; i++)
		rc = patch_address(m, img, &k->data_fixups[i]);
	return rc;
}

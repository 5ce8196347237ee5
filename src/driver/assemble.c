/* The back-end driver: lower -> allocate -> schedule -> verify -> encode,
 * then lay each kernel out in 32-byte groups (control word + 3
 * instructions), add ptxas's tail (EXIT, BRA to itself, NOPs up to a
 * multiple of 64 bytes) and write a cubin or the raw stream. */
#include "driver/assemble.h"

#include "emit/cubin.h"
#include "lower/kernel_code.h"
#include "lower/lower.h"
#include "lower/regalloc.h"
#include "sm50/sass_ctrl.h"
#include "sm50/sass_disasm.h"
#include "lower/sched.h"
#include "sm50/sched_verify.h"
#include "base/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The encoder, lister or cubin writer failed on code the lowering made:
 * for the user, a construct the sm_50 back end does not assemble. */
static void internal_error(DiagSink *sink, const LKernel *k, const char *what, const char *msg)
{
	diag_add(sink, SEV_ERROR, k->loc, RULE_ENCODER_UNSUPPORTED, "kernel '%s': %s: %s", k->name, what, msg);
}

/* ptxas starts every kernel by loading the stack pointer, and makes room
 * for the stack frame below it. */
static void prepend_stack_init(LKernel *k)
{
	/* append, then rotate it to the front and move the labels along */
	LInsn *mov = lkernel_append(k, SF_MOV_C, k->loc);
	linsn_set(mov, SR_RD, REGALLOC_STACK_REG);
	linsn_set(mov, SR_CBANK, 0);
	linsn_set(mov, SR_COFF, 0x20 / 4);
	mov->stack_reg = LSTACK_WRITE;
	LInsn first = *mov;
	memmove(k->insns + 1, k->insns, (k->ninsns - 1) * sizeof *k->insns);
	k->insns[0] = first;
	for (size_t l = 0; l < k->nlabels; l++)
		k->label_pos[l]++;
	if (k->frame_size == 0)
		return;
	/* the stack frame of the .local variables: R1 -= frame size */
	LInsn *sub = lkernel_append(k, SF_IADD32I, k->loc);
	linsn_set(sub, SR_RD, REGALLOC_STACK_REG);
	linsn_set(sub, SR_RA, REGALLOC_STACK_REG);
	linsn_set(sub, SR_IMM, (uint32_t)-k->frame_size);
	sub->stack_reg = LSTACK_READ | LSTACK_WRITE;
	LInsn second = *sub;
	memmove(k->insns + 2, k->insns + 1, (k->ninsns - 2) * sizeof *k->insns);
	k->insns[1] = second;
	for (size_t l = 0; l < k->nlabels; l++)
		k->label_pos[l]++;
}

/* --verify-sched: the finished code, with each instruction's PTX location. */
static int verify_code(const LKernel *k, const KernelCode *kc, DiagSink *sink)
{
	SrcLoc *locs = xcalloc(k->ninsns + 1, sizeof *locs);
	for (size_t i = 0; i < k->ninsns; i++)
		locs[i] = k->insns[i].loc;
	SchedVerifyKernel v = { .name = k->name, .loc = k->loc, .code = kc->code, .size = kc->size,
	                        .insn_locs = locs, .nlocs = k->ninsns };
	unsigned n = sched_verify_code(&v, sink);
	free(locs);
	return n ? -1 : 0;
}

static int encode_kernel(LKernel *k, DiagSink *sink, KernelCode *out)
{
	char err[256];
	memset(out, 0, sizeof *out);
	prepend_stack_init(k);
	if (regalloc_kernel(k, err, sizeof err) != 0) {
		diag_add(sink, SEV_ERROR, k->loc, RULE_ENCODER_UNSUPPORTED, "not supported by the sm_50 encoder: %s", err);
		return -1;
	}
	lkernel_compact_const2(k);
	if (k->maxreg_count && k->regcount > k->maxreg_count) {
		diag_add(sink, SEV_ERROR, k->loc, RULE_ENCODER_UNSUPPORTED, "not supported by the sm_50 encoder: "
		         "kernel '%s' needs %u registers, more than its limit of %u (.maxnreg, or what "
		         ".maxntid/.reqntid threads leave each; there is no spilling)",
		         k->name, k->regcount, k->maxreg_count);
		return -1;
	}
	for (size_t i = 0; i < k->ninsns; i++)
		linsn_fill_defaults(&k->insns[i]);
	SassCtrl *ctrl;
	sched_kernel(k, &ctrl);

	int rc = kernel_code_build(k, ctrl, out, err, sizeof err);
	if (rc != 0)
		internal_error(sink, k, "encoding", err);
	free(ctrl);
	return rc;
}

/* Each kernel is listed from address 0, as in its cubin section. */
static int write_listing(const LModule *lm, const KernelCode *codes, DiagSink *sink, char **listing)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (f == NULL)
		xdie("out of memory");
	int rc = 0;
	for (size_t i = 0; i < lm->nkernels && rc == 0; i++) {
		char err[256];
		fprintf(f, "\n\t\tFunction : %s\n", lm->kernels[i].name);
		rc = sass_disasm_stream(codes[i].code, codes[i].size, 0, f, err, sizeof err);
		if (rc != 0)
			internal_error(sink, &lm->kernels[i], "listing", err);
	}
	fclose(f);
	if (rc != 0) {
		free(buf);
		return -1;
	}
	*listing = buf;
	return 0;
}

/* The module variables as the cubin writer takes them (issue 15). */
static CubinVar *cubin_vars_of(const LModule *lm)
{
	CubinVar *vars = xcalloc(lm->nvars + 1, sizeof *vars);
	for (size_t i = 0; i < lm->nvars; i++) {
		const LDataVar *v = &lm->vars[i];
		CubinInitReloc *r = xcalloc(v->nrelocs + 1, sizeof *r);
		for (size_t j = 0; j < v->nrelocs; j++)
			r[j] = (CubinInitReloc){ v->relocs[j].offset, v->relocs[j].var, v->relocs[j].addend };
		vars[i] = (CubinVar){ .name = v->name, .is_const = v->space == LDATA_CONST, .visible = v->visible,
		                      .global = v->bind == LBIND_GLOBAL,
		                      .weak = v->bind == LBIND_WEAK,
		                      .offset = v->offset, .size = v->size, .align = v->align, .init = v->init,
		                      .relocs = r, .nrelocs = v->nrelocs };
	}
	return vars;
}

static void cubin_vars_free(CubinVar *vars, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free((void *)vars[i].relocs);
	free(vars);
}

static int write_cubin(const LModule *lm, const KernelCode *codes, DiagSink *sink, uint8_t **image,
                       size_t *len)
{
	CubinKernel *ks = xcalloc(lm->nkernels + 1, sizeof *ks);
	CubinSurfaceSlot **slots = xcalloc(lm->nkernels + 1, sizeof *slots);
	CubinDataFixup **fixups = xcalloc(lm->nkernels + 1, sizeof *fixups);
	CubinVar *vars = cubin_vars_of(lm);
	for (size_t i = 0; i < lm->nkernels; i++) {
		const LKernel *k = &lm->kernels[i];
		fixups[i] = xcalloc(codes[i].ndata_fixups + 1, sizeof **fixups);
		for (size_t f = 0; f < codes[i].ndata_fixups; f++)
			fixups[i][f] = (CubinDataFixup){ codes[i].data_fixups[f].offset, codes[i].data_fixups[f].var,
			                                 codes[i].data_fixups[f].hi };
		slots[i] = xcalloc(k->nslots + 1, sizeof **slots);
		for (size_t s = 0; s < k->nslots; s++)
			slots[i][s] = (CubinSurfaceSlot){ k->slot_surfrefs[s], k->first_slot_offset + 4 * (uint32_t)s };
		ks[i] = (CubinKernel){
			.name = k->name, .local_symbol = k->local_symbol,
			.code = codes[i].code, .code_size = codes[i].size, .regcount = k->regcount,
			.params = k->params, .nparams = k->nparams, .slots = slots[i], .nslots = k->nslots,
			.exit_offsets = codes[i].facts.exits, .nexit_offsets = codes[i].facts.nexits,
			.uses_surfaces = k->uses_surfaces,
			.ctaid_offsets = codes[i].facts.ctaids, .nctaid_offsets = codes[i].facts.nctaids,
			.uses_ctaid_z = k->uses_ctaid_z, .explicit_caching = k->explicit_caching,
			.shared_size = k->shared_size, .shared_align = k->shared_align, .frame_size = k->frame_size,
			.crs_stack_size = SASS_CRS_CALL_BYTES * k->call_depth,
			.shared_strings = (const char *const *)k->shared_strings, .nshared_strings = k->nshared_strings,
			.maxreg_count = k->maxreg_count,
			.desc_fields = k->desc_fields, .ndesc_fields = k->ndesc_fields,
			.desc_size_symbol = k->desc_size_symbol,
			.desc_size_offsets = codes[i].desc_relocs, .ndesc_size_offsets = codes[i].ndesc_relocs,
			.data_fixups = fixups[i], .ndata_fixups = codes[i].ndata_fixups,
		};
		memcpy(ks[i].max_threads, k->max_threads, sizeof k->max_threads);
		memcpy(ks[i].req_ntid, k->req_ntid, sizeof k->req_ntid);
	}
	CubinModule cm = {
		.sm = 50, .ptx_target_sm = lm->target_sm, .address64 = lm->address64,
		.texmode_independent = lm->texmode_independent, .kernels = ks, .nkernels = lm->nkernels,
		.surfrefs = lm->surfrefs, .nsurfrefs = lm->nsurfrefs, .vars = vars, .nvars = lm->nvars,
	};
	char err[256];
	int rc = cubin_write(&cm, image, len, err, sizeof err);
	if (rc != 0) {
		SrcLoc none = { 0, 0, 0, 0 };
		diag_add(sink, SEV_ERROR, none, RULE_ENCODER_UNSUPPORTED, "cubin writer: %s", err);
	}
	for (size_t i = 0; i < lm->nkernels; i++) {
		free(slots[i]);
		free(fixups[i]);
	}
	free(slots);
	free(fixups);
	free(ks);
	cubin_vars_free(vars, lm->nvars);
	return rc;
}

static int write_raw(const KernelCode *codes, size_t n, uint8_t **image, size_t *len)
{
	size_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += codes[i].size;
	*image = xmalloc(total ? total : 1);
	*len = 0;
	for (size_t i = 0; i < n; i++) {
		memcpy(*image + *len, codes[i].code, codes[i].size);
		*len += codes[i].size;
	}
	return 0;
}

/* Encodes each kernel as soon as it is lowered and drops its instructions:
 * memory then holds one kernel's IR at a time, not the module's. */
typedef struct Encoder {
	DiagSink *sink;
	const AssembleOptions *o;
	KernelCode *codes;
	size_t n, cap;
	int rc;
} Encoder;

static void encode_one(LKernel *k, void *arg)
{
	Encoder *e = arg;
	if (e->n == e->cap) {
		e->cap = e->cap ? 2 * e->cap : 16;
		e->codes = xrealloc(e->codes, e->cap * sizeof *e->codes);
	}
	KernelCode *kc = &e->codes[e->n++];
	if (encode_kernel(k, e->sink, kc) != 0 || (e->o->verify_sched && verify_code(k, kc, e->sink) != 0))
		e->rc = 1;
	free(k->insns);
	free(k->vregs);
	k->insns = NULL;
	k->vregs = NULL;
	k->ninsns = k->cap = k->nvregs = k->vcap = 0;
}

struct AsmStream {
	Encoder e;
	LModule lm;
	LowerStream *lower;
};

AsmStream *asm_stream_begin(DiagSink *sink, const AssembleOptions *o)
{
	AsmStream *a = xcalloc(1, sizeof *a);
	a->e = (Encoder){ .sink = sink, .o = o };
	a->lower = lower_stream_begin(sink, &a->lm, encode_one, &a->e);
	return a;
}

void asm_stream_item(AsmStream *a, const Item *it)
{
	lower_stream_item(a->lower, it);
}

int asm_stream_end(AsmStream *a, bool emit, uint8_t **image, size_t *image_len, char **listing)
{
	*image = NULL;
	*image_len = 0;
	if (listing)
		*listing = NULL;
	Encoder *e = &a->e;
	const AssembleOptions *o = e->o;
	LModule *lm = &a->lm;
	int rc = lower_stream_end(a->lower) != 0 || e->rc != 0 || e->n != lm->nkernels;
	if (!emit)
		rc = 1;
	if (rc == 0 && o->want_listing && listing)
		rc = write_listing(lm, e->codes, e->sink, listing) ? 1 : 0;
	if (rc == 0)
		rc = (o->format == ASM_RAW ? write_raw(e->codes, lm->nkernels, image, image_len)
		                            : write_cubin(lm, e->codes, e->sink, image, image_len)) ? 1 : 0;
	if (rc != 0 && listing) {
		free(*listing);
		*listing = NULL;
	}
	for (size_t i = 0; i < e->n; i++)
		kernel_code_free(&e->codes[i]);
	free(e->codes);
	lower_module_free(lm);
	free(a);
	return rc;
}

int assemble_module(const Module *m, DiagSink *sink, const AssembleOptions *o,
                    uint8_t **image, size_t *image_len, char **listing)
{
	AsmStream *a = asm_stream_begin(sink, o);
	for (const Item *it = m->items; it; it = it->next)
		asm_stream_item(a, it);
	return asm_stream_end(a, true, image, image_len, listing);
}

/* Code layout of a finished kernel (see kernel_code.h). */
#include "lower/kernel_code.h"

#include "sm50/sched_verify.h"
#include "base/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The word of instruction i: a kernel instruction, the BRA to itself, or a NOP. */
static int encode_at(const LKernel *k, size_t i, uint64_t *word, char *err, size_t errlen)
{
	const LInsn *in = i < k->ninsns ? &k->insns[i] : NULL;
	const SassForm *f = in ? in->form : &sass_forms[i == k->ninsns ? SF_BRA : SF_NOP];
	char msg[200];
	int rc;
	if (in && (in->form->op == SOP_BRA || in->form->op == SOP_CAL || in->form->op == SOP_SSY ||
	           in->form->op == SOP_PBK)) {
		int64_t off = (int64_t)sass_insn_addr(k->label_pos[in->target]) - (int64_t)(sass_insn_addr(i) + 8);
		rc = linsn_encode(in, &off, word, msg, sizeof msg);
	} else if (in && in->form->op == SOP_BRX) {
		int64_t off = -(int64_t)(sass_insn_addr(i) + 8);     /* brx: Ra holds the target's offset */
		rc = linsn_encode(in, &off, word, msg, sizeof msg);
	} else if (in) {
		rc = linsn_encode(in, NULL, word, msg, sizeof msg);
	} else {
		SassValues v;
		sass_values_clear(&v);
		sass_values_set(&v, SR_IMM, i == k->ninsns ? -8 : 0);
		if (i == k->ninsns) {
			sass_values_set(&v, SR_U, 0);
			sass_values_set(&v, SR_COND, 0xf);
		}
		rc = sass_encode(f, &v, word, msg, sizeof msg);
	}
	if (rc != 0) {
		snprintf(err, errlen, "%s: %s", f->name, msg);
		return -1;
	}
	return 0;
}

/* A SYNC or BRK reconverge.c placed: ptxas 11.8 lists each, in address
 * order, in EIATTR_INDIRECT_BRANCH_TARGETS as {offset, 0, 1, target}. */
static bool is_join(const LInsn *in)
{
	return (in->form->op == SOP_SYNC || in->form->op == SOP_BRK) && in->target >= 0;
}

/* brx: where a BRX lands on target instruction i, as ptxas 11.8 writes it
 * in the jump table and EIATTR_INDIRECT_BRANCH_TARGETS: the first
 * instruction of a group by its group's (control word's) address. */
static uint32_t brx_landing(size_t i)
{
	uint64_t a = sass_insn_addr(i);
	return (uint32_t)(i % 3 == 0 ? a - 8 : a);
}

/* The BRX at addr: its table's .nv.constant2 words (the LKernel's pool,
 * laid out by lkernel_compact_const2) and its EIATTR_INDIRECT_BRANCH_TARGETS
 * entry {offset, 0, count, targets...}. */
static void brx_table_fill(const LKernel *k, const LInsn *in, uint32_t addr, KernelCode *out)
{
	const LBrxTable *t = &k->brx[in->target];
	uint32_t *w = out->sync_targets + out->nsync_target_words;
	w[0] = addr;
	w[1] = 0;
	w[2] = t->n;
	for (uint32_t j = 0; j < t->n; j++) {
		uint32_t to = brx_landing(k->label_pos[t->labels[j]]);
		w[3 + j] = to;
		k->desc_fields[t->word + j] = to;
	}
	out->nsync_target_words += 3 + t->n;
}

int kernel_code_build(const LKernel *k, const SassCtrl *ctrl, KernelCode *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	/* body, BRA to itself, NOPs to a multiple of 64 bytes (6 instructions) */
	size_t body = k->ninsns, total = body + 1;
	while (total % 6)
		total++;
	out->size = total / 3 * SASS_GROUP_BYTES;
	out->code = xcalloc(out->size, 1);
	out->desc_relocs = xcalloc(body + 1, sizeof *out->desc_relocs);
	out->desc_reloc_kinds = xcalloc(body + 1, sizeof *out->desc_reloc_kinds);
	out->data_fixups = xcalloc(body + 1, sizeof *out->data_fixups);
	out->extern_calls = xcalloc(body + 1, sizeof *out->extern_calls);
	out->handle_reads = xcalloc(body + 1, sizeof *out->handle_reads);
	out->shared_refs = xcalloc(body + 1, sizeof *out->shared_refs);
	size_t nsync = 0;
	for (size_t i = 0; i < body; i++) {
		nsync += 4 * is_join(&k->insns[i]);
		nsync += k->insns[i].form->op == SOP_BRX ? 3 + k->brx[k->insns[i].target].n : 0;
	}
	out->sync_targets = xcalloc(nsync + 1, sizeof *out->sync_targets);
	uint32_t slots[3] = { 0, 0, 0 };
	for (size_t i = 0; i < total; i++) {
		uint64_t addr = sass_insn_addr(i), word = 0;
		if (encode_at(k, i, &word, err, errlen) != 0)
			return -1;
		if (i < body) {
			const LInsn *in = &k->insns[i];
			sass_ctrl_pack_slot(&ctrl[i], &slots[i % 3]);
			if (in->reloc == LRELOC_DESC_SIZE || in->reloc == LRELOC_TEX_DESC_SIZE) {
				out->desc_reloc_kinds[out->ndesc_relocs] =
					in->reloc == LRELOC_TEX_DESC_SIZE ? LDESC_TEXTURE : LDESC_SURFACE;
				out->desc_relocs[out->ndesc_relocs++] = (uint32_t)addr;
			}
			if (in->reloc == LRELOC_DATA_LO || in->reloc == LRELOC_DATA_HI)
				out->data_fixups[out->ndata_fixups++] =
					(KernelDataFixup){ (uint32_t)addr, in->reloc_var, in->reloc == LRELOC_DATA_HI, false, false, false };
			if (in->reloc == LRELOC_CONST_ADDR)    /* the writer knows it by the variable's space */
				out->data_fixups[out->ndata_fixups++] =
					(KernelDataFixup){ (uint32_t)addr, in->reloc_var, false, false, false, false };
			if (in->reloc == LRELOC_DATA_ABS32)
				out->data_fixups[out->ndata_fixups++] =
					(KernelDataFixup){ (uint32_t)addr, in->reloc_var, false, false, true, false };
			if (in->reloc == LRELOC_KERNEL_LO || in->reloc == LRELOC_KERNEL_HI)
				out->data_fixups[out->ndata_fixups++] =
					(KernelDataFixup){ (uint32_t)addr, in->reloc_var, in->reloc == LRELOC_KERNEL_HI, true, false, false };
			if (in->reloc == LRELOC_FUNC_LO || in->reloc == LRELOC_FUNC_HI)
				out->data_fixups[out->ndata_fixups++] =
					(KernelDataFixup){ (uint32_t)addr, in->reloc_var, in->reloc == LRELOC_FUNC_HI, false, false, true };
			if (in->handle_slot)
				out->handle_reads[out->nhandle_reads++] = (KernelHandleRead){
					(uint32_t)addr, in->handle_slot - 1u, !sass_form_field(in->form, SR_SUIDX) };
			if (is_join(in)) {
				uint32_t *w = out->sync_targets + out->nsync_target_words;
				w[0] = (uint32_t)addr;
				w[1] = 0;
				w[2] = 1;
				w[3] = (uint32_t)sass_insn_addr(k->label_pos[in->target]);
				out->nsync_target_words += 4;
			}
			if (in->form->op == SOP_BRX)
				brx_table_fill(k, in, (uint32_t)addr, out);
			if (in->shared_sym)    /* -c: a module .shared variable, the linker's */
				out->shared_refs[out->nshared_refs++] = (KernelSharedRef){
					(uint32_t)addr, in->shared_sym - 1u,
					in->form->op == SOP_MOV32I ? (int64_t)(int32_t)linsn_get(in, SR_IMM, 0)
					                           : linsn_get(in, SR_IMM, 0) };
			if (in->reloc == LRELOC_EXTERN_CALL)
				out->extern_calls[out->nextern_calls++] = (KernelDataFixup){ (uint32_t)addr, in->reloc_var, false, false, false, false };
		} else {
			slots[i % 3] = i == body ? SASS_CTRL_SLOT_FLOW : SASS_CTRL_SLOT_PLAIN;
		}
		sass_store_word(out->code + addr, word);
		if (i % 3 == 2)
			sass_store_word(out->code + addr - 24, sass_ctrl_pack_word(slots));
	}
	sass_code_facts(out->code, body, &out->facts);
	return 0;
}

void kernel_code_free(KernelCode *kc)
{
	free(kc->code);
	sass_code_facts_free(&kc->facts);
	free(kc->desc_relocs);
	free(kc->desc_reloc_kinds);
	free(kc->data_fixups);
	free(kc->extern_calls);
	free(kc->handle_reads);
	free(kc->shared_refs);
	free(kc->sync_targets);
	memset(kc, 0, sizeof *kc);
}

int sched_verify(const LKernel *k, const SassCtrl *ctrl, char *err, size_t errlen)
{
	KernelCode kc;
	if (kernel_code_build(k, ctrl, &kc, err, errlen) != 0) {
		kernel_code_free(&kc);
		return -1;
	}
	DiagSink d;
	diag_init(&d, "", "", 0);
	SchedVerifyKernel v = { .name = k->name ? k->name : "", .loc = k->loc, .code = kc.code, .size = kc.size };
	unsigned n = sched_verify_code(&v, &d);
	if (n && d.head)
		snprintf(err, errlen, "%s", d.head->msg);
	diag_fini(&d);
	kernel_code_free(&kc);
	return n ? -1 : 0;
}

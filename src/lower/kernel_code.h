/* The .text of an allocated, scheduled kernel, laid out as ptxas 11.8 does:
 * 32-byte groups of a control word and three instructions, the kernel's
 * instructions, then BRA to itself and NOPs up to a multiple of 64 bytes.
 * Also collects the offsets the cubin needs: EXIT and S2R SR_CTAID from the
 * encoded words (sm50/sass_code_facts.h, as the SASS text path does), the
 * relocated MOV32I of the suq descriptor lookup from the IR. */
#ifndef PTXSURF_KERNEL_CODE_H
#define PTXSURF_KERNEL_CODE_H

#include "lower/lower.h"
#include "sm50/sass_code_facts.h"
#include "sm50/sass_ctrl.h"

#include <stddef.h>
#include <stdint.h>

/* A MOV32I loading half of a module .global variable's address. */
typedef struct KernelDataFixup {
	uint32_t offset;        /* byte offset in the code */
	uint32_t var;           /* index of LModule.vars (func: of LModule.kernel_addrs) */
	bool hi;
	bool func;              /* fnptr: a kernel's address (R_CUDA_FUNC_DESC32_*) */
	bool abs32;             /* the whole 32-bit address (R_CUDA_ABS32_20) */
	bool fnaddr;            /* -c: a .func's address (var: of LModule.func_addrs) */
} KernelDataFixup;

/* An instruction that names a bound handle's c[0x0] slot (LInsn.handle_slot):
 * a texture or surface instruction's slot field (SR_SUIDX) or a constant
 * operand reading the slot (SR_COFF); -c relocates it instead. */
typedef struct KernelHandleRead {
	uint32_t offset;        /* byte offset in the code */
	uint32_t slot;          /* index of LKernel.slot_surfrefs */
	bool operand;           /* SR_COFF, else SR_SUIDX */
} KernelHandleRead;

/* -c: an instruction addressing a module .shared variable (its SR_IMM
 * the offset in it), relocated R_CUDA_ABS24_20 as ptxas -c does. */
typedef struct KernelSharedRef {
	uint32_t offset;        /* byte offset in the code */
	uint32_t var;           /* index of LModule.shared */
	int64_t addend;
} KernelSharedRef;

typedef struct KernelCode {
	uint8_t *code;
	size_t size;
	SassCodeFacts facts;    /* EXIT and S2R SR_CTAID offsets */
	uint32_t *desc_relocs;  /* byte offsets of MOV32I of a descriptor size */
	uint8_t *desc_reloc_kinds;   /* per desc_relocs[i]: LDESC_* */
	size_t ndesc_relocs;
	KernelDataFixup *data_fixups;  /* MOV32I of module variable addresses */
	size_t ndata_fixups;
	KernelHandleRead *handle_reads;   /* in code order */
	size_t nhandle_reads;
	KernelDataFixup *extern_calls; /* JCAL of external functions (var: index of LModule.externs) */
	size_t nextern_calls;
	KernelSharedRef *shared_refs;  /* -c: LDS/STS/MOV32I naming a module .shared variable */
	size_t nshared_refs;
	/* EIATTR_INDIRECT_BRANCH_TARGETS words: per SYNC {offset, 0, 1, its
	 * SSY's join}, which nvdisasm needs to list a SYNC, as ptxas writes;
	 * per BRX of brx.idx {offset, 0, count, its table's targets} */
	uint32_t *sync_targets;
	size_t nsync_target_words;
} KernelCode;

/* Encodes k (registers allocated, every field set) with the control slots
 * ctrl[0 .. k->ninsns-1]; fills in the .nv.constant2 words of k's brx.idx
 * jump tables (the targets' offsets, known only now). Returns 0, or -1
 * with "FORM: reason" in err. */
int kernel_code_build(const LKernel *k, const SassCtrl *ctrl, KernelCode *out, char *err, size_t errlen);
void kernel_code_free(KernelCode *kc);

/* Encodes k with ctrl and runs sched_verify_code() (sched_verify.h) on the
 * result: every consumer waits for its producer and every overwrite of a
 * variable-latency source for its read barrier, along every path of the
 * control-flow graph, with the slot values nvdisasm accepts. Returns 0, or
 * -1 with the first violation in err. */
int sched_verify(const LKernel *k, const SassCtrl *ctrl, char *err, size_t errlen);

#endif

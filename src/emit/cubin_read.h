/* A defensive cubin reader.
 *
 * cubin_read() accepts any byte buffer: it either describes the CUDA ELF it
 * contains or returns a one-line reason why it cannot.  Every offset, size
 * and index in the file is range-checked before use, so truncated, corrupt
 * or random input never makes it read outside the buffer.
 *
 * Besides what a disassembler needs (each .text.<name> section's bytes and
 * address) it recovers the attributes cubin_write() takes -- register
 * count, parameters, surface slots, exit offsets -- so a cubin can be
 * rebuilt and compared byte for byte.
 *
 * The image borrows from the buffer: names and code point into it, so the
 * buffer must outlive the image. */
#ifndef PTXSURF_CUBIN_READ_H
#define PTXSURF_CUBIN_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emit/cubin.h"

typedef struct CubinReadKernel {
	/* name, code, regcount (from .text's sh_info), and -- when the
	 * .nv.info.<name> / .rel.nv.constant0.<name> sections exist -- params
	 * (by ordinal), surface slots (by offset), exit and SR_CTAID offsets and
	 * the other attributes cubin_write() knows; from .nv.constant2.<name>
	 * and .rel.text.<name> the suq descriptor lookup. */
	CubinKernel k;
	bool is_entry;          /* a FUNC symbol with STO_CUDA_ENTRY names it */
	uint64_t address;       /* sh_addr of the .text section */
	uint64_t file_offset;   /* where the code starts in the buffer */
	uint32_t text_section;  /* section index of .text.<name> */
	/* JCALs of functions in other code sections (ptxas -O0 -g), each with
	 * the index of the callee's kernels[] entry in var and func set */
	const CubinDataFixup *section_calls;
	size_t nsection_calls;
	/* -c: the MOV32I halves (hi) of such a function's address (a .func
	 * whose address is taken: R_CUDA_ABS32_LO_32/HI_32), var as above */
	const CubinDataFixup *section_addrs;
	size_t nsection_addrs;
} CubinReadKernel;

typedef struct CubinImage {
	uint32_t e_flags;
	int sm;                     /* e_flags bits 7:0 */
	int ptx_target_sm;          /* e_flags bits 23:16 */
	bool address64;
	bool texmode_independent;
	CubinReadKernel *kernels;   /* in section order (as cuobjdump lists them) */
	size_t nkernels;
	const char **surfrefs;      /* STT_CUDA_SURFACE and STT_CUDA_TEXTURE symbols, in symbol order */
	bool *surfref_is_texture;   /* per surfrefs[i]: STT_CUDA_TEXTURE */
	size_t nsurfrefs;
	/* storage owned by the image */
	SassParam *param_store;
	CubinHandleParam *handle_store;
	CubinSurfaceSlot *slot_store;
	uint32_t *offset_store;     /* exit/SR_CTAID offsets, SYNC targets */
	uint32_t *desc_store;       /* suq/txq lookups: .nv.constant2 words, .rel.text offsets */
	uint8_t *desc_kind_store;   /* ... and each offset's CubinDescKind */
	const char **string_store;  /* the .strtab names of shared variables */
	/* module .global/.const variables (issue 15): the STB_GLOBAL ones, then
	 * the others, each group in symbol order (the order cubin_write()
	 * creates their symbols in again); initialisers point into the buffer */
	CubinVar *vars;
	size_t nvars;
	CubinInitReloc *init_reloc_store;
	CubinDataFixup *fixup_store;
	/* -c code: the external functions (undefined FUNC symbols, in symbol
	 * order) the kernels' extern_calls index */
	const char **externs;
	size_t nexterns;
	CubinDataFixup *extern_call_store;
	/* -c: the words of .nv.global.init holding such a function's address
	 * (R_CUDA_32; offset in the section, var the kernels[] index); not
	 * in the vars' relocs, so cubin_image_module() leaves them out */
	CubinDataFixup *func_inits;
	size_t nfunc_inits;
	/* -c: every kernel's pool operands (R_CUDA_CONST_FIELD19_20 of
	 * .rel.text.<k>, the symbol's value and size), its const2_refs */
	CubinConst2Ref *const2_ref_store;
} CubinImage;

/* Parses buf[0..len).  Returns 0 and fills *img, or -1 with a reason in
 * err and *img empty (safe to pass to cubin_image_free either way). */
int cubin_read(const uint8_t *buf, size_t len, CubinImage *img, char *err, size_t errlen);

void cubin_image_free(CubinImage *img);

/* Describes the image as a CubinModule for cubin_write(): kernels go back
 * into PTX source order (the reverse of ptxas's section order) and the
 * surfrefs are given in symbol order, which cubin_write() maps back to the
 * same symbol order.  kernels must have room for img->nkernels entries;
 * *m borrows from img and kernels. */
void cubin_image_module(const CubinImage *img, CubinModule *m, CubinKernel *kernels);

#endif

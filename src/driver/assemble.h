/* The assembler back end: PTX module -> sm_50 code, as a cubin or as the
 * raw instruction stream, plus an nvdisasm-style listing. */
#ifndef PTXSURF_ASSEMBLE_H
#define PTXSURF_ASSEMBLE_H

#include "front/ast.h"
#include "base/diag.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum AsmFormat { ASM_CUBIN, ASM_RAW } AsmFormat;
typedef struct AssembleOptions {
	AsmFormat format;
	bool want_listing;
	bool verify_sched;      /* run sched_verify_code() on every finished kernel */
	/* > 1: kernels are allocated, scheduled and encoded on this many
	 * threads: kernel_threads - 1 workers while the next items are parsed,
	 * checked and lowered, and the calling thread whenever it waits for
	 * them (the output is the same as with 0 or 1: in the calling thread) */
	int kernel_threads;
	bool relocatable;       /* -c: an ET_REL object; calls of functions without a body are JCALs */
} AssembleOptions;

/* Lowers, allocates, schedules, verifies and encodes every .entry of m (a module the checker
   accepted). Unsupported constructs -> diagnostics in sink and nonzero return. On success returns 0,
   *image = malloc'd bytes (a cubin or the raw instruction stream of all kernels), *listing = malloc'd
   assembly listing text (when want_listing) in exactly the text format nvdisasm -hex prints (reuse
   sass_disasm), with kernel headers. */
int assemble_module(const Module *m, DiagSink *sink, const AssembleOptions *o,
                    uint8_t **image, size_t *image_len, char **listing);

/* The same one top-level item at a time, in module order: an item may be
 * freed once asm_stream_item() returns. What of a kernel's lowering no
 * longer reads its syntax tree (reconvergence, linking) waits for the next
 * asm_stream_item() or asm_stream_end(), and so does its back end (or it
 * runs on a worker thread, kernel_threads > 1): for the last kernel of a
 * file, after the parser has freed the syntax tree. asm_stream_end() with emit = false only releases the stream
 * (the module turned out to have errors); otherwise it finishes as
 * assemble_module() does, with the same return value and outputs. */
typedef struct AsmStream AsmStream;
AsmStream *asm_stream_begin(DiagSink *sink, const AssembleOptions *o);
void asm_stream_item(AsmStream *a, const Item *it);
int asm_stream_end(AsmStream *a, bool emit, uint8_t **image, size_t *image_len, char **listing);

#endif

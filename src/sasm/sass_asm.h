/* The SASS assembler: Maxwell (sm_50) assembly text in, a raw instruction
 * stream or a complete cubin out. The text syntax is nvdisasm's (so its
 * listings reassemble to the same bytes) plus the scheduling annotations of
 * NVIDIA's SASS documentation and a small kernel header; docs/sass-syntax.md
 * describes it. */
#ifndef PTXSURF_SASS_ASM_H
#define PTXSURF_SASS_ASM_H

#include "base/diag.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum SasmSchedule {
	SASM_SCHEDULE_KEEP,     /* control words from the text; defaults where none is given */
	SASM_SCHEDULE_AUTO,     /* compute every control word that the text does not give */
} SasmSchedule;

typedef struct SasmOptions {
	bool cubin;             /* else a raw stream (control words + instructions) */
	SasmSchedule schedule;
	bool want_listing;      /* also produce nvdisasm -b SM50 -hex -novliw text */
	bool verify_sched;      /* also run sched_verify_code() on the finished code */
} SasmOptions;

/* Assembles buf (len bytes followed by two NULs, like ptx_parse_buffer; the
 * scanner works in place). Diagnostics go to sink. Returns 0 on success with
 * a malloc'd *image of *image_len bytes and, when o->want_listing, a
 * malloc'd NUL-terminated *listing; otherwise nonzero with both NULL. */
int sasm_assemble_buffer(const char *filename, char *buf, size_t len, DiagSink *sink,
                         const SasmOptions *o, uint8_t **image, size_t *image_len,
                         char **listing);

#endif

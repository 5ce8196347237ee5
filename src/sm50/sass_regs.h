/* The register footprint of an sm_50 instruction (sass_regs.c): which
 * registers, predicates and condition code a form with given field values
 * reads and writes. Shared by the SASS front end (scheduler, register
 * count) and the hazard verifier of finished code (sched_verify.c). */
#ifndef PTXSURF_SASS_REGS_H
#define PTXSURF_SASS_REGS_H

#include "sm50/sass_encode.h"
#include "sm50/sass_table.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct SassRegUse {
	uint64_t reads[4], writes[4];   /* GPR bit sets, RZ never included */
	uint8_t pred_reads, pred_writes; /* PT never included */
	bool cc_read, cc_write;
	bool varlat;                     /* variable latency: results need a barrier */
} SassRegUse;

/* Widths follow the access size (.64 a pair, .128 a quad, .E a 64-bit
 * address pair, surface coordinates by geometry, TXQ results by mask). */
void sass_form_regs(const SassForm *f, const SassValues *v, SassRegUse *u);

/* Whether an instruction is variable latency (its results need a write
 * barrier): its form's class, and a VMAD with a 32-bit A or B, which runs
 * on the multi-function unit as IMAD does (ptxas 11.8 sets a barrier on
 * VMAD.U32.U32, .S32.S16, .U16.U32, .U8.U32 and .U32.U16 with an
 * immediate B, none on VMAD.U16.U16 or .U8.U8). vfmt_a and vfmt_b are the
 * SR_VFMT_A/SR_VFMT_B values (e_vfmt: U32 6, S32 14); other forms ignore
 * them. */
bool sass_varlat(const SassForm *f, int64_t vfmt_a, int64_t vfmt_b);

#endif

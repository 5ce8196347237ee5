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

#endif

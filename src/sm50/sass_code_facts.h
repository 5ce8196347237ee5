/* What the cubin's .nv.info needs to know about a finished kernel's code,
 * read from the encoded words themselves (as the hazard verifier reads
 * them), so that the PTX path (lower/kernel_code.c) and the SASS text path
 * (sasm/sass_asm.c) describe their code the same way: the byte offsets of
 * the EXIT instructions (EIATTR_EXIT_INSTR_OFFSETS) and of the S2R reads of
 * SR_CTAID.X/Y/Z (EIATTR_S2RCTAID_INSTR_OFFSETS), and whether SR_CTAID.Z is
 * read (EIATTR_CTAIDZ_USED). */
#ifndef PTXSURF_SASS_CODE_FACTS_H
#define PTXSURF_SASS_CODE_FACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The special-register numbers of %ctaid.x/y/z (S2R's SR_SREG field). */
enum { SASS_SR_CTAID_X = 0x25, SASS_SR_CTAID_Y = 0x26, SASS_SR_CTAID_Z = 0x27 };

typedef struct SassCodeFacts {
	uint32_t *exits;        /* byte offsets of the EXIT instructions */
	size_t nexits;
	uint32_t *ctaids;       /* ... of S2R SR_CTAID.X/Y/Z */
	size_t nctaids;
	bool uses_ctaid_z;
} SassCodeFacts;

/* Scans the first ninsns instructions of .text `code` (control word + 3
 * instructions per 32 bytes). Words that decode to no form are skipped.
 * Free the result with sass_code_facts_free. */
void sass_code_facts(const uint8_t *code, size_t ninsns, SassCodeFacts *out);
void sass_code_facts_free(SassCodeFacts *f);

#endif

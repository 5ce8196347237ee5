/* What the cubin's .nv.info needs to know about a finished kernel's code,
 * read from the encoded words themselves (as the hazard verifier reads
 * them), so that the PTX path (lower/kernel_code.c) and the SASS text path
 * (sasm/sass_asm.c) describe their code the same way: the byte offsets of
 * the EXIT instructions (EIATTR_EXIT_INSTR_OFFSETS) and of the S2R reads of
 * SR_CTAID.X/Y/Z (EIATTR_S2RCTAID_INSTR_OFFSETS), and whether SR_CTAID.Z is
 * read (EIATTR_CTAIDZ_USED); and, for a relocatable object, every operand
 * read from the .nv.constant2 pool (c[0x2][off]). */
#ifndef PTXSURF_SASS_CODE_FACTS_H
#define PTXSURF_SASS_CODE_FACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sm50/sass_table.h"

/* The special-register numbers of %ctaid.x/y/z (S2R's SR_SREG field). */
enum { SASS_SR_CTAID_X = 0x25, SASS_SR_CTAID_Y = 0x26, SASS_SR_CTAID_Z = 0x27 };

/* The pool bank, and an operand read from it: the instruction's byte
 * offset, the operand's byte offset in the pool and its bytes (8 for the
 * FP64 forms, which read a pair; else 4). ptxas -c relocates each (type
 * 0x32 against a symbol of the pool's bytes) and writes c[0x0][0x0]. */
enum { SASS_CONST2_BANK = 2 };
typedef struct SassConst2Read {
	uint32_t addr, offset, size;
} SassConst2Read;

/* -c: a brx.idx jump table is read as LDC c[0x2][Ri + table - bias] after
 * an IADD32I Ri, Ri, bias, as ptxas -c reads it (the relocated offset's
 * addend is -bias). */
enum { SASS_BRX_TABLE_BIAS = 0x8000 };

/* -c: an operand read from .nv.constant3 (module .const variables) at a
 * fixed byte offset: an ALU constant operand (ldc false) or an LDC of
 * c[0x3][RZ+off] (an LDC through a register reads an address, no operand). */
enum { SASS_CONST3_BANK = 3 };
typedef struct SassConst3Read {
	uint32_t addr, offset;
	bool ldc;
} SassConst3Read;

typedef struct SassCodeFacts {
	uint32_t *exits;        /* byte offsets of the EXIT instructions */
	size_t nexits;
	uint32_t *ctaids;       /* ... of S2R SR_CTAID.X/Y/Z */
	size_t nctaids;
	bool uses_ctaid_z;
	SassConst2Read *const2_reads;   /* in code order (LDC of a jump table excluded) */
	size_t nconst2_reads;
	/* the LDC reads of .nv.constant2 (jump tables): offset is the LDC's
	 * byte offset as encoded (signed), size 4 */
	SassConst2Read *table_reads;
	size_t ntable_reads;
	SassConst3Read *const3_reads;   /* in code order */
	size_t nconst3_reads;
} SassCodeFacts;

/* Whether op's constant operand is an FP64 value: a pair of pool words. */
bool sass_op_reads_f64_const(SassOp op);

/* Scans the first ninsns instructions of .text `code` (control word + 3
 * instructions per 32 bytes). Words that decode to no form are skipped.
 * Free the result with sass_code_facts_free. */
void sass_code_facts(const uint8_t *code, size_t ninsns, SassCodeFacts *out);
void sass_code_facts_free(SassCodeFacts *f);
/* Rewrites the instruction at byte addr of code with field `role` 0
 * (SR_COFF: c[0x0][0x0]), the word ptxas -c writes under a relocation. */
void sass_code_unbind(uint8_t *code, uint32_t addr, SassRole role);
/* Rewrites each of f's const2_reads and table_reads in code to read
 * c[0x0][0x0] (an LDC: c[0x0][Ri]), the word ptxas -c writes under the
 * relocation. */
void sass_code_unbind_const2(uint8_t *code, const SassCodeFacts *f);

#endif

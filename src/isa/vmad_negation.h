/* Which negated operands vmad's hardware takes: one rule for the checker
 * (operand-type diagnostics) and the sm_50 lowering (which refuses what
 * the checker was told not to report with -Wno-operand-type). */
#ifndef PTXSURF_VMAD_NEGATION_H
#define PTXSURF_VMAD_NEGATION_H

#include <stdbool.h>

typedef enum VmadNegation {
	VMAD_NEG_FITS,              /* the hardware has it */
	VMAD_NEG_PRODUCT_AND_C,     /* -a xor -b (the product) with -c */
	VMAD_NEG_WITH_PO,           /* .po with a negated product or c */
} VmadNegation;

/* VMAD negates the product (its -A: -a or -b, not both) or c, not both;
 * .po adds 1 to the product, so there only -a with -b (which cancel) is
 * left. */
VmadNegation vmad_negation(bool po, bool neg_a, bool neg_b, bool neg_c);

/* ptxas's words for each refusal ("Operand negation limited to ..."). */
const char *vmad_negation_ptxas_message(VmadNegation v);

#endif

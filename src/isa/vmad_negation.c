/* vmad's negation combinations (vmad_negation.h), as ptxas 11.8 and 13
 * accept them (probed: every combination of -a, -b, -c with and without
 * .po). */
#include "isa/vmad_negation.h"

VmadNegation vmad_negation(bool po, bool neg_a, bool neg_b, bool neg_c)
{
	bool product = neg_a != neg_b;
	if (product && neg_c)
		return VMAD_NEG_PRODUCT_AND_C;
	if (po && (product || neg_c))
		return VMAD_NEG_WITH_PO;
	return VMAD_NEG_FITS;
}

const char *vmad_negation_ptxas_message(VmadNegation v)
{
	switch (v) {
	case VMAD_NEG_PRODUCT_AND_C:
		return "Operand negation limited to either (source A xor source B) or source C";
	case VMAD_NEG_WITH_PO:
		return "Conflicting use of '.po' modifier with operand negation";
	case VMAD_NEG_FITS:
		break;
	}
	return "";
}

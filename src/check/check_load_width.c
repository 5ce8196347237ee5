/* How wide a vector ld and ldu may load, as ptxas 13 words it: 128 bits;
 * ld also 256 bits as .v8 of a 32-bit type or .v4 of a 64-bit type (PTX
 * ISA 8.8, gated in isa_gates.def), from .global or a generic address only;
 * .v8 only of 32-bit types. st has the same limits in check_st.c. */
#include "check/check_internal.h"

#include <string.h>

void check_load_width(CheckCtx *c, const Instr *in)
{
	bool ldu = strcmp(in->opcode, "ldu") == 0;
	if (!ldu && strcmp(in->opcode, "ld") != 0)
		return;
	/* the words of each class are in modifier_classes.def */
	int vec_at = modifier_of_class(in, "vector"), type_at = modifier_of_class(in, "type");
	int space_at = modifier_of_class(in, "state space");
	int n = vec_at >= 0 ? in->mods[vec_at][2] - '0' : 0;
	PtxType type = type_at >= 0 ? type_from_word(in->mods[type_at]) : TY_NONE;
	const char *space = space_at >= 0 ? in->mods[space_at] : NULL;
	if (!n || type == TY_NONE)
		return;
	int tbits = type_info(type)->bits, bits = n * tbits;
	bool wide_form = !ldu && ((n == 8 && tbits == 32) || (n == 4 && tbits == 64));
	SrcLoc at = check_mod_loc(in, vec_at);
	if (n == 8 && tbits < 32)
		/* ptxas 13 (sm_100a) segfaults on these in some runs and accepts
		 * them in others, the same file alike: both modes reject them. */
		check_error(c, at, RULE_VECTOR_WIDTH, ".v8 of a %d-bit type (%s): ptxas 13 crashes on it in some runs; .v8 "
			"takes 32-bit types (use .v4 of a type twice as wide)", tbits, type_info(type)->word);
	else if (bits > 256 || (bits > 128 && !wide_form))
		check_error(c, at, RULE_VECTOR_WIDTH, "Vector type too large, exceeds 128 bit limit (.v%d%s is %d bits; %s)",
			n, type_info(type)->word, bits,
			ldu ? "ldu loads at most 128" : "256 only as .v8 of a 32-bit type or .v4 of a 64-bit type");
	else if (bits == 256 && space && strcmp(space, ".global") != 0)
		check_error(c, at, RULE_VECTOR_WIDTH, "global state space expected for feature '256 bit wide load/store' "
			"(not %s)", space);
}

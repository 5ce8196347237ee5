/* The printers of the decoder-only forms ptxas emits (IMUL, IMAD, LOP3,
 * ...: sass_forms.def, "decoder-only forms ptxas emits"), in nvdisasm's
 * spelling; sass_format_insn (sass_disasm.c) hands them the forms neither
 * it nor sass_disasm_fam.c prints. */
#ifndef PTXSURF_SASS_DISASM_PTXAS_H
#define PTXSURF_SASS_DISASM_PTXAS_H

#include "sm50/sass_disasm_text.h"

/* Prints the instruction at addr into t; false when f is not one of these families. */
bool sass_format_ptxas(Text *t, const SassForm *f, const SassValues *v, uint32_t slot, uint64_t addr);

#endif

/* The printers of the instruction families beyond the surface slice (integer bit operations,
 * double precision, barriers, warp operations), in nvdisasm's spelling;
 * sass_format_insn (sass_disasm.c) hands them the forms it does not print
 * itself. */
#ifndef PTXSURF_SASS_DISASM_FAM_H
#define PTXSURF_SASS_DISASM_FAM_H

#include "sm50/sass_disasm_text.h"

/* Prints the instruction into t; false when f is not one of these families. */
bool sass_format_fam(Text *t, const SassForm *f, const SassValues *v, uint32_t slot);

/* Atomics, reductions and warp operations (sass_disasm_warp.c); false
 * when f is not one of them. */
bool sass_format_warp(Text *t, const SassForm *f, const SassValues *v, uint32_t slot);

/* Textures: TEX, TLD, TLD4 and their .B forms (sass_disasm_tex.c); false
 * when f is not one of them. */
bool sass_format_tex(Text *t, const SassForm *f, const SassValues *v, uint32_t slot);

#endif

/* The printers of the scalar video forms (VADD, VMNMX, VSET, VSHL, VSHR,
 * VMAD: sass_forms.def, "video2") in nvdisasm 11.8's spelling;
 * sass_format_ptxas hands them over. */
#ifndef PTXSURF_SASS_DISASM_VIDEO_H
#define PTXSURF_SASS_DISASM_VIDEO_H

#include "sm50/sass_disasm_text.h"

/* Prints the instruction into t; false when f is not a scalar video form. */
bool sass_format_video(Text *t, const SassForm *f, const SassValues *v, uint32_t slot);

#endif

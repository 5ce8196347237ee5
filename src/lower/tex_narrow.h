/* Texture results narrowed to the components a kernel reads (texs). */
#ifndef PTXSURF_LOWER_TEX_NARROW_H
#define PTXSURF_LOWER_TEX_NARROW_H

#include "lower/liveness.h"

/* Narrows the write mask of k's instruction i, a texture sample or fetch
 * the lowering marked LInsn.tex_result, to the components lv shows read
 * after it, as ptxas 11.8 does (at -O0 too): the kept components land in
 * consecutive destination registers, and every reference to them is
 * renumbered. Returns whether anything changed (lv is then out of date). */
bool tex_narrow(LKernel *k, size_t i, const Liveness *lv);
/* The compact forms tex_narrow found read in a set of components they
 * cannot write (LInsn.tex_general), rewritten as TEX/TLD/TLD4 with that
 * mask, as ptxas writes them; after the dead code is gone. Returns whether
 * any was (the liveness is then out of date). */
bool tex_general(LKernel *k);

#endif

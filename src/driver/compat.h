/* The target-compatibility modes of the driver: --print-requirements and
 * --targets/--ptx-version. */
#ifndef PTXSURF_COMPAT_H
#define PTXSURF_COMPAT_H

#include "front/ast.h"
#include "base/diag.h"
#include "driver/options.h"

#include <stdio.h>

/* m parsed cleanly; d is its sink (for the source text and file name). */
int compat_requirements(Module *m, DiagSink *d, const Options *o, FILE *out);
int compat_targets(Module *m, DiagSink *d, const Options *o, FILE *out);
/* --fix-version / --fix-target: rewrites the header of the file at `path`
 * (whose text is in d) to -o or in place, atomically. */
int compat_fix(Module *m, DiagSink *d, const Options *o, const char *path);

#endif

/* Shared by the cubin writer (cubin.c) and its module checks (cubin_check.c). */
#ifndef PTXSURF_CUBIN_INTERNAL_H
#define PTXSURF_CUBIN_INTERNAL_H

#include "emit/cubin.h"

#include <stddef.h>

/* Writes the message into err (when given); returns -1. */
int cubin_fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Index of the surfref `name` in m->surfrefs, or -1. */
ptrdiff_t cubin_surfref_index(const CubinModule *m, const char *name);

/* Validates a module description before anything is built: names, sizes,
 * offsets and field ranges.  0, or -1 with a reason in err. */
int cubin_check_module(const CubinModule *m, char *err, size_t errlen);

#endif

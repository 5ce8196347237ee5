/* Writing output files atomically: the bytes go to a temporary file in the
 * same directory, which replaces the target only once it is complete, so a
 * failed run never truncates or clobbers an existing output. */
#ifndef PTXSURF_OUTPUT_H
#define PTXSURF_OUTPUT_H

#include <stddef.h>

/* path "-" writes to stdout. Returns 0, or -1 with a message in err. */
int output_write_atomic(const char *path, const void *data, size_t len, char *err, size_t errlen);

#endif

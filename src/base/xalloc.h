/* malloc wrappers that end the program with a message instead of returning
 * NULL: an assembler out of memory cannot continue meaningfully. */
#ifndef PTXSURF_XALLOC_H
#define PTXSURF_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
_Noreturn void xdie(const char *fmt, ...);

#endif
